package z3

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// The translation of the float kinds must give exactly sym.Eval's bits,
// NaN payloads included (float.go): the tests below compare every result
// as bits, and none is exempt.

func f64bits(f float64) uint64 { return math.Float64bits(f) }
func f32bits(f float32) uint64 { return uint64(math.Float32bits(f)) }

// floatValues returns the bits of float values of width w that exercise
// the corner cases: zeros, infinities, NaNs with payloads (quiet and
// signalling), subnormals, the extremes, and values at the edges of the
// integer ranges.
func floatValues(w uint8) []uint64 {
	if w == 32 {
		return []uint64{
			0, 1 << 31, f32bits(1), f32bits(-1.5), f32bits(0.1), f32bits(2.5), f32bits(300.7),
			f32bits(math.MaxFloat32), 1, 0x007fffff, 0x7f800000, 0xff800000,
			0x7fc00123, 0xff800001, f32bits(1 << 31), f32bits(-(1 << 31)), f32bits(3e9), f32bits(1 << 63), f32bits(1 << 64),
		}
	}
	return []uint64{
		0, 1 << 63, f64bits(1), f64bits(-1.5), f64bits(0.1), f64bits(2.5), f64bits(300.7),
		f64bits(math.MaxFloat64), 1, 0x000fffffffffffff, 0x7ff0000000000000, 0xfff0000000000000,
		0x7ff8000000000123, 0xfff0000000000001, f64bits(-2147483648.5), f64bits(-2147483649), f64bits(3e9),
		f64bits(1 << 63), f64bits(-(1 << 63)), f64bits(1e19), f64bits(1 << 64),
	}
}

var floatWidths = []uint8{32, 64}

func TestFloatArithAgreesWithEval(t *testing.T) {
	s := newSolver(t, Options{})
	for _, k := range []sym.Kind{sym.KFAdd, sym.KFSub, sym.KFMul, sym.KFDiv} {
		for _, w := range floatWidths {
			t.Run(fmt.Sprintf("%s/%d", k, w), func(t *testing.T) {
				b := sym.NewBuilder()
				e := b.FBin(k, b.Var(0, w), b.Var(1, w))
				vals := floatValues(w)
				for _, x := range vals {
					for _, y := range vals {
						env := sym.Env{0: x, 1: y}
						checkAgrees(t, s, b, e, env, sym.Eval(e, env))
					}
				}
			})
		}
	}
}

func TestFloatCompareAgreesWithEval(t *testing.T) {
	s := newSolver(t, Options{})
	for _, k := range []sym.Kind{sym.KFEq, sym.KFLt, sym.KFLe} {
		for _, w := range floatWidths {
			t.Run(fmt.Sprintf("%s/%d", k, w), func(t *testing.T) {
				b := sym.NewBuilder()
				e := b.FCmp(k, b.Var(0, w), b.Var(1, w))
				vals := floatValues(w)
				for _, x := range vals {
					for _, y := range vals {
						env := sym.Env{0: x, 1: y}
						checkAgrees(t, s, b, e, env, sym.Eval(e, env))
					}
				}
			})
		}
	}
}

func TestFloatUnaryAgreesWithEval(t *testing.T) {
	s := newSolver(t, Options{})
	for _, w := range floatWidths {
		b := sym.NewBuilder()
		x := b.Var(0, w)
		es := []*sym.Expr{b.FNeg(x), b.FConv(x, 96-w)}
		for _, iw := range widths {
			es = append(es, b.FToInt(x, iw, true), b.FToInt(x, iw, false))
		}
		for _, e := range es {
			t.Run(fmt.Sprintf("%s%d/%d", e.Kind, e.Width, w), func(t *testing.T) {
				vals := floatValues(w)
				// The edges of every integer range, and around them.
				for _, n := range widths {
					lo := sym.FloatToIntBound(w, n)
					vals = append(vals, lo, lo+1, lo-1) // the bits of the neighbours, for negative floats
					hi := math.Ldexp(1, int(n)-1)
					for _, v := range []float64{hi, -hi, 2 * hi, hi - 1, hi + 1, -hi - 1} {
						if w == 32 {
							vals = append(vals, f32bits(float32(v)))
						} else {
							vals = append(vals, f64bits(v))
						}
					}
				}
				for _, v := range vals {
					env := sym.Env{0: v}
					checkAgrees(t, s, b, e, env, sym.Eval(e, env))
				}
			})
		}
	}
}

