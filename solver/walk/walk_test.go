package walk

import (
	"context"
	"hash/crc32"
	"math"
	"testing"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/solver/z3"
	"github.com/gocolic/gocolic/sym"
)

// funcs are Go functions for opaque terms, evaluated in this process the
// way the evaluator process evaluates them.
type funcs map[uint64]func(args []sym.CallArg) uint64

func (fs funcs) Call(fn uint64, args []sym.CallArg) (uint64, error) {
	return fs[fn](args), nil
}

// inProcess is an Evaluator that evaluates with funcs here.
type inProcess struct {
	fs    funcs
	calls int
}

func (e *inProcess) Eval(_ context.Context, terms []*sym.Expr, points []sym.Env) ([][]uint64, error) {
	e.calls++
	out := make([][]uint64, len(points))
	for i, r := range rt.EvalPoints(terms, points, e.fs) {
		out[i] = r.Values
	}
	return out, nil
}

func f64(x float64) uint64 { return math.Float64bits(x) }

func unary(f func(float64) float64) func([]sym.CallArg) uint64 {
	return func(a []sym.CallArg) uint64 { return f64(f(math.Float64frombits(a[0].Bits))) }
}

var (
	idSin  = sym.FuncID("math.Sin")
	idCos  = sym.FuncID("math.Cos")
	idExp  = sym.FuncID("math.Exp")
	idSqrt = sym.FuncID("math.Sqrt")
	idPow  = sym.FuncID("math.Pow")
	idCRC  = sym.FuncID("hash/crc32.ChecksumIEEE")
	idBits = sym.FuncID("math.Float64bits")
)

var mathFuncs = funcs{
	idSin:  unary(math.Sin),
	idCos:  unary(math.Cos),
	idExp:  unary(math.Exp),
	idSqrt: unary(math.Sqrt),
	idPow: func(a []sym.CallArg) uint64 {
		return f64(math.Pow(math.Float64frombits(a[0].Bits), math.Float64frombits(a[1].Bits)))
	},
	idCRC:  func(a []sym.CallArg) uint64 { return uint64(crc32.ChecksumIEEE(a[0].Bytes)) },
	idBits: func(a []sym.CallArg) uint64 { return a[0].Bits },
}

