package explore

import "math/rand/v2"

// Random hands out an open candidate chosen uniformly at random. Its choices
// come from its own seeded generator, so a seed reproduces a run.
type Random struct {
	r  *rand.Rand
	ts []*Candidate
}

// NewRandom returns an empty Random strategy whose choices are determined
// by seed.
func NewRandom(seed int64) *Random {
	return &Random{r: rand.New(rand.NewPCG(uint64(seed), 0))}
}

// Add queues t.
func (s *Random) Add(t *Candidate) { s.ts = append(s.ts, t) }

// Next returns a random open candidate and marks it Pending. Candidates that are
// no longer Open are dropped as they are drawn; redrawing after a drop keeps
// the choice uniform among the open ones.
func (s *Random) Next() (*Candidate, bool) {
	for len(s.ts) > 0 {
		i := s.r.IntN(len(s.ts))
		t := s.ts[i]
		last := len(s.ts) - 1
		s.ts[i] = s.ts[last]
		s.ts[last] = nil
		s.ts = s.ts[:last]
		if t.claim() {
			return t, true
		}
	}
	return nil, false
}

// Len returns the number of candidates queued.
func (s *Random) Len() int { return len(s.ts) }

func (s *Random) String() string { return "random" }
