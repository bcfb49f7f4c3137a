// This file decides what becomes of the pool's answers: where the queries
// went (per branch site), and the optimistic queries that follow a failed
// one (QSYM's optimistic solving).

package coordinator

import (
	"maps"
	"slices"
	"time"

	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// SiteQueries counts the queries asked to flip the branches of one site,
// by how they ended.
type SiteQueries struct {
	Queries int
	Sat     int
	Unsat   int
	Unknown int // unknown, or an error of the solver, or stuck
	// Stuck counts the queries the watchdog gave up on (pool.go), among
	// the Unknown.
	Stuck int
	Time  time.Duration
}

// StuckStats counts the queries the solver pool's watchdog gave up on:
// they ran past the solver's own time limit and a grace, ignoring their
// interrupt, and were abandoned with the goroutine solving them.
type StuckStats struct {
	// Queries counts the queries given up (path queries among them also
	// count as unknown, at their site).
	Queries int
	// Replaced counts the goroutines, with new solvers, started in the
	// place of abandoned ones.
	Replaced int
	// Late counts the abandoned queries that ended after all; their
	// answers were dropped.
	Late int
	// Dead is the most slots of the pool without a solver at once: the
	// run solved on fewer goroutines than it had for a while (0: never),
	// for the reason Why gives.
	Dead int
	Why  string
}

// Failed returns the queries that led to no execution.
func (s SiteQueries) Failed() int { return s.Unsat + s.Unknown }

// OptimisticStats counts the optimistic queries of a run.
type OptimisticStats struct {
	// Queries counts the goals solved alone after their path condition
	// failed; Sat those that gave an input.
	Queries int
	Sat     int
	// Reached counts the inputs that took their goal's branch outcome
	// first in the run.
	Reached int
}

// nextRequest returns the next query to solve: an optimistic one queued
// by an earlier answer, or else the path condition of the strategy's next
// candidate. It returns false when there is none.
func (d *coordinator) nextRequest() (request, bool) {
	if len(d.optQueue) > 0 {
		r := d.optQueue[0]
		d.optQueue = d.optQueue[1:]
		return r, true
	}
	c, ok := d.strat.Next()
	if !ok && d.releaseLater() {
		c, ok = d.strat.Next()
	}
	if !ok {
		return request{}, false
	}
	q := d.tree.Query(c)
	q.Constraints = append(append([]*sym.Expr(nil), d.limits...), q.Constraints...)
	return request{c: c, q: q, kind: queryPath}, true
}

// take takes in the pool's answer a: it counts it, resolves a path query
// in the tree (telling the strategy when no execution follows) and
// returns the job of a satisfiable query. A stuck query (pool.abandon)
// is an unknown one, counted apart.
func (d *coordinator) take(a answer) (job, bool) {
	d.rep.SolverTime += a.took
	d.duty.concolic.add(time.Now(), 0, a.took)
	st := a.res.Status
	if a.stuck {
		d.rep.Stuck.Queries++
	}
	if a.err != nil {
		d.internal(a.err, "the query counts as unknown")
		st = solver.Unknown
	}
	if a.kind == queryOptimistic {
		d.rep.Optimistic.Queries++
		if st != solver.Sat {
			delete(d.optOut, outcomeOf(a.c))
			return job{}, false
		}
		d.rep.Optimistic.Sat++
		return job{env: d.input(a), optimistic: a.c}, true
	}
	site := d.rep.SiteQueries[a.c.Node.Site]
	if site == nil {
		site = &SiteQueries{}
		d.rep.SiteQueries[a.c.Node.Site] = site
	}
	site.Queries++
	d.barren++
	site.Time += a.took
	switch {
	case a.stuck:
		d.rep.Queries["stuck"]++
		site.Stuck++
	case a.err != nil:
		d.rep.Queries["error"]++
	default:
		d.rep.Queries[st.String()]++
	}
	d.resolve(a.c, st)
	switch st {
	case solver.Sat:
		site.Sat++
		return job{env: d.input(a), origin: a.c}, true
	case solver.Unsat:
		site.Unsat++
	default:
		site.Unknown++
	}
	d.optimistic(a)
	return job{}, false
}

// input is the input of a satisfiable answer: the candidate's base input
// with the model's values, pointer choices made canonical.
func (d *coordinator) input(a answer) sym.Env {
	env := maps.Clone(a.c.Base)
	if env == nil {
		env = sym.Env{}
	}
	maps.Copy(env, a.res.Model)
	env = d.alias.canonical(a.q, env, a.res.Model)
	d.rep.AliasFallbacks = d.alias.Fallbacks
	return env
}

// resolve records the solver's answer to c's query in the tree and, when
// no execution follows it, tells the strategy.
func (d *coordinator) resolve(c *explore.Candidate, st solver.Status) {
	d.tree.Resolve(c, st)
	switch st {
	case solver.Unsat:
		d.strat.Update(explore.Feedback{Event: explore.Refuted, Origin: c})
	case solver.Unknown:
		d.strat.Update(explore.Feedback{Event: explore.Unsolved, Origin: c})
	}
}

// optimistic queues the optimistic query of a failed path query (QSYM):
// the goal alone, under the inputs' domain, the other inputs keeping the
// values of the candidate's base. A path condition can be refuted wrongly
// — a value made concrete fixes what the program computed from it — and
// then only an input that ignores the prefix can show it. The input runs
// as a seed would, with no candidate to reach, so a miss costs an
// execution but is no divergence.
//
// It is asked only for an outcome no execution has taken yet and for which
// no optimistic query or input is under way, and when the number of
// failures at that outcome is a power of two, so that a site that fails
// thousands of times costs a dozen optimistic queries.
func (d *coordinator) optimistic(a answer) {
	if !d.cfg.Optimistic || d.rep.Stopped != "" || d.solveCtx.Err() != nil {
		return
	}
	c := a.c
	if d.rep.Covered.Has(c.Node.Site, c.Side) {
		return
	}
	o := outcomeOf(c)
	d.optFails[o]++
	if n := d.optFails[o]; n&(n-1) != 0 || d.optOut[o] {
		return
	}
	d.optOut[o] = true
	// Clipped: a layer that appends to the constraints copies them
	// rather than write into the array other queries share.
	q := solver.Query{Constraints: slices.Clip(d.limits), Goal: a.q.Goal, Seed: c.Base}
	d.optQueue = append(d.optQueue, request{c: c, q: q, kind: queryOptimistic})
}

// outcomeOf numbers the branch outcome of c: its site and side.
func outcomeOf(c *explore.Candidate) uint32 {
	o := c.Node.Site << 1
	if c.Side {
		o |= 1
	}
	return o
}
