package solver

import (
	"context"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// AutoOptions tunes the auto layer.
type AutoOptions struct {
	// Hard reports whether a constraint lies outside the fragment primary
	// decides quickly (for Z3: non-linear arithmetic, float multiplication
	// and division). Nil means no constraint is hard.
	Hard func(*sym.Expr) bool
	// FirstTry bounds primary on a query with a hard constraint, so that a
	// query Z3 would spend its whole timeout on reaches the search while
	// time is left. Zero means no bound beyond the caller's context.
	//
	// The bound adapts: each hard query primary leaves Unknown halves it,
	// down to FirstTry/16, and each one it decides using more than half of
	// the bound doubles it again, up to FirstTry. A target whose hard
	// queries all defeat Z3 then costs little Z3 time per query, one whose
	// hard queries Z3 decides near the bound gets the full first try back,
	// and quick answers (a trivially unsat query) say nothing either way.
	FirstTry time.Duration
	// EasyFinal says that secondary decides a query with no hard
	// constraint (and no opaque call) only by asking primary the same
	// query, as the concolic walk does: primary's Unknown on such a query
	// is then the answer, rather than a second attempt at the same cost.
	EasyFinal bool
}

// minTryDiv is how far the first try on hard queries may shrink.
const minTryDiv = 16

// auto sends each query to a decision procedure first and to a search
// second (-solver auto).
type auto struct {
	primary, secondary Solver
	opts               AutoOptions
	try                time.Duration // current bound on hard queries
	stats              Stats
}

// NewAuto returns a layer that passes queries with opaque calls (which no
// decision procedure interprets) straight to secondary, and every other
// query to primary, trying secondary on what primary leaves Unknown (a
// timeout; with o.EasyFinal, only on a query with a hard constraint).
// Primary gets at most o.FirstTry on a query with a hard constraint.
// Local counts the queries that reached secondary.
func NewAuto(primary, secondary Solver, o AutoOptions) Layer {
	return &auto{primary: primary, secondary: secondary, opts: o, try: o.FirstTry}
}

// Name implements Layer.
func (a *auto) Name() string { return "auto" }

// Stats implements Layer.
func (a *auto) Stats() Stats { return a.stats }

// Children returns the two solvers, for reports.
func (a *auto) Children() []Solver { return []Solver{a.primary, a.secondary} }

// Solve implements Solver.
func (a *auto) Solve(ctx context.Context, q Query) (r Result, err error) {
	start := time.Now()
	defer func() { a.stats.Record(r, err, time.Since(start)) }()
	terms := append(q.Constraints[:len(q.Constraints):len(q.Constraints)], q.Goal)
	if !sym.HasCall(terms...) {
		pctx := ctx
		// Hardness matters only to a first try's bound or to EasyFinal.
		isHard := (a.opts.FirstTry > 0 || a.opts.EasyFinal) && a.hard(terms)
		hard := a.opts.FirstTry > 0 && isHard
		if hard {
			var cancel context.CancelFunc
			pctx, cancel = context.WithTimeout(ctx, a.try)
			defer cancel()
		}
		t0 := time.Now()
		r, err = a.primary.Solve(pctx, q)
		if hard && err == nil && ctx.Err() == nil {
			a.adapt(r.Status != Unknown, time.Since(t0))
		}
		if err != nil || r.Status != Unknown || ctx.Err() != nil || (a.opts.EasyFinal && !isHard) {
			return r, err
		}
	}
	a.stats.Local++
	return a.secondary.Solve(ctx, q)
}

func (a *auto) hard(terms []*sym.Expr) bool {
	if a.opts.Hard == nil {
		return false
	}
	for _, t := range terms {
		if a.opts.Hard(t) {
			return true
		}
	}
	return false
}

// adapt moves the bound on hard queries after primary decided one or not,
// in the time took.
func (a *auto) adapt(decided bool, took time.Duration) {
	switch {
	case !decided:
		a.try = max(a.try/2, a.opts.FirstTry/minTryDiv)
	case took > a.try/2:
		a.try = min(2*a.try, a.opts.FirstTry)
	}
}
