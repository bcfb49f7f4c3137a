// This file implements one concolic walk: the search state and the steps
// of the seed's Algorithms 1 (the main loop), 3 (the best neighbour) and 4
// (the random step), with the error scores of errors.go.

package walk

import (
	"context"
	"maps"
	"math"
	"slices"

	"github.com/gocolic/gocolic/sym"
)

// search is the state of one walk over the constraints of one query.
type search struct {
	s    *Solver
	lin  []*sym.Expr // L: every accepted point satisfies these
	non  []*cons     // N: the error scores minimised
	eqs  []eq        // the equalities of L that fix a variable
	vars []uint64    // vars(L ∪ N), sorted
	nvar []uint64    // vars(N), sorted
	// widths and floats describe every variable of vars.
	widths map[uint64]uint8
	floats map[uint64]bool

	terms  []*sym.Expr // everything evaluated per point
	index  map[*sym.Expr]int
	remote bool // some term has an opaque call
	// cautious is set once an evaluation failed: points are evaluated
	// one by one from then on.
	cautious bool

	tabu   map[uint64]int
	tenure int

	// Bytes of strings and byte slices past their length do not matter:
	// aggBytes lists, for each variable that occurs only as such a byte,
	// where (aggregate length term, byte position).
	aggBytes map[uint64][]aggPos
}

type aggPos struct {
	length *sym.Expr
	pos    int
}

// eq is an equality v == t of L with v not in t: after a random step, v is
// recomputed from t (the seed's adjustToSatisfy).
type eq struct {
	v uint64
	t *sym.Expr
}

// cons is one constraint of N with the tree its error score is read from.
type cons struct {
	term int // position of the constraint in terms
	tree *enode
	vars map[uint64]bool
}

func newSearch(s *Solver, lin, non []*sym.Expr) *search {
	w := &search{s: s, lin: lin, index: make(map[*sym.Expr]int),
		widths: make(map[uint64]uint8), floats: make(map[uint64]bool), tabu: make(map[uint64]int)}
	for _, c := range non {
		t := &cons{term: w.term(c), tree: w.build(c, false), vars: make(map[uint64]bool)}
		for _, v := range sym.Vars(nil, c) {
			t.vars[v.Val] = true
		}
		w.non = append(w.non, t)
	}
	all := append(slices.Clone(lin), non...)
	for _, v := range sym.Vars(nil, all...) {
		w.vars = append(w.vars, v.Val)
		w.widths[v.Val] = v.Width
	}
	slices.Sort(w.vars)
	for _, v := range sym.Vars(nil, non...) {
		w.nvar = append(w.nvar, v.Val)
	}
	slices.Sort(w.nvar)
	for v, fw := range floatWidths(all) {
		if w.widths[v] == fw {
			w.floats[v] = true
		}
	}
	for v, fw := range s.floats {
		if _, ok := w.widths[v]; ok && w.widths[v] == fw {
			w.floats[v] = true
		}
	}
	for _, c := range lin {
		if c.Kind != sym.KEq && c.Kind != sym.KFEq {
			continue
		}
		for i, side := range c.Args {
			other := c.Args[1-i]
			if side.Kind == sym.KVar && !slices.Contains(sym.Vars(nil, other), side) && (c.Kind == sym.KEq || w.floats[side.Val]) {
				w.eqs = append(w.eqs, eq{v: side.Val, t: other})
				break
			}
		}
	}
	w.remote = sym.HasCall(w.terms...)
	w.findAggBytes(non)
	switch {
	case s.p.NoTabu:
		w.tenure = 0
	case s.p.Tabu > 0:
		w.tenure = s.p.Tabu
	default:
		w.tenure = min(len(w.nvar), DefaultTabuCap)
	}
	return w
}

// findAggBytes fills aggBytes from the aggregates in cs.
func (w *search) findAggBytes(cs []*sym.Expr) {
	direct := make(map[uint64]bool)
	w.aggBytes = make(map[uint64][]aggPos)
	seen := make(map[*sym.Expr]bool)
	var visit func(e *sym.Expr)
	visit = func(e *sym.Expr) {
		if seen[e] {
			return
		}
		seen[e] = true
		switch e.Kind {
		case sym.KVar:
			direct[e.Val] = true
			return
		case sym.KString:
			visit(e.Args[0])
			for i, a := range e.Args[1:] {
				if a.Kind == sym.KVar {
					w.aggBytes[a.Val] = append(w.aggBytes[a.Val], aggPos{length: e.Args[0], pos: i})
				} else {
					visit(a)
				}
			}
			return
		}
		for _, a := range e.Args {
			visit(a)
		}
	}
	for _, c := range cs {
		visit(c)
	}
	for v := range direct {
		delete(w.aggBytes, v)
	}
}

