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
	"fmt"
	"sync"
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
	by   int // the goroutine that solved it
}

// pool is the goroutines that solve. Only the loop calls its methods.
//
// A request goes to the idle goroutine whose previous query shares the
// longest prefix of constraints with it, so that each Z3 context keeps
// reusing the assertions it has pushed (solver/z3's prefix reuse) instead
// of the queries of one subtree alternating between contexts.
type pool struct {
	in      []chan request // one per goroutine, of capacity 1
	answers chan answer
	size    int
	// busy counts the requests sent whose answers the loop has not
	// taken. It never exceeds size, so answers, of capacity size, never
	// blocks a goroutine.
	busy    int
	working []bool        // by goroutine: a request sent, its answer not taken
	last    [][]*sym.Expr // by goroutine: the constraints of its last query
	// stuck is set once a query was waited for shutdownGrace after its
	// interruption: the pool is not waited for again.
	stuck  bool
	cancel context.CancelFunc
	wg     sync.WaitGroup
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
		answers: make(chan answer, n),
		size:    n,
		working: make([]bool, n),
		last:    make([][]*sym.Expr, n),
		cancel:  cancel,
	}
	for range solvers {
		p.in = append(p.in, make(chan request, 1))
	}
	for i, s := range solvers {
		var rel func()
		if i < len(release) {
			rel = release[i]
		}
		p.wg.Add(1)
		go p.serve(pctx, i, p.in[i], s, rel)
	}
	return p, nil
}

// serve answers the requests of goroutine i, from in, with s until the
// pool closes, and then releases s (with rel, if not nil): the goroutine
// that used a stack last is the one that may free it.
func (p *pool) serve(ctx context.Context, i int, in <-chan request, s solver.Solver, rel func()) {
	defer p.wg.Done()
	if rel != nil {
		defer rel()
	}
	for r := range in {
		start := time.Now()
		res, err := solveGuarded(ctx, s, r.q)
		p.answers <- answer{request: r, res: res, err: err, took: time.Since(start), by: i}
	}
}

// idle reports whether a goroutine is free for another request.
func (p *pool) idle() bool { return p.busy < p.size }

// send hands r to the free goroutine whose last query shares the longest
// prefix with r's (the first, among equals); the caller has checked idle.
func (p *pool) send(r request) {
	best, bestLen := -1, -1
	for i := range p.size {
		if p.working[i] {
			continue
		}
		if n := commonPrefix(p.last[i], r.q.Constraints); n > bestLen {
			best, bestLen = i, n
		}
	}
	p.working[best] = true
	p.last[best] = r.q.Constraints
	p.busy++
	p.in[best] <- r
}

// took notes that the loop took a's answer.
func (p *pool) took(a answer) {
	p.working[a.by] = false
	p.busy--
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
// shutdownGrace and not at all once stuck, for every goroutine to end and
// release its solver. The answers not taken are dropped. A goroutine
// still solving after that is left to end, and release its solver, on
// its own.
func (p *pool) close() {
	p.cancel()
	for _, in := range p.in {
		close(in)
	}
	if p.stuck {
		return
	}
	done := make(chan struct{})
	go func() {
		p.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(shutdownGrace):
	}
}
