package explore

// This file holds CREST's two random searches, on the execution tree.

// RandomBranch is CREST's random branch search. It follows one path: each
// candidate is an Open side of that path, chosen uniformly (an unsat or
// unsolved one leaves Open, so the choice is without replacement); the
// path of the execution that follows becomes the one followed when it
// covered an outcome first or went where its candidate predicted. After
// restartSteps executions without new coverage the search restarts from
// the first execution's path. A path with nothing Open left (on a tree,
// flips already made stay made) sends it to the first path, and from
// there to a random Open candidate of the whole tree.
type RandomBranch struct {
	f     follow
	steps int // executions since an execution last covered something first
}

// restartSteps is CREST's bound on random-branch steps without new
// coverage before a restart.
const restartSteps = 10000

// NewRandomBranch returns an empty RandomBranch whose choices are
// determined by seed.
func NewRandomBranch(seed int64) *RandomBranch { return &RandomBranch{f: newFollow(seed)} }

// Update queues fb's candidates and moves along the execution's path as
// the type's comment says.
func (s *RandomBranch) Update(fb Feedback) {
	leaf, ours := s.f.hear(fb)
	if fb.Event == Ran || fb.Event == Lost {
		s.steps++
	}
	if fb.NewCover() {
		s.steps = 0
	}
	switch {
	case !ours:
	case fb.NewCover() || !fb.Outcome.Diverged:
		s.f.cur = leaf
	}
	if s.steps >= restartSteps {
		s.steps = 0
		s.f.cur = s.f.initial
	}
}

// Next claims a random Open side of the path followed.
func (s *RandomBranch) Next() (*Candidate, bool) {
	for _, n := range []*Node{s.f.cur, s.f.initial} {
		if cs := openOn(n.Path(), 0); len(cs) > 0 {
			c := cs[s.f.rest.r.IntN(len(cs))]
			c.claim()
			s.f.cur = n
			return c, true
		}
	}
	return s.f.anywhere()
}

// Len returns the number of candidates heard of that Next has not
// dropped.
func (s *RandomBranch) Len() int { return s.f.rest.Len() }

func (s *RandomBranch) String() string { return "random-branch" }

// UniformRandom is CREST's uniform random search. It walks the path it
// follows from the root down; at each Open side a coin decides whether to
// try it, and an execution that went where its candidate predicted
// replaces the path, the walk going on below that candidate. At the end
// of the path the walk starts again at its root. Only an Open side gets a
// coin: CREST tosses it after the solver said "sat", and a side the solver
// refutes here is simply not Open any more when the walk returns, which
// gives each feasible side the same chance of ½ per walk.
type UniformRandom struct {
	f   follow
	pos int // depth of the next node the walk looks at
}

// NewUniformRandom returns an empty UniformRandom whose choices are
// determined by seed.
func NewUniformRandom(seed int64) *UniformRandom { return &UniformRandom{f: newFollow(seed)} }

// Update queues fb's candidates and switches to the execution's path when
// it followed its prediction.
func (s *UniformRandom) Update(fb Feedback) {
	leaf, ours := s.f.hear(fb)
	if ours && !fb.Outcome.Diverged {
		s.f.cur = leaf
		s.pos = fb.Origin.Depth() + 1
	}
}

// maxWalks bounds the walks of one Next that toss tails at every Open
// side before it takes the first of them.
const maxWalks = 64

// Next walks on until a coin says to try an Open side, and claims it.
func (s *UniformRandom) Next() (*Candidate, bool) {
	path := s.f.cur.Path()
	if len(openOn(path, 0)) == 0 {
		s.pos = 0
		return s.f.anywhere()
	}
	for walk := 0; ; {
		if s.pos >= len(path) {
			s.pos = 0
			walk++
		}
		c := path[s.pos].Candidate()
		s.pos++
		if c == nil || c.State() != Open {
			continue
		}
		if walk >= maxWalks || s.f.rest.r.IntN(2) == 0 {
			c.claim()
			return c, true
		}
	}
}

// Len returns the number of candidates heard of that Next has not
// dropped.
func (s *UniformRandom) Len() int { return s.f.rest.Len() }

func (s *UniformRandom) String() string { return "uniform-random" }
