package mc

// This file proves goals unreachable without an abstract reachability
// graph, from the straight stretch of code that leads to each. A goal's
// If is preceded by a chain of blocks, each the only predecessor of the
// next; every execution that takes the goal's edge has run the whole
// chain from its first block. With every value and memory cell the
// chain's first block finds taken as havoc (any state at all), the
// chain's formula and the goal's guard are unsatisfiable only when no
// state could take the edge, so the goal is unreachable.
//
// It is the cheap half of the model checker: one query per goal, no
// predicates, no loop to unroll. It proves the goals whose guards
// contradict what the lines just before them established (a test of a
// value just decremented after a lower bound was checked, as in
// nsichneu's dead transitions), which a whole function's graph proves
// only once it closes, and on large loops it does not close within the
// bounds. Check remains what proves goals whose reasons span joins,
// loops or calls.

import (
	"context"
	"fmt"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// maxChain bounds the blocks of a chain: a longer one is cut at its
// last maxChain blocks, which havoc makes sound (fewer facts, never a
// wrong one).
const maxChain = 64

// chain returns the blocks that every path to b runs just before it,
// in order, b last: back from b while each block has exactly one
// predecessor. The first block is where the chain's state is havoc.
func chain(b *ssa.BasicBlock) []*ssa.BasicBlock {
	out := []*ssa.BasicBlock{b}
	seen := map[*ssa.BasicBlock]bool{b: true}
	for cur := b; len(cur.Preds) == 1 && len(out) < maxChain; {
		p := cur.Preds[0]
		if seen[p] { // a cycle of single predecessors, entered by no edge
			break
		}
		seen[p] = true
		out = append(out, p)
		cur = p
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// ProveLocal reports whether the straight code before goal gl's edges
// contradicts it: the goal is unreachable. false claims nothing (a
// satisfiable formula, an undecided query, a goal with no If of its own
// or one a recovered panic can resume at). enc is an Encoder of the
// goal's function.
func ProveLocal(ctx context.Context, g *cfa.Graph, enc *Encoder, slv solver.Solver, gl Goal) (bool, error) {
	br := g.Branch(gl.Site)
	if br == nil || br.Joined || br.Point || br.Check || br.Func != enc.Fn {
		return false, nil
	}
	recovers := recoverReach(enc.Fn)
	for _, b := range append([]*ssa.BasicBlock{br.Block}, br.Also...) {
		to := br.False
		if gl.Taken {
			to = br.True
		}
		if recovers[b] || to == nil || len(b.Succs) != 2 || b.Succs[0] == b.Succs[1] {
			return false, nil
		}
		blocks := chain(b)
		if recovers[blocks[0]] {
			return false, nil
		}
		p, err := enc.Start(blocks[0])
		if err != nil {
			return false, err
		}
		for _, c := range blocks[1:] {
			if err := p.Step(c); err != nil {
				return false, err
			}
		}
		before := len(p.Conds)
		if err := p.Step(to); err != nil {
			return false, err
		}
		if len(p.Conds) == before {
			// The edge has no guard of its own (constant true): the
			// chain would have to contradict itself, which the graphs
			// decide.
			return false, nil
		}
		guard := p.Conds[len(p.Conds)-1]
		if guard.Kind == sym.KFalse {
			continue // folded to false: no query needed
		}
		// Only the conditions that share variables with the guard,
		// directly or through others, can contradict it: a guard that
		// shares none is satisfiable alone (the builder folds a
		// constant one), and needs no query.
		n := len(p.Conds) - 1
		q := solver.Slice(solver.Query{Constraints: append(p.Conds[:n:n], p.Assume...), Goal: guard})
		if len(q.Constraints) == 0 {
			return false, nil
		}
		r, err := slv.Solve(ctx, q)
		if err != nil {
			return false, fmt.Errorf("mc: solving %s's chain to site %d: %w", enc.Fn, gl.Site, err)
		}
		if r.Status != solver.Unsat {
			return false, nil
		}
	}
	return true, nil
}
