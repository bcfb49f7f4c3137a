package explore

import (
	"encoding/binary"
	"math/rand/v2"
)

// CGS is the context-guided search of ParaDySE's baselines. It sweeps the
// tree by depth, k = 1 up to cgsMaxK: at each depth it takes the Open
// sides of that depth in random order and hands out a side only if its
// k-context has not been handed out before in this cycle; the others stay
// Open. The k-context of a side is its outcome followed by the outcomes of
// the k-1 nearest branches before it on its path, leaving out the
// branches whose site dominates the side's site (Static.Dominates), which
// every path to it passes anyway and so say nothing of how it was
// reached. After the sweep with k = cgsMaxK the cache of contexts is
// cleared and the sweeps start again from k = 1. The original's "trace"
// holds every branch and call; here the context is made of the symbolic
// branches of the path, the only ones the tree holds.
type CGS struct {
	r       *rand.Rand
	g       Static
	byDepth [][]*Candidate  // every candidate heard of, by depth
	k, d    int             // the sweep: context length and depth
	sweep   []*Candidate    // the Open sides of depth d, shuffled, what is left
	seen    map[string]bool // contexts handed out in this cycle
	idle    bool            // nothing handed out since the cache was cleared
	n       int             // candidates in byDepth
}

// cgsMaxK is the longest context of a cycle (ours: the k of the context
// features of ParaDySE go up to 5).
const cgsMaxK = 5

// NewCGS returns an empty CGS strategy whose shuffles are determined by
// seed and whose dominators come from g.
func NewCGS(seed int64, g Static) *CGS {
	return &CGS{r: newRand(seed), g: g, k: 1, d: -1, seen: map[string]bool{}, idle: true}
}

// Update files fb's candidates by depth.
func (s *CGS) Update(fb Feedback) {
	for _, c := range fb.Outcome.NewCandidates {
		d := c.Depth()
		for len(s.byDepth) <= d {
			s.byDepth = append(s.byDepth, nil)
		}
		s.byDepth[d] = append(s.byDepth[d], c)
		s.n++
	}
}

// Next claims the next side of the sweep whose context is new.
func (s *CGS) Next() (*Candidate, bool) {
	for {
		for len(s.sweep) > 0 {
			c := s.sweep[0]
			s.sweep = s.sweep[1:]
			if c.State() != Open {
				continue
			}
			key := s.context(c)
			if s.seen[key] {
				continue
			}
			s.seen[key] = true
			s.idle = false
			c.claim()
			return c, true
		}
		s.d++
		if s.d >= len(s.byDepth) {
			s.d = 0
			s.k++
			if s.k > cgsMaxK {
				s.k = 1
				clear(s.seen)
				if s.idle || len(s.byDepth) == 0 {
					// A whole cycle found nothing Open: start the
					// next call's cycle afresh.
					s.d = -1
					return nil, false
				}
				s.idle = true
			}
			if len(s.byDepth) == 0 {
				continue
			}
		}
		s.sweep = s.open(s.d)
	}
}

// open drops the candidates of depth d that left Open and returns the
// others, shuffled.
func (s *CGS) open(d int) []*Candidate {
	cs := s.byDepth[d][:0]
	for _, c := range s.byDepth[d] {
		if c.State() == Open {
			cs = append(cs, c)
		}
	}
	clear(s.byDepth[d][len(cs):])
	s.n -= len(s.byDepth[d]) - len(cs)
	s.byDepth[d] = cs
	sw := append([]*Candidate(nil), cs...)
	s.r.Shuffle(len(sw), func(i, j int) { sw[i], sw[j] = sw[j], sw[i] })
	return sw
}

// context returns c's k-context as a map key.
func (s *CGS) context(c *Candidate) string {
	var b []byte
	b = binary.AppendUvarint(b, uint64(outcome(c.Node.Site, c.Side)))
	for m, n := c.Node, 1; m.parent != nil && n < s.k; m = m.parent {
		if s.g.Dominates(m.parent.Site, c.Node.Site) {
			continue
		}
		b = binary.AppendUvarint(b, uint64(outcome(m.parent.Site, m.side)))
		n++
	}
	return string(b)
}

// Len returns the number of candidates filed that Next has not dropped.
func (s *CGS) Len() int { return s.n }

func (s *CGS) String() string { return "cgs" }
