package mc

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// absPkg is package testdata/abs instrumented (for its site table) and
// built into a graph, loaded once for all tests.
type absPkg struct {
	g     *cfa.Graph
	table []sites.Site
	fns   map[string]*ssa.Function
}

var (
	pkgMu    sync.Mutex
	pkgCache = map[string]*absPkg{}
)

// loadAbs returns package testdata/abs.
func loadAbs(t testing.TB) *absPkg { return loadHere(t, "testdata", "abs") }

// loadHere returns the package in the directory elems names under this
// package's.
func loadHere(t testing.TB, elems ...string) *absPkg {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return loadPkg(t, filepath.Join(append([]string{filepath.Dir(file)}, elems...)...))
}

// loadPkg loads the package in dir, instruments it as a support package
// with markers (for its site table, entry sites included) and builds its
// graph, once per directory.
func loadPkg(t testing.TB, dir string) *absPkg {
	t.Helper()
	pkgMu.Lock()
	defer pkgMu.Unlock()
	if p := pkgCache[dir]; p != nil {
		return p
	}
	pkg, err := load.Load(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	res, err := instrument.Package(pkg.Package, instrument.Config{RuntimePath: build.RuntimePath, Support: true, Markers: true})
	if err != nil {
		t.Fatal(err)
	}
	g, err := cfa.Build([]*packages.Package{pkg.Package}, res.Sites)
	if err != nil {
		t.Fatal(err)
	}
	fns := map[string]*ssa.Function{}
	for _, f := range g.Funcs() {
		fns[f.Name()] = f
	}
	p := &absPkg{g: g, table: res.Sites, fns: fns}
	pkgCache[dir] = p
	return p
}

// goal returns the goal of the condition site of fn that reads text.
func (p *absPkg) goal(t testing.TB, fn, text string, taken bool) Goal {
	t.Helper()
	for _, s := range p.table {
		if s.Text == text && (s.Kind == sites.Cond || s.Kind == sites.Loop) && strings.HasSuffix(s.Func, fn) {
			return Goal{Site: s.ID, Taken: taken}
		}
	}
	t.Fatalf("no site %q in %s", text, fn)
	return Goal{}
}

// checkFn runs Check on the function named fn towards goals.
func checkFn(t *testing.T, p *absPkg, fn string, goals []Goal, opts Options) *Result {
	t.Helper()
	f := p.fns[fn]
	if f == nil {
		t.Fatalf("no function %s", fn)
	}
	enc := NewEncoder(sym.NewBuilder(), f)
	res, err := Check(context.Background(), p.g, enc, newZ3(t), goals, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// walkModel runs fn's SSA form on env (a model: parameters by number)
// and reports whether the execution takes goal's outcome. Functions
// with havoc on the way are not walked.
func walkModel(t *testing.T, p *absPkg, fn string, env sym.Env, gl Goal) bool {
	t.Helper()
	enc := NewEncoder(sym.NewBuilder(), p.fns[fn])
	br := p.g.Branch(gl.Site)
	want := br.False
	if gl.Taken {
		want = br.True
	}
	path, _ := run(t, enc, env)
	for i := 0; i+1 < len(path.Blocks); i++ {
		if path.Blocks[i] == br.Block && path.Blocks[i+1] == want {
			return true
		}
	}
	return false
}

// TestCheckVerdicts checks the verdict on each goal of small functions:
// unreachable goals are proved, reachable goals get a model that takes
// them, and goals behind calls, loads or long loops are not claimed.
func TestCheckVerdicts(t *testing.T) {
	p := loadAbs(t)
	type want struct {
		text  string
		taken bool
		st    Status
	}
	for _, tc := range []struct {
		fn    string
		opts  Options
		goals []want
		// refinements, when not -1, is the number of refinement steps.
		refinements int
		// exact: whether the models of reachable goals rest on the
		// parameters alone.
		exact bool
	}{
		{"Nested", Options{}, []want{{"x < 3", true, Unreachable}, {"x < 3", false, Reachable}, {"x > 5", true, Reachable}}, 0, true},
		{"Nested", Options{MaxNodes: 2}, []want{{"x < 3", true, Unknown}}, 0, true},
		{"Nested", Options{Timeout: time.Nanosecond}, []want{{"x < 3", true, Unknown}}, 0, true},
		{"Flagged", Options{}, []want{{"x < 3", true, Unreachable}, {"x < 3", false, Reachable}}, 1, true},
		{"Flagged", Options{}, []want{{"x < 3", true, Unreachable}, {"b", true, Reachable}, {"b", false, Reachable}}, 0, true},
		{"Both", Options{}, []want{{"x < 0", true, Reachable}, {"x < 0", false, Reachable}, {"s == 100", true, Reachable}}, 0, true},
		{"Counted", Options{}, []want{{"s != 3", true, Unreachable}, {"s != 3", false, Reachable}}, -1, true},
		{"Long", Options{MaxRefinements: 3}, []want{{"s != 1000", true, Unknown}, {"s != 1000", false, Unknown}}, 3, false},
		{"LoopFlag", Options{}, []want{{"ok", true, Reachable}, {"ok", false, Reachable}, {"x + i == 7", true, Reachable}}, -1, true},
		{"Called", Options{}, []want{{"y == 7", true, Reachable}}, 0, false},
		{"Loaded", Options{}, []want{{"v < 2", true, Unreachable}}, 0, false},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			var goals []Goal
			for _, w := range tc.goals {
				goals = append(goals, p.goal(t, tc.fn, w.text, w.taken))
			}
			res := checkFn(t, p, tc.fn, goals, tc.opts)
			for i, w := range tc.goals {
				v := res.Verdicts[goals[i]]
				if v.Status != w.st {
					t.Errorf("%s %v: %v (%s), want %v", w.text, w.taken, v.Status, v.Why, w.st)
				}
				if v.Status == Reachable && v.Exact != tc.exact {
					t.Errorf("%s %v: exact %v, want %v", w.text, w.taken, v.Exact, tc.exact)
				}
				if v.Status == Reachable && v.Exact && !walkModel(t, p, tc.fn, v.Model, goals[i]) {
					t.Errorf("%s %v: the model %v does not take the goal", w.text, w.taken, v.Model)
				}
			}
			if tc.refinements >= 0 && len(res.Steps) != tc.refinements {
				t.Errorf("%d refinements, want %d", len(res.Steps), tc.refinements)
			}
			t.Logf("rounds %d, refinements %d, predicates %d, queries %d, nodes %d, incomplete %q", res.Rounds, len(res.Steps), res.Predicates, res.Queries, nodesOf(res), res.Incomplete)
		})
	}
}

// TestCheckNoClaim checks that goals the graph cannot decide are never
// claimed: an unmapped site, a site of another function, and any goal of
// a run that a bound stopped.
func TestCheckNoClaim(t *testing.T) {
	p := loadAbs(t)
	other := p.goal(t, "Flagged", "x < 3", true)
	own := p.goal(t, "Nested", "x < 3", true)
	goals := []Goal{{Site: 1 << 30, Taken: true}, other, own}
	res := checkFn(t, p, "Nested", goals, Options{})
	for _, gl := range goals[:2] {
		if v := res.Verdicts[gl]; v.Status != Unknown || v.Why == "" {
			t.Errorf("goal %v: %v (%q), want unknown with a reason", gl, v.Status, v.Why)
		}
	}
	if v := res.Verdicts[own]; v.Status != Unreachable {
		t.Errorf("the function's own goal: %v, want unreachable", v.Status)
	}
	res = checkFn(t, p, "Nested", goals, Options{MaxNodes: 2})
	if res.Incomplete == "" || res.ARG != nil {
		t.Errorf("a run stopped by the node bound: incomplete %q, graph %v", res.Incomplete, res.ARG != nil)
	}
}

func nodesOf(r *Result) int {
	if r.ARG == nil {
		return 0
	}
	return len(r.ARG.Nodes)
}
