// Package explore keeps the execution tree of a concolic testing run and
// decides which unexplored branch side to try next.
//
// The tree follows seed 004 §2–4 (after the LIME Concolic Tester). Every
// executed path, the sequence of symbolic branches it took, is merged into
// a tree of branch occurrences; the untaken side of each new node becomes
// a Candidate. Tree.Query gives the path condition of a candidate, from
// which a solver derives the input of the next execution, and Tree.Record
// merges that execution's path back in. A Candidate carries the branch
// bit-vector its execution is expected to produce; Record compares it
// with what really happened, so that a diverging run is counted and never
// credited to the wrong node.
//
// A Strategy orders the candidates (New and Names list them: Cover, the
// default; DFS, BFS and Random; CREST's RandomBranch and UniformRandom,
// SAGE's Generational, the LIME tester's Priority, and the directed CFDS
// and CGS, which read a Static graph of the program). After every
// execution, and every query the solver answers without one, the caller
// gives it a Feedback (Strategy.Update, after KLEE's Searcher::update):
// the new candidates, the path as the tree holds it (Outcome.Leaf), the
// hit counts and the new coverage, from which a strategy keeps what its
// order needs. The strategies that follow one execution's path find its
// candidates on its nodes (Node.Candidate). Neither the tree nor the
// strategies are safe for concurrent use: the coordinator owns them and
// serialises the results of its workers.
package explore

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// A Branch is one symbolic branch taken by an execution.
type Branch struct {
	// Site is the static id of the branch site: an if condition atom, a
	// loop condition, or an implicit check such as index bounds.
	Site uint32
	// Taken is the outcome: true if the branch went the true way.
	Taken bool
	// Cond is a non-nil boolean term that holds iff the branch goes the
	// true way; the step's constraint is Cond if Taken, else its negation.
	Cond *sym.Expr
}

// State is what is known about one side of a node.
type State uint8

// The states of a side.
const (
	Unknown    State = iota // not seen
	Open                    // seen as the other side of an executed branch, not tried yet
	Covered                 // an execution took it
	Pending                 // handed out as a candidate, awaiting the solver or the execution
	Infeasible              // the solver proved it unreachable
	Failed                  // the solver gave up, or the execution meant to reach it diverged
	numStates
)

var stateNames = [numStates]string{"unknown", "open", "covered", "pending", "infeasible", "failed"}

