package mc

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
)

// entrySite returns the entry site (sites.Func) of the function fn.
func (p *absPkg) entrySite(t testing.TB, fn string) uint32 {
	t.Helper()
	for _, s := range p.table {
		if s.Kind == sites.Func && strings.HasSuffix(s.Func, fn) {
			return s.ID
		}
	}
	t.Fatalf("no entry site of %s", fn)
	return 0
}

// traced builds an execution's outcome sequence and symbolic path from
// steps: an entry or return of a function, or an outcome, symbolic or
// not.
type traced struct {
	outs []uint32
	path []rt.WireEvent
}

func (tr *traced) enter(site uint32) *traced { tr.outs = append(tr.outs, site<<1|1); return tr }
func (tr *traced) leave(site uint32) *traced { tr.outs = append(tr.outs, site<<1); return tr }
func (tr *traced) out(g Goal, symbolic bool) *traced {
	tr.outs = append(tr.outs, uint32(sites.OutcomeOf(g.Site, g.Taken)))
	if symbolic {
		tr.path = append(tr.path, rt.WireEvent{Site: g.Site, Taken: g.Taken, At: uint32(len(tr.outs))})
	}
	return tr
}

// TestMonitorsPrune checks the product of the monitors with traced
// executions of Flagged: the negation x < 3 after b is pruned in each of
// two calls and in a call nested in another function's, and nowhere
// else, also past the outcomes of a standard package's callee; an
// outcome the monitor lacks drops it (an alarm) and nothing is pruned by
// it after; an unmapped outcome, a function without a monitor and a
// place lost past the cut prune nothing.
func TestMonitorsPrune(t *testing.T) {
	p := loadAbs(t)
	var goals []Goal
	for _, text := range []string{"x > 5", "b", "x < 3"} {
		goals = append(goals, p.goal(t, "Flagged", text, true), p.goal(t, "Flagged", text, false))
	}
	_, res := monitorOf(t, p, "Flagged", goals)
	f, nested := p.entrySite(t, "Flagged"), p.entrySite(t, "Nested")
	gt5 := func(v bool) Goal { return p.goal(t, "Flagged", "x > 5", v) }
	isB := func(v bool) Goal { return p.goal(t, "Flagged", "b", v) }
	lt3 := func(v bool) Goal { return p.goal(t, "Flagged", "x < 3", v) }
	// x = 7: x > 5, b (concrete), not x < 3.
	call := func(tr *traced) *traced {
		return tr.enter(f).out(gt5(true), true).out(isB(true), false).out(lt3(false), true).leave(f)
	}
	for _, tc := range []struct {
		name   string
		tr     *traced
		cut    bool
		by     []int // per path event; -1: not pruned
		alarms int
	}{
		{name: "one call", tr: call(&traced{}), by: []int{-1, 0}},
		{name: "two calls", tr: call(call(&traced{})), by: []int{-1, 0, -1, 0}},
		{name: "nested", tr: call((&traced{}).enter(nested)).leave(nested), by: []int{-1, 0}},
		{name: "x <= 5", tr: (&traced{}).enter(f).out(gt5(false), true).out(isB(false), false).leave(f), by: []int{-1}},
		{name: "no markers", tr: (&traced{}).out(gt5(true), true).out(isB(true), false).out(lt3(false), true), by: []int{-1, -1}},
		{name: "standard callee", tr: (&traced{}).enter(f).out(gt5(true), true).out(Goal{Site: 1<<20 + 1, Taken: true}, false).out(isB(true), false).out(lt3(false), true).leave(f), by: []int{-1, 0}},
		{name: "unmapped", tr: (&traced{}).enter(f).out(gt5(true), true).out(Goal{Site: 1 << 20, Taken: true}, false).out(isB(true), false).out(lt3(false), true).leave(f), by: []int{-1, -1}},
		{name: "cut", tr: (&traced{}).enter(f).out(gt5(true), true).out(isB(true), false).out(lt3(false), true), cut: true, by: []int{-1, -1}},
		// b with x <= 5 is no execution: the monitor is wrong for it.
		{name: "alarm", tr: call((&traced{}).enter(f).out(gt5(false), true).out(isB(true), false).out(lt3(false), true).leave(f)), by: []int{-1, -1, -1, -1}, alarms: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A site of a standard package instrumented in place.
			table := append(slices.Clone(p.table), sites.Site{ID: 1<<20 + 1, Kind: sites.Cond, Std: true})
			ms := NewMonitors(p.g, table, []*ARG{res.ARG})
			if ms.Len() != 1 || !strings.Contains(ms.Name(0), "Flagged") {
				t.Fatalf("%d monitors (%v), want Flagged's", ms.Len(), ms.names)
			}
			by, alarms := ms.Prune(tc.tr.outs, tc.cut, tc.tr.path)
			if len(by) != len(tc.by) {
				t.Fatalf("%d verdicts for %d events", len(by), len(tc.tr.path))
			}
			for i := range by {
				if by[i] != tc.by[i] {
					t.Errorf("event %d (%+v): pruned by %d, want %d", i, tc.tr.path[i], by[i], tc.by[i])
				}
			}
			if len(alarms) != tc.alarms {
				t.Errorf("alarms %v, want %d", alarms, tc.alarms)
			}
			if tc.alarms > 0 {
				// Dropped: the next execution prunes nothing.
				by, _ := ms.Prune(call(&traced{}).outs, false, call(&traced{}).path)
				if by[1] != -1 {
					t.Errorf("a dropped monitor pruned")
				}
			}
		})
	}
}

