package coordinator

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// stacks makes the solvers of a pool for a test, numbered from 0, and
// counts those made and released.
type stacks struct {
	make     func(i int) solver.Solver
	mu       sync.Mutex
	made     int
	released int
}

func (s *stacks) newSolver() (solver.Solver, func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.made
	s.made++
	return s.make(i), func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.released++
	}, nil
}

func (s *stacks) counts() (made, released int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.made, s.released
}

// gauge measures how many queries are solved at once, and counts the
// calls of Solve that began and those that returned.
type gauge struct {
	now, peak, began, ended atomic.Int64
	// full is closed once want queries are solved at once.
	want int64
	once sync.Once
	full chan struct{}
}

func newGauge(want int64) *gauge { return &gauge{want: want, full: make(chan struct{})} }

func (g *gauge) enter() {
	g.began.Add(1)
	n := g.now.Add(1)
	for p := g.peak.Load(); n > p && !g.peak.CompareAndSwap(p, n); p = g.peak.Load() {
	}
	if n >= g.want {
		g.once.Do(func() { close(g.full) })
	}
}

func (g *gauge) exit() {
	g.now.Add(-1)
	g.ended.Add(1)
}

// gaugedSolver takes delay (or until its context ends) over each query,
// under a gauge, and then answers st; it panics on the queries whose
// 1-based number is in panicOn.
type gaugedSolver struct {
	g       *gauge
	delay   time.Duration
	st      solver.Status
	calls   int
	panicOn map[int]bool
}

func (s *gaugedSolver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	s.g.enter()
	defer s.g.exit()
	s.calls++
	if s.panicOn[s.calls] {
		var vars []uint64
		_ = vars[len(vars)]
	}
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return solver.Result{}, ctx.Err()
	}
	if s.st == solver.Sat {
		return solver.Result{Status: solver.Sat, Model: input(modeBranches + 1)}, nil
	}
	return solver.Result{Status: s.st}, nil
}

// TestPoolAnswers runs the 64 queries of the branches mode, all unsat, on
// pools of one and two solvers: each answer is resolved in the tree (the
// side infeasible, or failed for the query whose solver panicked), the
// pool solves as many queries at once as it has solvers, a panic costs
// one query of one goroutine and is recorded once, and every solver is
// released.
func TestPoolAnswers(t *testing.T) {
	tests := []struct {
		name    string
		solvers int
		panicOn map[int]bool // of the first solver
		errors  int
	}{
		{name: "one solver", solvers: 1},
		{name: "two solvers", solvers: 2},
		{name: "a panic costs its query", solvers: 2, panicOn: map[int]bool{1: true}, errors: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGauge(int64(tt.solvers))
			st := &stacks{make: func(i int) solver.Solver {
				s := &gaugedSolver{g: g, delay: 5 * time.Millisecond, st: solver.Unsat}
				if i == 0 {
					s.panicOn = tt.panicOn
				}
				return s
			}}
			cfg := runConfig(t, nil, modeBranches)
			cfg.Solvers, cfg.NewSolver = tt.solvers, st.newSolver
			rep := runDriver(t, context.Background(), cfg)
			if rep.Stopped != "exhausted" {
				t.Errorf("stopped %q, want exhausted", rep.Stopped)
			}
			if rep.Queries["unsat"] != 64-tt.errors || rep.Queries["error"] != tt.errors {
				t.Errorf("queries %v, want %d unsat and %d errors", rep.Queries, 64-tt.errors, tt.errors)
			}
			if rep.Tree.Infeasible != 64-tt.errors || rep.Tree.Failed != tt.errors || rep.Tree.Pending != 0 || rep.Tree.Open != 0 {
				t.Errorf("tree %+v, want %d infeasible and %d failed sides", rep.Tree, 64-tt.errors, tt.errors)
			}
			if p := g.peak.Load(); p != int64(tt.solvers) {
				t.Errorf("at most %d queries solved at once, want %d", p, tt.solvers)
			}
			if len(rep.InternalErrors) != min(tt.errors, 1) {
				t.Errorf("internal errors %+v, want %d", rep.InternalErrors, min(tt.errors, 1))
			} else if tt.errors > 0 && (rep.InternalErrors[0].Where != "solver" || rep.InternalErrors[0].Count != tt.errors) {
				t.Errorf("internal error %+v, want the solver's", rep.InternalErrors[0])
			}
			sites := 0
			for _, s := range rep.SiteQueries {
				sites++
				if s.Queries != 1 || s.Unsat+s.Unknown != 1 || s.Time <= 0 {
					t.Errorf("site queries %+v, want one failed query that took time", *s)
				}
			}
			if sites != 64 {
				t.Errorf("queries counted at %d sites, want 64", sites)
			}
			if made, released := st.counts(); made != tt.solvers || released != made {
				t.Errorf("%d solvers made, %d released; want %d and all", made, released, tt.solvers)
			}
		})
	}
}

