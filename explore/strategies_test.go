package explore

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// scene drives one strategy over a tree built by crafted executions.
type scene struct {
	t  *testing.T
	b  *sym.Builder
	tr *Tree
	s  Strategy
}

func newScene(t *testing.T, s Strategy) *scene {
	b := sym.NewBuilder()
	return &scene{t: t, b: b, tr: NewTree(b, Options{}), s: s}
}

// run records the path p (as for path) of an execution meant to reach
// origin and tells the strategy, with the outcomes in fresh (same form)
// covered first; diverged overrides what Record found.
func (sc *scene) run(p string, origin *Candidate, fresh string) Outcome {
	out := sc.tr.Record(path(sc.b, p), sym.Env{}, origin)
	fb := Feedback{Event: Ran, Origin: origin, Outcome: out}
	if fresh != "" {
		fb.Fresh = sites.Coverage{}
		for _, br := range path(sc.b, fresh) {
			fb.Fresh.Add(br.Site, br.Taken)
		}
	}
	sc.s.Update(fb)
	return out
}

// refute tells the strategy that the solver refuted c.
func (sc *scene) refute(c *Candidate) {
	sc.tr.Resolve(c, solver.Unsat)
	sc.s.Update(Feedback{Event: Refuted, Origin: c})
}

func (sc *scene) next() *Candidate {
	sc.t.Helper()
	c, ok := sc.s.Next()
	if !ok {
		sc.t.Fatal("Next ran dry")
	}
	if c.State() != Pending {
		sc.t.Fatalf("Next returned %s, not Pending", c)
	}
	return c
}

// reach returns the path (as for path) of an execution that reaches c and
// goes on with tail.
func reach(c *Candidate, tail string) string {
	var sb strings.Builder
	bits := c.Expect.Bools()
	for i, n := range c.Node.Path() {
		side := 'f'
		if bits[i] {
			side = 't'
		}
		fmt.Fprintf(&sb, "%d%c ", n.Site, side)
	}
	return sb.String() + tail
}

// onPath reports whether c's node lies on the path of leaf.
func onPath(c *Candidate, leaf *Node) bool { return slices.Contains(leaf.Path(), c.Node) }

func sitesOf(cs []*Candidate) []uint32 {
	var out []uint32
	for _, c := range cs {
		out = append(out, c.Node.Site)
	}
	return out
}

// TestRandomBranch checks that random-branch hands out only sides of the
// path it follows, moves to the path of an execution that went where
// predicted, stays on its path after one that diverged without new
// coverage, and goes back to the first path when the one it follows has
// nothing Open.
func TestRandomBranch(t *testing.T) {
	for seed := range int64(8) {
		sc := newScene(t, NewRandomBranch(seed))
		first := sc.run("1t 2t 3t 4t 5t", nil, "1t 2t 3t 4t 5t").Leaf
		c := sc.next()
		if !onPath(c, first) {
			t.Fatalf("seed %d: first choice %s is not on the first path", seed, c)
		}
		// An execution that went elsewhere and covered nothing new: the
		// path followed stays the first one.
		stray := sc.run("1f 9t", nil, "")
		_ = stray
		held := sc.run(reach(c, "7t 8t"), c, "").Leaf
		// Everything Open on the new path comes before the rest of the
		// first path.
		want := openOn(held.Path(), 0)
		var got []*Candidate
		for range want {
			got = append(got, sc.next())
		}
		slices.SortFunc(got, func(a, b *Candidate) int { return a.Depth() - b.Depth() })
		if !slices.Equal(got, want) {
			t.Errorf("seed %d: after a predicted run took %v, want the new path's %v", seed, sitesOf(got), sitesOf(want))
		}
		if c := sc.next(); !onPath(c, first) {
			t.Errorf("seed %d: with the new path done, took %s, not the first path's", seed, c)
		}
	}
}

