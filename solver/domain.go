package solver

import (
	"context"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// Bounds of the domain layer: the most values it enumerates for the goal's
// variable, and the most term evaluations it may spend on one query.
const (
	maxDomainValues = 1 << 10
	maxDomainEvals  = 1 << 20 // values times the size of the terms they are tried on
)

// domain decides queries whose goal has one variable of a small domain by
// trying every value.
type domain struct {
	next  Solver
	stats Stats
	vars  map[*sym.Expr][]*sym.Expr // term -> its variables
}

// NewDomain returns a layer that decides a query whose goal mentions a
// single variable v with at most maxDomainValues possible values: a
// variable of at most ten bits, or one a constraint bounds from above (an
// input length under the length limit, a count checked against a
// constant). It evaluates the goal and the constraints that mention v alone
// at every value of v, nearest the Seed's first. When no value satisfies
// them the query is Unsat: a subset of its assertions already is. For the
// first value that does, it evaluates every constraint with v changed in
// the Seed and answers Sat when all hold. Anything else goes to next.
//
// This is where the wasted queries of a concolic search pile up: a loop
// over an input asks again and again whether the length can be one more or
// one less than the prefix has fixed it to, and a check repeats a bound
// the path has already decided (i < len(s) after len(s) > 6).
func NewDomain(next Solver) Wrapper {
	return &domain{next: next, vars: make(map[*sym.Expr][]*sym.Expr)}
}

// Name implements Layer.
func (d *domain) Name() string { return "domain" }

// Stats implements Layer.
func (d *domain) Stats() Stats { return d.stats }

// Next implements Wrapper.
func (d *domain) Next() Solver { return d.next }

// Solve implements Solver.
func (d *domain) Solve(ctx context.Context, q Query) (r Result, err error) {
	start := time.Now()
	defer func() { d.stats.Record(r, err, time.Since(start)) }()
	if err := checkQuery(q); err != nil {
		return Result{}, err
	}
	if r, ok := d.decide(q); ok {
		d.stats.Local++
		return r, nil
	}
	return d.next.Solve(ctx, q)
}

// varsOf returns the variables of e, remembered.
func (d *domain) varsOf(e *sym.Expr) []*sym.Expr {
	if vs, ok := d.vars[e]; ok {
		return vs
	}
	if len(d.vars) > maxVarMemo {
		clear(d.vars)
	}
	vs := sym.Vars(nil, e)
	d.vars[e] = vs
	return vs
}

// decide answers q by enumeration, or returns false.
func (d *domain) decide(q Query) (Result, bool) {
	gv := d.varsOf(q.Goal)
	if len(gv) != 1 || gv[0].Width == 0 || sym.HasCall(q.Goal) {
		return Result{}, false
	}
	v := gv[0]
	// The constraints on v alone, and the largest value they allow.
	local := []*sym.Expr{q.Goal}
	hi := uint64(0)
	bounded := false
	if v.Width <= 10 {
		hi, bounded = sym.Mask(v.Width), true
	}
	for _, c := range q.Constraints {
		vs := d.varsOf(c)
		if len(vs) != 1 || vs[0] != v {
			continue
		}
		if sym.HasCall(c) || checkEvaluable(Query{Goal: c}) != nil {
			return Result{}, false
		}
		local = append(local, c)
		if k, ok := upperBound(c, v); ok && (!bounded || k < hi) {
			hi, bounded = k, true
		}
	}
	if !bounded || hi >= maxDomainValues {
		return Result{}, false
	}
	if checkEvaluable(Query{Goal: q.Goal}) != nil {
		return Result{}, false
	}
	// Every value may cost an evaluation of all of local.
	_, size := varsAndSize(local)
	if (hi+1)*uint64(size) > maxDomainEvals {
		return Result{}, false
	}
	var seed uint64
	if q.Seed != nil {
		seed = min(q.Seed[v.Val]&sym.Mask(v.Width), hi)
	}
	holds := func(val uint64) bool {
		ev := sym.Evaluator{Env: sym.Env{v.Val: val}}
		for _, c := range local {
			if x, _ := ev.Value(c); x == 0 {
				return false
			}
		}
		return true
	}
	// Values by distance from the seed's, below first.
	for dist := uint64(0); dist <= hi; dist++ {
		for _, val := range [2]uint64{seed - dist, seed + dist} {
			if val > hi || (dist == 0 && val != seed) || !holds(val) {
				continue
			}
			return d.model(q, v, val)
		}
		if dist > seed && seed+dist > hi {
			break
		}
	}
	return Result{Status: Unsat}, true
}

// model returns Sat when the seed with v set to val satisfies all of q.
func (d *domain) model(q Query, v *sym.Expr, val uint64) (Result, bool) {
	if q.Seed == nil || sym.HasCall(q.Constraints...) || checkEvaluable(q) != nil {
		return Result{}, false
	}
	vars := sym.Vars(nil, append(q.Constraints[:len(q.Constraints):len(q.Constraints)], q.Goal)...)
	env := make(sym.Env, len(vars))
	for _, x := range vars {
		env[x.Val] = q.Seed[x.Val]
	}
	env[v.Val] = val
	if !satisfies(q, env) {
		return Result{}, false
	}
	return Result{Status: Sat, Model: env}, true
}

// upperBound returns k when c says v <=u k (or v <u k+1) and is false for
// every larger value of v.
func upperBound(c, v *sym.Expr) (uint64, bool) {
	neg := false
	if c.Kind == sym.KNot {
		neg, c = true, c.Args[0]
	}
	if len(c.Args) != 2 {
		return 0, false
	}
	x, y := c.Args[0], c.Args[1]
	switch {
	case !neg && c.Kind == sym.KULe && x == v && y.Kind == sym.KConst:
		return y.Val, true
	case !neg && c.Kind == sym.KULt && x == v && y.Kind == sym.KConst && y.Val > 0:
		return y.Val - 1, true
	case neg && c.Kind == sym.KULt && y == v && x.Kind == sym.KConst: // !(k < v)
		return x.Val, true
	case neg && c.Kind == sym.KULe && y == v && x.Kind == sym.KConst && x.Val > 0: // !(k <= v)
		return x.Val - 1, true
	}
	return 0, false
}
