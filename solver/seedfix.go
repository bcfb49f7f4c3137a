package solver

import (
	"context"
	"maps"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// Bounds of the seed-fix layer: the assignments it evaluates per query and
// the depth to which it follows a term down to a variable.
const (
	maxFixTries = 48
	maxFixDepth = 12
	maxFixAtoms = 16
	maxFixSteps = 1 << 12 // terms visited while inverting, per query
	maxFixEvals = 1 << 20 // terms evaluated while trying, per query
	// A candidate that breaks constraints may change this many more
	// variables, trying this many assignments for each.
	maxRepairs     = 4
	maxRepairTries = 8
)

// seedFix answers queries by changing one variable of the input the query
// came from.
type seedFix struct {
	next  Solver
	stats Stats
}

// NewSeedFix returns a layer that tries, before asking next, to satisfy a
// query whose goal is an equality by a small change of its Seed: the input
// of the execution the query came from, which satisfies the constraints
// but not the goal. For each comparison in the goal it computes the values
// of one variable that make one side equal the other side's current value,
// or one more or one less, following the side's term down through
// invertible operations (addition, subtraction, xor, negation, complement,
// extension, truncation, masks, the chosen arm of an if-then-else); it
// evaluates each changed input on the goal and every constraint and
// answers Sat with the first that satisfies them all. Otherwise, and for
// other goals, queries with no Seed, opaque calls or string aggregates, it
// passes the query on.
//
// A concolic search asks mostly such near misses: the goal negates one
// branch of the seed's own path, often a comparison of one input byte or
// length with a constant or another value, and the prefix rarely mentions
// the variable the fix changes. The answer is the seed with one value
// changed, which is also the input most likely to follow the seed's path
// up to the branch. An equality pins that value down; the other side of
// an inequality is a range, whose bound the fix would always pick where
// Z3 picks any value of it (see NewDomain for what that cost).
func NewSeedFix(next Solver) Wrapper { return &seedFix{next: next} }

// Name implements Layer.
func (f *seedFix) Name() string { return "seedfix" }

// Stats implements Layer.
func (f *seedFix) Stats() Stats { return f.stats }

// Next implements Wrapper.
func (f *seedFix) Next() Solver { return f.next }

// Solve implements Solver.
func (f *seedFix) Solve(ctx context.Context, q Query) (r Result, err error) {
	start := time.Now()
	defer func() { f.stats.Record(r, err, time.Since(start)) }()
	if err := checkQuery(q); err != nil {
		return Result{}, err
	}
	if q.Goal.Kind == sym.KEq && q.Seed != nil && !sym.HasCall(append(q.Constraints[:len(q.Constraints):len(q.Constraints)], q.Goal)...) && checkEvaluable(q) == nil {
		if m, ok := fixSeed(ctx, q); ok {
			f.stats.Local++
			return Result{Status: Sat, Model: m}, nil
		}
	}
	return f.next.Solve(ctx, q)
}

// assign is a value for one variable.
type assign struct {
	v   uint64 // variable number
	val uint64
}

// fixSeed returns a model of q that differs from q.Seed in few variables,
// restricted to q's variables, if it finds one. Each candidate changes one
// variable so that the goal holds; when that breaks constraints, up to
// maxRepairs more variables, one per broken constraint, are changed the
// same way to mend them.
func fixSeed(ctx context.Context, q Query) (sym.Env, bool) {
	vars, size := varsAndSize(append(q.Constraints[:len(q.Constraints):len(q.Constraints)], q.Goal))
	// Each try may evaluate the whole query once per repair.
	tries := min(maxFixTries, max(1, maxFixEvals/(size*(1+maxRepairs))))
	base := make(sym.Env, len(vars))
	for _, v := range vars {
		base[v.Val] = q.Seed[v.Val]
	}
	steps := maxFixSteps
	for _, a := range fixes(base, q.Goal, tries, &steps) {
		if ctx.Err() != nil {
			return nil, false
		}
		env := maps.Clone(base)
		env[a.v] = a.val
		if !holds(q.Goal, env) {
			continue
		}
		if repair(q, env, a.v, &steps) {
			return env, true
		}
	}
	return nil, false
}

// repair changes env, one variable per round and never the goal's new
// value fixed, until it satisfies all of q, and reports whether it did.
func repair(q Query, env sym.Env, fixed uint64, steps *int) bool {
	frozen := map[uint64]bool{fixed: true}
	for range maxRepairs + 1 {
		broken := firstBroken(q.Constraints, env)
		if broken == nil {
			return true
		}
		mended := false
		for _, a := range fixes(env, broken, maxRepairTries, steps) {
			if frozen[a.v] {
				continue
			}
			old := env[a.v]
			env[a.v] = a.val
			if holds(broken, env) && holds(q.Goal, env) {
				frozen[a.v] = true
				mended = true
				break
			}
			env[a.v] = old
		}
		if !mended {
			return false
		}
	}
	return false
}

// firstBroken returns the first of cs that env does not satisfy, or nil.
func firstBroken(cs []*sym.Expr, env sym.Env) *sym.Expr {
	ev := sym.Evaluator{Env: env}
	for _, c := range cs {
		if v, err := ev.Value(c); err != nil || v == 0 {
			return c
		}
	}
	return nil
}

// holds reports whether the boolean e is true under env.
func holds(e *sym.Expr, env sym.Env) bool {
	ev := sym.Evaluator{Env: env}
	v, err := ev.Value(e)
	return err == nil && v != 0
}

// fixes returns up to n assignments of one variable, each different from
// its value in env, that make one side of a comparison of e equal the other
// side's value, or one more or one less.
func fixes(env sym.Env, e *sym.Expr, n int, steps *int) []assign {
	ev := sym.Evaluator{Env: env}
	var cands []assign
	seen := make(map[assign]bool)
	add := func(a assign) {
		if !seen[a] && a.val != env[a.v] && len(cands) < n {
			seen[a] = true
			cands = append(cands, a)
		}
	}
	for _, at := range atoms(e) {
		if _, err := ev.Value(at); err != nil {
			continue
		}
		for i, side := range at.Args {
			ov, _ := ev.Value(at.Args[1-i])
			m := sym.Mask(side.Width)
			for _, d := range [3]uint64{0, 1, ^uint64(0)} { // other, other+1, other-1
				invert(&ev, side, (ov+d)&m, maxFixDepth, steps, add)
			}
		}
	}
	return cands
}

// atoms returns the bit-vector comparisons of the boolean term e, looking
// through negations and connectives, each once and at most maxFixAtoms.
func atoms(e *sym.Expr) []*sym.Expr {
	var dst []*sym.Expr
	seen := make(map[*sym.Expr]bool)
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if seen[e] || len(dst) == maxFixAtoms {
			return
		}
		seen[e] = true
		switch {
		case e.Kind == sym.KNot || e.Kind == sym.KLAnd || e.Kind == sym.KLOr:
			for _, a := range e.Args {
				walk(a)
			}
		case e.Kind.IsCompare() && e.Args[0].Width > 0:
			dst = append(dst, e)
		}
	}
	walk(e)
	return dst
}

