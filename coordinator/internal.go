// This file keeps a run alive through failures of gocolic's own code: a
// panic in the solver chain costs its query (counted as unknown) and
// leaves the other goroutines of the pool solving, one in
// the loop or the minimiser ends the run with what it found, and each is
// recorded in the report with the stack that locates it.

package coordinator

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gocolic/gocolic/guard"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/solver"
)

// InternalError is one distinct failure of gocolic's own code during a
// run: a panic that guard recovered.
type InternalError struct {
	// Where names the part that failed: "solver", "coordinator",
	// "worker", "minimize", "alone" (the check of findings in a fresh
	// worker, alone.go), "prove" (a refuted unreachability claim), or
	// a part of the session that writes outputs.
	Where   string
	Message string
	// Stack locates the panic; the first occurrence's is kept.
	Stack string
	// Count is how many times it occurred.
	Count int
}

// AddInternal records err in the report when it holds a recovered panic
// (a *guard.Error), once per place and message; it reports whether it did
// and whether this failure is new.
func (r *Report) AddInternal(err error) (recorded, isNew bool) {
	g := guard.As(err)
	if g == nil {
		return false, false
	}
	return true, r.addInternal(g.Where, fmt.Sprint(g.Value), g.Stack)
}

// addInternal records a failure of gocolic's own code, once per place and
// message, and reports whether it is new. A failure that is no panic
// (a refuted claim, claims.go) gives in stack what locates it.
func (r *Report) addInternal(where, msg, stack string) bool {
	for _, ie := range r.InternalErrors {
		if ie.Where == where && ie.Message == msg {
			ie.Count++
			return false
		}
	}
	r.InternalErrors = append(r.InternalErrors, &InternalError{Where: where, Message: msg, Stack: stack, Count: 1})
	return true
}

// solveGuarded asks s about q. A panic anywhere in the chain is an error
// for this query alone: it runs in a goroutine of the solver pool, and
// the loop that takes the answer counts it, leaves the target unknown,
// records the failure and says it once.
func solveGuarded(ctx context.Context, s solver.Solver, q solver.Query) (r solver.Result, err error) {
	err = guard.Do("solver", func() error {
		var serr error
		r, serr = s.Solve(ctx, q)
		return serr
	})
	if guard.As(err) != nil {
		r = solver.Result{}
	}
	return r, err
}

// errMinStuck is the error of a minimiser's query given up as stuck.
var errMinStuck = errors.New("the minimiser's query ignored its timeout and interrupt: given up, the rest of the minimisation makes no bytes readable")

// solve asks the minimiser's solver about q: a panic in it costs the
// query, and is recorded and said. The query runs on a goroutine of its
// own and is waited for as long as the pool's watchdog would wait
// (stuckAfter the solver's bound, or ctx's deadline if sooner): a query
// that ignores both its timeout and its interrupt (as Z3 4.8's float
// queries can) is given up like the pool's, counted in Stuck, and its
// solver is never used nor released again, so the minimisation, and the
// run, end in time.
func (d *coordinator) solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	s := d.minSolver
	if s == nil {
		return solver.Result{}, errMinStuck
	}
	type result struct {
		r   solver.Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := solveGuarded(ctx, s, q)
		done <- result{r, err}
	}()
	var expire <-chan time.Time
	if wait := minWait(ctx, d.cfg.SolveBound); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		expire = t.C
	}
	select {
	case res := <-done:
		d.internal(res.err, "the query counts as unknown")
		return res.r, res.err
	case <-expire:
		d.minSolver, d.minAbandoned = nil, true
		d.rep.Stuck.Queries++
		return solver.Result{Status: solver.Unknown}, errMinStuck
	}
}

// minWait is how long the minimiser waits for a query: stuckAfter the
// solver's bound, measured from the sooner of now+bound and ctx's
// deadline; 0 (no limit) when neither bounds the query.
func minWait(ctx context.Context, bound time.Duration) time.Duration {
	dl, ok := ctx.Deadline()
	switch {
	case ok && (bound <= 0 || time.Until(dl) < bound):
		return stuckAfter(max(time.Until(dl), time.Millisecond))
	case bound > 0:
		return stuckAfter(bound)
	}
	return 0
}

// internal records err if it holds a recovered panic and, the first time
// this failure occurs, writes one line saying it and what it cost.
func (d *coordinator) internal(err error, cost string) {
	recorded, isNew := d.rep.AddInternal(err)
	if recorded && isNew && d.cfg.Progress != nil {
		fmt.Fprintf(d.cfg.Progress, "gocolic: %v (%s); the report holds its stack\n", err, cost)
	}
}

// runJob runs one request on worker w; a panic in gocolic's side of the
// exchange is an error of that job.
func runJob(w *worker, q *rt.Request) (resp *rt.Response, crash *Crash, err error) {
	err = guard.Do("worker", func() error {
		var rerr error
		resp, crash, rerr = w.run(q)
		return rerr
	})
	return resp, crash, err
}

// runtimePkgs are the prefixes of the frames of gocolic's runtime: it is
// laid into the worker under gocolicrt (package build); a worker built
// against the module itself (the coordinator's tests) names it by its
// module path.
var runtimePkgs = []string{"gocolicrt/", "github.com/gocolic/gocolic/rt.", "github.com/gocolic/gocolic/sym."}

// inRuntime reports whether the frame of function fn is in gocolic's
// runtime (runtimePkgs).
func inRuntime(fn string) bool {
	for _, p := range runtimePkgs {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// runtimePanic reports whether the tracked execution resp panicked inside
// gocolic's runtime rather than in the target: the innermost frame below
// the panic, Go's runtime aside, is in a package of gocolicrt. Some of
// those are the target's own panics, raised where the runtime does what
// the rewritten expression did (an index out of range in rt.LoadIndex);
// confirmPanic tells them apart.
func runtimePanic(resp *rt.Response) bool {
	if resp == nil || resp.Status != rt.StatusPanic {
		return false
	}
	lines := strings.Split(resp.Stack, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "panic(") {
			continue
		}
		for _, f := range lines[i+1:] {
			if strings.HasPrefix(f, "\t") || strings.HasPrefix(f, "runtime.") || strings.HasPrefix(f, "panic(") {
				continue
			}
			return inRuntime(f)
		}
	}
	return false
}

// confirmPanic runs the input of q, whose tracked execution resp panicked
// in gocolic's runtime, again on w without tracking. ok reports that the
// target panics there too, with the same message: the panic is the
// target's. Otherwise it is a fault of the runtime, and c is the run
// without tracking, which stands for the execution (it counts its
// coverage and its own outcome) while the fault is reported. dead reports
// that the run without tracking killed w (the tracked run is kept then).
func confirmPanic(w *worker, q *rt.Request, resp *rt.Response) (c *rt.Response, ok, dead bool) {
	cq := *q
	cq.Concrete = true
	c, crash, err := runJob(w, &cq)
	if err != nil || crash != nil {
		return nil, true, true
	}
	return c, c.Status == rt.StatusPanic && c.Panic == resp.Panic, false
}

// internalFailure records a failure of gocolic's own side that is no
// panic (a worker that would not start) and, the first time it occurs,
// writes one line saying it and what it cost.
func (d *coordinator) internalFailure(where string, err error, cost string) {
	if d.rep.addInternal(where, err.Error(), "") && d.cfg.Progress != nil {
		fmt.Fprintf(d.cfg.Progress, "gocolic: %s: %v (%s)\n", where, err, cost)
	}
}
