package z3

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

var widths = []uint8{8, 16, 32, 64}

func newSolver(t *testing.T, opts Options) *Solver {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func solve(t *testing.T, s solver.Solver, cs []*sym.Expr, goal *sym.Expr) solver.Result {
	t.Helper()
	r, err := s.Solve(context.Background(), solver.Query{Constraints: cs, Goal: goal})
	if err != nil {
		t.Fatalf("Solve(%v, goal %v): %v", cs, goal, err)
	}
	return r
}

// checkModel fails unless m satisfies every constraint and the goal.
func checkModel(t *testing.T, m sym.Env, cs []*sym.Expr, goal *sym.Expr) {
	t.Helper()
	for _, c := range append(cs[:len(cs):len(cs)], goal) {
		if !sym.Holds(c, m) {
			t.Errorf("model %v violates %v", m, c)
		}
	}
}

// pin returns the constraints that fix every variable of e to its value in
// env.
func pin(b *sym.Builder, env sym.Env, es ...*sym.Expr) []*sym.Expr {
	var cs []*sym.Expr
	for _, v := range sym.Vars(nil, es...) {
		if v.Width == 0 {
			cs = append(cs, b.Eq(v, b.Bool(env[v.Val]&1 == 1)))
		} else {
			cs = append(cs, b.Eq(v, b.Const(env[v.Val], v.Width)))
		}
	}
	return cs
}

// valueIs returns the boolean term e == v.
func valueIs(b *sym.Builder, e *sym.Expr, v uint64) *sym.Expr {
	if e.Width == 0 {
		if v != 0 {
			return e
		}
		return b.Not(e)
	}
	return b.Eq(e, b.Const(v, e.Width))
}

// checkAgrees fails unless Z3, with e's variables fixed to their values in
// env, finds e == want satisfiable and e != want unsatisfiable.
func checkAgrees(t *testing.T, s *Solver, b *sym.Builder, e *sym.Expr, env sym.Env, want uint64) {
	t.Helper()
	cs := pin(b, env, e)
	same := valueIs(b, e, want)
	if r := solve(t, s, cs, same); r.Status != solver.Sat {
		t.Errorf("%v == %d under %v: got %v, want sat", e, want, env, r.Status)
		return
	}
	if r := solve(t, s, cs, b.Not(same)); r.Status != solver.Unsat {
		t.Errorf("%v != %d under %v: got %v, want unsat (model %v)", e, want, env, r.Status, r.Model)
	}
}

// interesting returns operand values that exercise the corner cases of
// width w: zero, one, shift amounts around w, the extremes of both
// signednesses, and -1.
func interesting(w uint8) []uint64 {
	m := sym.Mask(w)
	minInt := uint64(1) << (w - 1)
	return []uint64{0, 1, 3, uint64(w) - 1, uint64(w), uint64(w) + 1, minInt - 1, minInt, m - 1, m, 0x5a5a5a5a5a5a5a5a & m}
}

var binaryKinds = []sym.Kind{
	sym.KAdd, sym.KSub, sym.KMul, sym.KUDiv, sym.KSDiv, sym.KURem, sym.KSRem,
	sym.KAnd, sym.KOr, sym.KXor, sym.KShl, sym.KLShr, sym.KAShr,
}

func TestBinaryOpsAgreeWithEval(t *testing.T) {
	s := newSolver(t, Options{})
	for _, k := range binaryKinds {
		for _, w := range widths {
			t.Run(fmt.Sprintf("%s/%d", k, w), func(t *testing.T) {
				b := sym.NewBuilder()
				x, y := b.Var(0, w), b.Var(1, w)
				e := b.Bin(k, x, y)
				vals := interesting(w)
				for _, a := range vals {
					for _, c := range vals {
						env := sym.Env{0: a, 1: c}
						checkAgrees(t, s, b, e, env, sym.Eval(e, env))
					}
				}
			})
		}
	}
}

// TestCornerCases pins the results of the operations where Go, SMT-LIB and
// naive implementations part ways, checking sym.Eval and Z3 against values
// worked out by hand.
func TestCornerCases(t *testing.T) {
	const (
		min8  = 0x80
		min64 = 1 << 63
		m64   = 1<<64 - 1
	)
	tests := []struct {
		name string
		k    sym.Kind
		w    uint8
		x, y uint64
		want uint64
	}{
		{"signed add overflow", sym.KAdd, 8, 0x7f, 1, min8},
		{"signed mul overflow", sym.KMul, 64, 1 << 62, 2, min64},
		{"MinInt8 / -1", sym.KSDiv, 8, min8, 0xff, min8},
		{"MinInt64 / -1", sym.KSDiv, 64, min64, m64, min64},
		{"MinInt64 % -1", sym.KSRem, 64, min64, m64, 0},
		{"-7 / 2 truncates", sym.KSDiv, 8, 0xf9, 2, 0xfd},
		{"-7 % 2 follows dividend", sym.KSRem, 8, 0xf9, 2, 0xff},
		{"7 % -2 follows dividend", sym.KSRem, 8, 7, 0xfe, 1},
		{"udiv by zero", sym.KUDiv, 32, 12345, 0, 0xffffffff},
		{"urem by zero", sym.KURem, 32, 12345, 0, 12345},
		{"sdiv positive by zero", sym.KSDiv, 16, 5, 0, 0xffff},
		{"sdiv negative by zero", sym.KSDiv, 16, 0xfffb, 0, 1},
		{"srem negative by zero", sym.KSRem, 16, 0xfffb, 0, 0xfffb},
		{"shl by width", sym.KShl, 8, 0xff, 8, 0},
		{"shl by more", sym.KShl, 64, 1, 200, 0},
		{"lshr by width", sym.KLShr, 32, 0xffffffff, 32, 0},
		{"ashr negative by width", sym.KAShr, 16, 0x8000, 16, 0xffff},
		{"ashr positive by more", sym.KAShr, 64, 1 << 62, 1000, 0},
		{"ashr by max amount", sym.KAShr, 8, 0x80, 0xff, 0xff},
	}
	s := newSolver(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := sym.NewBuilder()
			e := b.Bin(tt.k, b.Var(0, tt.w), b.Var(1, tt.w))
			env := sym.Env{0: tt.x, 1: tt.y}
			if got := sym.Eval(e, env); got != tt.want {
				t.Errorf("sym.Eval = %#x, want %#x", got, tt.want)
			}
			checkAgrees(t, s, b, e, env, tt.want)
		})
	}
}

