package explore

import "github.com/gocolic/gocolic/sites"

// Priority is the priority search of the LIME Concolic Tester (seed 004
// §4.3 and §5): each candidate gets a priority when it is added, and Next
// hands out the one of highest priority, except for a fraction of its
// choices (RandomShare), made uniformly among the Open candidates, so
// that a subtree whose first candidate got a low priority is not left
// for last. The seed takes its priorities from a monitor of the
// specification, which gocolic has not; here a candidate whose branch
// outcome no execution had covered when it was added ranks above every
// other, and a random number orders candidates within the two ranks.
type Priority struct {
	q       queue
	all     *Random // the same candidates, for the random choices
	share   float64
	covered sites.Coverage
}

// NewPriority returns an empty Priority strategy whose choices are
// determined by seed, share of them made at random (clamped to [0, 1]).
func NewPriority(seed int64, share float64) *Priority {
	return &Priority{all: NewRandom(seed), share: min(max(share, 0), 1), covered: sites.Coverage{}}
}

// Update learns fb's coverage, then gives fb's candidates their
// priorities and queues them.
func (s *Priority) Update(fb Feedback) {
	for site, b := range fb.Fresh {
		s.covered[site] |= b
	}
	for _, c := range fb.Outcome.NewCandidates {
		p := int64(s.all.r.Uint32())
		if !s.covered.Has(c.Node.Site, c.Side) {
			p += 1 << 32
		}
		s.q.add(c, func(_ int, seq int64) (int64, int64) { return -p, seq })
		s.all.Add(c)
	}
}

// Next claims a random Open candidate for a share of the calls, the one
// of highest priority for the others.
func (s *Priority) Next() (*Candidate, bool) {
	if s.share > 0 && s.all.r.Float64() < s.share {
		if c, ok := s.all.Next(); ok {
			return c, true
		}
	}
	return s.q.next()
}

// Len returns the number of candidates queued.
func (s *Priority) Len() int { return s.q.Len() }

func (s *Priority) String() string { return "priority" }
