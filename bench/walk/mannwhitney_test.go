package main

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func seq(from, to float64) []float64 {
	var out []float64
	for v := from; v <= to; v++ {
		out = append(out, v)
	}
	return out
}

func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func TestMannWhitney(t *testing.T) {
	tests := []struct {
		name  string
		x, y  []float64
		u     float64
		p     float64
		exact bool
	}{
		// Fully separated 7 and 7: U = 0 has one split out of C(14,7) =
		// 3432, two-sided 2/3432.
		{name: "separated 7/7", x: seq(1, 7), y: seq(8, 14), u: 0, p: 2.0 / 3432, exact: true},
		{name: "separated 7/7, swapped", x: seq(8, 14), y: seq(1, 7), u: 49, p: 2.0 / 3432, exact: true},
		// 2 and 2: the distribution of U over the 6 splits is 1,1,2,1,1.
		{name: "2/2, U=0", x: []float64{1, 2}, y: []float64{3, 4}, u: 0, p: 2.0 / 6, exact: true},
		{name: "2/2, U=1", x: []float64{1, 3}, y: []float64{2, 4}, u: 1, p: 4.0 / 6, exact: true},
		{name: "2/2, U=2 (the mean)", x: []float64{1, 4}, y: []float64{2, 3}, u: 2, p: 1, exact: true},
		// 5 and 5 (252 splits; 1, 1, 2, 3 splits for U = 0 … 3): the
		// textbook critical value for a two-sided 0.05 is U = 2.
		{name: "5/5, U=2 significant", x: []float64{1, 2, 3, 4, 7}, y: []float64{5, 6, 8, 9, 10}, u: 2, p: 8.0 / 252, exact: true},
		{name: "5/5, U=3 not significant", x: []float64{1, 2, 3, 5, 7}, y: []float64{4, 6, 8, 9, 10}, u: 3, p: 14.0 / 252, exact: true},
		// Unequal sizes, 1 and 3: four splits, one per U.
		{name: "1/3", x: []float64{0}, y: []float64{1, 2, 3}, u: 0, p: 0.5, exact: true},
		// Identical samples: all ties, no evidence of a difference.
		{name: "identical constant", x: repeat(5, 3), y: repeat(5, 3), u: 4.5, p: 1},
		{name: "identical spread", x: []float64{1, 2, 3}, y: []float64{1, 2, 3}, u: 4.5, p: 1},
		// Ties: pooled 1 2 2 2 3 3 3 4, midranks 1, 3, 6, 8; R1 = 1+3+3+6 =
		// 13, U = 13 - 10 = 3; mean 8; σ² = 16/12·(9 - 48/56) = 10.857143;
		// z = (5 - 0.5)/3.295018 = 1.365697; p = erfc(z/√2) = 0.172034.
		{name: "ties", x: []float64{1, 2, 2, 3}, y: []float64{2, 3, 3, 4}, u: 3, p: 0.17203370892182296},
		// Coverage-like: seven runs at 100% against seven at 50%. U = 49,
		// mean 24.5, σ² = 49/12·(15 - 672/182) = 46.173077,
		// z = 24/6.795 = 3.531961, p = 4.1248e-4.
		{name: "tied groups", x: repeat(100, 7), y: repeat(50, 7), u: 49, p: 0.00041247833638552174},
		// Too large for the exact distribution: 11 and 11 separated, no
		// ties. mean 60.5, σ² = 121·23/12 = 231.916667,
		// z = 60/15.228811 = 3.939901, p = 8.1515e-5.
		{name: "separated 11/11", x: seq(1, 11), y: seq(12, 22), u: 0, p: 8.151536127743262e-05},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mannWhitney(tt.x, tt.y)
			if err != nil {
				t.Fatal(err)
			}
			if got.U != tt.u || math.Abs(got.P-tt.p) > 1e-12 || got.Exact != tt.exact {
				t.Errorf("mannWhitney(%v, %v) = %+v, want U %v, p %v, exact %v", tt.x, tt.y, got, tt.u, tt.p, tt.exact)
			}
			// The test is symmetric.
			back, err := mannWhitney(tt.y, tt.x)
			if err != nil {
				t.Fatal(err)
			}
			if n := float64(len(tt.x) * len(tt.y)); back.U != n-tt.u || math.Abs(back.P-got.P) > 1e-12 {
				t.Errorf("swapped: %+v, want U %v and the same p %v", back, n-tt.u, got.P)
			}
		})
	}
}

func TestMannWhitneyErrors(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want string
	}{
		{"empty x", nil, []float64{1}, "empty sample"},
		{"empty y", []float64{1}, nil, "empty sample"},
		{"NaN", []float64{1, math.NaN()}, []float64{2}, "NaN"},
	}
	for _, tt := range tests {
		if _, err := mannWhitney(tt.x, tt.y); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func TestUCounts(t *testing.T) {
	tests := []struct {
		n1, n2 int
		want   []float64
	}{
		{1, 1, []float64{1, 1}},
		{2, 1, []float64{1, 1, 1}},
		{2, 2, []float64{1, 1, 2, 1, 1}},
		// Partitions of u into at most 3 parts of at most 3.
		{3, 3, []float64{1, 1, 2, 3, 3, 3, 3, 2, 1, 1}},
		{0, 4, []float64{1}},
	}
	for _, tt := range tests {
		if got := uCounts(tt.n1, tt.n2); !slices.Equal(got, tt.want) {
			t.Errorf("uCounts(%d, %d) = %v, want %v", tt.n1, tt.n2, got, tt.want)
		}
	}
	// Every split is counted once: the counts add up to C(n1+n2, n1).
	for _, tt := range []struct {
		n1, n2 int
		total  float64
	}{{7, 7, 3432}, {10, 10, 184756}, {4, 9, 715}} {
		var sum float64
		for _, c := range uCounts(tt.n1, tt.n2) {
			sum += c
		}
		if sum != tt.total {
			t.Errorf("uCounts(%d, %d) adds up to %v, want %v", tt.n1, tt.n2, sum, tt.total)
		}
	}
}
