package hash

import "testing"

// FuzzHash is a native fuzz target of Collide, from zero values, so that
// bench/compare runs go test -fuzz and gocolic fuzz on this program too.
func FuzzHash(f *testing.F) {
	f.Add(int32(0), int32(0), int32(0), int32(0))
	f.Fuzz(func(t *testing.T, a int32, b int32, c int32, d int32) {
		Collide(a, b, c, d)
	})
}
