package rt

import (
	"testing"

	"github.com/gocolic/gocolic/sym"
)

type aliasNode struct {
	V    int
	Next *aliasNode
}

// aliasParams are three pointer inputs to one type: a, then b, which may
// alias a, then c, which may alias a or b.
var aliasParams = []Param{
	{Name: "a.nil", Kind: ParamInt, Width: 64, Max: 1, Ref: true},
	{Name: "b.nil", Kind: ParamInt, Width: 64, Max: 2, Ref: true, Refs: []int{0}},
	{Name: "c.nil", Kind: ParamInt, Width: 64, Max: 3, Ref: true, Refs: []int{0, 1}},
}

// assemble does what a generated entry file does for the three inputs, each a
// separate parameter, under env; it returns the pointers.
func assemble(env sym.Env) (in *Input, ps [3]*aliasNode) {
	in = &Input{env: env, offs: Layout(aliasParams, 4), maxLen: 4, params: aliasParams}
	for i := range ps {
		p, isNew := InputPtr[aliasNode](in, i)
		if isNew {
			p = new(aliasNode)
			InputObject(in, i, p)
		}
		ps[i] = p
	}
	return in, ps
}

// TestIdents checks the identity terms: j+1 for a new object, 0 for nil,
// the aliased input's for an alias, and the last alias for a choice above
// Max; and that the coordinator's builder makes terms of the same shape.
func TestIdents(t *testing.T) {
	b := sym.NewBuilder()
	id := NewIdents(b, aliasParams, Layout(aliasParams, 4))
	tests := []struct {
		env  sym.Env
		want [3]uint64
	}{
		{sym.Env{}, [3]uint64{1, 2, 3}},
		{sym.Env{0: 1, 1: 1, 2: 1}, [3]uint64{0, 0, 0}},
		{sym.Env{1: 2, 2: 3}, [3]uint64{1, 1, 1}},
		{sym.Env{0: 1, 1: 2, 2: 2}, [3]uint64{0, 0, 0}},
		{sym.Env{2: 9}, [3]uint64{1, 2, 2}},
	}
	for _, tt := range tests {
		for j, w := range tt.want {
			if got := sym.Eval(id.Term(j), tt.env); got != w {
				t.Errorf("ident(%d) under %v = %d, want %d", j, tt.env, got, w)
			}
		}
	}
	// The worker builds the same term: encoded and decoded into b, it is
	// the coordinator's node.
	own(t)
	reset(0)
	in, _ := assemble(sym.Env{})
	enc := sym.NewEncoder()
	r := enc.Encode(in.ident(2))
	dec := sym.NewDecoder(b)
	if err := dec.Decode(enc.Bytes()); err != nil {
		t.Fatal(err)
	}
	if got, err := dec.Node(r); err != nil || got != id.Term(2) {
		t.Errorf("decoded worker term %v (%v) is not the coordinator's %v", got, err, id.Term(2))
	}
}

// TestPtrEq checks the pointers InputPtr makes and the shadows of pointer
// comparisons: each shadow holds under the input and flips under another.
func TestPtrEq(t *testing.T) {
	own(t)
	type cmp struct {
		name string
		v    V[bool]
		want bool
		flip sym.Env // an input under which the shadow must be !want
	}
	tests := []struct {
		name  string
		env   sym.Env
		alias [3]int // which input's pointer each is
		cmps  func(p [3]*aliasNode) []cmp
	}{
		{"distinct objects", sym.Env{}, [3]int{0, 1, 2}, func(p [3]*aliasNode) []cmp {
			return []cmp{
				{"a==b", PtrEq(p[0], p[1]), false, sym.Env{1: 2}},
				{"b!=c", PtrNe(p[1], p[2]), true, sym.Env{2: 3}},
				{"a==nil", PtrEq(p[0], nil), false, sym.Env{0: 1}},
			}
		}},
		{"c aliases b", sym.Env{2: 3}, [3]int{0, 1, 1}, func(p [3]*aliasNode) []cmp {
			return []cmp{
				{"b==c", PtrEq(p[1], p[2]), true, sym.Env{2: 0}},
				{"a==c", PtrEq(p[0], p[2]), false, sym.Env{1: 2, 2: 3}}, // through b, which made the object
				{"c!=nil", PtrNe(p[2], nil), true, sym.Env{1: 1}},
			}
		}},
		{"b nil, c aliases it", sym.Env{1: 1, 2: 3}, [3]int{0, 1, 1}, func(p [3]*aliasNode) []cmp {
			return []cmp{
				{"c==nil", IsNil(p[2]), true, sym.Env{1: 0}},
				{"b==c", PtrEq(p[1], p[2]), true, sym.Env{2: 0, 1: 0}},
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(0)
			_, p := assemble(tt.env)
			for i, j := range tt.alias {
				if p[i] != p[j] {
					t.Errorf("input %d is not input %d's pointer", i, j)
				}
			}
			for _, c := range tt.cmps(p) {
				if c.v.C != c.want || c.v.S == nil {
					t.Fatalf("%s: %v with shadow %v, want %v with a shadow", c.name, c.v.C, c.v.S, c.want)
				}
				if got := sym.Holds(c.v.S, tt.env); got != c.want {
					t.Errorf("%s: shadow gives %v under the input", c.name, got)
				}
				if got := sym.Holds(c.v.S, c.flip); got == c.want {
					t.Errorf("%s: shadow gives %v under %v, want the other outcome", c.name, got, c.flip)
				}
			}
			// The one object of a single input equals itself concretely,
			// and pointers no input made compare concretely.
			if v := PtrEq(p[0], p[0]); !v.C || v.S != nil {
				t.Errorf("a==a: %v %v, want true and no shadow", v.C, v.S)
			}
			if v := PtrEq(new(aliasNode), p[0]); v.C || v.S != nil {
				t.Errorf("a pointer that is no input: %v %v, want false and no shadow", v.C, v.S)
			}
		})
	}
}

// TestInputPtrFallback checks that the registry is per execution: an
// alias of an input this execution has not assembled (here: none has)
// makes a new object, even after an execution that made the input.
func TestInputPtrFallback(t *testing.T) {
	own(t)
	reset(0)
	assemble(sym.Env{})
	in := &Input{env: sym.Env{1: 2}, offs: Layout(aliasParams, 4), maxLen: 4, params: aliasParams}
	if p, isNew := InputPtr[aliasNode](in, 1); !isNew || p != nil {
		t.Errorf("alias of an input not made: %p %v, want a new object", p, isNew)
	}
}

// TestAliasOtherGoroutine checks that a goroutine that does not own the
// state assembles the same pointers but records and reads nothing.
func TestAliasOtherGoroutine(t *testing.T) {
	own(t)
	reset(0)
	done := make(chan struct{})
	var p [3]*aliasNode
	var eq, isNil V[bool]
	go func() {
		defer close(done)
		_, p = assemble(sym.Env{2: 2})
		eq, isNil = PtrEq(p[0], p[2]), IsNil(p[1])
	}()
	<-done
	if p[0] != p[2] || p[0] == p[1] {
		t.Errorf("pointers %p %p %p: want c to alias a only", p[0], p[1], p[2])
	}
	if !eq.C || eq.S != nil || isNil.C || isNil.S != nil {
		t.Errorf("comparisons on another goroutine: %+v %+v, want concrete", eq, isNil)
	}
	if len(st.objs) != 0 || st.nils != nil {
		t.Errorf("another goroutine recorded %d objects and nils %v", len(st.objs), st.nils)
	}
}
