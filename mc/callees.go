package mc

// This file decides, in a caller's graph (arg.go), the goals of the
// callees the encoder inlined at the caller's own calls (inline.go): at
// each node, a copy of a goal whose formula the node's state allows is
// reached; a reached copy open to decision is checked along the node's
// path like a goal of the function (a feasible path decides it
// Reachable, a spurious one refines with the copy's formula as the
// weakest precondition's start), and the copies of the closed graph's
// nodes reach no other is Unreachable at that call.

import (
	"fmt"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// copyForm is a copy at a block, with its formula over the state
// variables at the block's entry: the conditions of the block before
// the call and the copy's guard.
type copyForm struct {
	Copy
	f *sym.Expr
}

// copiesAt returns the copies of the callees inlined in b's body.
func (a *abstraction) copiesAt(b *ssa.BasicBlock) ([]copyForm, error) {
	if cs, ok := a.bodies[b]; ok {
		return cs, nil
	}
	p, err := a.enc.start(b, a.pre)
	if err != nil {
		return nil, err
	}
	p.body()
	var cs []copyForm
	for _, cp := range p.Copies {
		f := cp.Guard
		for _, x := range p.Conds[:cp.Before] {
			f = a.enc.B.And(x, f)
		}
		for _, x := range p.Assume {
			f = a.enc.B.And(x, f)
		}
		cs = append(cs, copyForm{cp, f})
	}
	if a.bodies == nil {
		a.bodies = map[*ssa.BasicBlock][]copyForm{}
	}
	a.bodies[b] = cs
	return cs, nil
}

// hit reports whether s allows copy i of block b: an undecided query
// allows it.
func (a *abstraction) hit(s State, b *ssa.BasicBlock, i int, cf copyForm) (bool, error) {
	k := hitKey{b, i, s.key()}
	if r, ok := a.hitCache[k]; ok {
		return r, nil
	}
	st, _, err := a.status(append(a.gamma(s), cf.f), a.enc.B.Bool(true))
	if err != nil {
		return false, err
	}
	r := st != solver.Unsat
	if st != solver.Unknown {
		if a.hitCache == nil {
			a.hitCache = map[hitKey]bool{}
		}
		a.hitCache[k] = r
	}
	return r, nil
}

// hitKey is one question of hit.
type hitKey struct {
	b   *ssa.BasicBlock
	i   int
	key string
}

// addForeign takes gl, a goal of another function, to be decided at the
// calls that inline it: a plain If out of its function's Recover reach.
func (c *checker) addForeign(gl Goal, br *cfa.Branch) {
	recovers := recoverReach(br.Func)
	blocks := append([]*ssa.BasicBlock{br.Block}, br.Also...)
	for _, b := range blocks {
		if recovers[b] {
			return
		}
	}
	succ := 1
	if gl.Taken {
		succ = 0
	}
	for _, b := range blocks {
		c.goalOf[edgeKey{b, succ}] = gl
	}
	c.foreign[gl] = true
}

// copies finds the copies of the foreign goals in the function's blocks;
// those of a call the Recover block reaches are not claimable.
func (c *checker) copies(recovers map[*ssa.BasicBlock]bool) error {
	if len(c.foreign) == 0 {
		return nil
	}
	for _, b := range c.fn.Blocks {
		cs, err := c.a.copiesAt(b)
		if err != nil {
			return err
		}
		for _, cf := range cs {
			cg, ok := c.callGoal(cf)
			if !ok {
				continue
			}
			if recovers[b] {
				c.res.AtCalls[cg] = Verdict{Why: "reached from the Recover block"}
				delete(c.copyClaim, cg)
				continue
			}
			if _, seen := c.res.AtCalls[cg]; seen {
				continue
			}
			c.copyClaim[cg], c.copyOpen[cg] = true, true
			c.res.AtCalls[cg] = Verdict{Why: "not decided: a bound stopped the run first"}
			if !c.opts.Bare {
				for _, x := range c.a.stateOnly(conjuncts(cf.Guard)) {
					c.a.addWithWeb(x, c.opts.MaxPredicates)
				}
			}
		}
	}
	return nil
}

// callGoal returns the foreign goal a copy takes.
func (c *checker) callGoal(cf copyForm) (CallGoal, bool) {
	gl, ok := c.goalOf[edgeKey{cf.Block, cf.Succ}]
	if !ok || !c.foreign[gl] {
		return CallGoal{}, false
	}
	return CallGoal{cf.Call, gl}, true
}

// callees marks the copies node n's state allows and checks the open
// ones (refined: the round must start again).
func (c *checker) callees(nodes []Node, n int32) (refined bool, err error) {
	b := nodes[n].Block
	cs, err := c.a.copiesAt(b)
	if err != nil {
		return false, err
	}
	for i, cf := range cs {
		cg, ok := c.callGoal(cf)
		if !ok || !c.copyClaim[cg] {
			continue
		}
		hit, err := c.a.hit(nodes[n].State, b, i, cf)
		if err != nil {
			return false, err
		}
		if !hit {
			continue
		}
		c.hits[cg] = true
		if !c.copyOpen[cg] {
			continue
		}
		if refined, err := c.reachedCopy(cg, cf, nodes, n); err != nil || refined {
			return refined, err
		}
	}
	return false, nil
}

// reachedCopy checks the path to node n followed by copy cf, as reached
// does for a goal edge of the function.
func (c *checker) reachedCopy(cg CallGoal, cf copyForm, nodes []Node, n int32) (refined bool, err error) {
	return c.decidePath(cg.Goal, nodes, n, &cf, func(v Verdict) {
		c.copyOpen[cg] = false
		c.res.AtCalls[cg] = v
	})
}

// checkCopy encodes the path through blocks from the entry, then the
// last block's body up to the call of cf and the copy's guard, and
// decides it.
func (a *abstraction) checkCopy(blocks []*ssa.BasicBlock, cf copyForm) (*counterexample, error) {
	p, err := a.encodePath(blocks)
	if err != nil {
		return nil, err
	}
	p.body()
	var cp *Copy
	for i := range p.Copies {
		if q := &p.Copies[i]; q.Call == cf.Call && q.Block == cf.Block && q.Succ == cf.Succ {
			cp = q
		}
	}
	if cp == nil {
		return nil, fmt.Errorf("mc: the path to block %d of %s does not inline its call", blocks[len(blocks)-1].Index, a.enc.Fn)
	}
	conds := append(append([]*sym.Expr(nil), p.Conds[:cp.Before]...), cp.Guard)
	at := append(append([]int(nil), p.At[:cp.Before]...), len(blocks)-1)
	return a.decide(conds, at, p.Assume)
}
