package explore

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"testing"

	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// The simulated program of the learned strategy's equivalence test and
// benchmark: an interpreter's loop. Site 1 is the loop guard; each
// iteration reads a token through a chain of case sites 2..9 and runs
// the handler of the token, one of functions h0..h7 of 20 sites each
// (sites 20+20k ..), which may call the helper (sites 200..219); the
// path ends with a check in function tail (sites 250..259).
const (
	simGuard  = 1
	simHelper = 200
	simTail   = 250
	simSites  = 260
)

// simTable returns the site table of the simulated program.
func simTable() []sites.Site {
	var table []sites.Site
	for id := uint32(1); id < simSites; id++ {
		fn := "main"
		switch {
		case id >= simTail:
			fn = "tail"
		case id >= simHelper:
			fn = "helper"
		case id >= 20 && id < 180:
			fn = fmt.Sprint("h", (id-20)/20)
		case id >= 20:
			continue // no sites 180..199
		}
		table = append(table, sites.Site{ID: id, Kind: sites.Cond, Func: fn})
	}
	return table
}

// simProps gives the sites varied static properties.
func simProps() map[uint32]SiteProps {
	r := rand.New(rand.NewPCG(7, 7))
	props := map[uint32]SiteProps{simGuard: SLoopGuard | SInLoop}
	for id := uint32(2); id < simSites; id++ {
		props[id] = SiteProps(r.IntN(1<<10)) &^ SLoopGuard
		if id <= 9 {
			props[id] |= SCase | SInLoop
		}
	}
	return props
}

// simGraph is the simulated program's static graph: within a function a
// site dominates the later ones whose distance is not a multiple of 3,
// and each outcome leads to the next sites of its function and to a
// handler's first site.
type simGraph struct{ dom map[[2]uint32]bool }

func newSimGraph() *simGraph {
	g := &simGraph{dom: map[[2]uint32]bool{}}
	fn := map[uint32]string{}
	for _, st := range simTable() {
		fn[st.ID] = st.Func
	}
	for d := uint32(1); d < simSites; d++ {
		for b := d + 1; b < simSites; b++ {
			if fn[d] != "" && fn[d] == fn[b] && (b-d)%3 != 0 {
				g.dom[[2]uint32{d, b}] = true
			}
		}
	}
	return g
}

func (g *simGraph) Distance(uint32, bool) int  { return Far }
func (g *simGraph) Cover(sites.Coverage)       {}
func (g *simGraph) Dominates(d, b uint32) bool { return g.dom[[2]uint32{d, b}] }
func (g *simGraph) From(site uint32, taken bool) map[uint32]int {
	out := map[uint32]int{site + 1: 1, site + 3: 2}
	if taken {
		out[site+2] = 1
		out[20+20*((site+1)%8)] = 2
	}
	return out
}

// simTokens appends the branches of tokens more iterations of the loop
// and the end of the run, as r draws them.
func simTokens(p []Branch, b *sym.Builder, r *rand.Rand, tokens int) []Branch {
	add := func(site uint32, taken bool) {
		p = append(p, Branch{Site: site, Taken: taken, Cond: cond(b, site)})
	}
	for range tokens {
		add(simGuard, true)
		k := uint32(r.IntN(9)) // 8: no case matched
		for c := uint32(0); c < 8 && c <= k; c++ {
			add(2+c, c == k)
		}
		if k == 8 {
			continue
		}
		for range 2 + r.IntN(9) {
			add(20+20*k+uint32(r.IntN(20)), r.IntN(2) == 0)
		}
		if r.IntN(3) == 0 {
			for range 1 + r.IntN(4) {
				add(simHelper+uint32(r.IntN(20)), r.IntN(2) == 0)
			}
		}
	}
	add(simGuard, false)
	for range 1 + r.IntN(4) {
		add(simTail+uint32(r.IntN(10)), r.IntN(2) == 0)
	}
	return p
}

// simWorld is one strategy searching the simulated program.
type simWorld struct {
	b       *sym.Builder
	tr      *Tree
	s       Strategy
	covered sites.Coverage
	tokens  int // tokens of a fresh path
	step    int
}

