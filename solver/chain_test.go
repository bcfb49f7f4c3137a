package solver_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// fakeCore records the queries that reach it and answers with answer.
type fakeCore struct {
	got    []solver.Query
	answer func(solver.Query) (solver.Result, error)
}

func (f *fakeCore) Solve(_ context.Context, q solver.Query) (solver.Result, error) {
	f.got = append(f.got, q)
	return f.answer(q)
}

// answering returns a fake core that always gives r.
func answering(r solver.Result) *fakeCore {
	return &fakeCore{answer: func(solver.Query) (solver.Result, error) {
		r.Model = clone(r.Model)
		return r, nil
	}}
}

func clone(m sym.Env) sym.Env {
	if m == nil {
		return nil
	}
	c := make(sym.Env, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func ask(t *testing.T, s solver.Solver, cs []*sym.Expr, goal *sym.Expr) solver.Result {
	t.Helper()
	r, err := s.Solve(context.Background(), solver.Query{Constraints: cs, Goal: goal})
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	return r
}

// terms is a small vocabulary over four 8-bit variables.
type terms struct {
	b          *sym.Builder
	x, y, z, w *sym.Expr
}

func newTerms() terms {
	b := sym.NewBuilder()
	return terms{b: b, x: b.Var(0, 8), y: b.Var(1, 8), z: b.Var(2, 8), w: b.Var(3, 8)}
}

func (tm terms) k(v uint64) *sym.Expr        { return tm.b.Const(v, 8) }
func (tm terms) lt(a, c *sym.Expr) *sym.Expr { return tm.b.Cmp(sym.KULt, a, c) }
func (tm terms) eq(a, c *sym.Expr) *sym.Expr { return tm.b.Eq(a, c) }

func TestFastUnsat(t *testing.T) {
	tm := newTerms()
	b := tm.b
	c1 := tm.lt(tm.x, tm.k(10))
	c2 := tm.eq(tm.y, tm.k(3))
	tests := []struct {
		name string
		cs   []*sym.Expr
		goal *sym.Expr
		want solver.Status // Unknown: passed to the core
	}{
		{"goal false", []*sym.Expr{c1}, b.Bool(false), solver.Unsat},
		{"constraint false", []*sym.Expr{c1, b.Bool(false)}, c2, solver.Unsat},
		{"goal negates a constraint", []*sym.Expr{c1, c2}, b.Not(c1), solver.Unsat},
		{"constraint negates the goal", []*sym.Expr{b.Not(c2), c1}, c2, solver.Unsat},
		{"no constraints", nil, c1, solver.Unknown},
		{"consistent", []*sym.Expr{c1}, c2, solver.Unknown},
		{"unrelated negation", []*sym.Expr{b.Not(c1)}, c2, solver.Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			core := answering(solver.Result{Status: solver.Unknown})
			s := solver.NewFastUnsat(core)
			r := ask(t, s, tt.cs, tt.goal)
			if r.Status != tt.want {
				t.Errorf("status %v, want %v", r.Status, tt.want)
			}
			wantCalls := 0
			if tt.want == solver.Unknown {
				wantCalls = 1
			}
			if len(core.got) != wantCalls {
				t.Errorf("core called %d times, want %d", len(core.got), wantCalls)
			}
			if st := s.Stats(); st.Queries != 1 || st.Local != 1-wantCalls {
				t.Errorf("stats %+v, want 1 query, %d local", st, 1-wantCalls)
			}
		})
	}
}

// TestIndependence checks the independence layer and Slice, which share
// its slicing.
func TestIndependence(t *testing.T) {
	tm := newTerms()
	b := tm.b
	cx := tm.lt(tm.x, tm.k(10))
	cy := tm.lt(tm.y, tm.k(20))
	cxy := tm.lt(tm.x, tm.y)
	cyz := tm.eq(b.Add(tm.y, tm.z), tm.k(7))
	cw := tm.eq(tm.w, tm.k(1))
	tests := []struct {
		name string
		cs   []*sym.Expr
		goal *sym.Expr
		want []*sym.Expr
	}{
		{"unrelated dropped", []*sym.Expr{cx, cy, cw}, tm.eq(tm.x, tm.k(1)), []*sym.Expr{cx}},
		{"transitive kept in order", []*sym.Expr{cw, cyz, cx, cxy}, tm.eq(tm.z, tm.k(1)), []*sym.Expr{cyz, cx, cxy}},
		{"goal joins classes", []*sym.Expr{cx, cw, cy}, tm.lt(tm.x, tm.w), []*sym.Expr{cx, cw}},
		{"all related", []*sym.Expr{cx, cxy}, cy, []*sym.Expr{cx, cxy}},
		{"constant false kept, true dropped", []*sym.Expr{b.Bool(true), cw, b.Bool(false)}, cx, []*sym.Expr{b.Bool(false)}},
		{"goal without variables", []*sym.Expr{cx, cy}, b.Bool(true), nil},
		{"no constraints", nil, cx, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			core := answering(solver.Result{Status: solver.Unsat})
			s := solver.NewIndependence(core)
			ask(t, s, tt.cs, tt.goal)
			if len(core.got) != 1 {
				t.Fatalf("core called %d times, want 1", len(core.got))
			}
			got := core.got[0]
			if got.Goal != tt.goal {
				t.Errorf("goal %v, want %v", got.Goal, tt.goal)
			}
			if !slices.Equal(got.Constraints, tt.want) {
				t.Errorf("constraints %v, want %v", got.Constraints, tt.want)
			}
			// Slice, for callers outside the chain, slices the same.
			if sl := solver.Slice(solver.Query{Constraints: tt.cs, Goal: tt.goal}); !slices.Equal(sl.Constraints, tt.want) || sl.Goal != tt.goal {
				t.Errorf("Slice: constraints %v, want %v", sl.Constraints, tt.want)
			}
		})
	}
}

