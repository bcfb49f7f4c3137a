// This file implements the floating-point operators. A float's shadow is
// a bit-vector term of its width holding its IEEE-754 bits (see package
// sym), so math.Float64bits needs no operator at all.

package rt

import (
	"math"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// Float is the set of Go floating-point types.
type Float interface{ ~float32 | ~float64 }

// floatWidth returns 32 or 64.
func floatWidth[T Float]() uint8 {
	var z T
	return uint8(unsafe.Sizeof(z) * 8)
}

// floatBits returns the IEEE-754 bits of f.
func floatBits[T Float](f T) uint64 {
	if floatWidth[T]() == 32 {
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(float64(f))
}

// fromBits returns the float of type T with the given bits.
func fromBits[T Float](bits uint64) T {
	if floatWidth[T]() == 32 {
		return T(math.Float32frombits(uint32(bits)))
	}
	return T(math.Float64frombits(bits))
}

// fterm returns the symbolic term of a float value, a constant when the
// value is concrete.
func fterm[T Float](v V[T]) *sym.Expr {
	if v.S != nil {
		return v.S
	}
	return st.b.Const(floatBits(v.C), floatWidth[T]())
}

func fbin[T Float](k sym.Kind, r T, a, b V[T]) V[T] {
	if a.S == nil && b.S == nil || !tracking() {
		return V[T]{C: r}
	}
	return V[T]{C: r, S: st.b.FBin(k, fterm(a), fterm(b))}
}

// FAdd returns a + b.
func FAdd[T Float](a, b V[T]) V[T] { return fbin(sym.KFAdd, a.C+b.C, a, b) }

// FSub returns a - b.
func FSub[T Float](a, b V[T]) V[T] { return fbin(sym.KFSub, a.C-b.C, a, b) }

// FMul returns a * b. The conversion rounds the product, which keeps the
// compiler from fusing it with an addition into one FMA instruction
// (GOAMD64=v3 and later): the terms model separate roundings.
func FMul[T Float](a, b V[T]) V[T] { return fbin(sym.KFMul, T(a.C*b.C), a, b) }

// FQuo returns a / b (no panic: division by zero gives an infinity or NaN).
func FQuo[T Float](a, b V[T]) V[T] { return fbin(sym.KFDiv, a.C/b.C, a, b) }

// FNeg returns -a.
func FNeg[T Float](a V[T]) V[T] {
	if a.S == nil || !tracking() {
		return V[T]{C: -a.C}
	}
	return V[T]{C: -a.C, S: st.b.FNeg(a.S)}
}

func fcmp[T Float](k sym.Kind, r bool, a, b V[T]) V[bool] {
	if a.S == nil && b.S == nil || !tracking() {
		return V[bool]{C: r}
	}
	return V[bool]{C: r, S: st.b.FCmp(k, fterm(a), fterm(b))}
}

// FEq returns a == b.
func FEq[T Float](a, b V[T]) V[bool] { return fcmp(sym.KFEq, a.C == b.C, a, b) }

// FNe returns a != b (true when either is NaN).
func FNe[T Float](a, b V[T]) V[bool] { return Not(FEq(a, b)) }

// FLt returns a < b.
func FLt[T Float](a, b V[T]) V[bool] { return fcmp(sym.KFLt, a.C < b.C, a, b) }

// FLe returns a <= b.
func FLe[T Float](a, b V[T]) V[bool] { return fcmp(sym.KFLe, a.C <= b.C, a, b) }

// FGt returns a > b.
func FGt[T Float](a, b V[T]) V[bool] { return FLt(b, a) }

// FGe returns a >= b.
func FGe[T Float](a, b V[T]) V[bool] { return FLe(b, a) }

// ConvFF returns the Go conversion To(a) between float types.
func ConvFF[To, From Float](a V[From]) V[To] {
	r := To(a.C)
	if a.S == nil || !tracking() {
		return V[To]{C: r}
	}
	if floatWidth[To]() == floatWidth[From]() {
		return V[To]{C: r, S: a.S}
	}
	return V[To]{C: r, S: st.b.FConv(a.S, floatWidth[To]())}
}

// ConvIF returns the Go conversion To(a) of an integer to a float.
func ConvIF[To Float, From Integer](a V[From]) V[To] {
	r := To(a.C)
	if a.S == nil || !tracking() {
		return V[To]{C: r}
	}
	_, signed := widthOf[From]()
	return V[To]{C: r, S: st.b.IntToF(a.S, floatWidth[To](), signed)}
}

// ConvFI returns the Go conversion To(a) of a float to an integer.
func ConvFI[To Integer, From Float](a V[From]) V[To] {
	r := To(a.C)
	if a.S == nil || !tracking() {
		return V[To]{C: r}
	}
	w, signed := widthOf[To]()
	return V[To]{C: r, S: st.b.FToInt(a.S, w, signed)}
}

// IncF returns x+1 and its shadow, for x++ on a shadowed float variable.
func IncF[T Float](x T, s *sym.Expr) (T, *sym.Expr) {
	v := FAdd(V[T]{C: x, S: s}, V[T]{C: 1})
	return v.C, v.S
}

// DecF returns x-1 and its shadow, for x-- on a shadowed float variable.
func DecF[T Float](x T, s *sym.Expr) (T, *sym.Expr) {
	v := FSub(V[T]{C: x, S: s}, V[T]{C: 1})
	return v.C, v.S
}

// InputFloat returns parameter i as a symbolic float.
func InputFloat[T Float](in *Input, i int) V[T] {
	w := floatWidth[T]()
	n := in.base(i)
	return V[T]{C: fromBits[T](in.val(n) & sym.Mask(w)), S: in.inputVar(n, w)}
}