// TestRandomBranchDiverged checks that an execution that diverged and
// covered nothing new leaves the path followed as it was, while one that
// diverged but covered something first is followed.
func TestRandomBranchDiverged(t *testing.T) {
	for _, tt := range []struct {
		name   string
		fresh  string
		follow bool
	}{
		{"no new coverage", "", false},
		{"new coverage", "9t", true},
	} {
		sc := newScene(t, NewRandomBranch(3))
		first := sc.run("1t 2t 3t 4t", nil, "1t 2t 3t 4t").Leaf
		c := sc.next()
		// The run meant for c went down another way.
		var other string
		if c.Depth() == 0 {
			other = "1t 2f 9t"
		} else {
			other = "1f 9t"
		}
		out := sc.run(other, c, tt.fresh)
		if !out.Diverged {
			t.Fatalf("%s: the crafted run did not diverge", tt.name)
		}
		next := sc.next()
		if got := onPath(next, out.Leaf) && !onPath(next, first); got != tt.follow {
			t.Errorf("%s: took %s; on the diverged run's own path: %t, want %t", tt.name, next, got, tt.follow)
		}
	}
}

// TestUniformRandom checks that uniform-random walks its path from the
// root down, each choice deeper than the last until the walk starts
// again, and after an execution that went where predicted walks on below
// its candidate on the new path.
func TestUniformRandom(t *testing.T) {
	var p strings.Builder
	for i := range 20 {
		fmt.Fprintf(&p, "%dt ", i+1)
	}
	for seed := range int64(8) {
		sc := newScene(t, NewUniformRandom(seed))
		sc.run(p.String(), nil, "")
		var depths []int
		for range 20 {
			depths = append(depths, sc.next().Depth())
		}
		wraps := 0
		for i := 1; i < len(depths); i++ {
			if depths[i] <= depths[i-1] {
				wraps++
			}
		}
		sorted := slices.Sorted(slices.Values(depths))
		for i, d := range sorted {
			if d != i {
				t.Fatalf("seed %d: depths %v, want each of 0..19 once", seed, depths)
			}
		}
		if wraps >= 19 {
			t.Errorf("seed %d: depths %v: the walk never went down the path", seed, depths)
		}

		sc = newScene(t, NewUniformRandom(seed))
		sc.run(p.String(), nil, "")
		c := sc.next()
		held := sc.run(reach(c, "100t 101t 102t 103t"), c, "").Leaf
		next := sc.next()
		if !onPath(next, held) || next.Depth() <= c.Depth() {
			t.Errorf("seed %d: after %s held, took %s; want one below it on the new path", seed, c, next)
		}
	}
}

// TestGenerational checks SAGE's order: a generation is every Open side
// of an execution's path from its bound down, shallowest first, and the
// execution with the highest score (outcomes covered first) is expanded
// next.
func TestGenerational(t *testing.T) {
	sc := newScene(t, NewGenerational(1))
	sc.run("1t 2t 3t", nil, "1t 2t 3t")
	var gen []*Candidate
	for range 3 {
		gen = append(gen, sc.next())
	}
	if got := sitesOf(gen); !slices.Equal(got, []uint32{1, 2, 3}) {
		t.Fatalf("first generation %v, want [1 2 3]", got)
	}
	sc.run("1f 4t 5t", gen[0], "1f")             // score 1, bound 1
	sc.run("1t 2f 6t 7t", gen[1], "2f 6t 7t 6f") // score 4, bound 2
	sc.run("1t 2t 3f", gen[2], "")               // score 0, no new node
	var got []uint32
	for range 4 {
		got = append(got, sc.next().Node.Site)
	}
	if want := []uint32{6, 7, 4, 5}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v: the best-scored child's generation first", got, want)
	}
	if c, ok := sc.s.Next(); ok {
		t.Errorf("Next returned %s with nothing Open", c)
	}
}

// TestPriority checks that priority hands out candidates of uncovered
// outcomes first, and with a random share of 1 chooses without regard to
// priority.
func TestPriority(t *testing.T) {
	firsts := map[uint32]int{}
	for seed := range int64(20) {
		for _, share := range []float64{0, 1} {
			sc := newScene(t, NewPriority(seed, share))
			// Outcome 5f was covered before 1..6 come along; 6f was not.
			sc.s.Update(Feedback{Event: Ran, Fresh: sites.Coverage{5: 1}})
			sc.run("5t 6t", nil, "5t 6t")
			first := sc.next().Node.Site
			if share == 0 && first != 6 {
				t.Errorf("seed %d share 0: took site %d first, want the uncovered 6f", seed, first)
			}
			if share == 1 {
				firsts[first]++
			}
		}
	}
	if firsts[5] == 0 || firsts[6] == 0 {
		t.Errorf("share 1: first choices %v over 20 seeds, want both sites", firsts)
	}
}

