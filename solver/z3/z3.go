// Package z3 is the core of gocolic's solver chain: a solver.Solver that
// decides queries with the Z3 SMT solver through its C API. It is the only
// package of the project that uses cgo; it needs libz3 (4.8 or later) and
// its headers.
//
// Terms. Booleans become Z3 Bool terms and width-w bit-vectors (_ BitVec w)
// terms; input variable n is the constant "vn" of its sort. Every sym
// operation has an SMT-LIB counterpart with the same semantics, including
// division by zero. Floats, which sym keeps as their IEEE-754 bits, go
// through Z3's floating-point theory where a float kind reads them, and
// back to bits only where something else does; the NaN payloads and
// out-of-range conversions that the theory leaves open are spelt out as
// sym fixes them, so that Z3 and sym.Eval agree on every bit (float.go).
// Translations are memoised per *sym.Expr (builder.go); the memo is
// dropped when it grows large, so a long run does not pin every term it
// ever saw.
//
// Incremental solving. A Solver keeps one Z3 solver and the list of the
// constraints asserted in it, one push frame each. A query pops back to the
// longest prefix its constraints share with that list, pushes and asserts
// the rest, then asserts the goal in a frame of its own, checks, reads the
// model and pops the goal frame. Consecutive queries of a concolic search
// share long path prefixes, and Z3 keeps what it learnt about them.
// A query with a float division is the exception: it is decided from
// empty by a second Z3 solver, the one for QF_FPBV, whose bit-blasting
// tactics heed the timeout and interrupts; the incremental solver's float
// theory builds a float64 division's circuit without looking at either
// (5 s on a 50 ms bound, TestFloatDivisionOnTime). Such a query gives up
// the reuse of its prefix.
//
// Memory. The context is made with Z3_mk_context_rc: every term, sort,
// model and solver is reference-counted by this package. Terms are held by
// the builder's memo (Z3 holds its own references to asserted terms, so
// dropping the memo is safe at any time between queries); models and
// evaluation results are released as soon as their values are read. Close
// frees the context and everything in it.
//
// Errors. Z3's default error handler exits the process. Solver installs
// none, so that a failing call only sets an error code, and turns that code
// into a Go error. A failure while the frames are being changed resets the
// Z3 solver, so one bad query does not poison the next; a memory-out, which
// leaves the whole context unusable, replaces the context.
//
// Time limits. Options.Timeout becomes the Z3 solver parameter "timeout"
// and bounds each check, but a push is bounded by nothing Z3 has: pushing
// a frame simplifies and internalises the frames below, which on a long
// path prefix took seconds before the check started. So the frames and the
// check run under one watch, which interrupts Z3 (Z3_interrupt from a
// watching goroutine) when the query has run its Timeout (and a little
// grace, so a check that takes the whole Timeout still ends by Z3's
// timer) or its context ends; the query is then Unknown, and the emptied
// solver starts the next query with no frames. A query whose context is
// done before it starts is Unknown without calling Z3. As for every solver.Solver, an undecided query is not an error:
// callers that care look at their context's Err.
//
// A Solver is not safe for concurrent use.
package z3

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// maxMemo bounds the number of translations a Solver keeps between queries.
const maxMemo = 1 << 17

// interruptEvery is how often an interrupt is repeated while a cancelled
// check has not returned: Z3 forgets an interrupt that arrives before it
// has set up the check.
const interruptEvery = 10 * time.Millisecond

// deadlineGrace is how long past its Timeout a query runs before it is
// interrupted: a check that alone takes the whole Timeout ends by Z3's own
// timeout, which keeps the pushed frames, rather than by an interrupt,
// which empties the solver.
const deadlineGrace = 50 * time.Millisecond

// ErrClosed is returned by Solve after Close.
var ErrClosed = errors.New("z3: solver is closed")

// Options configures a Solver.
type Options struct {
	// Timeout bounds the check of each query; zero means no bound. Z3
	// counts whole milliseconds, so a shorter positive Timeout means 1ms.
	// A query that runs out of time is Unknown.
	Timeout time.Duration
	// MemoryLimit bounds, in MiB, the memory Z3 may hold; zero means no
	// bound. Z3 counts its memory per process, not per context, so the
	// bound is shared by every Solver of the process and the last one made
	// sets it. A check that would go past it stops with an error (the
	// query is lost, the Solver gets a fresh context and stays usable): some float
	// queries ignore both timeout and interrupt and would otherwise grow
	// until the machine has no memory left.
	MemoryLimit int
}

