package session

import (
	"context"
	"go/token"
	"slices"
	"testing"
	"time"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/report"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// unsatCore answers every query Unsat.
type unsatCore struct{}

func (unsatCore) Solve(context.Context, solver.Query) (solver.Result, error) {
	return solver.Result{Status: solver.Unsat}, nil
}

// TestQuerySites checks the order of the per-site query counts: most
// failed queries first, then most solver time, then by site.
func TestQuerySites(t *testing.T) {
	tests := []struct {
		name  string
		sites map[uint32]coordinator.SiteQueries
		want  []uint32
	}{
		{name: "none", want: nil},
		{
			name: "failed first",
			sites: map[uint32]coordinator.SiteQueries{
				0: {Queries: 9, Sat: 9},
				1: {Queries: 3, Unsat: 2, Unknown: 1},
				2: {Queries: 4, Unsat: 4},
			},
			want: []uint32{2, 1, 0},
		},
		{
			name: "then time, then site",
			sites: map[uint32]coordinator.SiteQueries{
				3: {Queries: 1, Unsat: 1, Time: time.Millisecond},
				1: {Queries: 1, Unknown: 1, Time: time.Second},
				0: {Queries: 1, Unsat: 1, Time: time.Millisecond},
			},
			want: []uint32{1, 0, 3},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &coordinator.Report{SiteQueries: map[uint32]*coordinator.SiteQueries{}}
			for id, q := range tt.sites {
				rep.SiteQueries[id] = &q
			}
			var got []uint32
			for _, s := range QuerySites(&Entry{}, rep) {
				got = append(got, s.ID)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("sites %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSolverJSON checks the report's solver object of a run with a pool
// of two stacks: each layer's counts summed over both, the per-site
// counts with their positions, the optimistic and back-off counts, and
// the stuck queries (unknown too).
func TestSolverJSON(t *testing.T) {
	b := sym.NewBuilder()
	x := b.Var(0, 8)
	q := solver.Query{Goal: b.Cmp(sym.KEq, x, b.Const(1, 8))}
	var chains []solver.Solver
	for n := range 2 {
		c := solver.Chain(unsatCore{}, solver.Config{Cache: true})
		for range n + 1 {
			if _, err := c.Solve(context.Background(), q); err != nil {
				t.Fatal(err)
			}
		}
		chains = append(chains, c)
	}
	tgt := &Entry{Sites: []sites.Site{{ID: 0, Kind: sites.Cond, Pos: token.Position{Filename: "p.go", Line: 3, Column: 5}, Func: "F", Text: "x == 1"}}}
	rep := &coordinator.Report{
		Queries:     map[string]int{"unsat": 3, "error": 1, "stuck": 1},
		SiteQueries: map[uint32]*coordinator.SiteQueries{0: {Queries: 5, Unsat: 3, Unknown: 2, Stuck: 1, Time: 7 * time.Millisecond}},
		Stuck:       coordinator.StuckStats{Queries: 1, Replaced: 1, Late: 1},
		Optimistic:  coordinator.OptimisticStats{Queries: 2, Sat: 1, Reached: 1},
		Deferred:    5,
	}
	j := solverJSON(tgt, rep, chains)
	// One query reached the first stack's cache, two the second's.
	if len(j.Layers) != 1 || j.Layers[0].Name != "cache" || j.Layers[0].Queries != 3 || j.Layers[0].Unsat != 3 {
		t.Errorf("layers %+v, want the cache's, with 3 unsat queries", j.Layers)
	}
	if j.Queries != 5 || j.Unsat != 3 || j.Unknown != 2 {
		t.Errorf("queries %d, unsat %d, unknown %d; want 5, 3, 2", j.Queries, j.Unsat, j.Unknown)
	}
	if j.Stuck == nil || *j.Stuck != (report.Stuck{Queries: 1, Replaced: 1, Late: 1}) {
		t.Errorf("stuck %+v, want 1 query, 1 replaced, 1 late", j.Stuck)
	}
	wantSite := report.SolverSite{ID: 0, Pos: "p.go:3:5", Func: "F", Cond: "x == 1", Queries: 5, Unsat: 3, Unknown: 2, Stuck: 1, TimeMS: 7}
	if len(j.Sites) != 1 || j.Sites[0] != wantSite {
		t.Errorf("sites %+v, want %+v", j.Sites, wantSite)
	}
	if j.Optimistic != (report.Optimistic{Queries: 2, Sat: 1, Reached: 1}) || j.Deferred != 5 {
		t.Errorf("optimistic %+v, deferred %d; want 2/1/1 and 5", j.Optimistic, j.Deferred)
	}
}
