// This file builds the static graph the directed strategies read
// (explore.UsesStatic): the control-flow automaton (cfa) of the
// instrumented packages.

package session

import (
	"fmt"
	"slices"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/guard"
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
	if !explore.UsesStatic(cfg.Strategy) {
		return nil, nil
	}
	pkgs := []*packages.Package{t.pkg.Package}
	for _, q := range t.sup.pkgs {
		if !slices.Contains(t.sup.std, q.PkgPath) && q.PkgPath != t.pkg.PkgPath {
			pkgs = append(pkgs, q)
		}
	}
	var g *cfa.Graph
	err := guard.Do("cfa", func() (err error) {
		g, err = cfa.Build(pkgs, t.ins.Sites)
		return err
	})
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "gocolic: no control-flow graph (%v); -strategy %s runs without distances\n", err, cfg.Strategy)
		return nil, err
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
	fmt.Fprintf(cfg.Stderr, "gocolic: control-flow graph: %d of %d condition sites mapped\n", branches-unmapped, branches)
	return g, nil
}
