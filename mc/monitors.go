package mc

// This file is the product of the monitors with the program, on the fly
// (seed 002, Algorithm 3 line 14): the coordinator hands it the outcome
// sequence of each traced execution (rt.Response.Outcomes), with the
// entries and returns of the functions marked by their entry sites
// (sites.Func), and learns, for each symbolic branch of the execution's
// path, whether the other outcome has an edge in the monitor of the
// function that took it. One invocation is replayed by its function's
// monitor from the function's entry; outcomes of its callees belong to
// their own invocations.
//
// Calls. A callee that starts only through static calls of marked
// functions (calleeOK) is also judged by its caller's graph at the call
// it came from: the caller's graph inlined the callee there and decided,
// at each node, which of the callee's edges its state allows
// (ARG.Calls). A negation of the callee's that no node the caller's
// replay may be at allows is pruned by the caller's monitor; the
// callee's executed outcomes narrow the caller's replay to the nodes
// that allow them (Replay.Took), which is how an earlier call's outcome
// reaches a later call's judgement (simple-while's at past the end of
// its input). A recursive call, a call not inlined, a callee that may
// start otherwise (a function value, a go or defer statement) or a
// caller's replay that gave up judges nothing.
//
// Soundness: a negation is pruned only when the replay of its own
// invocation is exact up to it (the function has a monitor that has not
// been dropped, the replay is neither Top nor in alarm, the event's own
// outcome is where the trace says it is), and the monitor has no edge
// for the other outcome; or when the caller's replay was exact at the
// call and its graph excludes the other outcome there. An executed
// outcome without an edge, or a callee's executed outcome the caller's
// graph excludes at the call, drops that monitor for the rest of the
// run (an alarm); the caller must then take back the negations it
// pruned.

import (
	"go/token"
	"sync"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/ssa"
)

// Monitors are the monitors of a run's functions, by entry site. They
// are safe for concurrent use: a model-checking round may Update them
// while the coordinator replays executions.
type Monitors struct {
	g  *cfa.Graph
	mu sync.Mutex
	// entry maps each entry site of the table to its monitor's index in
	// mons, -1 while its function has none; at maps the entry sites'
	// positions to them.
	entry map[uint32]int
	at    map[place]uint32
	// std are the sites of standard packages instrumented in place:
	// the outcomes of a callee there, whose entry and return no marker
	// tells, belong to no monitored function, and are skipped instead
	// of making the caller's replay give up as an unmapped site does.
	std     map[uint32]bool
	mons    []*Monitor
	names   []string
	dropped []bool
	// fnOf maps the entry sites to their functions; inCtx says, by
	// function, whether a caller's graph may judge its invocations
	// (calleeOK).
	fnOf  map[uint32]*ssa.Function
	inCtx map[*ssa.Function]bool
}

// place is a position in a file.
type place struct {
	file string
	off  int
}

// NewMonitors returns the monitors of graphs, closed graphs of functions
// of g (Summary.Graphs), keyed by the entry sites (sites.Func) of table
// at their functions' positions. A graph whose function has no entry
// site gets no monitor: its calls cannot be told apart.
func NewMonitors(g *cfa.Graph, table []sites.Site, graphs []*ARG) *Monitors {
	ms := &Monitors{g: g, entry: map[uint32]int{}, at: map[place]uint32{}, std: map[uint32]bool{},
		fnOf: map[uint32]*ssa.Function{}, inCtx: map[*ssa.Function]bool{}}
	for _, s := range table {
		if s.Std {
			ms.std[s.ID] = true
		}
		if s.Kind == sites.Func {
			ms.entry[s.ID] = -1
			ms.at[place{s.Pos.Filename, s.Pos.Offset}] = s.ID
		}
	}
	for _, fn := range g.Funcs() {
		if site, ok := ms.siteOf(fn); ok {
			ms.fnOf[site] = fn
		}
	}
	ms.Update(graphs)
	return ms
}

// siteOf returns the entry site of fn.
func (ms *Monitors) siteOf(fn *ssa.Function) (uint32, bool) {
	if fn == nil || fn.Syntax() == nil {
		return 0, false
	}
	p := ms.g.Prog.Fset.Position(fn.Syntax().Pos())
	site, ok := ms.at[place{p.Filename, p.Offset}]
	return site, ok
}

// calleeOK reports whether an invocation of fn that enters in a
// caller's frame can be told apart by the caller's graph: fn starts only
// through static calls (cfa.Graph.StaticCalls: no function value, go or
// defer statement names it, so no goroutine, deferred or library call
// starts it), and each function making those calls has an entry marker,
// so that the entry comes in the frame of the call's own function.
func (ms *Monitors) calleeOK(fn *ssa.Function) bool {
	if ok, seen := ms.inCtx[fn]; seen {
		return ok
	}
	calls, ok := ms.g.StaticCalls(fn)
	ok = ok && len(calls) > 0
	for _, c := range calls {
		if _, marked := ms.siteOf(c.Parent()); !marked {
			ok = false
		}
	}
	ms.inCtx[fn] = ok
	return ok
}

// Update replaces the monitors of the functions of graphs, closed
// graphs of a later round, and adds those of functions that had none.
// A monitor dropped after an alarm stays dropped: the model of its
// function was wrong once. The indices of the others stay.
func (ms *Monitors) Update(graphs []*ARG) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	fset := ms.g.Prog.Fset
	for _, a := range graphs {
		if a == nil || a.Fn.Syntax() == nil {
			continue
		}
		site, ok := ms.siteOf(a.Fn)
		if !ok {
			continue
		}
		m := NewMonitor(ms.g, a)
		switch i := ms.entry[site]; {
		case i < 0:
			ms.entry[site] = len(ms.mons)
			ms.mons = append(ms.mons, m)
			ms.names = append(ms.names, funcName(a.Fn, fset))
			ms.dropped = append(ms.dropped, false)
		case !ms.dropped[i]:
			ms.mons[i] = m
		}
	}
}

