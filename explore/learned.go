package explore

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gocolic/gocolic/sites"
)

// LearnedInput is what the learned strategy knows of the program beyond
// its weights.
type LearnedInput struct {
	// Sites is the branch-site table; the functions of the features are
	// its sites' functions.
	Sites []sites.Site
	// Props holds the sites' static properties (SitePropsOf); a site
	// it lacks has none.
	Props map[uint32]SiteProps
	// Static, if not nil, is the program's static graph: its dominators
	// shorten the contexts, and, if it is a Reach, the look-ahead
	// features read it; without it those are 0.
	Static Static
	// Seed seeds the choice among candidates of equal score.
	Seed int64
}

// Learned is the parameterised search heuristic of seed 001 (ParaDySE):
// each candidate gets a vector of NumFeatures yes/no features, its score
// is the weights' dot product with it, and Next hands out the candidate
// of highest score, one at random among equals. (ParaDySE takes the
// deepest of equals: then every run from every seed was the same run, on
// the examples, and the learner's check, which averages a vector's runs
// from several seeds, measured one run several times.)
//
// As ParaDySE chooses among the branches of the current path, Next
// scores the open candidates along the path of the last execution that
// opened any (or that reached its candidate); when that path has none
// left, where ParaDySE restarts from the initial input, it scores every
// open candidate. Candidates whose side failed to be reached more than
// 70 times rank after all others. Counters, caches and coverage persist
// over the whole run. The weights come from a file (Weights) that
// gocolic learn writes.
//
// Next scores every candidate it considers, so that work is kept small:
// what does not change for a candidate (its contexts, the sites after
// it) is computed once, what only ever turns one way (a context handed
// out, a region covered) is cached in the candidate, and counters are
// read from slices. TestLearnedMatchesReference holds it to the
// straightforward computation, choice for choice.
type Learned struct {
	theta  [NumFeatures]float64
	dynMax float64 // the sum of the positive weights of the features over the search (FAfterLast on)
	static map[uint32]SiteProps
	dom    func(d, b uint32) bool  // nil without a graph
	reach  Reach                   // nil without one
	ahead  map[sites.Outcome]ahead // per outcome, the sites one and two branches on (Reach)
	rng    *rand.Rand

	byNode  map[*Node]*lcand
	pool    []*lcand
	current *Node    // deepest node of the current path
	onCur   []*lcand // the candidates along current, deepest first
	curOK   bool     // onCur is current's (false: gather it again)
	open    []*lcand // the open ones of onCur (per Next)

	// The search state the dynamic features read, in slices indexed by
	// site, outcome or depth (grown on demand): Next reads them for
	// every candidate, and map lookups there were most of its cost.
	cov   []uint8 // by site: bit 1 the false outcome covered, bit 2 the true one
	unsat []int32 // by outcome: failed attempts to reach it
	execs int
	fnOf  []int32 // by site: index in funcs, -1 for none

	selections int
	selDepth   []int32 // by depth: candidates handed out
	selDir     []int32 // by outcome: candidates handed out of that direction
	lastSel    []int32 // by outcome: 1 + the number of the selection that last handed it out, 0 for never
	ctx        [5]map[uint64]bool
	ctxMay     [5]*[ctxFilter]uint64 // a filter of ctx: bit h mod 2^16 is set for every h it holds
	lastDepth  int
	lastOK     bool // the last answered attempt reached its candidate as predicted

	funcs     []fnState
	maxUnc    int              // most uncovered outcomes of a reached function (per Next)
	targets   map[uint32]uint8 // first sites of unreached functions: bit i for FNearUnreached10+i
	reached   int              // functions reached so far
	targetsAt int              // reached when targets were computed
	targetV   int              // version of targets: bumped when they change
	sizeT     [3]int           // branch-site thresholds of the largest 10%, 20%, 33% of functions
}

type fnState struct {
	branches, uncovered int
	firstReached        int // execution that first reached it, -1 before
	firstSite           uint32
}

// lcand is a queued candidate with the features fixed when it was opened,
// and what its dynamic features need that does not change: computed
// once, when it is first scored after the first selection.
type lcand struct {
	c     *Candidate
	fixed Features
	n     int     // length of the path that opened it
	bound float64 // the score of fixed

	b, pb  sites.Outcome // the direction its node took, and the candidate's own
	fn     int32         // index of its site's function, -1 for none
	ready  bool          // the fields below are set
	hs     [5]uint64     // its contexts (contexts)
	ctxHit uint8         // bit k: its (k+1)-context was handed out before (only grows)
	a      ahead         // the sites after pb (Reach)
	region bool          // pair(b) and the sites after it uncovered (only turns false)
	nearV  int           // targetV when near was computed, -1 never
	near   uint8         // the near-unreached bits
}