func TestUnaryOpsAgreeWithEval(t *testing.T) {
	s := newSolver(t, Options{})
	for _, w := range widths {
		b := sym.NewBuilder()
		x := b.Var(0, w)
		for _, e := range []*sym.Expr{b.Neg(x), b.Cpl(x)} {
			t.Run(fmt.Sprintf("%s/%d", e.Kind, w), func(t *testing.T) {
				for _, v := range interesting(w) {
					env := sym.Env{0: v}
					checkAgrees(t, s, b, e, env, sym.Eval(e, env))
				}
			})
		}
	}
}

func TestResizeAgreesWithEval(t *testing.T) {
	s := newSolver(t, Options{})
	for _, from := range widths {
		for _, to := range widths {
			if from == to {
				continue
			}
			b := sym.NewBuilder()
			x := b.Var(0, from)
			var es []*sym.Expr
			if to > from {
				es = []*sym.Expr{b.ZExt(x, to), b.SExt(x, to)}
			} else {
				es = []*sym.Expr{b.Trunc(x, to)}
			}
			for _, e := range es {
				t.Run(fmt.Sprintf("%s/%d-%d", e.Kind, from, to), func(t *testing.T) {
					for _, v := range interesting(from) {
						env := sym.Env{0: v}
						checkAgrees(t, s, b, e, env, sym.Eval(e, env))
					}
				})
			}
		}
	}
}

func TestComparisonsAgreeWithEval(t *testing.T) {
	s := newSolver(t, Options{})
	for _, k := range []sym.Kind{sym.KEq, sym.KULt, sym.KULe, sym.KSLt, sym.KSLe} {
		for _, w := range widths {
			t.Run(fmt.Sprintf("%s/%d", k, w), func(t *testing.T) {
				b := sym.NewBuilder()
				e := b.Cmp(k, b.Var(0, w), b.Var(1, w))
				vals := interesting(w)
				for _, a := range vals {
					for _, c := range vals {
						env := sym.Env{0: a, 1: c}
						checkAgrees(t, s, b, e, env, sym.Eval(e, env))
					}
				}
			})
		}
	}
}