// TestPoolShutdown stops runs while both solvers of the pool are busy: at
// the end of the budget, on cancellation, and when the runs are spent
// with queries in flight. Run returns, every query in flight was
// interrupted and returned, and every solver is released.
func TestPoolShutdown(t *testing.T) {
	tests := []struct {
		name    string
		budget  time.Duration
		runs    int
		cancel  bool
		st      solver.Status
		delay   time.Duration
		stopped string
	}{
		{name: "budget", budget: 300 * time.Millisecond, st: solver.Unknown, delay: time.Hour, stopped: "budget"},
		{name: "cancel", cancel: true, st: solver.Unknown, delay: time.Hour, stopped: "interrupted"},
		{name: "runs", runs: 3, st: solver.Sat, delay: 20 * time.Millisecond, stopped: "runs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGauge(2)
			st := &stacks{make: func(int) solver.Solver {
				return &gaugedSolver{g: g, delay: tt.delay, st: tt.st}
			}}
			cfg := runConfig(t, nil, modeBranches)
			cfg.Solvers, cfg.NewSolver = 2, st.newSolver
			cfg.Budget, cfg.Runs = tt.budget, tt.runs
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel {
				go func() {
					select {
					case <-g.full:
						cancel()
					case <-ctx.Done():
					}
				}()
			}
			rep := runDriver(t, ctx, cfg)
			if rep.Stopped != tt.stopped {
				t.Errorf("stopped %q, want %q", rep.Stopped, tt.stopped)
			}
			if p := g.peak.Load(); p != 2 {
				t.Errorf("at most %d queries solved at once, want 2", p)
			}
			if began, ended := g.began.Load(), g.ended.Load(); began != ended {
				t.Errorf("%d queries began, %d returned", began, ended)
			}
			asked := 0
			for _, n := range rep.Queries {
				asked += n
			}
			if int64(asked) != g.began.Load() {
				t.Errorf("%d queries counted (%v), %d asked", asked, rep.Queries, g.began.Load())
			}
			if made, released := st.counts(); made != 2 || released != 2 {
				t.Errorf("%d solvers made, %d released; want 2 and 2", made, released)
			}
		})
	}
}

// enumSolver decides the queries of the helper's branches mode, whose
// terms compare x (variable 0) with constants: it tries as x each
// constant of the query, and modeBranches, in increasing order. It logs
// the queries it is asked.
type enumSolver struct {
	mu  *sync.Mutex
	log *[]string
}

func (s enumSolver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	s.mu.Lock()
	*s.log = append(*s.log, fmt.Sprint(q.Goal, q.Constraints))
	s.mu.Unlock()
	vals := []uint64{modeBranches}
	for _, e := range append(slices.Clone(q.Constraints), q.Goal) {
		vals = append(vals, constants(e)...)
	}
	slices.Sort(vals)
	for _, v := range slices.Compact(vals) {
		env := sym.Env{0: v}
		holds := func(e *sym.Expr) bool {
			ev := sym.Evaluator{Env: env}
			x, err := ev.Value(e)
			return err == nil && x != 0
		}
		if holds(q.Goal) && !slices.ContainsFunc(q.Constraints, func(c *sym.Expr) bool { return !holds(c) }) {
			return solver.Result{Status: solver.Sat, Model: env}, nil
		}
	}
	return solver.Result{Status: solver.Unsat}, nil
}

func constants(e *sym.Expr) []uint64 {
	if e.Kind == sym.KConst {
		return []uint64{e.Val}
	}
	var out []uint64
	for _, a := range e.Args {
		out = append(out, constants(a)...)
	}
	return out
}

