// This file holds the solver pool: goroutines that each own a solver
// stack and answer the queries the coordinator's loop sends them. The
// loop keeps the tree and the strategy to itself: it picks a candidate,
// builds its query (explore.Tree.Query) and sends it; the answer comes
// back to the loop, which resolves it in the tree and queues the input.
//
// The terms of a query are shared with the pool, not copied. That is safe
// because a sym.Expr is immutable once its Builder has made it (the loop
// goes on making new terms, but never changes one), the channel send
// orders its making before the solver's reads, and every layer that keeps
// state about terms (independence's variable sets, the cache, Z3's
// translation memo) belongs to one stack.

package coordinator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// queryKind tells what a query asks.
type queryKind uint8

const (
	// queryPath asks for an input that follows a candidate's path
	// condition and takes its side.
	queryPath queryKind = iota
	// queryOptimistic asks only for an input that takes the side, when
	// the path condition failed (optimistic.go).
	queryOptimistic
)

// request is one query for the pool, about candidate c.
type request struct {
	c    *explore.Candidate
	q    solver.Query
	kind queryKind
}

// answer is the pool's answer to a request.
type answer struct {
	request
	res  solver.Result
	err  error
	took time.Duration
	by   int // the slot of the goroutine that solved it
	gen  int // that goroutine: the answer of one abandoned since is late (pool.accept)
	// stuck says that no solver answered: the watchdog gave up on the
	// request (pool.abandon), which counts as unknown.
	stuck bool
}

// slot is the place of one solving goroutine in the pool. The watchdog
// may give a slot a new goroutine, with a new solver, while the old one
// is still stuck in its query.
type slot struct {
	in      chan request       // of capacity 1; closed to end the goroutine
	gen     int                // the goroutine serving the slot, from 1; 0 for none
	cancel  context.CancelFunc // interrupts its queries
	done    chan struct{}      // closed once it has released its solver
	working bool               // a request sent, its answer not taken
	sent    time.Time          // when that request was sent
	req     request            // that request
	last    []*sym.Expr        // the constraints of its last query
	// dead: the goroutine was abandoned and none replaced it (yet).
	dead bool
}

// pool is the goroutines that solve. Only the loop calls its methods.
//
// A request goes to the idle goroutine whose previous query shares the
// longest prefix of constraints with it, so that each Z3 context keeps
// reusing the assertions it has pushed (solver/z3's prefix reuse) instead
// of the queries of one subtree alternating between contexts.
//
// The watchdog. Some Z3 queries ignore both their timeout and
// Z3_interrupt (a stack-VM interpreter and a float-heavy sine of the walk
// corpus), and hold their goroutine in C, burning a core, until the
// process-wide memory bound fails them, minutes later. A query that has
// run stuckAfter (the stack's own bound on a query, plus a grace) is
// given up by the loop: the request counts as lost, the slot's goroutine
// is abandoned — its context cancelled, so it is still interrupted, and
// its input channel closed, so it ends after that query, releasing its
// own solver — and a new goroutine with a new solver from NewSolver takes
// the slot. The abandoned goroutine's answer, if it comes, is late: the
// loop drops it (accept) and applies nothing to the tree.
//
// Abandoned goroutines still hold a Z3 context and its memory, which
// counts against Z3's one process-wide memory bound (solver/z3): the
// pool never has more than 2×size solving goroutines alive, abandoned
// ones included. Past that a slot stays dead, the run going on with its
// other solvers and the mutation lane, until an abandoned goroutine ends
// (revive). A pool of one given solver (no NewSolver) has nothing to
// replace it with: its slot stays dead until that solver's query ends.
type pool struct {
	slots   []*slot
	answers chan answer
	size    int // slots, dead ones included
	// busy counts the requests sent whose answers the loop has not
	// taken; dead the slots without a goroutine; abandoned the
	// goroutines given up whose late answer has not come. A goroutine
	// sends at most one answer after it is abandoned, and at most 2×size
	// are alive, so answers, of capacity 2×size, never blocks one.
	busy, dead, abandoned int
	// stuckAfter is how long a query may run before the watchdog
	// abandons it; 0 turns the watchdog off.
	stuckAfter time.Duration
	timer      *time.Timer // the watchdog's, set to fire at armed
	armed      time.Time
	// newSolver makes a solver for a slot (Config.NewSolver); without
	// it, given is the pool's one solver, used by the goroutine
	// givenGen (0: none).
	newSolver func() (solver.Solver, func(), error)
	given     solver.Solver
	givenGen  int
	gens      int // goroutines started
	ctx       context.Context
	// stuck is set once a query was waited for shutdownGrace after its
	// interruption: the pool is not waited for again.
	stuck  bool
	cancel context.CancelFunc
}

