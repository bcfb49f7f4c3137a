package coordinator

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocolic/gocolic/guard"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// panickySolver panics as the walk did on the JSON library (an index out
// of range) on the queries whose 1-based number is in panicOn, and answers
// with answer otherwise.
type panickySolver struct {
	calls   atomic.Int64
	panicOn map[int64]bool
	answer  solver.Status
}

func (s *panickySolver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	if s.panicOn[s.calls.Add(1)] {
		var vars []uint64
		_ = vars[len(vars)] // index out of range [0] with length 0
	}
	return solver.Result{Status: s.answer}, nil
}

// TestRunSurvivesSolverPanics runs the coordinator with a solver chain
// that panics on two queries, in the core or in the secondary of the auto
// layer: each costs its query, counted as an error (the report's unknown),
// is recorded once with its stack and said once, and the run goes on to
// exhaust the search.
func TestRunSurvivesSolverPanics(t *testing.T) {
	// The layers that answer from the seed (domain, seedfix) would solve
	// the branches mode's x == c queries before they reach the core.
	layers := solver.Config{FastUnsat: true, Independence: true, Cache: true}
	tests := []struct {
		name  string
		chain func(p *panickySolver) solver.Solver
	}{
		{"core under the layers", func(p *panickySolver) solver.Solver {
			return solver.Chain(p, layers)
		}},
		{"secondary of auto", func(p *panickySolver) solver.Solver {
			undecided := answering(solver.Unknown)
			return solver.Chain(solver.NewAuto(undecided, p, solver.AutoOptions{}), layers)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &panickySolver{panicOn: map[int64]bool{1: true, 3: true}, answer: solver.Unsat}
			var out syncBuffer
			cfg := runConfig(t, tt.chain(p), modeBranches)
			cfg.Progress = &out
			rep := runDriver(t, context.Background(), cfg)
			if rep.Stopped != "exhausted" {
				t.Errorf("stopped %q, want exhausted", rep.Stopped)
			}
			if rep.Queries["error"] != 2 || rep.Queries["error"]+rep.Queries["unsat"] != 64 {
				t.Errorf("queries %v, want 2 errors and the other 62 of 64 unsat", rep.Queries)
			}
			if len(rep.InternalErrors) != 1 {
				t.Fatalf("internal errors %+v, want one", rep.InternalErrors)
			}
			ie := rep.InternalErrors[0]
			if ie.Where != "solver" || ie.Count != 2 || !strings.Contains(ie.Message, "index out of range [0] with length 0") {
				t.Errorf("internal error %+v, want the solver's index out of range twice", ie)
			}
			if !strings.Contains(ie.Stack, "panickySolver).Solve") {
				t.Errorf("stack does not locate the panic:\n%s", ie.Stack)
			}
			if n := strings.Count(out.String(), "internal error in solver"); n != 1 {
				t.Errorf("the failure was said %d times, want once:\n%s", n, out.String())
			}
		})
	}
}

// answering is a solver that answers every query with st.
type answering solver.Status

func (a answering) Solve(context.Context, solver.Query) (solver.Result, error) {
	return solver.Result{Status: solver.Status(a)}, nil
}

// TestRunSurvivesCoordinatorPanic makes the loop itself panic after the
// first execution was kept: the run ends with an error that says so, and
// its report still holds what it found.
func TestRunSurvivesCoordinatorPanic(t *testing.T) {
	cfg := runConfig(t, &unsatSolver{}, modeBranches)
	cfg.OnKeep = func(sym.Env, bool) { panic("keeping failed") }
	rep, err := Run(context.Background(), cfg)
	if g := guard.As(err); g == nil || g.Where != "coordinator" {
		t.Fatalf("Run error %v, want the coordinator's recovered panic", err)
	}
	if rep == nil {
		t.Fatal("no report")
	}
	if rep.Stopped != "internal error" || rep.Execs != 1 || len(rep.Cases) != 1 {
		t.Errorf("stopped %q, %d executions, %d cases; want the first execution kept", rep.Stopped, rep.Execs, len(rep.Cases))
	}
	if len(rep.InternalErrors) != 1 || rep.InternalErrors[0].Where != "coordinator" || rep.InternalErrors[0].Message != "keeping failed" {
		t.Errorf("internal errors %+v, want the coordinator's panic", rep.InternalErrors)
	}
}

// TestRunJobRecovers checks that a panic in the coordinator's side of a
// worker exchange is an error of that job, not of the process.
func TestRunJobRecovers(t *testing.T) {
	var w *worker // a worker that does not exist panics on use
	_, _, err := runJob(w, &rt.Request{Env: input(0), MaxLen: 8})
	if g := guard.As(err); g == nil || g.Where != "worker" {
		t.Fatalf("runJob error %v, want the worker exchange's recovered panic", err)
	}
}

// TestAddInternal checks the bookkeeping: one entry per place and message,
// counted, and errors that are not recovered panics are ignored.
func TestAddInternal(t *testing.T) {
	var rep Report
	boom := func(where string, v any) error { return &guard.Error{Where: where, Value: v, Stack: where + " stack"} }
	steps := []struct {
		err          error
		recorded, is bool
	}{
		{errors.New("plain"), false, false},
		{nil, false, false},
		{boom("solver", "a"), true, true},
		{boom("solver", "a"), true, false},
		{boom("solver", "b"), true, true},
		{boom("emit", "a"), true, true},
	}
	for i, s := range steps {
		if rec, isNew := rep.AddInternal(s.err); rec != s.recorded || isNew != s.is {
			t.Errorf("step %d: AddInternal(%v) = %v, %v; want %v, %v", i, s.err, rec, isNew, s.recorded, s.is)
		}
	}
	var got []string
	for _, ie := range rep.InternalErrors {
		got = append(got, ie.Where+"/"+ie.Message+"/"+ie.Stack+"/"+string(rune('0'+ie.Count)))
	}
	if want := "solver/a/solver stack/2 solver/b/solver stack/1 emit/a/emit stack/1"; strings.Join(got, " ") != want {
		t.Errorf("internal errors %v, want %s", got, want)
	}
}

