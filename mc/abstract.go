package mc

// This file is the predicate abstraction of Algorithm 2 (seed 002 §4):
// predicates over the SSA values of one function, abstract states that
// give each predicate true, false or unknown, and the cartesian abstract
// post of a CFA edge, decided one predicate at a time by Z3.
//
// State variables. A predicate speaks of the values live at a block's
// entry: a parameter is its own variable (Encoder.Param), the length of a
// slice or string parameter its own (Encoder.ParamLen), a field of a
// pointer parameter's struct (or the length of a slice field) a field
// variable (paramField, FieldBase+k), any other SSA value v is the
// variable StateBase+n(v). A field variable is the field's memory at the
// block's entry: an edge's path starts with it in the field's cell, and
// after the edge the field is what the cell then holds, or havoc when
// the edge may have written it otherwise (memory.go). The formula of an
// edge B→C is the encoder's path from B to C whose values not defined on
// it are the state variables (Path.pre), so a predicate at B is asserted
// as it is and a predicate at C is asserted after replacing each state
// variable by the term the edge gives its value. A predicate is tracked at a block only
// where each of its values is available (defined in a block that strictly
// dominates it, a phi of it, or a parameter); elsewhere it is unknown.
// Any choice of predicates is sound; they only decide how precise the
// abstraction is.

