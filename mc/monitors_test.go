package mc

import (
	"strings"
	"testing"

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
// else; an outcome the monitor lacks drops it (an alarm) and nothing is
// pruned by it after; an unmapped outcome, a function without a monitor
// and a place lost past the cut prune nothing.
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
		{name: "unmapped", tr: (&traced{}).enter(f).out(gt5(true), true).out(Goal{Site: 1 << 20, Taken: true}, false).out(isB(true), false).out(lt3(false), true).leave(f), by: []int{-1, -1}},
		{name: "cut", tr: (&traced{}).enter(f).out(gt5(true), true).out(isB(true), false).out(lt3(false), true), cut: true, by: []int{-1, -1}},
		// b with x <= 5 is no execution: the monitor is wrong for it.
		{name: "alarm", tr: call((&traced{}).enter(f).out(gt5(false), true).out(isB(true), false).out(lt3(false), true).leave(f)), by: []int{-1, -1, -1, -1}, alarms: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := NewMonitors(p.g, p.table, []*ARG{res.ARG})
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