func newSimWorld(s Strategy, tokens int) *simWorld {
	b := sym.NewBuilder()
	return &simWorld{b: b, tr: NewTree(b, Options{}), s: s, covered: sites.Coverage{}, tokens: tokens}
}

// run records path p, an execution meant to reach origin, and tells the
// strategy.
func (w *simWorld) run(p []Branch, origin *Candidate) {
	fb := Feedback{Event: Ran, Origin: origin, Outcome: w.tr.Record(p, sym.Env{}, origin), Fresh: sites.Coverage{}}
	for _, br := range p {
		fb.Hits = append(fb.Hits, Hit{Site: br.Site, Side: br.Taken, Count: 1})
		if w.covered.Add(br.Site, br.Taken) {
			fb.Fresh.Add(br.Site, br.Taken)
		}
	}
	w.s.Update(fb)
}

// key names a candidate by its site, depth, side and prediction: the
// same in two trees built from the same executions.
func key(c *Candidate) string { return describe(c) }

// step asks the strategy for a candidate and answers it: refuted,
// unsolved, lost, diverged (the execution repeats a known path through
// the node) or reached, as a hash of the candidate and the step decides;
// the path of an execution that reaches a candidate goes on as a hash of
// its prefix decides. Without a candidate it runs a fresh input. It
// returns the candidate's key ("" for none).
func (w *simWorld) stepOnce() string {
	w.step++
	c, ok := w.s.Next()
	if !ok {
		w.run(simTokens(nil, w.b, rand.New(rand.NewPCG(uint64(w.step), 3)), w.tokens), nil)
		return ""
	}
	k := key(c)
	h := fnv.New64a()
	h.Write([]byte(k))
	r := rand.New(rand.NewPCG(h.Sum64(), uint64(w.step)))
	hard := c.Node.Site%13 == 0 // its other side is never reached
	switch x := r.IntN(100); {
	case hard || x < 6:
		w.tr.Resolve(c, solver.Unsat)
		w.s.Update(Feedback{Event: Refuted, Origin: c})
	case x < 10:
		w.tr.Resolve(c, solver.Unknown)
		w.s.Update(Feedback{Event: Unsolved, Origin: c})
	case x < 13:
		w.tr.Resolve(c, solver.Unknown)
		w.s.Update(Feedback{Event: Lost, Origin: c})
	case x < 25:
		// The execution takes the node's known side and goes on along
		// the tree, as an earlier one did.
		p := w.prefix(c)
		p[len(p)-1].Taken = !c.Side
		for m := c.Node.Child(!c.Side); m != nil; {
			side := m.State(true) == Covered
			p = append(p, Branch{Site: m.Site, Taken: side, Cond: m.Cond})
			m = m.Child(side)
		}
		w.run(p, c)
	default:
		ph := fnv.New64a()
		ph.Write([]byte(k))
		w.run(simTokens(w.prefix(c), w.b, rand.New(rand.NewPCG(ph.Sum64(), 5)), 1+r.IntN(w.tokens)), c)
	}
	return k
}

// prefix returns the branches of a path that reaches c, c's own last.
func (w *simWorld) prefix(c *Candidate) []Branch {
	var p []Branch
	bits := c.Expect.Bools()
	for i, n := range c.Node.Path() {
		p = append(p, Branch{Site: n.Site, Taken: bits[i], Cond: n.Cond})
	}
	return p
}

// simTheta returns weights for the equivalence test: small integers, so
// that candidates tie often and the choice among equals is exercised,
// or draws from [-10, 10].
func simTheta(seed uint64, ints bool) []float64 {
	r := rand.New(rand.NewPCG(seed, 11))
	theta := make([]float64, NumFeatures)
	for i := range theta {
		if ints {
			theta[i] = float64(r.IntN(5) - 2)
		} else {
			theta[i] = 20*r.Float64() - 10
		}
	}
	return theta
}

