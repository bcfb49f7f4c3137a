package coordinator

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/state"
	"github.com/gocolic/gocolic/sym"
)

// TestPosition: a candidate's position is the directions from the root to
// its node, then its side.
func TestPosition(t *testing.T) {
	b := sym.NewBuilder()
	// A variable per condition: no prefix settles another's side.
	cond := func(k uint64) *sym.Expr { return b.Cmp(sym.KEq, b.Var(k, 64), b.Const(k, 64)) }
	tree := explore.NewTree(b, explore.Options{})
	first := tree.Record([]explore.Branch{{Site: 0, Taken: true, Cond: cond(1)}, {Site: 1, Taken: false, Cond: cond(2)}, {Site: 2, Taken: true, Cond: cond(3)}}, sym.Env{}, nil)
	second := tree.Record([]explore.Branch{{Site: 0, Taken: false, Cond: cond(1)}, {Site: 3, Taken: true, Cond: cond(4)}}, sym.Env{}, nil)
	var got [][]bool
	for _, c := range append(first.NewCandidates, second.NewCandidates...) {
		got = append(got, Position(c))
	}
	want := [][]bool{{false}, {true, true}, {true, false, false}, {false, false}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("positions %v, want %v", got, want)
	}
}

// TestRunPrior runs the helper's 64 branches from two seeds on one path
// under each prior: settled candidates are never asked about, put-off ones
// are asked once nothing else is left, changed ones are asked and
// reported; every seed's input is kept, and paths are cut at MaxDepth.
func TestRunPrior(t *testing.T) {
	for _, tc := range []struct {
		prior                   Prior
		queries                 int64
		settled, later, changed int
	}{
		{PriorSettled, 0, helperBranches, 0, 0},
		{PriorLater, helperBranches, 0, helperBranches, 0},
		{PriorExplore, helperBranches, 0, 0, helperBranches},
		{PriorSkip, 0, 0, 0, 0},
	} {
		s := &unsatSolver{}
		cfg := runConfig(t, s, modeBranches, modeBranches+1)
		cfg.Strategy = "dfs"
		cfg.Paths = true
		cfg.MinimizeTime = 0
		cfg.Prior = func(*explore.Candidate) Prior { return tc.prior }
		rep := runDriver(t, context.Background(), cfg)
		if got := s.calls.Load(); got != tc.queries || !rep.Exhausted {
			t.Errorf("prior %d: %d queries (exhausted %t), want %d, exhausted", tc.prior, got, rep.Exhausted, tc.queries)
		}
		u := rep.Update
		if u.Settled != tc.settled || u.Later != tc.later || len(u.Changed) != tc.changed {
			t.Errorf("prior %d: settled %d, later %d, changed %d; want %d, %d, %d", tc.prior, u.Settled, u.Later, len(u.Changed), tc.settled, tc.later, tc.changed)
		}
		if u.Unrun != 0 {
			t.Errorf("prior %d: %d seeds unrun", tc.prior, u.Unrun)
		}
		if len(rep.Suite) != 2 || rep.Suite[0].Seed != 0 || rep.Suite[1].Seed != 1 || len(rep.Suite[0].Path()) != helperBranches {
			t.Errorf("prior %d: suite %+v, want both seeds on their one path", tc.prior, rep.Suite)
		}
	}
}

// helperBranches is the helper's number of branches in its branches mode.
const helperBranches = 64

// TestKeepPathDepth: paths are kept up to MaxDepth, one input per path
// but every seed.
func TestKeepPathDepth(t *testing.T) {
	b := sym.NewBuilder()
	c := b.Cmp(sym.KEq, b.Var(0, 64), b.Const(1, 64))
	path := func(dirs ...bool) []explore.Branch {
		var p []explore.Branch
		for i, d := range dirs {
			p = append(p, explore.Branch{Site: uint32(i), Taken: d, Cond: c})
		}
		return p
	}
	d := &coordinator{cfg: Config{Paths: true, Options: Options{MaxDepth: 2}}, rep: &Report{}, tree: explore.NewTree(b, explore.Options{MaxDepth: 2})}
	resp := &rt.Response{}
	keep := func(j job, p []explore.Branch) {
		d.tree.Record(p, j.env, nil)
		d.keepPath(j, p, resp)
	}
	keep(job{env: sym.Env{0: 1}}, path(true, false, true))
	keep(job{env: sym.Env{0: 2}}, path(true, false, false)) // the same up to depth 2
	keep(job{env: sym.Env{0: 3}, seed: 1}, path(true, false))
	keep(job{env: sym.Env{0: 4}}, path(false))
	var got []uint64
	for _, p := range d.rep.Suite {
		got = append(got, p.Input[0])
		if len(p.Path()) > 2 {
			t.Errorf("input %d kept with %d branches, more than MaxDepth", p.Input[0], len(p.Path()))
		}
	}
	if want := []uint64{1, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("kept inputs %v, want %v", got, want)
	}
	// Each path is the tree's, cut at MaxDepth.
	for i, want := range [][]bool{{true, false}, {true, false}, {false}} {
		var dirs []bool
		for k, br := range d.rep.Suite[i].Path() {
			dirs = append(dirs, br.Taken)
			if br.Site != uint32(k) || br.Cond != c {
				t.Errorf("input %d, branch %d: site %d, condition %v", i, k, br.Site, br.Cond)
			}
		}
		if !slices.Equal(dirs, want) {
			t.Errorf("input %d: path %v, want %v", i, dirs, want)
		}
	}
}

