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
}

// pool is the goroutines that solve. Only the loop calls its methods.
type pool struct {
	reqs    chan request
	answers chan answer
	size    int
	// busy counts the requests sent whose answers the loop has not
	// taken. It never exceeds size, so an idle goroutine is always there
	// to take a request, and answers, of capacity size, never blocks one.
	busy    int
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	release []func()
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
					r()
				}
				return nil, fmt.Errorf("solver %d of %d: %w", i+1, d.cfg.Solvers, err)
			}
			solvers = append(solvers, s)
			if rel != nil {
				release = append(release, rel)
			}
		}
	}
	pctx, cancel := context.WithCancel(ctx)
	p := &pool{
		reqs:    make(chan request),
		answers: make(chan answer, len(solvers)),
		size:    len(solvers),
		cancel:  cancel,
		release: release,
	}
	for _, s := range solvers {
		p.wg.Add(1)
		go p.serve(pctx, s)
	}
	return p, nil
}

// serve answers requests with s until the pool closes.
func (p *pool) serve(ctx context.Context, s solver.Solver) {
	defer p.wg.Done()
	for r := range p.reqs {
		start := time.Now()
		res, err := solveGuarded(ctx, s, r.q)
		p.answers <- answer{request: r, res: res, err: err, took: time.Since(start)}
	}
}

// idle reports whether a goroutine is free for another request.
func (p *pool) idle() bool { return p.busy < p.size }

// send hands r to a free goroutine; the caller has checked idle.
func (p *pool) send(r request) {
	p.reqs <- r
	p.busy++
}

// close interrupts the queries in flight, waits for every goroutine to
// end and releases the solvers. The answers not taken are dropped.
func (p *pool) close() {
	p.cancel()
	close(p.reqs)
	p.wg.Wait()
	for _, r := range p.release {
		r()
	}
}
