package explore

import (
	"fmt"
	"math"
	"math/bits"
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
// Next scores the candidates it cannot rule out, so that work is kept
// small: what does not change for a candidate (its contexts, the sites
// after it) is computed once, what only ever turns one way (a context
// handed out, a region covered) is cached in the candidate, and counters
// are read from slices. Each candidate has a bound on its rank from now
// on (rank: the features that cannot change any more as they are, the
// others at their positive weights, all but the moving ones, which Next
// adds per candidate); a max tree over the pool (maxTree) finds, in pool
// order, only the candidates whose bound reaches the best so far, so the
// choice and the draws among equals are those of a scan of every
// candidate. TestLearnedMatchesReference holds it to the straightforward
// computation, choice for choice, and TestLearnedBoundsHold the bounds
// to the scores.
type Learned struct {
	theta  [NumFeatures]float64
	dynMax float64 // the sum of the positive weights of the features over the search but the moving ones
	static map[uint32]SiteProps
	dom    func(d, b uint32) bool  // nil without a graph
	reach  Reach                   // nil without one
	ahead  map[sites.Outcome]ahead // per outcome, the sites one and two branches on (Reach)
	rng    *rand.Rand

	byNode  map[*Node]*lcand
	pool    []*lcand // in the order opened; slot i's bound in keys, its place in slots
	keys    maxTree  // each pooled candidate's bound (rank), with the recent features of a hot direction (leaf)
	slots   []slot
	byDir   [][]int32            // by direction: the slots of its candidates, in order
	keyBuf  []bound              // compact's
	dead    int                  // slots of pool whose candidate left Open (bound gone)
	posW    [NumFeatures]float64 // max(θ_i, 0)
	margin  float64              // what sums of weights in another order may differ by
	current *Node                // deepest node of the current path
	onCur   []*lcand             // the candidates along current, deepest first
	curOK   bool                 // onCur is current's (false: gather it again)
	open    []*lcand             // the open ones of onCur (per Next)

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
	d     int32   // its depth
	bound float64 // the score of fixed
	slot  int     // its index in pool, -1 when dropped from it
	key   bound   // its rank from now on is at most this and the moving features (rank)

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

// slot is what a pooled candidate's moving features depend on, beside
// the pool, so that a scan reads them from one array.
type slot struct {
	key  bound         // the candidate's key
	d, n int32         // its depth, and the length of the path that opened it
	b    sites.Outcome // the direction its node took
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
	for i, w := range theta[FAfterLast:] {
		if moving&(1<<(FAfterLast+i)) == 0 {
			s.dynMax += max(w, 0)
		}
	}
	sum := 0.0
	for i, w := range theta {
		s.posW[i] = max(w, 0)
		sum += math.Abs(w)
	}
	// Two sums of the same weights in different orders differ by far
	// less than this; bounds are compared with it to spare, so that a
	// candidate that ties is never skipped.
	s.margin = 1e-9 * (1 + sum)
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
			d:     int32(c.Depth()),
			b:     b.outcome(),
			pb:    sites.OutcomeOf(b.site, !b.taken),
			fn:    s.funcOf(b.site),
			nearV: -1,
		}
		lc.bound = lc.fixed.Score(&s.theta)
		lc.key = bound{class: 1, score: lc.bound + s.dynMax}
		lc.slot = len(s.pool)
		s.byNode[c.Node] = lc
		s.pool = append(s.pool, lc)
		s.keys.push(s.leaf(lc.key, lc.b))
		s.slots = append(s.slots, slot{key: lc.key, d: int32(c.Depth()), n: int32(lc.n), b: lc.b})
		s.byDir = grow(s.byDir, int(lc.b), nil)
		s.byDir[lc.b] = append(s.byDir[lc.b], int32(lc.slot))
	}
}

// Next hands out the open candidate of highest score, on the current
// path if it has any.
func (s *Learned) Next() (*Candidate, bool) {
	s.prepare()
	var ch choice
	if cands, n := s.onPath(); len(cands) > 0 {
		for _, lc := range cands {
			if s.selections == 0 || !s.bounded(lc.key, lc.d, int32(n), lc.b).less(s.threshold(&ch)) {
				s.consider(&ch, lc, n)
			}
		}
	} else {
		s.fromPool(&ch)
	}
	if ch.best == nil {
		return nil, false
	}
	ch.best.c.claim()
	s.selected(ch.best)
	return ch.best.c, true
}

