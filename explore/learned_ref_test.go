package explore

// The learned strategy as it was before its scoring was made incremental
// (learned.go): it recomputes every feature of every candidate in each
// Next. TestLearnedMatchesReference holds the optimised one to the same
// choices.

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gocolic/gocolic/sites"
)

type refLearned struct {
	theta  [NumFeatures]float64
	static map[uint32]SiteProps
	dom    func(d, b uint32) bool  // nil without a graph
	reach  Reach                   // nil without one
	ahead  map[sites.Outcome]ahead // per outcome, the sites one and two branches on (Reach)
	rng    *rand.Rand

	byNode  map[*Node]*refCand
	pool    []*refCand
	current *Node // deepest node of the current path

	covered sites.Coverage
	unsat   map[sites.Outcome]int // failed attempts to reach each direction
	execs   int

	selections int
	selDepth   map[int]int
	selDir     map[sites.Outcome]int
	recent     [30]sites.Outcome // ring of the directions handed out
	ctx        [5]map[uint64]bool
	lastDepth  int
	lastOK     bool // the last answered attempt reached its candidate as predicted

	siteFn  map[uint32]int
	funcs   []refFn
	maxUnc  int              // most uncovered outcomes of a reached function (per Next)
	targets map[uint32]uint8 // first sites of unreached functions: bit i for FNearUnreached10+i (per Next)
	sizeT   [3]int           // branch-site thresholds of the largest 10%, 20%, 33% of functions
}

type refCand struct {
	c     *Candidate
	fixed Features
	n     int
}

func newRefLearned(theta []float64, in LearnedInput) (*refLearned, error) {
	if len(theta) != NumFeatures {
		return nil, fmt.Errorf("explore: learned strategy: %d weights, want %d", len(theta), NumFeatures)
	}
	s := &refLearned{
		static: in.Props, ahead: map[sites.Outcome]ahead{},
		byNode: map[*Node]*refCand{}, covered: sites.Coverage{}, unsat: map[sites.Outcome]int{},
		selDepth: map[int]int{}, selDir: map[sites.Outcome]int{},
		siteFn: map[uint32]int{}, targets: map[uint32]uint8{},
		rng: rand.New(rand.NewPCG(uint64(in.Seed), 0x6c6561726e6564)),
	}
	copy(s.theta[:], theta)
	if in.Static != nil {
		s.dom = in.Static.Dominates
		s.reach, _ = in.Static.(Reach)
	}
	for k := range s.ctx {
		s.ctx[k] = map[uint64]bool{}
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
			s.funcs = append(s.funcs, refFn{firstReached: -1, firstSite: st.ID})
		}
		s.siteFn[st.ID] = i
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
	return s, nil
}

// Update takes in what one event did: coverage, the functions reached,
// the attempts that failed, and the candidates the execution opened,
// whose path becomes the current one.
func (s *refLearned) Update(fb Feedback) {
	if fb.Event == Ran || fb.Event == Lost {
		s.execs++
	}
	for _, h := range fb.Hits {
		if i, ok := s.siteFn[h.Site]; ok && s.funcs[i].firstReached < 0 {
			s.funcs[i].firstReached = s.execs
		}
	}
	for site, bits := range fb.Fresh {
		for _, side := range [2]bool{false, true} {
			if bits&(1<<index(side)) != 0 && s.covered.Add(site, side) {
				if i, ok := s.siteFn[site]; ok {
					s.funcs[i].uncovered--
				}
			}
		}
	}
	if o := fb.Origin; o != nil {
		reached := fb.Event == Ran && fb.Outcome.Reached
		s.lastOK = reached && !fb.Outcome.Diverged
		if !reached {
			s.unsat[sites.OutcomeOf(o.Node.Site, o.Side)]++
		}
	}
	if fb.Event == Ran && fb.Outcome.Leaf != nil {
		s.current = fb.Outcome.Leaf
	}
	news := fb.Outcome.NewCandidates
	if len(news) == 0 {
		return
	}
	deepest := news[len(news)-1] // root first
	path := pathOf(deepest.Node, !deepest.Side)
	counts, lo, hi := dirCounts(path)
	for _, c := range news {
		b := pathDir{c.Node.Site, !c.Side}
		lc := &refCand{
			c:     c,
			fixed: s.static[b.site].features(b.taken) | pathFeatures(c.Depth(), b, path, counts, lo, hi, fb.Fresh),
			n:     len(path),
		}
		s.byNode[c.Node] = lc
		s.pool = append(s.pool, lc)
	}
}

