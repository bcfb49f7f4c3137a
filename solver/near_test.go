package solver_test

import (
	"context"
	"slices"
	"testing"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// holdsAll reports whether m, laid over seed, satisfies q.
func holdsAll(q solver.Query, seed, m sym.Env) bool {
	env := clone(seed)
	if env == nil {
		env = sym.Env{}
	}
	for k, v := range m {
		env[k] = v
	}
	for _, c := range append(slices.Clone(q.Constraints), q.Goal) {
		if !sym.Holds(c, env) {
			return false
		}
	}
	return true
}

func TestSeedFix(t *testing.T) {
	tm := newTerms()
	b := tm.b
	n := b.Var(9, 64) // a length
	seed := sym.Env{0: 'a', 1: 'b', 2: 3, 3: 200, 9: 3}
	spaced := sym.Env{0: 'a', 1: 'b', 2: ' ', 9: 3}
	// s[n-1], the last of three bytes x, y, z, as the rewrite indexes it.
	last := b.Ite(b.Eq(n, b.Const(1, 64)), tm.x, b.Ite(b.Eq(n, b.Const(2, 64)), tm.y, tm.z))
	tests := []struct {
		name  string
		cs    []*sym.Expr
		goal  *sym.Expr
		seed  sym.Env
		local bool // answered Sat without the core
		moved int  // variables the model changes, when local (0: one)
	}{
		{"byte equals a constant", []*sym.Expr{tm.eq(tm.y, tm.k('b'))}, tm.eq(tm.x, tm.k('=')), seed, true, 1},
		{"byte above another byte: a range, left to the core", nil, tm.lt(tm.y, tm.x), seed, false, 1},
		{"through add and xor", nil, tm.eq(b.Bin(sym.KXor, b.Add(tm.z, tm.k(7)), tm.k(0x55)), tm.k(0x10)), seed, true, 1},
		{"through zero extension", nil, b.Cmp(sym.KULt, b.Const(1000, 64), b.Add(b.ZExt(tm.w, 64), b.ZExt(tm.z, 64))), seed, false, 1},
		{"through a mask", nil, tm.eq(b.Bin(sym.KAnd, tm.w, tm.k(0x0f)), tm.k(0x03)), seed, true, 1},
		{"chosen arm of an index", []*sym.Expr{b.Cmp(sym.KULe, n, b.Const(3, 64))}, tm.eq(last, tm.k(' ')), seed, true, 1},
		{"shorter: a range of lengths, left to the core", []*sym.Expr{b.Cmp(sym.KULe, n, b.Const(3, 64)), tm.eq(last, tm.k(' '))}, b.Cmp(sym.KULt, n, b.Const(3, 64)), spaced, false, 1},
		{"the fix breaks a constraint on itself", []*sym.Expr{tm.lt(tm.k('P'), tm.x)}, tm.eq(tm.x, tm.k('=')), seed, false, 1},
		{"no seed", nil, tm.eq(tm.x, tm.k('=')), nil, false, 1},
		{"contradiction", []*sym.Expr{tm.eq(tm.x, tm.k(1))}, tm.eq(tm.x, tm.k(2)), seed, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			core := answering(solver.Result{Status: solver.Unknown})
			s := solver.NewSeedFix(core)
			q := solver.Query{Constraints: tt.cs, Goal: tt.goal, Seed: tt.seed}
			r, err := s.Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if local := len(core.got) == 0; local != tt.local {
				t.Fatalf("answered without the core: %v, want %v (%v)", local, tt.local, r.Status)
			}
			if !tt.local {
				return
			}
			if r.Status != solver.Sat || !holdsAll(q, tt.seed, r.Model) {
				t.Errorf("got %v %v, want a model of the query", r.Status, r.Model)
			}
			changed := 0
			for k, v := range r.Model {
				if tt.seed[k] != v {
					changed++
				}
			}
			if want := max(tt.moved, 1); changed != want {
				t.Errorf("model %v changes %d variables of the seed, want %d", r.Model, changed, want)
			}
			if st := s.Stats(); st.Local != 1 || st.Sat != 1 {
				t.Errorf("stats %+v, want one local sat", st)
			}
		})
	}
}