func TestBooleansAgreeWithEval(t *testing.T) {
	s := newSolver(t, Options{})
	b := sym.NewBuilder()
	p, q := b.Var(0, 0), b.Var(1, 0)
	x, y := b.Var(2, 32), b.Var(3, 32)
	terms := []*sym.Expr{
		b.Not(p),
		b.And(p, q),
		b.Or(p, q),
		b.Eq(p, q),
		b.Ite(p, q, b.Not(q)),
		b.Eq(b.Ite(p, x, y), b.Const(7, 32)),
		b.Or(b.And(p, b.Cmp(sym.KSLt, x, y)), b.Not(q)),
	}
	for _, e := range terms {
		t.Run(e.String(), func(t *testing.T) {
			for _, env := range []sym.Env{
				{0: 0, 1: 0, 2: 7, 3: 1}, {0: 0, 1: 1, 2: 0, 3: 7},
				{0: 1, 1: 0, 2: 1 << 31, 3: 5}, {0: 1, 1: 1, 2: 7, 3: 7},
			} {
				checkAgrees(t, s, b, e, env, sym.Eval(e, env))
			}
		})
	}
}

// gen makes random well-sorted expressions. Variable numbers encode the
// sort, so that one number never has two: 8-bit variables are 0-2, 16-bit
// 10-12, 32-bit 20-22, 64-bit 30-32 and booleans 40-41.
type gen struct {
	r      *rand.Rand
	b      *sym.Builder
	ws     []uint8 // widths to choose from; all if empty
	floats bool    // use the float kinds too
}

func (g gen) width() uint8 {
	ws := g.ws
	if len(ws) == 0 {
		ws = widths
	}
	return ws[g.r.Intn(len(ws))]
}

func (g gen) value(w uint8) uint64 {
	if g.floats && w >= 32 && g.r.Intn(3) == 0 {
		vals := floatValues(w)
		return vals[g.r.Intn(len(vals))]
	}
	if g.r.Intn(2) == 0 {
		vals := interesting(w)
		return vals[g.r.Intn(len(vals))]
	}
	return g.r.Uint64() & sym.Mask(w)
}

func (g gen) bv(w uint8, depth int) *sym.Expr {
	b, r := g.b, g.r
	if depth == 0 || r.Intn(5) == 0 {
		if r.Intn(3) == 0 {
			return b.Const(g.value(w), w)
		}
		base := map[uint8]uint64{8: 0, 16: 10, 32: 20, 64: 30}[w]
		return b.Var(base+uint64(r.Intn(3)), w)
	}
	d := depth - 1
	if g.floats && r.Intn(3) == 0 {
		return g.float(w, d)
	}
	switch r.Intn(8) {
	case 0, 1, 2:
		return b.Bin(binaryKinds[r.Intn(len(binaryKinds))], g.bv(w, d), g.bv(w, d))
	case 3:
		if r.Intn(2) == 0 {
			return b.Neg(g.bv(w, d))
		}
		return b.Cpl(g.bv(w, d))
	case 4:
		from := g.width()
		x := g.bv(from, d)
		switch {
		case from > w:
			return b.Trunc(x, w)
		case r.Intn(2) == 0:
			return b.ZExt(x, w)
		default:
			return b.SExt(x, w)
		}
	case 5:
		ks := []sym.Kind{sym.KShl, sym.KLShr, sym.KAShr}
		return b.Shift(ks[r.Intn(3)], g.bv(w, d), g.bv(g.width(), d))
	default:
		return b.Ite(g.bool(d), g.bv(w, d), g.bv(w, d))
	}
}

// float returns a term of width w made by a float kind: an operation or
// a conversion to a float if w is 32 or 64, else a conversion of a float
// to an integer.
func (g gen) float(w uint8, d int) *sym.Expr {
	b, r := g.b, g.r
	n := r.Intn(8)
	if w < 32 {
		n = 7
	}
	fw := uint8(32 * (1 + r.Intn(2)))
	switch n {
	case 0, 1:
		ks := []sym.Kind{sym.KFAdd, sym.KFSub, sym.KFMul, sym.KFDiv}
		return b.FBin(ks[r.Intn(len(ks))], g.bv(w, d), g.bv(w, d))
	case 2:
		return b.FNeg(g.bv(w, d))
	case 3:
		return b.FConv(g.bv(96-w, d), w)
	case 4, 5:
		return b.IntToF(g.bv(g.width(), d), w, r.Intn(2) == 0)
	}
	return b.FToInt(g.bv(fw, d), w, r.Intn(2) == 0)
}