func TestIntToFloatAgreesWithEval(t *testing.T) {
	s := newSolver(t, Options{})
	for _, iw := range widths {
		b := sym.NewBuilder()
		x := b.Var(0, iw)
		for _, w := range floatWidths {
			for _, signed := range []bool{true, false} {
				e := b.IntToF(x, w, signed)
				t.Run(fmt.Sprintf("%s%d/%d", e.Kind, w, iw), func(t *testing.T) {
					vals := interesting(iw)
					for _, p := range []uint{24, 53} { // the limits of exact integers, and ties
						if p < uint(iw) {
							vals = append(vals, 1<<p-1, 1<<p+1, 1<<p+3, -(uint64(1)<<p+1)&sym.Mask(iw))
						}
					}
					for _, v := range vals {
						env := sym.Env{0: v}
						checkAgrees(t, s, b, e, env, sym.Eval(e, env))
					}
				})
			}
		}
	}
}

// TestFloatNaNBitsAgreeWithEval pins NaN payloads through chains of float
// operations, where the translation must carry sym's rules rather than
// Z3's single NaN, and the bits of results read by integer operations.
func TestFloatNaNBitsAgreeWithEval(t *testing.T) {
	s := newSolver(t, Options{})
	b := sym.NewBuilder()
	x, y := b.Var(0, 64), b.Var(1, 64)
	z := b.Var(2, 32)
	one := b.Const(f64bits(1), 64)
	terms := []*sym.Expr{
		b.FBin(sym.KFMul, b.FBin(sym.KFAdd, x, one), y),
		b.FBin(sym.KFSub, y, b.FNeg(x)),
		b.FConv(b.FBin(sym.KFDiv, x, y), 32),
		b.FBin(sym.KFAdd, b.FConv(z, 64), x),
		b.Ite(b.FCmp(sym.KFLt, x, y), x, b.FBin(sym.KFDiv, y, x)),
		// Bits read by integer operations.
		b.Trunc(b.FBin(sym.KFMul, x, y), 16),
		b.Bin(sym.KLShr, b.FConv(b.FBin(sym.KFSub, x, one), 32), b.Const(20, 32)),
		b.Bin(sym.KXor, b.IntToF(b.Trunc(y, 32), 64, false), x),
	}
	envs := []sym.Env{
		{0: f64bits(1.5), 1: f64bits(-0.1), 2: f32bits(3)},
		{0: 1 << 63, 1: 1 << 63, 2: 1 << 31},
		{0: 0x7ff0000000000001, 1: 0xfff8000000000abc, 2: 0x7f800001},
		{0: 0xfff8000000000abc, 1: 0x7ff0000000000001, 2: 0xffc00123},
		{0: 0, 1: 0, 2: 0},
		{0: 0x7ff0000000000000, 1: 0xfff0000000000000, 2: 0x7fa00000},
		{0: 0x7ff0000020000000, 1: f64bits(2), 2: f32bits(1.5)},
	}
	for _, e := range terms {
		for _, env := range envs {
			checkAgrees(t, s, b, e, env, sym.Eval(e, env))
		}
	}
}

// skipUnlessAmd64 skips checks of models against compiled Go where its
// results are amd64's (NaN bits, out-of-range conversions).
func skipUnlessAmd64(t *testing.T) {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		t.Skipf("the float kinds give amd64's results; compiled Go on %s differs", runtime.GOARCH)
	}
}

//go:noinline
func goAdd(x, y float64) float64 { return x + y }

