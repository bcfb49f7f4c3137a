package coordinator

import (
	"testing"

	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// fakePruner answers Prune with fixed verdicts and alarms.
type fakePruner struct {
	by     []int
	alarms []int
}

func (f *fakePruner) Prune(outs []uint32, cut bool, path []rt.WireEvent) ([]int, []int) {
	return f.by, f.alarms
}
func (f *fakePruner) Name(i int) string { return "fn" }

// TestPrune checks the coordinator's side of pruning on a path of four
// symbolic branches: the candidates a monitor forbids are held back from
// the strategy and counted, none from the first value made concrete on,
// none of an untraced execution; an alarm gives back what its monitor
// held (still open) and voids its judgements of the same execution.
func TestPrune(t *testing.T) {
	b := sym.NewBuilder()
	conds := make([]*sym.Expr, 4)
	path := make([]explore.Branch, 4)
	wire := make([]rt.WireEvent, 4)
	for i := range conds {
		// Conditions on four inputs, so that no side settles another.
		conds[i] = b.Cmp(sym.KULt, b.Var(uint64(i), 8), b.Const(10, 8))
		path[i] = explore.Branch{Site: uint32(i), Taken: true, Cond: conds[i]}
		wire[i] = rt.WireEvent{Site: uint32(i), Taken: true}
	}
	for _, tc := range []struct {
		name     string
		by       []int
		alarms   []int
		traced   bool
		first    int // depth of the first concretisation, -1: none
		kept     int // candidates given to the strategy
		pruned   int
		released int
	}{
		{name: "none", by: []int{-1, -1, -1, -1}, traced: true, first: -1, kept: 4},
		{name: "two", by: []int{0, -1, 1, -1}, traced: true, first: -1, kept: 2, pruned: 2},
		{name: "untraced", by: []int{0, 0, 0, 0}, traced: false, first: -1, kept: 4},
		{name: "concretised", by: []int{0, 0, 0, 0}, traced: true, first: 2, kept: 2, pruned: 2},
		{name: "alarm voids", by: []int{0, 1, 0, 1}, alarms: []int{0}, traced: true, first: -1, kept: 2, pruned: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			strat, err := explore.New("dfs", explore.Config{})
			if err != nil {
				t.Fatal(err)
			}
			fp := &fakePruner{by: tc.by, alarms: tc.alarms}
			d := &coordinator{cfg: Config{Pruner: fp}, tree: explore.NewTree(b, explore.Options{}), strat: strat, rep: &Report{}}
			resp := &rt.Response{Path: wire, Traced: tc.traced, Outcomes: []uint32{1}}
			if tc.first >= 0 {
				resp.Concrete = []rt.Concretised{{Site: 9, Cause: rt.CauseCall, Count: 1, First: uint32(tc.first)}}
			}
			out := d.tree.Record(path, sym.Env{0: 1, 1: 1, 2: 1, 3: 1}, nil)
			kept := d.prune(resp, out.NewCandidates)
			if len(kept) != tc.kept || d.rep.Prune.Pruned != tc.pruned {
				t.Errorf("kept %d, pruned %d; want %d, %d", len(kept), d.rep.Prune.Pruned, tc.kept, tc.pruned)
			}
			if len(d.rep.Prune.Alarms) != len(tc.alarms) {
				t.Errorf("alarms %v, want %d", d.rep.Prune.Alarms, len(tc.alarms))
			}
			// An alarm of monitor 1 in the next execution gives back
			// what it held, once.
			held := len(d.pruned[1])
			fp.by, fp.alarms = []int{-1, -1, -1, -1}, []int{1}
			d.strat.Update(explore.Feedback{Event: explore.Ran, Outcome: explore.Outcome{NewCandidates: kept}})
			before := d.strat.Len()
			d.prune(&rt.Response{Path: wire, Traced: true, Outcomes: []uint32{1}}, nil)
			if d.rep.Prune.Released != held || d.strat.Len() != before+held {
				t.Errorf("released %d (strategy %d → %d), want %d", d.rep.Prune.Released, before, d.strat.Len(), held)
			}
			if d.prunedCovered() != 0 {
				t.Errorf("pruned candidates covered: %d", d.prunedCovered())
			}
		})
	}
}
