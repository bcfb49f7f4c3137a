package solver

import (
	"context"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// fastUnsat answers Unsat for queries that are contradictory on their face.
type fastUnsat struct {
	next  Solver
	stats Stats
}

// NewFastUnsat returns a layer that answers Unsat, without asking next,
// when the goal or a constraint is the constant false or the goal and a
// constraint are each other's negation. It relies on hash-consing: a
// negation is recognised only as a KNot node whose argument is the very
// other term, which is what sym.Builder.Not makes.
func NewFastUnsat(next Solver) Wrapper { return &fastUnsat{next: next} }

// Name implements Layer.
func (f *fastUnsat) Name() string { return "fastunsat" }

// Stats implements Layer.
func (f *fastUnsat) Stats() Stats { return f.stats }

// Next implements Wrapper.
func (f *fastUnsat) Next() Solver { return f.next }

// Solve implements Solver.
func (f *fastUnsat) Solve(ctx context.Context, q Query) (r Result, err error) {
	start := time.Now()
	defer func() { f.stats.Record(r, err, time.Since(start)) }()
	if err := checkQuery(q); err != nil {
		return Result{}, err
	}
	if contradicts(q) {
		f.stats.Local++
		return Result{Status: Unsat}, nil
	}
	return f.next.Solve(ctx, q)
}

// contradicts reports whether q is unsatisfiable for a reason visible
// without looking below the top node of each term.
func contradicts(q Query) bool {
	g := q.Goal
	if g.Kind == sym.KFalse {
		return true
	}
	for _, c := range q.Constraints {
		if c.Kind == sym.KFalse || negates(g, c) || negates(c, g) {
			return true
		}
	}
	return false
}

// negates reports whether a is the node !b.
func negates(a, b *sym.Expr) bool {
	return a.Kind == sym.KNot && len(a.Args) == 1 && a.Args[0] == b
}
