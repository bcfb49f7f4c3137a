package sine

import "testing"

// FuzzSine is a native fuzz target of Sine, from zero values, so that
// bench/compare runs go test -fuzz and gocolic fuzz on this program too.
func FuzzSine(f *testing.F) {
	f.Add(0.0)
	f.Fuzz(func(t *testing.T, u float64) {
		Sine(u)
	})
}
