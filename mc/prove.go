package mc

// This file runs the model checker over every function of a graph before
// testing starts (-abstraction): the goals are the outcomes of the
// condition sites, the claims are the goals each function's closed
// graph leaves out. Such a claim holds for every call of the function
// whatever its caller passes, since parameters are free (calls the
// encoder does not inline, and memory it does not know, are havoc).
//
// A function that only static calls can start (cfa.Graph.StaticCalls)
// is also checked at those calls: each caller's graph inlines it and
// decides its goals there (Result.AtCalls). A goal is claimed when its
// function's own graph leaves it out, or when every such call's does:
// every execution that runs the function entered it through one of
// those calls.

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver/z3"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// Summary counts what a Prove run did.
type Summary struct {
	Functions   int // functions checked
	Goals       int // goals given to them
	Unreachable int
	Reachable   int
	Refinements int
	Predicates  int // over all functions
	// Incomplete counts the functions whose run a bound stopped (time
	// included): nothing is claimed in them.
	Incomplete int
	// Skipped counts the functions left out when the budget ran out.
	Skipped int
	Time    time.Duration
	// Nodes counts the nodes of the closed graphs.
	Nodes int
	// Rounds counts the rounds during testing a caller ran beside the
	// one this summary began with (the session's alternation).
	Rounds int
	// ByCalls counts the Unreachable goals proved at the calls of their
	// function and not by its own graph.
	ByCalls int
	// Local counts the Unreachable goals proved by the straight code
	// before them (ProveLocal), with no graph.
	Local int
	// Coarse counts the functions whose graph is the coarse one (no
	// refinement), their refined run having been stopped by a bound;
	// Incomplete counts those where both were.
	Coarse int
	// Graphs are the closed graphs, one per function whose run closed
	// one: the monitors' (NewMonitors).
	Graphs []*ARG
}

// Prove runs Check on each function of g that has condition sites of
// table (outside the standard packages) decided by an If of their own,
// towards both outcomes of each, within budget in all, and returns the
// outcomes proved unreachable. queryTimeout bounds each Z3 query.
func Prove(ctx context.Context, g *cfa.Graph, table []sites.Site, budget, queryTimeout time.Duration) ([]sites.Outcome, Summary, error) {
	return ProveUncovered(ctx, g, table, nil, budget, queryTimeout)
}