// beyondLength reports whether variable v occurs only as bytes of strings
// past their length at env, where changing it changes nothing.
func (w *search) beyondLength(v uint64, env sym.Env) bool {
	ps, ok := w.aggBytes[v]
	if !ok {
		return false
	}
	ev := sym.Evaluator{Env: env}
	for _, p := range ps {
		n, err := ev.Value(p.length)
		if err != nil || n > uint64(p.pos) {
			return false
		}
	}
	return true
}

// term returns the position of e in the evaluated terms, adding it.
func (w *search) term(e *sym.Expr) int {
	if i, ok := w.index[e]; ok {
		return i
	}
	w.index[e] = len(w.terms)
	w.terms = append(w.terms, e)
	return len(w.terms) - 1
}

// point is a candidate environment with the values of the terms there
// (nil when it has none) and its summed error.
type point struct {
	env  sym.Env
	vals []uint64
	errs []float64
	sum  float64
}

// evaluate fills in the values and errors of pts.
func (w *search) evaluate(ctx context.Context, pts []*point) error {
	if len(pts) == 0 {
		return nil
	}
	var rows [][]uint64
	if w.remote {
		var err error
		if rows, err = w.evalRemote(ctx, pts); err != nil {
			return err
		}
	} else {
		rows = make([][]uint64, len(pts))
		for i, p := range pts {
			rows[i], _ = sym.Values(w.terms, p.env, nil) // nil: no value
		}
	}
	for i, p := range pts {
		p.vals = rows[i]
		p.errs = make([]float64, len(w.non))
		p.sum = 0
		for j, c := range w.non {
			e := math.Inf(1)
			if p.vals != nil {
				e = w.consError(c, p.vals)
			}
			p.errs[j] = e
			p.sum += e
		}
	}
	return nil
}

// evalRemote evaluates pts with the Evaluator. After a request that
// failed (an evaluation that crashed or hung the evaluator process), the
// rest of the walk sends one point per request, so that the next such
// point costs only itself.
func (w *search) evalRemote(ctx context.Context, pts []*point) ([][]uint64, error) {
	rows := make([][]uint64, len(pts))
	if w.s.eval == nil {
		return rows, nil // no values: infinitely bad
	}
	envs := make([]sym.Env, len(pts))
	for i, p := range pts {
		envs[i] = p.env
	}
	batch := len(envs)
	if w.cautious {
		batch = 1
	}
	for i := 0; i < len(envs); i += batch {
		part := envs[i:min(i+batch, len(envs))]
		got, err := w.s.eval.Eval(ctx, w.terms, part)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			if !w.cautious {
				w.cautious = true
				return w.evalRemote(ctx, pts)
			}
			continue // this point has no value
		}
		copy(rows[i:], got)
	}
	return rows, nil
}

// run walks from start (which must satisfy L) until every constraint of N
// holds, returning that point, or until the budget is spent.
func (w *search) run(ctx context.Context, start sym.Env) (sym.Env, bool, error) {
	if !holdsAll(w.lin, start) {
		return nil, false, nil
	}
	cur := &point{env: start}
	if err := w.evaluate(ctx, []*point{cur}); err != nil {
		return nil, false, err
	}
	budget := w.s.p.Steps * len(w.non)
	for i := 0; cur.sum != 0; i++ {
		if i >= budget || ctx.Err() != nil || w.stuck(cur) {
			return nil, false, nil
		}
		if w.allTabu() {
			// Every direction failed lately: jump in all of them.
			next := &point{env: w.randomStep(cur.env, w.vars)}
			if err := w.evaluate(ctx, []*point{next}); err != nil {
				return nil, false, err
			}
			cur = next
			clear(w.tabu)
			continue
		}
		x := w.pickVar(cur)
		best, err := w.bestNeighbor(ctx, cur, x)
		if err != nil {
			return nil, false, err
		}
		if best != nil && best.sum < cur.sum {
			cur = best
			for v, n := range w.tabu {
				if n <= 1 {
					delete(w.tabu, v)
				} else {
					w.tabu[v] = n - 1
				}
			}
		} else if w.tenure > 0 {
			w.tabu[x] = w.tenure
		}
	}
	// Sound by construction, but the answer is only as good as the
	// evaluation: check the whole query once more at the final point.
	if !holdsAll(w.lin, cur.env) {
		return nil, false, nil
	}
	return cur.env, true, nil
}