func newZ3(t *testing.T) *z3.Solver {
	t.Helper()
	s, err := z3.New(z3.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestSolve runs the whole walk on queries a decision procedure cannot
// take, and checks each answer against the real functions.
func TestSolve(t *testing.T) {
	b := sym.NewBuilder()
	x, y := b.Var(0, 64), b.Var(1, 64)
	c := func(f float64) *sym.Expr { return b.Const(f64(f), 64) }
	call := func(id uint64, args ...*sym.Expr) *sym.Expr { return b.Call(id, 64, args) }
	near := func(e *sym.Expr, want, tol float64) []*sym.Expr {
		// |e - want| < tol as two comparisons
		return []*sym.Expr{b.FCmp(sym.KFLt, e, c(want+tol)), b.FCmp(sym.KFLt, c(want-tol), e)}
	}
	str := b.Var(2, 64)
	bytes := make([]*sym.Expr, 4)
	for i := range bytes {
		bytes[i] = b.Var(uint64(3+i), 8)
	}
	crc := b.Call(idCRC, 32, []*sym.Expr{b.String(str, bytes)})
	floats := map[uint64]uint8{0: 64, 1: 64}
	tests := []struct {
		name   string
		cs     []*sym.Expr
		floats map[uint64]uint8
		seed   sym.Env
	}{
		// The seed's Figure 1, example 1: x*x == y+3 && x > 2 on ints.
		{"figure1-nonlinear", []*sym.Expr{
			b.Cmp(sym.KSLt, b.Const(2, 64), x),
			b.Eq(b.Bin(sym.KMul, x, x), b.Add(y, b.Const(3, 64))),
		}, nil, nil},
		// Example 2: the exponent bits of a float, read through an
		// opaque Float64bits.
		{"figure1-floatbits", []*sym.Expr{
			b.Eq(b.Bin(sym.KAnd, call(idBits, x), b.Const(0x7ff0000000000000, 64)), b.Const(0x4010000000000000, 64)),
		}, floats, nil},
		{"sin-cos", append(near(call(idSin, x), 0.5, 1e-9), b.FCmp(sym.KFLt, call(idCos, y), c(-0.999))), floats, nil},
		{"exp", near(call(idExp, x), 7.5, 1e-6), floats, nil},
		{"sqrt", []*sym.Expr{b.FCmp(sym.KFEq, call(idSqrt, x), c(3.5))}, floats, nil},
		{"pow", append(near(call(idPow, x, c(3)), 1000, 1e-3), b.FCmp(sym.KFLt, c(0), x)), floats, nil},
		{"crc", []*sym.Expr{
			b.Eq(str, b.Const(4, 64)),
			b.Eq(b.Bin(sym.KAnd, crc, b.Const(0xff, 32)), b.Const(0x42, 32)),
		}, nil, sym.Env{2: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := &inProcess{fs: mathFuncs}
			s := New(newZ3(t), ev, tt.floats, Params{Seed: 1, Steps: 2000})
			q := solver.Query{Constraints: tt.cs[:len(tt.cs)-1], Goal: tt.cs[len(tt.cs)-1], Seed: tt.seed}
			r, err := s.Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != solver.Sat {
				t.Fatalf("status %v, want sat", r.Status)
			}
			ev2 := sym.Evaluator{Env: r.Model, Funcs: mathFuncs}
			for _, c := range tt.cs {
				if v, err := ev2.Value(c); err != nil || v != 1 {
					t.Errorf("model %v violates %v", r.Model, c)
				}
			}
			if st := s.Stats(); st.Sat != 1 || st.Local != 1 {
				t.Errorf("stats %+v, want one walk answered sat", st)
			}
		})
	}
}

// TestSolveLinearOnly passes queries without a non-linear part to the
// linear solver, and reports Unsat when the linear part is.
func TestSolveLinearOnly(t *testing.T) {
	b := sym.NewBuilder()
	x := b.Var(0, 64)
	lin := newZ3(t)
	s := New(lin, nil, nil, Params{})
	r, err := s.Solve(context.Background(), solver.Query{Goal: b.Cmp(sym.KSLt, b.Const(5, 64), x)})
	if err != nil || r.Status != solver.Sat {
		t.Fatalf("linear query: %v %v", r.Status, err)
	}
	if lin.Stats().Queries != 1 || s.Stats().Local != 0 {
		t.Errorf("linear query: z3 saw %d queries, walk searched %d times", lin.Stats().Queries, s.Stats().Local)
	}
	// x < 0 && x > 5 && sin(x) == 0: the polytope is empty.
	q := solver.Query{
		Constraints: []*sym.Expr{b.Cmp(sym.KSLt, x, b.Const(0, 64)), b.Cmp(sym.KSLt, b.Const(5, 64), x)},
		Goal:        b.Eq(b.Call(idSin, 64, []*sym.Expr{x}), b.Const(0, 64)),
	}
	r, err = New(lin, &inProcess{fs: mathFuncs}, nil, Params{}).Solve(context.Background(), q)
	if err != nil || r.Status != solver.Unsat {
		t.Fatalf("empty polytope: %v %v, want unsat", r.Status, err)
	}
}

// TestSolveGivesUp reports Unknown, not a wrong model, when the search
// cannot succeed: sin(x) > 2 has no solution.
func TestSolveGivesUp(t *testing.T) {
	b := sym.NewBuilder()
	x := b.Var(0, 64)
	goal := b.FCmp(sym.KFLt, b.Const(f64(2), 64), b.Call(idSin, 64, []*sym.Expr{x}))
	ev := &inProcess{fs: mathFuncs}
	s := New(newZ3(t), ev, map[uint64]uint8{0: 64}, Params{Steps: 50, Seed: 3})
	r, err := s.Solve(context.Background(), solver.Query{Goal: goal})
	if err != nil || r.Status != solver.Unknown {
		t.Fatalf("got %v %v, want unknown", r.Status, err)
	}
	if ev.calls == 0 {
		t.Error("the search never evaluated the opaque call")
	}
	// Without an evaluator, opaque calls have no value: no answer either.
	r, err = New(newZ3(t), nil, nil, Params{Steps: 5}).Solve(context.Background(), solver.Query{Goal: goal})
	if err != nil || r.Status != solver.Unknown {
		t.Fatalf("without evaluator: %v %v, want unknown", r.Status, err)
	}
}

func TestLinear(t *testing.T) {
	b := sym.NewBuilder()
	x, y := b.Var(0, 64), b.Var(1, 64)
	k := b.Const(3, 64)
	tests := []struct {
		name string
		e    *sym.Expr
		want bool
	}{
		{"sum", b.Cmp(sym.KSLt, b.Add(x, y), k), true},
		{"scaled", b.Eq(b.Bin(sym.KMul, x, k), y), true},
		{"product", b.Eq(b.Bin(sym.KMul, x, y), k), false},
		{"quotient", b.Eq(b.Bin(sym.KSDiv, k, x), y), false},
		{"shift by constant", b.Eq(b.Shift(sym.KShl, x, k), y), true},
		{"shift by variable", b.Eq(b.Shift(sym.KShl, k, x), y), false},
		{"float product", b.FCmp(sym.KFLt, b.FBin(sym.KFMul, x, y), k), false},
		{"float sum", b.FCmp(sym.KFLt, b.FBin(sym.KFAdd, x, y), k), true},
		{"call", b.Eq(b.Call(idSin, 64, []*sym.Expr{x}), k), false},
		// Terms sharing nodes with the ones above, which a Solver has
		// judged already.
		{"product in a sum", b.Cmp(sym.KSLt, b.Add(b.Bin(sym.KMul, x, y), x), k), false},
		{"sum in a sum", b.Cmp(sym.KSLt, b.Add(b.Add(x, y), b.Bin(sym.KMul, x, k)), k), true},
	}
	for _, tt := range tests {
		if got := Linear(tt.e); got != tt.want {
			t.Errorf("%s: Linear(%v) = %v, want %v", tt.name, tt.e, got, tt.want)
		}
	}
	// A Solver remembers the nodes' linearity across terms: it must give
	// the same answers in either order.
	for _, reverse := range []bool{false, true} {
		s := New(nil, nil, nil, Params{})
		for i := range tests {
			tt := tests[i]
			if reverse {
				tt = tests[len(tests)-1-i]
			}
			if got := s.Linear(tt.e); got != tt.want {
				t.Errorf("%s (reverse %v): Solver.Linear(%v) = %v, want %v", tt.name, reverse, tt.e, got, tt.want)
			}
		}
	}
}

// TestSolveFixedNonLinear decides queries whose non-linear part has a
// constraint without variables, such as an opaque call on arguments that
// became constants (issue 15: the walk indexed the empty list of the
// variables of N and panicked). No step changes such a constraint, so the
// query is decided at the starting point: Sat when it holds there, Unknown
// when it does not, and without a walk either way.
func TestSolveFixedNonLinear(t *testing.T) {
	b := sym.NewBuilder()
	x, y := b.Var(0, 64), b.Var(1, 64)
	c := func(f float64) *sym.Expr { return b.Const(f64(f), 64) }
	sin1 := b.Call(idSin, 64, []*sym.Expr{c(1)}) // sin(1) ≈ 0.84
	sinPositive := b.FCmp(sym.KFLt, c(0), sin1)
	sinZero := b.FCmp(sym.KFEq, sin1, c(0))
	xAbove5 := b.Cmp(sym.KSLt, b.Const(5, 64), x)
	square := b.Eq(b.Bin(sym.KMul, y, y), b.Const(49, 64))
	tests := []struct {
		name string
		cs   []*sym.Expr // the last one is the goal
		want solver.Status
	}{
		{"constant call holds alone", []*sym.Expr{sinPositive}, solver.Sat},
		{"constant call fails alone", []*sym.Expr{sinZero}, solver.Unknown},
		{"constant call holds, linear part", []*sym.Expr{xAbove5, sinPositive}, solver.Sat},
		{"constant call fails, linear part", []*sym.Expr{xAbove5, sinZero}, solver.Unknown},
		{"constant call fails beside a searchable constraint", []*sym.Expr{square, sinZero}, solver.Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := &inProcess{fs: mathFuncs}
			s := New(newZ3(t), ev, map[uint64]uint8{0: 64}, Params{Seed: 1})
			q := solver.Query{Constraints: tt.cs[:len(tt.cs)-1], Goal: tt.cs[len(tt.cs)-1], Seed: sym.Env{0: 0, 1: 1}}
			r, err := s.Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tt.want {
				t.Fatalf("status %v, want %v", r.Status, tt.want)
			}
			if tt.want == solver.Sat {
				ev2 := sym.Evaluator{Env: r.Model, Funcs: mathFuncs}
				for _, c := range tt.cs {
					if v, err := ev2.Value(c); err != nil || v != 1 {
						t.Errorf("model %v violates %v", r.Model, c)
					}
				}
			}
			if ev.calls != 1 {
				t.Errorf("%d evaluations, want 1: the starting point decides", ev.calls)
			}
		})
	}
}
