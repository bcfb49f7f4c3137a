package main

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"

	shared "github.com/gocolic/gocolic/bench/internal/harness"
)

// addRow appends cells to t, escaped: messages and notes may hold '|'.
func addRow(t *shared.Table, cells ...string) {
	for i, c := range cells {
		cells[i] = shared.Cell(c)
	}
	t.Add(cells...)
}

// markdown formats t; the rows report builds have one cell per column.
func markdown(t *shared.Table) string {
	s, err := t.Markdown()
	if err != nil {
		panic("realbench: " + err.Error())
	}
	return s
}

// median returns the median of xs (the mean of the middle two for an even
// count), and false if xs is empty.
func median(xs []float64) (float64, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2], true
	}
	return (s[n/2-1] + s[n/2]) / 2, true
}

// covCell formats the coverage of a tool over the runs: the median
// percentage, with the statements of the run at the median (one run), or
// the range (several).
func covCell(cs []coverage) string {
	var pcts []float64
	var ok []coverage
	for _, c := range cs {
		if c.err == nil && c.total > 0 {
			pcts = append(pcts, c.pct())
			ok = append(ok, c)
		}
	}
	m, have := median(pcts)
	if !have {
		return "error"
	}
	cell := fmt.Sprintf("%.1f%%", m)
	if len(ok) == 1 {
		cell += fmt.Sprintf(" (%d/%d)", ok[0].covered, ok[0].total)
	} else {
		lo, hi := pcts[0], pcts[0]
		for _, p := range pcts {
			lo, hi = min(lo, p), max(hi, p)
		}
		cell += fmt.Sprintf(" [%.1f–%.1f]", lo, hi)
	}
	if len(ok) < len(cs) {
		cell += fmt.Sprintf(" (%d of %d runs)", len(ok), len(cs))
	}
	for _, c := range ok {
		if len(c.dropped) > 0 {
			cell += " ¹"
			break
		}
	}
	return cell
}

func medianCell(xs []float64, format func(float64) string) string {
	m, ok := median(xs)
	if !ok {
		return "—"
	}
	return format(m)
}

// findingCounts returns the distinct findings over the runs, with the
// number of runs each appeared in.
func findingCounts(per [][]finding) (order []finding, runs map[finding]int) {
	runs = map[finding]int{}
	for _, fs := range per {
		seen := map[finding]bool{}
		for _, f := range fs {
			if seen[f] {
				continue
			}
			seen[f] = true
			if runs[f] == 0 {
				order = append(order, f)
			}
			runs[f]++
		}
	}
	return order, runs
}

func findingsCell(per [][]finding) string {
	order, _ := findingCounts(per)
	if len(order) == 0 {
		return "0"
	}
	kinds := map[string]int{}
	for _, f := range order {
		kinds[f.Kind]++
	}
	var parts []string
	for _, k := range sortedKeys(kinds) {
		parts = append(parts, fmt.Sprintf("%d %s", kinds[k], k))
	}
	return fmt.Sprintf("%d (%s)", len(order), strings.Join(parts, ", "))
}

// statusCell summarises the outcomes over the runs of gocolic fuzz
// (test false) or gocolic test (test true).
func statusCell(hr harnessResult, test bool) string {
	counts := map[string]int{}
	warm := hr.warmG
	if test {
		warm = hr.warmT
	}
	for _, r := range hr.runs {
		if test {
			if r.ranTest() {
				counts[r.t.status]++
			}
		} else {
			counts[r.g.status]++
		}
	}
	if len(counts) == 0 {
		return "—"
	}
	if len(counts) == 1 && counts["ok"] > 0 {
		if warm != "" {
			return "ok ²"
		}
		return "ok"
	}
	var parts []string
	for _, s := range sortedKeys(counts) {
		if len(hr.runs) > 1 {
			parts = append(parts, fmt.Sprintf("%s ×%d", s, counts[s]))
		} else {
			parts = append(parts, s)
		}
	}
	return "**" + strings.Join(parts, ", ") + "** ²"
}

func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n-1] + "…"
	}
	return s
}

