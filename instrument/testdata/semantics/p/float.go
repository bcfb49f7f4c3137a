package p

import "math"

// FloatArith exercises float64 arithmetic, comparisons and the bits of a
// negated result (NaN included).
func FloatArith(a, b int64) (float64, float64, float64, float64, bool, bool, bool, uint64) {
	x := float64(a) / 3
	y := float64(b) * 0.5
	s := x + y
	d := x - y
	p := x * y
	q := x / y
	return s, d, p, q, x < y, x == y, q != q, math.Float64bits(-q)
}

// Float32Ops exercises float32 arithmetic and conversions to and from it.
func Float32Ops(a, b int64) (float32, float32, int32, uint8, int64, float64) {
	x := float32(a) * 1.5
	y := float32(b) - 0.25
	z := x / y
	return x + y, -z, int32(z), uint8(x), int64(float64(z) * 1e10), float64(z)
}

// FloatBranches branches on NaN, infinities, negative zero, ranges and an
// out-of-range conversion.
func FloatBranches(a, b int64) int {
	x := float64(a) / float64(b)
	switch {
	case x != x:
		return 1
	case x > 1e300:
		return 2
	case x < -1e300:
		return 3
	case x == 0 && 1/x < 0:
		return 4
	case x >= 0.5 && x <= 0.75:
		return 5
	}
	n := int16(x)
	if n < 0 {
		return 6
	}
	x++
	x -= 0.25
	if float32(x) > 10 {
		return 7
	}
	return 8
}

// FloatConvEdge converts large and negative floats to every integer kind.
func FloatConvEdge(a int64) (int64, uint64, int32, uint32, int8, uint16) {
	f := float64(a) * 1e10
	return int64(f), uint64(f), int32(f), uint32(f), int8(f), uint16(f)
}

// FloatFromUnsigned converts unsigned integers, large ones included.
func FloatFromUnsigned(a, b int64) (float64, float32, float64) {
	u := uint64(a)
	v := uint32(b)
	return float64(u), float32(u), float64(v) + float64(u)
}