func TestCacheExactHit(t *testing.T) {
	tm := newTerms()
	c1, c2 := tm.lt(tm.x, tm.k(10)), tm.lt(tm.y, tm.x)
	goal := tm.eq(tm.y, tm.k(4))
	core := answering(solver.Result{Status: solver.Sat, Model: sym.Env{0: 9, 1: 4}})
	s := solver.NewCache(core)

	r1 := ask(t, s, []*sym.Expr{c1, c2}, goal)
	r1.Model[0] = 100 // the caller owns its model
	// The same set of constraints in another order, with a repeat.
	r2 := ask(t, s, []*sym.Expr{c2, c1, c2}, goal)
	if len(core.got) != 1 {
		t.Fatalf("core called %d times, want 1", len(core.got))
	}
	if r2.Status != solver.Sat || r2.Model[0] != 9 || r2.Model[1] != 4 {
		t.Errorf("cached answer %v %v, want sat {0:9 1:4}", r2.Status, r2.Model)
	}
	if st := s.Stats(); st.Queries != 2 || st.Local != 1 || st.Sat != 2 {
		t.Errorf("stats %+v, want 2 sat queries, 1 local", st)
	}
}

func TestCacheKeepsNoUnknownOrError(t *testing.T) {
	tm := newTerms()
	goal := tm.eq(tm.x, tm.k(1))
	fail := errors.New("core failure")
	for _, tt := range []struct {
		name string
		r    solver.Result
		err  error
	}{
		{"unknown", solver.Result{Status: solver.Unknown}, nil},
		{"error", solver.Result{}, fail},
	} {
		t.Run(tt.name, func(t *testing.T) {
			core := &fakeCore{answer: func(solver.Query) (solver.Result, error) { return tt.r, tt.err }}
			s := solver.NewCache(core)
			for range 2 {
				r, err := s.Solve(context.Background(), solver.Query{Goal: goal})
				if r.Status != tt.r.Status || !errors.Is(err, tt.err) {
					t.Errorf("got %v, %v; want %v, %v", r.Status, err, tt.r.Status, tt.err)
				}
			}
			if len(core.got) != 2 {
				t.Errorf("core called %d times, want 2", len(core.got))
			}
		})
	}
}

func TestCacheCounterexampleReuse(t *testing.T) {
	tm := newTerms()
	core := answering(solver.Result{Status: solver.Sat, Model: sym.Env{0: 5, 1: 7}})
	s := solver.NewCache(core)
	ask(t, s, []*sym.Expr{tm.lt(tm.x, tm.y)}, tm.eq(tm.x, tm.k(5)))

	tests := []struct {
		name string
		cs   []*sym.Expr
		goal *sym.Expr
		want sym.Env // nil: must reach the core
	}{
		{"satisfied, fewer variables", []*sym.Expr{tm.lt(tm.x, tm.k(6))}, tm.lt(tm.k(4), tm.x), sym.Env{0: 5}},
		{"satisfied with a new variable at 0", []*sym.Expr{tm.lt(tm.z, tm.y)}, tm.eq(tm.y, tm.k(7)), sym.Env{1: 7, 2: 0}},
		{"not satisfied", []*sym.Expr{tm.lt(tm.x, tm.y)}, tm.eq(tm.y, tm.k(8)), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(core.got)
			r := ask(t, s, tt.cs, tt.goal)
			reached := len(core.got) > before
			if reached != (tt.want == nil) {
				t.Fatalf("core reached: %v, want %v", reached, tt.want == nil)
			}
			if tt.want != nil && (r.Status != solver.Sat || fmt.Sprint(r.Model) != fmt.Sprint(tt.want)) {
				t.Errorf("got %v %v, want sat %v", r.Status, r.Model, tt.want)
			}
		})
	}
}