func (s State) String() string {
	if s < numStates {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Options configure a Tree.
type Options struct {
	// MaxDepth bounds how many branches of a path the tree records; the
	// branches after the first MaxDepth make no nodes and no candidates.
	// 0 means unlimited.
	MaxDepth int
}

// A Node is one occurrence of a symbolic branch: the branch at position
// Depth of every path that passes through it. Its fields are read-only.
type Node struct {
	Site  uint32
	Cond  *sym.Expr // as recorded by the execution that created the node
	Depth int       // number of branches before it; the root has depth 0

	parent *Node
	side   bool // the outcome of parent that leads here
	child  [2]*Node
	state  [2]State
	cand   *Candidate // the side Record opened when it made the node, nil if none
}

func index(side bool) int {
	if side {
		return 1
	}
	return 0
}

// Parent returns the node's parent, nil for the root.
func (n *Node) Parent() *Node { return n.parent }

// Child returns the node reached by taking side, nil if none was recorded.
func (n *Node) Child(side bool) *Node { return n.child[index(side)] }

// State returns the state of side.
func (n *Node) State(side bool) State { return n.state[index(side)] }

// Side returns the outcome of the parent that leads to n (false for the
// root).
func (n *Node) Side() bool { return n.side }

// Candidate returns the candidate Record opened for the side the
// execution that made n did not take, nil if that side folded to false.
// Strategies that walk a path (random-branch, cfds, ...) find its
// candidates this way; the candidate may have left Open since.
func (n *Node) Candidate() *Candidate { return n.cand }

// Path returns the nodes from the root down to n, root first.
func (n *Node) Path() []*Node {
	if n == nil {
		return nil
	}
	p := make([]*Node, n.Depth+1)
	for m := n; m != nil; m = m.parent {
		p[m.Depth] = m
	}
	return p
}

// A Candidate is an Open side of a node that no execution has taken yet.
type Candidate struct {
	Node *Node
	Side bool
	// Base is the input of the execution that discovered the candidate. A
	// solver model sets only the variables of the query; the others keep
	// these values. It is shared, not copied: do not modify it.
	Base sym.Env
	// Expect is the branch bit-vector an execution reaching the candidate
	// produces up to and including the candidate's node.
	Expect Prediction
	tree   *Tree
	// novel is set by Cover when reaching the candidate promises
	// something new beyond branch coverage; noveltyKey names that new
	// thing, so that Cover can ask later whether it is still new.
	novel      bool
	noveltyKey uint32
}

// State returns the state of the candidate's side.
func (c *Candidate) State() State { return c.Node.State(c.Side) }

// Depth returns the depth of the candidate's node.
func (c *Candidate) Depth() int { return c.Node.Depth }

func (c *Candidate) String() string {
	return fmt.Sprintf("site %d depth %d side %t (%s)", c.Node.Site, c.Node.Depth, c.Side, c.State())
}

// claim hands the candidate out: it marks an Open side Pending and reports
// whether it was Open.
func (c *Candidate) claim() bool {
	if c.State() != Open {
		return false
	}
	c.tree.set(c.Node, c.Side, Pending)
	return true
}

// Outcome is what Record learnt from one execution.
type Outcome struct {
	// NewPath reports that no earlier execution had the same full sequence
	// of (site, outcome), even beyond MaxDepth.
	NewPath bool
	// NewCandidates are the Open sides of the nodes this execution created,
	// root first. The caller adds them to its Strategy.
	NewCandidates []*Candidate
	// Reached reports that the execution took the origin's side.
	Reached bool
	// Diverged reports that the execution did not follow the origin's
	// prediction up to and including the origin's depth; DivergedAt is the
	// first depth where it departed (-1 unless Diverged).
	Diverged   bool
	DivergedAt int
	// DivergedSite is the branch site the prediction had at depth
	// DivergedAt: where the execution left the path its input was
	// solved for (meaningful only when Diverged).
	DivergedSite uint32
	// Inconsistent reports that at depth InconsistentAt (-1 unless
	// Inconsistent) the execution took a different branch site than the
	// tree holds after the same outcomes; the path was recorded only up
	// to there.
	Inconsistent   bool
	InconsistentAt int
	// Truncated reports that the path was longer than MaxDepth.
	Truncated bool
	// Leaf is the node of the last branch Record walked through (nil for
	// a path without symbolic branches): Leaf.Path() is the path as the
	// tree holds it.
	Leaf *Node
}

// Stats summarises a Tree. The side counts are of node sides in each state.
type Stats struct {
	Runs            int // executions recorded
	Paths           int // distinct paths among them
	Nodes           int
	Open            int // sides waiting to be tried
	Pending         int
	Covered         int
	Infeasible      int
	Settled         int // of the Infeasible, those Record settled with no query
	Failed          int
	Divergences     int // executions that missed their origin's prediction
	Inconsistencies int // executions whose branch sites contradicted the tree
	Truncated       int // executions cut at MaxDepth
}

// A Tree is the execution tree of one exploration.
type Tree struct {
	b    *sym.Builder
	opts Options
	root *Node

	// paths holds a 128-bit FNV-1a hash of each distinct (site, outcome)
	// sequence seen; a collision is astronomically unlikely and would only
	// misreport NewPath.
	paths map[[16]byte]struct{}

	sides           [numStates]int // node sides in each state
	nodes           int
	runs            int
	divergences     int
	inconsistencies int
	cut             int // runs truncated at MaxDepth
	settled         int // sides Record made Infeasible with no query

	// facts remembers what each branch condition says about one term
	// (factOf), since the same conditions recur on every path.
	facts map[*sym.Expr]termFact
	// assumed are conditions every query is solved under (Assume).
	assumed []*sym.Expr
}

// NewTree returns an empty tree. The branch conditions given to Record
// must be made by b, which Query uses to negate them.
func NewTree(b *sym.Builder, opts Options) *Tree {
	return &Tree{b: b, opts: opts, paths: make(map[[16]byte]struct{})}
}

// Assume adds conditions that every query the tree's candidates lead to
// is solved under, besides their path (the inputs' domain: a length at
// most the largest input). Record uses them to settle sides they exclude:
// a length the prefix bounds below is excluded from a wrapped-around value
// only by them.
func (t *Tree) Assume(cs ...*sym.Expr) { t.assumed = append(t.assumed, cs...) }

// Root returns the node of the first branch, nil before any branch is
// recorded.
func (t *Tree) Root() *Node { return t.root }

// Stats returns the tree's counters.
func (t *Tree) Stats() Stats {
	return Stats{
		Runs:            t.runs,
		Paths:           len(t.paths),
		Nodes:           t.nodes,
		Open:            t.sides[Open],
		Pending:         t.sides[Pending],
		Covered:         t.sides[Covered],
		Infeasible:      t.sides[Infeasible],
		Settled:         t.settled,
		Failed:          t.sides[Failed],
		Divergences:     t.divergences,
		Inconsistencies: t.inconsistencies,
		Truncated:       t.cut,
	}
}

// set changes the state of one side, keeping the counters in step.
func (t *Tree) set(n *Node, side bool, s State) {
	i := index(side)
	if old := n.state[i]; old != Unknown {
		t.sides[old]--
	}
	n.state[i] = s
	t.sides[s]++
}

// Record merges the path of one execution, run on input, into the tree.
// origin is the candidate the execution was meant to reach, nil for a seed.
//
// Walking from the root, Record marks each taken side Covered and creates
// missing nodes, opening their other side as a new candidate. If the tree's
// node at some depth has another site than the path's branch, the walk
// stops there: nothing below it is recorded. If the execution did not
// reach the origin's side, the origin is marked Failed (unless another
// execution covered it meanwhile), so a diverged run is never credited to
// it; its path is still recorded where it really went.
//
// Record keeps input as the Base of the new candidates; the caller must not
// modify it afterwards.
func (t *Tree) Record(path []Branch, input sym.Env, origin *Candidate) Outcome {
	t.runs++
	out := Outcome{DivergedAt: -1, InconsistentAt: -1}
	out.NewPath = t.addPath(path)

	n := len(path)
	if t.opts.MaxDepth > 0 && n > t.opts.MaxDepth {
		n = t.opts.MaxDepth
		out.Truncated = true
		t.cut++
	}

	var bits []uint64        // packed outcomes of path[:n], shared by the new candidates
	var decided *prefixFacts // what path[:d] decided, filled when first needed
	var parent *Node
	for d, br := range path[:n] {
		var nd *Node
		if parent == nil {
			nd = t.root
		} else {
			nd = parent.child[index(path[d-1].Taken)]
		}
		switch {
		case nd == nil:
			nd = &Node{Site: br.Site, Cond: br.Cond, Depth: d, parent: parent}
			if parent == nil {
				t.root = nd
			} else {
				nd.side = path[d-1].Taken
				parent.child[index(nd.side)] = nd
			}
			t.nodes++
			t.set(nd, br.Taken, Covered)
			other := !br.Taken
			if decided == nil && !br.Cond.IsConst() {
				decided = &prefixFacts{t: t, held: make(map[*sym.Expr]bool, d), bytes: make(map[*sym.Expr]byteSet), vals: make(map[*sym.Expr]ranges)}
				for _, c := range t.assumed {
					decided.add(Branch{Cond: c, Taken: true})
				}
				for _, p := range path[:d] {
					decided.add(p)
				}
			}
			if constFalse(br.Cond, other) || decided.refutes(br) {
				// The other side's goal folded to false, or the prefix
				// contradicts it on its face: no solver needed.
				t.set(nd, other, Infeasible)
				t.settled++
			} else {
				t.set(nd, other, Open)
				if bits == nil {
					bits = pack(path[:n])
				}
				nd.cand = &Candidate{
					Node:   nd,
					Side:   other,
					Base:   input,
					Expect: Prediction{prefix: bits, n: d + 1, last: other},
					tree:   t,
				}
				out.NewCandidates = append(out.NewCandidates, nd.cand)
			}
		case nd.Site != br.Site:
			t.inconsistencies++
			out.Inconsistent = true
			out.InconsistentAt = d
		default:
			t.set(nd, br.Taken, Covered)
		}
		if out.Inconsistent {
			break
		}
		if decided != nil {
			decided.add(br)
		}
		if origin != nil && nd == origin.Node && br.Taken == origin.Side {
			out.Reached = true
		}
		parent = nd
		out.Leaf = nd
	}

	if origin != nil {
		at := origin.Expect.Mismatch(path)
		if out.Inconsistent && out.InconsistentAt < origin.Expect.Len() && (at < 0 || out.InconsistentAt < at) {
			// Same outcomes, different branch statement: the run did
			// not go where the prediction meant either.
			at = out.InconsistentAt
		}
		if at >= 0 {
			out.Diverged = true
			out.DivergedAt = at
			out.DivergedSite = predictedSite(origin, at)
			t.divergences++
		}
		if !out.Reached {
			if s := origin.State(); s == Open || s == Pending {
				t.set(origin.Node, origin.Side, Failed)
			}
		}
	}
	return out
}

// prefixFacts are what the branches of a path prefix decided, in the two
// forms whose contradiction needs no solver: a condition term held or not,
// and the values the prefix's conditions leave one term (Tree.factOf).
type prefixFacts struct {
	t     *Tree
	held  map[*sym.Expr]bool    // condition, without negations -> its value
	bytes map[*sym.Expr]byteSet // 8-bit term -> the values the prefix leaves it
	vals  map[*sym.Expr]ranges  // wider variable -> the values the prefix leaves it
}

// add notes the outcome of br.
func (f *prefixFacts) add(br Branch) { f.note(br.Cond, br.Taken) }

// note notes that cond has the value held: the condition itself, and what
// it says about one term; both parts of a conjunction that held (a string
// compared with a constant: its length and its bytes), of a disjunction
// that did not.
func (f *prefixFacts) note(cond *sym.Expr, held bool) {
	c, held := bare(cond, held)
	f.held[c] = held
	if len(c.Args) == 2 && (c.Kind == sym.KLAnd && held || c.Kind == sym.KLOr && !held) {
		f.note(c.Args[0], held)
		f.note(c.Args[1], held)
		return
	}
	fact := f.t.factOf(c)
	if fact.t == nil {
		return
	}
	if !held {
		fact = fact.not()
	}
	if fact.t.Width == 8 {
		if old, ok := f.bytes[fact.t]; ok {
			fact.bytes = fact.bytes.and(old)
		}
		f.bytes[fact.t] = fact.bytes
		return
	}
	if old, ok := f.vals[fact.t]; ok {
		fact.vals = fact.vals.and(old)
	}
	f.vals[fact.t] = fact.vals
}

// refutes reports whether the other side of br contradicts the prefix:
// the very same term decided the way br took it (a loop or a repeated
// check), or a condition on one term that no value the prefix leaves that
// term satisfies (a byte read as '"' compared with '}', a digit compared
// with ']', a byte whose class a table lookup gave compared with a byte
// of another class, an input length at least 2 compared with 1), or that
// no value of that term satisfies at all; a conjunction one of whose
// parts is refuted, a disjunction both of whose are.
// A term the prefix decided the other way, or left no value, is left to
// the solver: the execution was not consistent.
func (f *prefixFacts) refutes(br Branch) bool {
	if f == nil {
		return false
	}
	return f.excludes(br.Cond, !br.Taken)
}

// excludes reports whether the prefix excludes that cond has the value
// want.
func (f *prefixFacts) excludes(cond *sym.Expr, want bool) bool {
	c, want := bare(cond, want)
	if h, ok := f.held[c]; ok && h != want {
		return true
	}
	if len(c.Args) == 2 && (c.Kind == sym.KLAnd || c.Kind == sym.KLOr) {
		if (c.Kind == sym.KLAnd) == want { // both parts must have the value want
			return f.excludes(c.Args[0], want) || f.excludes(c.Args[1], want)
		}
		return f.excludes(c.Args[0], want) && f.excludes(c.Args[1], want)
	}
	fact := f.t.factOf(c)
	return f.factExcludes(fact, want) || f.evalExcludes(c, fact, want)
}

// factExcludes reports whether no value the prefix leaves fact's term
// gives its condition the value want.
func (f *prefixFacts) factExcludes(fact termFact, want bool) bool {
	if fact.t == nil {
		return false
	}
	if !want {
		fact = fact.not()
	}
	// A value no value of the term gives (a byte's index into a
	// 256-entry table out of range) needs no prefix to be excluded.
	if fact.t.Width == 8 {
		old, ok := f.bytes[fact.t]
		return fact.bytes.empty() || ok && !old.empty() && old.and(fact.bytes).empty()
	}
	old, ok := f.vals[fact.t]
	return len(fact.vals) == 0 || ok && len(old) > 0 && len(old.and(fact.vals)) == 0
}

// maxEvalWork bounds the terms evalExcludes evaluates for one condition:
// its size times the values it is evaluated at (about 0.1 ms), since a
// new path asks it once for each of its new nodes.
const maxEvalWork = 1 << 14

// evalExcludes reports whether c, over one variable wider than a byte,
// has the value want at none of the values the prefix leaves that
// variable, when they are few enough to try each (an input length the
// domain bounds): a reader's position min(n, 4096) against the length n,
// which the bounds of neither term decide.
func (f *prefixFacts) evalExcludes(c *sym.Expr, fact termFact, want bool) bool {
	v := fact.only
	if v == nil || fact.t == v {
		// A bound on the variable itself is exact: factExcludes decided.
		return false
	}
	rs, ok := f.vals[v]
	if !ok || len(rs) == 0 {
		return false
	}
	work := 0
	for _, r := range rs {
		if r.hi-r.lo >= maxEvalWork {
			return false
		}
		if work += int(r.hi-r.lo+1) * fact.size; work > maxEvalWork {
			return false
		}
	}
	env := sym.Env{}
	for _, r := range rs {
		for x := r.lo; ; x++ {
			env[v.Val] = x
			if sym.Holds(c, env) == want {
				return false
			}
			if x == r.hi {
				break
			}
		}
	}
	return true
}

// bare strips the negations off cond and returns it with the value it has
// when the branch goes the taken way.
func bare(cond *sym.Expr, taken bool) (*sym.Expr, bool) {
	for cond.Kind == sym.KNot {
		cond, taken = cond.Args[0], !taken
	}
	return cond, taken
}

// constFalse reports whether the constraint of taking side of cond is the
// constant false.
func constFalse(cond *sym.Expr, side bool) bool {
	if side {
		return cond.Kind == sym.KFalse
	}
	return cond.Kind == sym.KTrue
}

// PathKey returns a hash of the (site, outcome) sequence of path: two
// executions took the same path when their keys are equal.
func PathKey(path []Branch) [16]byte {
	h := fnv.New128a()
	var rec [5]byte
	for _, br := range path {
		binary.LittleEndian.PutUint32(rec[:4], br.Site)
		rec[4] = 0
		if br.Taken {
			rec[4] = 1
		}
		h.Write(rec[:])
	}
	var key [16]byte
	h.Sum(key[:0])
	return key
}

// addPath notes the (site, outcome) sequence of path and reports whether
// it is new.
func (t *Tree) addPath(path []Branch) bool {
	key := PathKey(path)
	if _, ok := t.paths[key]; ok {
		return false
	}
	t.paths[key] = struct{}{}
	return true
}

// orient returns the constraint of taking side of cond.
func (t *Tree) orient(cond *sym.Expr, side bool) *sym.Expr {
	if side {
		return cond
	}
	return t.b.Not(cond)
}

// Query returns the solver query for reaching c: the oriented conditions
// of the branches leading to its node, root first, and as Goal the
// condition of its node oriented to c.Side; its Seed is c.Base.
func (t *Tree) Query(c *Candidate) solver.Query {
	n := c.Node
	cs := make([]*sym.Expr, n.Depth)
	for m := n; m.parent != nil; m = m.parent {
		cs[m.parent.Depth] = t.orient(m.parent.Cond, m.side)
	}
	return solver.Query{Constraints: cs, Goal: t.orient(n.Cond, c.Side), Seed: c.Base}
}

// Resolve records the solver's answer to c's query: Unsat makes the side
// Infeasible, Unknown makes it Failed, and Sat leaves it Pending until the
// execution's Record tells. A side an execution has covered meanwhile
// keeps its state.
func (t *Tree) Resolve(c *Candidate, st solver.Status) {
	if s := c.State(); s != Open && s != Pending {
		return
	}
	switch st {
	case solver.Unsat:
		t.set(c.Node, c.Side, Infeasible)
	case solver.Sat:
		t.set(c.Node, c.Side, Pending)
	default:
		t.set(c.Node, c.Side, Failed)
	}
}

// predictedSite returns the site of the node the prediction of origin
// has at depth at, an ancestor of origin's node (or that node).
func predictedSite(origin *Candidate, at int) uint32 {
	n := origin.Node
	for n.parent != nil && n.Depth > at {
		n = n.parent
	}
	return n.Site
}