//go:noinline
func goSub(x, y float64) float64 { return x - y }

//go:noinline
func goDiv32(x, y float32) float32 { return x / y }

func TestFloatModels(t *testing.T) {
	skipUnlessAmd64(t)
	b := sym.NewBuilder()
	x, y := b.Var(0, 64), b.Var(1, 64)
	x32 := b.Var(2, 32)
	n := b.Var(3, 64)
	c64 := func(f float64) *sym.Expr { return b.Const(f64bits(f), 64) }
	c32 := func(f float32) *sym.Expr { return b.Const(f32bits(f), 32) }
	f := func(m sym.Env, v uint64) float64 { return math.Float64frombits(m[v]) }
	g := func(m sym.Env, v uint64) float32 { return math.Float32frombits(uint32(m[v])) }
	tests := []struct {
		name  string
		cs    []*sym.Expr
		goal  *sym.Expr
		check func(m sym.Env) bool // the model, checked with compiled Go
	}{
		{"x*x == 2.25", nil, b.FCmp(sym.KFEq, b.FBin(sym.KFMul, x, x), c64(2.25)),
			func(m sym.Env) bool { return f(m, 0)*f(m, 0) == 2.25 }},
		{"x+0.5 > 1e10 && int64(x) < 2e10",
			[]*sym.Expr{b.FCmp(sym.KFLt, c64(1e10), b.FBin(sym.KFAdd, x, c64(0.5)))},
			b.Cmp(sym.KSLt, b.FToInt(x, 64, true), b.Const(2e10, 64)),
			func(m sym.Env) bool { return goAdd(f(m, 0), 0.5) > 1e10 && int64(f(m, 0)) < 2e10 }},
		{"float64(n)+0.5 > 1e10 && n < 2e10",
			[]*sym.Expr{b.FCmp(sym.KFLt, c64(1e10), b.FBin(sym.KFAdd, b.IntToF(n, 64, true), c64(0.5)))},
			b.Cmp(sym.KSLt, n, b.Const(2e10, 64)),
			func(m sym.Env) bool { v := int64(m[3]); return goAdd(float64(v), 0.5) > 1e10 && v < 2e10 }},
		{"int32(x32) out of range", []*sym.Expr{b.Not(b.FCmp(sym.KFEq, x32, c32(-(1 << 31))))},
			b.Eq(b.FToInt(x32, 32, true), b.Const(1<<31, 32)),
			func(m sym.Env) bool {
				v := g(m, 2)
				return int32(v) == math.MinInt32 && v != -(1<<31)
			}},
		{"int32(x32) out of range and positive", []*sym.Expr{b.FCmp(sym.KFLt, c32(0), x32)},
			b.Eq(b.FToInt(x32, 32, true), b.Const(1<<31, 32)),
			func(m sym.Env) bool { v := g(m, 2); return int32(v) == math.MinInt32 && v > 0 }},
		{"int8(x) == 44 && x > 1000", []*sym.Expr{b.FCmp(sym.KFLt, c64(1000), x)},
			b.Eq(b.FToInt(x, 8, true), b.Const(44, 8)),
			func(m sym.Env) bool { return int8(f(m, 0)) == 44 && f(m, 0) > 1000 }},
		{"uint16(x) == 0 && x > 1e10", []*sym.Expr{b.FCmp(sym.KFLt, c64(1e10), x)},
			b.Eq(b.FToInt(x, 16, false), b.Const(0, 16)),
			func(m sym.Env) bool { return uint16(f(m, 0)) == 0 && f(m, 0) > 1e10 }},
		{"uint64(x) == 2^63 && x != 2^63", []*sym.Expr{b.Not(b.FCmp(sym.KFEq, x, c64(1<<63)))},
			b.Eq(b.FToInt(x, 64, false), b.Const(1<<63, 64)),
			func(m sym.Env) bool { return uint64(f(m, 0)) == 1<<63 && f(m, 0) != 1<<63 }},
		{"uint32(x) == 2^32-1 && x < 0", []*sym.Expr{b.FCmp(sym.KFLt, x, c64(0))},
			b.Eq(b.FToInt(x, 32, false), b.Const(1<<32-1, 32)),
			func(m sym.Env) bool { return uint32(f(m, 0)) == 1<<32-1 && f(m, 0) < 0 }},
		{"Float64bits(x*2) is -0", nil, b.Eq(b.FBin(sym.KFMul, x, c64(2)), b.Const(1<<63, 64)),
			func(m sym.Env) bool { return m[0] == 1<<63 }},
		{"Float32bits(x32-1) is +0", nil, b.Eq(b.FBin(sym.KFSub, x32, c32(1)), b.Const(0, 32)),
			func(m sym.Env) bool { return g(m, 2) == 1 }},
		{"x != x", nil, b.Not(b.FCmp(sym.KFEq, x, x)),
			func(m sym.Env) bool { return math.IsNaN(f(m, 0)) }},
		{"x == 0 with the sign bit", []*sym.Expr{b.FCmp(sym.KFEq, x, c64(0))},
			b.Cmp(sym.KULe, b.Const(1<<63, 64), x),
			func(m sym.Env) bool { return m[0] == 1<<63 && f(m, 0) == 0 }},
		{"Float64bits(x+1) is a NaN with payload 0xabc", nil,
			b.Eq(b.FBin(sym.KFAdd, x, c64(1)), b.Const(0x7ff8000000000abc, 64)),
			func(m sym.Env) bool { return f64bits(goAdd(f(m, 0), 1)) == 0x7ff8000000000abc }},
		// Subtraction: a division of two unknowns takes Z3 long (float64:
		// minutes).
		{"Float64bits(x-y) is the indefinite NaN from numbers",
			[]*sym.Expr{b.FCmp(sym.KFEq, x, x), b.FCmp(sym.KFEq, y, y)},
			b.Eq(b.FBin(sym.KFSub, x, y), b.Const(0xfff8000000000000, 64)),
			func(m sym.Env) bool {
				return !math.IsNaN(f(m, 0)) && !math.IsNaN(f(m, 1)) && f64bits(goSub(f(m, 0), f(m, 1))) == 0xfff8000000000000
			}},
		{"Float32bits(x32/0) is the indefinite NaN", nil,
			b.Eq(b.FBin(sym.KFDiv, x32, c32(0)), b.Const(0xffc00000, 32)),
			func(m sym.Env) bool { return f32bits(goDiv32(g(m, 2), 0)) == 0xffc00000 }},
		{"float64(n) == 2^53 && n != 2^53", []*sym.Expr{b.Not(b.Eq(n, b.Const(1<<53, 64)))},
			b.Eq(b.IntToF(n, 64, true), c64(1<<53)),
			func(m sym.Env) bool { v := int64(m[3]); return float64(v) == 1<<53 && v != 1<<53 }},
		{"float32(uint64 n) == 2^64", nil, b.FCmp(sym.KFEq, b.IntToF(n, 32, false), c32(1<<64)),
			func(m sym.Env) bool { return float32(m[3]) == 1<<64 }},
		{"float32(x) == 1 && x != 1", []*sym.Expr{b.Not(b.FCmp(sym.KFEq, x, c64(1)))},
			b.FCmp(sym.KFEq, b.FConv(x, 32), c32(1)),
			func(m sym.Env) bool { return float32(f(m, 0)) == 1 && f(m, 0) != 1 }},
		{"Float64bits(float64(x32)) keeps the payload", nil,
			b.Eq(b.FConv(x32, 64), b.Const(0x7ff8000020000000, 64)),
			func(m sym.Env) bool { return f64bits(float64(g(m, 2))) == 0x7ff8000020000000 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSolver(t, Options{})
			r := solve(t, s, tt.cs, tt.goal)
			if r.Status != solver.Sat {
				t.Fatalf("status %v, want sat", r.Status)
			}
			checkModel(t, r.Model, tt.cs, tt.goal)
			if !tt.check(r.Model) {
				t.Errorf("model %#x does not satisfy the query in compiled Go", r.Model)
			}
		})
	}
}

