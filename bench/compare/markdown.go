// This file writes the Markdown report: the contenders, the summary
// table, the details of each contender and the notes.

package main

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
)

// contenderInfo describes a contender in the report.
var contenderInfo = map[string]struct{ title, command, entry, measured string }{
	cGocolic: {"gocolic", "`gocolic test -budget B -workers W -minimizetime 0 -notests ./NAME Func`",
		"Func, the package function FuzzNAME calls; starts from zero values, no seeds",
		"its own report: every input it ran"},
	cFuzz: {"fuzz", "`go test -run '^$' -fuzz '^FuzzNAME$' -fuzztime B -parallel W ./NAME -test.fuzzcachedir=DIR`",
		"FuzzNAME's fuzz function; starts from its f.Add seeds",
		"replay through Func of its cache corpus, its failing input and the f.Add seeds"},
	cHybrid: {"hybrid", "`gocolic fuzz -with-fuzzer -budget B -workers W -minimizetime 0 ./NAME FuzzNAME`",
		"FuzzNAME's fuzz function, both sides; gocolic starts from the f.Add seeds, the fuzzer from them and what gocolic gives it",
		"replay through Func of everything the run left: the fuzzer's cache corpus (with the inputs gocolic gave it), the corpus entries and failures in testdata (gocolic's and the fuzzer's), the f.Add seeds"},
	cGFuzz: {"gocolic fuzz", "`gocolic fuzz -budget B -workers W -minimizetime 0 ./NAME FuzzNAME`",
		"FuzzNAME's fuzz function; starts from the f.Add seeds",
		"replay through Func of its corpus entries and failures in testdata and the f.Add seeds"},
	cGConcolic: {"concolic lane", "`gocolic fuzz -lanes concolic -budget B -workers W -minimizetime 0 ./NAME FuzzNAME`",
		"FuzzNAME's fuzz function; starts from the f.Add seeds; the concolic search alone",
		"replay through Func of its corpus entries and failures in testdata and the f.Add seeds"},
	cGMutate: {"mutation lane", "`gocolic fuzz -lanes mutate -budget B -workers W -minimizetime 0 ./NAME FuzzNAME`",
		"FuzzNAME's fuzz function; starts from the f.Add seeds; the mutation lane alone, no symbolic tracking",
		"replay through Func of its corpus entries and failures in testdata and the f.Add seeds"},
}

// totals accumulates a contender's totals over the examples.
type totals struct {
	found, covered, total int
}

func (t *totals) add(found []string, covered, total int) {
	t.found += len(found)
	t.covered += covered
	t.total += total
}

// markdownReport formats the Markdown report.
func markdownReport(rows []row, contenders []string, budget time.Duration, workers int) (string, error) {
	m := &markdown{rows: rows, contenders: contenders, selected: map[string]bool{}}
	for _, c := range contenders {
		m.selected[c] = true
	}
	m.header(budget, workers)
	for _, table := range []func() error{m.contenderTable, m.summaryTable, m.bugDetails, m.targetDetails} {
		if err := table(); err != nil {
			return "", err
		}
	}
	m.notesSection()
	return m.b.String(), nil
}

// markdown is the report being written: the runs it reports, and the
// notes the tables gather for the end.
type markdown struct {
	b          strings.Builder
	rows       []row
	contenders []string
	selected   map[string]bool
	notes      []string
}

// note adds a note for the end of the report.
func (m *markdown) note(format string, args ...any) {
	m.notes = append(m.notes, fmt.Sprintf(format, args...))
}