// Solver decides queries with Z3. It implements solver.Solver and
// solver.Layer. The zero Solver is not usable; call New.
type Solver struct {
	opts Options
	ctx  C.Z3_context
	z3s  C.Z3_solver
	// fps decides queries with a float division, alone: the incremental
	// solver's float theory builds a 64-bit division's circuit without
	// looking at its timeout or at interrupts (5 s on a 50 ms bound),
	// while the bit-blasting tactics of the QF_FPBV solver stop on time.
	fps    C.Z3_solver
	b      *builder
	frames []*sym.Expr // frames[i] is asserted at scope level i+1
	stats  solver.Stats
}

// New returns a Solver with a fresh Z3 context. Release it with Close.
func New(opts Options) (*Solver, error) {
	if opts.Timeout < 0 {
		return nil, fmt.Errorf("z3: negative timeout %v", opts.Timeout)
	}
	if opts.MemoryLimit < 0 {
		return nil, fmt.Errorf("z3: negative memory limit %d MiB", opts.MemoryLimit)
	}
	if opts.MemoryLimit > 0 {
		setMemoryLimit(opts.MemoryLimit)
	}
	s := &Solver{opts: opts}
	if err := s.open(); err != nil {
		return nil, fmt.Errorf("z3: %w", err)
	}
	return s, nil
}

// open makes the Solver's context and Z3 solver from s.opts.
func (s *Solver) open() error {
	cfg := C.Z3_mk_config()
	if cfg == nil {
		return errors.New("cannot make a configuration")
	}
	ctx := C.Z3_mk_context_rc(cfg)
	C.Z3_del_config(cfg)
	if ctx == nil {
		return errors.New("cannot make a context")
	}
	C.Z3_set_error_handler(ctx, nil)
	s.ctx, s.b, s.frames = ctx, newBuilder(ctx), nil
	if err := s.init(s.opts); err != nil {
		s.Close()
		return err
	}
	return nil
}

// reopen replaces a context Z3 left unusable by a fresh one with the same
// options. A check that ran out of memory is such a case: Z3 unwinds it
// with its terms and solver half freed, and the next call on that context
// crashes the process (seen with a 32 MiB bound, TestMemoryLimit). The
// old context is deleted without releasing its terms one by one, which
// would touch the same half-freed state. If no fresh context can be made
// the Solver is closed.
func (s *Solver) reopen() {
	C.Z3_del_context(s.ctx)
	s.ctx, s.z3s, s.fps, s.frames = nil, nil, nil, nil
	if err := s.open(); err != nil {
		s.ctx = nil
	}
}

func (s *Solver) init(opts Options) error {
	// The plain incremental SMT solver. The logic-specific QF_BV solver
	// (a SAT solver behind bit-blasting tactics) looked like the better
	// fit, but once push/pop is used it re-blasts the whole assertion stack
	// per check. Measured on the keywords example with a 5 s budget while
	// choosing: QF_BV answered 106 queries in 5.9 s, this one 2 014 in
	// 4.6 s (ARCHITECTURE.md, solver chain).
	z3s := C.Z3_mk_simple_solver(s.ctx)
	if z3s == nil {
		return lastError(s.ctx, "making a solver")
	}
	C.Z3_solver_inc_ref(s.ctx, z3s)
	s.z3s = z3s
	logic := C.CString("QF_FPBV")
	defer C.free(unsafe.Pointer(logic))
	fps := C.Z3_mk_solver_for_logic(s.ctx, C.Z3_mk_string_symbol(s.ctx, logic))
	if fps == nil {
		return lastError(s.ctx, "making the float division solver")
	}
	C.Z3_solver_inc_ref(s.ctx, fps)
	s.fps = fps
	p := C.Z3_mk_params(s.ctx)
	if p == nil {
		return lastError(s.ctx, "making parameters")
	}
	C.Z3_params_inc_ref(s.ctx, p)
	defer C.Z3_params_dec_ref(s.ctx, p)
	// By default Z3 installs its own SIGINT handler for the length of each
	// check, so a Ctrl-C that lands during a query interrupts only that
	// query and never reaches the Go program. Cancellation goes through
	// the context (Z3_interrupt) instead.
	ctrlC := C.CString("ctrl_c")
	defer C.free(unsafe.Pointer(ctrlC))
	C.Z3_params_set_bool(s.ctx, p, C.Z3_mk_string_symbol(s.ctx, ctrlC), C.bool(false))
	if opts.Timeout > 0 {
		ms := (opts.Timeout + time.Millisecond - 1) / time.Millisecond
		ms = min(ms, 1<<32-2) // UINT_MAX means no timeout to Z3
		name := C.CString("timeout")
		defer C.free(unsafe.Pointer(name))
		C.Z3_params_set_uint(s.ctx, p, C.Z3_mk_string_symbol(s.ctx, name), C.uint(ms))
	}
	C.Z3_solver_set_params(s.ctx, s.z3s, p)
	C.Z3_solver_set_params(s.ctx, s.fps, p)
	return lastError(s.ctx, "setting the solver parameters")
}

