package explore

// Cover hands out targets in three tiers:
//
//  1. targets whose branch outcome no execution has covered yet (anywhere
//     in the tree), shallowest first;
//  2. targets opened by novel executions — ones that took some branch
//     outcome a number of times never seen before, counted in buckets as
//     AFL does (1, 2, 3, 4–7, 8–15, ...) — deepest first, which pushes a
//     loop one iteration further, as a state machine that must read four
//     hex digits in a row needs;
//  3. the rest, at random, which keeps the search from sinking into one
//     loop the way DFS does.
//
// It is the default: it spends the solver on new coverage rather than on
// new paths through code already seen, which is what a test suite wants.
type Cover struct {
	fresh   *BFS
	novel   *DFS
	rest    *Random
	covered func(site uint32, side bool) bool
}

// NewCover returns a Cover strategy. covered reports whether an outcome of
// a branch site has been covered so far; seed seeds the fallback.
func NewCover(covered func(site uint32, side bool) bool, seed int64) *Cover {
	return &Cover{fresh: NewBFS(), novel: NewDFS(), rest: NewRandom(seed), covered: covered}
}

// Add queues t.
func (s *Cover) Add(t *Target) {
	switch {
	case !s.covered(t.Node.Site, t.Side):
		s.fresh.Add(t)
	case t.Novel:
		s.novel.Add(t)
	default:
		s.rest.Add(t)
	}
}

// Next returns the next target and marks it Pending.
func (s *Cover) Next() (*Target, bool) {
	for {
		t, ok := s.fresh.Next()
		if !ok {
			break
		}
		if !s.covered(t.Node.Site, t.Side) {
			return t, true
		}
		// Covered since it was queued: demote it.
		t.release()
		if t.Novel {
			s.novel.Add(t)
		} else {
			s.rest.Add(t)
		}
	}
	if t, ok := s.novel.Next(); ok {
		return t, true
	}
	return s.rest.Next()
}

// Len returns the number of targets queued.
func (s *Cover) Len() int { return s.fresh.Len() + s.novel.Len() + s.rest.Len() }

func (s *Cover) String() string { return "cover" }

// release undoes claim: a Pending side that was never tried is Open again.
func (t *Target) release() {
	if t.State() == Pending {
		t.tree.set(t.Node, t.Side, Open)
	}
}