// header writes the line that gives the budget, the workers and the
// machine.
func (m *markdown) header(budget time.Duration, workers int) {
	fmt.Fprintf(&m.b, "Budget %v per tool per example, %d worker processes each, %s %s/%s, %d CPUs.",
		budget, workers, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	if m.selected[cHybrid] {
		p := max(1, workers/2)
		fmt.Fprintf(&m.b, " The hybrid splits its %d: go test -fuzz -parallel %d, gocolic %d worker(s).", workers, p, max(1, workers-p))
	}
	m.b.WriteString("\n\n")
}

// contenderTable writes the table that says how each contender runs and
// how its coverage is measured.
func (m *markdown) contenderTable() error {
	ct := harness.Table{Head: []string{"contender", "command", "entry point", "branch cov measured by"}}
	for _, c := range m.contenders {
		i := contenderInfo[c]
		ct.Add(i.title, i.command, i.entry, i.measured)
	}
	return writeTable(&m.b, &ct)
}

// hybridTotals accumulates the hybrid's exchanges over the examples.
type hybridTotals struct {
	rounds, from, to int
}

// summaryTable writes the table of bugs found, branch coverage and speed
// of each contender on each example, with a row of totals.
func (m *markdown) summaryTable() error {
	mt := harness.Table{Head: []string{"example", "planted bugs"}, Right: []bool{false, true}}
	for _, c := range m.contenders {
		t := contenderInfo[c].title
		third := t + ": execs/s"
		if c == cHybrid {
			third = "hybrid: rounds / from fuzzer / to fuzzer"
		}
		mt.Head = append(mt.Head, t+": bugs found", t+": branch cov", third)
		mt.Right = append(mt.Right, true, true, true)
	}
	tot := map[string]*totals{}
	for _, c := range m.contenders {
		tot[c] = &totals{}
	}
	var hy hybridTotals
	planted := 0
	for _, r := range m.rows {
		ex := r.ex
		planted += len(ex.Planted)
		cells := []string{ex.Name, strconv.Itoa(len(ex.Planted))}
		if m.selected[cGocolic] {
			cells = append(cells, m.gocolicCells(ex, r.g, tot[cGocolic])...)
		}
		if m.selected[cFuzz] {
			cells = append(cells, m.fuzzCells(ex, r.f, tot[cFuzz])...)
		}
		for _, c := range targetContenders {
			if m.selected[c] {
				cells = append(cells, m.targetCells(c, ex, r.target(c), tot[c], &hy)...)
			}
		}
		mt.Add(cells...)
	}
	totalCells := []string{"**total**", fmt.Sprintf("**%d**", planted)}
	for _, c := range m.contenders {
		third := ""
		if c == cHybrid {
			third = fmt.Sprintf("**%d / %d / %d**", hy.rounds, hy.from, hy.to)
		}
		totalCells = append(totalCells, fmt.Sprintf("**%d**", tot[c].found), "**"+pct(tot[c].covered, tot[c].total)+"**", third)
	}
	mt.Add(totalCells...)
	return writeTable(&m.b, &mt)
}

// gocolicCells returns gocolic test's cells of the summary table (bugs,
// branch coverage, execs/s), noting its error.
func (m *markdown) gocolicCells(ex *harness.Example, g *gocolicRun, tot *totals) []string {
	if g == nil {
		return []string{"—", "—", "—"}
	}
	if g.err != nil {
		m.note("%s: gocolic: %s", ex.Name, firstLine(g.err.Error()))
	}
	if g.total <= 0 && g.err != nil {
		return []string{"error", "error", "error"}
	}
	tot.add(g.found, g.covered, g.total)
	return []string{bugCell(g.found, g.other), fmt.Sprintf("%d/%d", g.covered, g.total), harness.Rate(g.execsPerSec)}
}

// fuzzCells returns go test -fuzz's cells of the summary table (bugs,
// replayed branch coverage, execs/s), noting its errors.
func (m *markdown) fuzzCells(ex *harness.Example, f *fuzzRun, tot *totals) []string {
	if f == nil {
		return []string{"—", "—", "—"}
	}
	bugs, rate := "error", "—"
	if f.err != nil {
		m.note("%s: go test -fuzz: %s", ex.Name, firstLine(f.err.Error()))
	} else {
		tot.found += len(f.found)
		bugs = bugCell(f.found, f.other)
	}
	if f.haveRate {
		rate = harness.Rate(f.execsPerSec)
	} else if f.err == nil {
		rate = "— ¹"
	}
	br := covCell(ex.Name, "fuzz", f.cov, tot, m.note)
	return []string{bugs, br, rate}
}

// targetCells returns the cells of gocolic fuzz (c is a target contender)
// in the summary table: bugs, replayed branch coverage, and the
// exchanges with the fuzzer (hybrid) or execs/s; it notes the run's
// errors and notes.
func (m *markdown) targetCells(c string, ex *harness.Example, t *targetRun, tot *totals, hy *hybridTotals) []string {
	if t == nil {
		return []string{"—", "—", "—"}
	}
	title := contenderInfo[c].title
	if t.err != nil {
		m.note("%s: %s: %s", ex.Name, title, firstLine(t.err.Error()))
	}
	for _, n := range t.notes {
		m.note("%s: %s: %s", ex.Name, title, n)
	}
	bugs := "error"
	if t.haveOwn || t.cov.err == nil {
		tot.found += len(t.found)
		bugs = bugCell(t.found, t.other)
		if len(t.replayOnly) > 0 {
			bugs += " ³"
		}
	}
	br := covCell(ex.Name, title, t.cov, tot, m.note)
	third := "—"
	if c == cHybrid {
		if hs := t.hybrid; hs != nil {
			third = fmt.Sprintf("%d / %d / %d", hs.Rounds, hs.FromFuzzer, hs.ToFuzzer)
			hy.rounds, hy.from, hy.to = hy.rounds+hs.Rounds, hy.from+hs.FromFuzzer, hy.to+hs.ToFuzzer
			if hs.Note != "" {
				m.note("%s: hybrid: the fuzzer side stopped early: %s", ex.Name, firstLine(hs.Note))
			}
		}
	} else if t.haveOwn {
		third = harness.Rate(t.execsPerSec)
	}
	return []string{bugs, br, third}
}

// bugDetails writes which planted bugs gocolic test and go test -fuzz
// found and when, if either ran.
func (m *markdown) bugDetails() error {
	if !m.selected[cGocolic] && !m.selected[cFuzz] {
		return nil
	}
	m.b.WriteString("Details: which planted bugs were found, and when.\n\n")
	dt := harness.Table{Head: []string{"example", "target"}}
	if m.selected[cGocolic] {
		dt.Head = append(dt.Head, "gocolic: found", "gocolic: stopped")
	}
	if m.selected[cFuzz] {
		dt.Head = append(dt.Head, "fuzz: found", "fuzz: outcome", "fuzz: inputs replayed")
		dt.Right = make([]bool, len(dt.Head))
		dt.Right[len(dt.Head)-1] = true
	}
	for _, r := range m.rows {
		cells := []string{r.ex.Name, r.ex.Package + "." + r.ex.Func}
		if m.selected[cGocolic] {
			cells = append(cells, gocolicDetails(r.g)...)
		}
		if m.selected[cFuzz] {
			cells = append(cells, fuzzDetails(r.f)...)
		}
		dt.Add(cells...)
	}
	return writeTable(&m.b, &dt)
}

// gocolicDetails returns gocolic test's cells of the details: the bugs
// found and when, and why it stopped.
func gocolicDetails(g *gocolicRun) []string {
	if g == nil {
		return []string{"—", "—"}
	}
	stop := "—"
	if g.stopped != "" {
		stop = fmt.Sprintf("%s after %d ms, %d execs", g.stopped, g.elapsedMS, g.executions)
	}
	found := names(g.found, g.other)
	if g.firstMS >= 0 {
		found += fmt.Sprintf(" (first at %d ms)", g.firstMS)
	}
	return []string{found, stop}
}

// fuzzDetails returns go test -fuzz's cells of the details: the bugs
// found, how the fuzzer ended, and the inputs replayed.
func fuzzDetails(f *fuzzRun) []string {
	if f == nil {
		return []string{"—", "—", "—"}
	}
	outcome, replayed := "no failure in the budget", "—"
	switch {
	case f.err != nil:
		outcome = "error"
	case f.failed:
		outcome = "stopped at first failure, " + f.failAt
	}
	if f.execs > 0 {
		outcome += fmt.Sprintf(", %d execs", f.execs)
	}
	if f.cov.err == nil {
		replayed = strconv.Itoa(f.cov.replayed)
	}
	return []string{names(f.found, f.other), outcome, replayed}
}

// targetDetails writes, for each gocolic fuzz contender that ran, its
// table of details.
func (m *markdown) targetDetails() error {
	for _, c := range targetContenders {
		if !m.selected[c] {
			continue
		}
		if err := m.targetDetailTable(c); err != nil {
			return err
		}
	}
	return nil
}

// targetDetailTable writes the details of gocolic fuzz (c is a target
// contender): bugs, its own report's coverage and, for the hybrid, what went
// between gocolic and the fuzzer.
func (m *markdown) targetDetailTable(c string) error {
	title := contenderInfo[c].title
	if c == cHybrid {
		m.b.WriteString("Details of the hybrid (gocolic fuzz -with-fuzzer): bugs, its own report's coverage, and what went between gocolic and the fuzzer.\n\n")
	} else {
		fmt.Fprintf(&m.b, "Details of %s (%s).\n\n", title, contenderInfo[c].command)
	}
	dt := harness.Table{Head: []string{"example", "target", title + ": found", title + ": stopped (gocolic side)", title + ": branch cov, own report", title + ": inputs replayed"},
		Right: []bool{false, false, false, false, true, true}}
	if c == cHybrid {
		dt.Head = append(dt.Head, "fuzzer rounds", "entries from fuzzer", "inputs to fuzzer", "rounds ended by a fuzzer failure", "fuzzer cache entries at the end")
		dt.Right = append(dt.Right, true, true, true, true, true)
	}
	for _, r := range m.rows {
		cells := []string{r.ex.Name, r.ex.Package + "." + r.ex.Fuzz}
		if t := r.target(c); t != nil {
			cells = append(cells, targetDetailCells(c, t)...)
		}
		dt.Add(cells...)
	}
	return writeTable(&m.b, &dt)
}

// targetDetailCells returns a gocolic fuzz run's cells of its details
// table, after the example and the target.
func targetDetailCells(c string, t *targetRun) []string {
	found := names(t.found, t.other)
	if t.firstMS >= 0 {
		found += fmt.Sprintf(" (first at %d ms)", t.firstMS)
	}
	if len(t.replayOnly) > 0 {
		found += fmt.Sprintf("; only in the replay of its outputs: %s", names(t.replayOnly, nil))
	}
	stop, own, replayed := "—", "—", "—"
	if t.haveOwn {
		stop = fmt.Sprintf("%s after %d ms, %d execs", t.stopped, t.elapsedMS, t.executions)
		own = fmt.Sprintf("%d/%d", t.ownCovered, t.ownTotal)
	}
	if t.cov.err == nil {
		replayed = strconv.Itoa(t.cov.replayed)
	}
	cells := []string{found, stop, own, replayed}
	if c != cHybrid {
		return cells
	}
	if hs := t.hybrid; hs != nil {
		return append(cells, strconv.Itoa(hs.Rounds), strconv.Itoa(hs.FromFuzzer), strconv.Itoa(hs.ToFuzzer),
			strconv.Itoa(hs.FuzzerFailed), strconv.Itoa(t.cacheFiles))
	}
	return append(cells, "—", "—", "—", "—", strconv.Itoa(t.cacheFiles))
}

// notesSection writes the notes: what the columns mean for the
// contenders that ran, then the notes the tables gathered.
func (m *markdown) notesSection() {
	b, selected := &m.b, m.selected
	b.WriteString("Notes:\n\n")
	b.WriteString("- Bugs found: planted bugs (`// planted:` markers) whose text is in a reported panic message; `+N other` counts reported failures that match no marker.\n")
	if selected[cFuzz] {
		b.WriteString("- go test -fuzz stops at its first failing input, so it reports at most one bug per run; gocolic keeps going and reports every distinct panic.\n")
	}
	b.WriteString("- Branch cov: both outcomes of every condition of the package, as gocolic counts them (conditions in test files are not counted). Where it is measured by a replay, the inputs run through gocolic's instrumentation of Func, exploring nothing; every fuzz function here only calls Func with its arguments, so this is the coverage the inputs had when they ran. Inputs a fuzzer ran but did not keep only cover outcomes that kept inputs already cover, as far as Go's coverage feedback (edge counters) tells.\n")
	if selected[cHybrid] {
		b.WriteString("- Hybrid: its bugs are those of its own report plus those the inputs it left raise when replayed; its branch cov is the replay. Its own report counts every input gocolic ran, including the fuzzer entries it took, but not fuzzer entries that appeared after gocolic's last look. Rounds: go test -fuzz processes started; a round is restarted to take gocolic's new inputs, since the fuzzer reads its corpus only at start. Its fuzzer's cache ($GOCACHE/fuzz/<package>/FuzzNAME, in a module whose path is unique to the run) is emptied before the run and moved out of the build cache after it. Before each hybrid run, `go test -fuzz -fuzztime 1x` with a throw-away cache builds its fuzzing binary, so that its first round finds it in the build cache.\n")
	}
	if selected[cGocolic] || anyTarget(selected) {
		b.WriteString("- gocolic: execs/s is executions over its exploration time, including solving and IPC; gocolic test stops early when it has tried every open branch (\"exhausted\"), so its time used can be far below the budget. -minimizetime 0: failing inputs are not minimised after the budget, so that replays run the inputs as found.\n")
	}
	if selected[cFuzz] {
		b.WriteString("- fuzz: execs/s is the rate on its last progress line (over its last 3-second interval), which does not include its start-up and baseline-coverage phase.\n")
		b.WriteString("- ¹ no progress line with a non-zero rate was printed before the fuzzer stopped.\n")
	}
	b.WriteString("- ² see the note for this example below.\n")
	if anyTarget(selected) {
		b.WriteString("- ³ a planted bug was found only by replaying the inputs the run left, not in its own report (see the details).\n")
	}
	for _, n := range m.notes {
		fmt.Fprintf(b, "- %s\n", n)
	}
}

// anyTarget reports whether a target contender is selected.
func anyTarget(selected map[string]bool) bool {
	for _, c := range targetContenders {
		if selected[c] {
			return true
		}
	}
	return false
}

// writeTable writes t as Markdown followed by an empty line.
func writeTable(b *strings.Builder, t *harness.Table) error {
	md, err := t.Markdown()
	if err != nil {
		return err
	}
	b.WriteString(md)
	b.WriteString("\n")
	return nil
}

// covCell formats a replayed coverage, adds it to the totals, and notes
// its errors and caveats.
func covCell(example, who string, c replayCov, t *totals, note func(string, ...any)) string {
	if c.err != nil {
		note("%s: %s coverage replay: %s", example, who, firstLine(c.err.Error()))
		return "error"
	}
	t.covered += c.covered
	t.total += c.total
	cell := fmt.Sprintf("%d/%d", c.covered, c.total)
	if len(c.notes) > 0 {
		cell += " ²"
	}
	for _, n := range c.notes {
		note("%s: %s coverage: %s", example, who, n)
	}
	return cell
}

// bugCell formats the count of planted bugs found, and of other
// failures.
func bugCell(found, other []string) string {
	s := strconv.Itoa(len(found))
	if len(other) > 0 {
		s += fmt.Sprintf(" (+%d other)", len(other))
	}
	return s
}

// names lists the planted bugs found and the other failures, "—" for
// none.
func names(found, other []string) string {
	var parts []string
	for _, f := range found {
		parts = append(parts, "`"+f+"`")
	}
	for _, o := range other {
		parts = append(parts, "other: `"+strings.ReplaceAll(o, "|", "\\|")+"`")
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

// pct formats a coverage as covered/total and its percentage.
func pct(a, b int) string {
	if b == 0 {
		return "0/0"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", a, b, 100*float64(a)/float64(b))
}