func TestFloatUnsat(t *testing.T) {
	b := sym.NewBuilder()
	x := b.Var(0, 64)
	x32 := b.Var(1, 32)
	c64 := func(f float64) *sym.Expr { return b.Const(f64bits(f), 64) }
	tests := []struct {
		name string
		cs   []*sym.Expr
		goal *sym.Expr
	}{
		{"x < x", nil, b.FCmp(sym.KFLt, x, x)},
		{"x == x and x is NaN", []*sym.Expr{b.FCmp(sym.KFEq, x, x)}, b.Cmp(sym.KULt, b.Const(0x7ff0000000000000, 64), b.Bin(sym.KAnd, x, b.Const(1<<63-1, 64)))},
		{"x*x < 0", []*sym.Expr{b.FCmp(sym.KFEq, x, x)}, b.FCmp(sym.KFLt, b.FBin(sym.KFMul, x, x), c64(0))},
		{"int32(x32) in (2^31-2^7, 2^31)", nil, b.And(
			b.Cmp(sym.KSLt, b.Const(1<<31-1<<7, 32), b.FToInt(x32, 32, true)),
			b.Cmp(sym.KSLt, b.FToInt(x32, 32, true), b.Const(1<<31-1, 32)))}, // float32 has no number there
		{"-x is not a sign flip", nil, b.Not(b.Eq(b.FNeg(x), b.Bin(sym.KXor, x, b.Const(1<<63, 64))))},
		{"Float64bits(x*x) is -0", nil, b.Eq(b.FBin(sym.KFMul, x, x), b.Const(1<<63, 64))},
		{"Float64bits(-0 + -0) is +0", []*sym.Expr{b.Eq(x, b.Const(1<<63, 64))},
			b.Eq(b.FBin(sym.KFAdd, x, x), b.Const(0, 64))},
	}
	s := newSolver(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r := solve(t, s, tt.cs, tt.goal); r.Status != solver.Unsat {
				t.Errorf("status %v, want unsat (model %#x)", r.Status, r.Model)
			}
		})
	}
}

