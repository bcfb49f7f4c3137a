package mc

// This file is the monitor of seed 002 §5: the closed ARG read as an
// automaton over the branch outcomes an execution reports, and its replay
// on executed traces.
//
// Monitor states are the uncovered ARG nodes. A node's edge leads to the
// child along it, or to the node that covers the child (E1 and E2 of the
// paper; covers have one step, arg.go). Executions report only the
// outcomes of sites, so the automaton is read at branch level: after an
// outcome the state set is closed under the edges no site reports (jumps,
// Ifs of no site), which makes it a set of nodes. A node whose block ends
// with a site's If waits there for that site's outcome.
//
// A trace is the outcomes one invocation of the function reported, in
// order (sites.Outcome, as workers send them). Outcomes of sites of other
// functions (callees) are skipped; so are the outcomes of sites that
// decide no If of their own (comma-ok assertions, implicit checks that
// pass, joined operands), which do not move the state. An outcome the
// graph cannot map (an unmapped site, a panicking check) makes the replay
// give up: everything is allowed from there (Top). An executed outcome
// the monitor has no edge for means the abstraction is wrong: the replay
// raises an alarm, and a caller must then drop the monitor.
//
// Soundness rests on the ARG's: every execution of the function from its
// entry follows edges of the closed graph (Theorem 1 of the seed), so a
// negation (a prefix of a trace and the other outcome of its next
// branch) that no state of the replayed prefix has an edge for has no
// execution.

import (
	"slices"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/ssa"
)

// Monitor is the automaton of a closed ARG.
type Monitor struct {
	arg *ARG
	g   *cfa.Graph
	// next[n][i] are the states that edge i of node n's block leads to.
	next map[int32][][]int32
	// site is the site whose If ends a block, for the plain Ifs of
	// mapped sites of the function.
	site map[*ssa.BasicBlock]uint32
	// optional are the blocks of site whose outcome a trace may lack
	// (cfa.Branch.Optional: a range loop over a concrete length): the
	// replay waits at them and goes past them at once.
	optional map[*ssa.BasicBlock]bool
	// calls are, by node and static callee, the edges of each call of
	// the callee in the node's block (ARG.Calls), nil for a call with
	// none: made once, as every entry of a callee looks them up.
	calls map[int32]map[*ssa.Function][][]CallEdge
}

// NewMonitor returns the monitor of arg, a closed graph of a function of
// g (Result.ARG).
func NewMonitor(g *cfa.Graph, arg *ARG) *Monitor {
	m := &Monitor{arg: arg, g: g, next: map[int32][][]int32{}, site: map[*ssa.BasicBlock]uint32{}, optional: map[*ssa.BasicBlock]bool{},
		calls: map[int32]map[*ssa.Function][][]CallEdge{}}
	for c := int32(1); c < int32(len(arg.Nodes)); c++ {
		nd := arg.Nodes[c]
		p := nd.Parent
		if m.next[p] == nil {
			m.next[p] = make([][]int32, len(arg.Nodes[p].Block.Succs))
		}
		to := c
		if nd.Cover >= 0 {
			to = nd.Cover
		}
		m.next[p][nd.Via] = append(m.next[p][nd.Via], to)
	}
	for _, id := range g.Mapped() {
		br := g.Branch(id)
		if br.Func != arg.Fn || br.Joined || br.Point || br.Check {
			continue
		}
		for _, b := range append([]*ssa.BasicBlock{br.Block}, br.Also...) {
			m.site[b] = id
			m.optional[b] = br.Optional
		}
	}
	if arg.Calls != nil {
		for n, nd := range arg.Nodes {
			if nd.Cover >= 0 {
				continue
			}
			for _, in := range nd.Block.Instrs {
				c, isCall := in.(*ssa.Call)
				if !isCall || c.Call.StaticCallee() == nil {
					continue
				}
				fn := c.Call.StaticCallee()
				var es []CallEdge
				for _, e := range arg.Calls[int32(n)] {
					if e.Call == c {
						es = append(es, e)
					}
				}
				if m.calls[int32(n)] == nil {
					m.calls[int32(n)] = map[*ssa.Function][][]CallEdge{}
				}
				m.calls[int32(n)][fn] = append(m.calls[int32(n)][fn], es)
			}
		}
	}
	return m
}

