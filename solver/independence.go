package solver

import (
	"context"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// maxVarMemo bounds the independence layer's memory of variable sets. Path
// prefixes repeat from query to query, so most lookups hit; when the memo
// grows past the bound it is simply dropped.
const maxVarMemo = 1 << 16

// independence slices a query down to the constraints related to its goal.
type independence struct {
	next  Solver
	stats Stats
	vars  map[*sym.Expr][]uint64 // term -> numbers of its variables
}

// NewIndependence returns a layer that passes on only the constraints that
// share variables with the goal, directly or through other constraints. The
// relative order of the kept constraints is preserved, so queries that
// shared a prefix still tend to. Constraints without variables other than
// true are kept, since they decide satisfiability by themselves.
//
// The answer is only as good as the premise of concolic testing: the
// dropped constraints hold for the inputs of the execution the query came
// from, and a model of the sliced query leaves those inputs' other
// variables alone.
func NewIndependence(next Solver) Wrapper {
	return &independence{next: next, vars: make(map[*sym.Expr][]uint64)}
}

// Name implements Layer.
func (in *independence) Name() string { return "independence" }

// Stats implements Layer.
func (in *independence) Stats() Stats { return in.stats }

// Next implements Wrapper.
func (in *independence) Next() Solver { return in.next }

// Solve implements Solver.
func (in *independence) Solve(ctx context.Context, q Query) (r Result, err error) {
	start := time.Now()
	defer func() { in.stats.Record(r, err, time.Since(start)) }()
	if err := checkQuery(q); err != nil {
		return Result{}, err
	}
	return in.next.Solve(ctx, in.slice(q))
}

// slice returns q without the constraints unrelated to its goal, or q
// itself if every constraint is related.
func (in *independence) slice(q Query) Query {
	if len(in.vars) > maxVarMemo {
		clear(in.vars)
	}
	return sliceBy(q, in.varsOf)
}

// Slice returns q without the constraints that share no variables with
// its goal, directly or through other constraints (q itself if all do),
// as the independence layer passes it on; for callers that decide what
// to ask from the slice, such as the model checker's straight-code
// proofs, which need no query for a goal that nothing constrains.
func Slice(q Query) Query {
	return sliceBy(q, varNumbers)
}

// sliceBy is Slice with varsOf giving the numbers of a term's variables.
func sliceBy(q Query, varsOf func(*sym.Expr) []uint64) Query {
	// Union-find over variable numbers: each constraint joins its
	// variables into one class, and so does the goal.
	parent := make(map[uint64]uint64)
	find := func(v uint64) uint64 {
		p, ok := parent[v]
		if !ok {
			parent[v] = v
			return v
		}
		for p != v {
			gp := parent[p]
			parent[v] = gp // path halving
			v, p = p, gp
		}
		return v
	}
	join := func(vs []uint64) {
		if len(vs) == 0 {
			return
		}
		r := find(vs[0])
		for _, v := range vs[1:] {
			if s := find(v); s != r {
				parent[s] = r
			}
		}
	}
	for _, c := range q.Constraints {
		join(varsOf(c))
	}
	goalVars := varsOf(q.Goal)
	join(goalVars)

	keep := func(c *sym.Expr) bool {
		vs := varsOf(c)
		if len(vs) == 0 {
			return c.Kind != sym.KTrue
		}
		return len(goalVars) > 0 && find(vs[0]) == find(goalVars[0])
	}
	n := 0
	for _, c := range q.Constraints {
		if keep(c) {
			n++
		}
	}
	if n == len(q.Constraints) {
		return q
	}
	kept := make([]*sym.Expr, 0, n)
	for _, c := range q.Constraints {
		if keep(c) {
			kept = append(kept, c)
		}
	}
	return Query{Constraints: kept, Goal: q.Goal, Seed: q.Seed}
}

// varsOf returns the numbers of the variables in e, remembered.
func (in *independence) varsOf(e *sym.Expr) []uint64 {
	if vs, ok := in.vars[e]; ok {
		return vs
	}
	vs := varNumbers(e)
	in.vars[e] = vs
	return vs
}

// varNumbers returns the numbers of the variables in e.
func varNumbers(e *sym.Expr) []uint64 {
	var vs []uint64
	for _, v := range sym.Vars(nil, e) {
		vs = append(vs, v.Val)
	}
	return vs
}
