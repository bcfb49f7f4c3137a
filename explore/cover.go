package explore

// Cover hands out first the targets whose branch outcome no execution has
// covered yet (anywhere in the tree, at any depth), shallowest first;
// only when none is left does it take the others, at random. It is the
// default: it spends the solver on new coverage rather than on new paths
// through code already seen, which is what a test suite wants, and the
// random fallback keeps it from sinking into one loop the way DFS does.
type Cover struct {
	fresh   *BFS
	rest    *Random
	covered func(site uint32, side bool) bool
}

// NewCover returns a Cover strategy. covered reports whether an outcome of
// a branch site has been covered so far; seed seeds the fallback.
func NewCover(covered func(site uint32, side bool) bool, seed int64) *Cover {
	return &Cover{fresh: NewBFS(), rest: NewRandom(seed), covered: covered}
}

// Add queues t.
func (s *Cover) Add(t *Target) {
	if s.covered(t.Node.Site, t.Side) {
		s.rest.Add(t)
		return
	}
	s.fresh.Add(t)
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
		s.rest.Add(t)
	}
	return s.rest.Next()
}

// Len returns the number of targets queued.
func (s *Cover) Len() int { return s.fresh.Len() + s.rest.Len() }

func (s *Cover) String() string { return "cover" }

// release undoes claim: a Pending side that was never tried is Open again.
func (t *Target) release() {
	if t.State() == Pending {
		t.tree.set(t.Node, t.Side, Open)
	}
}
