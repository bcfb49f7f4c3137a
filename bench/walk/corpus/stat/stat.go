// Package stat is a target of the concolic-walk benchmark (bench/walk) for
// the constraint class "statistics over several floats": the mean and the
// sample standard deviation of five inputs, the latter a square root of a
// sum of squares, with conditions on ranges and ratios of the two.
package stat

import "math"

// finite reports whether f is neither infinite nor NaN.
func finite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// Stats computes the mean and sample standard deviation of a, b, c, d and
// e, tests conditions on them and returns a bit mask with one bit set per
// condition that held, or -1 if the statistics are not finite.
func Stats(a, b, c, d, e float64) int {
	mean := (a + b + c + d + e) / 5
	da, db, dc, dd, de := a-mean, b-mean, c-mean, d-mean, e-mean
	sd := math.Sqrt((da*da + db*db + dc*dc + dd*dd + de*de) / 4)
	if !finite(mean) || !finite(sd) {
		return -1
	}
	mask := 0
	// A tight cluster around a large value.
	if mean > 100 && sd < 1 {
		mask |= 1 << 0
	}
	// A wide spread around zero.
	if sd > 50 && mean > -1 && mean < 1 {
		mask |= 1 << 1
	}
	// Five equal non-zero values, exactly.
	if sd == 0 && mean != 0 {
		mask |= 1 << 2
	}
	// A standard deviation of 2 within a tolerance.
	if math.Abs(sd-2) < 1e-6 {
		mask |= 1 << 3
	}
	// Mean and standard deviation equal within a tolerance, both above 10.
	if math.Abs(mean-sd) < 1e-6 && mean > 10 {
		mask |= 1 << 4
	}
	// A large coefficient of variation with a small spread.
	if mean != 0 && sd/math.Abs(mean) > 10 && sd < 5 {
		mask |= 1 << 5
	}
	// a an outlier: more than 1.5 standard deviations above the mean
	// (with five values, at most 4/sqrt(5), about 1.79, is possible).
	if a > mean+1.5*sd && sd > 1 {
		mask |= 1 << 6
	}
	return mask
}
