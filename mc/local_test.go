package mc

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/sym"
)

// TestProveLocal checks which goals the straight code before them
// proves unreachable: the contradicted ones, and none whose reason lies
// past a join, around a loop, in a wrapping subtraction or behind an
// unknown call.
func TestProveLocal(t *testing.T) {
	p := loadHere(t, "testdata", "local")
	slv := newZ3(t)
	for _, tt := range []struct {
		fn, text string
		taken    bool
		want     bool
	}{
		{"Net", "m < -4", true, true},
		{"Net", "m < -4", false, false},
		{"Net", "m >= 3", true, false},
		{"Net", "v > 0", false, false},
		{"Wrapped", "m > 100", true, false},
		{"Wrapped", "m > 100", false, true}, // m is 125, 126 or 127 there
		{"Joined", "y == 0", true, false},
		{"Counter", "i == 5", true, false},
		{"Field", "p.N < -4", true, true},
		{"Field", "p.N < -4", false, false},
		{"Touched", "p.N < -4", true, false},
	} {
		gl := p.goal(t, tt.fn, tt.text, tt.taken)
		enc := NewEncoder(sym.NewBuilder(), p.fns[tt.fn])
		got, err := ProveLocal(context.Background(), p.g, enc, slv, gl)
		if err != nil {
			t.Fatalf("%s %q %t: %v", tt.fn, tt.text, tt.taken, err)
		}
		if got != tt.want {
			t.Errorf("%s: outcome %t of %q proved unreachable: %t, want %t", tt.fn, tt.taken, tt.text, got, tt.want)
		}
	}
}

// TestProveUncoveredLocal checks that Prove reports the goals the
// straight code proves, counted apart, and never claims a reachable one.
func TestProveUncoveredLocal(t *testing.T) {
	p := loadHere(t, "testdata", "local")
	proved, sum, err := Prove(context.Background(), p.g, p.table, 20*time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	got := map[sites.Outcome]bool{}
	for _, o := range proved {
		got[o] = true
	}
	for _, w := range []struct {
		fn, text string
	}{{"Net", "m < -4"}, {"Field", "p.N < -4"}} {
		gl := p.goal(t, w.fn, w.text, true)
		if !got[sites.OutcomeOf(gl.Site, true)] {
			t.Errorf("%s's %q not proved unreachable; proved %v", w.fn, w.text, proved)
		}
	}
	for _, w := range []struct {
		fn, text string
	}{{"Wrapped", "m > 100"}, {"Touched", "p.N < -4"}} {
		gl := p.goal(t, w.fn, w.text, true)
		if got[sites.OutcomeOf(gl.Site, true)] {
			t.Errorf("%s's reachable %q claimed unreachable", w.fn, w.text)
		}
	}
	for _, o := range proved {
		t.Logf("proved %v", o)
	}
	if sum.Local != 3 {
		t.Errorf("Summary.Local = %d, want 3 (Net's, Field's and Wrapped's false outcome)", sum.Local)
	}
	if sum.Unreachable < sum.Local {
		t.Errorf("Summary.Unreachable %d < Local %d", sum.Unreachable, sum.Local)
	}
}

// TestMonitorOptionalLoop replays traces of Fields through its monitor:
// with the range loop's outcomes or without them (the runtime leaves
// them out when the length is concrete) the replay follows, and an
// outcome after the function returned is still an alarm.
func TestMonitorOptionalLoop(t *testing.T) {
	p := loadHere(t, "testdata", "local")
	_, sum, err := Prove(context.Background(), p.g, p.table, 20*time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var m *Monitor
	for _, a := range sum.Graphs {
		if a.Fn == p.fns["Fields"] {
			m = NewMonitor(p.g, a)
		}
	}
	if m == nil {
		t.Fatal("no graph of Fields")
	}
	var loop, eq uint32
	for _, s := range p.table {
		switch {
		case strings.HasSuffix(s.Func, "Fields") && s.Kind == sites.Loop:
			loop = s.ID
		case strings.HasSuffix(s.Func, "Fields") && s.Text == `w == "x"`:
			eq = s.ID
		}
	}
	if br := p.g.Branch(loop); br == nil || !br.Optional {
		t.Fatalf("the range loop's site %d: %+v, want an optional branch", loop, br)
	}
	o := sites.OutcomeOf
	for _, tt := range []struct {
		name  string
		trace []sites.Outcome
		alarm bool
	}{
		{"without the loop's outcomes", []sites.Outcome{o(eq, false), o(eq, false), o(eq, true)}, false},
		{"with them", []sites.Outcome{o(loop, true), o(eq, false), o(loop, true), o(eq, true)}, false},
		{"mixed", []sites.Outcome{o(eq, false), o(loop, true), o(eq, false), o(loop, false)}, false},
		{"after the return", []sites.Outcome{o(eq, true), o(eq, false)}, true},
	} {
		r := m.Start()
		for _, x := range tt.trace {
			r.Step(x)
		}
		if r.Alarm != tt.alarm {
			t.Errorf("%s: alarm %t, want %t", tt.name, r.Alarm, tt.alarm)
		}
	}
}
