package harness

import (
	"math"
	"strings"
	"testing"
)

func TestSignedRank(t *testing.T) {
	// seq returns 1 … n, the first neg of them negated.
	seq := func(n, neg int) []float64 {
		var out []float64
		for i := 1; i <= n; i++ {
			v := float64(i)
			if i <= neg {
				v = -v
			}
			out = append(out, v)
		}
		return out
	}
	zeros := func(n int) []float64 { return make([]float64, n) }
	tests := []struct {
		name  string
		x, y  []float64
		n     int
		wPlus float64
		p     float64
		exact bool
	}{
		{
			// Hollander and Wolfe's depression scores (R's
			// wilcox.test(x, y, paired = TRUE): V = 40, p = 0.03906).
			name:  "Hollander-Wolfe, exact",
			x:     []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30},
			y:     []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29},
			n:     9,
			wPlus: 40,
			p:     10.0 / 256, // 2 · 5/512
			exact: true,
		},
		{
			name: "all five positive, exact", x: seq(5, 0), y: zeros(5),
			n: 5, wPlus: 15, p: 2.0 / 32, exact: true,
		},
		{
			// Sums of subsets of {1,2,3,4} at most 4: 7 of 16.
			name: "nearly balanced, exact", x: []float64{1, -2, 3, -4}, y: zeros(4),
			n: 4, wPlus: 4, p: 14.0 / 16, exact: true,
		},
		{
			// Zero differences are dropped: one pair left.
			name: "zeros dropped", x: []float64{5, 3, 3}, y: []float64{4, 3, 3},
			n: 1, wPlus: 1, p: 1, exact: true,
		},
		{
			name: "no differences", x: []float64{2, 2}, y: []float64{2, 2},
			n: 0, wPlus: 0, p: 1,
		},
		{
			// Ties: |d| = 1,1,2,3,3,4 get ranks 1.5,1.5,3,4.5,4.5,6;
			// W+ = 19.5, mean 10.5, variance 22.75 - 12/48 = 22.5,
			// z = (9 - 0.5)/√22.5.
			name: "ties, normal approximation", x: []float64{1, -1, 2, 3, 3, 4}, y: zeros(6),
			n: 6, wPlus: 19.5, p: 0.07313979965890892,
		},
		{
			// 30 pairs: past the exact limit. W+ = 9+…+30 = 429, mean
			// 232.5, variance 2363.75.
			name: "large sample, normal approximation", x: seq(30, 8), y: zeros(30),
			n: 30, wPlus: 429, p: 5.544688150746629e-05,
		},
	}
	for _, tt := range tests {
		got, err := SignedRank(tt.x, tt.y)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got.N != tt.n || got.WPlus != tt.wPlus || got.Exact != tt.exact || math.Abs(got.P-tt.p) > 1e-9 {
			t.Errorf("%s: SignedRank = %+v, want N %d, W+ %v, P %.10g, exact %v", tt.name, got, tt.n, tt.wPlus, tt.p, tt.exact)
		}
	}
}

// TestSignedRankSymmetric checks that swapping the samples keeps the
// p-value and mirrors W+.
func TestSignedRankSymmetric(t *testing.T) {
	x := []float64{71, 80, 64, 90, 55, 62, 77, 70}
	y := []float64{68, 82, 60, 81, 55, 58, 70, 79}
	a, err := SignedRank(x, y)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SignedRank(y, x)
	if err != nil {
		t.Fatal(err)
	}
	total := float64(a.N*(a.N+1)) / 2
	if a.P != b.P || a.WPlus != total-b.WPlus {
		t.Errorf("SignedRank(x, y) = %+v, SignedRank(y, x) = %+v: want equal P and W+ summing to %v", a, b, total)
	}
}

func TestSignedRankErrors(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want string
	}{
		{"unpaired", []float64{1, 2}, []float64{1}, "want pairs"},
		{"empty", nil, nil, "no pairs"},
		{"NaN", []float64{math.NaN()}, []float64{1}, "NaN"},
	}
	for _, tt := range tests {
		if _, err := SignedRank(tt.x, tt.y); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func TestSignedRankCounts(t *testing.T) {
	// n = 3: subsets of {1,2,3} by sum: 0:{} 1:{1} 2:{2} 3:{3},{1,2}
	// 4:{1,3} 5:{2,3} 6:{1,2,3}.
	want := []float64{1, 1, 1, 2, 1, 1, 1}
	got := signedRankCounts(3)
	if len(got) != len(want) {
		t.Fatalf("signedRankCounts(3) = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("signedRankCounts(3) = %v, want %v", got, want)
		}
	}
}
