package walk

import (
	"context"
	"math"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// TestAtomError checks the error score of each relation, negated or not,
// on integers and floats: zero exactly when the relation holds, else the
// distance of Korel's branch functions.
func TestAtomError(t *testing.T) {
	b := sym.NewBuilder()
	x8, y8 := b.Var(0, 8), b.Var(1, 8)
	fx, fy := b.Var(2, 64), b.Var(3, 64)
	bv := b.Var(4, 0)
	tests := []struct {
		name string
		c    *sym.Expr
		env  sym.Env
		want float64
	}{
		{"eq holds", b.Eq(x8, y8), sym.Env{0: 7, 1: 7}, 0},
		{"eq distance", b.Eq(x8, y8), sym.Env{0: 7, 1: 10}, 3},
		{"eq distance wraps", b.Eq(x8, y8), sym.Env{0: 1, 1: 255}, 2},
		{"ne violated", b.Not(b.Eq(x8, y8)), sym.Env{0: 5, 1: 5}, 1},
		{"ne holds", b.Not(b.Eq(x8, y8)), sym.Env{0: 5, 1: 6}, 0},
		{"slt violated", b.Cmp(sym.KSLt, x8, y8), sym.Env{0: 5, 1: 2}, 4},
		{"slt signed", b.Cmp(sym.KSLt, x8, y8), sym.Env{0: 1, 1: 0xff}, 3}, // 1 < -1 is 2+1 away
		{"slt equal", b.Cmp(sym.KSLt, x8, y8), sym.Env{0: 4, 1: 4}, 1},
		{"sle violated", b.Cmp(sym.KSLe, x8, y8), sym.Env{0: 9, 1: 4}, 5},
		{"not slt (x >= y) violated", b.Not(b.Cmp(sym.KSLt, x8, y8)), sym.Env{0: 2, 1: 6}, 4},
		{"not sle (x > y) violated", b.Not(b.Cmp(sym.KSLe, x8, y8)), sym.Env{0: 6, 1: 6}, 1},
		{"ult unsigned", b.Cmp(sym.KULt, x8, y8), sym.Env{0: 0xff, 1: 1}, 255},
		{"feq distance", b.FCmp(sym.KFEq, fx, fy), sym.Env{2: f64(1.5), 3: f64(4)}, 2.5},
		{"flt violated", b.FCmp(sym.KFLt, fx, fy), sym.Env{2: f64(3), 3: f64(1)}, 2},
		{"flt equal", b.FCmp(sym.KFLt, fx, fy), sym.Env{2: f64(3), 3: f64(3)}, math.SmallestNonzeroFloat64},
		{"flt NaN", b.FCmp(sym.KFLt, fx, fy), sym.Env{2: f64(math.NaN()), 3: f64(3)}, bad},
		{"not flt holds on NaN", b.Not(b.FCmp(sym.KFLt, fx, fy)), sym.Env{2: f64(math.NaN()), 3: f64(3)}, 0},
		{"fne violated", b.Not(b.FCmp(sym.KFEq, fx, fy)), sym.Env{2: f64(2), 3: f64(2)}, 1},
		{"bool", bv, sym.Env{4: 0}, 1},
		{"and sums", b.And(b.Eq(x8, b.Const(1, 8)), b.Eq(y8, b.Const(1, 8))), sym.Env{0: 4, 1: 6}, 8},
		{"or takes the least", b.Or(b.Eq(x8, b.Const(1, 8)), b.Eq(y8, b.Const(1, 8))), sym.Env{0: 4, 1: 6}, 3},
		{"not and is or", b.Not(b.And(b.Eq(x8, b.Const(1, 8)), b.Eq(y8, b.Const(1, 8)))), sym.Env{0: 1, 1: 1}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newSearch(New(nil, nil, nil, Params{}), nil, []*sym.Expr{tt.c})
			p := &point{env: tt.env}
			if err := w.evaluate(context.Background(), []*point{p}); err != nil {
				t.Fatal(err)
			}
			if p.errs[0] != tt.want {
				t.Errorf("error of %v at %v = %g, want %g", tt.c, tt.env, p.errs[0], tt.want)
			}
		})
	}
}

