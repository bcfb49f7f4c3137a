package solver

import (
	"context"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// auto sends each query to a decision procedure first and to a search
// second (-solver auto).
type auto struct {
	primary, secondary Solver
	stats              Stats
}

// NewAuto returns a layer that passes queries with opaque calls (which no
// decision procedure interprets) straight to secondary, and every other
// query to primary, trying secondary on what primary leaves Unknown (a
// timeout). Local counts the queries that reached secondary.
func NewAuto(primary, secondary Solver) Layer { return &auto{primary: primary, secondary: secondary} }

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
	if !sym.HasCall(append(q.Constraints[:len(q.Constraints):len(q.Constraints)], q.Goal)...) {
		r, err = a.primary.Solve(ctx, q)
		if err != nil || r.Status != Unknown || ctx.Err() != nil {
			return r, err
		}
	}
	a.stats.Local++
	return a.secondary.Solve(ctx, q)
}
