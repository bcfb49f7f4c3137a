package mc

import (
	"slices"
	"testing"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// traceOf walks fn's SSA form on env (parameters by number) and returns
// the outcomes of the sites it decides, as a worker reports them.
func traceOf(t *testing.T, p *absPkg, m *Monitor, fn string, env sym.Env) []sites.Outcome {
	t.Helper()
	path, _ := run(t, NewEncoder(sym.NewBuilder(), p.fns[fn]), env)
	var out []sites.Outcome
	for i := 0; i+1 < len(path.Blocks); i++ {
		b := path.Blocks[i]
		if id, ok := m.site[b]; ok {
			out = append(out, sites.OutcomeOf(id, path.Blocks[i+1] == b.Succs[0]))
		}
	}
	return out
}

// monitorOf runs Check on fn towards goals and returns the monitor of
// its closed graph.
func monitorOf(t *testing.T, p *absPkg, fn string, goals []Goal) (*Monitor, *Result) {
	t.Helper()
	res := checkFn(t, p, fn, goals, Options{})
	if res.ARG == nil {
		t.Fatalf("no closed graph: %s", res.Incomplete)
	}
	return NewMonitor(p.g, res.ARG), res
}

// inGraph reports whether the block sequence path, from the entry, is a
// path of the monitor.
func inGraph(m *Monitor, path []*ssa.BasicBlock) bool {
	cur := []int32{0}
	for i := 1; i < len(path); i++ {
		var next []int32
		for _, n := range cur {
			for j, s := range m.arg.Nodes[n].Block.Succs {
				if s == path[i] && m.next[n] != nil {
					next = append(next, m.next[n][j]...)
				}
			}
		}
		if len(next) == 0 {
			return false
		}
		cur = next
	}
	return true
}

// TestRefinementSteps checks each refinement on Flagged: the spurious
// path ends with the goal's edge, its core is the test of b, the
// predicate added speaks of b's phi, the goal is not claimed
// when the predicate budget forbids that refinement, and no spurious
// path of any step is a path of the final graph.
func TestRefinementSteps(t *testing.T) {
	p := loadAbs(t)
	for _, tc := range []struct {
		fn, text string
		steps    int // -1: any number
	}{
		{"Flagged", "x < 3", 1},
		{"Counted", "s != 3", -1},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			gl := p.goal(t, tc.fn, tc.text, true)
			m, res := monitorOf(t, p, tc.fn, []Goal{gl})
			if v := res.Verdicts[gl]; v.Status != Unreachable {
				t.Fatalf("verdict %v (%s), want unreachable", v.Status, v.Why)
			}
			if len(res.Steps) == 0 || tc.steps >= 0 && len(res.Steps) != tc.steps {
				t.Fatalf("%d steps, want %d", len(res.Steps), tc.steps)
			}
			br := p.g.Branch(gl.Site)
			for i, st := range res.Steps {
				n := len(st.Path)
				if st.Path[n-2] != br.Block || st.Path[n-1] != br.True {
					t.Errorf("step %d: the path does not end with the goal's edge", i)
				}
				if len(st.Core) == 0 || len(st.Added) == 0 {
					t.Errorf("step %d: core %v, added %v", i, st.Core, st.Added)
				}
				if inGraph(m, st.Path) {
					t.Errorf("step %d: the spurious path is still in the final graph", i)
				}
			}
			if tc.fn == "Flagged" {
				st := res.Steps[0]
				phi := false // a state variable other than the parameter x
				for _, e := range st.Added {
					for _, x := range sym.Vars(nil, e) {
						if x.Val >= StateBase {
							phi = true
						}
					}
				}
				if !phi {
					t.Errorf("the predicates added %v do not speak of b", st.Added)
				}
				// The path goes around x > 5 (b stays false) and takes b:
				// the test of b alone contradicts the phi's constant, so
				// the core is that one edge.
				bb := p.g.Branch(p.goal(t, tc.fn, "b", true).Site).Block
				if len(st.Core) != 1 || st.Path[st.Core[0]] != bb {
					t.Errorf("core %v of path %v: want the edge out of b's block %d", st.Core, blockIndices(st.Path), bb.Index)
				}
				// Without the refinement the goal is not claimed.
				res := checkFn(t, p, tc.fn, []Goal{gl}, Options{MaxPredicates: 1})
				if v := res.Verdicts[gl]; v.Status != Unknown {
					t.Errorf("with one predicate: %v, want unknown", v.Status)
				}
			}
		})
	}
}

