package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// writeRunDir makes a run directory holding report.json (and cover.out
// when profile is not empty).
func writeRunDir(t *testing.T, parent, name, reportJSON, profile string) string {
	t.Helper()
	dir := filepath.Join(parent, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ReportFile), []byte(reportJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	if profile != "" {
		if err := os.WriteFile(filepath.Join(dir, ProfileFile), []byte(profile), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// render writes the page of the runs and returns it.
func render(t *testing.T, runs []*Run, opts Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, runs, opts); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.String()
}

// run makes a Run of a report, with its strategy in the config.
func run(dir, strategy string, rep Report) *Run {
	if strategy != "" {
		rep.Config = map[string]any{"strategy": strategy}
	}
	return &Run{Dir: dir, Report: rep}
}

var (
	curveRE  = regexp.MustCompile(`<polyline class="curve[^"]*" data-run="([^"]*)" data-index="(\d+)"[^>]*points="([^"]*)"`)
	legendRE = regexp.MustCompile(`<g class="legend-item" data-run="([^"]*)">`)
	siteRE   = regexp.MustCompile(`<span class="site (\w+(?: proved)?)" title="([^"]*)">([^<]*)</span>`)
)

func TestLoad(t *testing.T) {
	parent := t.TempDir()
	notDir := filepath.Join(parent, "file")
	os.WriteFile(notDir, []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(parent, "empty"), 0o755)
	tests := []struct {
		name, json, profile string
		dir                 string // instead of a run directory made of json
		wantErr             []string
		check               func(t *testing.T, r *Run)
	}{
		{name: "missing directory", dir: filepath.Join(parent, "nope"), wantErr: []string{"nope", "does not exist"}},
		{name: "not a directory", dir: notDir, wantErr: []string{notDir, "not a directory"}},
		{name: "no report", dir: filepath.Join(parent, "empty"), wantErr: []string{filepath.Join(parent, "empty", ReportFile), "no such file"}},
		{name: "syntax error", json: `{"executions": 3,`, wantErr: []string{ReportFile, "malformed JSON"}},
		{name: "wrong type", json: `{"executions": "many"}`, wantErr: []string{ReportFile, "malformed JSON"}},
		{name: "not an object", json: `[1, 2]`, wantErr: []string{ReportFile, "not a JSON object"}},
		{name: "null", json: `null`, wantErr: []string{ReportFile, "not a JSON object"}},
		{name: "empty object", json: `{}`, check: func(t *testing.T, r *Run) {
			if r.Profile != "" || r.Report.Executions != 0 || r.Report.Timeline != nil {
				t.Errorf("empty report loaded as %+v", r)
			}
		}},
		{name: "unknown fields and profile", json: `{"tool":"gocolic","command":"fuzz","module_dir":"/m","executions":7,"future":{"x":1},
			"config":{"strategy":"dfs","seed":42,"workers":4,"budget":"5s"},"bugs":[{"kind":"panic","message":"m","found_ms":12,"minimized":true}]}`,
			profile: "mode: set\n", check: func(t *testing.T, r *Run) {
				rep := r.Report
				if rep.Command != "fuzz" || rep.ModuleDir != "/m" || rep.Executions != 7 || len(rep.Bugs) != 1 || !rep.Bugs[0].Minimized {
					t.Errorf("report: %+v", rep)
				}
				for k, want := range map[string]string{"strategy": "dfs", "seed": "42", "workers": "4", "budget": "5s", "missing": ""} {
					if got := rep.Setting(k); got != want {
						t.Errorf("Setting(%q) = %q, want %q", k, got, want)
					}
				}
				if filepath.Base(r.Profile) != ProfileFile {
					t.Errorf("profile %q, want the run's cover.out", r.Profile)
				}
			}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.dir
			if dir == "" {
				dir = writeRunDir(t, parent, fmt.Sprint("run", i), tt.json, tt.profile)
			}
			r, err := Load(dir)
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("Load succeeded, want an error")
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, r)
		})
	}
}

// TestDifferingSettings checks that a comparison shows a row for each
// setting its runs differ in, and none for outputs or equal settings.
func TestDifferingSettings(t *testing.T) {
	runs := []*Run{
		{Dir: "a", Report: Report{Config: map[string]any{"solver": "z3", "walksteps": 250.0, "json": "a.json", "seed": 1.0}}},
		{Dir: "b", Report: Report{Config: map[string]any{"solver": "walk", "walksteps": 250.0, "json": "b.json", "seed": 2.0, "depth": 4.0}}},
	}
	if got, want := fmt.Sprint(differingSettings(runs)), "[depth solver]"; got != want {
		t.Errorf("differing settings %s, want %s", got, want)
	}
	page := render(t, runs, Options{})
	for _, want := range []string{">solver<", ">walk<", ">depth<"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if got := differingSettings(runs[:1]); got != nil {
		t.Errorf("one run: differing settings %v, want none", got)
	}
}

func TestLabels(t *testing.T) {
	tests := []struct {
		name   string
		runs   []*Run
		labels []string
		want   []string
	}{
		{"dir and strategy", []*Run{run("/x/runA", "cover", Report{}), run("/y/runB/", "dfs", Report{})}, nil, []string{"runA (cover)", "runB (dfs)"}},
		{"strategy named dir", []*Run{run("out/dfs", "dfs", Report{})}, nil, []string{"dfs"}},
		{"no strategy", []*Run{run("r1", "", Report{})}, nil, []string{"r1"}},
		{"override", []*Run{run("a", "cover", Report{}), run("b", "dfs", Report{})}, []string{"mine", ""}, []string{"mine", "b (dfs)"}},
		{"duplicates", []*Run{run("x/r", "cover", Report{}), run("y/r", "cover", Report{})}, nil, []string{"r (cover)", "r (cover) #2"}},
		{"solver modes", []*Run{
			{Dir: "a", Report: Report{Config: map[string]any{"strategy": "cover", "solver": "z3", "depth": 0.0, "rundir": "a"}}},
			{Dir: "b", Report: Report{Config: map[string]any{"strategy": "cover", "solver": "walk", "depth": 0.0, "rundir": "b"}}},
		}, nil, []string{"a (cover, solver z3)", "b (cover, solver walk)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Labels(tt.runs, Options{Labels: tt.labels})
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("labels %q, want %q", got, tt.want)
			}
			page := render(t, tt.runs, Options{Labels: tt.labels})
			var legend []string
			for _, m := range legendRE.FindAllStringSubmatch(page, -1) {
				legend = append(legend, html.UnescapeString(m[1]))
			}
			if fmt.Sprint(legend) != fmt.Sprint(tt.want) {
				t.Errorf("legend %q, want %q", legend, tt.want)
			}
		})
	}
}

// timeline makes a timeline of (ms, covered) pairs.
func timeline(pairs ...int) []Point {
	var tl []Point
	for i := 0; i+1 < len(pairs); i += 2 {
		tl = append(tl, Point{MS: int64(pairs[i]), Covered: pairs[i+1], Execs: i/2 + 1})
	}
	return tl
}

func TestCurves(t *testing.T) {
	tests := []struct {
		name string
		runs []*Run
	}{
		{"one run", []*Run{run("a", "cover", Report{ElapsedMS: 2000, Branches: Branches{Covered: 9, Total: 10}, Timeline: timeline(1, 3, 50, 5, 1500, 9, 2000, 9)})}},
		{"two runs", []*Run{
			run("a", "cover", Report{ElapsedMS: 5000, Branches: Branches{Covered: 70, Total: 74}, Timeline: timeline(1, 3, 4, 15, 2400, 55, 2900, 70, 5000, 70)}),
			run("b", "dfs", Report{ElapsedMS: 3000, Branches: Branches{Covered: 20, Total: 74}, Timeline: timeline(2, 3, 19, 20, 3000, 20)}),
		}},
		{"three runs, one empty", []*Run{
			run("a", "cover", Report{ElapsedMS: 1000, Timeline: timeline(10, 1, 900, 4)}),
			run("b", "bfs", Report{ElapsedMS: 800}),
			run("c", "random", Report{ElapsedMS: 1200, Timeline: timeline(300, 2)}),
		}},
		{"unsorted timeline", []*Run{run("a", "", Report{ElapsedMS: 100, Timeline: timeline(90, 5, 10, 2, 50, 3)})}},
		{"nothing at all", []*Run{run("a", "", Report{})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := render(t, tt.runs, Options{})
			if strings.Contains(page, "NaN") || strings.Contains(page, "Inf") {
				t.Fatalf("page has NaN or Inf coordinates")
			}
			curves := curveRE.FindAllStringSubmatch(page, -1)
			if len(curves) != len(tt.runs) {
				t.Fatalf("%d curves, want %d", len(curves), len(tt.runs))
			}
			if n := len(legendRE.FindAllString(page, -1)); n != len(tt.runs) {
				t.Errorf("%d legend entries, want %d", n, len(tt.runs))
			}
			labels := Labels(tt.runs, Options{})
			p := layoutPlot(tt.runs, labels)
			for i, c := range curves {
				if html.UnescapeString(c[1]) != labels[i] || c[2] != strconv.Itoa(i) {
					t.Errorf("curve %d: data-run %q index %s, want %q", i, c[1], c[2], labels[i])
				}
				pts := parsePoints(t, c[3])
				rep := tt.runs[i].Report
				if len(rep.Timeline) == 0 {
					if len(pts) != 0 || !strings.Contains(c[0], "curve empty") {
						t.Errorf("run without timeline: %q", c[0])
					}
					continue
				}
				// Starts at the origin, x never goes back, covered never
				// drops (SVG y grows downwards), all inside the plot.
				if pts[0] != [2]float64{p.Left, p.Bottom} {
					t.Errorf("curve %d starts at %v, want the origin (%v, %v)", i, pts[0], p.Left, p.Bottom)
				}
				for k := 1; k < len(pts); k++ {
					if pts[k][0] < pts[k-1][0] || pts[k][1] > pts[k-1][1] {
						t.Errorf("curve %d not monotonic at %d: %v then %v", i, k, pts[k-1], pts[k])
					}
				}
				for _, pt := range pts {
					if pt[0] < p.Left || pt[0] > p.Right+0.05 || pt[1] < p.Top-0.05 || pt[1] > p.Bottom {
						t.Errorf("curve %d: point %v outside the plot", i, pt)
					}
				}
				// The end: the run's last time and final coverage, on the
				// shared scale.
				xTop, yTop := axisTop(t, p.XTicks, p.Left, p.Right), axisTop(t, p.YTicks, p.Bottom, p.Top)
				last := pts[len(pts)-1]
				final := 0
				for _, pt := range rep.Timeline {
					final = max(final, pt.Covered)
				}
				wantX := p.Left + (p.Right-p.Left)*float64(endMS(&rep))/1000/xTop
				wantY := p.Bottom - (p.Bottom-p.Top)*float64(final)/yTop
				if abs(last[0]-wantX) > 0.11 || abs(last[1]-wantY) > 0.11 {
					t.Errorf("curve %d ends at %v, want (%.1f, %.1f)", i, last, wantX, wantY)
				}
			}
		})
	}
}

// axisTop reads the value at the end of an axis off its ticks.
func axisTop(t *testing.T, ticks []tick, from, to float64) float64 {
	t.Helper()
	if len(ticks) < 2 {
		t.Fatalf("%d ticks", len(ticks))
	}
	a, b := ticks[0], ticks[1]
	va, _ := strconv.ParseFloat(a.Label, 64)
	vb, _ := strconv.ParseFloat(b.Label, 64)
	perUnit := (b.Pos - a.Pos) / (vb - va)
	return (to - from) / perUnit
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func parsePoints(t *testing.T, s string) [][2]float64 {
	t.Helper()
	var pts [][2]float64
	for _, f := range strings.Fields(s) {
		xs, ys, ok := strings.Cut(f, ",")
		x, err1 := strconv.ParseFloat(xs, 64)
		y, err2 := strconv.ParseFloat(ys, 64)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("bad point %q", f)
		}
		pts = append(pts, [2]float64{x, y})
	}
	return pts
}

func TestTicks(t *testing.T) {
	tests := []struct {
		max            float64
		n              int
		integer, tight bool
		wantTop        float64
		wantLabels     string
	}{
		{4.003, 8, false, true, 4.003, "0 1 2 3 4"},
		{4, 8, false, true, 4, "0.0 0.5 1.0 1.5 2.0 2.5 3.0 3.5 4.0"},
		{0.02, 8, false, true, 0.02, "0.000 0.005 0.010 0.015 0.020"},
		{74, 6, true, false, 80, "0 20 40 60 80"},
		{3, 6, true, false, 3, "0 1 2 3"},
		{0, 6, true, false, 1, "0 1"},
	}
	for _, tt := range tests {
		ts, top, step := ticks(tt.max, tt.n, tt.integer, tt.tight)
		var labels []string
		for _, v := range ts {
			labels = append(labels, formatTick(v, step))
		}
		if abs(top-tt.wantTop) > 1e-9 || strings.Join(labels, " ") != tt.wantLabels {
			t.Errorf("ticks(%v): top %v, ticks %q; want %v, %q", tt.max, top, labels, tt.wantTop, tt.wantLabels)
		}
	}
}

func TestFindings(t *testing.T) {
	rep := Report{
		ElapsedMS: 3000, Timeline: timeline(1, 1, 2000, 4),
		Bugs: []Bug{
			{Kind: "panic", Message: `boom <script>alert("x")</script>`, Call: `F("<b>")`, Count: 3, FoundMS: 1500,
				Reproducer: "f_gocolic_test.go: TestGocolicFCrashes (case 1)", Stack: "goroutine 1 [running]:\nmain.F()\n\tf.go:3 +0x1d"},
			{Kind: "fail", Message: "bad s", Inputs: map[string]string{"s": `"err"`, "n": "4"}, Count: 1, FoundMS: 12},
		},
	}
	page := render(t, []*Run{run("r", "cover", rep), run("q", "dfs", Report{})}, Options{})
	if strings.Contains(page, "<script") || strings.Contains(page, `<b>`) {
		t.Errorf("finding text not escaped")
	}
	for _, want := range []string{
		`boom &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`,
		`F(&#34;&lt;b&gt;&#34;)`,
		`TestGocolicFCrashes (case 1)`,
		`<details class="stack"><summary>stack</summary><pre>goroutine 1 [running]:`,
		`n = 4, s = &#34;err&#34;`, // the inputs, when there is no call
		`1.50 s`, `12 ms`,
		`id="findings"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, `<tr class="finding">`); n != 2 {
		t.Errorf("%d finding rows, want 2", n)
	}
	if n := strings.Count(page, `class="bug-mark"`); n != 2 {
		t.Errorf("%d finding marks on the plot, want 2", n)
	}
	// Self-contained: nothing is loaded.
	for _, bad := range []string{"<script", "<link", "src=", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
}

// TestReachableRow checks the summary's coverage of the reachable
// outcomes: the total without those proved unreachable, next to the
// plain coverage, for a run with claims and one without.
func TestReachableRow(t *testing.T) {
	claimed := Report{Branches: Branches{Covered: 6, Total: 10}, Unreachable: make([]Unreachable, 2)}
	plain := Report{Branches: Branches{Covered: 6, Total: 10}}
	page := html.UnescapeString(render(t, []*Run{run("a", "cover", claimed), run("b", "dfs", plain)}, Options{}))
	for _, want := range []string{
		"6 / 10 (60.0%)",
		"of the reachable",
		"6 / 8 (75.0%), 2 proved unreachable",
		"6 / 10 (60.0%), 0 proved unreachable",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestConcretised checks the summary rows and the section of a run whose
// report counts concretisations, next to one whose report predates them.
func TestConcretised(t *testing.T) {
	rep := Report{
		ModuleDir: "/m", GoRoot: "/go", ModCache: "/gm", Divergences: 3,
		DivergentSites: []DivergentSite{
			{Pos: "/gm/github.com/!x/y@v1.2.3/parser.go:40", Cond: "c == '='", Count: 2},
			{Count: 1},
		},
		Concretised: &Concretised{Events: 7, Divergences: 3, Unattributed: 1, Causes: []Cause{
			{Cause: "call", Description: "symbolic argument <of> a call", Events: 6, Executions: 4, Divergences: 2, Sites: []ConcreteSite{
				{Pos: "/m/p/p.go:9", Func: "F", Expr: "sha256.Sum256(b)", Events: 5, Executions: 4, Divergences: 2},
				{Pos: "/go/src/regexp/backtrack.go:90", Expr: "g(s)", Events: 1, Executions: 1},
				{Events: 1, Executions: 1},
			}},
			{Cause: "stale", Events: 1, Executions: 1, Sites: []ConcreteSite{{Pos: "/elsewhere/q.go:4", Expr: "s.n", Events: 1, Executions: 1}}},
		}},
	}
	tests := []struct {
		name   string
		runs   []*Run
		want   []string
		absent []string
	}{
		{
			name: "with concretisations",
			runs: []*Run{run("r", "cover", rep), run("old", "dfs", Report{Divergences: 2})},
			want: []string{
				`id="concretised"`, `href="#concretised"`,
				// The old run's divergences as they were, and no count.
				`divergences</th><td>3 (1 after no concretised value)</td><td>2</td>`,
				`concretised values</th><td>7: call 6, stale 1</td><td>–</td>`,
				`title="symbolic argument &lt;of&gt; a call"`,
				`<code>p/p.go:9 sha256.Sum256(b) ×5</code>`, `<code>(unknown place) ×1</code>`,
				`<code>$GOROOT/src/regexp/backtrack.go:90 g(s) ×1</code>`,
				// The old run has none.
				`divergent sites</th><td>github.com/X/y@v1.2.3/parser.go:40 c == &#39;=&#39; ×2, (unknown place) ×1</td><td>–</td>`,
				`<code>/elsewhere/q.go:4 s.n ×1</code>`,
				`7 events, 3 divergences, 1 after no concretised value`,
			},
		},
		{
			name:   "reports that predate them",
			runs:   []*Run{run("old", "dfs", Report{Divergences: 2})},
			absent: []string{`id="concretised"`, `href="#concretised"`},
		},
		{
			name: "nothing concretised",
			runs: []*Run{run("r", "cover", Report{Concretised: &Concretised{}})},
			want: []string{`<td>none</td>`, `No value was made concrete.`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := render(t, tt.runs, Options{})
			for _, w := range tt.want {
				if !strings.Contains(page, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(page, a) {
					t.Errorf("page has %q", a)
				}
			}
		})
	}
}

