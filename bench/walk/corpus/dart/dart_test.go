package dart

import "testing"

// FuzzDart is a native fuzz target of Check, from zero values, so that
// bench/compare runs go test -fuzz and gocolic fuzz on this program too.
func FuzzDart(f *testing.F) {
	f.Add(int32(0), int32(0))
	f.Fuzz(func(t *testing.T, x int32, y int32) {
		Check(x, y)
	})
}
