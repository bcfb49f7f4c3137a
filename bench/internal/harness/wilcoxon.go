// This file holds the Wilcoxon signed-rank test, which compares two
// configurations measured on the same seeds (paired samples).
//
// Which p-value: pairs with a zero difference are dropped (Wilcoxon's
// method); when at most ExactSignedRankMax pairs remain and their absolute
// differences have no ties, the exact two-sided p-value from the null
// distribution of W+ (each of the 2^n sign patterns equally likely);
// otherwise the normal approximation with the tie correction of the
// variance and a continuity correction of 1/2. SciPy's wilcoxon with
// zero_method="wilcox" and correction=True computes the same numbers
// (its exact method applies below 50 pairs, here below 26).

package harness

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// ExactSignedRankMax is the largest number of non-zero differences for
// which SignedRank uses the exact distribution (when they have no ties).
const ExactSignedRankMax = 25

// SignedRankResult is the outcome of a Wilcoxon signed-rank test.
type SignedRankResult struct {
	// N is the number of pairs with a non-zero difference, the pairs the
	// test ranks.
	N int
	// WPlus is the sum of the ranks of the positive differences x[i]-y[i]
	// (tied absolute differences share the mean of their ranks);
	// WMinus = N(N+1)/2 - WPlus.
	WPlus float64
	// P is the two-sided p-value of the hypothesis that the differences
	// are symmetric about zero; 1 when no difference is non-zero.
	P float64
	// Exact tells whether P comes from the exact distribution.
	Exact bool
}

// SignedRank runs the two-sided Wilcoxon signed-rank test on the pairs
// (x[i], y[i]). The samples must have the same, non-zero length and hold
// no NaN.
func SignedRank(x, y []float64) (SignedRankResult, error) {
	if len(x) != len(y) {
		return SignedRankResult{}, fmt.Errorf("signed-rank: %d and %d values, want pairs", len(x), len(y))
	}
	if len(x) == 0 {
		return SignedRankResult{}, errors.New("signed-rank: no pairs")
	}
	var d []float64
	for i := range x {
		if math.IsNaN(x[i]) || math.IsNaN(y[i]) {
			return SignedRankResult{}, errors.New("signed-rank: NaN in a sample")
		}
		if diff := x[i] - y[i]; diff != 0 {
			d = append(d, diff)
		}
	}
	n := len(d)
	if n == 0 {
		return SignedRankResult{P: 1}, nil
	}
	sort.Slice(d, func(a, b int) bool { return math.Abs(d[a]) < math.Abs(d[b]) })
	var wPlus, tieTerm float64
	ties := false
	for i := 0; i < n; {
		j := i
		for j < n && math.Abs(d[j]) == math.Abs(d[i]) {
			j++
		}
		// Positions i..j-1 hold ranks i+1..j; their mean is (i+1+j)/2.
		rank := float64(i+1+j) / 2
		for k := i; k < j; k++ {
			if d[k] > 0 {
				wPlus += rank
			}
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieTerm += t*t*t - t
		}
		i = j
	}
	r := SignedRankResult{N: n, WPlus: wPlus}
	if !ties && n <= ExactSignedRankMax {
		r.P, r.Exact = exactSignedRankP(n, int(math.Round(wPlus))), true
		return r, nil
	}
	nf := float64(n)
	mean := nf * (nf + 1) / 4
	variance := nf*(nf+1)*(2*nf+1)/24 - tieTerm/48
	z := (math.Abs(wPlus-mean) - 0.5) / math.Sqrt(variance)
	if z < 0 {
		z = 0
	}
	// Two-sided: 2·(1 - Φ(z)) = erfc(z/√2).
	r.P = math.Min(1, math.Erfc(z/math.Sqrt2))
	return r, nil
}

// exactSignedRankP is the exact two-sided p-value of W+ = w for n
// non-zero differences without ties: twice the smaller tail, at most 1.
func exactSignedRankP(n, w int) float64 { return TwoSidedP(signedRankCounts(n), w) }

// TwoSidedP is the exact two-sided p-value of the statistic value s under
// a null distribution given by counts (counts[k] is how many outcomes
// give k): twice the smaller tail probability of s, at most 1.
func TwoSidedP(counts []float64, s int) float64 {
	var total, below, above float64
	for k, c := range counts {
		total += c
		if k <= s {
			below += c
		}
		if k >= s {
			above += c
		}
	}
	return math.Min(1, 2*math.Min(below, above)/total)
}

// signedRankCounts returns, for w = 0 … n(n+1)/2, the number of the 2^n
// sign assignments to the ranks 1 … n whose positive ranks sum to w
// (the subset-sum counts, built one rank at a time).
func signedRankCounts(n int) []float64 {
	max := n * (n + 1) / 2
	c := make([]float64, max+1)
	c[0] = 1
	for r := 1; r <= n; r++ {
		for w := max; w >= r; w-- {
			c[w] += c[w-r]
		}
	}
	return c
}
