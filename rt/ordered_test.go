package rt

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// The tests of the ordered operators build each operator's term once,
// over symbolic operands at a random point (both symbolic, then each one
// alone), check that the concrete result is Go's, and evaluate the term
// at other random points, where it must give Go's result of the
// operator there: the term describes the operation, not just one value.

// ordPoint is one assignment of the operands: x and y are the values of
// the symbolic operands at variables 1 and 2 (strings at 100 and 200).
type ordPoint[T Ordered] struct{ x, y T }

// ordSym returns the symbolic operand of variable n (a string input at
// 100*n) and a function that sets its value in an environment.
func ordSym[T Ordered](n uint64) (*sym.Expr, func(sym.Env, T)) {
	k := ordOf[T]()
	if k.kind == ordString {
		ss := newSymString(100 * n)
		return ss.agg, func(env sym.Env, v T) { ss.set(env, ordStr(v)) }
	}
	return st.b.Var(n, k.width), func(env sym.Env, v T) { env[n] = ordBits(v) }
}

// ordEval returns the value of the term e of type T in env, as a string
// of T's bits or bytes, and false when e does not determine it.
func ordEval[T Ordered](e *sym.Expr, env sym.Env) (string, bool) {
	k := ordOf[T]()
	if k.kind != ordString {
		return string(rune(0)) + fmtBits(sym.Eval(e, env)&sym.Mask(k.width)), true
	}
	n := sym.Eval(aggLen(e), env)
	bs := aggBytes(e)
	if n > uint64(len(bs)) {
		return "", false
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(sym.Eval(bs[i], env))
	}
	return string(b), true
}

func fmtBits(u uint64) string {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte(u >> (8 * i))
	}
	return string(b)
}

// ordRepr is ordEval's form of the concrete value v.
func ordRepr[T Ordered](v T) string {
	if ordOf[T]().kind == ordString {
		return ordStr(v)
	}
	return string(rune(0)) + fmtBits(ordBits(v))
}

// checkOrdOp checks the binary operator op (term builder) against real
// (Go's operator) on random points from gen. skip excludes points where
// the real operator panics. A unary operator reads only a.
func checkOrdOp[T, R Ordered](t *testing.T, r *rand.Rand, name string, gen func(*rand.Rand) T,
	op func(a, b V[T]) V[R], real func(a, b T) R, skip func(a, b T) bool) {
	t.Helper()
	sx, setX := ordSym[T](1)
	sy, setY := ordSym[T](2)
	modes := []string{"both", "first", "second"}
	if unary[name] {
		modes = modes[:2]
	}
	for _, mode := range modes {
		for range 20 {
			p := ordPoint[T]{gen(r), gen(r)}
			if skip != nil && skip(p.x, p.y) {
				continue
			}
			a, b := V[T]{C: p.x, S: sx}, V[T]{C: p.y, S: sy}
			switch mode {
			case "first":
				b.S = nil
			case "second":
				a.S = nil
			}
			res := op(a, b)
			if want := real(p.x, p.y); ordRepr(res.C) != ordRepr(want) {
				t.Fatalf("%s %s(%v, %v): concrete %v, want %v", mode, name, p.x, p.y, res.C, want)
			}
			if res.S == nil {
				t.Fatalf("%s %s(%v, %v): no term", mode, name, p.x, p.y)
			}
			for i := range 20 {
				q := p
				if i > 0 {
					q = ordPoint[T]{gen(r), gen(r)}
				}
				if mode == "first" {
					q.y = p.y
				} else if mode == "second" {
					q.x = p.x
				}
				if skip != nil && skip(q.x, q.y) {
					continue
				}
				env := sym.Env{}
				setX(env, q.x)
				setY(env, q.y)
				got, ok := ordEval[R](res.S, env)
				if !ok {
					continue // a string longer than the term's known bytes
				}
				if want := real(q.x, q.y); got != ordRepr(want) {
					t.Fatalf("%s %s, built at (%v, %v): term at (%v, %v) is wrong, want %v", mode, name, p.x, p.y, q.x, q.y, want)
				}
			}
		}
	}
}

// unary names the operators of one operand.
var unary = map[string]bool{"ONeg": true, "ConvN": true}