import (
	"context"
	"fmt"
	mbits "math/bits"
	"slices"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// StateBase is the number of the first state variable: above every
// input variable and every havoc variable the encoder makes.
const StateBase = 1 << 48

// bitset is a set of predicate indices.
type bitset []uint64

func (s bitset) has(i int) bool { return i/64 < len(s) && s[i/64]&(1<<(i%64)) != 0 }

func (s *bitset) set(i int) {
	for len(*s) <= i/64 {
		*s = append(*s, 0)
	}
	(*s)[i/64] |= 1 << (i % 64)
}

// subset reports whether every element of s is in t.
func (s bitset) subset(t bitset) bool {
	for i, w := range s {
		var u uint64
		if i < len(t) {
			u = t[i]
		}
		if w&^u != 0 {
			return false
		}
	}
	return true
}

func (s bitset) count() int {
	n := 0
	for _, w := range s {
		n += mbits.OnesCount64(w)
	}
	return n
}

// State is an abstract state's valuation of the predicates: those known
// true and those known false; the others are unknown.
type State struct {
	True, False bitset
}

// covers reports whether s is at least as general as t: every literal of
// s is a literal of t (seed 002's prose; its Algorithm 2 writes the
// inclusion the other way round).
func (s State) covers(t State) bool { return s.True.subset(t.True) && s.False.subset(t.False) }

// clone returns a copy of s that set may change.
func (s State) clone() State {
	return State{True: slices.Clone(s.True), False: slices.Clone(s.False)}
}

func (s State) literals() int { return s.True.count() + s.False.count() }

// A Pred is a predicate: a boolean term over state variables.
type Pred struct {
	Expr *sym.Expr
	vals []ssa.Value // the SSA values it speaks of
}

// abstraction holds the predicates of one function and the formulas of
// its edges.
type abstraction struct {
	enc    *Encoder
	slv    solver.Solver
	ctx    context.Context
	preds  []Pred
	byExpr map[*sym.Expr]int
	num    map[ssa.Value]uint64 // state variable numbers, StateBase+
	vals   []ssa.Value          // by number - StateBase
	params map[*sym.Expr]ssa.Value
	// fields are the encoder's field variables (paramField), by term:
	// the index of each.
	fields map[*sym.Expr]int
	edges  map[edgeKey]*edgeForm
	webs   map[*ssa.Phi][]*ssa.Phi // phis linked by phi operands (web)
	// cache holds the answers of abstract posts: predicates only grow
	// and keep their indices, so an answer for a state's literals stays
	// right in later rounds (which start again after each refinement).
	cache map[postKey]int8
	// queries counts the solver calls of abstract posts.
	queries int
	// bodies are the copies of inlined callees' goals by block, and
	// hitCache the answers of hit (callees.go).
	bodies   map[*ssa.BasicBlock][]copyForm
	hitCache map[hitKey]bool
}

// An edgeKey is a CFA edge: a block and the index of its successor.
type edgeKey struct {
	b    *ssa.BasicBlock
	succ int
}

func (k edgeKey) to() *ssa.BasicBlock { return k.b.Succs[k.succ] }

// postKey is one question of an abstract post: along edge k, from the
// state whose literals key encodes, what is predicate i after it (-1:
// can the edge be taken at all).
type postKey struct {
	k   edgeKey
	key string
	i   int
}

// key encodes s's literals.
func (s State) key() string {
	b := make([]byte, 0, 16*(len(s.True)+len(s.False))+1)
	for _, w := range s.True {
		b = fmt.Appendf(b, "%x,", w)
	}
	b = append(b, '|')
	for _, w := range s.False {
		b = fmt.Appendf(b, "%x,", w)
	}
	return string(b)
}

// The cached answers.
const (
	cUnknown int8 = iota
	cTrue
	cFalse
)

// edgeForm is the formula of an edge over state variables.
type edgeForm struct {
	path  *Path
	conds []*sym.Expr
	post  map[int]*sym.Expr // predicate index → the predicate after the edge
}

func newAbstraction(ctx context.Context, enc *Encoder, slv solver.Solver) *abstraction {
	a := &abstraction{enc: enc, slv: slv, ctx: ctx, byExpr: map[*sym.Expr]int{}, num: map[ssa.Value]uint64{},
		params: map[*sym.Expr]ssa.Value{}, edges: map[edgeKey]*edgeForm{}, cache: map[postKey]int8{}}
	for i, p := range enc.Fn.Params {
		if t := enc.Param(i); t != nil {
			a.params[t] = p
		}
		if t := enc.ParamLen(i); t != nil {
			a.params[t] = p // the length of p: as constant as p
		}
	}
	for k, pf := range enc.fields {
		// Available wherever its parameter is; an edge gives it the term
		// its cell holds at the edge's end (after).
		a.params[pf.v] = enc.Fn.Params[pf.param]
		if a.fields == nil {
			a.fields = map[*sym.Expr]int{}
		}
		a.fields[pf.v] = k
	}
	return a
}

// stateVar returns the state variable of v, nil when v is not an
// integer or boolean parameter or instruction.
func (a *abstraction) stateVar(v ssa.Value) *sym.Expr {
	w, _, ok := scalar(v.Type())
	if !ok {
		return nil
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		for i, q := range a.enc.Fn.Params {
			if q == v {
				return a.enc.Param(i)
			}
		}
		return nil
	case ssa.Instruction:
		if v.Block() == nil || v.Parent() != a.enc.Fn {
			return nil
		}
	default:
		return nil
	}
	n, ok := a.num[v]
	if !ok {
		n = StateBase + uint64(len(a.vals))
		a.num[v] = n
		a.vals = append(a.vals, v)
	}
	return a.enc.B.Var(n, w)
}

// valueOf returns the SSA value of a state variable, nil for any other
// variable (an input the encoder has no parameter for, or havoc).
func (a *abstraction) valueOf(x *sym.Expr) ssa.Value {
	if x.Val >= StateBase && x.Val-StateBase < uint64(len(a.vals)) {
		return a.vals[x.Val-StateBase]
	}
	return a.params[x]
}

// available reports whether v has its value at the entry of block b.
func available(v ssa.Value, b *ssa.BasicBlock) bool {
	switch v := v.(type) {
	case *ssa.Parameter:
		return true
	case *ssa.Phi:
		if v.Block() == b {
			return true
		}
		return v.Block().Dominates(b)
	case ssa.Instruction:
		d := v.Block()
		return d != b && d.Dominates(b)
	}
	return false
}

// tracked reports whether predicate i is tracked at block b.
func (a *abstraction) tracked(i int, b *ssa.BasicBlock) bool {
	for _, v := range a.preds[i].vals {
		if !available(v, b) {
			return false
		}
	}
	return true
}

// addPred adds e as a predicate when it is new, not constant and speaks
// only of state variables; it reports whether it did.
func (a *abstraction) addPred(e *sym.Expr) bool {
	if e == nil || !e.IsBool() || e.IsConst() {
		return false
	}
	if e.Kind == sym.KNot {
		e = e.Args[0] // a predicate and its negation are one
	}
	if _, ok := a.byExpr[e]; ok {
		return false
	}
	var vals []ssa.Value
	for _, x := range sym.Vars(nil, e) {
		v := a.valueOf(x)
		if v == nil {
			return false // havoc or an unknown input: no predicate
		}
		vals = append(vals, v)
	}
	if sym.HasCall(e) {
		return false
	}
	a.byExpr[e] = len(a.preds)
	a.preds = append(a.preds, Pred{Expr: e, vals: vals})
	return true
}

// pre gives each value not defined on an edge its state variable.
func (a *abstraction) pre(v ssa.Value) *sym.Expr { return a.stateVar(v) }

// edge returns the formula of edge k.
func (a *abstraction) edge(k edgeKey) (*edgeForm, error) {
	if f, ok := a.edges[k]; ok {
		return f, nil
	}
	p, err := a.enc.start(k.b, a.pre)
	if err != nil {
		return nil, err
	}
	if err := p.Step(k.to()); err != nil {
		return nil, err
	}
	f := &edgeForm{path: p, conds: p.Conds, post: map[int]*sym.Expr{}}
	a.edges[k] = f
	return f, nil
}

// after returns e, a term over state variables at the source of edge f,
// with each state variable replaced by the term the edge gives its value:
// e speaks of the edge's target.
func (a *abstraction) after(f *edgeForm, e *sym.Expr) (*sym.Expr, error) {
	return a.subst(e, func(x *sym.Expr) *sym.Expr {
		if k, ok := a.fields[x]; ok {
			return f.path.fieldOut(k) // the field's memory at the edge's end
		}
		if _, ok := a.valueOf(x).(*ssa.Parameter); ok {
			return x // a parameter and its length do not change
		}
		if v := a.valueOf(x); v != nil {
			return f.path.Value(v)
		}
		return x
	})
}

// subst rebuilds e with each variable x replaced by by(x).
func (a *abstraction) subst(e *sym.Expr, by func(*sym.Expr) *sym.Expr) (*sym.Expr, error) {
	memo := map[*sym.Expr]*sym.Expr{}
	var walk func(e *sym.Expr) (*sym.Expr, error)
	walk = func(e *sym.Expr) (*sym.Expr, error) {
		if r, ok := memo[e]; ok {
			return r, nil
		}
		var r *sym.Expr
		switch {
		case e.Kind == sym.KVar:
			r = by(e)
			if r == nil || r.Width != e.Width {
				return nil, fmt.Errorf("mc: no term of width %d for variable %d", e.Width, e.Val)
			}
		case len(e.Args) == 0:
			r = e
		default:
			args := make([]*sym.Expr, len(e.Args))
			same := true
			for i, x := range e.Args {
				y, err := walk(x)
				if err != nil {
					return nil, err
				}
				args[i], same = y, same && y == x
			}
			if same {
				r = e
				break
			}
			var err error
			if r, err = a.enc.B.Make(e.Kind, e.Width, e.Val, args); err != nil {
				return nil, fmt.Errorf("mc: rebuilding %s: %w", e.Kind, err)
			}
		}
		memo[e] = r
		return r, nil
	}
	return walk(e)
}

// gamma returns the literals of s as terms.
func (a *abstraction) gamma(s State) []*sym.Expr {
	var cs []*sym.Expr
	for i, p := range a.preds {
		switch {
		case s.True.has(i):
			cs = append(cs, p.Expr)
		case s.False.has(i):
			cs = append(cs, a.enc.B.Not(p.Expr))
		}
	}
	return cs
}

// status asks the solver whether goal can hold with cs.
func (a *abstraction) status(cs []*sym.Expr, goal *sym.Expr) (solver.Status, solver.Result, error) {
	a.queries++
	r, err := a.slv.Solve(a.ctx, solver.Query{Constraints: cs, Goal: goal})
	if err != nil {
		return solver.Unknown, r, fmt.Errorf("mc: solving: %w", err)
	}
	return r.Status, r, nil
}

// post is the cartesian abstract post of s, at the source of edge k,
// along k: ok is false when the edge cannot be taken from s. A predicate
// is true (false) after the edge when the solver proves that it cannot
// be false (true); an undecided query leaves it unknown.
func (a *abstraction) post(s State, k edgeKey) (State, bool, error) {
	f, err := a.edge(k)
	if err != nil {
		return State{}, false, err
	}
	key := s.key()
	// ask answers one question, from the cache or the solver: cTrue when
	// goal can hold with γ(s) and the edge, cFalse when it cannot.
	var cs []*sym.Expr
	ask := func(i int, goal *sym.Expr) (int8, error) {
		pk := postKey{k, key, i}
		if r, ok := a.cache[pk]; ok {
			return r, nil
		}
		if cs == nil {
			cs = append(append(a.gamma(s), f.conds...), f.path.Assume...)
		}
		st, _, err := a.status(cs, goal)
		if err != nil {
			return cUnknown, err
		}
		r := cTrue
		if st == solver.Unsat {
			r = cFalse
		}
		if st != solver.Unknown {
			a.cache[pk] = r // an undecided query may be decided later
		}
		return r, nil
	}
	if r, err := ask(-1, a.enc.B.Bool(true)); err != nil || r == cFalse {
		return State{}, false, err
	}
	var out State
	to := k.to()
	for i := range a.preds {
		if !a.tracked(i, to) {
			continue
		}
		q, ok := f.post[i]
		if !ok {
			if q, err = a.after(f, a.preds[i].Expr); err != nil {
				return State{}, false, err
			}
			f.post[i] = q
		}
		if q == a.preds[i].Expr && (s.True.has(i) || s.False.has(i)) {
			// The edge leaves the predicate's values alone: its value
			// stays what it was.
			if s.True.has(i) {
				out.True.set(i)
			} else {
				out.False.set(i)
			}
			continue
		}
		switch q.Kind {
		case sym.KTrue:
			out.True.set(i)
			continue
		case sym.KFalse:
			out.False.set(i)
			continue
		}
		// The predicate is true after the edge when it cannot be false,
		// and false when it cannot be true: two questions, each cached
		// under its own index (2i and 2i+1).
		if r, err := ask(2*i, a.enc.B.Not(q)); err != nil {
			return State{}, false, err
		} else if r == cFalse {
			out.True.set(i)
			continue
		}
		if r, err := ask(2*i+1, q); err != nil {
			return State{}, false, err
		} else if r == cFalse {
			out.False.set(i)
		}
	}
	return out, true, nil
}

// addWithWeb adds e (addPred) and, when e speaks of one phi, e over each
// other phi of that phi's web, while there are fewer than max
// predicates; it returns the predicates added. go/ssa splits a source
// variable assigned in a loop or in branches into phis that feed each
// other (b at a loop's head, b where the body's branches join): a
// predicate on one of them says nothing where another holds the value,
// and the seed's predicates are on variables, not on their SSA names.
func (a *abstraction) addWithWeb(e *sym.Expr, max int) []*sym.Expr {
	var added []*sym.Expr
	if len(a.preds) >= max || !a.addPred(e) {
		return nil
	}
	added = append(added, e)
	var phi *ssa.Phi
	var x *sym.Expr
	for _, v := range sym.Vars(nil, e) {
		if p, ok := a.valueOf(v).(*ssa.Phi); ok {
			if phi != nil {
				return added // two phis: their webs' pairs would be too many
			}
			phi, x = p, v
		}
	}
	if phi == nil {
		return added
	}
	for _, q := range a.web(phi) {
		if len(a.preds) >= max {
			break
		}
		y := a.stateVar(q)
		if q == phi || y == nil || y.Width != x.Width {
			continue
		}
		f, err := a.subst(e, func(v *sym.Expr) *sym.Expr {
			if v == x {
				return y
			}
			return v
		})
		if err == nil && a.addPred(f) {
			added = append(added, f)
		}
	}
	return added
}

// maxWeb bounds the phis of a web: a larger one is cut, which only costs
// precision.
const maxWeb = 8

// web returns the phis linked to p by phi operands, either way, p first.
func (a *abstraction) web(p *ssa.Phi) []*ssa.Phi {
	if a.webs == nil {
		a.webs = map[*ssa.Phi][]*ssa.Phi{}
		for _, b := range a.enc.Fn.Blocks {
			for _, in := range b.Instrs {
				phi, ok := in.(*ssa.Phi)
				if !ok {
					break
				}
				for _, e := range phi.Edges {
					if q, ok := e.(*ssa.Phi); ok && q != phi {
						a.webs[phi] = append(a.webs[phi], q)
						a.webs[q] = append(a.webs[q], phi)
					}
				}
			}
		}
	}
	out := []*ssa.Phi{p}
	seen := map[*ssa.Phi]bool{p: true}
	for i := 0; i < len(out) && len(out) < maxWeb; i++ {
		for _, q := range a.webs[out[i]] {
			if !seen[q] && len(out) < maxWeb {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	return out
}