// TestMonitorReplay replays executed traces on the monitor: none raises
// an alarm, and a negation the monitor forbids is taken by no execution
// of the input domain (checked by brute force over it).
func TestMonitorReplay(t *testing.T) {
	p := loadAbs(t)
	for _, tc := range []struct {
		fn    string
		goals [][2]any // text, taken
		envs  []sym.Env
		// pruned counts the negations the monitor forbids at least.
		pruned int
	}{
		{"LoopFlag", [][2]any{{"ok", true}, {"ok", false}}, intRange(-4, 12), 1},
		{"Flagged", [][2]any{{"x < 3", true}}, intRange(-3, 9), 1},
		{"Nested", [][2]any{{"x < 3", true}}, intRange(-3, 9), 1},
		{"Counted", [][2]any{{"s != 3", true}}, []sym.Env{{}}, 1},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			var goals []Goal
			for _, g := range tc.goals {
				goals = append(goals, p.goal(t, tc.fn, g[0].(string), g[1].(bool)))
			}
			m, _ := monitorOf(t, p, tc.fn, goals)
			var traces [][]sites.Outcome
			for _, env := range tc.envs {
				traces = append(traces, traceOf(t, p, m, tc.fn, env))
			}
			executed := func(prefix []sites.Outcome) bool {
				for _, tr := range traces {
					if len(tr) >= len(prefix) && slices.Equal(tr[:len(prefix)], prefix) {
						return true
					}
				}
				return false
			}
			pruned := 0
			for _, tr := range traces {
				r := m.Start()
				for k, o := range tr {
					flip := sites.OutcomeOf(o.Site(), !o.Taken())
					allowed, alarm := m.Allowed(tr[:k], flip)
					if alarm {
						t.Fatalf("trace %v: alarm at %d", tr, k)
					}
					if !allowed {
						pruned++
						if executed(append(slices.Clone(tr[:k]), flip)) {
							t.Errorf("trace %v: the negation at %d is pruned, but an execution takes it", tr, k)
						}
					}
					if !r.Allows(o) || !r.Step(o) {
						t.Fatalf("trace %v: executed outcome %d not allowed (alarm %v)", tr, k, r.Alarm)
					}
				}
			}
			if pruned < tc.pruned {
				t.Errorf("%d negations pruned, want at least %d", pruned, tc.pruned)
			}
			t.Logf("%d traces, %d negations pruned, %d monitor states", len(traces), pruned, m.States())
		})
	}
}

func intRange(lo, hi int) []sym.Env {
	var out []sym.Env
	for x := lo; x <= hi; x++ {
		out = append(out, sym.Env{0: uint64(int64(x))})
	}
	return out
}

// TestMonitorAlarmAndTop checks the replay's two ways out: an outcome the
// abstraction says no execution takes raises an alarm (and allows all
// from there), and an outcome of an unmapped site gives up (Top).
func TestMonitorAlarmAndTop(t *testing.T) {
	p := loadAbs(t)
	gl := p.goal(t, "Nested", "x < 3", true)
	m, _ := monitorOf(t, p, "Nested", []Goal{gl})
	outer := p.goal(t, "Nested", "x > 5", true)
	// x > 5, then x < 3: the monitor has no such edge.
	bad := []sites.Outcome{sites.OutcomeOf(outer.Site, true), sites.OutcomeOf(gl.Site, true)}
	r := m.Start()
	if !r.Step(bad[0]) {
		t.Fatal("x > 5 refused")
	}
	if r.Allows(bad[1]) {
		t.Error("x < 3 after x > 5 allowed")
	}
	if r.Step(bad[1]) || !r.Alarm {
		t.Error("no alarm on an outcome the monitor lacks")
	}
	if !r.Allows(bad[1]) {
		t.Error("a replay in alarm must allow everything")
	}
	allowed, alarm := m.Allowed(bad, sites.OutcomeOf(gl.Site, false))
	if !allowed || !alarm {
		t.Errorf("Allowed after a bad prefix: %v, alarm %v", allowed, alarm)
	}
	// A site no If decides: not in the graph's map at all.
	r = m.Start()
	unmapped := sites.OutcomeOf(1<<30, true)
	if r.Step(unmapped) || !r.Top {
		t.Error("an unmapped outcome must make the replay Top")
	}
	if !r.Allows(bad[1]) {
		t.Error("a Top replay must allow everything")
	}
}

