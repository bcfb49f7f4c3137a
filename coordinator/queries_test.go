package coordinator

import (
	"context"
	"sync"
	"testing"

	"github.com/gocolic/gocolic/solver"
)

// prefixRefuter refutes every query with a path prefix, as a path
// condition made wrong by a concretised value would be, and decides the
// others as enumSolver does.
type prefixRefuter struct{ enumSolver }

func (s prefixRefuter) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	if len(q.Constraints) > 0 {
		return solver.Result{Status: solver.Unsat}, nil
	}
	return s.enumSolver.Solve(ctx, q)
}

// TestRunOptimistic explores the branches mode with a solver that refutes
// every path condition with a prefix: of the 64 sides x == 1000+i the seed
// opens, only the first (no prefix) is solved; optimistic solving solves
// the 63 others' goals alone, and their inputs take the sides.
func TestRunOptimistic(t *testing.T) {
	tests := []struct {
		name       string
		optimistic bool
		want       OptimisticStats
		covered    int // sides x == 1000+i taken
	}{
		{name: "off", covered: 1},
		{name: "on", optimistic: true, want: OptimisticStats{Queries: 63, Sat: 63, Reached: 63}, covered: 64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var log []string
			cfg := runConfig(t, prefixRefuter{enumSolver{mu: &mu, log: &log}}, modeBranches)
			cfg.Optimistic = tt.optimistic
			rep := runDriver(t, context.Background(), cfg)
			if rep.Optimistic != tt.want {
				t.Errorf("optimistic %+v, want %+v", rep.Optimistic, tt.want)
			}
			covered := 0
			for site := range uint32(64) {
				if rep.Covered.Has(site, true) {
					covered++
				}
			}
			if covered != tt.covered {
				t.Errorf("%d true sides covered, want %d", covered, tt.covered)
			}
			if rep.Divergences != 0 {
				t.Errorf("%d divergences: an optimistic input counts as one", rep.Divergences)
			}
		})
	}
}
