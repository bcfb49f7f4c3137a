package sites

import "testing"

func TestCoverage(t *testing.T) {
	table := []Site{{ID: 0, Kind: Cond}, {ID: 1, Kind: Implicit}, {ID: 2, Kind: Cond}, {ID: 3, Kind: Concrete}}
	c := Coverage{}
	steps := []struct {
		site     uint32
		side     bool
		new      bool
		covered  int
		hasOther bool // the opposite outcome is covered after the step
	}{
		{0, true, true, 1, false},
		{0, true, false, 1, false},
		{0, false, true, 2, true},
		{1, true, true, 2, false}, // not a condition: not counted
		{2, false, true, 3, false},
	}
	for i, s := range steps {
		if got := c.Add(s.site, s.side); got != s.new {
			t.Errorf("step %d: Add(%d, %v) = %v, want %v", i, s.site, s.side, got, s.new)
		}
		if !c.Has(s.site, s.side) {
			t.Errorf("step %d: Has(%d, %v) = false after Add", i, s.site, s.side)
		}
		if got := c.Has(s.site, !s.side); got != s.hasOther {
			t.Errorf("step %d: Has(%d, %v) = %v, want %v", i, s.site, !s.side, got, s.hasOther)
		}
		covered, total := c.CondOutcomes(table)
		if covered != s.covered || total != 4 {
			t.Errorf("step %d: CondOutcomes = %d/%d, want %d/4", i, covered, total, s.covered)
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{Cond: "cond", Implicit: "implicit", Loop: "loop", Test: "test", Concrete: "concrete", 0: "?"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}
