package mc

import (
	"go/types"
	"testing"
)

// loadFields returns package testdata/fields.
func loadFields(t testing.TB) *absPkg { return loadHere(t, "testdata", "fields") }

// TestMonitorsFields checks fields of pointer parameters in the product:
// a field that only the function and its inlined callees write through
// the parameter is remembered across blocks (r.eof once get set it, the
// length of r.data that Pair checked), so a negation that contradicts it
// is pruned; after a store through another pointer of the field's type
// or a call that is not inlined, the field is unknown and nothing is
// pruned. A counter field past the end stays past it (the seed's
// cursor); a field set to any value may wrap at its increment and does
// not.
func TestMonitorsFields(t *testing.T) {
	p := loadFields(t)
	run, ok := p.fns["Run"].Object().(*types.Func)
	if !ok {
		t.Fatal("no function Run")
	}
	p.g.SetEntries(run)
	fresh, mon := p.monitors(t, "fields")
	entry := func(fn string) uint32 { return p.entrySite(t, fn) }
	g := func(fn, text string) func(bool) Goal {
		return func(v bool) Goal { return p.goal(t, fn, text, v) }
	}
	eof, end := g("get", "r.eof"), g("get", "r.next >= len(r.data)")
	atLt := g("at", "i < len(r.data)")
	// reads is fn's trace of three reads on an empty reader: the first
	// sets eof, the others return at once.
	reads := func(fn string) *traced {
		loop := g(fn, "i < 3")
		tr := (&traced{}).enter(entry(fn))
		seven := g(fn, "r.get() == 7")
		tr.out(loop(true), false).enter(entry("get")).out(eof(false), true).out(end(true), true).leave(entry("get")).out(seven(false), true)
		for range 2 {
			tr.out(loop(true), false).enter(entry("get")).out(eof(true), true).leave(entry("get")).out(seven(false), true)
		}
		return tr.out(loop(false), false).leave(entry(fn))
	}
	// pair is fn's trace past its length check, both reads inside.
	pair := func(fn string) *traced {
		tr := (&traced{}).enter(entry(fn)).out(g(fn, "len(r.data) < 2")(false), true)
		for range 2 {
			tr.enter(entry("at")).out(atLt(true), true).leave(entry("at"))
		}
		return tr.out(g(fn, "r.at(0) == r.at(1)")(false), true).leave(entry(fn))
	}
	// by gives, per path event, whether fn's own monitor prunes its
	// negation (the callees' events are judged in fn's context).
	// past is fn's trace of three reads through the method read (past
	// the end at each), whose condition reads cond.
	past := func(fn, read, cond string) *traced {
		loop, seven, lt := g(fn, "j < 3"), g(fn, "c.take() == 7"), g(read, cond)
		if fn == "ScanSeeker" {
			seven = g(fn, "s.pull() == 7")
		}
		tr := (&traced{}).enter(entry(fn))
		for range 3 {
			tr.out(loop(true), false).enter(entry(read)).out(lt(false), true).leave(entry(read)).out(seven(false), true)
		}
		return tr.out(loop(false), false).leave(entry(fn))
	}
	for _, tc := range []struct {
		name, fn string
		tr       *traced
		by       []bool
	}{
		// Past the end at the first read: get set eof, so at the second
		// and third r.eof cannot be false; a read past the end is 0,
		// never 7, in every turn.
		{"field remembered", "Count", reads("Count"), []bool{false, false, true, true, true, true, true}},
		{"field written through an alias", "Aliased", reads("Aliased"), []bool{false, false, true, false, true, false, true}},
		{"field written by an opaque call", "Opaque", reads("Opaque"), []bool{false, false, true, false, true, false, true}},
		// A counter cursor past the end stays past it: its increment
		// does not wrap. A position set to any value may wrap.
		{"counter remembered", "Scan", past("Scan", "take", "i < len(c.data)"), []bool{false, true, true, true, true, true}},
		{"not a counter", "ScanSeeker", past("ScanSeeker", "pull", "i < len(s.data)"), []bool{false, true, false, true, false, true}},
		// Two bytes or more: i < len(r.data) holds at both reads.
		{"length remembered", "Pair", pair("Pair"), []bool{false, true, true, false}},
		{"length written through an alias", "PairAliased", pair("PairAliased"), []bool{false, false, false, false}},
		{"length written by an opaque call", "PairOpaque", pair("PairOpaque"), []bool{false, false, false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := fresh()
			by, alarms := ms.Prune(tc.tr.outs, false, tc.tr.path)
			if len(alarms) > 0 {
				t.Fatalf("alarms %v on an execution of the program", alarms)
			}
			if len(by) != len(tc.by) {
				t.Fatalf("%d verdicts, want %d", len(by), len(tc.by))
			}
			own := mon(tc.fn)
			for i := range by {
				want := -1
				if tc.by[i] {
					want = own
				}
				if by[i] != want {
					t.Errorf("event %d (%+v): pruned by %d, want %d", i, tc.tr.path[i], by[i], want)
				}
			}
		})
	}
}
