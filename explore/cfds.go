package explore

import (
	"slices"
)

// CFDS is CREST's control-flow directed search. It follows one path and
// orders the path's Open sides by their distance, on the static branch
// graph (Static.Distance), to the nearest outcome no execution has
// covered, recomputed as coverage grows. A round shuffles the Open sides
// and scores each by its distance plus the number of sides of the same
// outcome before it in the shuffled order (so repeats of one branch in a
// loop do not take the whole round), and tries them from the lowest score
// up. An execution that covers something first becomes the path followed
// and starts a new round. One that went where predicted without covering
// anything is followed further for up to alongDepth steps, each trying
// only the sides below the last one that are nearer to an uncovered
// outcome than it was (CREST's SolveAlongCfg); when that runs out the
// round goes on. After roundTries executions without new coverage the
// search restarts from the first execution's path. A path with nothing
// Open left sends it to the first path, and then to the Open candidate of
// least distance anywhere in the tree.
type CFDS struct {
	f     follow
	g     Static
	top   *Node        // the path of the round
	order []*Candidate // the round's order, what is left of it
	tries int          // executions of the round that covered nothing
	// Following an execution along the graph: the steps taken, the
	// depth below which the next side must lie, and the distance it
	// must beat.
	along     int
	floor     int
	alongDist int
	handed    map[*Candidate]int // distance of each candidate handed out, when it was
	all       []*Candidate       // every candidate heard of, for the tree-wide choice
}

// CREST's bounds: tries of a round before a restart, and steps along
// the graph after one execution.
const (
	roundTries = 30
	alongDepth = 5
)

// NewCFDS returns an empty CFDS strategy whose shuffles are determined by
// seed and whose distances come from g.
func NewCFDS(seed int64, g Static) *CFDS {
	return &CFDS{f: newFollow(seed), g: g, handed: map[*Candidate]int{}}
}

// Update tells the graph what fb covered and moves along the paths as the
// type's comment says.
func (s *CFDS) Update(fb Feedback) {
	if len(fb.Fresh) > 0 {
		s.g.Cover(fb.Fresh)
	}
	s.all = append(s.all, fb.Outcome.NewCandidates...)
	leaf, ours := s.f.hear(fb)
	if s.top == nil {
		s.top = s.f.initial
	}
	o := fb.Origin
	if o == nil {
		return
	}
	dist, asked := s.handed[o]
	delete(s.handed, o)
	switch {
	case !asked || fb.Event == Refuted || fb.Event == Unsolved:
		// No execution: the round goes on.
	case ours && fb.NewCover():
		s.top, s.f.cur, s.order, s.tries, s.along = leaf, leaf, nil, 0, 0
	case ours && !fb.Outcome.Diverged && dist > 0 && dist < Far && s.along < alongDepth:
		s.f.cur, s.along, s.floor, s.alongDist = leaf, s.along+1, o.Depth()+1, dist
		s.tries++
	default:
		s.f.cur, s.along = s.top, 0
		s.tries++
	}
	if s.tries >= roundTries {
		s.top, s.f.cur, s.order, s.tries, s.along = s.f.initial, s.f.initial, nil, 0, 0
	}
}

// Next claims the next side as the type's comment says.
func (s *CFDS) Next() (*Candidate, bool) {
	if s.along > 0 {
		var best *Candidate
		bd := s.alongDist
		for _, c := range openOn(s.f.cur.Path(), s.floor) {
			if d := s.g.Distance(c.Node.Site, c.Side); d < bd {
				best, bd = c, d
			}
		}
		if best != nil {
			return s.hand(best, bd), true
		}
		s.f.cur, s.along = s.top, 0
	}
	for range 2 {
		for len(s.order) > 0 {
			c := s.order[0]
			s.order = s.order[1:]
			if c.State() == Open {
				return s.hand(c, s.g.Distance(c.Node.Site, c.Side)), true
			}
		}
		if s.order = s.round(s.top); len(s.order) == 0 && s.top != s.f.initial {
			s.top, s.f.cur = s.f.initial, s.f.initial
			s.order = s.round(s.top)
		}
	}
	return s.nearest()
}

// round returns the order of a new round over the Open sides of the path
// of leaf.
func (s *CFDS) round(leaf *Node) []*Candidate {
	cs := openOn(leaf.Path(), 0)
	s.f.rest.r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	score := make(map[*Candidate]int, len(cs))
	seen := map[uint32]int{}
	for _, c := range cs {
		o := outcome(c.Node.Site, c.Side)
		score[c] = s.g.Distance(c.Node.Site, c.Side) + seen[o]
		seen[o]++
	}
	slices.SortStableFunc(cs, func(a, b *Candidate) int { return score[a] - score[b] })
	return cs
}

// nearest claims the Open candidate of least distance in the whole tree,
// the oldest among equals, and follows its path.
func (s *CFDS) nearest() (*Candidate, bool) {
	var best *Candidate
	bd := 0
	open := s.all[:0]
	for _, c := range s.all {
		if c.State() != Open {
			continue
		}
		open = append(open, c)
		if d := s.g.Distance(c.Node.Site, c.Side); best == nil || d < bd {
			best, bd = c, d
		}
	}
	clear(s.all[len(open):])
	s.all = open
	if best == nil {
		return nil, false
	}
	s.f.cur, s.top, s.order = best.Node, best.Node, nil
	return s.hand(best, bd), true
}

// hand claims c, noting its distance.
func (s *CFDS) hand(c *Candidate, d int) *Candidate {
	c.claim()
	s.handed[c] = d
	return c
}

// Len returns the number of candidates heard of that Next has not
// dropped.
func (s *CFDS) Len() int { return len(s.all) }

func (s *CFDS) String() string { return "cfds" }
