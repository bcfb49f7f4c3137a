package mc

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/solver/z3"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/packages"
)

// TestExamplesCheck runs the model checker on every function of the
// example packages towards every outcome of their plain Ifs, with small
// bounds: no run fails, and every closed graph's claims are consistent
// (a goal with a feasible path is never claimed: Check errs then).
func TestExamplesCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Z3 on every example function")
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(file))
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: root}, "./examples/...")
	if err != nil {
		t.Fatal(err)
	}
	slv, err := z3.New(z3.Options{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer slv.Close()
	var total, unreach, reach, unknown, incomplete int
	start := time.Now()
	for _, p := range pkgs {
		res, err := instrument.Package(p, instrument.Config{RuntimePath: build.RuntimePath, Support: true})
		if err != nil {
			t.Fatal(err)
		}
		g, err := cfa.Build([]*packages.Package{p}, res.Sites)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range g.Funcs() {
			var goals []Goal
			for _, id := range g.Mapped() {
				br := g.Branch(id)
				if br.Func == f && !br.Joined && !br.Point && !br.Check {
					goals = append(goals, Goal{id, true}, Goal{id, false})
				}
			}
			if len(goals) == 0 {
				continue
			}
			r, err := Check(context.Background(), g, NewEncoder(sym.NewBuilder(), f), slv, goals, Options{Timeout: time.Second, MaxNodes: 2000, MaxRefinements: 5})
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			if r.Incomplete != "" {
				incomplete++
			}
			for _, v := range r.Verdicts {
				total++
				switch v.Status {
				case Unreachable:
					unreach++
				case Reachable:
					reach++
				default:
					unknown++
				}
			}
		}
	}
	t.Logf("%d goals: %d unreachable, %d reachable, %d unknown; %d functions stopped by a bound; %v", total, unreach, reach, unknown, incomplete, time.Since(start))
}