// TestTabu checks the bookkeeping: a variable whose step did not improve
// becomes tabu for t iterations and is not picked meanwhile; once every
// variable is tabu the walk jumps and the counters are cleared.
func TestTabu(t *testing.T) {
	b := sym.NewBuilder()
	x, y := b.Var(0, 64), b.Var(1, 64)
	// Two constraints on x, one on y: x carries the larger error.
	cs := []*sym.Expr{
		b.Eq(b.Bin(sym.KMul, x, y), b.Const(1000, 64)),
		b.Eq(b.Bin(sym.KMul, x, x), b.Const(1<<40, 64)),
	}
	w := newSearch(New(nil, nil, nil, Params{}), nil, cs)
	if w.tenure != 2 {
		t.Fatalf("default tenure with 2 variables = %d, want min(2, 3)", w.tenure)
	}
	cur := &point{env: sym.Env{0: 1, 1: 1}}
	if err := w.evaluate(context.Background(), []*point{cur}); err != nil {
		t.Fatal(err)
	}
	if v := w.pickVar(cur); v != 0 {
		t.Fatalf("picked v%d, want the variable of the most violated constraints (v0)", v)
	}
	w.tabu[0] = w.tenure
	if v := w.pickVar(cur); v != 1 {
		t.Fatalf("picked v%d with v0 tabu, want v1", v)
	}
	if w.allTabu() {
		t.Fatal("all tabu with v1 free")
	}
	w.tabu[1] = w.tenure
	if !w.allTabu() {
		t.Fatal("not all tabu with both tabu")
	}
	if w := newSearch(New(nil, nil, nil, Params{Tabu: 7}), nil, cs); w.tenure != 7 {
		t.Errorf("tenure %d, want 7", w.tenure)
	}
	w = newSearch(New(nil, nil, nil, Params{NoTabu: true}), nil, cs)
	if w.tenure != 0 || w.allTabu() {
		t.Errorf("tabu off: tenure %d, all tabu %v", w.tenure, w.allTabu())
	}
}

// TestRunFindsRoot runs the main loop alone (no linear part) on a
// constraint with a single variable, where every failed step makes the
// only variable tabu and the walk jumps: y*y == 49 on 64-bit integers.
func TestRunFindsRoot(t *testing.T) {
	b := sym.NewBuilder()
	y := b.Var(1, 64)
	c := b.Eq(b.Bin(sym.KMul, y, y), b.Const(49, 64))
	w := newSearch(New(nil, nil, nil, Params{Seed: 5, Steps: 2000}), nil, []*sym.Expr{c})
	if w.tenure != 1 {
		t.Fatalf("tenure %d, want min(|vars(N)|, 3) = 1", w.tenure)
	}
	env, ok, err := w.run(context.Background(), sym.Env{0: 3, 1: 1})
	if err != nil || !ok {
		t.Fatalf("run: ok %v err %v", ok, err)
	}
	if got := env[1] * env[1]; got != 49 {
		t.Errorf("y = %d, y*y = %d, want 49", int64(env[1]), got)
	}
	if env[0] != 3 {
		t.Errorf("the walk changed v0, which no constraint has, to %d", env[0])
	}
}

