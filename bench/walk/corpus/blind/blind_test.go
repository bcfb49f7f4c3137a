package blind

import "testing"

// FuzzBlind is a native fuzz target of Solve, from zero values, so that
// bench/compare runs go test -fuzz and gocolic fuzz on this program too.
func FuzzBlind(f *testing.F) {
	f.Add(0, 0, 0, 0)
	f.Fuzz(func(t *testing.T, x int, y int, a int, b int) {
		Solve(x, y, a, b)
	})
}