// setMemoryLimit sets Z3's process-wide memory bound to mib MiB. Z3 reads
// the global parameter when a context is made, so New sets it first.
func setMemoryLimit(mib int) {
	name, val := C.CString("memory_max_size"), C.CString(fmt.Sprint(mib))
	defer C.free(unsafe.Pointer(name))
	defer C.free(unsafe.Pointer(val))
	C.Z3_global_param_set(name, val)
}

// allocatedMiB is Z3's estimate of the memory it holds across the
// process, the figure MemoryLimit bounds.
func allocatedMiB() int {
	return int(C.Z3_get_estimated_alloc_size() >> 20)
}

// Close frees the Z3 context. Solve fails with ErrClosed afterwards; Close
// itself may be called again and always returns nil.
func (s *Solver) Close() error {
	if s.ctx == nil {
		return nil
	}
	s.b.release()
	for _, z := range []C.Z3_solver{s.z3s, s.fps} {
		if z != nil {
			C.Z3_solver_dec_ref(s.ctx, z)
		}
	}
	C.Z3_del_context(s.ctx)
	s.ctx, s.z3s, s.fps, s.frames = nil, nil, nil, nil
	return nil
}

// Name implements solver.Layer.
func (s *Solver) Name() string { return "z3" }

// Stats implements solver.Layer.
func (s *Solver) Stats() solver.Stats { return s.stats }