// TestRunDeterministicWithOneWorker explores the branches mode to the end
// with one worker, back-off and optimistic solving, three times: through
// Config.Solver, and twice through a pool of one made by Config.NewSolver.
// The three runs ask the same queries in the same order and end alike.
func TestRunDeterministicWithOneWorker(t *testing.T) {
	type outcome struct {
		log     []string
		execs   int
		queries string
		paths   int
	}
	run := func(pool bool) outcome {
		var mu sync.Mutex
		var log []string
		s := enumSolver{mu: &mu, log: &log}
		cfg := runConfig(t, s, modeBranches)
		cfg.Seed, cfg.Backoff, cfg.Optimistic = 3, BackoffAll, true
		if pool {
			cfg.Solver = nil
			cfg.Solvers, cfg.NewSolver = 1, func() (solver.Solver, func(), error) { return s, nil, nil }
		}
		rep := runDriver(t, context.Background(), cfg)
		if rep.Stopped != "exhausted" {
			t.Errorf("stopped %q, want exhausted", rep.Stopped)
		}
		// The back-off is on but puts nothing aside: every refuted side of
		// the helper's branches (x == 1000+i after x == 1000+j) is one the
		// tree settles without a query, so no outcome fails twice.
		if rep.Tree.Settled == 0 {
			t.Error("the tree settled no side: the test does not exercise it")
		}
		// fmt prints a map sorted by key.
		return outcome{log: log, execs: rep.Execs, queries: fmt.Sprint(rep.Queries), paths: rep.Paths}
	}
	first := run(false)
	if len(first.log) < 64 {
		t.Fatalf("%d queries, want at least 64", len(first.log))
	}
	for i, pool := range []bool{true, true} {
		got := run(pool)
		if !slices.Equal(got.log, first.log) {
			at := 0
			for at < min(len(got.log), len(first.log)) && got.log[at] == first.log[at] {
				at++
			}
			t.Errorf("run %d: %d queries differing from query %d on, of %d", i+2, len(got.log), at, len(first.log))
		}
		if got.execs != first.execs || got.queries != first.queries || got.paths != first.paths {
			t.Errorf("run %d: %d executions, queries %s, %d paths; first run %d, %s, %d", i+2,
				got.execs, got.queries, got.paths, first.execs, first.queries, first.paths)
		}
	}
}

// TestPoolAffinity sends queries to a pool of two and checks which
// goroutine solved each: the idle one whose last query shares the longest
// prefix of constraints with it, the first among equals.
func TestPoolAffinity(t *testing.T) {
	b := sym.NewBuilder()
	x := b.Var(0, 8)
	c := func(k uint64) *sym.Expr { return b.Cmp(sym.KEq, x, b.Const(k, 8)) }
	p1, p2, p3 := c(1), c(2), c(3)
	st := &stacks{make: func(int) solver.Solver { return answering(solver.Unsat) }}
	d := &coordinator{cfg: Config{Options: Options{Solvers: 2}, NewSolver: st.newSolver}}
	p, err := d.startPool(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	send := func(cs ...*sym.Expr) { p.send(request{q: solver.Query{Constraints: cs, Goal: p1}}) }
	take := func() int {
		a := <-p.answers
		p.accept(a)
		return a.by
	}
	// Both idle, nothing solved: the first. Then 0 is busy: the other.
	send(p1, p2)
	send(p3)
	if got := []int{take(), take()}; !slices.Equal(slices.Sorted(slices.Values(got)), []int{0, 1}) {
		t.Fatalf("the first two queries were solved by %v, want one each", got)
	}
	// Goroutine 0 last solved p1 p2, goroutine 1 p3; one query at a time.
	tests := []struct {
		name string
		cs   []*sym.Expr
		by   int
	}{
		{"longest shared prefix", []*sym.Expr{p1, p2, p3}, 0},
		{"shares with the other", []*sym.Expr{p3, p1}, 1},
		{"first among equals", []*sym.Expr{p2}, 0},
		{"shares with the second", []*sym.Expr{p3}, 1},
	}
	for _, tt := range tests {
		send(tt.cs...)
		if by := take(); by != tt.by {
			t.Errorf("%s: solved by %d, want %d", tt.name, by, tt.by)
		}
	}
}

// stuckSolver ignores its context: it answers only once release is
// closed, as a query that does not honour Z3's interrupt.
type stuckSolver struct {
	release chan struct{}
	g       *gauge
}

func (s stuckSolver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	s.g.enter()
	defer s.g.exit()
	<-s.release
	return solver.Result{Status: solver.Unknown}, nil
}

// TestPoolStuckSolver stops runs at the end of their budget while their
// solvers ignore the interruption: the run ends within the grace it gives
// them, and each solver is released once its query ends.
func TestPoolStuckSolver(t *testing.T) {
	for _, n := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d solvers", n), func(t *testing.T) {
			g := newGauge(int64(n))
			release := make(chan struct{})
			st := &stacks{make: func(int) solver.Solver { return stuckSolver{release: release, g: g} }}
			cfg := runConfig(t, nil, modeBranches)
			cfg.Solvers, cfg.NewSolver, cfg.Budget = n, st.newSolver, 300*time.Millisecond
			begin := time.Now()
			rep := runDriver(t, context.Background(), cfg)
			if el := time.Since(begin); rep.Stopped != "budget" || el > cfg.Budget+2*shutdownGrace {
				t.Errorf("stopped %q after %v, want budget within %v", rep.Stopped, el, cfg.Budget+2*shutdownGrace)
			}
			if _, released := st.counts(); released != 0 {
				t.Errorf("%d solvers released while their queries run", released)
			}
			close(release)
			deadline := time.Now().Add(5 * time.Second)
			for _, released := st.counts(); released != n && time.Now().Before(deadline); _, released = st.counts() {
				time.Sleep(10 * time.Millisecond)
			}
			if made, released := st.counts(); made != n || released != n {
				t.Errorf("%d solvers made, %d released once their queries ended; want %d", made, released, n)
			}
		})
	}
}

