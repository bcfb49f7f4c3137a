package main

import (
	"math"
	"testing"
)

// same reports whether a and b are equal, or both NaN.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

func TestMedianVariance(t *testing.T) {
	tests := []struct {
		name      string
		xs        []float64
		med, vari float64
	}{
		{"none", nil, math.NaN(), math.NaN()},
		{"one", []float64{4}, 4, math.NaN()},
		{"two", []float64{1, 3}, 2, 2},
		// mean 5, squares 9+1+1+9 = 20 over 3.
		{"even, unsorted", []float64{8, 2, 6, 4}, 5, 20.0 / 3},
		// mean 3, squares 4+1+0+1+4 = 10 over 4.
		{"odd", []float64{5, 1, 3, 2, 4}, 3, 2.5},
		{"constant", []float64{7, 7, 7}, 7, 0},
		// mean 72, squares 144+64+0+16+16+4+36 = 280 over 6.
		{"coverage of seven runs", []float64{60, 80, 72, 76, 68, 70, 78}, 72, 280.0 / 6},
	}
	for _, tt := range tests {
		if got := median(tt.xs); !same(got, tt.med) {
			t.Errorf("%s: median = %v, want %v", tt.name, got, tt.med)
		}
		if got := variance(tt.xs); !same(got, tt.vari) && math.Abs(got-tt.vari) > 1e-12 {
			t.Errorf("%s: variance = %v, want %v", tt.name, got, tt.vari)
		}
	}
	// median does not reorder its argument.
	xs := []float64{3, 1, 2}
	median(xs)
	if xs[0] != 3 || xs[1] != 1 || xs[2] != 2 {
		t.Errorf("median sorted its argument: %v", xs)
	}
}

func TestWeightedMean(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		v, w []float64
		want float64
	}{
		{"none", nil, nil, nan},
		{"equal weights", []float64{1, 3}, []float64{1, 1}, 2},
		// (100·40 + 50·60) / 100.
		{"by LOC", []float64{100, 50}, []float64{40, 60}, 70},
		{"NaN left out", []float64{100, nan, 50}, []float64{40, 1000, 60}, 70},
		{"zero weight left out", []float64{100, 0}, []float64{10, 0}, 100},
		{"all NaN", []float64{nan, nan}, []float64{1, 2}, nan},
	}
	for _, tt := range tests {
		if got := weightedMean(tt.v, tt.w); !same(got, tt.want) {
			t.Errorf("%s: weightedMean(%v, %v) = %v, want %v", tt.name, tt.v, tt.w, got, tt.want)
		}
	}
}
