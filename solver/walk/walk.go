// Package walk is the concolic walk (seed 000, Dinges & Agha): a solver
// layer for path conditions a decision procedure cannot take — non-linear
// arithmetic, floating point that makes Z3 time out, and opaque calls of
// functions no solver interprets (sym.KCall).
//
// A query's constraints are split into the linear part L, which the
// linear solver (Z3) decides, and the rest N. A model of L, laid over the
// input of the execution the query came from, is the starting point; from
// there an adaptive tabu search moves inside the polytope of L (every
// point it accepts satisfies L) and minimises the summed error scores of N
// (Korel's branch distances), evaluating the terms — opaque calls by
// calling the real functions through an Evaluator. Each step changes the
// variable that occurs in the most violated constraints, choosing the best
// of r random steps along that axis and r bisection steps (the zero of the
// secant through the current point and the random one); a variable whose
// step did not help is tabu for t iterations, and when every variable is
// tabu the walk jumps. It is sound (a Sat answer satisfies every
// constraint, checked by evaluation) but not complete: when the iteration
// budget runs out the answer is Unknown.
//
// "Linear" here means what Z3 decides fast on bit-vectors: everything but
// opaque calls, products of two non-constant terms, quotients and
// remainders by a non-constant term, and shifts by a non-constant amount,
// for integers and floats alike.
package walk

import (
	"context"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// Evaluator evaluates terms at points. Terms with opaque calls need one
// that can call the functions (the evaluator process of package coordinator);
// out[i] holds the value of every term at points[i], or is nil when an
// opaque call has no value there.
type Evaluator interface {
	Eval(ctx context.Context, terms []*sym.Expr, points []sym.Env) ([][]uint64, error)
}

// Params are the knobs of the search (the seed's Table 3). The zero value
// of a field means its default.
type Params struct {
	// Steps is the iteration budget per non-linear constraint (i).
	Steps int
	// Neighbors is the number of random and of bisection neighbours
	// examined per iteration (r).
	Neighbors int
	// Tabu is the number of iterations a variable stays tabu (t); 0 means
	// the default min(|vars(N)|, 3).
	Tabu int
	// NoTabu switches the tabu mechanism off.
	NoTabu bool
	// NoBisect switches the bisection step off.
	NoBisect bool
	// Samples bounds the rejection sampling of one random step (m).
	Samples int
	// Timeout bounds one query; 0 means no bound but the context's.
	Timeout time.Duration
	// Seed seeds the random number generator.
	Seed uint64
}

// The defaults. The seed's own numbers are not legible in our copy of it;
// these were chosen here (see BENCHMARKS.md for their ablations).
const (
	DefaultSteps     = 250
	DefaultNeighbors = 5
	DefaultTabuCap   = 3
	DefaultSamples   = 20
)

func (p Params) withDefaults() Params {
	if p.Steps <= 0 {
		p.Steps = DefaultSteps
	}
	if p.Neighbors <= 0 {
		p.Neighbors = DefaultNeighbors
	}
	if p.Samples <= 0 {
		p.Samples = DefaultSamples
	}
	return p
}

// Solver is the concolic walk layer. It is not safe for concurrent use.
type Solver struct {
	linear solver.Solver
	eval   Evaluator
	floats map[uint64]uint8
	p      Params
	rng    *rand.Rand
	stats  solver.Stats
	lin    linearity // Linear of the nodes seen, across queries
}

// New returns a concolic walk that solves linear parts with linear and
// evaluates opaque calls with eval (which may be nil when no query has
// any). floats gives the width of the input variables that hold floats;
// variables under float operations are recognised as floats anyway.
func New(linear solver.Solver, eval Evaluator, floats map[uint64]uint8, p Params) *Solver {
	p = p.withDefaults()
	return &Solver{linear: linear, eval: eval, floats: floats, p: p,
		rng: rand.New(rand.NewPCG(p.Seed, 0x9e3779b97f4a7c15)), lin: linearity{}}
}

// Name implements solver.Layer.
func (s *Solver) Name() string { return "walk" }

// Stats implements solver.Layer.
func (s *Solver) Stats() solver.Stats { return s.stats }

// Children returns the linear solver, for reports.
func (s *Solver) Children() []solver.Solver { return []solver.Solver{s.linear} }

// Solve implements solver.Solver.
func (s *Solver) Solve(ctx context.Context, q solver.Query) (r solver.Result, err error) {
	start := time.Now()
	defer func() { s.stats.Record(r, err, time.Since(start)) }()
	if s.p.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.p.Timeout)
		defer cancel()
	}
	all := append(slices.Clip(q.Constraints), q.Goal)
	var lin, non []*sym.Expr
	for _, c := range all {
		if s.Linear(c) {
			lin = append(lin, c)
		} else {
			non = append(non, c)
		}
	}
	if len(non) == 0 {
		// Nothing to search: the linear solver decides the query alone.
		return s.linear.Solve(ctx, q)
	}
	s.stats.Local++
	start0 := maps.Clone(q.Seed)
	if start0 == nil {
		start0 = sym.Env{}
	}
	if len(lin) > 0 {
		lr, err := s.linear.Solve(ctx, solver.Query{Constraints: lin[:len(lin)-1], Goal: lin[len(lin)-1], Seed: q.Seed})
		if err != nil {
			return solver.Result{}, err
		}
		switch lr.Status {
		case solver.Unsat:
			return solver.Result{Status: solver.Unsat}, nil
		case solver.Unknown:
			return solver.Result{}, nil
		}
		for v, x := range lr.Model {
			start0[v] = x
		}
	}
	w := newSearch(s, lin, non)
	env, ok, err := w.run(ctx, start0)
	if err != nil && ctx.Err() != nil {
		// Out of time (the query's or the run's): undecided, as Z3 says.
		return solver.Result{}, nil
	}
	if err != nil || !ok {
		return solver.Result{}, err
	}
	model := make(sym.Env, len(w.vars))
	for _, v := range sym.Vars(nil, all...) {
		model[v.Val] = env[v.Val]
	}
	return solver.Result{Status: solver.Sat, Model: model}, nil
}