func TestRandomFloatTreesAgreeWithEval(t *testing.T) {
	s := newSolver(t, Options{})
	g := gen{r: rand.New(rand.NewSource(3)), b: sym.NewBuilder(), floats: true}
	for i := range 300 {
		var e *sym.Expr
		if i%4 == 0 {
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

func TestFloatShapeErrors(t *testing.T) {
	b := sym.NewBuilder()
	x8, x64 := b.Var(0, 8), b.Var(1, 64)
	tests := []struct {
		name string
		goal *sym.Expr
	}{
		// Made by hand: the Builder refuses these.
		{"fadd of bytes", b.Eq(&sym.Expr{Kind: sym.KFAdd, Width: 8, Args: []*sym.Expr{x8, x8}}, x8)},
		{"float compare of bytes", &sym.Expr{Kind: sym.KFLt, Args: []*sym.Expr{x8, x8}}},
		{"ftos of a byte", b.Eq(&sym.Expr{Kind: sym.KFToS, Width: 32, Args: []*sym.Expr{x8}}, b.Const(0, 32))},
		{"fconv to the same width", b.Eq(&sym.Expr{Kind: sym.KFConv, Width: 64, Args: []*sym.Expr{x64}}, x64)},
		{"stof to 16 bits", b.Eq(&sym.Expr{Kind: sym.KSToF, Width: 16, Args: []*sym.Expr{x64}}, b.Var(2, 16))},
	}
	s := newSolver(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := s.Solve(t.Context(), solver.Query{Goal: tt.goal}); err == nil {
				t.Errorf("no error")
			}
			// The solver stays usable.
			goal := b.FCmp(sym.KFLt, b.Const(f64bits(1), 64), x64)
			if r := solve(t, s, nil, goal); r.Status != solver.Sat {
				t.Errorf("after error: %v, want sat", r.Status)
			}
		})
	}
}

// TestFloatMemoReset drops both translation memos between queries: the
// float views of the terms still asserted must stay alive in Z3.
func TestFloatMemoReset(t *testing.T) {
	b := sym.NewBuilder()
	x, y := b.Var(0, 32), b.Var(1, 32)
	c32 := func(f float32) *sym.Expr { return b.Const(f32bits(f), 32) }
	path := []*sym.Expr{
		b.FCmp(sym.KFLt, c32(1), x),
		b.FCmp(sym.KFLe, b.FBin(sym.KFAdd, x, y), c32(100)),
		b.Cmp(sym.KSLt, b.Const(3, 16), b.FToInt(y, 16, true)),
	}
	s := newSolver(t, Options{})
	for i := range 2 * len(path) {
		cs := path[:i%len(path)+1]
		goal := b.Eq(b.FToInt(x, 8, false), b.Const(uint64(i+2), 8))
		r := solve(t, s, cs, goal)
		if r.Status != solver.Sat {
			t.Fatalf("query %d: %v, want sat", i, r.Status)
		}
		checkModel(t, r.Model, cs, goal)
		if len(s.b.fmemo) == 0 {
			t.Fatalf("query %d made no float views", i)
		}
		s.b.reset()
	}
}

// BenchmarkFloatDivQuery measures Z3 on the query x / 2 == 1234.25 of a
// generic Half[T] (e2e TestFlow/FloatOnly), with a fresh solver per query
// so that nothing learnt is reused. sym builds x / 2 as x * 0.5, the same
// float for every x (sym.FBin); before that rewrite this query was a
// quotient.
func BenchmarkFloatDivQuery(b *testing.B) {
	for _, w := range floatWidths {
		b.Run(fmt.Sprintf("float%d", w), func(b *testing.B) {
			bits := func(f float64) uint64 {
				if w == 32 {
					return uint64(math.Float32bits(float32(f)))
				}
				return math.Float64bits(f)
			}
			sb := sym.NewBuilder()
			goal := sb.FCmp(sym.KFEq, sb.FBin(sym.KFDiv, sb.Var(0, w), sb.Const(bits(2), w)), sb.Const(bits(1234.25), w))
			for b.Loop() {
				s, err := New(Options{})
				if err != nil {
					b.Fatal(err)
				}
				r, err := s.Solve(b.Context(), solver.Query{Goal: goal})
				s.Close()
				if err != nil || r.Status != solver.Sat {
					b.Fatalf("x/2 == 1234.25: %v, %v", r.Status, err)
				}
			}
		})
	}
}

// TestMemoryLimit checks that a query that needs more memory than
// Options.MemoryLimit fails with an error instead of growing, and that the
// same Solver answers the next query. A memory-out leaves Z3's context
// half freed, and where it lands (translating, asserting, checking)
// depends on what the process already holds; reusing the context crashed
// the process in about one CI run in three. The bounds here sit a few MiB
// above what Z3 holds, so the memory-out lands at different stages.
func TestMemoryLimit(t *testing.T) {
	skipUnlessAmd64(t)
	b := sym.NewBuilder()
	x, y := b.Var(0, 64), b.Var(1, 64)
	c64 := func(f float64) *sym.Expr { return b.Const(f64bits(f), 64) }
	// Bit-blasting float64 products, or a product and a quotient, takes
	// far more than 32 MiB. A quotient sends the query to the solver of
	// float divisions, whose tactics catch their own memory-out.
	for _, tt := range []struct {
		name  string
		heavy *sym.Expr
	}{
		{"products", b.FCmp(sym.KFEq, b.FBin(sym.KFMul, b.FBin(sym.KFMul, x, y), b.FBin(sym.KFAdd, x, y)), c64(1.7))},
		{"quotient", b.FCmp(sym.KFEq, b.FBin(sym.KFDiv, b.FBin(sym.KFMul, x, y), b.FBin(sym.KFAdd, x, y)), c64(1.7))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newSolver(t, Options{MemoryLimit: 32})
			defer setMemoryLimit(0) // the bound is the process's: lift it for the other tests
			// The first round is the bound New sets and no path prefix (the
			// shape that crashed); the others sit a few MiB above Z3's use.
			for i, extra := range []int{0, 1, 2, 4, 8, 16} {
				var prefix []*sym.Expr
				if extra > 0 {
					setMemoryLimit(allocatedMiB() + extra)
					prefix = []*sym.Expr{b.Cmp(sym.KULt, y, b.Const(uint64(100+i), 64))}
				}
				if _, err := s.Solve(context.Background(), solver.Query{Constraints: prefix, Goal: tt.heavy}); err == nil || !strings.Contains(err.Error(), "memory") {
					t.Fatalf("round %d: a float query under the bound: error %v, want one about memory", i, err)
				}
				setMemoryLimit(0)
				r := solve(t, s, []*sym.Expr{b.Cmp(sym.KULt, y, b.Const(3, 64))}, b.Eq(x, b.Const(uint64(7+i), 64)))
				if r.Status != solver.Sat || r.Model[0] != uint64(7+i) || r.Model[1] >= 3 {
					t.Fatalf("round %d, after the bound was lifted: %v %v, want sat with v0=%d, v1<3", i, r.Status, r.Model, 7+i)
				}
			}
		})
	}
}

