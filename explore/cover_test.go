package explore

import (
	"slices"
	"testing"
)

// TestCoverTiers checks the order of the Cover strategy: uncovered
// outcomes first (shallowest first), then novel candidates, then the rest;
// a candidate whose outcome got covered, or whose novelty got reached, while
// it waited falls to a later tier.
func TestCoverTiers(t *testing.T) {
	_, all := orderFixture() // open: B site 2 depth 1, D 4/3, E 5/4, F 6/1
	byID := map[uint32]*Candidate{}
	for _, tg := range all {
		byID[tg.Node.Site] = tg
	}
	covered := map[uint32]bool{4: true, 6: true} // D and F cover seen outcomes
	seen := map[uint32]bool{}
	byID[5].Novel, byID[5].NoveltyKey = true, 50 // E promises novelty 50
	byID[6].Novel, byID[6].NoveltyKey = true, 60 // F promises novelty 60
	s := NewCover(func(site uint32, side bool) bool { return covered[site] },
		func(k uint32) bool { return seen[k] }, 1)
	for _, tg := range all {
		s.Add(tg)
	}
	if s.Len() < 4 {
		t.Fatalf("Len = %d, want at least 4", s.Len())
	}
	var got []uint32
	next := func() {
		tg, ok := s.Next()
		if !ok {
			t.Fatalf("Next ran dry after %v", got)
		}
		got = append(got, tg.Node.Site)
	}
	next()            // uncovered: B (depth 1) before E (depth 4)
	covered[5] = true // E's outcome is covered meanwhile: E is now only novel
	seen[60] = true   // F's novelty is reached meanwhile: F falls to the rest
	next()            // novel: E
	next()            // rest: D or F
	next()
	if got[0] != 2 || got[1] != 5 {
		t.Errorf("order %v, want B(2) then E(5) first", got)
	}
	if rest := []uint32{got[2], got[3]}; !slices.Contains(rest, 4) || !slices.Contains(rest, 6) {
		t.Errorf("order %v, want D(4) and F(6) last", got)
	}
	if _, ok := s.Next(); ok {
		t.Error("Next returned a fifth candidate")
	}
}
