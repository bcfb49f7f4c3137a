package opti

import "testing"

// FuzzOpti is a native fuzz target of Optimize, from zero values, so that
// bench/compare runs go test -fuzz and gocolic fuzz on this program too.
func FuzzOpti(f *testing.F) {
	f.Add(0.0, 0.0)
	f.Fuzz(func(t *testing.T, x float64, y float64) {
		Optimize(x, y)
	})
}
