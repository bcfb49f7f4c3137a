package coordinator

import (
	"maps"
	"testing"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// TestAliasCanonical checks the §4.5 canonical form of models: aliases
// and nils no reference literal asks for are undone, the ones asked for
// are kept in canonical form, and a canonical model that breaks the query
// gives way to the solver's.
func TestAliasCanonical(t *testing.T) {
	// Inputs: l1 (choice 0), x (1), l2 (2, may alias l1), l3 (3, may alias
	// l1 or l2), and o (4), a pointer to another type.
	ps := []rt.Param{
		{Name: "l1.nil", Kind: rt.ParamInt, Width: 64, Max: 1, Ref: true},
		{Name: "x", Kind: rt.ParamInt, Width: 64, Signed: true},
		{Name: "l2.nil", Kind: rt.ParamInt, Width: 64, Max: 2, Ref: true, Refs: []int{0}},
		{Name: "l3.nil", Kind: rt.ParamInt, Width: 64, Max: 3, Ref: true, Refs: []int{0, 2}},
		{Name: "o.nil", Kind: rt.ParamInt, Width: 64, Max: 1, Ref: true},
	}
	b := sym.NewBuilder()
	offs := rt.Layout(ps, 4)
	ids := rt.NewIdents(b, ps, offs)
	zero := b.Const(0, 64)
	isNil := func(j int) *sym.Expr { return b.Eq(ids.Term(j), zero) }
	same := func(i, j int) *sym.Expr { return b.Eq(ids.Term(i), ids.Term(j)) }
	x5 := b.Eq(b.Var(1, 64), b.Const(5, 64))
	tests := []struct {
		name      string
		q         solver.Query
		model     sym.Env
		want      sym.Env
		fallbacks int
	}{
		{
			name:  "needless alias and nil are undone",
			q:     solver.Query{Constraints: []*sym.Expr{b.Not(isNil(0))}, Goal: x5},
			model: sym.Env{0: 0, 1: 5, 2: 2, 3: 1, 4: 1},
			want:  sym.Env{0: 0, 1: 5, 2: 0, 3: 0, 4: 0},
		},
		{
			name:  "a required alias is kept, made by the first input",
			q:     solver.Query{Constraints: []*sym.Expr{x5}, Goal: same(2, 0)},
			model: sym.Env{0: 1, 1: 5, 2: 1, 3: 3},
			want:  sym.Env{0: 0, 1: 5, 2: 2, 3: 0},
		},
		{
			name:  "aliases chain through the graph",
			q:     solver.Query{Constraints: []*sym.Expr{b.Not(isNil(3)), same(3, 2)}, Goal: same(0, 2)},
			model: sym.Env{0: 0, 2: 2, 3: 3},
			want:  sym.Env{0: 0, 2: 2, 3: 2},
		},
		{
			name:  "a required nil is kept, one input choice undecided",
			q:     solver.Query{Constraints: []*sym.Expr{same(0, 2)}, Goal: isNil(2)},
			model: sym.Env{0: 1, 2: 2},
			want:  sym.Env{0: 1, 2: 1, 3: 3},
		},
		{
			name:      "a constraint the graph does not see: the solver's model stands",
			q:         solver.Query{Goal: b.Eq(b.Var(4, 64), b.Const(1, 64))},
			model:     sym.Env{4: 1, 2: 2},
			want:      sym.Env{4: 1, 2: 2},
			fallbacks: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newAliasGraph(b, ps, offs)
			env := sym.Env{3: 3} // the base: l3 aliased l2 in the last run
			maps.Copy(env, tt.model)
			got := g.canonical(tt.q, env, tt.model)
			want := sym.Env{3: 3}
			maps.Copy(want, tt.want)
			if !maps.Equal(got, want) {
				t.Errorf("canonical model %v, want %v", got, want)
			}
			if g.Fallbacks != tt.fallbacks {
				t.Errorf("%d fallbacks, want %d", g.Fallbacks, tt.fallbacks)
			}
		})
	}
}