// Solve implements solver.Solver. For Sat, the model gives a value to every
// variable of q and to no other.
func (s *Solver) Solve(ctx context.Context, q solver.Query) (r solver.Result, err error) {
	start := time.Now()
	defer func() {
		if err != nil && err != ErrClosed {
			err = fmt.Errorf("z3: %w", err)
		}
		s.stats.Record(r, err, time.Since(start))
	}()
	if s.ctx == nil {
		return solver.Result{}, ErrClosed
	}
	defer func() {
		// A panic may leave a goal pushed: empty the frames, so that the
		// queries after the one it costs (the coordinator recovers it)
		// are answered as by a fresh solver.
		if p := recover(); p != nil {
			s.resetSolver()
			C.Z3_solver_reset(s.ctx, s.fps)
			panic(p)
		}
	}()
	if ctx.Err() != nil {
		return solver.Result{}, nil
	}
	vars, err := queryVars(q)
	if err != nil {
		return solver.Result{}, err
	}
	// Translate everything before touching the frames, so that a term Z3
	// cannot take leaves them as they were.
	if s.b.size() > maxMemo {
		s.b.reset()
	}
	goal, asts, err := s.translate(q)
	if err != nil {
		s.reopenIfOutOfMemory()
		return solver.Result{}, err
	}
	// Pushing a frame makes Z3 simplify and internalise what the frame
	// below holds, which on a long path prefix takes seconds, and Z3's
	// timeout bounds only the check: frames and check run under one
	// watch, which interrupts them at the query's deadline (Timeout from
	// its start) or when ctx ends.
	var deadline time.Time
	if s.opts.Timeout > 0 {
		deadline = start.Add(s.opts.Timeout + deadlineGrace)
	}
	// The frames never hold a division (such queries go to fps), so only
	// the constraints past the prefix the frames share and the goal are
	// looked at, not the whole path on every query.
	k := s.sharedPrefix(q.Constraints)
	if sym.HasKind(sym.KFDiv, append(q.Constraints[k:len(q.Constraints):len(q.Constraints)], q.Goal)...) {
		return s.solveAlone(ctx, deadline, vars, asts, goal)
	}
	var st C.Z3_lbool
	var perr error
	interrupted := s.watch(ctx, deadline, func() {
		if perr = s.pushQuery(q.Constraints, asts, goal); perr == nil {
			st = C.Z3_solver_check(s.ctx, s.z3s)
		}
	})
	if interrupted {
		// An interrupt can land after the check returned, and Z3 keeps
		// it for the next call: a push then failed with "canceled" and
		// the query after was lost (FuzzStack found it). Only a check
		// forgets pending interrupts; on an emptied solver it is
		// immediate. An interrupted push left the frames in doubt too.
		// A push that failed because of the interrupt is an undecided
		// query, not a failure; a memory-out still replaces the context.
		if perr != nil && s.reopenIfOutOfMemory() {
			return solver.Result{}, perr
		}
		s.resetSolver()
		C.Z3_solver_check(s.ctx, s.z3s)
		return solver.Result{}, nil
	}
	if perr != nil {
		s.recoverFrom()
		return solver.Result{}, perr
	}
	if ctx.Err() != nil {
		st = C.Z3_L_UNDEF // a cancelled query is undecided whatever Z3 said
	}
	r, reopened, err := s.result(st, s.z3s, vars)
	if reopened {
		return solver.Result{}, err
	}
	C.Z3_solver_pop(s.ctx, s.z3s, 1)
	if perr := lastError(s.ctx, "popping the goal"); perr != nil {
		s.resetSolver()
		err = cmp.Or(err, perr)
	}
	if err != nil {
		return solver.Result{}, err
	}
	return r, nil
}

// translate returns the Z3 terms of q's goal and constraints.
func (s *Solver) translate(q solver.Query) (goal C.Z3_ast, asts []C.Z3_ast, err error) {
	if goal, err = s.b.term(q.Goal); err != nil {
		return nil, nil, fmt.Errorf("goal: %w", err)
	}
	asts = make([]C.Z3_ast, len(q.Constraints))
	for i, c := range q.Constraints {
		if asts[i], err = s.b.term(c); err != nil {
			return nil, nil, fmt.Errorf("constraint %d: %w", i, err)
		}
	}
	return goal, asts, nil
}

// result reads the answer st of Z3 solver z to a query on vars: a model
// for Sat, and for Unknown the error Z3 set, if any (timeouts and
// interrupts set none). It reports whether the error was a memory-out,
// which gave the Solver a fresh context.
func (s *Solver) result(st C.Z3_lbool, z C.Z3_solver, vars []*sym.Expr) (r solver.Result, reopened bool, err error) {
	switch st {
	case C.Z3_L_TRUE:
		r.Status = solver.Sat
		r.Model, err = s.model(z, vars)
	case C.Z3_L_FALSE:
		r.Status = solver.Unsat
	default:
		r.Status = solver.Unknown
		if err = lastError(s.ctx, "checking"); err != nil && s.reopenIfOutOfMemory() {
			return solver.Result{}, true, err
		}
	}
	return r, false, err
}

