package coordinator

import (
	"context"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocolic/gocolic/solver"
)

func TestYieldDecays(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var y yield
	y.add(t0, 4, 2*time.Second)
	y.add(t0.Add(yieldHalfLife), 2, 0)
	if y.finds != 4 || y.cost != 1 {
		t.Errorf("after one half-life: finds %v, cost %v; want 4, 1", y.finds, y.cost)
	}
	if got, want := y.rate(), (4+priorFinds)/(1+priorCost); math.Abs(got-want) > 1e-9 {
		t.Errorf("rate = %v, want %v", got, want)
	}
}

func TestDutyShare(t *testing.T) {
	t0 := time.Unix(1000, 0)
	for _, tc := range []struct {
		name           string
		cFinds, mFinds int
		cCost, mCost   time.Duration
		want           float64
	}{
		{"nothing yet: the solver's whole time", 0, 0, 0, 0, 1},
		{"the concolic lane finds more per second", 3, 1, time.Second, 4 * time.Second, 1},
		{"the mutation lane finds more: the ratio", 0, 9, 3 * time.Second, 4 * time.Second, (0.5 / 4) / (9.5 / 5)},
		{"far more: minShare", 0, 1000, 20 * time.Second, 10 * time.Second, minShare},
	} {
		var u duty
		u.concolic.add(t0, tc.cFinds, tc.cCost)
		u.mutation.add(t0, tc.mFinds, tc.mCost)
		if got := u.share(); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: share = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestDutyAllow follows the solver's credit: with a share of a quarter,
// two solvers earn half a second of solver time a second; the solver
// spends it and is held back until it has earned more, and never banks
// more than maxCredit per solver.
func TestDutyAllow(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	var u duty
	// Yields of 1/4 and 1: a share of a quarter.
	u.concolic = yield{finds: 0.5, cost: 3, at: t0}
	u.mutation = yield{finds: 1.5, cost: 1, at: t0}
	if s := u.share(); math.Abs(s-0.25) > 1e-9 {
		t.Fatalf("share = %v, want 0.25", s)
	}
	steps := []struct {
		name   string
		solver time.Duration // the run's solver time so far
		now    time.Time
		want   bool
	}{
		{"the first call only starts the account", ms(0), at(0), false},
		{"100 ms earn 50 ms", ms(0), at(100), true},
		{"spent 60 of them", ms(60), at(100), false},
		{"20 ms more earn 10: none left", ms(60), at(120), false},
		{"40 ms more earn 20", ms(60), at(160), true},
		{"an idle minute banks at most 2 s", ms(60), at(60160), true},
		{"2 s spent of it", ms(2060), at(60160), false},
	}
	for _, s := range steps {
		if got := u.allow(s.solver, s.now, 2); got != s.want {
			t.Fatalf("%s: allow = %v (credit %v), want %v", s.name, got, u.credit, s.want)
		}
	}
	if u.Held != 3 {
		t.Errorf("Held = %d, want 3", u.Held)
	}
}

// TestDutyFullShare checks that a concolic lane yielding at least as much
// as the mutation lane is never held back, whatever its solver time.
func TestDutyFullShare(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var u duty
	u.concolic.add(t0, 5, time.Second)
	u.mutation.add(t0, 1, time.Second)
	for i := 0; i < 10; i++ {
		if !u.allow(time.Duration(i)*time.Hour, t0.Add(time.Duration(i)*time.Millisecond), 2) {
			t.Fatalf("call %d held the solver back at share %v", i, u.share())
		}
	}
	if u.Held != 0 || u.Time != 0 {
		t.Errorf("Held %d, Time %v; want 0, 0", u.Held, u.Time)
	}
}

// slowUnknownSolver gives up on every query after its delay, as Z3 does
// at its timeout on non-linear arithmetic.
type slowUnknownSolver struct {
	calls atomic.Int64
	delay time.Duration
}

func (s *slowUnknownSolver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	s.calls.Add(1)
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
	}
	return solver.Result{Status: solver.Unknown}, nil
}

// TestRunDutyHoldsABarrenSolver runs the branches mode with both lanes,
// two workers, and a solver that spends 50 ms on each query to find
// nothing. The mutation lane covers the 64 outcomes x == 1000+i from the
// dictionary, so it yields far more per CPU-second, and the solver is
// held to its least share: a few queries in 2 s where, always free to
// solve, it would answer some 40 of the seed path's 64 candidates and
// keep a core.
func TestRunDutyHoldsABarrenSolver(t *testing.T) {
	s := &slowUnknownSolver{delay: 50 * time.Millisecond}
	cfg := runConfig(t, nil, modeBranches)
	cfg.Lanes, cfg.Workers, cfg.Budget, cfg.Timeout = LanesBoth, 2, 2*time.Second, time.Second
	cfg.Solvers, cfg.NewSolver = 1, func() (solver.Solver, func(), error) { return s, nil, nil }
	rep := runDriver(t, context.Background(), cfg)
	if rep.Stopped != "budget" {
		t.Errorf("stopped %q, want budget", rep.Stopped)
	}
	trues := 0
	for site := uint32(0); site < 64; site++ {
		if rep.Covered.Has(site, true) {
			trues++
		}
	}
	if trues < 32 {
		t.Fatalf("%d of 64 true outcomes covered: the mutation lane found too little for the test to mean anything", trues)
	}
	if rep.Lanes.DutyHeld == 0 || rep.Lanes.DutyTime <= 0 {
		t.Errorf("lanes %+v: the solver was never held", rep.Lanes)
	}
	if n := s.calls.Load(); n == 0 || n >= 20 {
		t.Errorf("%d queries in %v (solver time %v), want 1 to 19: the barren solver kept its share",
			n, rep.Elapsed, rep.SolverTime)
	}
}