// stuck reports whether no step can make the violated point p satisfy N:
// N has no variable at all, or a constraint of N without variables (an
// opaque call on constant arguments; the builder folds every other term
// without variables) is false at p, and no step changes its value. The
// answer is then Unknown rather than Unsat: the walk does not claim that
// an opaque function gives the same value on the same arguments every
// time. Keeping such queries out of the loop also keeps pickVar from
// choosing among no variables.
func (w *search) stuck(p *point) bool {
	if len(w.nvar) == 0 {
		return true
	}
	if p.vals == nil {
		return false // no values here; another point may have them
	}
	for j, c := range w.non {
		if len(c.vars) == 0 && p.errs[j] != 0 {
			return true
		}
	}
	return false
}

// allTabu reports whether every variable of N is tabu.
func (w *search) allTabu() bool {
	if w.tenure == 0 || len(w.nvar) == 0 {
		return false
	}
	for _, v := range w.nvar {
		if w.tabu[v] == 0 {
			return false
		}
	}
	return true
}

// pickVar returns the variable of N with the largest summed error over the
// constraints it occurs in, tabu variables and bytes past a string's
// length last; ties are broken at random. N must have a variable (run
// checks with stuck).
func (w *search) pickVar(p *point) uint64 {
	score := make(map[uint64]float64, len(w.nvar))
	for j, c := range w.non {
		if p.errs[j] == 0 {
			continue
		}
		for v := range c.vars {
			score[v] += min(p.errs[j], math.MaxFloat64/4)
		}
	}
	best, bestScore, ties := w.nvar[0], -3.0, 0
	for _, v := range w.nvar {
		sc := score[v]
		switch {
		case w.tabu[v] > 0:
			sc = -1
		case w.beyondLength(v, p.env):
			sc = -2
		}
		switch {
		case sc > bestScore:
			best, bestScore, ties = v, sc, 1
		case sc == bestScore:
			// Reservoir sampling keeps each tied variable equally likely.
			ties++
			if w.s.rng.IntN(ties) == 0 {
				best = v
			}
		}
	}
	return best
}

// bestNeighbor returns the best of r random steps along x and r bisection
// steps toward a violated constraint that has x, or nil if no candidate
// lies in the polytope.
func (w *search) bestNeighbor(ctx context.Context, cur *point, x uint64) (*point, error) {
	r := w.s.p.Neighbors
	rnd := make([]*point, 0, r)
	for range r {
		env := w.randomStep(cur.env, []uint64{x})
		if !maps.Equal(env, cur.env) {
			rnd = append(rnd, &point{env: env})
		}
	}
	if err := w.evaluate(ctx, rnd); err != nil {
		return nil, err
	}
	var bis []*point
	if !w.s.p.NoBisect {
		var violated []int
		for j, c := range w.non {
			if cur.errs[j] != 0 && c.vars[x] {
				violated = append(violated, j)
			}
		}
		for _, p := range rnd {
			if len(violated) == 0 || p.vals == nil || cur.vals == nil {
				break
			}
			c := w.non[violated[w.s.rng.IntN(len(violated))]]
			if env, ok := w.bisect(cur, p, x, c); ok && holdsAll(w.lin, env) {
				bis = append(bis, &point{env: env})
			}
		}
		if err := w.evaluate(ctx, bis); err != nil {
			return nil, err
		}
	}
	var best *point
	for _, p := range append(rnd, bis...) {
		if best == nil || p.sum < best.sum {
			best = p
		}
	}
	return best, nil
}

// randomStep moves the variables ys by random amounts, restores the
// equalities of L and accepts the first of at most Samples tries that
// satisfies L (rejection sampling); it returns env itself when none does.
func (w *search) randomStep(env sym.Env, ys []uint64) sym.Env {
	for range w.s.p.Samples {
		next := maps.Clone(env)
		for _, y := range ys {
			next[y] = w.move(y, env[y])
		}
		w.adjust(next)
		if holdsAll(w.lin, next) {
			return next
		}
	}
	return env
}