// TestBisect checks the secant estimate: for x*y == 12 with y = 3, from
// x = 0 (gap -12) and a neighbour x = 2 (gap -6) the zero is x = 4.
func TestBisect(t *testing.T) {
	b := sym.NewBuilder()
	x, y := b.Var(0, 64), b.Var(1, 64)
	c := b.Eq(b.Bin(sym.KMul, x, y), b.Const(12, 64))
	w := newSearch(New(nil, nil, nil, Params{}), nil, []*sym.Expr{c})
	cur, nb := &point{env: sym.Env{0: 0, 1: 3}}, &point{env: sym.Env{0: 2, 1: 3}}
	if err := w.evaluate(context.Background(), []*point{cur, nb}); err != nil {
		t.Fatal(err)
	}
	env, ok := w.bisect(cur, nb, 0, w.non[0])
	if !ok || env[0] != 4 || env[1] != 3 {
		t.Fatalf("bisect = %v, %v; want x=4, y=3", env, ok)
	}
	// Floats: sqrt-like x*x == 2 from 1 (gap -1) and 2 (gap 2): 1 + 1/3.
	fx := b.Var(2, 64)
	fc := b.FCmp(sym.KFEq, b.FBin(sym.KFMul, fx, fx), b.Const(f64(2), 64))
	w = newSearch(New(nil, nil, nil, Params{}), nil, []*sym.Expr{fc})
	cur, nb = &point{env: sym.Env{2: f64(1)}}, &point{env: sym.Env{2: f64(2)}}
	if err := w.evaluate(context.Background(), []*point{cur, nb}); err != nil {
		t.Fatal(err)
	}
	env, ok = w.bisect(cur, nb, 2, w.non[0])
	if got := math.Float64frombits(env[2]); !ok || got != 1+1.0/3 {
		t.Fatalf("float bisect = %v, %v; want %v", got, ok, 1+1.0/3)
	}
	// Equal gaps give no secant: the slope is random, the step still
	// moves x.
	cur, nb = &point{env: sym.Env{2: f64(1)}}, &point{env: sym.Env{2: f64(-1)}}
	if err := w.evaluate(context.Background(), []*point{cur, nb}); err != nil {
		t.Fatal(err)
	}
	if env, ok := w.bisect(cur, nb, 2, w.non[0]); ok && env[2] == f64(1) {
		t.Errorf("random-slope bisect did not move x")
	}
}

// TestRandomStepStaysInPolytope checks that random steps never leave the
// polytope of L and that equalities of L are restored.
func TestRandomStepStaysInPolytope(t *testing.T) {
	b := sym.NewBuilder()
	x, y, z := b.Var(0, 32), b.Var(1, 32), b.Var(2, 32)
	lin := []*sym.Expr{
		b.Cmp(sym.KSLt, b.Const(0, 32), x),   // 0 < x
		b.Cmp(sym.KSLt, x, b.Const(100, 32)), // x < 100
		b.Eq(y, b.Add(x, b.Const(1, 32))),    // y == x+1
	}
	non := []*sym.Expr{b.Eq(b.Bin(sym.KMul, x, z), b.Const(77, 32))}
	w := newSearch(New(nil, nil, nil, Params{Seed: 9}), lin, non)
	env := sym.Env{0: 50, 1: 51, 2: 1}
	moved := 0
	for range 500 {
		next := w.randomStep(env, []uint64{0})
		if !holdsAll(lin, next) {
			t.Fatalf("step left the polytope: %v", next)
		}
		if next[0] != env[0] {
			moved++
		}
		env = next
	}
	if moved < 100 {
		t.Errorf("only %d of 500 steps moved x", moved)
	}
}

// TestMove checks the neighbour values: integers stay in their width,
// floats stay finite, and ULP steps are small.
func TestMove(t *testing.T) {
	b := sym.NewBuilder()
	w := newSearch(New(nil, nil, nil, Params{Seed: 2}), nil, []*sym.Expr{
		b.FCmp(sym.KFLt, b.FBin(sym.KFMul, b.Var(0, 64), b.Var(0, 64)), b.Const(f64(2), 64)),
		b.Eq(b.Bin(sym.KMul, b.Var(1, 8), b.Var(1, 8)), b.Const(9, 8)),
	})
	if !w.floats[0] || w.floats[1] {
		t.Fatalf("float variables %v, want only v0", w.floats)
	}
	for range 1000 {
		if v := w.move(1, 200); v > 255 {
			t.Fatalf("8-bit move gave %d", v)
		}
		f := math.Float64frombits(w.move(0, f64(1.5)))
		if math.IsNaN(f) || math.IsInf(f, 0) {
			t.Fatalf("float move gave %v", f)
		}
	}
	if got := math.Float64frombits(ulps(f64(1), 64, 1)); got != math.Nextafter(1, 2) {
		t.Errorf("one ULP up from 1 = %v", got)
	}
	if got := ulps(f64(math.SmallestNonzeroFloat64), 64, -2); got != 0 {
		t.Errorf("two ULPs down from the smallest float = %#x, want +0", got)
	}
}
