// Package sine is a target of the concolic-walk benchmark (bench/walk) for
// the constraint class "float-to-bit-vector conversions": conditions on
// the IEEE-754 bits of a float64 (the second example of Figure 1 of Dinges
// and Agha, FSE 2014: v := math.Float64bits(u), a mask of v compared with
// a constant), and a hand-written sine that branches on the exponent bits
// of its argument before it evaluates a polynomial.
package sine

import "math"

// sine approximates sin(x): tiny arguments are returned as they are,
// large ones reduced modulo 2pi, and the rest folded into [-pi/2, pi/2]
// and evaluated by a Taylor polynomial of degree 13.
func sine(x float64) float64 {
	bits := math.Float64bits(x)
	exp := int(bits>>52) & 0x7ff
	switch {
	case exp == 0x7ff: // infinity or NaN
		return math.NaN()
	case exp < 0x3ff-27: // |x| < 2^-27: sin(x) rounds to x
		return x
	}
	r := x
	if exp >= 0x3ff+2 { // |x| >= 4
		r = math.Remainder(x, 2*math.Pi)
	}
	if r > math.Pi/2 {
		r = math.Pi - r
	} else if r < -math.Pi/2 {
		r = -math.Pi - r
	}
	r2 := r * r
	return r * (1 - r2/6*(1-r2/20*(1-r2/42*(1-r2/72*(1-r2/110*(1-r2/156))))))
}

// Sine tests conditions on the bits of u and on the hand-written sine of
// u and returns a bit mask with one bit set per condition that held.
func Sine(u float64) int {
	mask := 0
	v := math.Float64bits(u)
	// The exponent field alone: |u| in [4, 8).
	w := v & 0x7ff0000000000000
	if w == 0x4010000000000000 {
		mask |= 1 << 0
	}
	// A negative u whose mantissa is exactly one half: -1.5·2^e.
	if v&0x000fffffffffffff == 0x0008000000000000 && v>>63 == 1 {
		mask |= 1 << 1
	}
	// A positive subnormal.
	if v>>52 == 0 && v != 0 {
		mask |= 1 << 2
	}
	s := sine(u)
	if math.IsNaN(s) {
		mask |= 1 << 3
	}
	// sin(u) = 1/2 within a tolerance beyond pi/2: u near 5pi/6.
	if math.Abs(s-0.5) < 1e-9 && u > 2 {
		mask |= 1 << 4
	}
	// Near the minimum of the sine in (0, 10): u near 3pi/2.
	if s < -0.999999 && u > 0 && u < 10 {
		mask |= 1 << 5
	}
	// The sine equal to its argument: only tiny arguments.
	if s == u && u != 0 {
		mask |= 1 << 6
	}
	return mask
}
