package coral

import "testing"

// FuzzCoral is a native fuzz target of Check, from zero values, so that
// bench/compare runs go test -fuzz and gocolic fuzz on this program too.
func FuzzCoral(f *testing.F) {
	f.Add(0.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, x float64, y float64, z float64) {
		Check(x, y, z)
	})
}
