package main

import (
	"slices"
	"strings"
	"testing"
)

// TestSummarise checks a row: means over the runs, the range of
// coverage, and pruned outcomes covered added up, not averaged.
func TestSummarise(t *testing.T) {
	r := summarise([]record{
		{Covered: 10, Total: 20, Unreachable: 1, Execs: 100, Queries: 30, Unsat: 10, MCMS: 100, Rounds: 1, Pruned: 4, Held: 1, Alarms: 0, PrunedCovered: 0},
		{Covered: 14, Total: 20, Unreachable: 3, Execs: 300, Queries: 50, Unsat: 20, MCMS: 300, Rounds: 3, Pruned: 2, Held: 4, Alarms: 1, PrunedCovered: 1},
	})
	if r.covered != 12 || r.min != 10 || r.max != 14 || r.total != 20 || r.unreachable != 2 || r.execs != 200 || r.queries != 40 || r.unsat != 15 || r.mcMS != 200 || r.rounds != 2 || r.pruned != 3 || r.held != 2.5 || r.alarms != 0.5 || r.prunedCovered != 1 {
		t.Errorf("row %+v", r)
	}
	if z := summarise(nil); z != (row{}) {
		t.Errorf("no runs: %+v", z)
	}
}

// TestTable checks that each program given and mode that ran has a row,
// with its failures counted, and that the others have none.
func TestTable(t *testing.T) {
	var b strings.Builder
	off, on := mode{}, mode{Abstraction: true}
	dfs, dfsOn := mode{Strategy: "dfs"}, mode{Strategy: "dfs", Abstraction: true, MCShare: 0.4}
	table(&b, []record{
		{Program: "unreach", mode: off, Seed: 1, Covered: 8, Total: 10},
		{Program: "unreach", mode: on, Seed: 1, Covered: 9, Total: 10, Unreachable: 1, Execs: 100, Queries: 7, Unsat: 3, Pruned: 2, Held: 1},
		{Program: "nsichneu9x400", mode: on, Seed: 1, Covered: 5, Total: 10},
		{Program: "unreach", mode: on, Seed: 2, Failure: "exit 2"},
		{Program: "unreach", mode: dfsOn, Seed: 1, Covered: 10, Total: 10},
	}, []program{{"unreach", "Run"}, {"nsichneu9x400", "Run"}}, []mode{off, on, dfs, dfsOn}, 100, 0, 2)
	out := b.String()
	for _, want := range []string{
		"| unreach | default | off | 8.0 (8–8) / 10 | 0.0 | 8.0 / 10.0 |",
		"| unreach | default | on | 9.0 (9–9) / 10 | 1.0 | 9.0 / 9.0 | 100 | 7 (3) | 0 | 0.0 | 2.0 (1.0) | 0.0 | 0 | 1 |",
		"| nsichneu9x400 | default | on | 5.0 (5–5) / 10 |",
		"| unreach | dfs | on, share 0.4 | 10.0 (10–10) / 10 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"simplewhile", "| dfs | off |"} {
		if strings.Contains(out, not) {
			t.Errorf("a row for %q, which did not run:\n%s", not, out)
		}
	}
}

// TestModes checks the modes of -strategies and -mc-share: per
// strategy, off and then on at each share, and shares out of range
// refused.
func TestModes(t *testing.T) {
	for _, tc := range []struct {
		strategies, shares string
		want               []mode
		err                bool
	}{
		{"", "", []mode{{}, {Abstraction: true}}, false},
		{"cover,dfs", "", []mode{{Strategy: "cover"}, {Strategy: "cover", Abstraction: true}, {Strategy: "dfs"}, {Strategy: "dfs", Abstraction: true}}, false},
		{"", "0.1,0.5", []mode{{}, {Abstraction: true, MCShare: 0.1}, {Abstraction: true, MCShare: 0.5}}, false},
		{"", "1", nil, true},
		{"", "x", nil, true},
	} {
		got, err := modes(tc.strategies, tc.shares)
		if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
			t.Errorf("modes(%q, %q) = %v, %v; want %v (error %t)", tc.strategies, tc.shares, got, err, tc.want, tc.err)
		}
	}
}

// TestChoose checks the -programs filter.
func TestChoose(t *testing.T) {
	ps, err := choose("unreach,simplewhile")
	if err != nil || len(ps) != 2 || ps[0].name != "unreach" {
		t.Errorf("choose: %v, %v", ps, err)
	}
	if _, err := choose("nope"); err == nil {
		t.Error("an unknown program was accepted")
	}
}