// boolOrd carries comparison results through checkOrdOp as uint8.
func boolOrd(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// cmpAs adapts a comparison to checkOrdOp: its bool term becomes an
// 8-bit 0 or 1.
func cmpAs[T Ordered](f func(a, b V[T]) V[bool]) func(a, b V[T]) V[uint8] {
	return func(a, b V[T]) V[uint8] {
		v := f(a, b)
		if v.S == nil {
			return V[uint8]{C: boolOrd(v.C)}
		}
		return V[uint8]{C: boolOrd(v.C), S: st.b.Ite(v.S, st.b.Const(1, 8), st.b.Const(0, 8))}
	}
}

// checkOrdered checks the operators of every Ordered type on T.
func checkOrdered[T Ordered](t *testing.T, r *rand.Rand, gen func(*rand.Rand) T) {
	checkOrdOp(t, r, "OAdd", gen, OAdd[T], func(a, b T) T { return a + b }, nil)
	checkOrdOp(t, r, "OEq", gen, cmpAs(OEq[T]), func(a, b T) uint8 { return boolOrd(a == b) }, nil)
	checkOrdOp(t, r, "ONe", gen, cmpAs(ONe[T]), func(a, b T) uint8 { return boolOrd(a != b) }, nil)
	checkOrdOp(t, r, "OLt", gen, cmpAs(OLt[T]), func(a, b T) uint8 { return boolOrd(a < b) }, nil)
	checkOrdOp(t, r, "OLe", gen, cmpAs(OLe[T]), func(a, b T) uint8 { return boolOrd(a <= b) }, nil)
	checkOrdOp(t, r, "OGt", gen, cmpAs(OGt[T]), func(a, b T) uint8 { return boolOrd(a > b) }, nil)
	checkOrdOp(t, r, "OGe", gen, cmpAs(OGe[T]), func(a, b T) uint8 { return boolOrd(a >= b) }, nil)
}

// checkNumber checks the arithmetic operators and conversions on T.
func checkNumber[T Number](t *testing.T, r *rand.Rand, gen func(*rand.Rand) T) {
	checkOrdered(t, r, gen)
	checkOrdOp(t, r, "OSub", gen, OSub[T], func(a, b T) T { return a - b }, nil)
	checkOrdOp(t, r, "OMul", gen, OMul[T], func(a, b T) T { return T(a * b) }, nil)
	isInt := ordOf[T]().kind != ordFloat
	checkOrdOp(t, r, "OQuo", gen, func(a, b V[T]) V[T] { return OQuo(0, a, b) }, func(a, b T) T { return a / b },
		func(_, b T) bool { return isInt && b == 0 })
	checkOrdOp(t, r, "ONeg", gen, func(a, _ V[T]) V[T] { return ONeg(a) }, func(a, _ T) T { return -a }, nil)
	checkConv[int8](t, r, gen)
	checkConv[uint16](t, r, gen)
	checkConv[int32](t, r, gen)
	checkConv[uint64](t, r, gen)
	checkConv[int](t, r, gen)
	checkConv[float32](t, r, gen)
	checkConv[float64](t, r, gen)
}

func checkConv[To, From Number](t *testing.T, r *rand.Rand, gen func(*rand.Rand) From) {
	t.Helper()
	checkOrdOp(t, r, "ConvN", gen, func(a, _ V[From]) V[To] { return ConvN[To](a) }, func(a, _ From) To { return To(a) }, nil)
}

// genInt draws integers of T near zero, near the extremes and at random.
func genInt[T Integer](r *rand.Rand) T {
	switch r.IntN(4) {
	case 0:
		return T(r.IntN(7) - 3)
	case 1:
		return ^T(0) >> 1 // the largest signed or unsigned value
	case 2:
		return ^(^T(0) >> 1) // the smallest signed value, or 1<<(w-1)
	}
	return T(r.Uint64())
}

// genFloat draws floats including NaN, ±0, ±Inf, subnormals, small
// integers and random bits.
func genFloat[T Float](r *rand.Rand) T {
	special := []float64{math.NaN(), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 1, -1, 0.5, 3, 1e300, -1e-300, 5e-324, 1 << 40}
	if r.IntN(2) == 0 {
		return T(special[r.IntN(len(special))])
	}
	if floatWidth[T]() == 32 {
		return T(math.Float32frombits(r.Uint32()))
	}
	return T(math.Float64frombits(r.Uint64()))
}

type myFloat float32

type myString string

func TestOrderedOperators(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"int8", func(t *testing.T) { checkNumber(t, r, genInt[int8]) }},
		{"int16", func(t *testing.T) { checkNumber(t, r, genInt[int16]) }},
		{"int32", func(t *testing.T) { checkNumber(t, r, genInt[int32]) }},
		{"int64", func(t *testing.T) { checkNumber(t, r, genInt[int64]) }},
		{"int", func(t *testing.T) { checkNumber(t, r, genInt[int]) }},
		{"uint8", func(t *testing.T) { checkNumber(t, r, genInt[uint8]) }},
		{"uint16", func(t *testing.T) { checkNumber(t, r, genInt[uint16]) }},
		{"uint32", func(t *testing.T) { checkNumber(t, r, genInt[uint32]) }},
		{"uint64", func(t *testing.T) { checkNumber(t, r, genInt[uint64]) }},
		{"uintptr", func(t *testing.T) { checkNumber(t, r, genInt[uintptr]) }},
		{"float32", func(t *testing.T) { checkNumber(t, r, genFloat[float32]) }},
		{"float64", func(t *testing.T) { checkNumber(t, r, genFloat[float64]) }},
		{"named float32", func(t *testing.T) { checkNumber(t, r, genFloat[myFloat]) }},
		{"string", func(t *testing.T) { checkOrdered(t, r, randString) }},
		{"named string", func(t *testing.T) {
			checkOrdered(t, r, func(r *rand.Rand) myString { return myString(randString(r)) })
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			tt.run(t)
		})
	}
}