// source is a small Go file; the sites below point into it.
const source = `package p

func F(x int, s string) int {
	if x > 10 && s == "go" {
		return 1
	}
	for i := 0; i < x; i++ {
		if x%7 == 3 {
			return 2
		}
	}
	return 0
}
`

func TestSites(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.go")
	os.WriteFile(file, []byte(source), 0o644)
	pos := func(line, col int) string { return fmt.Sprintf("%s:%d:%d", file, line, col) }
	sites := func(outcomes ...bool) []Site {
		all := []Site{
			{ID: 0, Pos: pos(4, 5), Func: "F", Cond: "x > 10"},
			{ID: 1, Pos: pos(4, 15), Func: "F", Cond: `s == "go"`},
			{ID: 2, Pos: pos(7, 14), Func: "F", Cond: "i < x"},
			{ID: 3, Pos: pos(8, 6), Func: "F", Cond: "x % 7 == 3"}, // printed with spaces the source lacks
		}
		for i := range all {
			all[i].True, all[i].False = outcomes[2*i], outcomes[2*i+1]
		}
		return all
	}
	type want struct{ class, text string }
	tests := []struct {
		name string
		runs []*Run
		want []want
	}{
		{"one run", []*Run{
			run("a", "", Report{Branches: Branches{Sites: sites(true, true, true, false, false, true, false, false)}}),
		}, []want{{"both", "x > 10"}, {"true", `s == "go"`}, {"false", "i < x"}, {"none", "x%7 == 3"}}},
		{"union of two runs", []*Run{
			run("a", "", Report{Branches: Branches{Sites: sites(true, false, true, false, false, false, false, false)}}),
			run("b", "", Report{Branches: Branches{Sites: sites(false, true, false, false, false, true, false, false)}}),
		}, []want{{"both", "x > 10"}, {"true", `s == "go"`}, {"false", "i < x"}, {"none", "x%7 == 3"}}},
	}
	proved := Report{Branches: Branches{Sites: sites(true, false, true, false, false, true, false, false)},
		Unreachable: []Unreachable{{ID: 0, Outcome: false, By: "cfg"}, {ID: 3, Outcome: true, By: "mc", Round: 2, ProvedMS: 1500}}}
	tests = append(tests, struct {
		name string
		runs []*Run
		want []want
	}{"proved unreachable", []*Run{run("a", "", proved)},
		[]want{{"true proved", "x > 10"}, {"true", `s == "go"`}, {"false", "i < x"}, {"none proved", "x%7 == 3"}}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := render(t, tt.runs, Options{})
			got := siteRE.FindAllStringSubmatch(page, -1)
			if len(got) != len(tt.want) {
				t.Fatalf("%d sites, want %d", len(got), len(tt.want))
			}
			for i, w := range tt.want {
				if got[i][1] != w.class || html.UnescapeString(got[i][3]) != w.text {
					t.Errorf("site %d: class %q text %q, want %q %q", i, got[i][1], html.UnescapeString(got[i][3]), w.class, w.text)
				}
				if !strings.Contains(html.UnescapeString(got[i][2]), tt.runs[0].Report.Branches.Sites[i].Cond) {
					t.Errorf("site %d: title %q lacks the condition", i, got[i][2])
				}
			}
			for i, w := range tt.want {
				if strings.HasSuffix(w.class, " proved") && !strings.Contains(html.UnescapeString(got[i][2]), "proved unreachable (") {
					t.Errorf("site %d: title %q does not name the proof", i, got[i][2])
				}
				if tt.name == "proved unreachable" && i == 3 && !strings.Contains(html.UnescapeString(got[i][2]), "(mc, round 2)") {
					t.Errorf("site %d: title %q does not name the proof's round", i, got[i][2])
				}
			}
			if legend := strings.Contains(page, "is proved unreachable (hover"); legend != (tt.name == "proved unreachable") {
				t.Errorf("legend of proved outcomes shown: %v", legend)
			}
			union := strings.Contains(page, "the union")
			if union != (len(tt.runs) > 1) {
				t.Errorf("union said: %v with %d runs", union, len(tt.runs))
			}
			// The rest of the line is still there, in order.
			if !strings.Contains(page, `<td class="src">	if <span class="site`) || !strings.Contains(page, `</span> {</td>`) {
				t.Errorf("source line not kept around the sites")
			}
		})
	}
}