// TestRunPriorUnrun: a run that ends before every seed ran says how many
// did not, so that an update does not take their paths for gone.
func TestRunPriorUnrun(t *testing.T) {
	cfg := runConfig(t, &unsatSolver{}, modeBranches, modeBranches+1, modeBranches+2)
	cfg.Runs = 1
	cfg.MinimizeTime = 0
	cfg.Prior = func(*explore.Candidate) Prior { return PriorExplore }
	rep := runDriver(t, context.Background(), cfg)
	if rep.Execs != 1 || rep.Update.Unrun != 2 {
		t.Errorf("%d executions, %d seeds unrun; want 1, 2", rep.Execs, rep.Update.Unrun)
	}
}

// rangeSolver answers every query of the helper's branches mode unsat.
// The seeds 100 (no branch taken) and 1005 (branch 5 taken) cut the
// candidates into two ranges of seed 003: those before 1005's path in the
// fixed branch order (above branch 5, or under its taken side), and those
// between the two paths (under branch 5's untaken side, from 100's path).
// The first query blocks until a query of the other range was answered.
type rangeSolver struct {
	g        *gauge
	mu       sync.Mutex
	first    int // range of the first query, -1 before it
	asked    [2]int
	other    chan struct{} // closed once a query of the other range is answered
	released bool          // the first query was released by the other range
}

// rangeOf returns the range of a query: 1 for a candidate below branch 5
// on 100's path (its sixth constraint is branch 5 untaken), else 0.
func rangeOf(q solver.Query) int {
	if len(q.Constraints) <= 5 {
		return 0
	}
	v, err := (&sym.Evaluator{Env: input(1005)}).Value(q.Constraints[5])
	if err == nil && v == 0 {
		return 1
	}
	return 0
}

func (s *rangeSolver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	s.g.enter()
	defer s.g.exit()
	r := rangeOf(q)
	s.mu.Lock()
	s.asked[r]++
	first := s.first < 0
	if first {
		s.first = r
	} else if r != s.first && s.other != nil {
		defer func() { // once answered
			s.mu.Lock()
			if s.other != nil {
				close(s.other)
				s.other = nil
			}
			s.mu.Unlock()
		}()
	}
	wait := s.other
	s.mu.Unlock()
	if first {
		select {
		case <-wait:
			s.mu.Lock()
			s.released = true
			s.mu.Unlock()
		case <-time.After(5 * time.Second):
		case <-ctx.Done():
			return solver.Result{}, ctx.Err()
		}
	}
	return solver.Result{Status: solver.Unsat}, nil
}

// TestRunPriorParallelRanges: the changed ranges of an update are
// explored at once, by the pool's solvers: while a query of one range is
// being solved, a query of the other range is answered, and every side
// of both ranges is asked about.
func TestRunPriorParallelRanges(t *testing.T) {
	s := &rangeSolver{g: newGauge(2), first: -1, other: make(chan struct{})}
	cfg := runConfig(t, nil, modeBranches, 1005)
	cfg.Strategy, cfg.Paths, cfg.MinimizeTime, cfg.Lanes = "dfs", true, 0, LanesConcolic
	cfg.Solvers, cfg.NewSolver = 2, func() (solver.Solver, func(), error) { return s, nil, nil }
	cfg.Prior = func(*explore.Candidate) Prior { return PriorExplore }
	rep := runDriver(t, context.Background(), cfg)
	if !rep.Exhausted {
		t.Errorf("stopped %q, want exhausted", rep.Stopped)
	}
	var valid [][]bool
	for _, p := range rep.Suite {
		var dirs []bool
		for _, br := range p.Path() {
			dirs = append(dirs, br.Taken)
		}
		valid = append(valid, dirs)
	}
	slices.SortFunc(valid, func(a, b []bool) int {
		if state.Less(a, b) {
			return -1
		}
		return 1
	})
	if rs := state.Ranges(valid, rep.Update.Changed); len(rs) != 2 {
		t.Fatalf("%d ranges, want 2: the test does not exercise parallel ranges", len(rs))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.released {
		t.Errorf("the first query (range %d) waited for the other range in vain: ranges explored one after the other", s.first)
	}
	if s.asked[0] == 0 || s.asked[1] == 0 || s.asked[0]+s.asked[1] != len(rep.Update.Changed) {
		t.Errorf("queries per range %v for %d changed sides", s.asked, len(rep.Update.Changed))
	}
	if p := s.g.peak.Load(); p != 2 {
		t.Errorf("at most %d queries at once, want 2", p)
	}
}
