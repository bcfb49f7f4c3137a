// This file models math. The math models work on the IEEE-754 bits that
// hold a float, exactly.

package rt

import (
	"math"

	"github.com/gocolic/gocolic/sym"
)

const signBit = uint64(1) << 63

// MathFloat64bits models math.Float64bits: a float is held as its bits,
// so the result shares the argument's shadow. So do its three kin.
func MathFloat64bits(f V[float64]) (uint64, *sym.Expr) { return math.Float64bits(f.C), keep(f.S) }

// MathFloat64frombits models math.Float64frombits.
func MathFloat64frombits(b V[uint64]) (float64, *sym.Expr) {
	return math.Float64frombits(b.C), keep(b.S)
}

// MathFloat32bits models math.Float32bits.
func MathFloat32bits(f V[float32]) (uint32, *sym.Expr) { return math.Float32bits(f.C), keep(f.S) }

// MathFloat32frombits models math.Float32frombits.
func MathFloat32frombits(b V[uint32]) (float32, *sym.Expr) {
	return math.Float32frombits(b.C), keep(b.S)
}

// MathAbs models math.Abs: the sign bit cleared.
func MathAbs(x V[float64]) (float64, *sym.Expr) {
	r := math.Abs(x.C)
	if x.S == nil || !tracking() {
		return r, nil
	}
	return r, st.b.Bin(sym.KAnd, x.S, st.b.Const(^signBit, 64))
}

// MathSignbit models math.Signbit.
func MathSignbit(x V[float64]) (bool, *sym.Expr) {
	r := math.Signbit(x.C)
	if x.S == nil || !tracking() {
		return r, nil
	}
	return r, ule(st.b.Const(signBit, 64), x.S)
}

// MathIsNaN models math.IsNaN.
func MathIsNaN(x V[float64]) (bool, *sym.Expr) {
	r := math.IsNaN(x.C)
	if x.S == nil || !tracking() {
		return r, nil
	}
	return r, st.b.Not(st.b.FCmp(sym.KFEq, x.S, x.S))
}

// MathIsInf models math.IsInf.
func MathIsInf(x V[float64], sign V[int]) (bool, *sym.Expr) {
	r := math.IsInf(x.C, sign.C)
	if x.S == nil || sign.S != nil || !tracking() {
		return r, nil
	}
	b := st.b
	pos := b.Eq(x.S, b.Const(math.Float64bits(math.Inf(1)), 64))
	neg := b.Eq(x.S, b.Const(math.Float64bits(math.Inf(-1)), 64))
	switch {
	case sign.C > 0:
		return r, pos
	case sign.C < 0:
		return r, neg
	}
	return r, b.Or(pos, neg)
}