func TestCacheUnsatSubset(t *testing.T) {
	tm := newTerms()
	c1 := tm.lt(tm.x, tm.k(3))
	c2 := tm.lt(tm.y, tm.k(9))
	goal := tm.eq(tm.x, tm.k(7))
	core := answering(solver.Result{Status: solver.Unsat})
	s := solver.NewCache(core)
	ask(t, s, []*sym.Expr{c1}, goal)

	tests := []struct {
		name      string
		cs        []*sym.Expr
		goal      *sym.Expr
		wantLocal bool
	}{
		{"superset of constraints, same goal", []*sym.Expr{c2, c1}, goal, true},
		{"same assertions, goal swapped", []*sym.Expr{goal, c2}, c1, true},
		{"missing a constraint", []*sym.Expr{c2}, goal, false},
		{"other goal", []*sym.Expr{c1, c2}, tm.eq(tm.x, tm.k(8)), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(core.got)
			r := ask(t, s, tt.cs, tt.goal)
			if local := len(core.got) == before; local != tt.wantLocal {
				t.Errorf("answered locally: %v, want %v", local, tt.wantLocal)
			}
			if r.Status != solver.Unsat {
				t.Errorf("status %v, want unsat", r.Status)
			}
		})
	}
}

func TestMalformedQueries(t *testing.T) {
	tm := newTerms()
	str := tm.b.String(tm.b.Const(1, 64), []*sym.Expr{tm.x})
	bad := []solver.Query{
		{},
		{Goal: tm.x},
		{Constraints: []*sym.Expr{nil}, Goal: tm.eq(tm.x, tm.k(1))},
	}
	layers := map[string]func(solver.Solver) solver.Wrapper{
		"fastunsat":    solver.NewFastUnsat,
		"independence": solver.NewIndependence,
		"cache":        solver.NewCache,
	}
	for name, mk := range layers {
		t.Run(name, func(t *testing.T) {
			core := answering(solver.Result{Status: solver.Unsat})
			s := mk(core)
			for _, q := range bad {
				if _, err := s.Solve(context.Background(), q); err == nil {
					t.Errorf("%+v: no error", q)
				}
			}
			if len(core.got) != 0 {
				t.Errorf("core reached by malformed queries")
			}
		})
	}
	// Counterexample reuse evaluates terms: a string aggregate must be an
	// error, not a panic in sym.Eval.
	core := answering(solver.Result{Status: solver.Sat, Model: sym.Env{0: 1}})
	s := solver.NewCache(core)
	ask(t, s, nil, tm.eq(tm.x, tm.k(1)))
	// Made by hand: the Builder refuses to compare a string.
	q := solver.Query{Goal: &sym.Expr{Kind: sym.KEq, Args: []*sym.Expr{str, tm.b.Const(1, 64)}}}
	if _, err := s.Solve(context.Background(), q); err == nil {
		t.Errorf("string aggregate: no error")
	}
}

func TestChainConfig(t *testing.T) {
	core := answering(solver.Result{Status: solver.Unsat})
	tests := []struct {
		cfg  solver.Config
		want []string
	}{
		{solver.DefaultConfig(), []string{"fastunsat", "independence", "cache", "domain", "seedfix"}},
		{solver.Config{Cache: true, FastUnsat: true}, []string{"fastunsat", "cache"}},
		{solver.Config{}, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.want), func(t *testing.T) {
			s := solver.Chain(core, tt.cfg)
			var names []string
			for _, l := range solver.Layers(s) {
				names = append(names, l.Name())
			}
			if !slices.Equal(names, tt.want) {
				t.Errorf("layers %v, want %v", names, tt.want)
			}
			if len(tt.want) == 0 && s != solver.Solver(core) {
				t.Errorf("empty config did not return the core")
			}
		})
	}
}