// ctxFilter is the number of words of the filter of each context cache:
// 2^16 bits, so that a context not handed out is seldom looked up.
const ctxFilter = 1 << 10

// staticMask selects the static features; the others are zero until
// the first candidate is handed out.
const staticMask Features = 1<<FFront - 1

// NewLearned returns the learned strategy with weights theta.
func NewLearned(theta []float64, in LearnedInput) (*Learned, error) {
	if len(theta) != NumFeatures {
		return nil, fmt.Errorf("explore: learned strategy: %d weights, want %d", len(theta), NumFeatures)
	}
	s := &Learned{
		static: in.Props, ahead: map[sites.Outcome]ahead{},
		byNode: map[*Node]*lcand{}, targets: map[uint32]uint8{},
		rng: rand.New(rand.NewPCG(uint64(in.Seed), 0x6c6561726e6564)),
	}
	copy(s.theta[:], theta)
	for _, w := range theta[FAfterLast:] {
		s.dynMax += max(w, 0)
	}
	if in.Static != nil {
		s.dom = in.Static.Dominates
		s.reach, _ = in.Static.(Reach)
	}
	for k := range s.ctx {
		s.ctx[k] = map[uint64]bool{}
		s.ctxMay[k] = new([ctxFilter]uint64)
	}
	fnOf := map[[2]string]int{}
	for _, st := range in.Sites {
		if !st.IsBranch() {
			continue
		}
		// A function is named by its file and name: methods of two
		// types may share a name, seldom a file.
		key := [2]string{st.Pos.Filename, st.Func}
		i, ok := fnOf[key]
		if !ok {
			i = len(s.funcs)
			fnOf[key] = i
			s.funcs = append(s.funcs, fnState{firstReached: -1, firstSite: st.ID})
		}
		s.fnOf = grow(s.fnOf, int(st.ID), -1)
		s.fnOf[st.ID] = int32(i)
		f := &s.funcs[i]
		f.branches++
		f.uncovered += 2
		f.firstSite = min(f.firstSite, st.ID)
	}
	sizes := make([]int, len(s.funcs))
	for i, f := range s.funcs {
		sizes[i] = f.branches
	}
	slices.Sort(sizes)
	slices.Reverse(sizes)
	for i, frac := range [3]float64{0.10, 0.20, 1.0 / 3} {
		if len(sizes) > 0 {
			k := int(frac*float64(len(sizes))+0.999999) - 1
			s.sizeT[i] = sizes[max(0, min(k, len(sizes)-1))]
		}
	}
	s.retarget()
	return s, nil
}

// grow returns xs extended to hold index i, new elements set to zero.
func grow[T any](xs []T, i int, zero T) []T {
	for len(xs) <= i {
		xs = append(xs, zero)
	}
	return xs
}

// at returns xs[i], 0 past its end.
func at(xs []int32, i int) int32 {
	if i < len(xs) {
		return xs[i]
	}
	return 0
}

// funcOf returns the index of site's function, -1 for none.
func (s *Learned) funcOf(site uint32) int32 {
	if int(site) < len(s.fnOf) {
		return s.fnOf[site]
	}
	return -1
}

// has reports whether outcome side of site was covered.
func (s *Learned) has(site uint32, side bool) bool {
	return int(site) < len(s.cov) && s.cov[site]&(1<<index(side)) != 0
}

// Update takes in what one event did: coverage, the functions reached,
// the attempts that failed, and the candidates the execution opened,
// whose path becomes the current one.
func (s *Learned) Update(fb Feedback) {
	if fb.Event == Ran || fb.Event == Lost {
		s.execs++
	}
	for _, h := range fb.Hits {
		if i := s.funcOf(h.Site); i >= 0 && s.funcs[i].firstReached < 0 {
			s.funcs[i].firstReached = s.execs
			s.reached++
		}
	}
	for site, bits := range fb.Fresh {
		for _, side := range [2]bool{false, true} {
			bit := uint8(1) << index(side)
			if bits&bit != 0 && !s.has(site, side) {
				s.cov = grow(s.cov, int(site), 0)
				s.cov[site] |= bit
				if i := s.funcOf(site); i >= 0 {
					s.funcs[i].uncovered--
				}
			}
		}
	}
	if o := fb.Origin; o != nil {
		reached := fb.Event == Ran && fb.Outcome.Reached
		s.lastOK = reached && !fb.Outcome.Diverged
		if !reached {
			x := int(sites.OutcomeOf(o.Node.Site, o.Side))
			s.unsat = grow(s.unsat, x, 0)
			s.unsat[x]++
		}
	}
	if fb.Event == Ran && fb.Outcome.Leaf != nil && fb.Outcome.Leaf != s.current {
		s.current, s.curOK = fb.Outcome.Leaf, false
	}
	news := fb.Outcome.NewCandidates
	if len(news) == 0 {
		return
	}
	s.curOK = false
	deepest := news[len(news)-1] // root first
	path := pathOf(deepest.Node, !deepest.Side)
	counts, lo, hi := dirCounts(path)
	for _, c := range news {
		b := pathDir{c.Node.Site, !c.Side}
		lc := &lcand{
			c:     c,
			fixed: s.static[b.site].features(b.taken) | pathFeatures(c.Depth(), b, path, counts, lo, hi, fb.Fresh),
			n:     len(path),
			b:     b.outcome(),
			pb:    sites.OutcomeOf(b.site, !b.taken),
			fn:    s.funcOf(b.site),
			nearV: -1,
		}
		lc.bound = lc.fixed.Score(&s.theta)
		s.byNode[c.Node] = lc
		s.pool = append(s.pool, lc)
	}
}