func blockIndices(bs []*ssa.BasicBlock) []int {
	var out []int
	for _, b := range bs {
		out = append(out, b.Index)
	}
	return out
}

// TestSimpleWhile runs the seed's simple-while: the goal !b is reachable
// only with thirty inputs of 10, more loop unrollings than the budget
// allows, so it is not claimed; the closed graph tracks b (the goal's
// condition), and its monitor forbids !b after an input that is not 10.
func TestSimpleWhile(t *testing.T) {
	p := loadAbs(t)
	gl := p.goal(t, "SimpleWhile", "b", false)
	res := checkFn(t, p, "SimpleWhile", []Goal{gl}, Options{MaxRefinements: 3})
	if v := res.Verdicts[gl]; v.Status == Unreachable {
		t.Fatalf("the reachable goal !b is claimed unreachable")
	}
	if res.ARG == nil {
		t.Fatalf("no closed graph: %s", res.Incomplete)
	}
	m := NewMonitor(p.g, res.ARG)
	// Loads are havoc to the walk, which reads them as 0: every input
	// differs from 10 and b is set.
	tr := traceOf(t, p, m, "SimpleWhile", sym.Env{})
	last := tr[len(tr)-1]
	if last != sites.OutcomeOf(gl.Site, true) {
		t.Fatalf("trace ends with %v, want b true", last)
	}
	allowed, alarm := m.Allowed(tr[:len(tr)-1], sites.OutcomeOf(gl.Site, false))
	if alarm || allowed {
		t.Errorf("!b after thirty inputs that are not 10: allowed %v, alarm %v", allowed, alarm)
	}
	t.Logf("%d refinements, %d predicates, %d nodes, %d monitor states, %d queries", len(res.Steps), res.Predicates, len(res.ARG.Nodes), m.States(), res.Queries)
}

// TestMonitorDistance checks distances on LoopFlag's monitor towards the
// goal ok: finite while ok may still hold, Far once x+i == 7 has cleared
// it, 1 for the goal itself when ok is known to hold.
func TestMonitorDistance(t *testing.T) {
	p := loadAbs(t)
	okT := p.goal(t, "LoopFlag", "ok", true)
	hit := p.goal(t, "LoopFlag", "x + i == 7", true)
	loop := p.goal(t, "LoopFlag", "i < 4", true)
	m, _ := monitorOf(t, p, "LoopFlag", []Goal{okT, {okT.Site, false}})
	d := m.Distances([]Goal{okT})
	r := m.Start()
	first := sites.OutcomeOf(loop.Site, true)
	if n, ok := r.Distance(first, d); !ok || n >= cfa.Far {
		t.Fatalf("entering the loop: distance %d (known %v), want finite", n, ok)
	}
	r.Step(first)
	if n, ok := r.Distance(sites.OutcomeOf(hit.Site, false), d); !ok || n >= cfa.Far {
		t.Errorf("x+i != 7: distance %d (known %v), want finite", n, ok)
	}
	if n, ok := r.Distance(sites.OutcomeOf(hit.Site, true), d); !ok || n != cfa.Far {
		t.Errorf("x+i == 7 clears ok: distance %d (known %v), want Far", n, ok)
	}
	// x = 100: x+i is never 7; after four turns ok holds and the goal is
	// the next outcome.
	tr := traceOf(t, p, m, "LoopFlag", sym.Env{0: 100})
	r = m.Start()
	for _, o := range tr[:len(tr)-1] {
		r.Step(o)
	}
	if n, ok := r.Distance(sites.OutcomeOf(okT.Site, true), d); !ok || n != 1 {
		t.Errorf("the goal itself: distance %d (known %v), want 1", n, ok)
	}
}
