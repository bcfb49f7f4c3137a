package main

import (
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/corpus"
	schema "github.com/gocolic/gocolic/report"
)

func str(s string) corpus.Value { return corpus.Value{Type: "string", Bytes: []byte(s)} }
func byt(s string) corpus.Value { return corpus.Value{Type: "[]byte", Bytes: []byte(s)} }

func TestStatsOf(t *testing.T) {
	cases := []struct {
		name      string
		entries   [][]corpus.Value
		want      entryStats
		mean      string // lengthCell
		nonprint  string // unprintableCell
		haveMean  bool
		haveShare bool
	}{
		{name: "none", want: entryStats{}, mean: "–", nonprint: "–"},
		{
			name:    "integers only",
			entries: [][]corpus.Value{{{Type: "int", Int: 7}}, {{Type: "uint8", Uint: 0}, {Type: "bool", Bool: true}}},
			want:    entryStats{entries: 2}, mean: "–", nonprint: "–",
		},
		{
			name:    "empty strings have a length but no bytes",
			entries: [][]corpus.Value{{str("")}, {byt("")}},
			want:    entryStats{entries: 2, values: 2}, mean: "0.0", nonprint: "–", haveMean: true,
		},
		{
			// 4 + 2 + 0 bytes over 3 values; \x00, \x7f, \xff and \n are
			// not printable, ' ' and '~' are.
			name:    "strings and byte slices beside integers",
			entries: [][]corpus.Value{{str("a\x00 ~"), {Type: "int64", Int: -1}}, {byt("\x7f\xff")}, {str("")}},
			want:    entryStats{entries: 3, values: 3, bytes: 6, unprintable: 3}, mean: "2.0", nonprint: "50.0 % (3)", haveMean: true, haveShare: true,
		},
		{
			name:    "the alias byte counts as uint8, not as bytes",
			entries: [][]corpus.Value{{{Type: "byte", Uint: 0}, str("\n")}},
			want:    entryStats{entries: 1, values: 1, bytes: 1, unprintable: 1}, mean: "1.0", nonprint: "100.0 % (1)", haveMean: true, haveShare: true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := statsOf(c.entries)
			if got != c.want {
				t.Fatalf("statsOf = %+v, want %+v", got, c.want)
			}
			if _, ok := got.meanLen(); ok != c.haveMean {
				t.Errorf("meanLen ok = %v, want %v", ok, c.haveMean)
			}
			if _, ok := got.unprintableShare(); ok != c.haveShare {
				t.Errorf("unprintableShare ok = %v, want %v", ok, c.haveShare)
			}
			if s := lengthCell(got); s != c.mean {
				t.Errorf("lengthCell = %q, want %q", s, c.mean)
			}
			if s := unprintableCell(got); s != c.nonprint {
				t.Errorf("unprintableCell = %q, want %q", s, c.nonprint)
			}
		})
	}
}

func TestCheckReplay(t *testing.T) {
	rep := func(execs, covered int) *schema.Report {
		return &schema.Report{Executions: execs, Branches: schema.Branches{Covered: covered, Total: 40}}
	}
	out := func(seeds string) []byte {
		return []byte("gocolic: " + seeds + "\ngocolic: exploring p.FuzzX with 1 workers\n")
	}
	cases := []struct {
		name      string
		out       []byte
		rep       *schema.Report
		runs      int
		covered   int
		seeds     int
		errSubstr string // "" for a replay that counts
	}{
		{"every seed once", out("5 seed inputs"), rep(5, 12), 5, 12, 5, ""},
		{"one seed", out("1 seed input"), rep(1, 3), 1, 3, 1, ""},
		{"an f.Add seed gocolic could not read", out("4 seed inputs"), rep(5, 12), 5, 0, 4, "read 4 seeds"},
		{"fewer executions than seeds", out("5 seed inputs"), rep(3, 12), 5, 0, 5, "3 executions for 5 seeds"},
		{"no report", out("5 seed inputs"), nil, 5, 0, 5, "no report"},
		{"no seed line", []byte("gocolic: building the instrumented worker failed\n"), rep(0, 0), 5, 0, -1, "did not say"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := checkReplay(c.out, c.rep, c.runs)
			if o.seeds != c.seeds {
				t.Errorf("seeds = %d, want %d", o.seeds, c.seeds)
			}
			if c.errSubstr == "" {
				if o.err != nil || o.covered != c.covered || o.total != 40 {
					t.Fatalf("got %d/%d, %v; want %d/40", o.covered, o.total, o.err, c.covered)
				}
				return
			}
			if o.err == nil || !strings.Contains(o.err.Error(), c.errSubstr) {
				t.Fatalf("err = %v, want one saying %q", o.err, c.errSubstr)
			}
			if o.covered != 0 || coverCell(o) != "error" {
				t.Errorf("a replay that does not count shows %d covered, cell %q", o.covered, coverCell(o))
			}
		})
	}
}

