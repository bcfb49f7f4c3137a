package explore

import (
	"slices"
	"testing"

	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/sym"
)

// TestCoverTiers checks the order of the Cover strategy: uncovered
// outcomes first (shallowest first), then novel candidates, then the rest;
// a candidate whose outcome got covered, or whose novelty got reached,
// while it waited falls to a later tier. What Cover knows comes from
// Update only.
func TestCoverTiers(t *testing.T) {
	_, all := orderFixture() // open: B site 2 depth 1, D 4/3, E 5/4, F 6/1
	s := NewCover(1, nil)
	// An earlier run covered D's and F's outcomes, and took D's once.
	s.Update(Feedback{Event: Ran, Hits: []Hit{{Site: 4, Side: false, Count: 1}},
		Fresh: sites.Coverage{4: 1, 6: 1}})
	// This run opens them all: D's flip reaches nothing new; E and F
	// promise a first hit of their outcome.
	s.Update(Feedback{Event: Ran, Outcome: Outcome{NewCandidates: all}})
	if s.Len() < 4 {
		t.Fatalf("Len = %d, want at least 4", s.Len())
	}
	var got []uint32
	next := func() {
		c, ok := s.Next()
		if !ok {
			t.Fatalf("Next ran dry after %v", got)
		}
		got = append(got, c.Node.Site)
	}
	next() // uncovered: B (depth 1) before E (depth 4)
	// Meanwhile a run covers E's outcome (E is now only novel) and takes
	// F's once (F's novelty is reached: F falls to the rest).
	s.Update(Feedback{Event: Ran, Hits: []Hit{{Site: 6, Side: false, Count: 1}},
		Fresh: sites.Coverage{5: 2}})
	next() // novel: E
	next() // rest: D or F
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

// TestCoverNovelty checks how Update judges a new candidate by hit
// counts: novel when its flip would take its outcome one more time than
// the execution did and that count falls in a bucket no execution has
// reached, or when the execution itself reached a new bucket (not the
// first execution, whose buckets are all new).
func TestCoverNovelty(t *testing.T) {
	ran := func(hits ...Hit) Feedback { return Feedback{Event: Ran, Hits: hits} }
	one := func(count uint32) Hit { return Hit{Site: 1, Side: false, Count: count} } // the candidate's outcome
	other := Hit{Site: 9, Side: true, Count: 1}
	key := func(b uint8) uint32 { return outcome(1, false)<<3 | uint32(b) }
	tests := []struct {
		name    string
		before  []Feedback // earlier events
		hits    []Hit      // of the execution that opens the candidate
		novel   bool
		wantKey uint32
	}{
		{"never taken: first hit is novel", nil, nil, true, key(0)},
		{"first hit reached before", []Feedback{ran(one(1))}, nil, false, key(0)},
		{"one more than this run, new bucket", []Feedback{ran(one(1))}, []Hit{one(1)}, true, key(1)},
		{"one more than this run, bucket reached", []Feedback{ran(one(5))}, []Hit{one(4)}, false, key(3)},
		{"run reached a new bucket elsewhere", []Feedback{ran(one(1))}, []Hit{other}, true, noKey},
		{"first run's new buckets do not count", nil, []Hit{one(4)}, false, key(3)},
		{"lost execution counts as a run", []Feedback{{Event: Lost}}, []Hit{one(4)}, true, noKey},
		{"solver answer is not a run", []Feedback{{Event: Refuted}, {Event: Unsolved}}, []Hit{one(4)}, false, key(3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := sym.NewBuilder()
			c := NewTree(b, Options{}).Record(path(b, "1t"), sym.Env{}, nil).NewCandidates[0] // site 1, false side
			s := NewCover(1, nil)
			for _, fb := range tt.before {
				s.Update(fb)
			}
			s.Update(Feedback{Event: Ran, Hits: tt.hits, Outcome: Outcome{NewCandidates: []*Candidate{c}}})
			if s.novel(c) != tt.novel || c.noveltyKey != tt.wantKey {
				t.Errorf("novel %t, key %#x; want %t, %#x", s.novel(c), c.noveltyKey, tt.novel, tt.wantKey)
			}
		})
	}
}

// TestCoverFreshAfterCandidates checks that Update queues the candidates
// by the coverage before the execution: a candidate whose outcome the
// same execution covered first waits among the uncovered ones, and Next
// demotes it.
func TestCoverFreshAfterCandidates(t *testing.T) {
	b := sym.NewBuilder()
	c := NewTree(b, Options{}).Record(path(b, "1t"), sym.Env{}, nil).NewCandidates[0] // site 1, false side
	s := NewCover(1, nil)
	s.Update(Feedback{Event: Ran, Outcome: Outcome{NewCandidates: []*Candidate{c}}, Fresh: sites.Coverage{1: 1}})
	if s.uncovered.Len() != 1 || !s.covered.Has(1, false) {
		t.Fatalf("uncovered tier %d, covered %t; want 1, true", s.uncovered.Len(), s.covered.Has(1, false))
	}
	if got, ok := s.Next(); !ok || got != c {
		t.Fatalf("Next = %v, %t; want the candidate", got, ok)
	}
	if s.uncovered.Len() != 0 || s.deep.Len() != 1 {
		t.Errorf("uncovered tier %d, deep %d after Next; want it demoted to the novel tier", s.uncovered.Len(), s.deep.Len())
	}
}

// TestCoverStd checks that Cover hands out the uncovered outcomes of
// standard packages after the target's uncovered outcomes, however
// shallow, and before the target's covered outcomes.
func TestCoverStd(t *testing.T) {
	// Open: B site 2 depth 1, D 4/3, E 5/4, F 6/1, none covered.
	tests := []struct {
		name string
		std  []uint32 // the standard packages' sites
		// covers D's outcome and takes it once first: D is neither
		// uncovered nor novel.
		coverD bool
		want   []uint32
	}{
		{"no std sites: shallowest first", nil, false, []uint32{2, 6, 4, 5}},
		{"std site waits for the target's", []uint32{2}, false, []uint32{6, 4, 5, 2}},
		{"std sites after deeper target sites", []uint32{2, 6}, false, []uint32{4, 5, 2, 6}},
		{"std site before covered target site", []uint32{2}, true, []uint32{6, 5, 2, 4}},
		{"deepest std site unchanged", []uint32{5}, false, []uint32{2, 6, 4, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, all := orderFixture()
			var std func(uint32) bool
			if tt.std != nil {
				std = func(site uint32) bool { return slices.Contains(tt.std, site) }
			}
			s := NewCover(1, std)
			if tt.coverD {
				s.Update(Feedback{Event: Ran, Hits: []Hit{{Site: 4, Side: false, Count: 1}}, Fresh: sites.Coverage{4: 1}})
			}
			offer(s, all...)
			if got := drain(s); !slices.Equal(got, tt.want) {
				t.Errorf("order %v, want %v", got, tt.want)
			}
		})
	}
}