// States returns the number of monitor states: the uncovered nodes.
func (m *Monitor) States() int {
	n := 0
	for _, nd := range m.arg.Nodes {
		if nd.Cover < 0 {
			n++
		}
	}
	return n
}

// A Replay is the state of the monitor along a trace.
type Replay struct {
	m   *Monitor
	cur []int32 // nodes waiting at a site's If, or at an exit
	// passed are the nodes the last outcome (or the entry) led through
	// up to cur, cur included: the blocks whose calls the execution may
	// be making before the next outcome.
	passed []int32
	// Top: the replay gave up (an outcome it cannot map); everything is
	// allowed from here.
	Top bool
	// Alarm: an executed outcome had no edge; the monitor is wrong.
	Alarm bool
}

// Start returns the replay at the function's entry.
func (m *Monitor) Start() *Replay {
	r := &Replay{m: m}
	r.cur, r.passed = m.close([]int32{0})
	return r
}

// close returns the nodes reached from from by edges no site reports,
// stopping at nodes whose block ends with a site's If (and also going on
// past an optional one's, whose outcome may not come), and every node it
// went through.
func (m *Monitor) close(from []int32) (out, passed []int32) {
	seen := map[int32]bool{}
	work := slices.Clone(from)
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		passed = append(passed, n)
		b := m.arg.Nodes[n].Block
		if _, ok := m.site[b]; ok || len(m.next[n]) == 0 {
			out = append(out, n)
			if !m.optional[b] {
				continue
			}
		}
		for _, ts := range m.next[n] {
			work = append(work, ts...)
		}
	}
	slices.Sort(out)
	return out, passed
}

// edge returns the plain If site's blocks and successor index for o; ok
// is false when o's site is not a plain If of the function, and mapped
// false when it is no site the graph maps.
func (m *Monitor) edge(o sites.Outcome) (succ int, ok, mapped, ours bool) {
	br := m.g.Branch(o.Site())
	if br == nil {
		return 0, false, false, false
	}
	if br.Func != m.arg.Fn {
		return 0, false, true, false
	}
	if br.Joined || br.Point || br.Check {
		if br.Check && o.Taken() == br.Panics {
			return 0, false, false, true // the function panics: past the graph
		}
		return 0, false, true, true
	}
	if o.Taken() {
		return 0, true, true, true
	}
	return 1, true, true, true
}

// targets returns the states the outcome o leads to from the current
// ones.
func (r *Replay) targets(o sites.Outcome, succ int) []int32 {
	var out []int32
	for _, n := range r.cur {
		if r.m.site[r.m.arg.Nodes[n].Block] != o.Site() {
			continue
		}
		if es := r.m.next[n]; es != nil {
			out = append(out, es[succ]...)
		}
	}
	return out
}

// Step replays one outcome of the trace. It returns false once the replay
// is Top or in Alarm.
func (r *Replay) Step(o sites.Outcome) bool {
	if r.Top || r.Alarm {
		return false
	}
	succ, ok, mapped, ours := r.m.edge(o)
	switch {
	case !mapped:
		r.Top = true
		return false
	case !ours || !ok:
		return true
	}
	next := r.targets(o, succ)
	if len(next) == 0 {
		r.Alarm = true
		r.cur, r.passed = nil, nil
		return false
	}
	r.cur, r.passed = r.m.close(next)
	return true
}

// A CallSite is a node of a caller's graph the execution may be at
// when it enters a callee, with the edges of the callee inlined at one
// call of it in the node's block (CallEdge).
type CallSite struct {
	Node  int32
	Edges []CallEdge
}

