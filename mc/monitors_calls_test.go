package mc

import (
	"context"
	"strings"
	"testing"
	"time"
)

// loadCalls returns package testdata/calls.
func loadCalls(t testing.TB) *absPkg { return loadHere(t, "testdata", "calls") }

// TestMonitorsCallee checks the product inside callees: a negation of a
// callee's outcome that its caller's graph excludes at the call it came
// from is pruned by the caller's monitor (at in Pair once len(in) >= 2,
// the outermost down in Rec), and not when the context allows it (Pair
// with a shorter input; the method mget in ByMethod likewise), when the
// call is not inlined (first has a
// loop; the nested calls of the recursive down), when the callee may
// start otherwise (peek is also started by a go statement; sget's
// receiver is converted to an interface that calls it), when the
// caller's replay gave up on an unmapped outcome, or for an unmapped
// event in the callee. A callee outcome the caller's graph excludes is
// an alarm that drops the caller's monitor.
func TestMonitorsCallee(t *testing.T) {
	p := loadCalls(t)
	fresh, mon := p.monitors(t, "calls")
	pair, rec, loop, byMethod := mon("Pair"), mon("Rec"), mon("Loop"), mon("ByMethod")
	entry := map[string]uint32{}
	for _, fn := range []string{"Pair", "at", "Rec", "down", "Loopy", "first", "Spawn", "peek", "Loop", "ByMethod", "mget", "Boxed", "sget"} {
		entry[fn] = p.entrySite(t, fn)
	}
	g := func(fn, text string) func(bool) Goal {
		return func(v bool) Goal { return p.goal(t, fn, text, v) }
	}
	lt2 := func(fn string) func(bool) Goal { return g(fn, "len(in) < 2") }
	atLt, eq := g("at", "i < len(in)"), g("Pair", "at(in, 0) == at(in, 1)")
	downGe, firstLoop, firstLt, peekLt := g("down", "i >= len(in)"), g("first", "i < 2"), g("first", "n < len(in)"), g("peek", "i < len(in)")
	loopLt3, loop7 := g("Loop", "i < 3"), g("Loop", "at(in, i) == 7")
	// reads returns Loop's trace on an input of n bytes, none 7.
	reads := func(n int) *traced {
		tr := (&traced{}).enter(entry["Loop"])
		for i := 0; i < 3; i++ {
			tr.out(loopLt3(true), false).enter(entry["at"]).out(atLt(i < n), true).leave(entry["at"]).out(loop7(false), true)
		}
		return tr.out(loopLt3(false), false).leave(entry["Loop"])
	}
	mgetLt, sgetLt := g("mget", "i < len(b)"), g("sget", "i < len(b)")
	unmapped := Goal{Site: 1 << 20, Taken: true}
	callAt := func(tr *traced, inside bool) *traced {
		return tr.enter(entry["at"]).out(atLt(inside), true).leave(entry["at"])
	}
	long := func(tr *traced) *traced {
		tr.enter(entry["Pair"]).out(lt2("Pair")(false), true)
		return callAt(callAt(tr, true), true).out(eq(false), true).leave(entry["Pair"])
	}
	for _, tc := range []struct {
		name   string
		tr     *traced
		by     []int // per path event; -1: not pruned
		alarms []int
	}{
		{name: "inlined, excluded", tr: long(&traced{}), by: []int{-1, pair, pair, -1}},
		// Past the end at the second read: at the third, i < len(in)
		// cannot hold, which Loop's graph remembers from the second;
		// and a read past the end is 0, never 7 (Loop's own edges).
		{name: "remembered", tr: reads(1), by: []int{-1, -1, -1, loop, loop, loop}},
		{name: "remembered, not yet", tr: reads(2), by: []int{-1, -1, -1, -1, -1, loop}},
		{name: "method", tr: (&traced{}).enter(entry["ByMethod"]).out(lt2("ByMethod")(false), true).
			enter(entry["mget"]).out(mgetLt(true), true).leave(entry["mget"]).
			enter(entry["mget"]).out(mgetLt(true), true).leave(entry["mget"]).leave(entry["ByMethod"]), by: []int{-1, byMethod, byMethod}},
		{name: "method boxed", tr: (&traced{}).enter(entry["Boxed"]).out(lt2("Boxed")(false), true).
			enter(entry["sget"]).out(sgetLt(true), true).leave(entry["sget"]).leave(entry["Boxed"]), by: []int{-1, -1}},
		{name: "inlined, allowed", tr: callAt((&traced{}).enter(entry["Pair"]).out(lt2("Pair")(true), true), true).leave(entry["Pair"]), by: []int{-1, -1}},
		{name: "recursive", tr: (&traced{}).enter(entry["Rec"]).out(lt2("Rec")(false), true).
			enter(entry["down"]).out(downGe(false), true).enter(entry["down"]).out(downGe(false), true).enter(entry["down"]).out(downGe(true), true).
			leave(entry["down"]).leave(entry["down"]).leave(entry["down"]).leave(entry["Rec"]), by: []int{-1, rec, -1, -1}},
		{name: "not inlined", tr: (&traced{}).enter(entry["Loopy"]).out(lt2("Loopy")(false), true).
			enter(entry["first"]).out(firstLoop(true), false).out(firstLoop(true), false).out(firstLoop(false), false).out(firstLt(true), true).
			leave(entry["first"]).leave(entry["Loopy"]), by: []int{-1, -1}},
		{name: "started otherwise", tr: (&traced{}).enter(entry["Spawn"]).out(lt2("Spawn")(false), true).
			enter(entry["peek"]).out(peekLt(true), true).leave(entry["peek"]).leave(entry["Spawn"]), by: []int{-1, -1}},
		{name: "caller gave up", tr: callAt((&traced{}).enter(entry["Pair"]).out(lt2("Pair")(false), true).out(unmapped, false), true).leave(entry["Pair"]), by: []int{-1, -1}},
		{name: "unmapped in the callee", tr: (&traced{}).enter(entry["Pair"]).out(lt2("Pair")(false), true).
			enter(entry["at"]).out(unmapped, true).out(atLt(true), true).leave(entry["at"]).leave(entry["Pair"]), by: []int{-1, -1, pair}},
		{name: "alarm", tr: callAt((&traced{}).enter(entry["Pair"]).out(lt2("Pair")(false), true), false).leave(entry["Pair"]), by: []int{-1, -1}, alarms: []int{pair}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := fresh()
			by, alarms := ms.Prune(tc.tr.outs, false, tc.tr.path)
			if len(by) != len(tc.by) {
				t.Fatalf("%d verdicts, want %d", len(by), len(tc.by))
			}
			for i := range by {
				if by[i] != tc.by[i] {
					t.Errorf("event %d (%+v): pruned by %d, want %d", i, tc.tr.path[i], by[i], tc.by[i])
				}
			}
			if len(alarms) != len(tc.alarms) || len(alarms) > 0 && alarms[0] != tc.alarms[0] {
				t.Errorf("alarms %v, want %v", alarms, tc.alarms)
			}
			if len(tc.alarms) > 0 {
				if by, _ := ms.Prune(long(&traced{}).outs, false, long(&traced{}).path); by[1] != -1 {
					t.Errorf("a dropped monitor pruned")
				}
			}
		})
	}
}

// monitors proves p's functions, which must all close, and returns a
// maker of fresh monitors of them (an alarm drops a monitor: each case
// starts anew) and the lookup of a function's monitor by its name in the
// package named pkg.
func (p *absPkg) monitors(t *testing.T, pkg string) (func() *Monitors, func(fn string) int) {
	t.Helper()
	_, sum, err := Prove(context.Background(), p.g, p.table, time.Minute, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Incomplete > 0 {
		t.Fatalf("%d graphs did not close", sum.Incomplete)
	}
	fresh := func() *Monitors { return NewMonitors(p.g, p.table, sum.Graphs) }
	ms := fresh()
	return fresh, func(fn string) int {
		for i := 0; i < ms.Len(); i++ {
			if strings.Contains(ms.Name(i), pkg+"."+fn+" ") {
				return i
			}
		}
		t.Fatalf("no monitor of %s", fn)
		return -1
	}
}