// startPool makes the solvers of the run, from Config.NewSolver (Solvers
// of them) or Config.Solver (one), and starts a goroutine for each. Their
// queries are interrupted when ctx ends or the pool is closed.
func (d *coordinator) startPool(ctx context.Context) (*pool, error) {
	var solvers []solver.Solver
	var release []func()
	if d.cfg.NewSolver == nil {
		solvers = []solver.Solver{d.cfg.Solver}
	} else {
		for i := 0; i < max(d.cfg.Solvers, 1); i++ {
			s, rel, err := d.cfg.NewSolver()
			if err != nil {
				for _, r := range release {
					if r != nil {
						r()
					}
				}
				return nil, fmt.Errorf("solver %d of %d: %w", i+1, d.cfg.Solvers, err)
			}
			solvers = append(solvers, s)
			release = append(release, rel) // by solver; may be nil
		}
	}
	pctx, cancel := context.WithCancel(ctx)
	n := len(solvers)
	p := &pool{
		answers:    make(chan answer, 2*n),
		size:       n,
		stuckAfter: stuckAfter(d.cfg.SolveBound),
		newSolver:  d.cfg.NewSolver,
		ctx:        pctx,
		cancel:     cancel,
	}
	for i, s := range solvers {
		var rel func()
		if i < len(release) {
			rel = release[i]
		}
		p.slots = append(p.slots, &slot{})
		p.start(i, s, rel)
	}
	if p.newSolver == nil {
		p.given, p.givenGen = d.cfg.Solver, p.slots[0].gen
	}
	return p, nil
}

// stuckAfter is how long the watchdog lets a query run when the solver
// stack bounds one by bound: bound and a grace of half of it, at least
// shutdownGrace, so that a query late by a loaded machine or a slow
// interrupt (Z3 answers one within 150 ms on the products measured) is
// not taken for a stuck one. No bound, no watchdog.
func stuckAfter(bound time.Duration) time.Duration {
	if bound <= 0 {
		return 0
	}
	return bound + max(shutdownGrace, bound/2)
}

// start starts a new goroutine in slot i, answering with s.
func (p *pool) start(i int, s solver.Solver, rel func()) {
	p.gens++
	ctx, cancel := context.WithCancel(p.ctx)
	sl := p.slots[i]
	*sl = slot{in: make(chan request, 1), gen: p.gens, cancel: cancel, done: make(chan struct{})}
	go p.serve(ctx, i, sl.gen, sl.in, sl.done, s, rel)
}

// serve answers the requests of goroutine gen in slot i, from in, with s
// until in is closed, and then releases s (with rel, if not nil): the
// goroutine that used a stack last is the one that may free it.
func (p *pool) serve(ctx context.Context, i, gen int, in <-chan request, done chan<- struct{}, s solver.Solver, rel func()) {
	defer close(done)
	if rel != nil {
		defer rel()
	}
	for r := range in {
		start := time.Now()
		res, err := solveGuarded(ctx, s, r.q)
		p.answers <- answer{request: r, res: res, err: err, took: time.Since(start), by: i, gen: gen}
	}
}

// live returns the number of slots with a goroutine.
func (p *pool) live() int { return p.size - p.dead }

// idle reports whether a goroutine is free for another request.
func (p *pool) idle() bool { return p.busy < p.live() }

// send hands r to the free goroutine whose last query shares the longest
// prefix with r's (the first, among equals); the caller has checked idle.
func (p *pool) send(r request) {
	best, bestLen := -1, -1
	for i, sl := range p.slots {
		if sl.working || sl.dead {
			continue
		}
		if n := commonPrefix(sl.last, r.q.Constraints); n > bestLen {
			best, bestLen = i, n
		}
	}
	sl := p.slots[best]
	sl.working, sl.sent, sl.req, sl.last = true, time.Now(), r, r.q.Constraints
	p.busy++
	sl.in <- r
}

// accept notes that the loop took a from answers, and reports whether a
// is to be taken in: false for the late answer of an abandoned
// goroutine, which is dropped (that goroutine ends and releases its
// solver).
func (p *pool) accept(a answer) bool {
	sl := p.slots[a.by]
	if a.gen != sl.gen {
		p.abandoned--
		if a.gen == p.givenGen {
			p.givenGen = 0 // the given solver is free again
		}
		return false
	}
	sl.working = false
	p.busy--
	return true
}

// watch returns the channel of the watchdog's timer, set to fire when
// the oldest query in flight passes stuckAfter; nil when the watchdog is
// off or no query is in flight.
func (p *pool) watch() <-chan time.Time {
	if p.stuckAfter <= 0 || p.busy == 0 {
		return nil
	}
	var first time.Time
	for _, sl := range p.slots {
		if sl.working && (first.IsZero() || sl.sent.Before(first)) {
			first = sl.sent
		}
	}
	at := first.Add(p.stuckAfter)
	switch {
	case p.timer == nil:
		p.timer = time.NewTimer(time.Until(at))
	case !at.Equal(p.armed):
		p.timer.Reset(time.Until(at)) // from go1.23 on, no stale tick is received after Reset
	}
	p.armed = at
	return p.timer.C
}

// expired returns the slots whose query has run stuckAfter at now.
func (p *pool) expired(now time.Time) []int {
	p.armed = time.Time{} // the timer fired: set it again
	var out []int
	for i, sl := range p.slots {
		if sl.working && now.Sub(sl.sent) >= p.stuckAfter {
			out = append(out, i)
		}
	}
	return out
}

