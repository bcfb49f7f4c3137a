// Package power is a target of the concolic-walk benchmark (bench/walk) for
// the constraint class "powers with unknown bases and exponents":
// conditions on math.Pow of the inputs, some exact (2^10 = 1024,
// 2^4 = 4^2) and some within a tolerance (the cube root of 2).
package power

import "math"

// Power tests conditions on powers of x and y and returns a bit mask with
// one bit set per condition that held, or -1 if an input is NaN.
func Power(x, y float64) int {
	if math.IsNaN(x) || math.IsNaN(y) {
		return -1
	}
	mask := 0
	// An exact power with base below exponent: 2^10 (or 4^5).
	if math.Pow(x, y) == 1024 && x > 1 && y > 1 && x < y {
		mask |= 1 << 0
	}
	// The cube root of 2, within a tolerance.
	if math.Abs(math.Pow(x, 3)-2) < 1e-6 {
		mask |= 1 << 1
	}
	// A square root written as a power: x = 49.
	if math.Pow(x, 0.5) == 7 {
		mask |= 1 << 2
	}
	// An exponential in a narrow band: x in (log2 1e9, 30).
	if math.Pow(2, x) > 1e9 && x < 30 {
		mask |= 1 << 3
	}
	// An odd power of a negative base.
	if math.Pow(x, y) < -100 && y == 3 {
		mask |= 1 << 4
	}
	// x^y + y^x large although both are below 5.
	if math.Pow(x, y)+math.Pow(y, x) > 1000 && x < 5 && y < 5 {
		mask |= 1 << 5
	}
	// x^y = y^x with x != y, within a tolerance: 2 and 4 is a solution.
	if math.Abs(math.Pow(x, y)-math.Pow(y, x)) < 1e-9 && x != y && x > 0 && y > 0 {
		mask |= 1 << 6
	}
	return mask
}