func TestMissingSource(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone", "p.go")
	r := run("a", "", Report{Branches: Branches{Covered: 1, Total: 2, Sites: []Site{
		{Pos: missing + ":3:5", Cond: "x > 0", True: true},
		{Pos: "not a position", Cond: "y"},
	}}})
	page := render(t, []*Run{r}, Options{})
	for _, want := range []string{"cannot read " + missing, "no such file", "1 condition(s) have no readable position"} {
		if !strings.Contains(page, html.EscapeString(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
	// A file shorter than the sites say: it changed since the run.
	short := filepath.Join(t.TempDir(), "s.go")
	os.WriteFile(short, []byte("package s\n"), 0o644)
	r = run("a", "", Report{Branches: Branches{Sites: []Site{{Pos: short + ":30:2", Cond: "x"}}}})
	if page := render(t, []*Run{r}, Options{}); !strings.Contains(page, "past the end of the file") {
		t.Errorf("page does not say the file changed")
	}
}

func TestParseProfile(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Block
		wantErr  string
	}{
		{"set", "mode: set\nexample.com/m/p/p.go:3.29,4.25 1 1\nexample.com/m/p/p.go:4.25,6.3 1 0\n", []Block{
			{File: "example.com/m/p/p.go", StartLine: 3, StartCol: 29, EndLine: 4, EndCol: 25, NumStmts: 1, Count: 1},
			{File: "example.com/m/p/p.go", StartLine: 4, StartCol: 25, EndLine: 6, EndCol: 3, NumStmts: 1, Count: 0},
		}, ""},
		{"count and blank lines", "mode: count\n\nc:/x/p.go:1.1,2.2 3 17\n", []Block{
			{File: "c:/x/p.go", StartLine: 1, StartCol: 1, EndLine: 2, EndCol: 2, NumStmts: 3, Count: 17},
		}, ""},
		{"no mode", "p.go:1.1,2.2 1 1\n", nil, "want the mode line"},
		{"empty", "", nil, "no mode line"},
		{"bad block", "mode: set\np.go:1.1-2.2 1 1\n", nil, "line 2"},
		{"bad count", "mode: set\np.go:1.1,2.2 1 x\n", nil, "malformed block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseProfile(strings.NewReader(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(p.Blocks) != fmt.Sprint(tt.want) {
				t.Errorf("blocks %v, want %v", p.Blocks, tt.want)
			}
		})
	}
}