// abandon gives up slot i's query at now: the goroutine is interrupted
// again and told to end after it, the slot is dead until revive gives it
// a goroutine. It returns the request as a stuck answer, for the loop to
// take in.
func (p *pool) abandon(i int, now time.Time) answer {
	sl := p.slots[i]
	a := answer{request: sl.req, res: solver.Result{Status: solver.Unknown}, took: now.Sub(sl.sent), by: i, stuck: true}
	sl.cancel()
	close(sl.in)
	*sl = slot{dead: true}
	p.busy--
	p.dead++
	p.abandoned++
	return a
}

// Why a dead slot got no goroutine (revive).
var (
	errGiven = errors.New("the run's one solver is given, not made: nothing replaces it until its query ends")
	errCap   = errors.New("2×-solvers solving goroutines are alive, abandoned ones included: none is added until one ends")
)

// revive starts a goroutine, with a new solver, in each dead slot while
// the pool has fewer than 2×size goroutines alive; with a given solver,
// in the one slot once the goroutine that held it has ended. It returns
// the goroutines started and, when a slot stays dead, why.
func (p *pool) revive() (int, error) {
	n := 0
	for i, sl := range p.slots {
		if !sl.dead {
			continue
		}
		var s solver.Solver
		var rel func()
		switch {
		case p.newSolver == nil && p.givenGen != 0:
			return n, errGiven
		case p.newSolver == nil:
			s = p.given
		case p.live()+p.abandoned >= 2*p.size:
			return n, errCap
		default:
			var err error
			if s, rel, err = p.newSolver(); err != nil {
				return n, fmt.Errorf("replacing a stuck solver: %w", err)
			}
		}
		p.dead--
		p.start(i, s, rel)
		if p.newSolver == nil {
			p.givenGen = sl.gen
		}
		n++
	}
	return n, nil
}

// holdsGiven reports whether a goroutine may still be using the given
// solver (Config.Solver), which then is not free for the minimiser.
func (p *pool) holdsGiven() bool {
	if p.givenGen == 0 {
		return false
	}
	for _, sl := range p.slots {
		if sl.gen == p.givenGen {
			select {
			case <-sl.done:
				return false
			default:
				return true
			}
		}
	}
	return true // abandoned, its answer not taken
}

// commonPrefix returns the number of leading terms a and b share.
func commonPrefix(a, b []*sym.Expr) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// shutdownGrace bounds how long a stopping run waits for a query that
// does not end when interrupted. Z3 answers an interrupt within 150 ms
// on the products measured (ARCHITECTURE.md, solver chain); a query that
// ignores it (seen on the walk corpus's sine, whose query grew to 11 GB)
// must not hold the run's outputs.
const shutdownGrace = time.Second

// close interrupts the queries in flight and waits, at most
// shutdownGrace and not at all once stuck, for every goroutine of a slot
// to end and release its solver. The answers not taken are dropped. A
// goroutine still solving after that, or abandoned before, is left to
// end, and release its solver, on its own.
func (p *pool) close() {
	p.cancel()
	if p.timer != nil {
		p.timer.Stop()
	}
	var done []chan struct{}
	for _, sl := range p.slots {
		if !sl.dead {
			close(sl.in)
			done = append(done, sl.done)
		}
	}
	if p.stuck {
		return
	}
	grace := time.After(shutdownGrace)
	for _, c := range done {
		select {
		case <-c:
		case <-grace:
			return
		}
	}
}

// The loop's side of the watchdog.

// unstick gives up the queries that have run past the watchdog's bound
// (pool.abandon), takes each in as a stuck query (take), and gives the
// slots new goroutines where it can (revive).
func (d *coordinator) unstick() {
	p := d.pool
	now := time.Now()
	for _, i := range p.expired(now) {
		a := p.abandon(i, now)
		if d.cfg.Progress != nil && d.rep.Stuck.Queries == 0 {
			fmt.Fprintf(d.cfg.Progress, "gocolic: a query ran %v, past the solver's time limit, ignoring its interrupt: abandoned with its solver (the report counts stuck queries)\n", a.took.Round(time.Millisecond))
		}
		d.take(a)
	}
	d.revive()
}

// accept takes a from the pool's answers and reports whether it is to be
// taken in (pool.accept); a late answer is counted and dropped, and its
// goroutine's end may let a dead slot have a new one.
func (d *coordinator) accept(a answer) bool {
	if d.pool.accept(a) {
		return true
	}
	d.rep.Stuck.Late++
	d.revive()
	return false
}

// revive gives the dead slots of the pool new goroutines where it can,
// and records how many and, when a slot stays dead, why.
func (d *coordinator) revive() {
	n, err := d.pool.revive()
	d.rep.Stuck.Replaced += n
	if err != nil {
		d.rep.Stuck.Why = err.Error()
	}
	d.rep.Stuck.Dead = max(d.rep.Stuck.Dead, d.pool.dead)
}
