package power

import "testing"

// FuzzPower is a native fuzz target of Power, from zero values, so that
// bench/compare runs go test -fuzz and gocolic fuzz on this program too.
func FuzzPower(f *testing.F) {
	f.Add(0.0, 0.0)
	f.Fuzz(func(t *testing.T, x float64, y float64) {
		Power(x, y)
	})
}