func (g gen) bool(depth int) *sym.Expr {
	b, r := g.b, g.r
	if depth == 0 || r.Intn(6) == 0 {
		if r.Intn(5) == 0 {
			return b.Bool(r.Intn(2) == 0)
		}
		return b.Var(40+uint64(r.Intn(2)), 0)
	}
	d := depth - 1
	if g.floats && r.Intn(4) == 0 {
		ks := []sym.Kind{sym.KFEq, sym.KFLt, sym.KFLe}
		w := uint8(32 * (1 + r.Intn(2)))
		return b.FCmp(ks[r.Intn(len(ks))], g.bv(w, d), g.bv(w, d))
	}
	switch r.Intn(6) {
	case 0, 1, 2:
		ks := []sym.Kind{sym.KEq, sym.KULt, sym.KULe, sym.KSLt, sym.KSLe}
		w := g.width()
		return b.Cmp(ks[r.Intn(len(ks))], g.bv(w, d), g.bv(w, d))
	case 3:
		return b.Not(g.bool(d))
	case 4:
		if r.Intn(2) == 0 {
			return b.And(g.bool(d), g.bool(d))
		}
		return b.Or(g.bool(d), g.bool(d))
	default:
		return b.Eq(g.bool(d), g.bool(d))
	}
}

func (g gen) env() sym.Env {
	env := make(sym.Env)
	for _, w := range widths {
		base := map[uint8]uint64{8: 0, 16: 10, 32: 20, 64: 30}[w]
		for i := range uint64(3) {
			env[base+i] = g.value(w)
		}
	}
	env[40], env[41] = uint64(g.r.Intn(2)), uint64(g.r.Intn(2))
	return env
}

func TestRandomTreesAgreeWithEval(t *testing.T) {
	s := newSolver(t, Options{})
	g := gen{r: rand.New(rand.NewSource(1)), b: sym.NewBuilder()}
	for i := range 400 {
		var e *sym.Expr
		if i%5 == 0 {
			e = g.bool(4)
		} else {
			e = g.bv(g.width(), 4)
		}
		env := g.env()
		checkAgrees(t, s, g.b, e, env, sym.Eval(e, env))
		if t.Failed() {
			t.Fatalf("tree %d disagrees: %v", i, e)
		}
	}
}

func TestModels(t *testing.T) {
	b := sym.NewBuilder()
	x8, y8 := b.Var(0, 8), b.Var(1, 8)
	x32 := b.Var(2, 32)
	x64, y64 := b.Var(3, 64), b.Var(4, 64)
	p := b.Var(5, 0)
	tests := []struct {
		name string
		cs   []*sym.Expr
		goal *sym.Expr
	}{
		{"square 8", nil, b.Eq(b.Bin(sym.KMul, x8, x8), b.Const(49, 8))},
		{"square 8 above 128", []*sym.Expr{b.Cmp(sym.KULt, b.Const(128, 8), x8)},
			b.Eq(b.Bin(sym.KMul, x8, x8), b.Const(49, 8))},
		{"sum and difference", []*sym.Expr{b.Eq(b.Add(x8, y8), b.Const(10, 8))},
			b.Eq(b.Sub(x8, y8), b.Const(4, 8))},
		{"signed range", []*sym.Expr{b.Cmp(sym.KSLt, x32, b.Const(0, 32))},
			b.Cmp(sym.KSLt, b.Const(uint64(0xffffff00), 32), x32)},
		{"64-bit product", []*sym.Expr{
			b.Cmp(sym.KULt, b.Const(1, 64), x64), b.Cmp(sym.KULt, b.Const(1, 64), y64),
			b.Cmp(sym.KULt, x64, b.Const(1<<20, 64)), b.Cmp(sym.KULt, y64, b.Const(1<<20, 64)),
		}, b.Eq(b.Bin(sym.KMul, x64, y64), b.Const(1000003*7, 64))},
		{"boolean and bit-vector", []*sym.Expr{b.Or(p, b.Eq(x8, b.Const(3, 8)))},
			b.And(b.Not(p), b.Eq(b.ZExt(x8, 32), x32))},
	}
	s := newSolver(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := solve(t, s, tt.cs, tt.goal)
			if r.Status != solver.Sat {
				t.Fatalf("status %v, want sat", r.Status)
			}
			checkModel(t, r.Model, tt.cs, tt.goal)
			vars := sym.Vars(nil, append(tt.cs, tt.goal)...)
			if len(r.Model) != len(vars) {
				t.Errorf("model %v has %d variables, query has %d", r.Model, len(r.Model), len(vars))
			}
			for _, v := range vars {
				if _, ok := r.Model[v.Val]; !ok {
					t.Errorf("model %v lacks v%d", r.Model, v.Val)
				}
			}
		})
	}
}