// Next hands out the open candidate of highest score, on the current
// path if it has any.
func (s *Learned) Next() (*Candidate, bool) {
	cands, n := s.onPath()
	if len(cands) == 0 {
		cands, n = s.openPool(), 0
	}
	if len(cands) == 0 {
		return nil, false
	}
	s.prepare()
	var best *lcand
	var bestScore float64
	var bestHeavy bool
	ties := 0
	for _, lc := range cands {
		heavy := at(s.unsat, int(lc.pb)) > 70
		if best != nil && s.selections > 0 && (heavy && !bestHeavy || heavy == bestHeavy && lc.bound+s.dynMax < bestScore-1e-9) {
			// It can neither win nor tie (which would draw from rng):
			// its fixed features and the best the others could add
			// fall short. (The margin covers the order of summation.)
			continue
		}
		sc := s.features(lc, n).Score(&s.theta)
		switch {
		case best == nil || heavy != bestHeavy && !heavy || heavy == bestHeavy && sc > bestScore:
			best, bestScore, bestHeavy, ties = lc, sc, heavy, 1
		case heavy == bestHeavy && sc == bestScore:
			// One of the equals, uniformly: the k-th replaces the
			// choice with probability 1/k.
			ties++
			if s.rng.IntN(ties) == 0 {
				best = lc
			}
		}
	}
	best.c.claim()
	s.selected(best)
	return best.c, true
}

// onPath returns the open candidates along the current path, deepest
// first, and the path's length. The candidates along the path are
// gathered once per path; each call keeps the open ones.
func (s *Learned) onPath() ([]*lcand, int) {
	if s.current == nil {
		return nil, 0
	}
	if !s.curOK {
		s.onCur = s.onCur[:0]
		for m := s.current; m != nil; m = m.parent {
			if lc := s.byNode[m]; lc != nil {
				s.onCur = append(s.onCur, lc)
			}
		}
		s.curOK = true
	}
	// A side handed out may be Open again (Backoff releases what it
	// puts aside): filter each time, keep the gathered list.
	s.open = s.open[:0]
	for _, lc := range s.onCur {
		if lc.c.State() == Open {
			s.open = append(s.open, lc)
		}
	}
	return s.open, s.current.Depth + 1
}

// openPool returns every open candidate, dropping from the pool those
// that are not Open any more (a Pending one was handed out: whoever holds
// it, as Backoff does, hands it back to the tree).
func (s *Learned) openPool() []*lcand {
	keep := s.pool[:0]
	for _, lc := range s.pool {
		if lc.c.State() == Open {
			keep = append(keep, lc)
		}
	}
	clear(s.pool[len(keep):])
	s.pool = keep
	return s.pool
}

// prepare computes the per-Next state of the function features: the
// largest number of uncovered outcomes, and the targets when a function
// was reached since they were last computed.
func (s *Learned) prepare() {
	s.maxUnc = 0
	for _, f := range s.funcs {
		if f.firstReached >= 0 {
			s.maxUnc = max(s.maxUnc, f.uncovered)
		}
	}
	if s.reach != nil && s.targetsAt != s.reached {
		s.retarget()
	}
}

// retarget computes the targets of the near-unreached features: the
// first sites of the functions not reached yet.
func (s *Learned) retarget() {
	s.targetsAt = s.reached
	s.targetV++
	clear(s.targets)
	for _, f := range s.funcs {
		if f.firstReached >= 0 {
			continue
		}
		var bits uint8
		for i, t := range s.sizeT {
			if f.branches >= t {
				bits |= 1 << i
			}
		}
		if f.branches >= 10 {
			bits |= 1 << 3
		}
		if bits != 0 {
			s.targets[f.firstSite] |= bits
		}
	}
}