func TestDomain(t *testing.T) {
	tm := newTerms()
	b := tm.b
	n := b.Var(9, 64) // a length, limited to 32
	big := b.Var(10, 64)
	c64 := func(v uint64) *sym.Expr { return b.Const(v, 64) }
	limit := b.Cmp(sym.KULe, n, c64(32))
	seed := sym.Env{0: 'a', 1: 'b', 9: 5, 10: 1 << 40}
	tests := []struct {
		name string
		cs   []*sym.Expr
		goal *sym.Expr
		want solver.Status // Unknown: passed to the core
	}{
		// Lengths are Z3's: its lengths grow an input by more than the
		// nearest one byte, and its later models depend on the queries
		// it saw.
		{"length beyond what the prefix allows", []*sym.Expr{limit, b.Cmp(sym.KSLt, c64(0), n)}, b.Not(b.Cmp(sym.KULt, c64(0), n)), solver.Unknown},
		{"loop bound decided by the prefix", []*sym.Expr{limit, b.Cmp(sym.KULt, c64(6), n), b.Not(b.Cmp(sym.KULt, c64(7), n))}, b.Cmp(sym.KULt, b.Add(n, c64(^uint64(0))), c64(6)), solver.Unknown},
		{"longer input", []*sym.Expr{limit, b.Cmp(sym.KULt, c64(2), n)}, b.Cmp(sym.KULt, c64(5), n), solver.Unknown},
		{"length pinned", []*sym.Expr{limit, b.Cmp(sym.KULt, c64(2), n)}, b.Eq(n, c64(7)), solver.Unknown},
		{"byte, full domain", []*sym.Expr{tm.lt(tm.x, tm.k(10)), tm.lt(tm.y, tm.x)}, tm.eq(tm.x, tm.k(0)), solver.Unknown},
		{"byte, unsat", []*sym.Expr{tm.lt(tm.x, tm.k(10))}, tm.lt(tm.k(20), tm.x), solver.Unsat},
		{"byte, sat", []*sym.Expr{tm.lt(tm.x, tm.k(10))}, tm.eq(tm.x, tm.k(3)), solver.Sat},
		{"byte, one value of a range left", []*sym.Expr{tm.lt(tm.x, tm.k(10))}, tm.lt(tm.k(8), tm.x), solver.Sat},
		// A range is Z3's: its bound ('0' for c >= '0') is the class
		// the next check tests, where Z3's models spread.
		{"byte, a range", nil, b.Cmp(sym.KULe, tm.k('0'), tm.x), solver.Unknown},
		{"byte, a range below a bound", []*sym.Expr{b.Cmp(sym.KULe, tm.k('0'), tm.x)}, b.Not(b.Cmp(sym.KULe, tm.x, tm.k('9'))), solver.Unknown},
		{"unbounded 64-bit variable", []*sym.Expr{b.Cmp(sym.KULt, c64(5), big)}, b.Cmp(sym.KULt, big, c64(3)), solver.Unknown},
		{"two variables in the goal", nil, tm.lt(tm.x, tm.y), solver.Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			core := answering(solver.Result{Status: solver.Unknown})
			s := solver.NewDomain(core)
			q := solver.Query{Constraints: tt.cs, Goal: tt.goal, Seed: seed}
			r, err := s.Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tt.want {
				t.Fatalf("status %v, want %v", r.Status, tt.want)
			}
			if local := len(core.got) == 0; local != (tt.want != solver.Unknown) {
				t.Errorf("answered without the core: %v", local)
			}
			if r.Status == solver.Sat && !holdsAll(q, seed, r.Model) {
				t.Errorf("model %v does not satisfy the query", r.Model)
			}
		})
	}
}