// factoring returns a query that asks Z3 to factor the product of two
// 32-bit primes with unremarkable bits (primes close to 2^32 are easy):
// hopeless within seconds.
func factoring(b *sym.Builder) ([]*sym.Expr, *sym.Expr) {
	const n = 3538334777 * 2767054501
	x, y := b.Var(0, 64), b.Var(1, 64)
	one, limit := b.Const(1, 64), b.Const(1<<32, 64)
	cs := []*sym.Expr{
		b.Cmp(sym.KULt, one, x), b.Cmp(sym.KULt, one, y),
		b.Cmp(sym.KULt, x, limit), b.Cmp(sym.KULt, y, limit), // no overflow
	}
	return cs, b.Eq(b.Bin(sym.KMul, x, y), b.Const(n, 64))
}

func TestTimeoutIsUnknown(t *testing.T) {
	s := newSolver(t, Options{Timeout: time.Millisecond})
	b := sym.NewBuilder()
	cs, goal := factoring(b)
	start := time.Now()
	if r := solve(t, s, cs, goal); r.Status != solver.Unknown {
		t.Fatalf("status %v, want unknown", r.Status)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("timed-out query took %v", d)
	}
	// The solver stays usable. Its timeout of a millisecond holds for
	// this query too, which a loaded machine can exceed now and then:
	// one answer in a few tries shows the solver works.
	x := b.Var(0, 64)
	var r solver.Result
	for range 10 {
		if r = solve(t, s, cs[:1], b.Eq(x, b.Const(5, 64))); r.Status != solver.Unknown {
			break
		}
	}
	if r.Status != solver.Sat || r.Model[0] != 5 {
		t.Errorf("after timeout: got %v %v, want sat with v0=5", r.Status, r.Model)
	}
}