// report formats the Markdown report.
func report(results []harnessResult, c config, goLine string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Budget %v per tool per harness, %d worker(s) each (gocolic -workers, go test -parallel), %d run(s) of each (medians), %s %s/%s, %d CPUs, module go %s.",
		c.budget, c.workers, c.runs, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), goLine)
	if c.instrument {
		b.WriteString(" gocolic runs with -instrument TARGET.")
	} else {
		b.WriteString(" gocolic instruments only the harness package (no -instrument).")
	}
	if f := strings.TrimSpace(c.gocolicFlags); f != "" {
		fmt.Fprintf(&b, " Extra gocolic flags: `%s`.", f)
	}
	if !c.fuzzer {
		b.WriteString(" go test -fuzz was not run (-fuzzer=false): its columns are empty.")
	}
	b.WriteString("\n\n")

	mt := shared.Table{
		Head: []string{"harness", "package@version", "stmt cov: seeds only", "stmt cov: go test -fuzz", "stmt cov: gocolic fuzz (seeds)", "stmt cov: gocolic test (zero values)", "stmt cov: union",
			"execs/s: go test -fuzz", "execs/s: gocolic fuzz", "execs/s: gocolic test", "gocolic divergences (fuzz / test)",
			"panics/failures: go test -fuzz", "gocolic fuzz", "gocolic test", "status: gocolic fuzz", "gocolic test"},
		Right: []bool{false, false, true, true, true, true, true, true, true, true, true, true, true, true, false, false},
	}
	var notes []string
	note := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	for _, hr := range results {
		var gc, fc, tc, uc []coverage
		var div, tdiv, gRate, fRate, tRate []float64
		var gF, fF, tF [][]finding
		for _, r := range hr.runs {
			gc = append(gc, r.gcov)
			fc = append(fc, r.fcov)
			if r.ranTest() {
				tc = append(tc, r.tcov)
				tF = append(tF, r.t.findings())
				if r.t.rep != nil {
					tdiv = append(tdiv, float64(r.t.rep.Divergences))
					tRate = append(tRate, r.t.rep.ExecsPerSec)
				}
			}
			u := coverage{err: errors.New("a replay failed")}
			if r.union != nil {
				u = coverage{prof: r.union}
				u.covered, u.total = r.union.counts()
			}
			uc = append(uc, u)
			if r.g.rep != nil {
				div = append(div, float64(r.g.rep.Divergences))
				gRate = append(gRate, r.g.rep.ExecsPerSec)
			}
			if r.fuzz.haveRate {
				fRate = append(fRate, r.fuzz.execsPerSec)
			}
			gF = append(gF, r.g.findings())
			var ff []finding
			if r.fuzz.finding != nil {
				ff = append(ff, *r.fuzz.finding)
			}
			fF = append(fF, ff)
		}
		seeds := "error"
		if hr.seeds.err == nil {
			seeds = fmt.Sprintf("%.1f%% (%d/%d)", hr.seeds.pct(), hr.seeds.covered, hr.seeds.total)
		} else {
			note("%s: replay of the seeds: %s", hr.h.Name(), short(hr.seeds.err.Error(), 400))
		}
		num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
		tcov, tfind := "—", "—"
		if len(tc) > 0 {
			tcov, tfind = covCell(tc), findingsCell(tF)
		}
		fcov, ffind := covCell(fc), findingsCell(fF)
		if !c.fuzzer {
			fcov, ffind = "—", "—"
		}
		addRow(&mt, hr.h.Name(), hr.version, seeds, fcov, covCell(gc), tcov, covCell(uc),
			medianCell(fRate, shared.Rate), medianCell(gRate, shared.Rate), medianCell(tRate, shared.Rate),
			medianCell(div, num)+" / "+medianCell(tdiv, num),
			ffind, findingsCell(gF), tfind, statusCell(hr, false), statusCell(hr, true))
	}
	b.WriteString(markdown(&mt))
	b.WriteString("\n")

	// Details, one row per run.
	dt := shared.Table{
		Head: []string{"harness", "run", "gocolic fuzz: execs", "paths", "stopped", "gocolic branch outcomes (own count)", "solver queries (sat/unsat/unknown)", "corpus entries", "wall",
			"gocolic test: execs", "stopped", "branch outcomes", "cases", "wall",
			"fuzz: execs", "corpus entries", "outcome", "wall", "stmt cov: union"},
		Right: []bool{false, true, true, true, false, true, false, true, true, true, false, true, true, true, true, true, false, true, true},
	}
	for _, hr := range results {
		for i, r := range hr.runs {
			g := r.g
			execs, paths, stopped, own, solver := "—", "—", g.status, "—", "—"
			if g.rep != nil {
				rep := g.rep
				execs, paths = strconv.Itoa(rep.Executions), strconv.Itoa(rep.Paths)
				stopped = fmt.Sprintf("%s after %d ms", rep.Stopped, rep.ElapsedMS)
				own = fmt.Sprintf("%d/%d", rep.Branches.Covered, rep.Branches.Total)
				solver = fmt.Sprintf("%d (%d/%d/%d)", rep.Solver.Queries, rep.Solver.Sat, rep.Solver.Unsat, rep.Solver.Unknown)
			}
			f := r.fuzz
			outcome := "no failure in the budget"
			switch {
			case f.err != nil:
				outcome = "error"
			case f.finding != nil:
				outcome = "stopped at its first failure"
			case f.raceNote:
				outcome = "no failure (ended by go.dev/issue/75804)"
			}
			u := "—"
			if r.union != nil {
				cov, tot := r.union.counts()
				u = fmt.Sprintf("%.1f%%", 100*float64(cov)/float64(max(tot, 1)))
			}
			texecs, tstopped, town, tcases, twall := "—", "—", "—", "—", "—"
			if r.ranTest() {
				tstopped, tcases, twall = r.t.status, strconv.Itoa(r.t.entries), r.t.wall.Round(100e6).String()
				if rep := r.t.rep; rep != nil {
					texecs = strconv.Itoa(rep.Executions)
					tstopped = fmt.Sprintf("%s after %d ms", rep.Stopped, rep.ElapsedMS)
					town = fmt.Sprintf("%d/%d", rep.Branches.Covered, rep.Branches.Total)
				}
			}
			fexecs, fentries, fwall := strconv.FormatInt(f.execs, 10), strconv.Itoa(f.entries), f.wall.Round(100e6).String()
			if !c.fuzzer {
				fexecs, fentries, outcome, fwall = "—", "—", "not run", "—"
			}
			addRow(&dt, hr.h.Name(), strconv.Itoa(i+1), execs, paths, stopped, own, solver, strconv.Itoa(g.entries), g.wall.Round(100e6).String(),
				texecs, tstopped, town, tcases, twall,
				fexecs, fentries, outcome, fwall, u)
		}
	}
	b.WriteString("Details, per run:\n\n")
	b.WriteString(markdown(&dt))
	b.WriteString("\n")

	// Findings.
	var fl []string
	for _, hr := range results {
		var gF, fF, tF [][]finding
		for _, r := range hr.runs {
			gF = append(gF, r.g.findings())
			if r.ranTest() {
				tF = append(tF, r.t.findings())
			}
			var ff []finding
			if r.fuzz.finding != nil {
				ff = append(ff, *r.fuzz.finding)
			}
			fF = append(fF, ff)
		}
		for _, side := range []struct {
			who string
			per [][]finding
		}{{"gocolic fuzz", gF}, {"gocolic test", tF}, {"go test -fuzz", fF}} {
			order, counts := findingCounts(side.per)
			for _, f := range order {
				fl = append(fl, fmt.Sprintf("- %s, %s (%d of %d runs): %s: `%s`", hr.h.Name(), side.who, counts[f], len(side.per), f.Kind, short(f.Message, 300)))
			}
		}
	}
	if len(fl) > 0 {
		b.WriteString("Panics and failures found:\n\n")
		b.WriteString(strings.Join(fl, "\n"))
		b.WriteString("\n\n")
	}

	for _, hr := range results {
		if hr.warmFuzz != "" {
			note("%s: go test -fuzz warm-up: %s", hr.h.Name(), short(hr.warmFuzz, 600))
		}
		if hr.warmG != "" {
			note("%s: gocolic warm-up (fuzz -runs 1 -nocorpus): %s", hr.h.Name(), short(hr.warmG, 600))
		}
		if hr.warmT != "" {
			note("%s: gocolic warm-up (test -runs 1 -notests): %s", hr.h.Name(), short(hr.warmT, 600))
		}
		for i, r := range hr.runs {
			for _, side := range []struct {
				who string
				g   gocolicRun
			}{{"gocolic fuzz", r.g}, {"gocolic test", r.t}} {
				switch {
				case side.g.status == "":
				case side.g.status != "ok":
					note("%s run %d: %s %s (exit code %d, wall %v): %s", hr.h.Name(), i+1, side.who, side.g.status, side.g.exitCode, side.g.wall.Round(100e6), short(side.g.detail, 800))
				case side.g.repErr != nil:
					note("%s run %d: %s report: %v", hr.h.Name(), i+1, side.who, side.g.repErr)
				}
			}
			if r.fuzz.err != nil {
				note("%s run %d: go test -fuzz: %s", hr.h.Name(), i+1, short(r.fuzz.err.Error(), 600))
			}
			for _, side := range []struct {
				who string
				c   coverage
			}{{"fuzz", r.fcov}, {"gocolic", r.gcov}} {
				if side.c.err != nil {
					note("%s run %d: replay of the %s corpus: %s", hr.h.Name(), i+1, side.who, short(side.c.err.Error(), 600))
				}
				if len(side.c.dropped) > 0 {
					note("%s run %d: replay of the %s corpus: %d of %d entries left out because they panic or hang (their coverage is not counted): %s",
						hr.h.Name(), i+1, side.who, len(side.c.dropped), side.c.inputs, strings.Join(side.c.dropped, ", "))
				}
			}
			if r.tcov.err != nil {
				note("%s run %d: replay of gocolic test's tests: %s", hr.h.Name(), i+1, short(r.tcov.err.Error(), 600))
			}
			if len(r.tcov.dropped) > 0 {
				note("%s run %d: replay of gocolic test's tests: subtests skipped because they killed the test binary (their coverage is not counted): %s",
					hr.h.Name(), i+1, strings.Join(r.tcov.dropped, ", "))
			}
		}
	}

	b.WriteString("Notes:\n\n")
	b.WriteString("- stmt cov: statement coverage of the package under test (the harness's Target, not the harness package), as `go tool cover -func` totals it: the statements of the blocks that ran over all statements of the package. This is the measurable proxy for branch coverage: Go's cover profiles record which blocks ran, not which outcome each condition took. It is measured the same way for both tools, by replaying the corpus each left under `go test -run '^FuzzXxx$' -coverpkg=TARGET -coverprofile`: for go test -fuzz its cache entries and failing input, for gocolic the entries it wrote to testdata/fuzz/FuzzXxx. The replay also runs the f.Add seeds; \"seeds only\" is the replay of the seeds alone.\n")
	b.WriteString("- gocolic test (zero values): `gocolic test` on the harness's CheckXxx function (what the fuzz target runs on one input), with no seeds and no testdata, as a new user runs it; its coverage is the replay of the test file it writes, `go test -run '^TestGocolicCheckXxx(Crashes)?$' -coverpkg=TARGET -coverprofile`, which runs neither the fuzz target nor its seeds. The failing reproducers of TestGocolicCheckXxxCrashes run under a recover (panics) or in a child process (other crashes), so they count up to the point they fail. union: the statements any of the three corpora covers, per run.\n")
	b.WriteString("- ¹ some corpus entries panic or hang and kill the replaying test binary before it writes its profile; they were left out of the replay (see the notes below), so their coverage is not counted.\n")
	b.WriteString("- gocolic divergences, execs/s, branch outcomes, paths, solver: from its JSON report. execs/s is executions over its exploration time; it can stop early (\"exhausted\") when no branch it tracks is left open. Its branch outcomes (both outcomes of every condition) are true branch coverage, but only gocolic counts them, and only in the packages it instrumented: with -instrument, the Target and the harness package; without it, the harness package alone, whose conditions outside test files are none.\n")
	b.WriteString("- fuzz execs/s: executions over elapsed time, both from the fuzzer's last progress line, as gocolic counts its own.\n")
	b.WriteString("- go test -fuzz stops at its first failing input; gocolic goes on and reports every distinct one.\n")
	b.WriteString("- gocolic status: ok (exit 0 with a report), HANG (killed at budget + slack), CRASH (a Go panic of gocolic itself), exit N, killed, no report. ² see the notes.\n")
	for _, n := range notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	return b.String()
}