// Next hands out the open candidate of highest score, on the current
// path if it has any.
func (s *refLearned) Next() (*Candidate, bool) {
	cands, n := s.onPath()
	if len(cands) == 0 {
		cands, n = s.openPool(), 0
	}
	if len(cands) == 0 {
		return nil, false
	}
	s.prepare()
	var best *refCand
	var bestScore float64
	var bestHeavy bool
	ties := 0
	for _, lc := range cands {
		sc := s.features(lc, n).Score(&s.theta)
		heavy := s.unsat[sites.OutcomeOf(lc.c.Node.Site, lc.c.Side)] > 70
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

// onPath returns the open candidates along the current path, and the
// path's length.
func (s *refLearned) onPath() ([]*refCand, int) {
	if s.current == nil {
		return nil, 0
	}
	var out []*refCand
	for m := s.current; m != nil; m = m.parent {
		if lc := s.byNode[m]; lc != nil && lc.c.State() == Open {
			out = append(out, lc)
		}
	}
	return out, s.current.Depth + 1
}

// openPool returns every open candidate, dropping from the pool those
// that are not Open any more (a Pending one was handed out: whoever holds
// it, as Backoff does, hands it back to the tree).
func (s *refLearned) openPool() []*refCand {
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

// prepare computes the per-Next state of the function features.
func (s *refLearned) prepare() {
	s.maxUnc = 0
	for _, f := range s.funcs {
		if f.firstReached >= 0 {
			s.maxUnc = max(s.maxUnc, f.uncovered)
		}
	}
	if s.reach == nil {
		return
	}
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

// features returns lc's feature vector; n is the length of the path it
// is scored on (0: the one that opened it).
func (s *refLearned) features(lc *refCand, n int) Features {
	if s.selections == 0 {
		return lc.fixed & staticMask
	}
	if n == 0 {
		n = lc.n
	}
	f := lc.fixed
	c := lc.c
	d := c.Depth()
	site := c.Node.Site
	b := sites.OutcomeOf(site, !c.Side)
	pb := sites.OutcomeOf(site, c.Side)

	f.set(FAfterLast, s.lastOK && d >= s.lastDepth)
	hs := contexts(c.Node, !c.Side, s.dom)
	for k := range hs {
		f.set(FContext1+k, s.ctx[k][hs[k]])
	}
	for i, k := range [3]int{10, 20, 30} {
		f.set(FSelected10+i, s.selDepth[d] > k && s.selDir[b] > k)
	}
	f.set(FNearLast, 5*abs(d-s.lastDepth) <= n)
	f.set(FTargetUnsat, s.unsat[b] > 10)
	f.set(FFlipUnsat, s.unsat[pb] > 10)
	opp := !s.covered.Has(site, c.Side)
	f.set(FOppUncovered, opp)
	if s.reach != nil {
		region := opp
		near := s.targets[site]
		a := s.refWithin(pb)
		for _, id := range a.two {
			near |= s.targets[id]
		}
		for _, id := range a.one {
			region = region && s.covered[id] == 0
		}
		f.set(FRegionUncovered, region)
		for i := range 4 {
			f.set(FNearUnreached10+i, near&(1<<i) != 0)
		}
	}
	last := min(s.selections, len(s.recent))
	for i := range last {
		if s.recent[(s.selections-1-i)%len(s.recent)] == b {
			f.set(FRecent10, i < 10)
			f.set(FRecent20, i < 20)
			f.set(FRecent30, true)
			break
		}
	}
	if i, ok := s.siteFn[site]; ok {
		fn := s.funcs[i]
		f.set(FMostUncovered, fn.firstReached >= 0 && s.maxUnc > 0 && fn.uncovered == s.maxUnc)
		f.set(FLatestFunc, fn.firstReached >= 0 && s.execs-fn.firstReached < 10 && fn.branches >= 10)
	}
	return f
}

// selected records that lc was handed out.
func (s *refLearned) selected(lc *refCand) {
	c := lc.c
	b := sites.OutcomeOf(c.Node.Site, !c.Side)
	s.recent[s.selections%len(s.recent)] = b
	s.selections++
	s.selDepth[c.Depth()]++
	s.selDir[b]++
	hs := contexts(c.Node, !c.Side, s.dom)
	for k := range hs {
		s.ctx[k][hs[k]] = true
	}
	s.lastDepth = c.Depth()
}

// refWithin is Learned.within, on the reference's cache.
func (s *refLearned) refWithin(o sites.Outcome) ahead {
	if a, ok := s.ahead[o]; ok {
		return a
	}
	var a ahead
	for id, d := range s.reach.From(o.Site(), o.Taken()) {
		if id == o.Site() {
			continue
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

// Len returns the number of open candidates queued.
func (s *refLearned) Len() int { return len(s.openPool()) }

func (s *refLearned) String() string { return "learned (reference)" }

type refFn struct {
	branches, uncovered int
	firstReached        int
	firstSite           uint32
}