// ready computes once what lc's dynamic features need of the path and
// the graph: its contexts, and the sites after its side.
func (s *Learned) ready(lc *lcand) {
	if lc.ready {
		return
	}
	lc.ready = true
	lc.hs = contexts(lc.c.Node, !lc.c.Side, s.dom)
	if s.reach != nil {
		lc.a = s.within(lc.pb)
		lc.region = true
	}
}

// features returns lc's feature vector; n is the length of the path it
// is scored on (0: the one that opened it).
func (s *Learned) features(lc *lcand, n int) Features {
	if s.selections == 0 {
		return lc.fixed & staticMask
	}
	if n == 0 {
		n = lc.n
	}
	s.ready(lc)
	f := lc.fixed
	c := lc.c
	d := c.Depth()

	f.set(FAfterLast, s.lastOK && d >= s.lastDepth)
	// A context once handed out stays so: look up only the others, and
	// those only when the filter does not rule them out.
	for k, h := range lc.hs {
		if lc.ctxHit&(1<<k) == 0 && s.ctxMay[k][h>>6%ctxFilter]&(1<<(h&63)) != 0 && s.ctx[k][h] {
			lc.ctxHit |= 1 << k
		}
	}
	f |= Features(lc.ctxHit) << FContext1
	sd, sb := at(s.selDepth, d), at(s.selDir, int(lc.b))
	for i, k := range [3]int32{10, 20, 30} {
		f.set(FSelected10+i, sd > k && sb > k)
	}
	f.set(FNearLast, 5*abs(d-s.lastDepth) <= n)
	f.set(FTargetUnsat, at(s.unsat, int(lc.b)) > 10)
	f.set(FFlipUnsat, at(s.unsat, int(lc.pb)) > 10)
	opp := !s.has(c.Node.Site, c.Side)
	f.set(FOppUncovered, opp)
	if s.reach != nil {
		// Coverage only grows: a region once covered stays so.
		if lc.region {
			region := opp
			for _, id := range lc.a.one {
				region = region && (int(id) >= len(s.cov) || s.cov[id] == 0)
			}
			lc.region = region
		}
		f.set(FRegionUncovered, lc.region)
		if lc.nearV != s.targetV {
			near := s.targets[c.Node.Site]
			for _, id := range lc.a.two {
				near |= s.targets[id]
			}
			lc.near, lc.nearV = near, s.targetV
		}
		f |= Features(lc.near&0xf) << FNearUnreached10
	}
	if last := at(s.lastSel, int(lc.b)); last > 0 {
		i := s.selections - int(last) // how many selections ago
		f.set(FRecent10, i < 10)
		f.set(FRecent20, i < 20)
		f.set(FRecent30, i < 30)
	}
	if lc.fn >= 0 {
		fn := s.funcs[lc.fn]
		f.set(FMostUncovered, fn.firstReached >= 0 && s.maxUnc > 0 && fn.uncovered == s.maxUnc)
		f.set(FLatestFunc, fn.firstReached >= 0 && s.execs-fn.firstReached < 10 && fn.branches >= 10)
	}
	return f
}

// selected records that lc was handed out.
func (s *Learned) selected(lc *lcand) {
	s.ready(lc)
	d := lc.c.Depth()
	s.selections++
	s.lastSel = grow(s.lastSel, int(lc.b), 0)
	s.lastSel[lc.b] = int32(s.selections)
	s.selDepth = grow(s.selDepth, d, 0)
	s.selDepth[d]++
	s.selDir = grow(s.selDir, int(lc.b), 0)
	s.selDir[lc.b]++
	for k, h := range lc.hs {
		s.ctx[k][h] = true
		s.ctxMay[k][h>>6%ctxFilter] |= 1 << (h & 63)
	}
	s.lastDepth = d
}

// ahead holds the sites of the first layer of the branch graph after an
// outcome (one), and of the first two (two).
type ahead struct{ one, two []uint32 }

// within returns the sites one and at most two branches beyond outcome
// o, from the graph once per outcome.
func (s *Learned) within(o sites.Outcome) ahead {
	if a, ok := s.ahead[o]; ok {
		return a
	}
	var a ahead
	for id, d := range s.reach.From(o.Site(), o.Taken()) {
		if id == o.Site() {
			continue // the site's own entry (a loop's guard reached again)
		}
		if d == 1 {
			a.one = append(a.one, id)
		}
		if d <= 2 {
			a.two = append(a.two, id)
		}
	}
	slices.Sort(a.one)
	slices.Sort(a.two)
	s.ahead[o] = a
	return a
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Len returns the number of open candidates queued.
func (s *Learned) Len() int { return len(s.openPool()) }

func (s *Learned) String() string { return "learned" }