// solveAlone decides the query of goal and asts on the float division
// solver, from empty, under one watch like the frames' queries, and
// leaves that solver empty.
func (s *Solver) solveAlone(ctx context.Context, deadline time.Time, vars []*sym.Expr, asts []C.Z3_ast, goal C.Z3_ast) (solver.Result, error) {
	var st C.Z3_lbool
	var aerr error
	interrupted := s.watch(ctx, deadline, func() {
		for _, a := range append(asts, goal) {
			C.Z3_solver_assert(s.ctx, s.fps, a)
			if aerr = lastError(s.ctx, "asserting"); aerr != nil {
				return
			}
		}
		st = C.Z3_solver_check(s.ctx, s.fps)
	})
	if interrupted {
		// As for the frames (Solve): a check on the emptied solver
		// forgets an interrupt that landed after the query's check.
		if aerr != nil && s.reopenIfOutOfMemory() {
			return solver.Result{}, aerr
		}
		C.Z3_solver_reset(s.ctx, s.fps)
		C.Z3_solver_check(s.ctx, s.fps)
		C.Z3_solver_reset(s.ctx, s.fps)
		return solver.Result{}, nil
	}
	if aerr != nil {
		if !s.reopenIfOutOfMemory() {
			C.Z3_solver_reset(s.ctx, s.fps)
		}
		return solver.Result{}, aerr
	}
	if ctx.Err() != nil {
		st = C.Z3_L_UNDEF
	}
	if st == C.Z3_L_UNDEF && lastError(s.ctx, "checking") == nil {
		// The tactics catch their own memory-out: it sets no error code,
		// only the reason. The context is replaced as after any other.
		if why := C.GoString(C.Z3_solver_get_reason_unknown(s.ctx, s.fps)); strings.Contains(why, "memory") {
			C.Z3_solver_reset(s.ctx, s.fps)
			return solver.Result{}, fmt.Errorf("checking: %s", why)
		}
	}
	r, reopened, err := s.result(st, s.fps, vars)
	if !reopened {
		C.Z3_solver_reset(s.ctx, s.fps)
	}
	if err != nil {
		return solver.Result{}, err
	}
	return r, nil
}

// pushQuery makes the frames hold cs (assertPrefix), then pushes the goal
// in a frame of its own.
func (s *Solver) pushQuery(cs []*sym.Expr, asts []C.Z3_ast, goal C.Z3_ast) error {
	if err := s.assertPrefix(cs, asts); err != nil {
		return err
	}
	if err := s.pushAssert(goal); err != nil {
		return fmt.Errorf("goal: %w", err)
	}
	return nil
}

// sharedPrefix returns how many of cs, from the first, the frames hold.
func (s *Solver) sharedPrefix(cs []*sym.Expr) int {
	k := 0
	for k < len(cs) && k < len(s.frames) && cs[k] == s.frames[k] {
		k++
	}
	return k
}

// assertPrefix makes the frames hold exactly cs: it pops the frames after
// the longest common prefix and pushes one frame for each remaining term.
func (s *Solver) assertPrefix(cs []*sym.Expr, asts []C.Z3_ast) error {
	k := s.sharedPrefix(cs)
	if n := len(s.frames) - k; n > 0 {
		C.Z3_solver_pop(s.ctx, s.z3s, C.uint(n))
		if err := lastError(s.ctx, "popping frames"); err != nil {
			return err
		}
		s.frames = s.frames[:k]
	}
	for i := k; i < len(cs); i++ {
		if err := s.pushAssert(asts[i]); err != nil {
			return fmt.Errorf("constraint %d: %w", i, err)
		}
		s.frames = append(s.frames, cs[i])
	}
	return nil
}

// pushAssert opens a frame and asserts t in it.
func (s *Solver) pushAssert(t C.Z3_ast) error {
	C.Z3_solver_push(s.ctx, s.z3s)
	if err := lastError(s.ctx, "pushing a frame"); err != nil {
		return err
	}
	C.Z3_solver_assert(s.ctx, s.z3s, t)
	return lastError(s.ctx, "asserting")
}

// reopenIfOutOfMemory gives the Solver a fresh context if the last Z3
// call ran out of memory, and reports whether it did.
func (s *Solver) reopenIfOutOfMemory() bool {
	if C.Z3_get_error_code(s.ctx) != C.Z3_MEMOUT_FAIL {
		return false
	}
	s.reopen()
	return true
}

// recoverFrom puts the Solver back in a usable state after a Z3 call
// failed: a fresh context after a memory-out, an emptied solver otherwise.
func (s *Solver) recoverFrom() {
	if !s.reopenIfOutOfMemory() {
		s.resetSolver()
	}
}

// resetSolver empties the Z3 solver after a failure left its frames in
// doubt. Its parameters stay.
func (s *Solver) resetSolver() {
	C.Z3_solver_reset(s.ctx, s.z3s)
	s.frames = s.frames[:0]
}

