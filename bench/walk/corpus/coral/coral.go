// Package coral is a target of the concolic-walk benchmark (bench/walk) for
// the constraint class "trigonometric and polynomial floating-point
// conditions", in the manner of the benchmark functions of the CORAL
// solver: independent conditions that mix sin, cos, tan, atan2 and pow with
// polynomials of the inputs. A solver that replaces each call by the value
// it had in the last run cannot move the call's result; a search that
// evaluates the real functions can.
package coral

import "math"

// Check tests eight independent conditions on x, y and z and returns a
// bit mask with one bit set per condition that held, or -1 if an input is
// NaN.
func Check(x, y, z float64) int {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsNaN(z) {
		return -1
	}
	mask := 0
	// sin(x) = 1/2 within a tolerance: x near pi/6 or 5pi/6, modulo 2pi.
	if math.Abs(math.Sin(x)-0.5) < 1e-6 {
		mask |= 1 << 0
	}
	// sin(x)·cos(y) close to its maximum, with x and y apart.
	if math.Sin(x)*math.Cos(y) > 0.95 && x-y > 1 {
		mask |= 1 << 1
	}
	// A Pythagorean pair, exactly: x = 3, y = 4 is a solution.
	if math.Pow(x, 2)+math.Pow(y, 2) == 25 && x > 0 && y > x {
		mask |= 1 << 2
	}
	// tan(z) just below its pole at pi/2.
	if math.Tan(z) > 1000 && z > 0 && z < 2 {
		mask |= 1 << 3
	}
	// The angle of (x, y) in the upper half plane, close to pi.
	if math.Atan2(y, x) > 3.1 && y > 0 {
		mask |= 1 << 4
	}
	// cos(x·y) = -1 within a tolerance: x·y near an odd multiple of pi.
	if math.Cos(x*y) < -0.9999 && x > 1 && y > 1 {
		mask |= 1 << 5
	}
	// sin(z) + cos(x) equal to y cubed; y in (1, 2^(1/3)] leaves room.
	if math.Abs(math.Sin(z)+math.Cos(x)-math.Pow(y, 3)) < 1e-4 && y > 1 {
		mask |= 1 << 6
	}
	// A cubic polynomial guarded by two trigonometric conditions.
	if x*x*y-z*z*z > 100 && math.Cos(z) > 0.99 && math.Sin(y) < -0.99 {
		mask |= 1 << 7
	}
	return mask
}
