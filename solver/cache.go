package solver

import (
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// Bounds of the cache layer. They keep memory flat over a long run and the
// work of a miss proportional to the query, not to the history.
const (
	maxCacheEntries = 1 << 14 // exact answers kept
	maxRecentModels = 64      // Sat models tried on new queries
	maxRecentUnsat  = 128     // Unsat queries tried as subsets of new ones
)

// cache remembers answers of the next layer.
type cache struct {
	next  Solver
	stats Stats

	exact  map[string]*cacheEntry
	keys   []string // ring of the keys of exact, for eviction in FIFO order
	oldest int      // position in keys of the oldest key once keys is full

	models []sym.Env     // recent Sat models, most recently useful last
	unsat  []*cacheEntry // recent Unsat queries, newest last
}

// cacheEntry is one answered query. Constraints are sorted by ID without
// duplicates; assertions are the constraints and the goal, likewise.
type cacheEntry struct {
	constraints []*sym.Expr
	goal        *sym.Expr
	assertions  []*sym.Expr
	result      Result
}

// NewCache returns a layer that remembers the answers of next:
//
//   - a query whose constraint set and goal were seen before gets the same
//     answer (Unknown answers are not kept: they may be timeouts or
//     cancellations);
//   - a query satisfied by one of the last Sat models gets that model,
//     restricted to the query's variables (counterexample reuse);
//   - a query whose assertions include all those of a recent Unsat query is
//     Unsat.
//
// Keys are node IDs, so all queries must come from one sym.Builder; a hit
// is confirmed by comparing the nodes themselves, which makes a mix-up of
// Builders a miss rather than a wrong answer.
func NewCache(next Solver) Wrapper {
	return &cache{next: next, exact: make(map[string]*cacheEntry)}
}

// Name implements Layer.
func (c *cache) Name() string { return "cache" }

// Stats implements Layer.
func (c *cache) Stats() Stats { return c.stats }

// Next implements Wrapper.
func (c *cache) Next() Solver { return c.next }

// Solve implements Solver.
func (c *cache) Solve(ctx context.Context, q Query) (r Result, err error) {
	start := time.Now()
	defer func() { c.stats.Record(r, err, time.Since(start)) }()
	if err := checkQuery(q); err != nil {
		return Result{}, err
	}
	e := newCacheEntry(q)
	key := e.key()
	if hit, ok := c.exact[key]; ok && hit.same(e) {
		c.stats.Local++
		return hit.result.clone(), nil
	}
	for _, u := range slices.Backward(c.unsat) {
		if isSubset(u.assertions, e.assertions) {
			c.stats.Local++
			return Result{Status: Unsat}, nil
		}
	}
	if len(c.models) > 0 {
		if err := checkEvaluable(q); err != nil {
			return Result{}, err
		}
		if m, ok := c.reuse(q); ok {
			c.stats.Local++
			return Result{Status: Sat, Model: m}, nil
		}
	}

	r, err = c.next.Solve(ctx, q)
	if err != nil || r.Status == Unknown {
		return r, err
	}
	e.result = r.clone()
	c.store(key, e)
	switch r.Status {
	case Sat:
		c.addModel(e.result.Model)
	case Unsat:
		if len(c.unsat) == maxRecentUnsat {
			c.unsat = slices.Delete(c.unsat, 0, 1)
		}
		c.unsat = append(c.unsat, e)
	}
	return r, nil
}

// reuse looks for a recent model that satisfies q and returns it restricted
// to q's variables. The model it used moves to the end of the list, so that
// models that keep being useful stay.
func (c *cache) reuse(q Query) (sym.Env, bool) {
	for i, m := range slices.Backward(c.models) {
		if !satisfies(q, m) {
			continue
		}
		c.models = append(slices.Delete(c.models, i, i+1), m)
		// Sym evaluates a missing variable as 0; say so explicitly, or the
		// caller would keep the variable's old value instead.
		vars := sym.Vars(nil, append(q.Constraints[:len(q.Constraints):len(q.Constraints)], q.Goal)...)
		out := make(sym.Env, len(vars))
		for _, v := range vars {
			out[v.Val] = m[v.Val]
		}
		return out, true
	}
	return nil, false
}

func (c *cache) addModel(m sym.Env) {
	if len(c.models) == maxRecentModels {
		c.models = slices.Delete(c.models, 0, 1)
	}
	c.models = append(c.models, m)
}

func (c *cache) store(key string, e *cacheEntry) {
	if _, ok := c.exact[key]; !ok {
		if len(c.keys) < maxCacheEntries {
			c.keys = append(c.keys, key)
		} else {
			delete(c.exact, c.keys[c.oldest])
			c.keys[c.oldest] = key
			c.oldest = (c.oldest + 1) % maxCacheEntries
		}
	}
	c.exact[key] = e
}

// satisfies reports whether the goal and all constraints of q hold under m.
// The goal goes first: it is the term most likely to fail. A query with
// opaque calls cannot be evaluated here and is never satisfied.
func satisfies(q Query, m sym.Env) bool {
	ev := sym.Evaluator{Env: m}
	holds := func(e *sym.Expr) bool {
		v, err := ev.Value(e)
		return err == nil && v != 0
	}
	if !holds(q.Goal) {
		return false
	}
	for _, c := range slices.Backward(q.Constraints) {
		if !holds(c) {
			return false
		}
	}
	return true
}

// checkEvaluable reports terms sym.Eval cannot evaluate (it panics on
// them): aggregates outside the arguments of opaque calls.
func checkEvaluable(q Query) error {
	seen := make(map[*sym.Expr]bool)
	var walk func(e *sym.Expr) error
	walk = func(e *sym.Expr) error {
		if seen[e] {
			return nil
		}
		seen[e] = true
		if e.Kind == sym.KString {
			return errors.New("solver: query contains a string aggregate")
		}
		if e.Kind == sym.KCall {
			return nil // satisfies does not evaluate it
		}
		for _, a := range e.Args {
			if err := walk(a); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(q.Goal); err != nil {
		return err
	}
	for _, t := range q.Constraints {
		if err := walk(t); err != nil {
			return err
		}
	}
	return nil
}

func newCacheEntry(q Query) *cacheEntry {
	cs := sortedSet(slices.Clone(q.Constraints))
	as := sortedSet(append(slices.Clone(cs), q.Goal))
	return &cacheEntry{constraints: cs, goal: q.Goal, assertions: as}
}

// sortedSet sorts es by ID and drops repeated nodes.
func sortedSet(es []*sym.Expr) []*sym.Expr {
	slices.SortFunc(es, func(a, b *sym.Expr) int {
		switch {
		case a.ID() < b.ID():
			return -1
		case a.ID() > b.ID():
			return 1
		}
		return 0
	})
	return slices.Compact(es)
}

// key encodes the constraint IDs and the goal ID.
func (e *cacheEntry) key() string {
	buf := make([]byte, 0, 4*(len(e.constraints)+1))
	for _, c := range e.constraints {
		buf = binary.LittleEndian.AppendUint32(buf, c.ID())
	}
	buf = binary.LittleEndian.AppendUint32(buf, e.goal.ID())
	return string(buf)
}

// same reports whether e and f are the same query, node for node.
func (e *cacheEntry) same(f *cacheEntry) bool {
	return e.goal == f.goal && slices.Equal(e.constraints, f.constraints)
}

// isSubset reports whether every node of sub is in set; both are sorted by
// ID. Equal IDs with different nodes (another Builder) do not match.
func isSubset(sub, set []*sym.Expr) bool {
	if len(sub) > len(set) {
		return false
	}
	j := 0
	for _, s := range sub {
		for j < len(set) && set[j].ID() < s.ID() {
			j++
		}
		if j == len(set) || set[j] != s {
			return false
		}
		j++
	}
	return true
}
