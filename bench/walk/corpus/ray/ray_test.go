package ray

import "testing"

// FuzzRay is a native fuzz target of Trace, from zero values, so that
// bench/compare runs go test -fuzz and gocolic fuzz on this program too.
func FuzzRay(f *testing.F) {
	f.Add(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, ox float64, oy float64, oz float64, dx float64, dy float64, dz float64, r float64) {
		Trace(ox, oy, oz, dx, dy, dz, r)
	})
}