// TestLearnedMatchesReference holds Learned to the straightforward
// scoring it replaced (refLearned, which recomputes every feature of
// every candidate in each Next): over a simulated search of 1000 events
// with refutations, failures, lost and diverged executions, both get the
// same events, and must hand out the same candidates in the same order
// and give every open candidate the same features (every 100 events).
// Choices among the whole pool (the current path has nothing open),
// where Learned skips candidates by their bounds, must be among them;
// behind Backoff, as the coordinator runs it, candidates handed out and
// put aside come back Open and are chosen again.
func TestLearnedMatchesReference(t *testing.T) {
	tests := []struct {
		name      string
		seed      int64
		ints      bool
		static    bool
		fixedOnly bool     // weights on the features fixed at opening only: bounds are exact, ties everywhere
		backoff   bool     // both behind Backoff
		depth     int      // the tree's MaxDepth: short paths run out of open candidates, and Next chooses among the whole pool
		only      Features // if not 0, the features that keep their weights (the others 0)
	}{
		{name: "ties, graph", seed: 1, ints: true, static: true},
		{name: "ties, no graph", seed: 2, ints: true},
		{name: "real weights, graph", seed: 3, static: true},
		{name: "real weights, no graph", seed: 4},
		{name: "fixed features only", seed: 5, ints: true, static: true, fixedOnly: true},
		{name: "pool, ties, graph", seed: 6, ints: true, static: true, depth: 20},
		{name: "pool, real weights, graph", seed: 7, static: true, depth: 20},
		{name: "pool, real weights, no graph", seed: 8, depth: 20},
		{name: "pool, fixed features only", seed: 9, ints: true, static: true, fixedOnly: true, depth: 20},
		{name: "pool, backoff, ties, graph", seed: 10, ints: true, static: true, backoff: true, depth: 20},
		{name: "pool, backoff, real weights", seed: 11, static: true, backoff: true, depth: 20},
		{name: "pool, moving features only", seed: 2, static: true, depth: 20, only: moving},
		{name: "pool, moving features only, ties", seed: 1, ints: true, static: true, depth: 20, only: moving},
		{name: "pool, one-way features only", seed: 14, static: true, depth: 20, only: onOnly | offOnly},
	}
	heavy := 0 // outcomes that failed more than 70 times, over all cases
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := LearnedInput{Sites: simTable(), Props: simProps(), Seed: tt.seed}
			if tt.static {
				in.Static = newSimGraph()
			}
			theta := simTheta(uint64(tt.seed), tt.ints)
			if tt.fixedOnly {
				clear(theta[FAfterLast:])
			}
			for i := range theta {
				if tt.only != 0 && !tt.only.Has(i) {
					theta[i] = 0
				}
			}
			opt, err := NewLearned(theta, in)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := newRefLearned(theta, in)
			if err != nil {
				t.Fatal(err)
			}
			var so, sr Strategy = opt, ref
			if tt.backoff {
				so, sr = NewBackoff(opt, DefaultBackoff()), NewBackoff(ref, DefaultBackoff())
			}
			wo, wr := newSimWorld(so, 6), newSimWorld(sr, 6)
			if tt.depth > 0 {
				wo.tr = NewTree(wo.b, Options{MaxDepth: tt.depth})
				wr.tr = NewTree(wr.b, Options{MaxDepth: tt.depth})
			}
			wo.run(simTokens(nil, wo.b, rand.New(rand.NewPCG(0, 3)), 6), nil)
			wr.run(simTokens(nil, wr.b, rand.New(rand.NewPCG(0, 3)), 6), nil)
			chosen, pooled := 0, 0
			for i := range 1000 {
				if cands, _ := ref.onPath(); len(cands) == 0 && ref.selections > 0 && len(ref.openPool()) > 1 {
					pooled++
				}
				ko, kr := wo.stepOnce(), wr.stepOnce()
				if ko != kr {
					t.Fatalf("event %d: learned chose %q, the reference %q", i, ko, kr)
				}
				if ko != "" {
					chosen++
				}
				if i%100 != 99 {
					continue
				}
				byKey := map[string]*lcand{}
				for _, lc := range opt.pool {
					byKey[key(lc.c)] = lc
				}
				for _, rc := range ref.openPool() {
					lc := byKey[key(rc.c)]
					if lc == nil {
						t.Fatalf("event %d: candidate %s open in the reference only", i, key(rc.c))
					}
					if got, want := opt.features(lc, 0), ref.features(rc, 0); got != want {
						t.Fatalf("event %d: candidate %s: features %040b, reference %040b", i, key(rc.c), got, want)
					}
				}
				if len(ref.openPool()) != opt.Len() {
					t.Fatalf("event %d: %d open candidates, the reference has %d", i, opt.Len(), len(ref.openPool()))
				}
			}
			for _, n := range ref.unsat {
				if n > 70 {
					heavy++
				}
			}
			// The simulation must reach what it is for.
			if chosen < 700 {
				t.Errorf("%d candidates handed out: the simulation exercises too little", chosen)
			}
			if tt.depth > 0 && pooled < 100 {
				t.Errorf("%d choices among the whole pool: the simulation exercises too little", pooled)
			}
		})
	}
	// The rank of the candidates that failed often must be exercised.
	if heavy == 0 {
		t.Errorf("no outcome failed more than 70 times in any case: the simulation exercises too little")
	}
}

