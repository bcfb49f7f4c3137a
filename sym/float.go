// This file implements the floating-point kinds: their constructors and
// their concrete semantics.
//
// A float is not a sort of its own: a float32 is a 32-bit term and a
// float64 a 64-bit term holding its IEEE-754 bits, and only the float kinds
// read those bits as a number. The results are those of Go compiled for
// linux/amd64, bit for bit, where the language leaves them open:
//
//   - Arithmetic on a NaN returns that NaN made quiet (its quiet bit set),
//     the first operand's if both are NaN; an invalid operation on numbers
//     (0/0, Inf-Inf, 0*Inf) returns the negative quiet NaN with an empty
//     payload (SSE's "indefinite" NaN, 0xfff8000000000000 for float64).
//     Two NaN operands with different payloads are the one place where the
//     bits depend on code generation: the compiler may swap the operands
//     of + and *, which are commutative. The first-operand rule is what an
//     operation on two parameters compiles to.
//   - Negation flips the sign bit, of a NaN too.
//   - float64 to float32 keeps the top 22 bits of a NaN's payload (and
//     sets the quiet bit); float32 to float64 keeps all of them.
//   - A float converts to an integer through the truncating instruction
//     with a 32-bit or 64-bit destination (see floatToInt), which gives the
//     "integer indefinite" value 1<<(n-1) for NaN and out-of-range values.
//
// None of this depends on the machine that evaluates: the NaN and
// out-of-range cases are spelt out, and the rest is IEEE-754 arithmetic
// with rounding to nearest even, which Go performs alike everywhere. (On
// other architectures compiled code differs in those cases, arm64 for
// instance saturates out-of-range conversions; Eval still gives amd64's
// results there.) Go does not fuse a*b+c into one rounding on amd64 unless
// GOAMD64 is v3 or above, where the compiler may; terms model the unfused
// operations.

package sym

import (
	"fmt"
	"math"
)

// Bit patterns of the IEEE-754 formats.
const (
	signBit32  = 1 << 31
	signBit64  = 1 << 63
	quietBit32 = 1 << 22
	quietBit64 = 1 << 51
	inf32      = 0x7f800000
	inf64      = 0x7ff0000000000000

	// The NaN that SSE arithmetic makes from numbers.
	indefiniteNaN32 = 0xffc00000
	indefiniteNaN64 = 0xfff8000000000000
)

func mustFloatWidth(w uint8) {
	if w != 32 && w != 64 {
		panic(fmt.Sprintf("sym: bad float width %d", w))
	}
}

// mustFloat panics unless x is a term that can hold a float's bits.
func mustFloat(x *Expr) {
	mustBV(x)
	mustFloatWidth(x.Width)
}

// FBin returns the float operation k (KFAdd, KFSub, KFMul or KFDiv) of x
// and y, which must both be 32 bits wide (float32) or both 64 (float64).
// Constant operands are folded. The one other rewrite is x / c into
// x * (1/c) for a power of two c whose reciprocal is a float of the
// width: both are the same real number rounded once, so every result,
// NaN payloads included, has the same bits, and Z3 solves a product
// more than ten times faster than a quotient (BENCHMARKS.md). Nothing else is simplified,
// since even x + 0 is not x (for x = -0) and x * 1 is not x (for a
// signalling NaN).
func (b *Builder) FBin(k Kind, x, y *Expr) *Expr {
	if !k.IsFloatArith() {
		panic("sym: FBin with kind " + k.String())
	}
	mustFloat(x)
	mustFloat(y)
	if x.Width != y.Width {
		panic(fmt.Sprintf("sym: %s on widths %d and %d", k, x.Width, y.Width))
	}
	if x.Kind == KConst && y.Kind == KConst {
		return b.Const(evalFloatBin(k, x.Val, y.Val, x.Width), x.Width)
	}
	if k == KFDiv && y.Kind == KConst {
		if r, ok := reciprocalPow2(y.Val, y.Width); ok {
			return b.intern(KFMul, x.Width, 0, x, b.Const(r, y.Width))
		}
	}
	return b.intern(k, x.Width, 0, x, y)
}

// reciprocalPow2 returns the bits of 1/c when the float c of width w is
// plus or minus a power of two whose reciprocal is exactly a float of
// that width (a normal or a subnormal one).
func reciprocalPow2(c uint64, w uint8) (uint64, bool) {
	f := FloatValue(c&Mask(w), w)
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	frac, exp := math.Frexp(f) // f = frac * 2^exp, |frac| in [0.5, 1)
	if frac != 0.5 && frac != -0.5 {
		return 0, false
	}
	k := 1 - exp // 1/f = ±2^k
	lo, hi := -1074, 1023
	if w == 32 {
		lo, hi = -149, 127
	}
	if k < lo || k > hi {
		return 0, false
	}
	r := math.Ldexp(2*frac, k)
	if w == 32 {
		return uint64(math.Float32bits(float32(r))), true
	}
	return math.Float64bits(r), true
}

