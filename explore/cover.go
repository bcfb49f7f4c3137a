package explore

// Cover hands out candidates in three tiers:
//
//  1. candidates whose branch outcome no execution has covered yet (anywhere
//     in the tree), shallowest first;
//  2. novel candidates — whose flip would take their branch outcome a number
//     of times no run has reached, counted in buckets as AFL does (1, 2,
//     3, 4–7, 8–15, ...) — taking turns shallowest first and deepest
//     first, as KLEE's interleaved searcher does; this pushes a loop one
//     matching iteration further, as a state machine that must read four
//     hex digits in a row needs (deepest first finds that one), or a
//     string that must match "abcd" letter by letter (shallowest first);
//  3. the rest, at random, which keeps the search from sinking into one
//     loop the way DFS does.
//
// It is the default: it spends the solver on new coverage rather than on
// new paths through code already seen, which is what a test suite wants.
type Cover struct {
	fresh   *BFS
	deep    *DFS // the novel candidates, deepest first
	shallow *BFS // the same candidates, shallowest first
	turn    bool
	rest    *Random
	covered func(site uint32, side bool) bool
	seen    func(key uint32) bool
}

// NewCover returns a Cover strategy. covered reports whether an outcome of
// a branch site has been covered so far; seen reports whether the novelty
// a candidate promised (its NoveltyKey) has been reached meanwhile; seed seeds
// the fallback.
func NewCover(covered func(site uint32, side bool) bool, seen func(key uint32) bool, seed int64) *Cover {
	if seen == nil {
		seen = func(uint32) bool { return false }
	}
	return &Cover{fresh: NewBFS(), deep: NewDFS(), shallow: NewBFS(), rest: NewRandom(seed), covered: covered, seen: seen}
}

func (s *Cover) novel(t *Candidate) bool { return t.Novel && !s.seen(t.NoveltyKey) }

// Add queues t.
func (s *Cover) Add(t *Candidate) {
	switch {
	case !s.covered(t.Node.Site, t.Side):
		s.fresh.Add(t)
	case s.novel(t):
		s.deep.Add(t)
		s.shallow.Add(t)
	default:
		s.rest.Add(t)
	}
}

// Next returns the next candidate and marks it Pending.
func (s *Cover) Next() (*Candidate, bool) {
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
		if s.novel(t) {
			s.deep.Add(t)
			s.shallow.Add(t)
		} else {
			s.rest.Add(t)
		}
	}
	for {
		t, ok := s.nextNovel()
		if !ok {
			break
		}
		if s.novel(t) {
			return t, true
		}
		// Reached by another run meanwhile: no longer novel.
		t.release()
		s.rest.Add(t)
	}
	return s.rest.Next()
}

// nextNovel takes the next novel candidate, in turns from the two orders.
func (s *Cover) nextNovel() (*Candidate, bool) {
	// A candidate queued in both is handed out once: the first Next claims
	// it, and the other queue drops it as no longer Open.
	s.turn = !s.turn
	first, second := Strategy(s.deep), Strategy(s.shallow)
	if s.turn {
		first, second = second, first
	}
	if t, ok := first.Next(); ok {
		return t, true
	}
	return second.Next()
}

// Len returns the number of candidates queued.
func (s *Cover) Len() int { return s.fresh.Len() + s.deep.Len() + s.rest.Len() }

func (s *Cover) String() string { return "cover" }

// release undoes claim: a Pending side that was never tried is Open again.
func (t *Candidate) release() {
	if t.State() == Pending {
		t.tree.set(t.Node, t.Side, Open)
	}
}