// TestRunDeterministicBothLanes runs the branches mode with both lanes,
// one worker and a pool of one, three times for a number of executions:
// in lockstep the lanes alternate by counts, so the runs ask the same
// queries in the same order, run the same batches and end alike.
func TestRunDeterministicBothLanes(t *testing.T) {
	type outcome struct {
		log                           []string
		execs, paths, muts, batchKept int
		covered                       string
	}
	run := func() outcome {
		var mu sync.Mutex
		var log []string
		s := enumSolver{mu: &mu, log: &log}
		cfg := runConfig(t, nil, modeBranches)
		// A seed whose mutants miss the helper's hanging mode, which
		// would take the time limit (10 s) twice, and a shorter limit
		// would make the runs differ by timings: which seeds do
		// depends on the mutators (rt/mutate.go).
		cfg.Seed, cfg.Lanes, cfg.Runs, cfg.Workers = 4, LanesBoth, 600, 1
		cfg.Solvers, cfg.NewSolver = 1, func() (solver.Solver, func(), error) { return s, nil, nil }
		rep := runDriver(t, context.Background(), cfg)
		if rep.Lanes.MutationExecs == 0 || rep.Lanes.ConcolicExecs < 2 {
			t.Errorf("lanes %+v: the run did not alternate them", rep.Lanes)
		}
		return outcome{log: log, execs: rep.Execs, paths: rep.Paths, muts: rep.Lanes.MutationExecs,
			covered: fmt.Sprint(rep.Covered), batchKept: rep.Lanes.MutationKept}
	}
	first := run()
	if len(first.log) == 0 {
		t.Fatal("no queries: the test does not exercise the concolic lane")
	}
	for i := range 2 {
		got := run()
		if !slices.Equal(got.log, first.log) {
			t.Errorf("run %d: %d queries, differing from the first run's %d", i+2, len(got.log), len(first.log))
		}
		if got.execs != first.execs || got.paths != first.paths || got.muts != first.muts || got.covered != first.covered || got.batchKept != first.batchKept {
			t.Errorf("run %d: %d executions, %d paths, %d in batches, %d kept by batches; first run %d, %d, %d, %d", i+2,
				got.execs, got.paths, got.muts, got.batchKept, first.execs, first.paths, first.muts, first.batchKept)
		}
	}
}