// choice is the candidate of highest rank among those considered so far
// by one Next.
type choice struct {
	best  *lcand
	score float64
	heavy bool // its side failed to be reached more than 70 times
	ties  int  // candidates of its rank and score so far
}

// threshold returns the least bound of a candidate that may still win or
// tie with ch (the one that would draw from rng): the others are skipped.
// Before the first selection the bounds do not hold (the dynamic features
// are all 0, whatever the weights of the features fixed at opening), and
// nothing is skipped.
func (s *Learned) threshold(ch *choice) bound {
	if ch.best == nil || s.selections == 0 {
		return bound{class: 0, score: math.Inf(-1)}
	}
	if ch.heavy {
		return bound{class: 0, score: ch.score - s.margin}
	}
	return bound{class: 1, score: ch.score - s.margin}
}

// consider scores lc, makes it ch's candidate if it ranks higher, and
// draws among equals; n is the length of the path it is scored on (0:
// the one that opened it).
func (s *Learned) consider(ch *choice, lc *lcand, n int) {
	heavy := at(s.unsat, int(lc.pb)) > 70
	f := s.features(lc, n)
	sc := f.Score(&s.theta)
	if s.selections > 0 {
		s.rank(lc, f, heavy)
	}
	switch {
	case ch.best == nil || heavy != ch.heavy && !heavy || heavy == ch.heavy && sc > ch.score:
		ch.best, ch.score, ch.heavy, ch.ties = lc, sc, heavy, 1
	case heavy == ch.heavy && sc == ch.score:
		// One of the equals, uniformly: the k-th replaces the choice
		// with probability 1/k.
		ch.ties++
		if s.rng.IntN(ch.ties) == 0 {
			ch.best = lc
		}
	}
}

// fromPool considers the open candidates of the whole pool, in the
// order they were opened, as a scan of all of them would, but visits
// only those whose bound reaches the threshold: the others can neither
// win nor tie, so skipping them changes neither the choice nor the draws
// from rng. A candidate found not Open any more is dropped, as openPool
// drops it: it does not come back (only Backoff hands a side back to
// Open, right after Next handed it out, before any other Next).
func (s *Learned) fromPool(ch *choice) {
	if s.dead > 64 && 2*s.dead > len(s.pool) {
		s.compact()
	}
	// The tree finds the candidates whose bound and the most the moving
	// features add reach the threshold; of those, the ones whose bound
	// and their own moving features do are scored.
	most := s.posW[FNearLast]
	if s.lastOK {
		most += s.posW[FAfterLast]
	}
	for i := 0; ; i++ {
		thr := s.threshold(ch)
		coarse := thr
		if s.selections > 0 {
			coarse.score -= most
		}
		if i = s.keys.next(i, coarse); i < 0 {
			return
		}
		if s.selections > 0 {
			sl := &s.slots[i]
			if s.bounded(sl.key, sl.d, sl.n, sl.b).less(thr) {
				if l := s.leaf(sl.key, sl.b); l != s.keys.at(i) && s.keys.at(i).class >= 0 {
					s.keys.set(i, l) // its direction cooled down since
				}
				continue
			}
		}
		lc := s.pool[i]
		if lc.c.State() != Open {
			s.keys.set(i, gone)
			s.dead++
			continue
		}
		s.consider(ch, lc, 0)
	}
}

// moving are the features that change with each selection for many
// candidates at once: those of the depth and direction of the last ones
// handed out. Bounds leave them out; Next adds them per candidate, from
// its depth, path length and direction (bounded).
const moving Features = 1<<FAfterLast | 1<<FNearLast | 1<<FRecent10 | 1<<FRecent20 | 1<<FRecent30

// bounded returns key raised by the positive weights of the moving
// features that a candidate at depth d of direction b, scored on a path
// of n branches, has now.
func (s *Learned) bounded(key bound, d, n int32, b sites.Outcome) bound {
	if s.lastOK && int(d) >= s.lastDepth {
		key.score += s.posW[FAfterLast]
	}
	if 5*abs(int(d)-s.lastDepth) <= int(n) {
		key.score += s.posW[FNearLast]
	}
	key.score += s.recent(b)
	return key
}

// hot reports whether direction b was handed out within the last 30
// selections: its candidates may have recent features.
func (s *Learned) hot(b sites.Outcome) bool {
	last := at(s.lastSel, int(b))
	return last > 0 && s.selections-int(last) < 30
}