// TestLearnedBoundsHold checks the bounds by which Next skips pooled
// candidates: after every event of a simulated search, each open
// candidate's bound, raised by the moving features it has now, is at
// least its rank, and the tree holds each live slot's bound. A feature
// counted as settled the wrong way (one that can still turn on counted
// off, or one that can still turn off counted on), or a bound not laid
// out again when it changes or the pool is compacted, breaks it, even
// where no choice would change.
func TestLearnedBoundsHold(t *testing.T) {
	weights := func(on Features, w func(i int) float64) func() []float64 {
		return func() []float64 {
			th := make([]float64, NumFeatures)
			for i := range th {
				if on.Has(i) {
					th[i] = w(i)
				}
			}
			return th
		}
	}
	tests := []struct {
		name  string
		theta func() []float64
	}{
		{name: "one-way features negative", theta: weights(onOnly|offOnly, func(i int) float64 { return -1 - float64(i%3) })},
		{name: "one-way features positive", theta: weights(onOnly|offOnly, func(i int) float64 { return 1 + float64(i%3) })},
		{name: "search features positive", theta: weights(dynamic, func(i int) float64 { return 1 + float64(i%3) })},
		{name: "function features", theta: weights(1<<FMostUncovered|1<<FLatestFunc, func(i int) float64 { return float64(i % 5) })},
		{name: "random weights", theta: func() []float64 { return simTheta(21, false) }},
		{name: "random small integers", theta: func() []float64 { return simTheta(22, true) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewLearned(tt.theta(), LearnedInput{Sites: simTable(), Props: simProps(), Static: newSimGraph(), Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			w := newSimWorld(s, 6)
			w.tr = NewTree(w.b, Options{MaxDepth: 20})
			w.run(simTokens(nil, w.b, rand.New(rand.NewPCG(0, 3)), 6), nil)
			checked := 0
			for i := range 600 {
				w.stepOnce()
				if i%7 == 3 {
					s.Len() // compacts the pool
				}
				if s.selections == 0 {
					continue
				}
				for j, lc := range s.pool {
					if lc.c.State() != Open {
						continue
					}
					sl := s.slots[j]
					if got, want := s.keys.at(j), (bound{class: lc.key.class, score: lc.key.score + s.recent(lc.b) - s.margin}); got.less(want) || sl.key != lc.key {
						t.Fatalf("event %d: slot %d holds bound %v (slot %v), below its candidate's %v", i, j, got, sl.key, want)
					}
					up := s.bounded(lc.key, sl.d, sl.n, sl.b)
					rank := bound{class: 1, score: s.features(lc, 0).Score(&s.theta) - s.margin}
					if at(s.unsat, int(lc.pb)) > 70 {
						rank.class = 0
					}
					if up.less(rank) {
						t.Fatalf("event %d: candidate %s ranks %v, above its bound %v", i, key(lc.c), rank, up)
					}
					checked++
				}
			}
			if checked < 10000 {
				t.Errorf("%d bounds checked: the simulation exercises too little", checked)
			}
		})
	}
}
