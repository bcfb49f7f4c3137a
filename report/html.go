// This file builds the page.

package report

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Options changes how the runs are shown.
type Options struct {
	// Labels names the runs in the legend and the tables, in the order of
	// the runs; a missing or empty label keeps the default, the base name
	// of the run directory and the run's strategy.
	Labels []string
	// Title is the page's title; by default it names the function.
	Title string
}

//go:embed page.tmpl
var pageSource string

var pageTmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	"f":   func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) },
	"add": func(a, b float64) float64 { return a + b },
	"mid": func(a, b float64) float64 { return (a + b) / 2 },
	// barWidth is the filled width of a summary bar 90 units long.
	"barWidth": func(frac float64) float64 { return 90 * min(max(frac, 0), 1) },
	// legendEnd is where the legend's entry after the last curve goes.
	"legendEnd": func(p *plot) float64 { return legendY(p.Top, len(p.Curves)) },
}).Parse(pageSource))

// Write writes the HTML page of the runs to w. It reads the source files
// the runs name, and their coverage profiles; what it cannot read is said
// on the page rather than returned as an error.
func Write(w io.Writer, runs []*Run, opts Options) error {
	if len(runs) == 0 {
		return errors.New("report: no runs")
	}
	var buf bytes.Buffer
	if err := pageTmpl.Execute(&buf, buildPage(runs, opts)); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteFile writes the page of the runs to path and, next to it, the page
// go tool cover makes of each run's coverage profile (cover.html, or
// cover-N.html for the Nth run when several have one); a failure of go
// tool cover is a note on the page, not an error. The page is written
// whole or not at all.
func WriteFile(ctx context.Context, path string, runs []*Run, opts Options) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	withProfile := 0
	for _, r := range runs {
		if r.Profile != "" {
			withProfile++
		}
	}
	for i, r := range runs {
		if r.Profile == "" {
			continue
		}
		name := "cover.html"
		if withProfile > 1 {
			name = fmt.Sprintf("cover-%d.html", i+1)
		}
		if err := coverHTML(ctx, r, filepath.Join(dir, name)); err != nil {
			r.CoverHTML, r.CoverNote = "", err.Error()
		} else {
			r.CoverHTML, r.CoverNote = name, ""
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, runs, opts); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".report-*.html")
	if err != nil {
		return err
	}
	_, err = f.Write(buf.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Labels returns the labels of the runs: those of opts where given, else
// the base name of the run directory, its strategy, and the settings in
// which the runs differ (solver walk, depth 3), made unique.
func Labels(runs []*Run, opts Options) []string {
	labels := make([]string, len(runs))
	used := map[string]int{}
	differ := differingSettings(runs)
	for i, r := range runs {
		if i < len(opts.Labels) && opts.Labels[i] != "" {
			labels[i] = opts.Labels[i]
		} else {
			base := filepath.Base(filepath.Clean(r.Dir))
			if base == "." || base == string(filepath.Separator) || r.Dir == "" {
				base = fmt.Sprintf("run %d", i+1)
			}
			var parts []string
			if s := r.Report.Setting("strategy"); s != "" && s != base {
				parts = append(parts, s)
			}
			for _, k := range differ {
				if v := r.Report.Setting(k); v != "" {
					parts = append(parts, k+" "+v)
				}
			}
			labels[i] = base
			if len(parts) > 0 {
				labels[i] += " (" + strings.Join(parts, ", ") + ")"
			}
		}
		used[labels[i]]++
		if n := used[labels[i]]; n > 1 {
			labels[i] = fmt.Sprintf("%s #%d", labels[i], n)
		}
	}
	return labels
}

type page struct {
	Title    string
	Function string
	Package  string
	Command  string
	NRuns    int
	Runs     []runView
	Metrics  []metric
	Plot     *plot
	Source   *annotatedSource
	AnyBugs  bool
	AnyCover bool
	// AnyConcrete says that some run's report counts concretisations.
	AnyConcrete bool
}

type runView struct {
	Index     int
	Label     string
	Color     string
	Dir       string
	Bugs      []bugView
	CoverHTML string
	CoverNote string
	// Concrete is the run's account of concretisation, nil when its
	// report has none.
	Concrete *concreteView
}

type concreteView struct {
	Events       int
	Divergences  int
	Unattributed int
	Causes       []causeView
}

type causeView struct {
	Cause       string
	Description string
	Events      int
	Executions  int
	Divergences int
	Places      []string // file:line expr ×events, the file relative to the module
}

// divergentTop bounds the divergent sites the summary table names per run.
const divergentTop = 3

// concreteOf returns the view of a run's concretisations, nil when its
// report predates them.
func concreteOf(r *Report) *concreteView {
	c := r.Concretised
	if c == nil {
		return nil
	}
	v := &concreteView{Events: c.Events, Divergences: c.Divergences, Unattributed: c.Unattributed}
	for _, cs := range c.Causes {
		cv := causeView{Cause: cs.Cause, Description: cs.Description, Events: cs.Events, Executions: cs.Executions, Divergences: cs.Divergences}
		for _, s := range cs.Sites {
			place := "(unknown place)"
			if s.Pos != "" {
				place = s.Pos
				if i := strings.LastIndex(s.Pos, ":"); i > 0 {
					place = r.Places().Path(s.Pos[:i]) + s.Pos[i:]
				}
				if s.Expr != "" {
					place += " " + s.Expr
				}
			}
			cv.Places = append(cv.Places, fmt.Sprintf("%s ×%s", place, commas(s.Events)))
		}
		v.Causes = append(v.Causes, cv)
	}
	return v
}

type bugView struct {
	N          int
	Kind       string
	Message    string
	Input      string
	Count      int
	Found      string
	Minimized  bool
	Reproducer string
	Stack      string
}

// metric is a row of the summary table: one cell per run.
type metric struct {
	Name  string
	Cells []cell
}

type cell struct {
	Text  string
	Title string
	Bar   float64 // fraction for a bar, or -1
	Link  string
	Note  string
}

func buildPage(runs []*Run, opts Options) *page {
	labels := Labels(runs, opts)
	pg := &page{NRuns: len(runs)}
	pg.Function = distinct(runs, func(r *Report) string { return r.Function })
	pg.Package = distinct(runs, func(r *Report) string { return r.Package })
	pg.Command = distinct(runs, func(r *Report) string { return r.Command })
	pg.Title = opts.Title
	if pg.Title == "" {
		switch {
		case pg.Function != "" && pg.Package != "":
			pg.Title = "gocolic report: " + pg.Package + "." + pg.Function
		case pg.Function != "":
			pg.Title = "gocolic report: " + pg.Function
		default:
			pg.Title = "gocolic report"
		}
	}
	pg.Plot = layoutPlot(runs, labels)
	for i, r := range runs {
		rv := runView{Index: i, Label: labels[i], Color: palette[i%len(palette)], Dir: r.Dir,
			CoverHTML: r.CoverHTML, CoverNote: r.CoverNote, Concrete: concreteOf(&r.Report)}
		pg.AnyConcrete = pg.AnyConcrete || rv.Concrete != nil
		for k, b := range r.Report.Bugs {
			bv := bugView{N: k + 1, Kind: b.Kind, Message: b.Message, Input: b.Call, Count: b.Count,
				Found: formatMS(b.FoundMS), Minimized: b.Minimized, Reproducer: b.Reproducer, Stack: strings.TrimRight(b.Stack, "\n")}
			if bv.Input == "" && len(b.Inputs) > 0 {
				var names []string
				for n := range b.Inputs {
					names = append(names, n)
				}
				sort.Strings(names)
				var parts []string
				for _, n := range names {
					parts = append(parts, n+" = "+b.Inputs[n])
				}
				bv.Input = strings.Join(parts, ", ")
			}
			rv.Bugs = append(rv.Bugs, bv)
		}
		pg.AnyBugs = pg.AnyBugs || len(rv.Bugs) > 0
		pg.AnyCover = pg.AnyCover || r.Profile != ""
		pg.Runs = append(pg.Runs, rv)
	}
	pg.Metrics = metrics(runs, labels)
	pg.Source = annotate(runs, labels)
	return pg
}

// distinct returns the distinct non-empty values of a field, joined.
// shownSettings are the settings every comparison shows; outputSettings
// name only where a run wrote its outputs, which says nothing about it.
var (
	shownSettings  = []string{"strategy", "seed", "workers", "budget"}
	outputSettings = []string{"json", "rundir", "o", "coverprofile", "work", "notests", "nocorpus"}
)

// differingSettings returns, sorted, the settings of the runs' reports
// (their flags) whose values differ between the runs, other than those
// every comparison shows and those that only name outputs: what tells the
// runs of a comparison apart, such as -solver.
func differingSettings(runs []*Run) []string {
	if len(runs) < 2 {
		return nil
	}
	keys := map[string]bool{}
	for _, r := range runs {
		for k := range r.Report.Config {
			keys[k] = true
		}
	}
	var out []string
	for k := range keys {
		if slices.Contains(shownSettings, k) || slices.Contains(outputSettings, k) {
			continue
		}
		for _, r := range runs[1:] {
			if r.Report.Setting(k) != runs[0].Report.Setting(k) {
				out = append(out, k)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

func distinct(runs []*Run, field func(*Report) string) string {
	var vals []string
	seen := map[string]bool{}
	for _, r := range runs {
		v := field(&r.Report)
		if v != "" && !seen[v] {
			seen[v] = true
			vals = append(vals, v)
		}
	}
	return strings.Join(vals, ", ")
}

func metrics(runs []*Run, labels []string) []metric {
	row := func(name string, f func(r *Run) cell) metric {
		m := metric{Name: name}
		for _, r := range runs {
			m.Cells = append(m.Cells, f(r))
		}
		return m
	}
	text := func(s string) cell {
		if s == "" {
			s = "–"
		}
		return cell{Text: s, Bar: -1}
	}
	ms := []metric{
		row("directory", func(r *Run) cell { return text(r.Dir) }),
		row("branch outcomes", func(r *Run) cell {
			b := r.Report.Branches
			if b.Total == 0 {
				return text(commas(b.Covered))
			}
			frac := float64(b.Covered) / float64(b.Total)
			return cell{Text: fmt.Sprintf("%s / %s (%.1f%%)", commas(b.Covered), commas(b.Total), 100*frac), Bar: frac}
		}),
		row("of the reachable", func(r *Run) cell {
			b, n := r.Report.Branches, r.Report.Reachable()
			if n <= 0 {
				return text("")
			}
			frac := float64(b.Covered) / float64(n)
			return cell{Text: fmt.Sprintf("%s / %s (%.1f%%), %s proved unreachable", commas(b.Covered), commas(n), 100*frac, commas(len(r.Report.Unreachable))), Bar: frac}
		}),
		row("executions", func(r *Run) cell { return text(commas(r.Report.Executions)) }),
		row("execs/s", func(r *Run) cell { return text(commas(int(r.Report.ExecsPerSec + 0.5))) }),
		row("paths", func(r *Run) cell { return text(commas(r.Report.Paths)) }),
		row("findings", func(r *Run) cell { return text(strconv.Itoa(len(r.Report.Bugs))) }),
		row("divergences", func(r *Run) cell {
			if c := r.Report.Concretised; c != nil && r.Report.Divergences > 0 {
				return text(fmt.Sprintf("%s (%s after no concretised value)", commas(r.Report.Divergences), commas(c.Unattributed)))
			}
			return text(commas(r.Report.Divergences))
		}),
		row("divergent sites", func(r *Run) cell {
			var parts []string
			for _, d := range r.Report.DivergentSites[:min(len(r.Report.DivergentSites), divergentTop)] {
				place := "(unknown place)"
				if i := strings.LastIndex(d.Pos, ":"); i > 0 {
					place = r.Report.Places().Path(d.Pos[:i]) + d.Pos[i:] + " " + d.Cond
				}
				parts = append(parts, fmt.Sprintf("%s ×%s", place, commas(d.Count)))
			}
			return text(strings.Join(parts, ", "))
		}),
		row("concretised values", func(r *Run) cell {
			c := r.Report.Concretised
			if c == nil {
				return text("")
			}
			var parts []string
			for _, cs := range c.Causes {
				parts = append(parts, cs.Cause+" "+commas(cs.Events))
			}
			if len(parts) == 0 {
				return text("none")
			}
			return text(commas(c.Events) + ": " + strings.Join(parts, ", "))
		}),
		row("elapsed", func(r *Run) cell { return text(formatMS(r.Report.ElapsedMS)) }),
		row("stopped", func(r *Run) cell {
			s := r.Report.Stopped
			if r.Report.Exhausted && s != "exhausted" {
				s += " (tree exhausted)"
			}
			return text(s)
		}),
		row("strategy", func(r *Run) cell { return text(r.Report.Setting("strategy")) }),
		row("seed", func(r *Run) cell { return text(r.Report.Setting("seed")) }),
		row("workers", func(r *Run) cell { return text(r.Report.Setting("workers")) }),
		row("budget", func(r *Run) cell { return text(r.Report.Setting("budget")) }),
		row("solver queries", func(r *Run) cell {
			s := r.Report.Solver
			c := text(fmt.Sprintf("%s: %s sat, %s unsat, %s unknown", commas(s.Queries), commas(s.Sat), commas(s.Unsat), commas(s.Unknown)))
			return c
		}),
		row("solver time", func(r *Run) cell {
			s := r.Report.Solver
			t := formatMS(s.TimeMS)
			if r.Report.ElapsedMS > 0 {
				t += fmt.Sprintf(" (%.0f%% of the run)", 100*float64(s.TimeMS)/float64(r.Report.ElapsedMS))
			}
			return text(t)
		}),
	}
	for _, k := range differingSettings(runs) {
		ms = append(ms, row(k, func(r *Run) cell { return text(r.Report.Setting(k)) }))
	}
	if distinct(runs, func(r *Report) string { return r.Command }) != "" {
		ms = append(ms[:1], append([]metric{row("command", func(r *Run) cell { return text(r.Report.Command) })}, ms[1:]...)...)
	}
	if len(runs) > 1 && strings.Contains(distinct(runs, func(r *Report) string { return r.Package + "." + r.Function }), ", ") {
		ms = append([]metric{row("target", func(r *Run) cell { return text(r.Report.Package + "." + r.Report.Function) })}, ms...)
	}
	if anyProfile(runs) {
		ms = append(ms, row("statements", func(r *Run) cell {
			if r.Profile == "" {
				return text("no cover.out")
			}
			c := text(statementCoverage(r.Profile))
			c.Link = r.CoverHTML
			c.Note = r.CoverNote
			return c
		}))
	}
	return ms
}

func anyProfile(runs []*Run) bool {
	for _, r := range runs {
		if r.Profile != "" {
			return true
		}
	}
	return false
}

// statementCoverage reads a profile and says what share of its statements
// ran.
func statementCoverage(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "unreadable cover.out"
	}
	defer f.Close()
	p, err := ParseProfile(f)
	if err != nil {
		return "malformed cover.out"
	}
	// A block may be listed more than once (one line per test binary).
	type key struct {
		file           string
		sl, sc, el, ec int
	}
	stmts := map[key]int{}
	hit := map[key]bool{}
	for _, b := range p.Blocks {
		k := key{b.File, b.StartLine, b.StartCol, b.EndLine, b.EndCol}
		stmts[k] = b.NumStmts
		hit[k] = hit[k] || b.Count > 0
	}
	total, ran := 0, 0
	for k, n := range stmts {
		total += n
		if hit[k] {
			ran += n
		}
	}
	if total == 0 {
		return "no statements"
	}
	return fmt.Sprintf("%.1f%% of %s", 100*float64(ran)/float64(total), plural(total, "statement"))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return commas(n) + " " + word + "s"
}

// commas writes n with thousands separators.
func commas(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// formatMS writes a duration in milliseconds for people.
func formatMS(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%d ms", ms)
	case ms < 60_000:
		return strconv.FormatFloat(float64(ms)/1000, 'f', 2, 64) + " s"
	default:
		s := ms / 1000
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
}
