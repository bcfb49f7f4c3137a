package mc

// This file checks abstract paths and refines the abstraction when one is
// spurious. Z3 4.8.12 has no interpolation, so refinement is by weakest
// preconditions sliced by an unsat core (as issue 19's feasibility study
// recommends):
//
//  1. The path's formula is the encoder's, from the entry with the
//     parameters free. Sat: its model is a candidate input.
//  2. Unsat: the edges whose conditions matter are found by deletion
//     (an edge whose conditions can go while the rest stays unsat goes),
//     trying first the edges that leave a loop header, so that a core
//     that needs no loop counter is preferred (on a flag set in a loop
//     the core is the flag, not 30 unrollings of the counter).
//  3. Backwards along the path, F_n = true and F_i = (the core conditions
//     of edge i) ∧ F_{i+1} with each state variable replaced by the term
//     edge i gives its value: F_i says, over the values at the entry of
//     Path[i], that the rest of the path can be taken with the core
//     conditions. F_0 is unsat with the entry, and with the predicate F_i
//     tracked at each Path[i] the cartesian post proves ¬F_i along the
//     path, so the path is gone.
//  4. The new predicates are the conjuncts of each F_i and F_i itself
//     (the conjunctions of the conjuncts that speak only of state
//     variables: havoc variables, being existential, cannot be in a
//     predicate, and dropping them only weakens the refinement).