// adjust recomputes the variables fixed by equalities of L.
func (w *search) adjust(env sym.Env) {
	for range 2 { // an equality may read a variable an earlier one fixed
		for _, e := range w.eqs {
			ev := sym.Evaluator{Env: env}
			if v, err := ev.Value(e.t); err == nil {
				env[e.v] = v
			}
		}
	}
}

// move returns a random neighbour of the value x of variable y: integers
// move by a normally distributed amount on a random binary scale (small
// scales likelier), floats
// by a few units in the last place or by a relative amount on a random
// scale.
func (w *search) move(y, x uint64) uint64 {
	rng := w.s.rng
	wd := w.widths[y]
	if w.floats[y] {
		f := sym.FloatValue(x, wd)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return sym.FloatBits(rng.NormFloat64()*math.Ldexp(1, rng.IntN(11)), wd)
		}
		if rng.IntN(4) == 0 {
			k := int64(1 + rng.IntN(16))
			if rng.IntN(2) == 0 {
				k = -k
			}
			return ulps(x, wd, k)
		}
		g := f + rng.NormFloat64()*(math.Abs(f)+1)*math.Ldexp(1, rng.IntN(41)-30)
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return x
		}
		return sym.FloatBits(g, wd)
	}
	if wd == 0 { // a boolean
		return x ^ 1
	}
	// The binary scale favours small steps: uniform below a uniform bound.
	d := rng.NormFloat64() * math.Ldexp(1, rng.IntN(1+rng.IntN(int(wd))))
	delta := rng.Uint64()
	if math.Abs(d) < math.Ldexp(1, 62) {
		delta = uint64(int64(math.Round(d)))
	}
	if delta == 0 {
		delta = 1
		if rng.IntN(2) == 0 {
			delta = ^uint64(0)
		}
	}
	return (x + delta) & sym.Mask(wd)
}

// bisect estimates where constraint c would hold were it linear in x: the
// zero of the secant of one of c's violated atoms that has x, through the
// current point and the random neighbour p. The result may lie outside
// the polytope.
func (w *search) bisect(cur, p *point, x uint64, c *cons) (sym.Env, bool) {
	a := w.violatedAtom(c.tree, cur.vals, x)
	if a == nil {
		return nil, false
	}
	g0, ok0 := w.gap(a, cur.vals)
	g1, ok1 := w.gap(a, p.vals)
	x0, x1 := w.num(x, cur.env[x]), w.num(x, p.env[x])
	if !ok0 || !ok1 || x0 == x1 {
		return nil, false
	}
	slope := (g1 - g0) / (x1 - x0)
	if g1 == g0 || math.IsNaN(slope) || math.IsInf(slope, 0) {
		slope = w.s.rng.NormFloat64() * (math.Abs(g0) + 1) / (math.Abs(x1-x0) + 1)
	}
	if slope == 0 {
		return nil, false
	}
	target := x0 - g0/slope
	bits, ok := w.fromNum(x, target)
	if !ok || bits == cur.env[x] {
		return nil, false
	}
	env := maps.Clone(cur.env)
	env[x] = bits
	w.adjust(env)
	return env, true
}

// num reads the value bits of variable y as a number: a float, or a
// signed integer.
func (w *search) num(y, bits uint64) float64 {
	wd := w.widths[y]
	if w.floats[y] {
		return sym.FloatValue(bits, wd)
	}
	if wd == 0 {
		return float64(bits & 1)
	}
	return float64(sym.SignExtend(bits, wd))
}

// fromNum turns a number back into the bits of variable y, rounding
// integers and refusing values out of range.
func (w *search) fromNum(y uint64, f float64) (uint64, bool) {
	wd := w.widths[y]
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	if w.floats[y] {
		return sym.FloatBits(f, wd), true
	}
	if wd == 0 {
		return 0, false
	}
	f = math.Round(f)
	if f < -math.Ldexp(1, int(wd)-1) || f >= math.Ldexp(1, int(wd)) {
		return 0, false
	}
	if f < 0 {
		return uint64(int64(f)) & sym.Mask(wd), true
	}
	return uint64(f) & sym.Mask(wd), true
}