// ProveUncovered is Prove towards the outcomes covered does not report
// (a round of the alternation with testing, seed 002's Algorithm 3):
// functions whose outcomes are all covered are left out. covered may be
// nil: no outcome is covered.
func ProveUncovered(ctx context.Context, g *cfa.Graph, table []sites.Site, covered func(sites.Outcome) bool, budget, queryTimeout time.Duration) ([]sites.Outcome, Summary, error) {
	start := time.Now()
	var sum Summary
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	goals := map[*ssa.Function][]Goal{}
	var order []*ssa.Function
	for _, s := range table {
		if s.Kind != sites.Cond || s.Std {
			continue
		}
		br := g.Branch(s.ID)
		if br == nil || br.Joined || br.Point || br.Check {
			continue
		}
		for _, taken := range []bool{true, false} {
			if covered != nil && covered(sites.OutcomeOf(s.ID, taken)) {
				continue
			}
			if goals[br.Func] == nil {
				order = append(order, br.Func)
			}
			goals[br.Func] = append(goals[br.Func], Goal{s.ID, taken})
		}
	}
	// The callers of functions only static calls start decide those
	// functions' goals at the calls too.
	inGraph := map[*ssa.Function]bool{}
	for _, f := range g.Funcs() {
		inGraph[f] = true
	}
	staticCalls := map[*ssa.Function][]*ssa.Call{}
	atCallers := map[*ssa.Function][]Goal{}
	for _, fn := range slices.Clone(order) {
		calls, ok := g.StaticCalls(fn)
		if !ok || len(calls) == 0 {
			continue
		}
		staticCalls[fn] = calls
		for _, call := range calls {
			caller := call.Parent()
			if len(atCallers[caller]) > 0 && slices.Contains(atCallers[caller], goals[fn][0]) {
				continue // another call of fn in the same caller
			}
			if goals[caller] == nil && atCallers[caller] == nil {
				order = append(order, caller)
			}
			atCallers[caller] = append(atCallers[caller], goals[fn]...)
		}
	}
	slv, err := z3.New(z3.Options{Timeout: queryTimeout})
	if err != nil {
		return nil, sum, fmt.Errorf("mc: %w", err)
	}
	defer slv.Close()
	own := map[Goal]Status{}
	atCalls := map[CallGoal]Status{}
	all := map[*ssa.Function][]Goal{}
	for _, fn := range order {
		all[fn] = goals[fn]
	}
	for i, fn := range order {
		left := budget - time.Since(start)
		if ctx.Err() != nil || left <= 0 {
			sum.Skipped = len(order) - i
			break
		}
		// Each function gets an equal share of what is left, at most
		// the default run time of Check.
		share := min(left/time.Duration(len(order)-i), 10*time.Second)
		// First each goal against its straight code (local.go), within
		// half the share: one query a goal, and what it proves leaves
		// the graphs' goals.
		localStart := time.Now()
		goals[fn] = proveLocal(ctx, g, fn, slv, goals[fn], share/2, own, &sum)
		if len(goals[fn]) == 0 && len(atCallers[fn]) == 0 {
			continue // every goal proved by its straight code
		}
		share -= time.Since(localStart)
		check := func(opts Options) (*Result, error) {
			enc := NewEncoder(sym.NewBuilder(), fn)
			enc.Inline = Inlining{Depth: DefaultInlineDepth, Allow: func(f *ssa.Function) bool { return inGraph[f] }}
			enc.Counter = g.Counter
			return Check(ctx, g, enc, slv, append(slices.Clone(goals[fn]), atCallers[fn]...), opts)
		}
		// First the coarse graph, on the goals' and the inlined
		// callees' conditions alone (no refinement), within half the
		// share: it closes fast (15-300 ms on the seed's programs, more
		// under load, when the refined run would not close either),
		// and it is the monitor of a function whose refined run a bound
		// stops (simple-while's Goal, whose goals need a loop unrolled
		// 30 times). Then the refined run, on the rest. Both graphs'
		// claims are sound.
		began := time.Now()
		rounds := covered != nil
		coarse, err := check(Options{Timeout: share / 2, MaxRefinements: -1, AllConds: rounds})
		if err != nil {
			return nil, sum, fmt.Errorf("mc: %s: %w", fn, err)
		}
		res := &Result{Incomplete: "no time left"}
		if rest := share - time.Since(began); ctx.Err() == nil && rest > 0 {
			if res, err = check(Options{Timeout: rest, AllConds: rounds}); err != nil {
				return nil, sum, fmt.Errorf("mc: %s: %w", fn, err)
			}
		}
		sum.Functions++
		sum.Goals += len(goals[fn])
		sum.Refinements += len(res.Steps)
		sum.Predicates += res.Predicates
		if res.ARG == nil && coarse.ARG == nil {
			sum.Incomplete++
		}
		switch {
		case res.ARG != nil:
			sum.Graphs = append(sum.Graphs, res.ARG)
			sum.Nodes += len(res.ARG.Nodes)
		case coarse.ARG != nil:
			sum.Coarse++
			sum.Graphs = append(sum.Graphs, coarse.ARG)
			sum.Nodes += len(coarse.ARG.Nodes)
		}
		for _, gl := range goals[fn] {
			own[gl] = either(res.Verdicts[gl].Status, coarse.Verdicts[gl].Status)
		}
		for _, r := range []*Result{coarse, res} {
			for cg, v := range r.AtCalls {
				atCalls[cg] = either(atCalls[cg], v.Status)
			}
		}
	}
	var out []sites.Outcome
	for _, fn := range order {
		for _, gl := range all[fn] {
			st, checked := own[gl]
			if !checked {
				continue
			}
			switch {
			case st == Unreachable:
			case unreachableAtAll(staticCalls[fn], gl, atCalls):
				sum.ByCalls++
				st = Unreachable
			}
			switch st {
			case Unreachable:
				sum.Unreachable++
				out = append(out, sites.OutcomeOf(gl.Site, gl.Taken))
			case Reachable:
				sum.Reachable++
			}
		}
	}
	sum.Time = time.Since(start)
	return out, sum, nil
}

// proveLocal tries each goal of fn against its straight code (ProveLocal)
// within limit, records the proved ones in own and sum, and returns the
// others. Calls on the chains are not inlined (havoc): the pass stays
// cheap on packages of many goals. A query that fails costs its goal's
// claim, not the run.
func proveLocal(ctx context.Context, g *cfa.Graph, fn *ssa.Function, slv *z3.Solver, goals []Goal, limit time.Duration, own map[Goal]Status, sum *Summary) []Goal {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	// One encoder for the function's goals: its Builder shares the
	// terms their chains have in common.
	enc := NewEncoder(sym.NewBuilder(), fn)
	enc.Counter = g.Counter
	var left []Goal
	for i, gl := range goals {
		if ctx.Err() != nil {
			return append(left, goals[i:]...)
		}
		if ok, err := ProveLocal(ctx, g, enc, slv, gl); ok && err == nil {
			own[gl] = Unreachable
			sum.Local++
			sum.Goals++
			continue
		}
		left = append(left, gl)
	}
	return left
}

// either combines two verdicts on one goal: Unreachable when one proves
// it and the other found no path, Reachable when one found a path and
// the other claims nothing. Two that disagree claim nothing: one of the
// graphs is wrong.
func either(a, b Status) Status {
	switch {
	case a == Unreachable && b == Reachable || a == Reachable && b == Unreachable:
		return Unknown
	case a == Unreachable || b == Unreachable:
		return Unreachable
	case a == Reachable || b == Reachable:
		return Reachable
	}
	return Unknown
}

// unreachableAtAll reports whether every call of calls left gl out.
func unreachableAtAll(calls []*ssa.Call, gl Goal, at map[CallGoal]Status) bool {
	for _, c := range calls {
		if at[CallGoal{c, gl}] != Unreachable {
			return false
		}
	}
	return len(calls) > 0
}