// FNeg returns -x for a float x: x with its sign bit flipped.
func (b *Builder) FNeg(x *Expr) *Expr {
	mustFloat(x)
	if x.Kind == KConst {
		return b.Const(evalFloatNeg(x.Val, x.Width), x.Width)
	}
	if x.Kind == KFNeg {
		return x.Args[0]
	}
	return b.intern(KFNeg, x.Width, 0, x)
}

// FCmp returns the float comparison k (KFEq, KFLt or KFLe) of x and y,
// which must have one float width. As in Go, every comparison with a NaN
// is false, and +0 equals -0; x != y is the negation of KFEq, and x > y is
// KFLt with the operands swapped. (KEq on the same terms compares bits.)
func (b *Builder) FCmp(k Kind, x, y *Expr) *Expr {
	if !k.IsFloatCompare() {
		panic("sym: FCmp with kind " + k.String())
	}
	mustFloat(x)
	mustFloat(y)
	if x.Width != y.Width {
		panic(fmt.Sprintf("sym: %s on widths %d and %d", k, x.Width, y.Width))
	}
	if x.Kind == KConst && y.Kind == KConst {
		return b.Bool(evalFloatCmp(k, x.Val, y.Val, x.Width))
	}
	return b.intern(k, 0, 0, x, y)
}

// FToInt returns Go's conversion of the float x to an integer of width w,
// signed or unsigned: KFToS or KFToU. The value is truncated toward zero;
// NaNs and values out of range give what amd64 code gives (floatToInt).
func (b *Builder) FToInt(x *Expr, w uint8, signed bool) *Expr {
	mustFloat(x)
	mustWidth(w)
	k := KFToU
	if signed {
		k = KFToS
	}
	if x.Kind == KConst {
		return b.Const(floatToInt(x.Val, x.Width, w, signed), w)
	}
	return b.intern(k, w, 0, x)
}

// IntToF returns Go's conversion of the integer x, signed or unsigned, to
// a float of width w (32 or 64): KSToF or KUToF, rounded to nearest even.
func (b *Builder) IntToF(x *Expr, w uint8, signed bool) *Expr {
	mustBV(x)
	mustFloatWidth(w)
	k := KUToF
	if signed {
		k = KSToF
	}
	if x.Kind == KConst {
		return b.Const(intToFloat(x.Val, x.Width, w, signed), w)
	}
	return b.intern(k, w, 0, x)
}

// FConv returns Go's conversion of the float x to the float type of width
// w: float64 to float32 rounds to nearest even, float32 to float64 is
// exact. A conversion to the same width is x itself.
func (b *Builder) FConv(x *Expr, w uint8) *Expr {
	mustFloat(x)
	mustFloatWidth(w)
	if x.Width == w {
		return x
	}
	if x.Kind == KConst {
		return b.Const(floatConv(x.Val, x.Width, w), w)
	}
	return b.intern(KFConv, w, 0, x)
}

// isNaN reports whether the low w bits of x encode a NaN.
func isNaN(x uint64, w uint8) bool {
	if w == 32 {
		return x&(signBit32-1) > inf32
	}
	return x&(signBit64-1) > inf64
}

// FloatValue returns the float with bits x of width w (32 or 64),
// widened exactly to a float64 (a NaN stays a NaN, with whatever payload).
func FloatValue(x uint64, w uint8) float64 {
	if w == 32 {
		return float64(math.Float32frombits(uint32(x)))
	}
	return math.Float64frombits(x)
}

// FloatBits returns the IEEE-754 bits of f as a float of width w (32 or
// 64), rounding to float32 for 32.
func FloatBits(f float64, w uint8) uint64 {
	if w == 32 {
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(f)
}

// evalFloatBin computes a float operation on the floats with bits x and y.
func evalFloatBin(k Kind, x, y uint64, w uint8) uint64 {
	x, y = x&Mask(w), y&Mask(w)
	quiet, indefinite := uint64(quietBit64), uint64(indefiniteNaN64)
	if w == 32 {
		quiet, indefinite = quietBit32, indefiniteNaN32
	}
	switch {
	case isNaN(x, w):
		return x | quiet
	case isNaN(y, w):
		return y | quiet
	}
	var r uint64
	if w == 32 {
		a, c := math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y))
		var f float32
		switch k {
		case KFAdd:
			f = a + c
		case KFSub:
			f = a - c
		case KFMul:
			f = a * c
		case KFDiv:
			f = a / c
		default:
			panic("sym: evalFloatBin of " + k.String())
		}
		r = uint64(math.Float32bits(f))
	} else {
		a, c := math.Float64frombits(x), math.Float64frombits(y)
		var f float64
		switch k {
		case KFAdd:
			f = a + c
		case KFSub:
			f = a - c
		case KFMul:
			f = a * c
		case KFDiv:
			f = a / c
		default:
			panic("sym: evalFloatBin of " + k.String())
		}
		r = math.Float64bits(f)
	}
	if isNaN(r, w) {
		// From numbers: the machine's NaN, not the host's.
		return indefinite
	}
	return r
}