// TestMonitorsUpdate checks a later round's graphs: monitors start
// empty, a graph adds its function's, a new graph replaces it under
// the same index, and a monitor dropped after an alarm stays dropped.
func TestMonitorsUpdate(t *testing.T) {
	p := loadAbs(t)
	goals := []Goal{p.goal(t, "Flagged", "x < 3", true)}
	_, res := monitorOf(t, p, "Flagged", goals)
	f := p.entrySite(t, "Flagged")
	gt5 := func(v bool) Goal { return p.goal(t, "Flagged", "x > 5", v) }
	isB := func(v bool) Goal { return p.goal(t, "Flagged", "b", v) }
	lt3 := func(v bool) Goal { return p.goal(t, "Flagged", "x < 3", v) }
	good := (&traced{}).enter(f).out(gt5(true), true).out(isB(true), false).out(lt3(false), true).leave(f)
	bad := (&traced{}).enter(f).out(gt5(false), true).out(isB(true), false).leave(f)
	pruned := func(ms *Monitors) bool {
		by, _ := ms.Prune(good.outs, false, good.path)
		return by[1] >= 0
	}
	ms := NewMonitors(p.g, p.table, nil)
	if ms.Len() != 0 || pruned(ms) {
		t.Fatalf("empty monitors: %d, pruned %t", ms.Len(), pruned(ms))
	}
	ms.Update([]*ARG{res.ARG})
	if ms.Len() != 1 || !pruned(ms) {
		t.Fatalf("after a graph: %d monitors, pruned %t", ms.Len(), pruned(ms))
	}
	_, res2 := monitorOf(t, p, "Flagged", goals)
	ms.Update([]*ARG{res2.ARG})
	if ms.Len() != 1 || !pruned(ms) {
		t.Errorf("after a new graph: %d monitors, pruned %t", ms.Len(), pruned(ms))
	}
	if _, alarms := ms.Prune(bad.outs, false, bad.path); len(alarms) != 1 {
		t.Fatalf("alarms %v, want one", alarms)
	}
	ms.Update([]*ARG{res.ARG})
	if ms.Len() != 1 || pruned(ms) {
		t.Errorf("a dropped monitor came back: %d monitors, pruned %t", ms.Len(), pruned(ms))
	}
}

// TestProveUncovered checks a round towards the uncovered outcomes:
// functions whose outcomes are all covered are left out, and an
// uncovered unreachable outcome is still proved.
func TestProveUncovered(t *testing.T) {
	p := loadAbs(t)
	target := sites.OutcomeOf(p.goal(t, "Flagged", "x < 3", true).Site, true)
	flagged := map[uint32]bool{}
	for _, s := range p.table {
		if strings.HasSuffix(s.Func, "Flagged") {
			flagged[s.ID] = true
		}
	}
	for _, tc := range []struct {
		name      string
		covered   func(sites.Outcome) bool
		functions int
		proved    bool
	}{
		{"all covered", func(sites.Outcome) bool { return true }, 0, false},
		{"only Flagged's x < 3 left", func(o sites.Outcome) bool { return o != target }, 1, true},
		{"Flagged left", func(o sites.Outcome) bool { return !flagged[o.Site()] }, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, sum, err := ProveUncovered(context.Background(), p.g, p.table, tc.covered, 30*time.Second, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Functions != tc.functions || slices.Contains(out, target) != tc.proved {
				t.Errorf("%d functions, proved %v; want %d, target proved %t", sum.Functions, out, tc.functions, tc.proved)
			}
			if tc.functions > 0 && len(sum.Graphs) != 1 {
				t.Errorf("%d graphs, want 1", len(sum.Graphs))
			}
		})
	}
}
