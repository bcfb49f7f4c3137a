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

// TestConstsLen checks the largest constant compared with a length, in
// a comparison either way round or as a case of a switch on len, and
// that other constants and huge ones do not count.
func TestConstsLen(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		want       int
	}{
		{"none", "if x == 99 { return 1 }", 0},
		{"equal", "if len(s) == 36 { return 1 }", 36},
		{"reversed", "if 12 < len(b) { return 1 }", 12},
		{"switch", "switch len(s) {\ncase 32, 36 + 9:\n\treturn 1\ncase 38:\n\treturn 2\n}", 45},
		{"largest", "if len(s) > 4 || len(b) != 20 { return 1 }", 20},
		{"a buffer size", "if len(b) >= 1<<20 { return 1 }", 0},
		{"not len", "if cap(b) == 50 { return 1 }", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, res := rewrite(t, "package u\n\nfunc F(x int, s string, b []byte) int {\n"+tt.body+"\n\treturn 0\n}\n", "F")
			if res.Consts.Len != tt.want {
				t.Errorf("Len = %d, want %d", res.Consts.Len, tt.want)
			}
		})
	}
}

func TestConstsMerge(t *testing.T) {
	c := Consts{Ints: []uint64{1, 5}, Strings: []string{"b"}, Len: 8}
	c.Merge(Consts{Ints: []uint64{3, 5}, Strings: []string{"a"}, Floats: []float64{0.5}, Len: 4})
	if !slices.Equal(c.Ints, []uint64{1, 3, 5}) || !slices.Equal(c.Strings, []string{"a", "b"}) || !slices.Equal(c.Floats, []float64{0.5}) || c.Len != 8 {
		t.Errorf("merged %+v, want ints [1 3 5], strings [a b], floats [0.5], Len 8", c)
	}
}