func TestCancellation(t *testing.T) {
	s := newSolver(t, Options{})
	b := sym.NewBuilder()
	cs, goal := factoring(b)
	q := solver.Query{Constraints: cs, Goal: goal}

	done, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := s.Solve(done, q)
	if err != nil || r.Status != solver.Unknown {
		t.Errorf("cancelled before: got %v, %v; want unknown, nil", r.Status, err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err = s.Solve(ctx, q)
	if err != nil || r.Status != solver.Unknown {
		t.Errorf("cancelled during: got %v, %v; want unknown, nil", r.Status, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancelled query took %v", d)
	}

	// An interrupt must not linger into the next query.
	x := b.Var(0, 64)
	for i := range 3 {
		goal := b.Eq(x, b.Const(uint64(7+i), 64))
		if r := solve(t, s, cs, goal); r.Status != solver.Sat || r.Model[0] != uint64(7+i) {
			t.Errorf("after cancellation: got %v %v, want sat with v0=%d", r.Status, r.Model, 7+i)
		}
	}
}

// TestInterruptedCheckKeepsFrames interrupts a check at many moments and
// then asks another goal over the same constraint: the answer must be a
// model of it. An interrupt that Z3 received after its check returned
// used to fail the next query's push ("push canceled"), and under solver
// auto to give a model that violates the constraint (found by
// solver/stack's FuzzStack).
func TestInterruptedCheckKeepsFrames(t *testing.T) {
	b := sym.NewBuilder()
	x, y := b.Var(0, 32), b.Var(1, 32)
	cs := []*sym.Expr{b.Eq(b.Bin(sym.KUDiv, x, y), b.Const(3, 32))}
	small := b.Cmp(sym.KULt, y, b.Const(1000, 32))
	for i := range 20 {
		after := time.Duration(i) * 150 * time.Microsecond
		s := newSolver(t, Options{})
		ctx, cancel := context.WithTimeout(context.Background(), after)
		_, err := s.Solve(ctx, solver.Query{Constraints: cs, Goal: small})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		r := solve(t, s, cs, b.Not(small))
		if r.Status != solver.Sat {
			t.Fatalf("after an interrupt at %v: %v, want sat", after, r.Status)
		}
		checkModel(t, r.Model, cs, b.Not(small))
		s.Close()
	}
}

// TestPrefixReuse runs queries that share prefixes through one solver and
// checks that it pushes and pops as intended and answers as fresh solvers
// do.
func TestPrefixReuse(t *testing.T) {
	b := sym.NewBuilder()
	x, y, z := b.Var(0, 32), b.Var(1, 32), b.Var(2, 32)
	c := func(k sym.Kind, a, v *sym.Expr) *sym.Expr { return b.Cmp(k, a, v) }
	k := func(v uint64) *sym.Expr { return b.Const(v, 32) }
	c0 := c(sym.KULt, x, k(100))
	c1 := c(sym.KULt, y, x)
	c2 := c(sym.KEq, b.Add(y, z), k(50))
	c3 := b.Not(c(sym.KEq, z, k(50)))
	c4 := c(sym.KULt, k(200), x) // contradicts c0
	steps := []struct {
		cs   []*sym.Expr
		goal *sym.Expr
		want solver.Status
	}{
		{[]*sym.Expr{c0}, c(sym.KEq, x, k(7)), solver.Sat},
		{[]*sym.Expr{c0, c1}, c(sym.KEq, y, k(6)), solver.Sat},
		{[]*sym.Expr{c0, c1, c2}, c(sym.KEq, z, k(50)), solver.Sat},
		{[]*sym.Expr{c0, c1, c2, c3}, c(sym.KEq, y, k(0)), solver.Unsat},
		{[]*sym.Expr{c0, c1, c2, c3}, c(sym.KEq, y, k(1)), solver.Sat},
		{[]*sym.Expr{c0, c4}, c(sym.KEq, y, k(1)), solver.Unsat},
		{[]*sym.Expr{c0, c1, c2}, c(sym.KULt, k(97), y), solver.Sat},
		{[]*sym.Expr{c0, c1, c2}, c(sym.KULt, k(98), y), solver.Unsat},
		{nil, c(sym.KULt, k(99), y), solver.Sat},
		{[]*sym.Expr{c1, c2}, c(sym.KEq, x, k(0)), solver.Unsat},
		{[]*sym.Expr{c0, c1, c2, c3}, c(sym.KEq, y, k(1)), solver.Sat},
	}
	s := newSolver(t, Options{})
	for i, st := range steps {
		r := solve(t, s, st.cs, st.goal)
		fresh := newSolver(t, Options{})
		rf := solve(t, fresh, st.cs, st.goal)
		if r.Status != st.want || rf.Status != st.want {
			t.Errorf("step %d: incremental %v, fresh %v, want %v", i, r.Status, rf.Status, st.want)
		}
		if r.Status == solver.Sat {
			checkModel(t, r.Model, st.cs, st.goal)
		}
		if len(s.frames) != len(st.cs) {
			t.Fatalf("step %d: %d frames, want %d", i, len(s.frames), len(st.cs))
		}
		for j := range st.cs {
			if s.frames[j] != st.cs[j] {
				t.Errorf("step %d: frame %d holds %v, want %v", i, j, s.frames[j], st.cs[j])
			}
		}
	}
}

// TestPanicResetsFrames makes Solve panic on a term with a nil operand
// (the caller recovers such panics and counts the query as unknown): the
// panic goes on to the caller, the frames are emptied whatever the panic
// left in them, and the next queries are answered as by a fresh solver.
func TestPanicResetsFrames(t *testing.T) {
	b := sym.NewBuilder()
	x := b.Var(0, 8)
	c0 := b.Cmp(sym.KULt, x, b.Const(3, 8))
	broken := &sym.Expr{Kind: sym.KULt, Args: []*sym.Expr{nil, x}}
	s := newSolver(t, Options{})
	solve(t, s, []*sym.Expr{c0}, b.Eq(x, b.Const(2, 8)))
	if len(s.frames) != 1 {
		t.Fatalf("%d frames after the first query, want 1", len(s.frames))
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("Solve did not panic on a nil operand")
			}
		}()
		s.Solve(context.Background(), solver.Query{Constraints: []*sym.Expr{c0, broken}, Goal: b.Bool(true)})
	}()
	if len(s.frames) != 0 {
		t.Errorf("%d frames after the panic, want none", len(s.frames))
	}
	steps := []struct {
		cs   []*sym.Expr
		goal *sym.Expr
		want solver.Status
	}{
		{[]*sym.Expr{c0}, b.Eq(x, b.Const(5, 8)), solver.Unsat},
		{nil, b.Eq(x, b.Const(5, 8)), solver.Sat},
		{[]*sym.Expr{c0}, b.Eq(x, b.Const(1, 8)), solver.Sat},
	}
	for i, st := range steps {
		if r := solve(t, s, st.cs, st.goal); r.Status != st.want {
			t.Errorf("step %d after the panic: %v, want %v", i, r.Status, st.want)
		}
	}
}

func TestErrors(t *testing.T) {
	b := sym.NewBuilder()
	x := b.Var(0, 8)
	str := b.String(b.Const(1, 64), []*sym.Expr{x})
	tests := []struct {
		name string
		q    solver.Query
	}{
		{"nil goal", solver.Query{}},
		{"nil constraint", solver.Query{Constraints: []*sym.Expr{nil}, Goal: b.Bool(true)}},
		// Made by hand: the Builder refuses to compare a string.
		{"string aggregate", solver.Query{Goal: &sym.Expr{Kind: sym.KEq, Args: []*sym.Expr{str, b.Const(1, 64)}}}},
		{"bit-vector goal", solver.Query{Goal: x}},
		{"variable with two widths", solver.Query{
			Constraints: []*sym.Expr{b.Eq(x, b.Const(1, 8))},
			Goal:        b.Eq(b.Var(0, 16), b.Const(1, 16)),
		}},
	}
	s := newSolver(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Solve(context.Background(), tt.q)
			if err == nil || !strings.HasPrefix(err.Error(), "z3: ") {
				t.Errorf("error %v, want one starting with z3:", err)
			}
			// The solver stays usable.
			cs := []*sym.Expr{b.Cmp(sym.KULt, x, b.Const(3, 8))}
			r := solve(t, s, cs, b.Eq(x, b.Const(2, 8)))
			if r.Status != solver.Sat || r.Model[0] != 2 {
				t.Errorf("after error: got %v %v, want sat with v0=2", r.Status, r.Model)
			}
		})
	}
}