// invert calls add with each assignment of one variable of e that gives e
// the value t, the other variables keeping the values ev has; it follows
// e down through operations whose argument it can compute from t,
// treating every other argument as the constant it evaluates to. It
// visits at most *steps terms, counting them off.
func invert(ev *sym.Evaluator, e *sym.Expr, t uint64, depth int, steps *int, add func(assign)) {
	if depth == 0 || e.Width == 0 || *steps <= 0 {
		return
	}
	*steps--
	m := sym.Mask(e.Width)
	t &= m
	val := func(x *sym.Expr) uint64 { v, _ := ev.Value(x); return v }
	down := func(x *sym.Expr, t uint64) {
		if !x.IsConst() {
			invert(ev, x, t, depth-1, steps, add)
		}
	}
	switch e.Kind {
	case sym.KVar:
		add(assign{v: e.Val, val: t})
	case sym.KAdd:
		down(e.Args[0], t-val(e.Args[1]))
		down(e.Args[1], t-val(e.Args[0]))
	case sym.KSub:
		down(e.Args[0], t+val(e.Args[1]))
		down(e.Args[1], val(e.Args[0])-t)
	case sym.KXor:
		down(e.Args[0], t^val(e.Args[1]))
		down(e.Args[1], t^val(e.Args[0]))
	case sym.KAnd, sym.KOr:
		// x & k == t needs t within k, and x | k == t needs k within t;
		// then x takes t's bits where k does not decide them.
		for i := range 2 {
			k, x := val(e.Args[1-i]), e.Args[i]
			if e.Kind == sym.KAnd && t&^k == 0 {
				down(x, val(x)&^k|t)
			}
			if e.Kind == sym.KOr && k&^t == 0 {
				down(x, val(x)&k|t&^k)
			}
		}
	case sym.KNeg:
		down(e.Args[0], -t)
	case sym.KCpl:
		down(e.Args[0], ^t)
	case sym.KZExt:
		if a := e.Args[0]; t&^sym.Mask(a.Width) == 0 {
			down(a, t)
		}
	case sym.KSExt:
		if a := e.Args[0]; uint64(sym.SignExtend(t&sym.Mask(a.Width), a.Width))&m == t {
			down(a, t)
		}
	case sym.KTrunc:
		a := e.Args[0]
		down(a, val(a)&^m|t)
	case sym.KIte:
		// The chosen arm: an index into a string or slice picks one
		// input byte this way.
		if val(e.Args[0]) != 0 {
			down(e.Args[1], t)
		} else {
			down(e.Args[2], t)
		}
	}
}

// varsAndSize returns the variables of es, as sym.Vars does, and the number
// of distinct terms in them.
func varsAndSize(es []*sym.Expr) ([]*sym.Expr, int) {
	var vars []*sym.Expr
	seen := make(map[*sym.Expr]bool)
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if seen[e] {
			return
		}
		seen[e] = true
		if e.Kind == sym.KVar {
			vars = append(vars, e)
		}
		for _, a := range e.Args {
			walk(a)
		}
	}
	for _, e := range es {
		walk(e)
	}
	return vars, len(seen)
}
