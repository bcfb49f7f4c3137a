package mc

// This file is Algorithm 2 of seed 002 (coverage-driven abstraction
// refinement) over one function's control-flow automaton: it builds an
// abstract reachability graph (ARG) towards the goals, the branch
// outcomes testing has not covered; checks each abstract path that
// reaches a goal with the path encoder and Z3; refines the predicates
// when the path is spurious (refine.go) and starts again; and, once the
// graph is closed, claims unreachable the goals no edge of it takes.
//
// Where it departs from the paper, and why:
//
//   - Covering. A new node is covered by an uncovered node of the same
//     block whose literals are a subset of its own; a node is never
//     covered after it has been expanded (the paper's line 11). Covering
//     an expanded node would leave the nodes its subtree covers resting
//     on a subtree that is no longer expanded, and a node covered by its
//     own descendant would stop that descendant's expansion (line 7):
//     both lose executions. Without it the graph is larger, not wrong.
//     A covering node is never covered later, so cover chains have one
//     step and the monitor's E2 edges are direct.
//   - A goal whose spurious path refinement cannot remove (no new
//     predicate: the removing atoms speak of havoc values), whose path
//     the solver cannot decide, or that is reached after the refinement
//     budget is spent, is given up (Unknown) and the graph is closed
//     without refining for it (the paper's line 20).
//   - Soundness first: a graph that hits a bound (nodes, time, a solver
//     error) is not closed, and then nothing is claimed. Goals that are
//     not the plain If of a mapped site of the function, and goals whose
//     block the function's Recover block reaches, are never claimed.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// A Goal is a branch outcome to cover: a site and the side taken.
type Goal struct {
	Site  uint32
	Taken bool
}

// Status is what the model checker concluded about a goal.
type Status int

// The outcomes for a goal.
const (
	// Unknown: no claim (a bound, an unsupported or unmapped branch, a
	// spurious path refinement could not remove).
	Unknown Status = iota
	// Reachable: a feasible path to the goal exists in the encoder's
	// semantics (havoc included); Model is a candidate input.
	Reachable
	// Unreachable: no edge of the closed ARG takes the goal.
	Unreachable
)

// String returns "unknown", "reachable" or "unreachable".
func (s Status) String() string {
	switch s {
	case Reachable:
		return "reachable"
	case Unreachable:
		return "unreachable"
	}
	return "unknown"
}

// Verdict is the conclusion about one goal.
type Verdict struct {
	Status Status
	// Model is, for Reachable, the values of the path formula's
	// variables: parameters by Encoder.Param's numbering, and havoc.
	Model sym.Env
	// Exact says that the path formula of a Reachable goal has no havoc
	// variable: its parameters alone decide the path, so Model's
	// parameters are a test input for it (when the encoder's parameters
	// are the whole input). Otherwise the path rests on values the
	// encoder did not follow and the model is only a hint.
	Exact bool
	// Why explains Unknown.
	Why string
}

// Options bounds a run of the model checker. Zero values take defaults.
type Options struct {
	MaxNodes      int // ARG nodes per round (default 5000)
	MaxPredicates int // predicates in all (default 64)
	// MaxRefinements bounds the refinements (default 20; negative: none,
	// every spurious path's goal is given up, so that the first round's
	// graph, on the goals' conditions alone, is the one closed).
	MaxRefinements int
	// MaxUnroll bounds the refinements per goal whose core is loop
	// conditions alone (default 4): past it the goal is given up, so
	// that a goal many turns deep does not keep the graph from closing.
	MaxUnroll int
	Timeout   time.Duration // wall time for the whole run (default 10 s)
	// Bare starts with no predicate; otherwise the conditions of the
	// goals' Ifs are the first predicates.
	Bare bool
	// AllConds makes the conditions of every plain If of the function's
	// mapped sites first predicates too, goals or not: a round towards
	// the outcomes testing has not covered keeps the conditions of the
	// covered ones, which its monitor needs as much as the first
	// round's did (simple-while's loop bound, without which i < len(in)
	// is not known to stay false once it is).
	AllConds bool
}