// CallContext returns what the graph knows of the invocation of fn the
// execution enters next: for each node it may be at and each call of
// fn in that node's block, the callee's edges inlined there. ok is false
// when the replay knows nothing (Top, Alarm), when no node it may be at
// calls fn, or when one such call has no decided edges (not inlined, or
// a bound stopped the count): the callee's outcomes are then not judged
// by this graph.
func (r *Replay) CallContext(fn *ssa.Function) (ctx []CallSite, ok bool) {
	if r.Top || r.Alarm || r.m.arg.Calls == nil {
		return nil, false
	}
	for _, n := range r.passed {
		for _, es := range r.m.calls[n][fn] {
			if len(es) == 0 {
				return nil, false
			}
			ctx = append(ctx, CallSite{n, es})
		}
	}
	return ctx, len(ctx) > 0
}

// allowsAt reports whether the edges of a call allow outcome o of a plain
// If br of the callee: one of o's edges is allowed or not known.
func allowsAt(es []CallEdge, br *cfa.Branch, o sites.Outcome) bool {
	succ := 1
	if o.Taken() {
		succ = 0
	}
	for _, b := range append([]*ssa.BasicBlock{br.Block}, br.Also...) {
		known := false
		for _, e := range es {
			if e.Block == b && e.Succ == succ {
				if e.Hit {
					return true
				}
				known = true
			}
		}
		if !known {
			return true
		}
	}
	return false
}

// calleeIf returns the branch of o when it is a plain If of fn.
func (m *Monitor) calleeIf(fn *ssa.Function, o sites.Outcome) *cfa.Branch {
	br := m.g.Branch(o.Site())
	if br == nil || br.Func != fn || br.Joined || br.Point || br.Check {
		return nil
	}
	return br
}

// AllowsIn reports whether outcome o of a site of fn may be taken in the
// invocation of fn whose context CallContext gave: at some call site of
// it, one of o's edges is allowed or not known. An outcome that is not a
// plain If of fn is allowed.
func (m *Monitor) AllowsIn(ctx []CallSite, fn *ssa.Function, o sites.Outcome) bool {
	br := m.calleeIf(fn, o)
	if br == nil {
		return true
	}
	for _, cs := range ctx {
		if allowsAt(cs.Edges, br, o) {
			return true
		}
	}
	return false
}

// Took narrows the replay by outcome o, which the invocation of fn whose
// context (from this replay) is ctx took: a node whose every call of fn
// excludes o was not where the execution called fn, and is dropped from
// the current ones. This is how the graph remembers which way a callee
// went (arg.go's callPreds). It is sound only when the nodes that call
// fn are all current ones (the call is in the block whose site's
// outcome comes next, as close stops there), which it checks; a
// current node that calls no fn stays. It returns ctx without the call
// sites of the nodes dropped, the context of the invocation's next
// outcome: a node an earlier outcome of the same invocation dropped is
// neither current nor passed (the caller's replay does not step while
// its callee runs), and is left out of the check.
func (r *Replay) Took(ctx []CallSite, fn *ssa.Function, o sites.Outcome) []CallSite {
	br := r.m.calleeIf(fn, o)
	if br == nil || r.Top || r.Alarm {
		return ctx
	}
	allowed := map[int32]bool{}
	var live []CallSite
	for _, cs := range ctx {
		if !slices.Contains(r.cur, cs.Node) {
			if slices.Contains(r.passed, cs.Node) {
				return ctx
			}
			continue // dropped by an earlier outcome of the invocation
		}
		live = append(live, cs)
		if _, seen := allowed[cs.Node]; !seen {
			allowed[cs.Node] = false
		}
		if allowsAt(cs.Edges, br, o) {
			allowed[cs.Node] = true
		}
	}
	keep := func(n int32) bool { ok, calls := allowed[n]; return !calls || ok }
	cur := r.cur[:0:0]
	for _, n := range r.cur {
		if keep(n) {
			cur = append(cur, n)
		}
	}
	if len(cur) == 0 {
		return ctx // AllowsIn raised the alarm
	}
	passed := r.passed[:0:0]
	for _, n := range r.passed {
		if keep(n) {
			passed = append(passed, n)
		}
	}
	r.cur, r.passed = cur, passed
	var out []CallSite
	for _, cs := range live {
		if keep(cs.Node) {
			out = append(out, cs)
		}
	}
	return out
}

