package main

import (
	"math"
	"slices"
)

// median returns the median of xs: the middle value, or the mean of the
// two middle values of an even number of values. It is NaN for no values.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// variance returns the sample variance of xs, with the n-1 denominator.
// It is NaN for fewer than two values.
func variance(xs []float64) float64 {
	if len(xs) < 2 {
		return math.NaN()
	}
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return ss / float64(len(xs)-1)
}

// weightedMean returns Σ w[i]·v[i] / Σ w[i] over the i where v[i] is not
// NaN (and w[i] > 0), so a program without a value leaves the average of
// the others; NaN if there is none.
func weightedMean(v, w []float64) float64 {
	var sum, weights float64
	for i := range v {
		if math.IsNaN(v[i]) || i >= len(w) || w[i] <= 0 {
			continue
		}
		sum += w[i] * v[i]
		weights += w[i]
	}
	if weights == 0 {
		return math.NaN()
	}
	return sum / weights
}
