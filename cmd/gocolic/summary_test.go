package main

import (
	"bytes"
	"go/token"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/session"
	"github.com/gocolic/gocolic/sites"
)

// TestConcretisedSummary checks the lines the summary gives the
// divergences and the values made concrete.
func TestConcretisedSummary(t *testing.T) {
	sites := []sites.Site{
		{ID: 0, Kind: sites.Cond},
		{ID: 1, Kind: sites.Concrete, Pos: token.Position{Filename: "/m/h/h.go", Line: 11}, Text: "sha256.Sum256(b)"},
		{ID: 2, Kind: sites.Concrete, Pos: token.Position{Filename: "/gm/github.com/!x/y@v1.2.3/parser.go", Line: 299}, Text: "f(s)"},
		{ID: 3, Kind: sites.Concrete, Pos: token.Position{Filename: "/go/src/regexp/backtrack.go", Line: 90}, Text: "g(s)"},
		{ID: 4, Kind: sites.Cond, Pos: token.Position{Filename: "/m/h/h.go", Line: 20}, Text: "x > 3"},
		{ID: 5, Kind: sites.Cond, Pos: token.Position{Filename: "/gm/github.com/!x/y@v1.2.3/parser.go", Line: 40}, Text: "c == '='"},
	}
	tests := []struct {
		name     string
		execs    [][]rt.Concretised // one per execution; the odd ones diverge at depth 0
		diverged map[uint32]int     // divergences per site
		want     []string
	}{
		{name: "nothing to say"},
		{
			name:  "divergences only",
			execs: [][]rt.Concretised{nil, nil},
			want:  []string{"gocolic: divergences: 1; no value was made concrete\n"},
		},
		{
			name:     "divergences at their sites, the three with most",
			execs:    [][]rt.Concretised{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
			diverged: map[uint32]int{4: 3, 5: 2, 0: 1, 9: 1},
			want: []string{
				"gocolic: divergences: 7; no value was made concrete\n",
				"gocolic: executions left their predicted path most at: h/h.go:20 x > 3 ×3, github.com/X/y@v1.2.3/parser.go:40 c == '=' ×2, (unknown place) ×1\n",
			},
		},
		{
			name: "causes with their places",
			execs: [][]rt.Concretised{
				{{Site: 1, Cause: rt.CauseCall, Count: 2}},
				{{Site: 1, Cause: rt.CauseCall, Count: 1}, {Site: rt.NoSite, Cause: rt.CauseStale, Count: 4}},
			},
			want: []string{
				"gocolic: divergences: 1, 0 of them after no concretised value; values made concrete, by cause:\n",
				// As many divergences: the cause with more events first.
				"  stale: 4 times in 1 executions, before 1 of the divergences; at (unknown place) ×4\n",
				"  call: 3 times in 2 executions, before 1 of the divergences; at h/h.go:11 sha256.Sum256(b) ×3\n",
			},
		},
		{
			name: "places in the module cache and GOROOT",
			execs: [][]rt.Concretised{
				{{Site: 2, Cause: rt.CauseCall, Count: 2}, {Site: 3, Cause: rt.CauseCall, Count: 1}},
			},
			want: []string{
				"gocolic: divergences: 0, 0 of them after no concretised value; values made concrete, by cause:\n",
				"  call: 3 times in 1 executions, before 0 of the divergences; at github.com/X/y@v1.2.3/parser.go:299 f(s) ×2, $GOROOT/src/regexp/backtrack.go:90 g(s) ×1\n",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &coordinator.Report{DivergedSites: tt.diverged}
			for i, e := range tt.execs {
				at := -1
				if i%2 == 1 {
					at = 0
				}
				rep.Concretised.Add(e, at)
			}
			var buf bytes.Buffer
			concretised(&buf, &session.Outcome{Report: rep, Entry: &session.Entry{Sites: sites, GoRoot: "/go", ModCache: "/gm"}}, "/m")
			if got := buf.String(); got != strings.Join(tt.want, "") {
				t.Errorf("summary\n%s\nwant\n%s", got, strings.Join(tt.want, ""))
			}
		})
	}
}

// TestWastedSummary checks the lines the summary gives the failed
// queries: the stuck ones given up, with their sites and lost solvers;
// the totals and the sites with most failures, at most three.
func TestWastedSummary(t *testing.T) {
	sites := []sites.Site{
		{ID: 0, Kind: sites.Cond, Pos: token.Position{Filename: "/m/p/p.go", Line: 4}, Text: "x > 2"},
		{ID: 1, Kind: sites.Cond, Pos: token.Position{Filename: "/m/p/p.go", Line: 9}, Text: "y == x"},
	}
	tests := []struct {
		name    string
		queries map[string]int
		sites   map[uint32]*coordinator.SiteQueries
		stuck   coordinator.StuckStats
		want    []string
	}{
		{name: "nothing failed", queries: map[string]int{"sat": 3}, sites: map[uint32]*coordinator.SiteQueries{0: {Queries: 3, Sat: 3}}},
		{
			name:    "sites with failures, most first",
			queries: map[string]int{"sat": 4, "unsat": 5, "unknown": 1, "error": 1},
			sites: map[uint32]*coordinator.SiteQueries{
				0: {Queries: 3, Sat: 1, Unsat: 1, Unknown: 1, Time: 1500 * time.Microsecond},
				1: {Queries: 5, Sat: 1, Unsat: 4, Time: 2 * time.Second},
				7: {Queries: 1, Unknown: 1},
				8: {Queries: 2, Sat: 2},
			},
			want: []string{
				"gocolic: solver: 11 queries, 5 unsat, 2 unknown; most failed at:\n",
				"  p/p.go:9 y == x: 4 of 5 failed, 2s\n",
				"  p/p.go:4 x > 2: 2 of 3 failed, 2ms\n",
				"  (unknown place): 1 of 1 failed, 0s\n",
			},
		},
		{
			name:    "stuck queries",
			queries: map[string]int{"sat": 1, "stuck": 2},
			sites: map[uint32]*coordinator.SiteQueries{
				0: {Queries: 1, Sat: 1},
				1: {Queries: 2, Unknown: 2, Stuck: 2, Time: 3 * time.Second},
			},
			stuck: coordinator.StuckStats{Queries: 2, Replaced: 1, Dead: 1, Why: "no more"},
			want: []string{
				"gocolic: solver: 2 queries ignored -solver-timeout and their interrupt and were given up (counted unknown); 1 solvers replaced; up to 1 solvers lost: no more\n",
				"  stuck at p/p.go:9 y == x: 2\n",
				"gocolic: solver: 3 queries, 0 unsat, 2 unknown; most failed at:\n",
				"  p/p.go:9 y == x: 2 of 2 failed, 3s\n",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &coordinator.Report{Queries: tt.queries, SiteQueries: tt.sites, Stuck: tt.stuck}
			var buf bytes.Buffer
			wasted(&buf, &session.Outcome{Report: rep, Entry: &session.Entry{Sites: sites}}, "/m")
			if got := buf.String(); got != strings.Join(tt.want, "") {
				t.Errorf("summary\n%s\nwant\n%s", got, strings.Join(tt.want, ""))
			}
		})
	}
}

// TestStateDependentSummary checks the line the summary gives the
// failures that did not recur alone: none, a few, and more than it names,
// some of them classified without a run.
func TestStateDependentSummary(t *testing.T) {
	redefined := func(names ...string) []*coordinator.Finding {
		var fs []*coordinator.Finding
		for _, n := range names {
			fs = append(fs, &coordinator.Finding{Kind: "panic", Message: "flag redefined: " + n})
		}
		return fs
	}
	tests := []struct {
		name  string
		found []*coordinator.Finding
		alone coordinator.AloneStats
		want  string
	}{
		{name: "none", alone: coordinator.AloneStats{Checked: 2}},
		{
			name:  "two",
			found: append(redefined("a"), &coordinator.Finding{Kind: "exit", Message: "exit status 5\nmore"}),
			alone: coordinator.AloneStats{Checked: 2},
			want:  "gocolic: 2 failures did not recur when their input ran alone in a fresh worker process: not reported as bugs; they depend on state earlier executions left in the process (package-level variables); state_dependent in the report lists them: panic: flag redefined: a; exit: exit status 5\n",
		},
		{
			name:  "more than named",
			found: redefined("a", "\x00\a", "c", "d", "e"),
			alone: coordinator.AloneStats{Checked: 3, Inferred: 2},
			want:  "gocolic: 5 failures did not recur when their input ran alone in a fresh worker process, 2 of them without a run of their own (others of their kind and place had not recurred): not reported as bugs; they depend on state earlier executions left in the process (package-level variables); state_dependent in the report lists them: panic: flag redefined: a; panic: \"flag redefined: \\x00\\a\"; panic: flag redefined: c; ...\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			stateDependent(&buf, &coordinator.Report{StateDependent: tt.found, Alone: tt.alone})
			if got := buf.String(); got != tt.want {
				t.Errorf("summary\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}