func TestMinimizeCell(t *testing.T) {
	cases := []struct {
		rep    *schema.Report
		budget time.Duration
		want   string
	}{
		{&schema.Report{MinimizeMS: 500, MinimizeExecs: 40}, 10 * time.Second, "500 ms (40 execs), 5 % of the budget"},
		{&schema.Report{MinimizeMS: 13182, MinimizeExecs: 1385}, 10 * time.Second, "13182 ms (1385 execs), 132 % of the budget"},
		// A report written before minimisation was recorded.
		{&schema.Report{}, 10 * time.Second, "–"},
		{nil, 10 * time.Second, "–"},
	}
	for _, c := range cases {
		if got := minimizeCell(c.rep, c.budget); got != c.want {
			t.Errorf("minimizeCell(%+v) = %q, want %q", c.rep, got, c.want)
		}
	}
}

func TestEntriesReport(t *testing.T) {
	h := harness{Dir: "semver", Fuzz: "FuzzNewVersion", Target: "example.com/semver"}
	before := entriesRun{
		g:     gocolicRun{status: "ok", rep: &schema.Report{Branches: schema.Branches{Covered: 30, Total: 50}}, wall: 11 * time.Second},
		stats: statsOf([][]corpus.Value{{str("\x00\x00ab")}, {str("1.2.3\xff")}, {str("v\x00")}}),
		cover: outcomeReplay{covered: 30, total: 50},
	}
	after := entriesRun{
		g: gocolicRun{status: "ok", wall: 12500 * time.Millisecond, rep: &schema.Report{
			Branches: schema.Branches{Covered: 31, Total: 50}, CasesFound: 4, MinimizeMS: 900, MinimizeExecs: 77}},
		stats: statsOf([][]corpus.Value{{str("ab")}, {str("1.2.3")}}),
		cover: outcomeReplay{covered: 31, total: 50},
	}
	failed := after
	failed.g.status, failed.g.detail = "exit 1", "building the instrumented worker failed"
	failed.cover = outcomeReplay{err: checkReplay(nil, nil, 1).err}
	cases := []struct {
		name   string
		res    entriesResult
		before bool
		row    string
		notes  []string
	}{
		{
			name:   "before and after",
			res:    entriesResult{h: h, version: "example.com/semver@v1.0.0", seeds: outcomeReplay{covered: 20, total: 50}, before: &before, after: after},
			before: true,
			row: "| semver.FuzzNewVersion | example.com/semver@v1.0.0 | 3 → 2 (found 4) | 4.0 → 3.5 | 33.3 % (4) → 0.0 % (0) | 20/50 | 30/50 → 31/50 | 30/50 → 31/50 | " +
				"900 ms (77 execs), 9 % of the budget | 11.0 s → 12.5 s |",
		},
		{
			name: "after alone, failed",
			res:  entriesResult{h: h, version: "v", seeds: outcomeReplay{covered: 20, total: 50}, after: failed},
			row:  "| semver.FuzzNewVersion | v | 2 (found 4) | 3.5 | 0.0 % (0) | 20/50 | error | 31/50 | 900 ms (77 execs), 9 % of the budget | 12.5 s |",
			notes: []string{
				"- semver.FuzzNewVersion (after): gocolic exit 1: building the instrumented worker failed",
				"- semver.FuzzNewVersion (after): replay: no report",
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			md := entriesReport([]entriesResult{c.res}, config{budget: 10 * time.Second, workers: 1, minimizeTime: 10 * time.Second, instrument: true}, "1.26.0", c.before)
			if !strings.Contains(md, c.row+"\n") {
				t.Errorf("no row\n%s\nin\n%s", c.row, md)
			}
			for _, n := range c.notes {
				if !strings.Contains(md, n+"\n") {
					t.Errorf("no note %q in\n%s", n, md)
				}
			}
			if got := strings.Count(md, "\n- "); got != len(c.notes) {
				t.Errorf("%d notes, want %d:\n%s", got, len(c.notes), md)
			}
		})
	}
}
