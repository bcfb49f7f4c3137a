package state

import (
	"slices"
)

// Range is one range of seed 003: the paths between two consecutive
// still-valid saved paths, in the fixed branch order (true before false),
// that hold a side to explore. Ranges are disjoint, so they can be
// explored independently.
type Range struct {
	// After and Before are the indices, in the sorted valid paths given to
	// Ranges, of the valid paths that bound the range: After is -1 for a
	// range before the first, Before is len(valid) after the last.
	After, Before int
	// Sides are the indices of the sides to explore that lie in the range.
	Sides []int
}

// Ranges splits the sides to explore along the saved paths that are
// still valid. Each path and side is its sequence of directions from the
// root (a side: the directions to its node, then the side); valid must be
// sorted by Less, and no side may be a prefix of a valid path (it would
// have been taken).
func Ranges(valid, sides [][]bool) []Range {
	byGap := map[int][]int{}
	for i, s := range sides {
		gap, _ := slices.BinarySearchFunc(valid, s, func(v, s []bool) int {
			if Less(v, s) {
				return -1
			}
			return 1
		})
		byGap[gap] = append(byGap[gap], i)
	}
	gaps := make([]int, 0, len(byGap))
	for g := range byGap {
		gaps = append(gaps, g)
	}
	slices.Sort(gaps)
	var rs []Range
	for _, g := range gaps {
		rs = append(rs, Range{After: g - 1, Before: g, Sides: byGap[g]})
	}
	return rs
}

// Less orders direction sequences as the fixed branch order explores
// them: at the first difference the true side comes first; a prefix comes
// before its extensions.
func Less(a, b []bool) bool {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i]
		}
	}
	return len(a) < len(b)
}