// hangs decides which queries of a test's solvers hang, and frees them
// at the end of the test.
type hangs struct {
	// hang picks the queries that hang by their number, from 1, over
	// every solver.
	hang    func(n int64) bool
	asked   atomic.Int64
	release chan struct{}
	once    sync.Once
	// returned is closed when the first hung query returns.
	returned     chan struct{}
	returnedOnce sync.Once
	// waitLate makes the queries asked once the hung ones are freed
	// wait until one has returned, so that its late answer reaches the
	// loop while others are still being solved.
	waitLate bool
}

func newHangs(hang func(n int64) bool) *hangs {
	return &hangs{hang: hang, release: make(chan struct{}), returned: make(chan struct{})}
}

// free lets the hung queries return.
func (h *hangs) free() { h.once.Do(func() { close(h.release) }) }

// hangingSolver answers the queries h picks only once h is freed,
// ignoring its context, as a Z3 query that honours neither its timeout
// nor Z3_interrupt; its answer is satisfiable. It answers the others
// unsatisfiable after a millisecond.
type hangingSolver struct{ h *hangs }

func (s hangingSolver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	if !s.h.hang(s.h.asked.Add(1)) {
		select {
		case <-s.h.release:
			if s.h.waitLate {
				<-s.h.returned
			}
		default:
		}
		select {
		case <-time.After(time.Millisecond):
		case <-ctx.Done():
			return solver.Result{}, ctx.Err()
		}
		return solver.Result{Status: solver.Unsat}, nil
	}
	<-s.h.release
	s.h.returnedOnce.Do(func() { close(s.h.returned) })
	return solver.Result{Status: solver.Sat, Model: input(modeBranches + 1)}, nil
}

// waitReleased waits, a few seconds at most, until every solver st made
// was released, so that no goroutine of the test outlives it.
func waitReleased(t *testing.T, st *stacks) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for made, released := st.counts(); released != made && time.Now().Before(deadline); made, released = st.counts() {
		time.Sleep(10 * time.Millisecond)
	}
	if made, released := st.counts(); released != made {
		t.Errorf("%d solvers made, %d released once their queries ended", made, released)
	}
}

