// Package opti is a target of the concolic-walk benchmark (bench/walk) for
// the constraint class "exponentials, logarithms and square roots":
// conditions on math.Exp, math.Log and math.Sqrt of expressions of the
// inputs, some of them narrow bands around an optimum (the Rosenbrock
// valley, a Gaussian peak) that a search must approach step by step.
package opti

import "math"

// Optimize tests conditions on exponentials, logarithms and square roots
// of x and y and returns a bit mask with one bit set per condition that
// held, or -1 if an input is NaN.
func Optimize(x, y float64) int {
	if math.IsNaN(x) || math.IsNaN(y) {
		return -1
	}
	mask := 0
	// e^x in a narrow band: x in (ln 1e6, 14), about (13.8155, 14).
	if math.Exp(x) > 1e6 && x < 14 {
		mask |= 1 << 0
	}
	// On the circle of radius 5, within a tolerance, in the first quadrant.
	if math.Abs(math.Sqrt(x*x+y*y)-5) < 1e-6 && x > 0 && y > 0 {
		mask |= 1 << 1
	}
	// The logarithm in a narrow band: y in (e^2, e^2.001).
	if math.Log(y) > 2 && math.Log(y) < 2.001 {
		mask |= 1 << 2
	}
	// The top of a Gaussian bump, but not its centre.
	if math.Exp(-x*x) > 0.999 && x != 0 {
		mask |= 1 << 3
	}
	// Close to the minimum of the Rosenbrock function, at (1, 1).
	r := (1-x)*(1-x) + 100*(y-x*x)*(y-x*x)
	if math.Sqrt(r) < 0.01 {
		mask |= 1 << 4
	}
	// Exact square roots: x = 4 and y = 9.
	if math.Sqrt(x)+math.Sqrt(y) == 5 && x == 4 {
		mask |= 1 << 5
	}
	// A soft maximum above 10 with both inputs below 9.5.
	if math.Log(math.Exp(x)+math.Exp(y)) > 10 && x < 9.5 && y < 9.5 {
		mask |= 1 << 6
	}
	return mask
}