func TestStatementShading(t *testing.T) {
	// The source lines:
	//  3 func F(x int, s string) int {
	//  4 	if x > 10 && s == "go" {
	//  5 		return 1
	//  6 	}
	//  7 	for i := 0; i < x; i++ {
	profileBody := "%[1]s:3.29,4.25 1 1\n%[1]s:4.25,6.3 1 0\n%[1]s:7.2,7.26 1 1\n"
	tests := []struct {
		name     string
		module   string // go.mod's module path, "" for none
		pkg      string // the report's package
		file     string // the profile's file name
		mapped   bool
		moduleOK bool // module_dir in the report
	}{
		{"through go.mod", "example.com/m", "example.com/m/p", "example.com/m/p/p.go", true, true},
		{"through the package path", "", "example.com/m/p", "example.com/m/p/p.go", true, false},
		{"through the base name", "", "other/q", "elsewhere/p.go", true, false},
		{"unmapped", "", "example.com/m/p", "example.com/m/p/other.go", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mod := t.TempDir()
			if tt.module != "" {
				os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module "+tt.module+"\n\ngo 1.24\n"), 0o644)
			}
			os.MkdirAll(filepath.Join(mod, "p"), 0o755)
			file := filepath.Join(mod, "p", "p.go")
			os.WriteFile(file, []byte(source), 0o644)
			rep := Report{Package: tt.pkg, Branches: Branches{Sites: []Site{{Pos: file + ":4:5", Cond: "x > 10", True: true}}}}
			if tt.moduleOK {
				rep.ModuleDir = mod
			}
			body, _ := json.Marshal(rep)
			dir := writeRunDir(t, t.TempDir(), "run", string(body), "mode: set\n"+fmt.Sprintf(profileBody, tt.file))
			r, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			page := render(t, []*Run{r}, Options{})
			line := func(n int) string {
				m := regexp.MustCompile(`<tr( class="(\w+)")?><td class="ln">` + strconv.Itoa(n) + `</td>`).FindStringSubmatch(page)
				if m == nil {
					t.Fatalf("no line %d", n)
				}
				return m[2]
			}
			got := fmt.Sprint(line(3), ",", line(4), ",", line(5), ",", line(6), ",", line(7), ",", line(8))
			want := ",hit,miss,,hit,"
			if !tt.mapped {
				want = ",,,,,"
				if !strings.Contains(page, "statement coverage not shown for "+tt.file) {
					t.Errorf("page does not say the profile's file is not found")
				}
			}
			// Line 3 holds only the opening brace of the first block, line 6
			// only the closing brace of the second; line 8 is in no block.
			if got != want {
				t.Errorf("lines 3-8 shaded %q, want %q", got, want)
			}
			if strings.Contains(page, "statements ran") != tt.mapped {
				t.Errorf("statement key shown: %v, want %v", !tt.mapped, tt.mapped)
			}
			if !strings.Contains(page, "66.7% of 3 statements") {
				t.Errorf("summary lacks the statement coverage")
			}
		})
	}
}

