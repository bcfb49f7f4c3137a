// This file holds the Mann-Whitney U test (Wilcoxon rank-sum test) the
// harness uses to compare the coverage of two configurations.
//
// Which p-value: when both samples have at most exactMax values and the
// pooled sample has no ties, the exact two-sided p-value, from the null
// distribution of U counted over all C(n1+n2, n1) ways to split the ranks;
// otherwise the normal approximation with the tie correction of the
// variance and a continuity correction of 1/2. This is what SciPy's
// mannwhitneyu does with its default use_continuity=True, except that
// SciPy's method="auto" switches to the exact distribution only below 8
// values per sample, so for 8 to 10 values without ties the two differ
// (here: exact). Coverage samples are full of ties (seven runs at 100%),
// so in the benchmark most p-values are the approximation.

package main

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/gocolic/gocolic/bench/internal/harness"
)

// exactMax is the largest sample size for which the exact distribution of
// U is used (both samples, and only without ties).
const exactMax = 10

// mwResult is the outcome of a Mann-Whitney U test of x against y.
type mwResult struct {
	// U is the statistic of x: the number of pairs (x[i], y[j]) with
	// x[i] > y[j], ties counting one half. The statistic of y is
	// len(x)*len(y) - U.
	U float64
	// P is the two-sided p-value of the hypothesis that x and y come
	// from the same distribution.
	P float64
	// Exact tells whether P comes from the exact distribution (small
	// samples, no ties) rather than the normal approximation.
	Exact bool
}

// mannWhitney tests whether the samples x and y come from the same
// distribution, two-sided. Both samples must be non-empty and free of NaN.
func mannWhitney(x, y []float64) (mwResult, error) {
	n1, n2 := len(x), len(y)
	if n1 == 0 || n2 == 0 {
		return mwResult{}, fmt.Errorf("mann-whitney: empty sample (%d and %d values)", n1, n2)
	}
	for _, v := range append(append([]float64(nil), x...), y...) {
		if math.IsNaN(v) {
			return mwResult{}, errors.New("mann-whitney: NaN in a sample")
		}
	}
	// Rank the pooled sample, tied values getting the mean of their ranks.
	type obs struct {
		v     float64
		fromX bool
	}
	pooled := make([]obs, 0, n1+n2)
	for _, v := range x {
		pooled = append(pooled, obs{v, true})
	}
	for _, v := range y {
		pooled = append(pooled, obs{v, false})
	}
	sort.SliceStable(pooled, func(a, b int) bool { return pooled[a].v < pooled[b].v })
	n := n1 + n2
	var rankSumX, tieTerm float64
	ties := false
	for i := 0; i < n; {
		j := i
		for j < n && pooled[j].v == pooled[i].v {
			j++
		}
		// Positions i..j-1 hold ranks i+1..j; their mean is (i+1+j)/2.
		rank := float64(i+1+j) / 2
		for k := i; k < j; k++ {
			if pooled[k].fromX {
				rankSumX += rank
			}
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieTerm += t*t*t - t
		}
		i = j
	}
	u := rankSumX - float64(n1*(n1+1))/2
	if !ties && n1 <= exactMax && n2 <= exactMax {
		return mwResult{U: u, P: exactP(n1, n2, int(math.Round(u))), Exact: true}, nil
	}
	mean := float64(n1*n2) / 2
	variance := float64(n1*n2) / 12 * (float64(n+1) - tieTerm/float64(n*(n-1)))
	if variance <= 0 {
		// Every value is the same: nothing tells the samples apart.
		return mwResult{U: u, P: 1}, nil
	}
	z := (math.Abs(u-mean) - 0.5) / math.Sqrt(variance)
	if z < 0 {
		z = 0
	}
	// Two-sided: 2·(1 - Φ(z)) = erfc(z/√2).
	return mwResult{U: u, P: math.Min(1, math.Erfc(z/math.Sqrt2))}, nil
}

// exactP is the exact two-sided p-value of the statistic u for samples of
// n1 and n2 values without ties: twice the smaller tail probability of u,
// at most 1.
func exactP(n1, n2, u int) float64 { return harness.TwoSidedP(uCounts(n1, n2), u) }

// uCounts returns, for u = 0 … n1·n2, the number of ways to split the
// ranks 1 … n1+n2 into n1 for the first sample and n2 for the second such
// that the first sample's statistic is u. Under the null hypothesis every
// split is equally likely, so counts[u] / C(n1+n2, n1) is P(U = u).
//
// It uses the recurrence on the largest rank: it belongs to the first
// sample, where it exceeds all n2 values of the second (f(i-1, j, u-j)),
// or to the second, where it exceeds nothing (f(i, j-1, u)).
func uCounts(n1, n2 int) []float64 {
	// f[i][j] is the distribution for samples of i and j values.
	f := make([][][]float64, n1+1)
	for i := range f {
		f[i] = make([][]float64, n2+1)
		for j := range f[i] {
			d := make([]float64, i*j+1)
			switch {
			case i == 0 || j == 0:
				d[0] = 1
			default:
				for u := range d {
					if u >= j && u-j < len(f[i-1][j]) {
						d[u] += f[i-1][j][u-j]
					}
					if u < len(f[i][j-1]) {
						d[u] += f[i][j-1][u]
					}
				}
			}
			f[i][j] = d
		}
	}
	return f[n1][n2]
}
