// This file builds the static facts of a run from the control-flow
// automaton (cfa) of the instrumented packages: the graph the directed
// strategies read (explore.UsesStatic), and the branch outcomes it proves
// unreachable (-prove).

package session

import (
	"context"
	"fmt"
	"go/types"
	"slices"
	"strings"
	"time"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/guard"
	"github.com/gocolic/gocolic/mc"
	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/packages"
)

// staticGraph builds the control-flow automaton of the target and its
// support packages (the standard packages instrumented in place stay out:
// their sites are Far) when cfg's strategy asks for one; nil otherwise.
// A failure costs the graph, not the run: the strategy then finds every
// outcome Far, and the error is returned for the report (a panic of
// go/ssa is a guard.Error).
func staticGraph(cfg Config, t *target) (explore.Static, error) {
	cfg.Prove, cfg.Abstraction = false, false
	f := staticFacts(cfg, t)
	return f.static, f.err
}

// facts are the static facts of a run (staticFacts).
type facts struct {
	static explore.Static
	claims []coordinator.Claim
	// pruner holds the model checker's monitors (-abstraction), nil
	// without any; mc its summary, nil when it did not run.
	pruner   coordinator.Pruner
	monitors int
	mc       *mc.Summary
	// graph is the control-flow automaton, for the model checker's
	// rounds during testing (-abstraction), nil without it.
	graph *cfa.Graph
	err   error
}

// staticFacts builds the graph when cfg's strategy reads one or cfg.Prove
// or cfg.Abstraction asks for proofs, and returns it for the strategy
// (nil when the strategy reads none), the outcomes proved unreachable,
// and the model checker's monitors and summary (-abstraction). A failure
// of any costs what it would have given, not the run: the strategy finds
// every outcome Far, nothing is claimed or pruned, and the error is
// returned for the report.
func staticFacts(cfg Config, t *target) (f facts) {
	uses := explore.UsesStatic(cfg.Strategy)
	if !uses && !cfg.Prove && !cfg.Abstraction {
		return f
	}
	// The graph holds the target, its support packages but the standard
	// ones, and a fuzz target's external test package.
	pkgs := []*packages.Package{t.pkg.Package}
	for _, q := range t.sup.pkgs {
		if !slices.Contains(t.sup.std, q.PkgPath) && q.PkgPath != t.pkg.PkgPath {
			pkgs = append(pkgs, q)
		}
	}
	pkgs = append(pkgs, t.tests...)
	var g *cfa.Graph
	err := guard.Do("cfa", func() (err error) {
		g, err = cfa.Build(pkgs, t.ins.Sites)
		if err == nil {
			g.SetEntries(entries(t)...) // the entry's inputs: no counter fields there
		}
		return err
	})
	if err != nil {
		if uses {
			fmt.Fprintf(cfg.Stderr, "gocolic: no control-flow graph (%v); -strategy %s runs without distances\n", err, cfg.Strategy)
		} else {
			fmt.Fprintf(cfg.Stderr, "gocolic: no control-flow graph (%v); no branch outcome is proved unreachable\n", err)
		}
		return facts{err: err}
	}
	var claims []coordinator.Claim
	if cfg.Prove {
		err = guard.Do("prove", func() error {
			for _, o := range g.Unreachable(entries(t)...) {
				claims = append(claims, coordinator.Claim{Outcome: o, By: "cfg"})
			}
			return nil
		})
		if err != nil {
			claims = nil
			fmt.Fprintf(cfg.Stderr, "gocolic: proving outcomes unreachable failed (%v); none is claimed\n", err)
		}
	}
	if cfg.Abstraction {
		mcClaims, mons, sum := modelCheck(cfg, g, t, claims)
		claims = append(claims, mcClaims...)
		f.mc, f.graph = sum, g
		if mons.Len() > 0 {
			f.pruner, f.monitors = mons, mons.Len()
		}
	}
	branches, unmapped := 0, 0
	for _, s := range t.ins.Sites {
		if s.Kind == sites.Cond && !s.Std {
			branches++
			if g.Branch(s.ID) == nil {
				unmapped++
			}
		}
	}
	fmt.Fprintf(cfg.Stderr, "gocolic: control-flow graph: %d of %d condition sites mapped", branches-unmapped, branches)
	if cfg.Prove || cfg.Abstraction {
		fmt.Fprintf(cfg.Stderr, ", %d of %d outcomes proved unreachable", len(claims), 2*branches)
	}
	fmt.Fprintln(cfg.Stderr)
	f.claims, f.err = claims, err
	if uses {
		f.static = g
	}
	return f
}

// modelCheck runs the model checker over the graph's functions within
// its time before testing (mcBudget) and returns the outcomes it
// proves unreachable that claimed does not hold yet, by "mc"; the
// monitors of its closed graphs for the functions the build marked (nil
// when there are none); and its summary. A failure costs the claims and
// the monitors, not the run.
func modelCheck(cfg Config, g *cfa.Graph, t *target, claimed []coordinator.Claim) ([]coordinator.Claim, *mc.Monitors, *mc.Summary) {
	budget := mcBudget(cfg)
	have := map[sites.Outcome]bool{}
	for _, c := range claimed {
		have[c.Outcome] = true
	}
	var out []coordinator.Claim
	var sum mc.Summary
	var mons *mc.Monitors
	err := guard.Do("mc", func() error {
		proved, s, err := mc.Prove(context.Background(), g, t.ins.Sites, budget, 200*time.Millisecond)
		sum = s
		for _, o := range proved {
			if !have[o] {
				out = append(out, coordinator.Claim{Outcome: o, By: "mc"})
			}
		}
		if err == nil {
			mons = mc.NewMonitors(g, t.ins.Sites, s.Graphs)
		}
		return err
	})
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "gocolic: model checking failed (%v); it claims and prunes nothing\n", err)
		return nil, nil, &sum
	}
	fmt.Fprintf(cfg.Stderr, "gocolic: model checker: %d functions, %d of %d outcomes proved unreachable (%d by the straight code before them, %d new), %d reachable, %d refinements, %d functions stopped by a bound, %d left out, %d monitors, %v\n",
		sum.Functions, sum.Unreachable, sum.Goals, sum.Local, len(out), sum.Reachable, sum.Refinements, sum.Incomplete, sum.Skipped, mons.Len(), sum.Time.Round(time.Millisecond))
	return out, mons, &sum
}

// entries returns the functions a worker's executions start from, the
// first the one whose package only the worker calls (cfa.Unreachable):
// the entry, or the fuzz target and every function the test binary's
// main may call (tests, benchmarks, examples, fuzz targets, TestMain).
func entries(t *target) []*types.Func {
	f := t.ins.Func
	if f == nil {
		return nil
	}
	own := f.Pkg() == t.pkg.Types
	for _, q := range t.tests {
		own = own || f.Pkg() == q.Types
	}
	if !own {
		// A method promoted from an embedded type of another package:
		// that package is not closed.
		return nil
	}
	out := []*types.Func{f}
	if !t.fuzz {
		return out
	}
	scope := f.Pkg().Scope()
	for _, name := range scope.Names() {
		g, ok := scope.Lookup(name).(*types.Func)
		if !ok || g == f {
			continue
		}
		for _, prefix := range []string{"Test", "Benchmark", "Example", "Fuzz"} {
			if strings.HasPrefix(name, prefix) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}