// Linear reports whether c belongs to the polytope part of a query: it has
// no opaque call and no non-linear operation (see the package comment).
func Linear(c *sym.Expr) bool { return linearity{}.of(c) }

// maxLinMemo bounds the nodes whose linearity a Solver remembers; past it
// the memory is dropped, as the independence layer drops its own.
const maxLinMemo = 1 << 17

// Linear is the package's Linear, remembered per node across the Solver's
// queries: path prefixes repeat from query to query and share their
// subterms, and walking each term's whole DAG afresh took a quarter of a
// second per query on paths of a few hundred constraints. The auto layer
// in front of the walk classifies with it too.
func (s *Solver) Linear(c *sym.Expr) bool {
	if len(s.lin) > maxLinMemo {
		clear(s.lin)
	}
	return s.lin.of(c)
}

// linearity maps the nodes seen to whether they are linear.
type linearity map[*sym.Expr]bool

// of returns Linear(e), remembering it for e and the nodes under it.
func (m linearity) of(e *sym.Expr) bool {
	if lin, ok := m[e]; ok {
		return lin
	}
	lin := true
	switch e.Kind {
	case sym.KCall:
		lin = false
	case sym.KMul, sym.KFMul:
		lin = isConst(e.Args[0]) || isConst(e.Args[1])
	case sym.KUDiv, sym.KSDiv, sym.KURem, sym.KSRem, sym.KFDiv, sym.KShl, sym.KLShr, sym.KAShr:
		lin = isConst(e.Args[1])
	}
	for _, a := range e.Args {
		if !lin {
			break
		}
		lin = m.of(a)
	}
	m[e] = lin
	return lin
}

func isConst(e *sym.Expr) bool { return e.Kind == sym.KConst }

// floatWidths returns the input variables that terms read as floats.
func floatWidths(terms []*sym.Expr) map[uint64]uint8 {
	out := make(map[uint64]uint8)
	seen := make(map[*sym.Expr]bool)
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if seen[e] {
			return
		}
		seen[e] = true
		if e.Kind.ReadsFloat() {
			for _, a := range e.Args {
				if a.Kind == sym.KVar {
					out[a.Val] = a.Width
				}
			}
		}
		for _, a := range e.Args {
			walk(a)
		}
	}
	for _, t := range terms {
		walk(t)
	}
	return out
}

// holdsAll reports whether every constraint of cs is true at env; cs must
// be free of opaque calls.
func holdsAll(cs []*sym.Expr, env sym.Env) bool {
	ev := sym.Evaluator{Env: env}
	for _, c := range cs {
		if v, err := ev.Value(c); err != nil || v == 0 {
			return false
		}
	}
	return true
}

// ulps moves the float bits x of width w by k units in the last place
// away from zero (k < 0: toward zero), staying finite.
func ulps(x uint64, w uint8, k int64) uint64 {
	sign := uint64(1) << (w - 1)
	mag := x &^ sign
	if k < 0 && uint64(-k) > mag {
		return x & sign // stop at zero, on x's side
	}
	y := x&sign | (mag+uint64(k))&^sign
	if f := sym.FloatValue(y, w); math.IsNaN(f) || math.IsInf(f, 0) {
		return x
	}
	return y
}