// Allows reports whether outcome o may come next: some current state has
// an edge for it. A replay that is Top or in Alarm allows everything, and
// so does an outcome that is not a plain If of the function.
func (r *Replay) Allows(o sites.Outcome) bool {
	if r.Top || r.Alarm {
		return true
	}
	succ, ok, _, ours := r.m.edge(o)
	if !ok || !ours {
		return true
	}
	return len(r.targets(o, succ)) > 0
}

// Allowed replays prefix, the outcomes an execution reported, and
// reports whether target may come after it: the negation that flips the
// branch after prefix has an edge in the monitor. alarm reports that the
// prefix itself left the monitor (the model is wrong: drop the monitor);
// allowed is then true.
func (m *Monitor) Allowed(prefix []sites.Outcome, target sites.Outcome) (allowed, alarm bool) {
	r := m.Start()
	for _, o := range prefix {
		if !r.Step(o) {
			break
		}
	}
	return r.Allows(target), r.Alarm
}

// Distances are the distances of a monitor's states to a set of goals.
type Distances struct {
	goal map[edgeKey]bool
	// dist is, by state, the least number of site outcomes an
	// execution takes from it up to and including a goal; cfa.Far when
	// no path of the monitor reaches one.
	dist map[int32]int
}

// Distances computes the distances of every state to goals (plain Ifs
// of the function). Only the function's own goals count: a call may
// reach others, so Far says nothing about goals elsewhere.
func (m *Monitor) Distances(goals []Goal) *Distances {
	d := &Distances{goal: map[edgeKey]bool{}, dist: map[int32]int{}}
	for _, gl := range goals {
		br := m.g.Branch(gl.Site)
		if br == nil || br.Func != m.arg.Fn || br.Joined || br.Point || br.Check {
			continue
		}
		succ := 1
		if gl.Taken {
			succ = 0
		}
		for _, b := range append([]*ssa.BasicBlock{br.Block}, br.Also...) {
			d.goal[edgeKey{b, succ}] = true
		}
	}
	for n, nd := range m.arg.Nodes {
		if nd.Cover < 0 {
			d.dist[int32(n)] = cfa.Far
		}
	}
	// Relax to a fixpoint: the graphs are small, and an edge costs 1
	// when a site reports it, 0 otherwise.
	for changed := true; changed; {
		changed = false
		for n, es := range m.next {
			b := m.arg.Nodes[n].Block
			cost := 0
			if _, ok := m.site[b]; ok {
				cost = 1
			}
			for i, ts := range es {
				best := d.through(edgeKey{b, i}, ts, cost)
				if best < d.dist[n] {
					d.dist[n], changed = best, true
				}
			}
		}
	}
	return d
}

// through is the distance from taking edge k, which leads to states ts
// and costs cost.
func (d *Distances) through(k edgeKey, ts []int32, cost int) int {
	if len(ts) == 0 {
		return cfa.Far
	}
	if d.goal[k] {
		return cost
	}
	best := cfa.Far
	for _, t := range ts {
		if d.dist[t] < cfa.Far {
			best = min(best, d.dist[t]+cost)
		}
	}
	return best
}

// Distance returns the least number of site outcomes from taking o next
// up to a goal of d, o included: 1 when o is a goal itself, cfa.Far when
// o has no edge or no state it leads to reaches a goal. ok is false when
// the replay knows nothing (Top, Alarm, or o is not a plain If of the
// function).
func (r *Replay) Distance(o sites.Outcome, d *Distances) (dist int, ok bool) {
	if r.Top || r.Alarm {
		return 0, false
	}
	succ, plain, _, ours := r.m.edge(o)
	if !plain || !ours {
		return 0, false
	}
	dist = cfa.Far
	for _, n := range r.cur {
		b := r.m.arg.Nodes[n].Block
		if r.m.site[b] != o.Site() || r.m.next[n] == nil {
			continue
		}
		dist = min(dist, d.through(edgeKey{b, succ}, r.m.next[n][succ], 1))
	}
	return dist, true
}