func TestClose(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	b := sym.NewBuilder()
	_, err = s.Solve(context.Background(), solver.Query{Goal: b.Bool(true)})
	if !errors.Is(err, ErrClosed) {
		t.Errorf("Solve after Close: %v, want ErrClosed", err)
	}
}

func TestStats(t *testing.T) {
	s := newSolver(t, Options{})
	b := sym.NewBuilder()
	x := b.Var(0, 8)
	solve(t, s, nil, b.Eq(x, b.Const(1, 8)))
	solve(t, s, []*sym.Expr{b.Eq(x, b.Const(1, 8))}, b.Eq(x, b.Const(2, 8)))
	s.Solve(context.Background(), solver.Query{})
	got := s.Stats()
	if got.Queries != 3 || got.Sat != 1 || got.Unsat != 1 || got.Errors != 1 || got.Time <= 0 {
		t.Errorf("Stats = %+v, want 3 queries: 1 sat, 1 unsat, 1 error, some time", got)
	}
}

// TestChain checks that the default chain in front of Z3 answers a run of
// related queries as Z3 alone does, and that Layers finds Z3 at its end.
func TestChain(t *testing.T) {
	core := newSolver(t, Options{})
	chain := solver.Chain(core, solver.DefaultConfig())
	plain := newSolver(t, Options{})

	// Narrow widths keep the nonlinear queries cheap; the layers do not
	// care about widths.
	g := gen{r: rand.New(rand.NewSource(2)), b: sym.NewBuilder(), ws: []uint8{8, 16}}
	env := g.env()
	var path []*sym.Expr
	for i := range 150 {
		// A path condition that env satisfies, as in a concolic run; the
		// goal negates the next branch.
		c := g.bool(3)
		if !sym.Holds(c, env) {
			c = g.b.Not(c)
		}
		if i%10 == 0 {
			path = path[:len(path)/2]
		}
		q := solver.Query{Constraints: path, Goal: g.b.Not(c)}
		path = append(path, c)

		r, err := chain.Solve(context.Background(), q)
		if err != nil {
			t.Fatalf("query %d: chain: %v", i, err)
		}
		rp, err := plain.Solve(context.Background(), q)
		if err != nil {
			t.Fatalf("query %d: z3: %v", i, err)
		}
		if r.Status != rp.Status {
			t.Fatalf("query %d: chain %v, z3 %v", i, r.Status, rp.Status)
		}
		if r.Status == solver.Sat {
			// Inputs the model leaves alone keep their values.
			merged := make(sym.Env)
			for k, v := range env {
				merged[k] = v
			}
			for k, v := range r.Model {
				merged[k] = v
			}
			checkModel(t, merged, q.Constraints, q.Goal)
		}
	}
	ls := solver.Layers(chain)
	var names []string
	for _, l := range ls {
		names = append(names, l.Name())
	}
	if fmt.Sprint(names) != "[fastunsat independence cache domain seedfix z3]" {
		t.Errorf("Layers names = %v", names)
	}
	if n := ls[0].Stats().Queries; n != 150 {
		t.Errorf("outer layer saw %d queries, want 150", n)
	}
}