// bruteForce decides queries over 8-bit variables whose values are limited
// to [0, domain) by trying every assignment.
type bruteForce struct {
	domain uint64
	calls  int
}

func (bf *bruteForce) Solve(_ context.Context, q solver.Query) (solver.Result, error) {
	bf.calls++
	all := append(slices.Clone(q.Constraints), q.Goal)
	vars := sym.Vars(nil, all...)
	env := make(sym.Env)
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(vars) {
			for _, c := range all {
				if !sym.Holds(c, env) {
					return false
				}
			}
			return true
		}
		for v := range bf.domain {
			env[vars[i].Val] = v
			if try(i + 1) {
				return true
			}
		}
		return false
	}
	if try(0) {
		return solver.Result{Status: solver.Sat, Model: env}, nil
	}
	return solver.Result{Status: solver.Unsat}, nil
}

// TestChainSoundness runs a concolic-style sequence of queries through the
// full chain and checks every answer against brute force: the statuses
// agree, and a model, laid over the inputs of the execution the path came
// from, satisfies the whole query.
func TestChainSoundness(t *testing.T) {
	const domain = 5
	tm := newTerms()
	b := tm.b
	r := rand.New(rand.NewSource(1))
	vars := []*sym.Expr{tm.x, tm.y, tm.z, tm.w}
	atom := func() *sym.Expr {
		a := vars[r.Intn(len(vars))]
		var c *sym.Expr
		switch r.Intn(3) {
		case 0:
			c = tm.k(uint64(r.Intn(domain + 1)))
		case 1:
			c = vars[r.Intn(len(vars))]
		default:
			c = b.Add(vars[r.Intn(len(vars))], tm.k(uint64(r.Intn(3))))
		}
		if r.Intn(2) == 0 {
			return tm.lt(a, c)
		}
		return tm.eq(a, c)
	}

	core := &bruteForce{domain: domain}
	chain := solver.Chain(core, solver.DefaultConfig())
	oracle := &bruteForce{domain: domain}
	var path []*sym.Expr
	var env sym.Env
	type past struct {
		q   solver.Query
		env sym.Env // inputs of the execution q came from
	}
	var history []past
	var limits []*sym.Expr
	for _, v := range vars {
		limits = append(limits, tm.lt(v, tm.k(domain)))
	}
	const n = 400
	for i := range n {
		if i%25 == 0 { // a new execution
			env = sym.Env{0: r.Uint64() % domain, 1: r.Uint64() % domain, 2: r.Uint64() % domain, 3: r.Uint64() % domain}
			path = nil
		}
		var q solver.Query
		base := env
		if len(history) > 0 && r.Intn(5) == 0 {
			h := history[r.Intn(len(history))] // a repeat, maybe from another execution
			q, base = h.q, h.env
		} else {
			c := atom()
			if !sym.Holds(c, env) {
				c = b.Not(c)
			}
			q = solver.Query{Constraints: slices.Clone(path), Goal: b.Not(c)}
			path = append(path, c)
			history = append(history, past{q, env})
		}

		// The inputs' domain, as the coordinator states it, and the inputs
		// the path came from, for the layers that start there.
		q.Constraints = append(slices.Clone(limits), q.Constraints...)
		q.Seed = base
		got, err := chain.Solve(context.Background(), q)
		if err != nil {
			t.Fatalf("query %d: %v", i, err)
		}
		want, _ := oracle.Solve(context.Background(), q)
		if got.Status != want.Status {
			t.Fatalf("query %d: chain %v, brute force %v: %v && %v", i, got.Status, want.Status, q.Constraints, q.Goal)
		}
		if got.Status == solver.Sat {
			merged := clone(base)
			for k, v := range got.Model {
				merged[k] = v
			}
			for _, c := range append(slices.Clone(q.Constraints), q.Goal) {
				if !sym.Holds(c, merged) {
					t.Fatalf("query %d: model %v over %v violates %v", i, got.Model, base, c)
				}
			}
		}
	}
	local := 0
	for _, l := range solver.Layers(chain) {
		local += l.Stats().Local
		if n := l.Name(); (n == "domain" || n == "seedfix") && l.Stats().Local == 0 {
			t.Errorf("layer %s answered nothing itself", n)
		}
	}
	if local == 0 || core.calls == n {
		t.Errorf("the layers answered nothing themselves (core calls %d of %d)", core.calls, n)
	}
}