// TestPoolWatchdog runs the branches mode (64 queries) with solvers that
// ignore their interrupt on some queries, and a watchdog bound of 10 ms
// (so a query is given up after a second). The stuck query is counted
// stuck, at its site and as unknown in the tree; a new solver takes the
// place of the abandoned one while the run keeps answering the others; a
// late answer is dropped, not applied; the abandoned goroutines stay
// within the cap, past which the run goes on without solving and says
// why; and every solver is released once its query ends.
func TestPoolWatchdog(t *testing.T) {
	tests := []struct {
		name     string
		solvers  int
		given    bool // Config.Solver, no NewSolver
		lanes    string
		hang     func(n int64) bool
		freeLate bool // free the hung query while the run goes on
		stopped  string
		stuck    int // queries given up
		replaced int
		dead     int
		why      string // in Stuck.Why
	}{
		{name: "one solver, replaced", solvers: 1, hang: func(n int64) bool { return n == 1 }, stopped: "exhausted", stuck: 1, replaced: 1},
		{name: "two solvers, the other answers", solvers: 2, hang: func(n int64) bool { return n == 1 }, stopped: "exhausted", stuck: 1, replaced: 1},
		{name: "late answer dropped", solvers: 1, hang: func(n int64) bool { return n == 1 }, freeLate: true, stopped: "exhausted", stuck: 1, replaced: 1},
		{name: "cap", solvers: 1, hang: func(int64) bool { return true }, stopped: "solver stuck", stuck: 2, replaced: 1, dead: 1, why: "2×-solvers"},
		{name: "given solver", solvers: 1, given: true, hang: func(n int64) bool { return n == 1 }, stopped: "solver stuck", stuck: 1, dead: 1, why: "given"},
		{name: "given solver, mutation lane goes on", solvers: 1, given: true, lanes: LanesBoth, hang: func(n int64) bool { return n == 1 }, stopped: "budget", stuck: 1, dead: 1, why: "given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHangs(tt.hang)
			h.waitLate = tt.freeLate
			defer h.free()
			st := &stacks{make: func(i int) solver.Solver {
				if tt.freeLate && i == tt.solvers {
					h.free() // the replacement: the stuck query was given up
				}
				return hangingSolver{h: h}
			}}
			cfg := runConfig(t, nil, modeBranches)
			cfg.Solvers, cfg.NewSolver, cfg.SolveBound, cfg.Lanes = tt.solvers, st.newSolver, 10*time.Millisecond, tt.lanes
			if tt.given {
				cfg.Solver, cfg.NewSolver = hangingSolver{h: h}, nil
			}
			if tt.lanes != "" {
				// The lane's inputs hang or eat memory in some modes.
				cfg.Budget, cfg.Timeout, cfg.MemLimitMB = 2*time.Second, 300*time.Millisecond, 128
			}
			rep := runDriver(t, context.Background(), cfg)
			h.free()
			if rep.Stopped != tt.stopped {
				t.Errorf("stopped %q, want %q", rep.Stopped, tt.stopped)
			}
			s := rep.Stuck
			if s.Queries != tt.stuck || rep.Queries["stuck"] != tt.stuck || s.Replaced != tt.replaced || s.Dead != tt.dead {
				t.Errorf("stuck %+v, queries %v; want %d stuck, %d replaced, %d dead", s, rep.Queries, tt.stuck, tt.replaced, tt.dead)
			}
			if !strings.Contains(s.Why, tt.why) || tt.why == "" && s.Why != "" {
				t.Errorf("why %q, want %q", s.Why, tt.why)
			}
			if made, _ := st.counts(); !tt.given && made != tt.solvers+tt.replaced {
				t.Errorf("%d solvers made, want %d and %d replacing", made, tt.solvers, tt.replaced)
			}
			stuckAt := 0
			for _, q := range rep.SiteQueries {
				if q.Stuck > 0 && q.Unknown != q.Stuck {
					t.Errorf("site queries %+v: a stuck query is not unknown", *q)
				}
				stuckAt += q.Stuck
			}
			if stuckAt != tt.stuck || rep.Tree.Failed != tt.stuck {
				t.Errorf("%d stuck at sites, %d failed sides in the tree; want %d", stuckAt, rep.Tree.Failed, tt.stuck)
			}
			if tt.stopped == "exhausted" && (rep.Queries["unsat"] != 64-tt.stuck || rep.Tree.Infeasible != 64-tt.stuck) {
				t.Errorf("queries %v, tree %+v: the other queries were not all answered", rep.Queries, rep.Tree)
			}
			// The hung query's answer is sat: applied, it would count,
			// and resolve its side satisfiable.
			if tt.freeLate && (s.Late != 1 || rep.Queries["sat"] != 0) {
				t.Errorf("late %d, queries %v; want the late answer dropped", s.Late, rep.Queries)
			}
			if tt.lanes == LanesBoth && rep.Lanes.MutationExecs == 0 {
				t.Errorf("lanes %+v: the mutation lane did not go on", rep.Lanes)
			}
			waitReleased(t, st)
		})
	}
}

// unknownSolver gives up on every query, as Z3 does at its timeout on a
// path through a regular expression.
type unknownSolver struct{ calls atomic.Int64 }

func (s *unknownSolver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	s.calls.Add(1)
	return solver.Result{Status: solver.Unknown}, nil
}

// TestRunLockstepFailuresYieldToBatches runs the branches mode with both
// lanes in lockstep (one worker, a pool of one) against a solver that
// gives up on every query. The seed's path leaves 64 candidates; each
// failed query must hand the worker back to the mutation lane, so the run
// spends its budget of executions in batches after a few queries, instead
// of asking all 64 in a row while the worker idles (go-version: 112 s of
// unknown queries before the second execution).
func TestRunLockstepFailuresYieldToBatches(t *testing.T) {
	s := &unknownSolver{}
	cfg := runConfig(t, nil, modeBranches)
	cfg.Seed, cfg.Lanes, cfg.Runs, cfg.Workers = 4, LanesBoth, 200, 1
	cfg.Solvers, cfg.NewSolver = 1, func() (solver.Solver, func(), error) { return s, nil, nil }
	rep := runDriver(t, context.Background(), cfg)
	if rep.Lanes.MutationExecs == 0 {
		t.Fatalf("lanes %+v: no batch ran", rep.Lanes)
	}
	if n := s.calls.Load(); n == 0 || n >= 16 {
		t.Errorf("%d queries asked within %d executions (%d in batches), want 1 to 15: failed queries did not yield the worker",
			n, rep.Execs, rep.Lanes.MutationExecs)
	}
}