// TestFloatDivisionOnTime checks that a query with a 64-bit float
// division ends near its Timeout or its context's end. Z3's incremental
// solver builds a division's circuit without looking at either (5 s on a
// 50 ms bound here, found by solver/stack's FuzzStack); such queries go
// to a solver of their own whose tactics stop on time (about 0.1 s
// here). The bound asserted lies far from both. The solver then answers
// a division query and a query on its frames.
func TestFloatDivisionOnTime(t *testing.T) {
	const budget = 50 * time.Millisecond
	b := sym.NewBuilder()
	x, y := b.Var(0, 64), b.Var(1, 64)
	// x % (y / 48.0's bits) == 3: hard for Z3, so it runs out of time.
	hard := b.Eq(b.Bin(sym.KSRem, x, b.FBin(sym.KFDiv, y, b.Const(48, 64))), b.Const(3, 64))
	for _, bd := range bounds(budget) {
		t.Run(bd.name, func(t *testing.T) {
			s, r, took, err := bd.solve(t, solver.Query{Goal: hard})
			if took > 2500*time.Millisecond {
				t.Errorf("Solve took %v on a %v bound", took, budget)
			}
			if err != nil || r.Status != solver.Unknown {
				t.Fatalf("Solve = %v, %v; want unknown, no error", r.Status, err)
			}
			// x / 2.0 == 3.0 on float32, then a query without floats
			// over a constraint kept in the frames.
			x32 := b.Var(2, 32)
			div := b.FCmp(sym.KFEq, b.FBin(sym.KFDiv, x32, b.Const(f32bits(2), 32)), b.Const(f32bits(3), 32))
			// Under the 50 ms Timeout even this may run out of time on a
			// loaded machine; without it, it must be answered.
			r = solve(t, s, nil, div)
			if r.Status == solver.Unsat || r.Status == solver.Sat && math.Float32frombits(uint32(r.Model[2])) != 6 ||
				r.Status == solver.Unknown && bd.opts.Timeout == 0 {
				t.Errorf("division query: %v %v, want sat with v2=6.0", r.Status, r.Model)
			}
			n := b.Var(3, 8)
			cs := []*sym.Expr{b.Cmp(sym.KULt, n, b.Const(10, 8))}
			if r := solve(t, s, cs, b.Eq(n, b.Const(7, 8))); r.Status != solver.Sat || r.Model[3] != 7 {
				t.Errorf("query on the frames: %v %v, want sat with v3=7", r.Status, r.Model)
			}
		})
	}
}