// leaf returns the bound the tree holds for a candidate of key and
// direction b: with the weights of all recent features while b is hot.
// Those only fade until b is handed out again, so the tree's bounds stay
// above the candidates' ranks while b stays hot; when b turns hot again,
// selected raises the bounds of its candidates, and a scan lowers those
// of a direction that cooled down as it comes across them.
func (s *Learned) leaf(key bound, b sites.Outcome) bound {
	if s.hot(b) {
		key.score += s.posW[FRecent10] + s.posW[FRecent20] + s.posW[FRecent30]
	}
	return key
}

// recent returns the positive weights of the recent features that
// candidates of direction b have now.
func (s *Learned) recent(b sites.Outcome) float64 {
	last := at(s.lastSel, int(b))
	if last == 0 {
		return 0
	}
	switch i := s.selections - int(last); {
	case i < 10:
		return s.posW[FRecent10] + s.posW[FRecent20] + s.posW[FRecent30]
	case i < 20:
		return s.posW[FRecent20] + s.posW[FRecent30]
	case i < 30:
		return s.posW[FRecent30]
	}
	return 0
}

// The dynamic features by how they change as the search goes on.
const (
	// onOnly are the features that never turn off once on: contexts
	// handed out, counts of selections and failures above a threshold.
	onOnly Features = 0x1f<<FContext1 | 1<<FSelected10 | 1<<FSelected20 | 1<<FSelected30 |
		1<<FTargetUnsat | 1<<FFlipUnsat
	// offOnly are those that never turn on again once off: coverage only
	// grows, and functions once reached stay so.
	offOnly Features = 1<<FOppUncovered | 1<<FRegionUncovered | 0xf<<FNearUnreached10
	// dynamic are all the features over the search.
	dynamic Features = (1<<NumFeatures - 1) &^ (1<<FAfterLast - 1)
)

// rank sets lc's bound from its features f now (heavy: its side failed
// more than 70 times): the features that cannot change any more count
// as they are, every other one with its weight if positive. The bound
// holds for every later Next, as failures only grow, so it only ever
// goes down.
func (s *Learned) rank(lc *lcand, f Features, heavy bool) {
	settled := f&onOnly | ^f&offOnly
	if lc.fn < 0 {
		settled |= 1<<FMostUncovered | 1<<FLatestFunc
	} else if fn := s.funcs[lc.fn]; fn.branches < 10 || fn.firstReached >= 0 && s.execs-fn.firstReached >= 10 {
		settled |= 1 << FLatestFunc // executions only go on
	}
	key := bound{class: 1, score: (lc.fixed | f&onOnly).Score(&s.theta)}
	if heavy {
		key.class = 0
	}
	for free := dynamic &^ settled &^ moving; free != 0; free &= free - 1 {
		key.score += s.posW[bits.TrailingZeros64(uint64(free))]
	}
	lc.key = key
	if lc.slot >= 0 {
		s.slots[lc.slot].key = key
		if l := s.leaf(key, lc.b); l != s.keys.at(lc.slot) {
			s.keys.set(lc.slot, l)
		}
	}
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
	s.compact()
	return s.pool
}

// compact drops from the pool the candidates that are not Open any more
// and lays out the bounds of the others again.
func (s *Learned) compact() {
	keep := s.pool[:0]
	s.keyBuf = s.keyBuf[:0]
	slots := s.slots[:0]
	for i := range s.byDir {
		s.byDir[i] = s.byDir[i][:0]
	}
	for i, lc := range s.pool {
		if lc.c.State() == Open {
			lc.slot = len(keep)
			keep = append(keep, lc)
			slots = append(slots, s.slots[i])
			s.keyBuf = append(s.keyBuf, s.leaf(lc.key, lc.b))
			s.byDir[lc.b] = append(s.byDir[lc.b], int32(lc.slot))
		} else {
			lc.slot = -1
		}
	}
	clear(s.pool[len(keep):])
	s.pool, s.slots = keep, slots
	s.dead = 0
	s.keys.reset(s.keyBuf)
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
	wasHot := s.hot(lc.b)
	s.selections++
	s.lastSel = grow(s.lastSel, int(lc.b), 0)
	s.lastSel[lc.b] = int32(s.selections)
	if !wasHot && s.posW[FRecent10]+s.posW[FRecent20]+s.posW[FRecent30] > 0 {
		// b turns hot: its candidates' bounds take in the recent
		// features.
		for _, i := range s.byDir[lc.b] {
			if l := s.keys.at(int(i)); l.class >= 0 {
				s.keys.set(int(i), s.leaf(s.slots[i].key, lc.b))
			}
		}
	}
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