// TestOrderedMemory stores symbolic values of ordered type parameters
// and reads them back, directly, at a symbolic index and with op=: the
// cells are those of T's kind, so a value stored by generic code reads
// back with its term in non-generic code and the other way round.
func TestOrderedMemory(t *testing.T) {
	own(t)
	reset(4)
	t.Cleanup(func() { reset(4) })
	x := V[float32]{C: 1.5, S: st.b.Var(1, 32)}
	s := V[string]{C: "ab", S: newSymString(100).agg}
	xs := make([]float32, 3)
	ss := make([]string, 2)
	StoreOrd(x, &xs[1])
	if got := Load(0, &xs[1]); got.S != x.S || got.C != 1.5 {
		t.Errorf("Load after StoreOrd = %v, want the stored term", got)
	}
	Store(x, &xs[2])
	if got := LoadOrd(0, &xs[2]); got.S != x.S {
		t.Errorf("LoadOrd after Store = %v, want the stored term", got)
	}
	StoreString(s, &ss[0])
	if got := LoadOrd(0, &ss[0]); got.S != s.S || got.C != "ab" {
		t.Errorf("LoadOrd of a string cell = %v, want the stored term", got)
	}
	ApplyOrd(0, &xs[1], V[float32]{C: 2}, OAdd[float32])
	if got := LoadOrd(0, &xs[1]); got.C != 3.5 || got.S == nil || got.S.Kind != sym.KFAdd {
		t.Errorf("LoadOrd after ApplyOrd = %v (%v), want 3.5 with a float sum", got.C, got.S)
	}
	i := V[int]{C: 2, S: st.b.Var(2, 64)}
	got := LoadIndexOrd(0, xs, i)
	if got.C != 1.5 || got.S == nil {
		t.Fatalf("LoadIndexOrd = %v, want 1.5 with a term", got)
	}
	for k, want := range []float32{0, 3.5, 1.5} {
		env := sym.Env{1: uint64(math.Float32bits(1.5)), 2: uint64(k)}
		if v := math.Float32frombits(uint32(sym.Eval(got.S, env))); v != want {
			t.Errorf("LoadIndexOrd's term at i=%d is %v, want %v", k, v, want)
		}
	}
	xs[1] = 9 // a write the rewrite does not see
	if got := LoadOrd(0, &xs[1]); got.S != nil {
		t.Errorf("LoadOrd of a stale cell = %v, want no term", got.S)
	}
}