// TestMemoReset drops the translation memo between queries, as a long run
// does when it grows too large: the terms of the frames still asserted must
// stay alive in Z3, and answers must not change.
func TestMemoReset(t *testing.T) {
	b := sym.NewBuilder()
	x, y := b.Var(0, 16), b.Var(1, 16)
	c0 := b.Cmp(sym.KULt, x, b.Const(1000, 16))
	c1 := b.Cmp(sym.KULt, b.Bin(sym.KMul, x, y), b.Const(50, 16))
	c2 := b.Cmp(sym.KULt, b.Const(3, 16), y)
	path := []*sym.Expr{c0, c1, c2}
	s := newSolver(t, Options{})
	for i := range 2 * len(path) {
		cs := path[:i%len(path)+1]
		goal := b.Eq(x, b.Const(uint64(i+2), 16))
		r := solve(t, s, cs, goal)
		if r.Status != solver.Sat {
			t.Fatalf("query %d: %v, want sat", i, r.Status)
		}
		checkModel(t, r.Model, cs, goal)
		s.b.reset()
	}
}

// bound is one way of bounding a query's time: the Solver's Timeout or
// the query's context.
type bound struct {
	name    string
	opts    Options
	context time.Duration // the context's timeout, 0 for none
}

// bounds returns the two ways of bounding a query to budget.
func bounds(budget time.Duration) []bound {
	return []bound{{name: "timeout", opts: Options{Timeout: budget}}, {name: "context", context: budget}}
}

// solve asks q of a new Solver under the bound and returns the Solver,
// its answer and how long it took.
func (bd bound) solve(t *testing.T, q solver.Query) (*Solver, solver.Result, time.Duration, error) {
	t.Helper()
	s := newSolver(t, bd.opts)
	ctx := context.Background()
	if bd.context > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, bd.context)
		defer cancel()
	}
	t0 := time.Now()
	r, err := s.Solve(ctx, q)
	return s, r, time.Since(t0), err
}

// TestSlowPushInterrupted checks that the frames of a query count against
// its budget: pushing a frame makes Z3 internalise the frame below, which
// on many multiplications takes far longer than the budget, and used to
// run to its end whatever the Timeout or the context said. The query is
// given up as Unknown long before its frames could have been pushed, and
// the solver answers the next query.
func TestSlowPushInterrupted(t *testing.T) {
	b := sym.NewBuilder()
	var cs []*sym.Expr
	for i := range uint64(60) {
		x, y := b.Var(2*i, 64), b.Var(2*i+1, 64)
		cs = append(cs, b.Not(b.Cmp(sym.KEq, b.Bin(sym.KMul, x, y), b.Const(0, 64))))
	}
	q := solver.Query{Constraints: cs, Goal: b.Not(b.Cmp(sym.KEq, b.Var(0, 64), b.Const(0, 64)))}

	// How long the frames take with nothing to interrupt them.
	ref := newSolver(t, Options{})
	g, asts, err := ref.translate(q)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if err := ref.pushQuery(cs, asts, g); err != nil {
		t.Fatal(err)
	}
	push := time.Since(t0)
	const budget = time.Millisecond
	if push < 20*(budget+deadlineGrace) {
		t.Fatalf("pushing the frames took %v: too quick for the test to say anything", push)
	}

	for _, bd := range bounds(budget) {
		t.Run(bd.name, func(t *testing.T) {
			s, r, took, err := bd.solve(t, q)
			if err != nil || r.Status != solver.Unknown {
				t.Fatalf("Solve = %v, %v; want unknown, no error", r.Status, err)
			}
			if took > push/4 {
				t.Errorf("Solve took %v, pushing its frames alone %v: the push was not interrupted", took, push)
			}
			x := b.Var(0, 8)
			if r := solve(t, s, nil, b.Cmp(sym.KEq, x, b.Const(7, 8))); r.Status != solver.Sat {
				t.Errorf("next query: %v, want sat", r.Status)
			}
		})
	}
}