import (
	"fmt"
	"slices"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// counterexample is the check of one abstract path.
type counterexample struct {
	status solver.Status
	model  sym.Env
	exact  bool
	conds  []*sym.Expr
	at     []int // at[i] is the edge of conds[i]
	// assume are what the path's start meets whatever its edges
	// (Path.Assume): part of every query, of no edge.
	assume []*sym.Expr
}

// check encodes the path through blocks from the entry and decides it.
func (a *abstraction) check(blocks []*ssa.BasicBlock) (*counterexample, error) {
	p, err := a.encodePath(blocks)
	if err != nil {
		return nil, err
	}
	return a.decide(p.Conds, p.At, p.Assume)
}

// encodePath encodes the path through blocks from the entry.
func (a *abstraction) encodePath(blocks []*ssa.BasicBlock) (*Path, error) {
	p, err := a.enc.Start(blocks[0])
	if err != nil {
		return nil, err
	}
	for _, b := range blocks[1:] {
		if err := p.Step(b); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// decide decides the path conditions conds, at[i] the edge of conds[i],
// with the assumptions assume: a model when they hold, exact when it
// rests on no havoc value.
func (a *abstraction) decide(conds []*sym.Expr, at []int, assume []*sym.Expr) (*counterexample, error) {
	cx := &counterexample{conds: conds, at: at, assume: assume}
	st, r, err := a.status(append(slices.Clone(conds), assume...), a.enc.B.Bool(true))
	if err != nil {
		return nil, err
	}
	cx.status = st
	if st == solver.Sat {
		cx.model = r.Model
		cx.exact = true
		for _, x := range sym.Vars(nil, conds...) {
			if x.Val >= HavocBase {
				cx.exact = false
			}
		}
	}
	return cx, nil
}

// loopHeaders returns the blocks that a back edge enters.
func loopHeaders(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	h := map[*ssa.BasicBlock]bool{}
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			if s.Dominates(b) {
				h[s] = true
			}
		}
	}
	return h
}

// core returns the edges of an unsat path whose conditions an unsat core
// keeps, in increasing order. An undecided query keeps the edge: the
// core may be larger than needed, never wrong.
func (a *abstraction) core(blocks []*ssa.BasicBlock, cx *counterexample) ([]int, error) {
	var edges []int
	for _, e := range cx.at {
		if len(edges) == 0 || edges[len(edges)-1] != e {
			edges = append(edges, e)
		}
	}
	edges = slices.Compact(edges)
	heads := loopHeaders(a.enc.Fn)
	order := slices.Clone(edges)
	slices.SortStableFunc(order, func(x, y int) int {
		hx, hy := heads[blocks[x]], heads[blocks[y]]
		switch {
		case hx && !hy:
			return -1
		case hy && !hx:
			return 1
		}
		return 0
	})
	keep := map[int]bool{}
	for _, e := range edges {
		keep[e] = true
	}
	for _, e := range order {
		keep[e] = false
		cs := slices.Clone(cx.assume)
		for i, c := range cx.conds {
			if keep[cx.at[i]] {
				cs = append(cs, c)
			}
		}
		st, _, err := a.status(cs, a.enc.B.Bool(true))
		if err != nil {
			return nil, err
		}
		if st != solver.Unsat {
			keep[e] = true
		}
	}
	var out []int
	for _, e := range edges {
		if keep[e] {
			out = append(out, e)
		}
	}
	return out, nil
}

// refine adds predicates that remove the spurious path through blocks,
// whose unsat core is core (a.core), at most up to max predicates in
// all, and returns the step it made.
// final, when not nil, is what the path must also meet at the entry of
// its last block (a callee's goal inlined there, over state variables):
// F_n = final.
func (a *abstraction) refine(blocks []*ssa.BasicBlock, cx *counterexample, core []int, max int, final *sym.Expr) (Step, error) {
	step := Step{Path: blocks, Core: core}
	inCore := map[int]bool{}
	for _, e := range core {
		inCore[e] = true
	}
	b := a.enc.B
	f := b.Bool(true)
	var wps [][]*sym.Expr // the state-only conjuncts of each F_i
	if final != nil {
		f = final
		wps = append(wps, a.stateOnly(conjuncts(f)))
	}
	for i := len(blocks) - 2; i >= 0; i-- {
		succ := slices.Index(blocks[i].Succs, blocks[i+1])
		if succ < 0 {
			return Step{}, fmt.Errorf("mc: block %d does not lead to block %d", blocks[i].Index, blocks[i+1].Index)
		}
		ef, err := a.edge(edgeKey{blocks[i], succ})
		if err != nil {
			return Step{}, err
		}
		if f, err = a.after(ef, f); err != nil {
			return Step{}, err
		}
		if inCore[i] {
			for _, c := range ef.conds {
				f = b.And(c, f)
			}
		}
		wps = append(wps, a.stateOnly(conjuncts(f)))
	}
	add := func(e *sym.Expr) {
		step.Added = append(step.Added, a.addWithWeb(e, max)...)
	}
	// Atoms first, from the goal backwards (the nearer the goal, the
	// fewer substitutions they went through), then whole formulas.
	for _, cs := range wps {
		for _, c := range cs {
			add(c)
		}
	}
	for _, cs := range wps {
		if len(cs) > 1 {
			w := b.Bool(true)
			for _, c := range cs {
				w = b.And(w, c)
			}
			add(w)
		}
	}
	return step, nil
}

// unrolls reports whether the core of a spurious path holds only
// edges that leave loop headers: the path is infeasible because of how
// many times it went round, and the predicates that remove it count the
// turns (one more each time the graph finds a longer path).
func unrolls(fn *ssa.Function, blocks []*ssa.BasicBlock, core []int) bool {
	heads := loopHeaders(fn)
	n := 0
	for _, e := range core {
		if e >= len(blocks)-1 {
			continue // the last block's own conditions (a callee's goal)
		}
		if !heads[blocks[e]] {
			return false
		}
		n++
	}
	return n > 0
}

// conjuncts splits a conjunction.
func conjuncts(e *sym.Expr) []*sym.Expr {
	if e.Kind == sym.KLAnd {
		return append(conjuncts(e.Args[0]), conjuncts(e.Args[1])...)
	}
	if e.Kind == sym.KTrue {
		return nil
	}
	return []*sym.Expr{e}
}

// stateOnly keeps the terms that speak only of state variables.
func (a *abstraction) stateOnly(es []*sym.Expr) []*sym.Expr {
	var out []*sym.Expr
	for _, e := range es {
		ok := !e.IsConst()
		for _, x := range sym.Vars(nil, e) {
			if a.valueOf(x) == nil {
				ok = false
			}
		}
		if ok {
			out = append(out, e)
		}
	}
	return out
}