// TestRunRuntimeFault checks that a panic of gocolic's runtime in a
// tracked execution, which the run without tracking does not repeat, is
// an internal error and not a finding of the target, and that the run
// without tracking stands for the execution; the target's own panic
// stays a finding.
func TestRunRuntimeFault(t *testing.T) {
	cfg := runConfig(t, &unsatSolver{}, modeRuntime, modePanic)
	rep := runDriver(t, context.Background(), cfg)
	checkFindings(t, rep.Findings, []wantFinding{{"panic", "boom", 1, modePanic}})
	if len(rep.InternalErrors) != 1 || rep.InternalErrors[0].Where != "worker" ||
		!strings.Contains(rep.InternalErrors[0].Message, "panic in gocolic's runtime") ||
		!strings.Contains(rep.InternalErrors[0].Stack, "sym") {
		t.Fatalf("internal errors %+v, want the runtime's panic, with its stack", rep.InternalErrors)
	}
	if rep.SlowTracked != 1 || rep.Execs != 2 {
		t.Errorf("%d executions, %d run without tracking; want 2, 1", rep.Execs, rep.SlowTracked)
	}
}

// TestRuntimePanic checks which panic stacks locate the panic in
// gocolic's runtime: the innermost frame under the panic, Go's runtime
// aside.
func TestRuntimePanic(t *testing.T) {
	const recoverFrames = "goroutine 1 [running]:\ngocolicrt/rt.execute.func1()\n\t/x/worker.go:114 +0x9c\n"
	tests := []struct {
		name  string
		stack string
		want  bool
	}{
		{"term builder", recoverFrames + "panic({0x1, 0x2})\n\t/go/src/runtime/panic.go:860 +0x13a\ngocolicrt/rt/sym.(*Builder).Bin(0x0)\n\t/go/src/gocolicrt/rt/sym/builder.go:117 +0x2d\np.F()\n\t/m/p.go:3\n", true},
		{"through Go's runtime", recoverFrames + "panic({0x1, 0x2})\n\t/go/src/runtime/panic.go:860\nruntime.panicmem(...)\n\t/go/src/runtime/panic.go:262\ngocolicrt/rt.readTail(0x1)\n\t/go/src/gocolicrt/rt/models_io.go:150\n", true},
		{"module layout", "panic({0x1, 0x2})\n\t/go/src/runtime/panic.go:860\ngithub.com/gocolic/gocolic/sym.(*Builder).Bin(0x0)\n\t/r/sym/builder.go:117\n", true},
		{"the target's", recoverFrames + "panic({0x1, 0x2})\n\t/go/src/runtime/panic.go:860\nexample.com/p.F(0x1)\n\t/m/p.go:9 +0x1\ngocolicrt/rt.Call()\n\t/x/rt.go:1\n", false},
		{"no panic line", "goroutine 1 [running]:\ngocolicrt/rt.F()\n\t/x.go:1\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := &rt.Response{Status: rt.StatusPanic, Stack: tt.stack}
			if got := runtimePanic(resp); got != tt.want {
				t.Errorf("runtimePanic = %v, want %v", got, tt.want)
			}
		})
	}
	if runtimePanic(&rt.Response{Status: rt.StatusOK, Stack: tests[0].stack}) {
		t.Error("an execution that did not panic is a runtime panic")
	}
}

// TestRunSlowTracked runs inputs that exceed the 500 ms limit only with
// tracking: one whose tracked run ends within ten times the limit is
// explored on a second tracked try (its path reaches the tree and gives
// the solver a query); one that needs longer stays slow, its concrete run
// standing for it, as before.
func TestRunSlowTracked(t *testing.T) {
	tests := []struct {
		name                  string
		x                     int64
		wantRetried, wantSlow int
		wantPaths             int
	}{
		{"second try in time", modeSlowOnce, 1, 0, 1},
		{"second try too slow", modeSlowTwice, 0, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &unsatSolver{}
			cfg := runConfig(t, s, tt.x)
			// 500 ms: a fresh worker's first execution, which the
			// limit includes, fits in it on a loaded machine.
			cfg.Lanes, cfg.Timeout = LanesConcolic, 500*time.Millisecond
			rep := runDriver(t, context.Background(), cfg)
			if rep.SlowRetried != tt.wantRetried || rep.SlowTracked != tt.wantSlow {
				t.Errorf("%d explored on a second try, %d slow; want %d, %d", rep.SlowRetried, rep.SlowTracked, tt.wantRetried, tt.wantSlow)
			}
			if rep.Paths != tt.wantPaths || (s.calls.Load() > 0) != (tt.wantPaths > 0) {
				t.Errorf("%d paths, %d queries; want %d paths, and queries only with a path", rep.Paths, s.calls.Load(), tt.wantPaths)
			}
			if len(rep.Findings) != 0 {
				t.Errorf("findings %+v, want none: slowness under tracking is not a bug", rep.Findings)
			}
		})
	}
}
