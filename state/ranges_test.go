package state

import (
	"reflect"
	"slices"
	"testing"
)

// path writes a direction sequence as T and F letters.
func path(s string) []bool {
	out := make([]bool, len(s))
	for i, c := range s {
		out[i] = c == 'T'
	}
	return out
}

func paths(ss ...string) [][]bool {
	var out [][]bool
	for _, s := range ss {
		out = append(out, path(s))
	}
	return out
}

func TestLess(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"T", "F", true},
		{"F", "T", false},
		{"TF", "TT", false},
		{"TT", "TF", true},
		{"T", "TF", true},
		{"TF", "T", false},
		{"FT", "FT", false},
	} {
		if got := Less(path(tc.a), path(tc.b)); got != tc.want {
			t.Errorf("Less(%s, %s) = %t, want %t", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestRanges splits the sides to explore of crafted trees of mid (seed
// 003, Figure 1: paths TT, TFT, TFF, FT, FFT, FFF in the fixed order)
// along the saved paths that stayed valid.
func TestRanges(t *testing.T) {
	for _, tc := range []struct {
		name         string
		valid, sides [][]bool
		want         []Range
	}{
		{"nothing changed", paths("TT", "TFT", "TFF", "FT", "FFT", "FFF"), nil, nil},
		{"one range between two valid paths", paths("TT", "TFT", "FFF"), paths("TFF", "FT", "FFT"),
			[]Range{{After: 1, Before: 2, Sides: []int{0, 1, 2}}}},
		{"before the first", paths("TFT", "FFF"), paths("TT"),
			[]Range{{After: -1, Before: 0, Sides: []int{0}}}},
		{"after the last", paths("TT", "TFT"), paths("TFF", "F"),
			[]Range{{After: 1, Before: 2, Sides: []int{0, 1}}}},
		{"three disjoint ranges, sides out of order", paths("TFT", "FT", "FFF"), paths("FFT", "TT", "TFF"),
			[]Range{
				{After: -1, Before: 0, Sides: []int{1}},
				{After: 0, Before: 1, Sides: []int{2}},
				{After: 1, Before: 2, Sides: []int{0}},
			}},
		{"no valid path", nil, paths("T", "F"),
			[]Range{{After: -1, Before: 0, Sides: []int{0, 1}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !slices.IsSortedFunc(tc.valid, func(a, b []bool) int {
				if Less(a, b) {
					return -1
				}
				return 1
			}) {
				t.Fatal("valid paths not in order")
			}
			if got := Ranges(tc.valid, tc.sides); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Ranges = %+v, want %+v", got, tc.want)
			}
		})
	}
}