func TestWriteFile(t *testing.T) {
	dir := writeRunDir(t, t.TempDir(), "run", `{"function":"F","config":{"strategy":"cover"}}`, "mode: set\n")
	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "sub", "report.html")
	if err := WriteFile(t.Context(), out, []*Run{r}, Options{Title: "my <title>"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if !strings.Contains(page, "<title>my &lt;title&gt;</title>") {
		t.Errorf("title not used")
	}
	// No module directory: go tool cover cannot run, which the page says.
	if r.CoverNote == "" || !strings.Contains(page, html.EscapeString(r.CoverNote)) {
		t.Errorf("cover note %q not on the page", r.CoverNote)
	}
	if err := Write(&bytes.Buffer{}, nil, Options{}); err == nil {
		t.Errorf("Write of no runs succeeded")
	}
}

func TestLineCoverageBounds(t *testing.T) {
	// Blocks past the end of the file, or with nonsense columns, must not
	// panic or allocate by what they claim.
	p := &Profile{Mode: "set", Blocks: []Block{
		{File: "m/p.go", StartLine: 0, StartCol: 0, EndLine: 1 << 40, EndCol: 0, NumStmts: 1, Count: 1},
		{File: "m/p.go", StartLine: 2, StartCol: 99, EndLine: 3, EndCol: 0, NumStmts: 1, Count: 0},
	}}
	cov, _ := lineCoverage([]*Profile{p}, []*fileMapper{{known: nil}}, func(string) []string { return []string{"a", "b", "c"} })
	if len(cov) != 0 {
		t.Errorf("unmapped profile shaded %v", cov)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "p.go")
	os.WriteFile(file, []byte("a\nb\nc\n"), 0o644)
	cov, _ = lineCoverage([]*Profile{p}, []*fileMapper{{known: []string{file}}}, func(string) []string { return []string{"a", "b", "c"} })
	if got := fmt.Sprint(cov[file]); got != "[0 2 2 2]" {
		t.Errorf("coverage %s, want [0 2 2 2]", got)
	}
}
