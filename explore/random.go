package explore

import "math/rand/v2"

// Random hands out an open candidate chosen uniformly at random. Its
// choices come from its own seeded generator, so a seed reproduces a run.
type Random struct {
	r  *rand.Rand
	cs []*Candidate
}

// NewRandom returns an empty Random strategy whose choices are determined
// by seed.
func NewRandom(seed int64) *Random {
	return &Random{r: rand.New(rand.NewPCG(uint64(seed), 0))}
}

// Add queues c.
func (s *Random) Add(c *Candidate) { s.cs = append(s.cs, c) }

// Update queues the candidates fb opened; Random needs nothing else.
func (s *Random) Update(fb Feedback) { addNew(fb, s.Add) }

// Next returns a random open candidate and marks it Pending. Candidates
// that are no longer Open are dropped as they are drawn; redrawing after a
// drop keeps the choice uniform among the open ones.
func (s *Random) Next() (*Candidate, bool) {
	for len(s.cs) > 0 {
		i := s.r.IntN(len(s.cs))
		c := s.cs[i]
		last := len(s.cs) - 1
		s.cs[i] = s.cs[last]
		s.cs[last] = nil
		s.cs = s.cs[:last]
		if c.claim() {
			return c, true
		}
	}
	return nil, false
}

// Len returns the number of candidates queued.
func (s *Random) Len() int { return len(s.cs) }

func (s *Random) String() string { return "random" }
