// This file keeps what an update run (gocolic update, seed 003) needs of
// the coordinator: one input per distinct path, the saved suite's verdict
// on every new candidate, and the barrier that runs every saved input
// before the solver is asked anything.

package coordinator

import (
	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// Prior is what a saved suite says about a candidate (Config.Prior).
type Prior uint8

// The priors.
const (
	// PriorExplore: the candidate lies in a changed range; explore it.
	PriorExplore Prior = iota
	// PriorSettled: the saved, exhausted run reached the same node with
	// the same path condition and left the side untaken: the solver
	// refuted it then, and the candidate is marked infeasible unasked.
	PriorSettled
	// PriorLater: as PriorSettled, but the saved run had not finished:
	// the candidate is explored once the changed ranges are.
	PriorLater
	// PriorSkip: as PriorLater, but the run only checks the saved suite
	// (update -check): the candidate is left open, never explored.
	PriorSkip
)

// PathInput is one input of a distinct path (Config.Paths).
type PathInput struct {
	Input sym.Env
	// last is the tree's node of the path's last branch, taken the path's
	// way there, and n the path's length: the path itself is the tree's,
	// not a copy (a long run keeps many long paths).
	last    *explore.Node
	taken   bool
	n       int
	Results []rt.Result
	// Failure is "kind: message" when the execution failed.
	Failure string
	// Seed is the index of the seed (Config.Seeds) it came from, -1 for
	// an input the run found. Seeds are kept even on a path kept before.
	Seed int
}

// NewPathInput returns the PathInput of an execution on input env whose
// path tree recorded: its path is the tree's nodes, as far as the tree
// recorded it (Tree.Record stops where a path contradicts the tree).
func NewPathInput(tree *explore.Tree, env sym.Env, path []explore.Branch, results []rt.Result, seed int) PathInput {
	pi := PathInput{Input: env, Results: results, Seed: seed}
	for nd := tree.Root(); pi.n < len(path) && nd != nil && nd.Site == path[pi.n].Site; nd = nd.Child(path[pi.n-1].Taken) {
		pi.last, pi.taken = nd, path[pi.n].Taken
		pi.n++
	}
	return pi
}

// Len returns the length of the input's path up to MaxDepth, as the tree
// holds it: the length of Path without building it.
func (p PathInput) Len() int { return p.n }

// Path returns the input's path up to MaxDepth, as the tree holds it:
// each branch with the condition of the execution that made its node.
func (p PathInput) Path() []explore.Branch {
	path := make([]explore.Branch, p.n)
	child, taken := (*explore.Node)(nil), p.taken
	for m, i := p.last, p.n-1; i >= 0; m, i = m.Parent(), i-1 {
		if child != nil {
			taken = m.Child(true) == child
		}
		path[i] = explore.Branch{Site: m.Site, Taken: taken, Cond: m.Cond}
		child = m
	}
	return path
}

// Position returns the directions from the root of c's tree to c's node,
// then c's side: where c lies in the fixed branch order.
func Position(c *explore.Candidate) []bool {
	pos := make([]bool, c.Node.Depth+1)
	pos[c.Node.Depth] = c.Side
	for n := c.Node; n.Parent() != nil; n = n.Parent() {
		pos[n.Parent().Depth] = n.Parent().Child(true) == n
	}
	return pos
}

// judge applies Config.Prior to the candidates an execution opened and
// returns those to hand to the strategy now.
func (d *coordinator) judge(cs []*explore.Candidate) []*explore.Candidate {
	if d.cfg.Prior == nil {
		return cs
	}
	now := cs[:0:0]
	for _, c := range cs {
		switch d.cfg.Prior(c) {
		case PriorSettled:
			d.tree.Resolve(c, solver.Unsat)
			d.rep.Update.Settled++
		case PriorLater:
			d.later = append(d.later, c)
			d.rep.Update.Later++
		case PriorSkip:
		default:
			d.changed = append(d.changed, c)
			now = append(now, c)
		}
	}
	return now
}

// seedDone notes that a seed's execution was taken in; after the last,
// the changed candidates still open are the ranges to explore.
func (d *coordinator) seedDone(j job) {
	if j.seed == 0 || d.seedsLeft == 0 {
		return
	}
	d.seedsLeft--
	if d.seedsLeft > 0 {
		return
	}
	for _, c := range d.changed {
		if c.State() == explore.Open {
			d.rep.Update.Changed = append(d.rep.Update.Changed, Position(c))
		}
	}
	d.changed = nil
}

// releaseLater hands the strategy the candidates put off as PriorLater,
// once it has nothing else; it reports whether there were any.
func (d *coordinator) releaseLater() bool {
	if len(d.later) == 0 {
		return false
	}
	d.strat.Update(explore.Feedback{Outcome: explore.Outcome{NewCandidates: d.later}})
	d.later = nil
	return true
}

// keepPath keeps the input of an execution whose path, up to MaxDepth, no
// earlier execution took, and of every seed: which of several seeds on one
// path stands for it is the caller's choice (an update keeps the one that
// took it before).
func (d *coordinator) keepPath(j job, path []explore.Branch, resp *rt.Response) {
	if !d.cfg.Paths {
		return
	}
	if n := d.cfg.MaxDepth; n > 0 && len(path) > n {
		path = path[:n]
	}
	key := explore.PathKey(path)
	if d.pathKeys == nil {
		d.pathKeys = map[[16]byte]bool{}
	}
	if d.pathKeys[key] && j.seed == 0 {
		return
	}
	d.pathKeys[key] = true
	pi := NewPathInput(d.tree, j.env, path, resp.Results, j.seed-1)
	switch resp.Status {
	case rt.StatusPanic:
		pi.Failure = "panic: " + resp.Panic
	case rt.StatusFail:
		pi.Failure = "fail: " + resp.Panic
	}
	d.rep.Suite = append(d.rep.Suite, pi)
}

// UpdateStats is what an update run's Prior decided.
type UpdateStats struct {
	// Settled counts the candidates marked infeasible on the saved run's
	// word, Later those put off until the changed ranges were explored.
	Settled, Later int
	// Changed are the positions (Position) of the candidates of changed
	// ranges still open once every seed ran: the sides explored.
	Changed [][]bool
	// Unrun counts the seeds the run ended before taking in (Prior set).
	Unrun int
}
