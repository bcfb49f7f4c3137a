package coordinator

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// executors is a Remote of executors in this process, as package dist's
// are on other machines: each input goes to a free one.
type executors struct {
	free chan *Executor
}

func newExecutors(t *testing.T, n int, sp ExecSpec) *executors {
	r := &executors{free: make(chan *Executor, n)}
	for range n {
		e, err := NewExecutor(sp)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(e.Close)
		r.free <- e
	}
	return r
}

func (r *executors) Exec(ctx context.Context, env sym.Env) (Executed, error) {
	e := <-r.free
	defer func() { r.free <- e }()
	return e.Run(env, time.Time{})
}

// never is a Remote whose executors never report.
type never struct{}

func (never) Exec(ctx context.Context, env sym.Env) (Executed, error) {
	<-ctx.Done()
	return Executed{}, ErrLost
}

// TestRemoteMatchesWorkers explores the helper's branches mode to the
// end on the run's own workers and through Remote, with one and with
// three inputs out at a time: the runs find the same paths, coverage and
// findings.
func TestRemoteMatchesWorkers(t *testing.T) {
	type summary struct {
		paths, execs int
		covered      string
		findings     []string
	}
	explore := func(remote bool, workers int) summary {
		var mu sync.Mutex
		var log []string
		cfg := runConfig(t, enumSolver{mu: &mu, log: &log}, modeBranches, modePanic)
		cfg.Workers, cfg.Lanes = workers, LanesConcolic
		if remote {
			cfg.Remote = newExecutors(t, workers, cfg.ExecSpec())
		}
		rep := runDriver(t, context.Background(), cfg)
		if rep.Stopped != "exhausted" {
			t.Errorf("remote %v, %d workers: stopped %q, want exhausted", remote, workers, rep.Stopped)
		}
		var f []string
		for _, x := range rep.Findings {
			f = append(f, fmt.Sprint(x.Kind, x.Message))
		}
		slices.Sort(f)
		return summary{paths: rep.Paths, execs: rep.Execs, covered: fmt.Sprint(rep.Covered), findings: f}
	}
	want := explore(false, 1)
	if want.paths < 2 || len(want.findings) == 0 {
		t.Fatalf("the run's own workers: %+v; the test needs paths and a finding", want)
	}
	for _, workers := range []int{1, 3} {
		got := explore(true, workers)
		if got.paths != want.paths || got.covered != want.covered || !slices.Equal(got.findings, want.findings) {
			t.Errorf("through Remote with %d out: %+v, want %+v", workers, got, want)
		}
	}
}

// TestRemoteLost gives the run executors that never report: the run
// stops at its budget, counts no execution, and does not wait for them
// longer than lostAfter.
func TestRemoteLost(t *testing.T) {
	cfg := runConfig(t, &unsatSolver{}, modeBranches)
	cfg.Lanes, cfg.Remote, cfg.Workers = LanesConcolic, never{}, 2
	cfg.Budget, cfg.Timeout = 200*time.Millisecond, 100*time.Millisecond
	start := time.Now()
	rep := runDriver(t, context.Background(), cfg)
	if rep.Execs != 0 || rep.Stopped != "budget" {
		t.Errorf("%d executions, stopped %q; want 0 and budget", rep.Execs, rep.Stopped)
	}
	if el := time.Since(start); el > 8*time.Second {
		t.Errorf("the run took %v to give its inputs up", el)
	}
}

// TestRemoteNeedsConcolicLaneOnly refuses a run that would give the
// mutation lane's batches to remote executors.
func TestRemoteNeedsConcolicLaneOnly(t *testing.T) {
	cfg := runConfig(t, &unsatSolver{}, modeBranches)
	cfg.Lanes, cfg.Remote = LanesBoth, never{}
	if _, err := Run(context.Background(), cfg); err == nil {
		t.Error("Run with Remote and both lanes: no error")
	}
}
