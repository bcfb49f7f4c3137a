package stat

import "testing"

// FuzzStat is a native fuzz target of Stats, from zero values, so that
// bench/compare runs go test -fuzz and gocolic fuzz on this program too.
func FuzzStat(f *testing.F) {
	f.Add(0.0, 0.0, 0.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, a float64, b float64, c float64, d float64, e float64) {
		Stats(a, b, c, d, e)
	})
}
