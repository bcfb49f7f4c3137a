package explore

import "math/rand/v2"

// This file holds what the strategies that follow one execution's path
// share (random-branch, uniform-random, generational, cfds): the open
// candidates of a path, and the pool they fall back on when the path
// they follow has none.

// openOn returns the Open candidates of the nodes of path at depth from
// on, shallowest first.
func openOn(path []*Node, from int) []*Candidate {
	var cs []*Candidate
	for _, n := range path[min(from, len(path)):] {
		if c := n.Candidate(); c != nil && c.State() == Open {
			cs = append(cs, c)
		}
	}
	return cs
}

// newRand returns the generator of a strategy's random choices: its own,
// seeded, so that a seed reproduces a run.
func newRand(seed int64) *rand.Rand { return rand.New(rand.NewPCG(uint64(seed), 0)) }

// follow is the part of a path-following strategy that every one of them
// has: the first execution's path, to which a restart returns, the path
// followed now, and every candidate heard of, for when neither path has
// an Open one.
type follow struct {
	initial, cur *Node
	rest         *Random
}

func newFollow(seed int64) follow { return follow{rest: NewRandom(seed)} }

// hear queues fb's new candidates in the pool and reports the path of an
// execution the strategy asked for (a Ran event with an origin); the
// first execution's path, which has none, becomes the path to follow and
// to restart from.
func (f *follow) hear(fb Feedback) (leaf *Node, ours bool) {
	addNew(fb, f.rest.Add)
	if fb.Event != Ran || fb.Outcome.Leaf == nil {
		return nil, false
	}
	if f.initial == nil {
		f.initial, f.cur = fb.Outcome.Leaf, fb.Outcome.Leaf
	}
	return fb.Outcome.Leaf, fb.Origin != nil
}

// anywhere claims an Open candidate of the whole tree, chosen uniformly,
// and follows its node's path from then on: what is left when the paths
// the strategy follows have nothing open (a restart from the first input
// would only replay explored paths up to the same candidates).
func (f *follow) anywhere() (*Candidate, bool) {
	c, ok := f.rest.Next()
	if ok {
		f.cur = c.Node
	}
	return c, ok
}