func (o Options) withDefaults() Options {
	if o.MaxNodes <= 0 {
		o.MaxNodes = 5000
	}
	if o.MaxPredicates <= 0 {
		o.MaxPredicates = 64
	}
	if o.MaxRefinements == 0 {
		o.MaxRefinements = 20
	}
	if o.MaxUnroll <= 0 {
		o.MaxUnroll = 4
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	return o
}

// A Node is an abstract state of the ARG: a block entry and a valuation
// of the predicates.
type Node struct {
	Block  *ssa.BasicBlock
	State  State
	Parent int32 // -1 for the root
	// Via is the successor index of the parent's block whose edge led
	// here.
	Via int
	// Cover is the node that covers this one, -1 if none. A covered
	// node has no children.
	Cover int32
}

// ARG is a closed abstract reachability graph of one function.
type ARG struct {
	Fn    *ssa.Function
	Nodes []Node
	Preds []Pred
	// Calls are, by uncovered node, the edges of the callees inlined at
	// the calls of its block (Copy) and whether the node's state allows
	// each: what the monitor checks a callee's outcomes against when
	// that call is the one the execution entered (monitors.go). A node
	// or an edge without an entry is not known: allowed.
	Calls map[int32][]CallEdge
}

// CallEdge is an edge of a callee inlined at a call of the graph's
// function (Copy), and whether some execution from a node's state may
// take it inside that call.
type CallEdge struct {
	Call  *ssa.Call
	Block *ssa.BasicBlock
	Succ  int
	Hit   bool
}

// Result is the outcome of a run over one function.
type Result struct {
	Verdicts map[Goal]Verdict
	// ARG is the closed graph of the last round, nil when the run hit
	// a bound before closing it.
	ARG *ARG
	// Steps are the refinements made, in order.
	Steps      []Step
	Rounds     int // ARG constructions started
	Queries    int // solver calls of abstract posts and path checks
	Predicates int // predicates at the end
	// Incomplete says which bound stopped the run before a graph was
	// closed; nothing is then Unreachable.
	Incomplete string
	// AtCalls are the verdicts on the goals of other functions given to
	// Check, at each call of the function that inlined them (a Copy):
	// Unreachable says that no execution of this function takes the
	// goal inside that call.
	AtCalls map[CallGoal]Verdict
}

// CallGoal is a goal of a callee at one call that inlined it.
type CallGoal struct {
	Call *ssa.Call
	Goal Goal
}

// Step is one refinement: the spurious abstract path and what it added.
type Step struct {
	Goal Goal
	// Path are the blocks of the spurious path, entry first; its last
	// edge is the goal's.
	Path []*ssa.BasicBlock
	// Core are the indices of the path's edges (edge i leaves Path[i])
	// whose conditions the unsat core kept.
	Core []int
	// Added are the predicates the refinement added.
	Added []*sym.Expr
}

// checker is one run of Algorithm 2.
type checker struct {
	g    *cfa.Graph
	fn   *ssa.Function
	a    *abstraction
	opts Options
	// goalOf maps a goal edge to its goal.
	goalOf map[edgeKey]Goal
	// open are the goals still to be decided by a path check.
	open map[Goal]bool
	// claimable are the goals the graph can decide: plain Ifs of
	// mapped sites of the function, out of the Recover block's reach.
	claimable map[Goal]bool
	// foreign are the goals of other functions, decided at the calls
	// that inline them: copyOpen those still to be decided by a path
	// check, copyClaim those the graph can decide (their call is out of
	// the Recover block's reach), hits those the round's graph reaches.
	foreign   map[Goal]bool
	copyOpen  map[CallGoal]bool
	copyClaim map[CallGoal]bool
	hits      map[CallGoal]bool
	// unrolled counts, by goal, the refinements whose core was loop
	// conditions alone.
	unrolled map[Goal]int
	// splitAt are, by block, the predicates a node there is split on
	// (callPreds).
	splitAt map[*ssa.BasicBlock][]int
	// splitOn are the predicates of splitAt, of every block.
	splitOn []int
	res     *Result
}

// errBound is returned when a bound stops a round before its graph is
// closed.
var errBound = errors.New("mc: bound reached")

// Check runs Algorithm 2 over fn, a function of g whose parameters enc
// numbers, towards goals, and returns a verdict for each goal. slv
// decides the queries (a z3.Solver; its timeout bounds each query). An
// error is a failure of the checker itself; then, as when a bound stops
// the run (Result.Incomplete), no goal is Unreachable.
func Check(ctx context.Context, g *cfa.Graph, enc *Encoder, slv solver.Solver, goals []Goal, opts Options) (*Result, error) {
	opts = opts.withDefaults()
	fn := enc.Fn
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	c := &checker{g: g, fn: fn, a: newAbstraction(ctx, enc, slv), opts: opts,
		goalOf: map[edgeKey]Goal{}, open: map[Goal]bool{}, claimable: map[Goal]bool{},
		foreign: map[Goal]bool{}, unrolled: map[Goal]int{}, copyOpen: map[CallGoal]bool{}, copyClaim: map[CallGoal]bool{},
		res: &Result{Verdicts: map[Goal]Verdict{}, AtCalls: map[CallGoal]Verdict{}}}
	recovers := recoverReach(fn)
	for _, gl := range goals {
		br := g.Branch(gl.Site)
		switch {
		case br == nil:
			c.res.Verdicts[gl] = Verdict{Why: "unmapped site"}
			continue
		case br.Joined || br.Point || br.Check:
			c.res.Verdicts[gl] = Verdict{Why: "no If of its own"}
			continue
		case br.Func != fn:
			c.res.Verdicts[gl] = Verdict{Why: "site of another function: see AtCalls"}
			c.addForeign(gl, br)
			continue
		}
		succ := 1
		if gl.Taken {
			succ = 0
		}
		ok := true
		for _, b := range append([]*ssa.BasicBlock{br.Block}, br.Also...) {
			if recovers[b] {
				ok = false
			}
			c.goalOf[edgeKey{b, succ}] = gl
		}
		if !ok {
			c.res.Verdicts[gl] = Verdict{Why: "reached from the Recover block"}
			continue
		}
		c.open[gl], c.claimable[gl] = true, true
		c.res.Verdicts[gl] = Verdict{Why: "not decided: a bound stopped the run first"}
		if !opts.Bare {
			for _, b := range append([]*ssa.BasicBlock{br.Block}, br.Also...) {
				if t, err := c.a.condAt(b); err == nil {
					c.a.addWithWeb(t, opts.MaxPredicates)
				}
			}
		}
	}
	if opts.AllConds && !opts.Bare {
		for _, id := range g.Mapped() {
			br := g.Branch(id)
			if br.Func != fn || br.Joined || br.Point || br.Check {
				continue
			}
			for _, b := range append([]*ssa.BasicBlock{br.Block}, br.Also...) {
				if t, err := c.a.condAt(b); err == nil {
					c.a.addWithWeb(t, opts.MaxPredicates)
				}
			}
		}
	}
	err := c.copies(recovers)
	if err == nil && !opts.Bare {
		err = c.callPreds()
	}
	if err == nil {
		err = c.run()
	}
	c.res.Queries = c.a.queries
	c.res.Predicates = len(c.a.preds)
	if err != nil {
		for gl, v := range c.res.Verdicts {
			if v.Status == Unreachable {
				v.Status = Unknown
				c.res.Verdicts[gl] = v
			}
		}
		for cg, v := range c.res.AtCalls {
			if v.Status == Unreachable {
				v.Status = Unknown
				c.res.AtCalls[cg] = v
			}
		}
		if errors.Is(err, errBound) || ctx.Err() != nil {
			c.res.Incomplete = err.Error()
			return c.res, nil
		}
		return c.res, err
	}
	return c.res, nil
}

// recoverReach returns the blocks the function's Recover block reaches:
// a recovered panic resumes there, not at the entry.
func recoverReach(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	seen := map[*ssa.BasicBlock]bool{}
	var walk func(b *ssa.BasicBlock)
	walk = func(b *ssa.BasicBlock) {
		if b == nil || seen[b] {
			return
		}
		seen[b] = true
		for _, s := range b.Succs {
			walk(s)
		}
	}
	walk(fn.Recover)
	return seen
}

// condAt returns the condition of the If that ends b as a term over the
// state variables at b's entry.
func (a *abstraction) condAt(b *ssa.BasicBlock) (*sym.Expr, error) {
	p, err := a.enc.start(b, a.pre)
	if err != nil {
		return nil, err
	}
	t := p.Branch()
	if t == nil {
		return nil, fmt.Errorf("mc: block %d does not end with an If", b.Index)
	}
	return t, nil
}

// run builds rounds until one closes its graph without refining.
func (c *checker) run() error {
	for {
		c.res.Rounds++
		arg, refined, err := c.round()
		if err != nil {
			return err
		}
		if refined {
			continue
		}
		return c.conclude(arg)
	}
}

// round builds one ARG. It returns refined when a spurious path made it
// add predicates (the graph is then abandoned and the caller starts
// again).
func (c *checker) round() (arg *ARG, refined bool, err error) {
	fn := c.fn
	nodes := []Node{{Block: fn.Blocks[0], Parent: -1, Cover: -1}}
	byBlock := map[*ssa.BasicBlock][]int32{}
	c.hits = map[CallGoal]bool{}
	work := []int32{0}
	for len(work) > 0 {
		if err := c.a.ctx.Err(); err != nil {
			return nil, false, fmt.Errorf("%w: time (%v)", errBound, err)
		}
		n := work[0]
		work = work[1:]
		nd := &nodes[n]
		for _, m := range byBlock[nd.Block] {
			if nodes[m].State.covers(nd.State) && c.sameSplit(nodes[m].State, nd.State) {
				nd.Cover = m
				break
			}
		}
		if nd.Cover >= 0 {
			continue
		}
		byBlock[nd.Block] = append(byBlock[nd.Block], n)
		b := nd.Block
		if len(c.copyClaim) > 0 {
			refined, err := c.callees(nodes, n)
			if err != nil || refined {
				return nil, refined, err
			}
		}
		for i := range b.Succs {
			k := edgeKey{b, i}
			s, ok, err := c.a.post(nodes[n].State, k)
			if err != nil {
				return nil, false, err
			}
			if !ok {
				continue
			}
			for _, s := range c.split(k.to(), s) {
				nodes = append(nodes, Node{Block: k.to(), State: s, Parent: n, Via: i, Cover: -1})
				child := int32(len(nodes) - 1)
				if len(nodes) > c.opts.MaxNodes {
					return nil, false, fmt.Errorf("%w: %d ARG nodes", errBound, c.opts.MaxNodes)
				}
				if gl, ok := c.goalOf[k]; ok && c.open[gl] {
					refined, err := c.reached(gl, nodes, child)
					if err != nil || refined {
						return nil, refined, err
					}
				}
				work = append(work, child)
			}
		}
	}
	return &ARG{Fn: fn, Nodes: nodes, Preds: append([]Pred(nil), c.a.preds...)}, false, nil
}

// maxSplit bounds the predicates a node is split on: 2^maxSplit nodes.
const maxSplit = 3

// callPreds adds the conditions of the branches of callees inlined at
// the function's calls as predicates of the blocks making the calls,
// and has nodes there split on them (split). A callee's branch is no
// edge of the caller's graph, so the graph would not otherwise remember
// which way an earlier call went (simple-while's i < len(in) in at, past
// the end once, past it at every later call): with the split, the
// monitor's replay keeps only the nodes whose side the callee took
// (monitors.go), and the graph's edges at the next call exclude what no
// longer holds. Only callees that start through static calls alone are
// split on, those the monitors judge in context.
func (c *checker) callPreds() error {
	for _, b := range c.fn.Blocks {
		cs, err := c.a.copiesAt(b)
		if err != nil {
			return err
		}
		for _, cf := range cs {
			callee, _ := cf.Call.Call.Value.(*ssa.Function)
			if callee == nil {
				continue
			}
			if calls, ok := c.g.StaticCalls(callee); !ok || len(calls) == 0 {
				continue
			}
			for _, x := range c.a.stateOnly(conjuncts(cf.Guard)) {
				c.a.addWithWeb(x, c.opts.MaxPredicates)
				if x.Kind == sym.KNot {
					x = x.Args[0]
				}
				i, ok := c.a.byExpr[x]
				if !ok || slices.Contains(c.splitAt[b], i) || len(c.splitAt[b]) >= maxSplit {
					continue
				}
				if c.splitAt == nil {
					c.splitAt = map[*ssa.BasicBlock][]int{}
				}
				c.splitAt[b] = append(c.splitAt[b], i)
				if !slices.Contains(c.splitOn, i) {
					c.splitOn = append(c.splitOn, i)
				}
			}
		}
	}
	return nil
}

// split returns the states of the nodes at block b for the post s: s
// with each predicate of splitAt[b] that s leaves unknown made true in
// some and false in others. Together they cover what s covers.
func (c *checker) split(b *ssa.BasicBlock, s State) []State {
	out := []State{s}
	for _, i := range c.splitAt[b] {
		if s.True.has(i) || s.False.has(i) || !c.a.tracked(i, b) {
			continue
		}
		var next []State
		for _, t := range out {
			yes, no := t.clone(), t.clone()
			yes.True.set(i)
			no.False.set(i)
			next = append(next, yes, no)
		}
		out = next
	}
	return out
}

// sameSplit reports whether s and t give each predicate nodes are split
// on the same value: a node that knows how an earlier call went is not
// covered by one that does not, which would forget it (callPreds).
func (c *checker) sameSplit(s, t State) bool {
	for _, i := range c.splitOn {
		if s.True.has(i) != t.True.has(i) || s.False.has(i) != t.False.has(i) {
			return false
		}
	}
	return true
}

// conclude gives a verdict to each goal from the closed graph.
func (c *checker) conclude(arg *ARG) error {
	taken := map[edgeKey]bool{}
	for _, n := range arg.Nodes[1:] {
		taken[edgeKey{arg.Nodes[n.Parent].Block, n.Via}] = true
	}
	reached := map[Goal]bool{}
	for k, gl := range c.goalOf {
		if taken[k] {
			reached[gl] = true
		}
	}
	for gl := range c.claimable {
		v := c.res.Verdicts[gl]
		switch {
		case reached[gl]:
		case v.Status == Reachable:
			// A feasible path the closed graph lacks: the abstraction
			// is wrong, and no claim of it can be trusted.
			return fmt.Errorf("mc: goal %v has a feasible path but no edge in the closed graph of %s", gl, c.fn)
		default:
			v = Verdict{Status: Unreachable}
		}
		c.res.Verdicts[gl] = v
	}
	for cg := range c.copyClaim {
		v := c.res.AtCalls[cg]
		switch {
		case c.hits[cg]:
		case v.Status == Reachable:
			return fmt.Errorf("mc: goal %v at a call has a feasible path but no edge in the closed graph of %s", cg.Goal, c.fn)
		default:
			v = Verdict{Status: Unreachable}
		}
		c.res.AtCalls[cg] = v
	}
	arg.Calls = c.callEdges(arg)
	c.res.ARG = arg
	return nil
}

// callEdges decides, at each uncovered node of the closed graph, the
// edges of the callees inlined in its block. It stops at the first
// error (the time bound): the nodes not decided by then have no entry,
// which allows everything there.
func (c *checker) callEdges(arg *ARG) map[int32][]CallEdge {
	out := map[int32][]CallEdge{}
	for n, nd := range arg.Nodes {
		if nd.Cover >= 0 {
			continue
		}
		cs, err := c.a.copiesAt(nd.Block)
		if err != nil {
			return out
		}
		if len(cs) == 0 {
			continue
		}
		es := make([]CallEdge, 0, len(cs))
		for i, cf := range cs {
			hit, err := c.a.hit(nd.State, nd.Block, i, cf)
			if err != nil {
				return out
			}
			es = append(es, CallEdge{Call: cf.Call, Block: cf.Block, Succ: cf.Succ, Hit: hit})
		}
		out[int32(n)] = es
	}
	return out
}

// reached checks the abstract path to node child, whose edge takes goal
// gl: a feasible path decides the goal Reachable; a spurious one is
// refined (refined reports that predicates were added) while the budget
// lasts, and otherwise the goal is given up.
func (c *checker) reached(gl Goal, nodes []Node, child int32) (refined bool, err error) {
	return c.decidePath(gl, nodes, child, nil, func(v Verdict) {
		c.open[gl] = false
		c.res.Verdicts[gl] = v
	})
}

// decidePath checks the abstract path to node n, followed by copy cf of
// an inlined callee's goal when cf is not nil, towards gl. A feasible
// path is settled Reachable, an undecided one given up; a spurious one
// is refined while the budgets last (refined reports new predicates),
// else given up. settle records the verdict and closes the goal.
func (c *checker) decidePath(gl Goal, nodes []Node, n int32, cf *copyForm, settle func(Verdict)) (refined bool, err error) {
	var path []*ssa.BasicBlock
	for m := n; m >= 0; m = nodes[m].Parent {
		path = append(path, nodes[m].Block)
	}
	slices.Reverse(path)
	var cx *counterexample
	var final *sym.Expr
	if cf == nil {
		cx, err = c.a.check(path)
	} else {
		cx, err = c.a.checkCopy(path, *cf)
		final = cf.f
	}
	if err != nil {
		return false, err
	}
	giveUp := func(why string) { settle(Verdict{Why: why}) }
	switch cx.status {
	case solver.Sat:
		settle(Verdict{Status: Reachable, Model: cx.model, Exact: cx.exact})
		return false, nil
	case solver.Unknown:
		giveUp("the solver did not decide the path")
		return false, nil
	}
	if len(c.res.Steps) >= c.opts.MaxRefinements {
		giveUp("refinement budget spent")
		return false, nil
	}
	if len(c.a.preds) >= c.opts.MaxPredicates {
		giveUp("predicate budget spent")
		return false, nil
	}
	core, err := c.a.core(path, cx)
	if err != nil {
		return false, err
	}
	if !c.unrollOK(gl, path, core) {
		giveUp("refinement unrolls a loop")
		return false, nil
	}
	step, err := c.a.refine(path, cx, core, c.opts.MaxPredicates, final)
	if err != nil {
		return false, err
	}
	step.Goal = gl
	if len(step.Added) == 0 {
		giveUp("refinement found no new predicate")
		return false, nil
	}
	c.res.Steps = append(c.res.Steps, step)
	return true, nil
}

// unrollOK counts a refinement towards gl with this core and reports
// whether it is within MaxUnroll.
func (c *checker) unrollOK(gl Goal, path []*ssa.BasicBlock, core []int) bool {
	if !unrolls(c.fn, path, core) {
		return true
	}
	c.unrolled[gl]++
	return c.unrolled[gl] <= c.opts.MaxUnroll
}