// graph is a crafted Static: a table of distances and of dominators.
type graph struct {
	dist    map[uint32]int // by outcome; Far if absent
	dom     map[[2]uint32]bool
	covered sites.Coverage
}

func (g *graph) Distance(site uint32, side bool) int {
	if d, ok := g.dist[outcome(site, side)]; ok {
		return d
	}
	return Far
}
func (g *graph) Cover(c sites.Coverage) {
	for s, b := range c {
		g.covered[s] |= b
	}
}
func (g *graph) Dominates(d, b uint32) bool { return g.dom[[2]uint32{d, b}] }

// TestCFDS checks that cfds tries the sides of its path nearest to an
// uncovered outcome first, tells the graph what executions covered, and
// after an execution that went where predicted without covering anything
// tries only sides below it that are nearer than it was.
func TestCFDS(t *testing.T) {
	g := &graph{covered: sites.Coverage{}, dist: map[uint32]int{
		outcome(1, false): 5, outcome(2, false): 2, outcome(3, false): 0,
		outcome(8, false): 1, outcome(9, false): 3, outcome(10, false): 1,
	}}
	sc := newScene(t, NewCFDS(1, g))
	sc.run("1t 2t 3t 4t", nil, "1t 2t 3t 4t")
	if !g.covered.Has(4, true) {
		t.Error("the graph was not told what the execution covered")
	}
	c := sc.next()
	if c.Node.Site != 3 {
		t.Fatalf("took site %d first, want 3 (distance 0)", c.Node.Site)
	}
	sc.refute(c)
	c = sc.next()
	if c.Node.Site != 2 {
		t.Fatalf("took site %d second, want 2 (distance 2)", c.Node.Site)
	}
	// The run for 2f went where predicted and covered nothing: the next
	// side lies below it and is nearer than 2: 8f (1), not 9f (3) nor the
	// first path's 1f (5).
	sc.run(reach(c, "8t 9t"), c, "")
	if c = sc.next(); c.Node.Site != 8 {
		t.Errorf("took site %d after a predicted run, want 8 below it", c.Node.Site)
	}
	// That one diverged: back to the round, whose next is 1f (5), ahead
	// of 4f (Far).
	sc.run("1t 10t", c, "")
	if c = sc.next(); c.Node.Site != 1 {
		t.Errorf("took site %d after a failed step, want 1 of the round", c.Node.Site)
	}
}

// TestCGS checks the sweeps of cgs: by depth, a side whose context was
// handed out in the sweep is left for a longer context, and a branch that
// dominates the side's site is left out of its context.
func TestCGS(t *testing.T) {
	for _, tt := range []struct {
		name   string
		dom    bool
		fourth uint32
	}{
		// Without dominators the two 3f at depth 2 have the 2-contexts
		// 3f 2t and 3f 2f: both are new in the sweep with k = 2.
		{"no dominators", false, 3},
		// With 2 dominating 3, both have the 2-context 3f 1t: the
		// second waits, and the sweep reaches 6f at depth 3 first.
		{"2 dominates 3", true, 6},
	} {
		g := &graph{covered: sites.Coverage{}, dom: map[[2]uint32]bool{{2, 3}: tt.dom}}
		sc := newScene(t, NewCGS(1, g))
		sc.run("1t 2t 3t 4t", nil, "")
		sc.run("1t 2f 3t", nil, "") // a second 3f at depth 2
		sc.run("1f 3t", nil, "")    // a 3f at depth 1
		var got []uint32
		var three *Candidate
		for range 3 {
			c := sc.next()
			got = append(got, c.Node.Site)
			if c.Depth() == 2 {
				three = c
			}
		}
		// k = 1: the 3f at depth 1, not those at depth 2 (same
		// 1-context), 4f; k = 2: a 3f at depth 2.
		if !slices.Equal(got, []uint32{3, 4, 3}) || three == nil {
			t.Fatalf("%s: first choices %v, want [3 4 3], the last at depth 2", tt.name, got)
		}
		sc.run(reach(three, "6t"), three, "") // 6f at depth 3
		if c := sc.next(); c.Node.Site != tt.fourth {
			t.Errorf("%s: fourth choice site %d, want %d", tt.name, c.Node.Site, tt.fourth)
		}
	}
}
