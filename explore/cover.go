package explore

import (
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
)

// Cover hands out candidates in three tiers:
//
//  1. candidates whose branch outcome no execution has covered yet
//     (anywhere in the tree), shallowest first: the target's outcomes
//     before those of standard packages instrumented in place, so that
//     the library's hundreds of branches do not come between the search
//     and the target's;
//  2. novel candidates — whose flip would take their branch outcome a
//     number of times no run has reached, counted in buckets as AFL does
//     (1, 2, 3, 4–7, 8–15, ...) — taking turns shallowest first and
//     deepest first, as KLEE's interleaved searcher does; this pushes a
//     loop one matching iteration further, as a state machine that must
//     read four hex digits in a row needs (deepest first finds that one),
//     or a string that must match "abcd" letter by letter (shallowest
//     first);
//  3. the rest, at random, which keeps the search from sinking into one
//     loop the way DFS does.
//
// It is the default: it spends the solver on new coverage rather than on
// new paths through code already seen, which is what a test suite wants.
// It learns the coverage and the hit counts from Update.
type Cover struct {
	uncovered    *BFS // the target's uncovered outcomes
	uncoveredStd *BFS // the standard packages' uncovered outcomes
	deep         *DFS // the novel candidates, deepest first
	shallow      *BFS // the same candidates, shallowest first
	turn         bool
	rest         *Random

	std     func(site uint32) bool // whether a site is a standard package's; never nil
	covered sites.Coverage         // branch outcomes covered so far
	buckets map[uint32]bool        // hit-count buckets reached: outcome<<3 | bucket
	counts  map[uint32]uint32      // hit counts of the execution being taken in, by outcome
	execs   int                    // executions reported so far
}

// NewCover returns a Cover strategy; seed seeds the random tier, and std,
// if not nil, reports which branch sites belong to standard packages.
func NewCover(seed int64, std func(site uint32) bool) *Cover {
	if std == nil {
		std = func(uint32) bool { return false }
	}
	return &Cover{
		uncovered: NewBFS(), uncoveredStd: NewBFS(), deep: NewDFS(), shallow: NewBFS(), rest: NewRandom(seed), std: std,
		covered: sites.Coverage{}, buckets: map[uint32]bool{}, counts: map[uint32]uint32{},
	}
}

// noKey is a novelty key no run reaches: the candidate stays novel.
const noKey = ^uint32(0)

// outcome numbers one outcome of a branch site.
func outcome(site uint32, side bool) uint32 {
	o := site << 1
	if side {
		o |= 1
	}
	return o
}

// Update takes in what one event did. From the hit counts of an
// execution it marks the buckets reached; a candidate the execution
// opened is novel when flipping it would take its outcome one more time
// than this execution did, and that count falls in a bucket no execution
// has reached. An execution that itself reached a new bucket makes all
// its candidates novel, what it found being worth building on; the first
// execution does not count, all its buckets being new. The candidates are
// queued by what was covered before the execution: the outcomes it
// covered first count from the next Next on, which demotes a candidate
// the execution covered itself.
func (s *Cover) Update(fb Feedback) {
	if fb.Event == Ran || fb.Event == Lost {
		s.execs++
	}
	clear(s.counts)
	runNovel := false
	for _, h := range fb.Hits {
		o := outcome(h.Site, h.Side)
		s.counts[o] = h.Count
		if k := rt.BucketEntry(o, rt.Bucket(h.Count)); !s.buckets[k] {
			s.buckets[k] = true
			runNovel = s.execs > 1
		}
	}
	for _, c := range fb.Outcome.NewCandidates {
		o := outcome(c.Node.Site, c.Side)
		c.noveltyKey = rt.BucketEntry(o, rt.Bucket(s.counts[o]+1))
		c.novel = !s.buckets[c.noveltyKey]
		if !c.novel && runNovel {
			c.novel, c.noveltyKey = true, noKey
		}
		s.add(c)
	}
	for site, bits := range fb.Fresh {
		s.covered[site] |= bits
	}
}

// novel reports whether c still promises a bucket no execution reached.
func (s *Cover) novel(c *Candidate) bool { return c.novel && !s.buckets[c.noveltyKey] }

// add queues c in its tier.
func (s *Cover) add(c *Candidate) {
	switch {
	case !s.covered.Has(c.Node.Site, c.Side) && !s.std(c.Node.Site):
		s.uncovered.Add(c)
	case !s.covered.Has(c.Node.Site, c.Side):
		s.uncoveredStd.Add(c)
	case s.novel(c):
		s.deep.Add(c)
		s.shallow.Add(c)
	default:
		s.rest.Add(c)
	}
}

// Next returns the next candidate and marks it Pending.
func (s *Cover) Next() (*Candidate, bool) {
	if c, ok := s.nextUncovered(s.uncovered); ok {
		return c, true
	}
	if c, ok := s.nextUncovered(s.uncoveredStd); ok {
		return c, true
	}
	for {
		c, ok := s.nextNovel()
		if !ok {
			break
		}
		if s.novel(c) {
			return c, true
		}
		// Reached by another run meanwhile: no longer novel.
		c.release()
		s.rest.Add(c)
	}
	return s.rest.Next()
}

// nextUncovered takes the next candidate of q whose outcome is still
// uncovered, demoting those covered since they were queued.
func (s *Cover) nextUncovered(q *BFS) (*Candidate, bool) {
	for {
		c, ok := q.Next()
		if !ok {
			return nil, false
		}
		if !s.covered.Has(c.Node.Site, c.Side) {
			return c, true
		}
		// Covered since it was queued: demote it.
		c.release()
		if s.novel(c) {
			s.deep.Add(c)
			s.shallow.Add(c)
		} else {
			s.rest.Add(c)
		}
	}
}

// nextNovel takes the next novel candidate, in turns from the two orders.
func (s *Cover) nextNovel() (*Candidate, bool) {
	// A candidate queued in both is handed out once: the first Next
	// claims it, and the other queue drops it as no longer Open.
	s.turn = !s.turn
	first, second := Strategy(s.deep), Strategy(s.shallow)
	if s.turn {
		first, second = second, first
	}
	if c, ok := first.Next(); ok {
		return c, true
	}
	return second.Next()
}

// Len returns the number of candidates queued.
func (s *Cover) Len() int {
	return s.uncovered.Len() + s.uncoveredStd.Len() + s.deep.Len() + s.rest.Len()
}

func (s *Cover) String() string { return "cover" }

// release undoes claim: a Pending side that was never tried is Open again.
func (c *Candidate) release() {
	if c.State() == Pending {
		c.tree.set(c.Node, c.Side, Open)
	}
}
