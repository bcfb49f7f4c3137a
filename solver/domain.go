package solver

import (
	"context"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// maxDomainEvals bounds the term evaluations the domain layer may spend on
// one query: values tried times the size of the terms they are tried on.
const maxDomainEvals = 1 << 20

// domain decides queries whose goal has one narrow variable by trying
// every value.
type domain struct {
	next  Solver
	stats Stats
	vars  map[*sym.Expr][]*sym.Expr // term -> its variables
}

// NewDomain returns a layer that decides a query whose goal mentions a
// single variable v of at most ten bits (a byte, a boolean) by trying
// every value of v on the goal and the constraints that mention v alone.
// When no value satisfies them the query is Unsat: a subset of its
// assertions already is. When exactly one does, the goal pins v down and
// every solver's model gives v that value: it evaluates every constraint
// with v changed in the Seed and answers Sat when all hold. Anything else
// goes to next: a goal that several values satisfy (a range) and a goal
// over a wider variable (an input's length, a count).
//
// This is where the wasted queries of a concolic search pile up: a loop
// over an input compares a byte again and again with what the prefix has
// already fixed it to, or asks for one value of it.
//
// Why not answer a range with the value nearest the Seed's: measured on
// the scanner example, the nearest value is the range's bound, which is
// also the first class the next check tests ('0' for "c >= '0'", a digit,
// where Z3's models fell outside it), so the search filled every hex digit
// with '0' and never reached the byte-order-mark bug behind four letters.
// Why not lengths: the nearest length grows the input by one byte at its
// end, where a flipped byte has nothing after it to act on (65 of 108
// branch outcomes at 300 executions against 98), and answering even the
// length queries Z3 would refute changes the models Z3 gives later (its
// solver is incremental), which sent the search for strconv.Unquote's goal
// from 15 executions to 66.
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
	if v.Width > 10 {
		return Result{}, false
	}
	// The constraints on v alone, and the largest value they allow.
	local := []*sym.Expr{q.Goal}
	hi := sym.Mask(v.Width)
	for _, c := range q.Constraints {
		vs := d.varsOf(c)
		if len(vs) != 1 || vs[0] != v {
			continue
		}
		if sym.HasCall(c) || checkEvaluable(Query{Goal: c}) != nil {
			return Result{}, false
		}
		local = append(local, c)
		if k, ok := upperBound(c, v); ok && k < hi {
			hi = k
		}
	}
	if checkEvaluable(Query{Goal: q.Goal}) != nil {
		return Result{}, false
	}
	// Every value may cost an evaluation of all of local.
	_, size := varsAndSize(local)
	if (hi+1)*uint64(size) > maxDomainEvals {
		return Result{}, false
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
	// The values that satisfy local, up to two.
	var vals []uint64
	for val := uint64(0); val <= hi && len(vals) < 2; val++ {
		if holds(val) {
			vals = append(vals, val)
		}
	}
	switch len(vals) {
	case 0:
		return Result{Status: Unsat}, true
	case 1:
		return d.model(q, v, vals[0])
	}
	return Result{}, false
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