// evalFloatNeg flips the sign bit of a float of width w.
func evalFloatNeg(x uint64, w uint8) uint64 {
	return (x ^ 1<<(w-1)) & Mask(w)
}

// evalFloatCmp compares the floats with bits x and y as Go does.
func evalFloatCmp(k Kind, x, y uint64, w uint8) bool {
	a, c := FloatValue(x&Mask(w), w), FloatValue(y&Mask(w), w)
	switch k {
	case KFEq:
		return a == c
	case KFLt:
		return a < c
	case KFLe:
		return a <= c
	}
	panic("sym: evalFloatCmp of " + k.String())
}

// truncate is the x86 conversion with truncation (CVTTSD2SI, CVTTSS2SI)
// to an n-bit destination, n = 32 or 64: f rounded toward zero if that
// fits in n bits as a signed number, else the "integer indefinite" value
// 1<<(n-1), which is also the result for NaN and the infinities.
func truncate(f float64, n uint8) uint64 {
	t := math.Trunc(f)
	lim := math.Ldexp(1, int(n)-1)
	if !(t >= -lim && t < lim) { // false for NaN too
		return 1 << (n - 1)
	}
	return uint64(int64(t)) & Mask(n)
}

// FloatToIntBound returns, as bits, the least float of width fw (32 or
// 64) that the truncating conversion to an n-bit signed destination
// (n = 8, 16, 32 or 64) takes without overflow: the floats from it up to
// 2^(n-1), excluded, are in range, and every other float is not. It is
// -2^(n-1) when the format has no number strictly between -2^(n-1)-1 and
// -2^(n-1), else the least such number, whose truncation is -2^(n-1).
// (The solver uses it to reproduce truncate's range check.)
func FloatToIntBound(fw, n uint8) uint64 {
	mustFloatWidth(fw)
	mustWidth(n)
	lim := math.Ldexp(1, int(n)-1)
	if fw == 32 {
		if n-1 < 24 { // -2^(n-1)-1 is a float32, and so is the next one up
			return uint64(math.Float32bits(math.Nextafter32(float32(-lim-1), 0)))
		}
		return uint64(math.Float32bits(float32(-lim)))
	}
	if n-1 < 53 {
		return math.Float64bits(math.Nextafter(-lim-1, 0))
	}
	return math.Float64bits(-lim)
}

// floatToInt is Go's conversion, compiled for amd64, of the float with bits
// x and width from to the integer type of width to and the given
// signedness. The compiler emits:
//
//	int64          truncate to 64 bits
//	int32          truncate to 32 bits
//	int8, int16    truncate to 32 bits, keep the low bits
//	uint8, uint16  truncate to 32 bits, keep the low bits
//	uint32         truncate to 64 bits, keep the low 32 bits
//	uint64         x < 2^63 ? truncate to 64 bits : truncate(x - 2^63) | 1<<63
//
// So int32(NaN) is -2^31, int64(+Inf) is -2^63, uint32(-1.0) is 2^32-1,
// int8(300.0) is 44, uint64(NaN) and uint64(2^64) are 2^63, and int8 and
// uint16 of anything at least 2^31 in magnitude are 0. (x - 2^63 is exact
// for every x that takes that branch.)
func floatToInt(x uint64, from, to uint8, signed bool) uint64 {
	f := FloatValue(x&Mask(from), from)
	switch {
	case to == 64 && signed:
		return truncate(f, 64)
	case to == 64:
		if f < 1<<63 {
			return truncate(f, 64)
		}
		return truncate(f-(1<<63), 64) | 1<<63
	case to == 32 && !signed:
		return truncate(f, 64) & Mask(32)
	}
	return truncate(f, 32) & Mask(to)
}

// intToFloat is Go's conversion of the integer with bits x, of width from
// and the given signedness, to the float type of width to. Go converts
// with one rounding to nearest even on every platform (measured on amd64
// against exact arithmetic, uint64 to float32 included).
func intToFloat(x uint64, from, to uint8, signed bool) uint64 {
	x &= Mask(from)
	switch {
	case signed && to == 32:
		return uint64(math.Float32bits(float32(SignExtend(x, from))))
	case signed:
		return math.Float64bits(float64(SignExtend(x, from)))
	case to == 32:
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(float64(x))
}

// floatConv is Go's conversion of the float with bits x from width from to
// width to.
func floatConv(x uint64, from, to uint8) uint64 {
	x &= Mask(from)
	switch {
	case from == to:
		return x
	case from == 32:
		if isNaN(x, 32) {
			// CVTSS2SD: the payload moves to the top of the wider
			// field, and the NaN becomes quiet.
			return (x&signBit32)<<32 | inf64 | quietBit64 | (x&(quietBit32*2-1))<<29
		}
		return math.Float64bits(float64(math.Float32frombits(uint32(x))))
	}
	if isNaN(x, 64) {
		// CVTSD2SS: the top of the payload, quiet.
		return (x>>32)&signBit32 | inf32 | quietBit32 | (x>>29)&(quietBit32-1)
	}
	return uint64(math.Float32bits(float32(math.Float64frombits(x))))
}