// funcName names fn with its position, for reports.
func funcName(fn *ssa.Function, fset *token.FileSet) string {
	return fn.String() + " (" + fset.Position(fn.Pos()).String() + ")"
}

// Len returns the number of monitors.
func (ms *Monitors) Len() int {
	if ms == nil {
		return 0
	}
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return len(ms.mons)
}

// Name returns the function of monitor i, with its position.
func (ms *Monitors) Name(i int) string {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return ms.names[i]
}

// frame is one invocation being replayed.
type frame struct {
	entry uint32
	mon   int // -1: no monitor
	r     *Replay
	// fn is the invocation's function; ctx, when ctxMon is not -1, what
	// the graph of its caller (monitor ctxMon) knows of its edges at the
	// calls it may have come from (Replay.CallContext).
	fn     *ssa.Function
	ctx    []CallSite
	ctxMon int
	caller *Replay // the caller's replay, which ctx came from
}

// Prune replays one execution's outcome sequence (cut: it stopped at
// its bound) and returns, for each event of path (its symbolic branches,
// At placing them in outs), the monitor that has no edge for the
// event's other outcome, or -1; and the monitors the execution raised an
// alarm in, which are dropped from now on.
func (ms *Monitors) Prune(outs []uint32, cut bool, path []rt.WireEvent) (by []int, alarms []int) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	by = make([]int, len(path))
	for i := range by {
		by[i] = -1
	}
	// own is the place in outs of event j's own outcome, -1 when it has
	// none (a branch no site reports as an outcome: an implicit check, a
	// model's condition) or its place is lost past the cut.
	own := func(j int) int {
		e := path[j]
		at := int(e.At)
		if at == 0 || at > len(outs) || cut && at == len(outs) || outs[at-1] != uint32(sites.OutcomeOf(e.Site, e.Taken)) {
			return -1
		}
		return at - 1
	}
	var stack []frame
	// judge decides event j, whose own outcome comes next.
	judge := func(j int) {
		if len(stack) == 0 {
			return
		}
		f := stack[len(stack)-1]
		e := path[j]
		if f.mon >= 0 && !ms.dropped[f.mon] && !f.r.Top && !f.r.Alarm {
			if _, plain, _, ours := f.r.m.edge(sites.OutcomeOf(e.Site, e.Taken)); plain && ours && !f.r.Allows(sites.OutcomeOf(e.Site, !e.Taken)) {
				by[j] = f.mon
				return
			}
		}
		// The caller's graph at the call: the event's own outcome must
		// be a plain If of the callee, as the other is.
		if f.ctxMon < 0 || ms.dropped[f.ctxMon] {
			return
		}
		cm := ms.mons[f.ctxMon]
		if br := ms.g.Branch(e.Site); br == nil || br.Func != f.fn || br.Joined || br.Point || br.Check {
			return
		}
		if !cm.AllowsIn(f.ctx, f.fn, sites.OutcomeOf(e.Site, !e.Taken)) {
			by[j] = f.ctxMon
		}
	}
	j := 0
	for i, o := range outs {
		// The events are in order and their places grow.
		for ; j < len(path) && own(j) <= i; j++ {
			if own(j) == i {
				judge(j)
			}
		}
		site := o >> 1
		if m, ok := ms.entry[site]; ok {
			if o&1 == 1 {
				f := frame{entry: site, mon: m, fn: ms.fnOf[site], ctxMon: -1}
				if m >= 0 && !ms.dropped[m] {
					f.r = ms.mons[m].Start()
				} else {
					f.mon = -1
				}
				if len(stack) > 0 && f.fn != nil && ms.calleeOK(f.fn) {
					if c := stack[len(stack)-1]; c.mon >= 0 && !ms.dropped[c.mon] {
						if ctx, ok := c.r.CallContext(f.fn); ok {
							f.ctx, f.ctxMon, f.caller = ctx, c.mon, c.r
						}
					}
				}
				stack = append(stack, f)
				continue
			}
			// A return pops its invocation, and any above it whose
			// return went unmarked.
			for k := len(stack) - 1; k >= 0; k-- {
				if stack[k].entry == site {
					stack = stack[:k]
					break
				}
			}
			continue
		}
		if len(stack) == 0 || ms.std[site] {
			continue
		}
		f := &stack[len(stack)-1]
		// An outcome of the callee its caller's graph excludes at the
		// call: that graph is wrong.
		if f.ctxMon >= 0 && !ms.dropped[f.ctxMon] {
			if !ms.mons[f.ctxMon].AllowsIn(f.ctx, f.fn, sites.Outcome(o)) {
				ms.dropped[f.ctxMon] = true
				alarms = append(alarms, f.ctxMon)
			} else {
				f.ctx = f.caller.Took(f.ctx, f.fn, sites.Outcome(o))
			}
		}
		if f.mon < 0 || ms.dropped[f.mon] {
			continue
		}
		f.r.Step(sites.Outcome(o))
		if f.r.Alarm {
			ms.dropped[f.mon] = true
			alarms = append(alarms, f.mon)
			f.mon = -1
		}
	}
	return by, alarms
}
