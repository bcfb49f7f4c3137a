package tsafe

import "testing"

// FuzzTsafe is a native fuzz target of Probe, from zero values, so that
// bench/compare runs go test -fuzz and gocolic fuzz on this program too.
func FuzzTsafe(f *testing.F) {
	f.Add(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, x float64, y float64, hOwn float64, vOwn float64, hInt float64, vInt float64, bank float64) {
		Probe(x, y, hOwn, vOwn, hInt, vInt, bank)
	})
}
