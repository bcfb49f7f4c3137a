package instrument

import (
	"slices"
	"testing"
)

// TestConsts checks that the rewrite reports the package's constants:
// literals, named constants, constant expressions, runes, negative
// numbers, strings and floats, each once.
func TestConsts(t *testing.T) {
	_, res := rewrite(t, `package u

const magic = 0xCAFE

func F(x int, s string, f float64) int {
	if x == magic || x == -7 || x == 3<<4 {
		return 1
	}
	if s == "GET" || s == "GET" || len(s) > 0 && s[0] == 'z' {
		return 2
	}
	if f > 2.5 {
		return 3
	}
	return 0
}
`, "F")
	for _, v := range []uint64{0xCAFE, ^uint64(6), 48, 'z'} {
		if !slices.Contains(res.Consts.Ints, v) {
			t.Errorf("integer %#x missing from %v", v, res.Consts.Ints)
		}
	}
	if !slices.Equal(res.Consts.Strings, []string{"GET"}) {
		t.Errorf("strings %q, want [GET]", res.Consts.Strings)
	}
	if !slices.Contains(res.Consts.Floats, 2.5) {
		t.Errorf("floats %v lack 2.5", res.Consts.Floats)
	}
	if !slices.IsSorted(res.Consts.Ints) {
		t.Errorf("integers not sorted: %v", res.Consts.Ints)
	}
}