// watch runs f, which calls Z3 on s's context, and interrupts it if ctx
// ends or the deadline (if not zero) passes first; it reports whether it
// did interrupt.
func (s *Solver) watch(ctx context.Context, deadline time.Time, f func()) (interrupted bool) {
	if ctx.Done() == nil && deadline.IsZero() {
		f()
		return false
	}
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		timer := time.NewTimer(time.Until(deadline))
		defer timer.Stop()
		timeout = timer.C
	}
	finished := make(chan struct{})
	watcher := make(chan struct{})
	go func() {
		defer close(watcher)
		select {
		case <-finished:
			return
		case <-ctx.Done():
		case <-timeout:
		}
		interrupted = true // read after watcher is closed
		t := time.NewTicker(interruptEvery)
		defer t.Stop()
		for {
			C.Z3_interrupt(s.ctx)
			select {
			case <-finished:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(finished)
	<-watcher // no interrupt may touch the context after this point
	return interrupted
}

// model reads the values of vars from Z3 solver z's current model.
func (s *Solver) model(z C.Z3_solver, vars []*sym.Expr) (sym.Env, error) {
	m := C.Z3_solver_get_model(s.ctx, z)
	if m == nil {
		return nil, lastError(s.ctx, "getting the model")
	}
	C.Z3_model_inc_ref(s.ctx, m)
	defer C.Z3_model_dec_ref(s.ctx, m)
	env := make(sym.Env, len(vars))
	for _, v := range vars {
		t, err := s.b.term(v)
		if err != nil {
			return nil, err
		}
		val, err := s.eval(m, t, v.Width)
		if err != nil {
			return nil, fmt.Errorf("value of %s: %w", varName(v.Val), err)
		}
		env[v.Val] = val
	}
	return env, nil
}

// eval returns the value of t, of width w (0 for Bool), in m.
func (s *Solver) eval(m C.Z3_model, t C.Z3_ast, w uint8) (uint64, error) {
	var out C.Z3_ast
	if !C.Z3_model_eval(s.ctx, m, t, true, &out) || out == nil {
		return 0, cmp.Or(lastError(s.ctx, "evaluating"), errors.New("no value"))
	}
	C.Z3_inc_ref(s.ctx, out)
	defer C.Z3_dec_ref(s.ctx, out)
	if w == 0 {
		switch C.Z3_get_bool_value(s.ctx, out) {
		case C.Z3_L_TRUE:
			return 1, nil
		case C.Z3_L_FALSE:
			return 0, nil
		}
		return 0, errors.New("boolean value is not a constant")
	}
	var u C.uint64_t
	if !C.Z3_get_numeral_uint64(s.ctx, out, &u) {
		return 0, errors.New("bit-vector value is not a numeral")
	}
	return uint64(u), nil
}

// queryVars returns the variables of q sorted by number, and fails if one
// number occurs with two sorts: the model could not give both a value.
func queryVars(q solver.Query) ([]*sym.Expr, error) {
	if q.Goal == nil {
		return nil, errors.New("nil goal")
	}
	for i, c := range q.Constraints {
		if c == nil {
			return nil, fmt.Errorf("nil constraint %d", i)
		}
	}
	vars := sym.Vars(nil, append(q.Constraints[:len(q.Constraints):len(q.Constraints)], q.Goal)...)
	slices.SortFunc(vars, func(a, b *sym.Expr) int {
		return cmp.Or(cmp.Compare(a.Val, b.Val), cmp.Compare(a.Width, b.Width))
	})
	for i := 1; i < len(vars); i++ {
		if vars[i].Val == vars[i-1].Val {
			return nil, fmt.Errorf("variable %d has widths %d and %d", vars[i].Val, vars[i-1].Width, vars[i].Width)
		}
	}
	return vars, nil
}

// lastError returns the error of the last Z3 call, if it failed, as a Go
// error mentioning what was being done.
func lastError(ctx C.Z3_context, what string) error {
	code := C.Z3_get_error_code(ctx)
	if code == C.Z3_OK {
		return nil
	}
	return fmt.Errorf("%s: %s", what, C.GoString(C.Z3_get_error_msg(ctx, code)))
}
