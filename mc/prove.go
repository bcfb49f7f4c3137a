package mc

// This file runs the model checker over every function of a graph before
// testing starts (-abstraction): the goals are the outcomes of the
// condition sites, the claims are the goals each function's closed
// graph leaves out. Each claim holds for every call of the function
// whatever its caller passes, since parameters are free and calls and
// memory are havoc.

import (
	"context"
	"fmt"
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
	slv, err := z3.New(z3.Options{Timeout: queryTimeout})
	if err != nil {
		return nil, sum, fmt.Errorf("mc: %w", err)
	}
	defer slv.Close()
	var out []sites.Outcome
	for i, fn := range order {
		left := budget - time.Since(start)
		if ctx.Err() != nil || left <= 0 {
			sum.Skipped = len(order) - i
			break
		}
		// Each function gets an equal share of what is left, at most
		// the default run time of Check.
		share := min(left/time.Duration(len(order)-i), 10*time.Second)
		res, err := Check(ctx, g, NewEncoder(sym.NewBuilder(), fn), slv, goals[fn], Options{Timeout: share})
		if err != nil {
			return nil, sum, fmt.Errorf("mc: %s: %w", fn, err)
		}
		sum.Functions++
		sum.Goals += len(goals[fn])
		sum.Refinements += len(res.Steps)
		sum.Predicates += res.Predicates
		if res.Incomplete != "" {
			sum.Incomplete++
		}
		if res.ARG != nil {
			sum.Graphs = append(sum.Graphs, res.ARG)
			sum.Nodes += len(res.ARG.Nodes)
		}
		for _, gl := range goals[fn] {
			switch res.Verdicts[gl].Status {
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
