package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gocolic/gocolic/bench/internal/harness"
)

// alpha is the significance level marked in the tables.
const alpha = 0.05

// results are the runs of a benchmark, by target and configuration.
type results struct {
	targets []*harness.Target
	configs []config // the selected ones, in the order of allConfigs
	runs    int      // runs asked for per target and configuration
	recs    map[string][]runRecord
}

// newResults returns empty results for the given targets and configurations.
func newResults(targets []*harness.Target, configs []config, runs int) *results {
	return &results{targets: targets, configs: configs, runs: runs, recs: map[string][]runRecord{}}
}

func recKey(target, config string) string { return target + "\x00" + config }

// add records a run.
func (r *results) add(rec runRecord) {
	k := recKey(rec.Target, rec.Config)
	r.recs[k] = append(r.recs[k], rec)
}

// has tells whether configuration name was selected.
func (r *results) has(name string) bool {
	for _, c := range r.configs {
		if c.Name == name {
			return true
		}
	}
	return false
}

// sample is what the good runs of one target in one configuration
// measured.
type sample struct {
	cov     []float64 // coverage, percent of branch outcomes
	last    []float64 // time of the last coverage increase, seconds
	elapsed []float64 // run time of the exploration (elapsed_ms), seconds
	ran     int       // runs recorded
	failed  int       // runs that failed
	total   int       // branch outcomes of the target, 0 if no good run
}

// sample collects the measurements of the good runs of a target in a
// configuration.
func (r *results) sample(target, config string) sample {
	var s sample
	for _, rec := range r.recs[recKey(target, config)] {
		s.ran++
		if !rec.ok() {
			s.failed++
			continue
		}
		s.cov = append(s.cov, rec.CoveragePct)
		s.last = append(s.last, float64(rec.LastIncreaseMS)/1000)
		s.elapsed = append(s.elapsed, float64(rec.ElapsedMS)/1000)
		s.total = rec.Total
	}
	return s
}

// okNote marks a cell whose statistics rest on fewer runs than were made.
func (s sample) okNote() string {
	if s.failed == 0 {
		return ""
	}
	return fmt.Sprintf(" [%d/%d ok]", s.ran-s.failed, s.ran)
}

// formatFloat formats v with prec decimals, or "—" for NaN.
func formatFloat(v float64, prec int) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

// medVar formats the median and the variance of xs as "median (variance)";
// the variance is "—" below two values, the whole cell "—" without any.
func medVar(xs []float64, prec int) string {
	if len(xs) == 0 {
		return "—"
	}
	return formatFloat(median(xs), prec) + " (" + formatFloat(variance(xs), prec) + ")"
}

// formatP formats a p-value with three significant digits, with " *"
// when it is below alpha.
func formatP(p float64) string {
	if math.IsNaN(p) {
		return "—"
	}
	s := strconv.FormatFloat(p, 'g', 3, 64)
	if p < alpha {
		s += " *"
	}
	return s
}

// pValue is the Mann-Whitney p-value of two samples, NaN if either is
// empty.
func pValue(x, y []float64) float64 {
	res, err := mannWhitney(x, y)
	if err != nil {
		return math.NaN()
	}
	return res.P
}

// mainConfigs returns the selected configurations of the main tables, in
// the order z3, walk, auto.
func (r *results) mainConfigs() []config {
	var out []config
	for _, c := range r.configs {
		if !c.Ablation {
			out = append(out, c)
		}
	}
	return out
}

// locWeights returns the lines of code of each target, as weights.
func (r *results) locWeights() []float64 {
	w := make([]float64, len(r.targets))
	for i, t := range r.targets {
		w[i] = float64(t.LOC)
	}
	return w
}

// totalLOC sums the lines of code of the targets.
func (r *results) totalLOC() int {
	n := 0
	for _, t := range r.targets {
		n += t.LOC
	}
	return n
}

// coverageTable renders, one row per program, the median and variance of
// the coverage of each main configuration and the p-values of walk and
// auto against z3, with a LOC-weighted average row.
func (r *results) coverageTable() (string, error) {
	cfgs := r.mainConfigs()
	if len(cfgs) == 0 {
		return "", nil
	}
	withP := r.has(cfgZ3)
	tb := harness.Table{Head: []string{"program", "LOC", "branch outcomes"}, Right: []bool{false, true, true}}
	for _, c := range cfgs {
		tb.Head = append(tb.Head, c.Name+": cov % median (var)")
		tb.Right = append(tb.Right, true)
		if withP && c.Name != cfgZ3 {
			tb.Head = append(tb.Head, "p "+c.Name+" vs z3")
			tb.Right = append(tb.Right, true)
		}
	}
	// Per-column values of each program, for the average row.
	cols := len(tb.Head) - 3
	meds := make([][]float64, cols)
	vars := make([][]float64, cols)
	for _, t := range r.targets {
		z3 := r.sample(t.Name, cfgZ3)
		total := 0
		row := []string{t.Name, strconv.Itoa(t.LOC), ""}
		col := 0
		for _, c := range cfgs {
			s := r.sample(t.Name, c.Name)
			if total == 0 {
				total = s.total
			}
			row = append(row, medVar(s.cov, 1)+s.okNote())
			meds[col] = append(meds[col], median(s.cov))
			vars[col] = append(vars[col], variance(s.cov))
			col++
			if withP && c.Name != cfgZ3 {
				row = append(row, formatP(pValue(s.cov, z3.cov)))
				meds[col] = append(meds[col], math.NaN())
				vars[col] = append(vars[col], math.NaN())
				col++
			}
		}
		if total > 0 {
			row[2] = strconv.Itoa(total)
		}
		tb.Add(row...)
	}
	tb.Add(r.averageRow(tb.Head, meds, vars, 1)...)
	return tb.Markdown()
}

// averageRow renders the LOC-weighted average of the per-program medians
// and variances of each column ("—" where a column holds p-values).
func (r *results) averageRow(head []string, meds, vars [][]float64, prec int) []string {
	w := r.locWeights()
	row := []string{"**LOC-weighted average**", strconv.Itoa(r.totalLOC())}
	for len(row) < len(head)-len(meds) {
		row = append(row, "")
	}
	for i := range meds {
		m, v := weightedMean(meds[i], w), weightedMean(vars[i], w)
		if math.IsNaN(m) {
			row = append(row, "—")
			continue
		}
		row = append(row, formatFloat(m, prec)+" ("+formatFloat(v, prec)+")")
	}
	return row
}

// timeTable renders, one row per program, the median and variance of the
// time of the last coverage increase and of the run time of each main
// configuration, with a LOC-weighted average row.
func (r *results) timeTable() (string, error) {
	cfgs := r.mainConfigs()
	if len(cfgs) == 0 {
		return "", nil
	}
	tb := harness.Table{Head: []string{"program", "LOC"}, Right: []bool{false, true}}
	for _, c := range cfgs {
		tb.Head = append(tb.Head, c.Name+": last new cov, s", c.Name+": run time, s")
		tb.Right = append(tb.Right, true, true)
	}
	cols := 2 * len(cfgs)
	meds := make([][]float64, cols)
	vars := make([][]float64, cols)
	for _, t := range r.targets {
		row := []string{t.Name, strconv.Itoa(t.LOC)}
		for i, c := range cfgs {
			s := r.sample(t.Name, c.Name)
			row = append(row, medVar(s.last, 2)+s.okNote(), medVar(s.elapsed, 2)+s.okNote())
			meds[2*i] = append(meds[2*i], median(s.last))
			vars[2*i] = append(vars[2*i], variance(s.last))
			meds[2*i+1] = append(meds[2*i+1], median(s.elapsed))
			vars[2*i+1] = append(vars[2*i+1], variance(s.elapsed))
		}
		tb.Add(row...)
	}
	tb.Add(r.averageRow(tb.Head, meds, vars, 2)...)
	return tb.Markdown()
}

// ablationTable renders, one row per program, each ablation's median
// coverage as a fraction of the walk baseline's, with the p-value of the
// ablation's coverage against the baseline's, and a LOC-weighted average
// row of the fractions. It is empty unless walk and an ablation were run.
func (r *results) ablationTable() (string, error) {
	var abl []config
	for _, c := range r.configs {
		if c.Ablation {
			abl = append(abl, c)
		}
	}
	if len(abl) == 0 || !r.has(cfgWalk) {
		return "", nil
	}
	tb := harness.Table{Head: []string{"program", "LOC", "walk: cov % median"}, Right: []bool{false, true, true}}
	for _, c := range abl {
		tb.Head = append(tb.Head, c.Name+": fraction (p)")
		tb.Right = append(tb.Right, true)
	}
	fracs := make([][]float64, len(abl))
	for _, t := range r.targets {
		base := r.sample(t.Name, cfgWalk)
		bm := median(base.cov)
		row := []string{t.Name, strconv.Itoa(t.LOC), formatFloat(bm, 1) + base.okNote()}
		for i, c := range abl {
			s := r.sample(t.Name, c.Name)
			f := math.NaN()
			if bm > 0 && len(s.cov) > 0 {
				f = median(s.cov) / bm
			}
			fracs[i] = append(fracs[i], f)
			cell := formatFloat(f, 2)
			if len(s.cov) > 0 && len(base.cov) > 0 {
				cell += " (" + formatP(pValue(s.cov, base.cov)) + ")"
			}
			row = append(row, cell+s.okNote())
		}
		tb.Add(row...)
	}
	w := r.locWeights()
	avg := []string{"**LOC-weighted average**", strconv.Itoa(r.totalLOC()), ""}
	for i := range abl {
		avg = append(avg, formatFloat(weightedMean(fracs[i], w), 2))
	}
	tb.Add(avg...)
	return tb.Markdown()
}

// failuresTable lists the failed runs; empty if there are none.
func (r *results) failuresTable() (string, error) {
	tb := harness.Table{Head: []string{"program", "configuration", "run", "seed", "exit status", "why"}, Right: []bool{false, false, true, true, true, false}}
	for _, t := range r.targets {
		for _, c := range r.configs {
			for _, rec := range r.recs[recKey(t.Name, c.Name)] {
				if rec.ok() {
					continue
				}
				tb.Add(t.Name, c.Name, strconv.Itoa(rec.Run), strconv.FormatInt(rec.Seed, 10),
					strconv.Itoa(rec.ExitCode), escapeCell(rec.Error))
			}
		}
	}
	if len(tb.Rows) == 0 {
		return "", nil
	}
	return tb.Markdown()
}

// failed counts the failed runs.
func (r *results) failed() int {
	n := 0
	for _, recs := range r.recs {
		for _, rec := range recs {
			if !rec.ok() {
				n++
			}
		}
	}
	return n
}

// escapeCell makes s safe in a Markdown table cell: one line, '|'
// escaped.
func escapeCell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// meta describes the benchmark run, for the report's header.
type meta struct {
	Budget      string `json:"budget"`
	Workers     int    `json:"workers"`
	Runs        int    `json:"runs"`
	GoVersion   string `json:"go_version"`
	Platform    string `json:"platform"`
	CPUs        int    `json:"cpus"`
	Commit      string `json:"commit,omitempty"`
	Interrupted bool   `json:"interrupted,omitempty"`
}

// markdown renders the whole report: header, configurations, coverage,
// times, ablations, failures and notes.
func (r *results) markdown(m meta) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "## Concolic walk (bench/walk)\n\n")
	fmt.Fprintf(&b, "%d run(s) per program and configuration (seeds 1 to %d), budget %s per run, %d worker(s), one run at a time; %s %s, %d CPUs",
		m.Runs, m.Runs, m.Budget, m.Workers, m.GoVersion, m.Platform, m.CPUs)
	if m.Commit != "" {
		fmt.Fprintf(&b, ", gocolic at %s", m.Commit)
	}
	b.WriteString(".\n\n")
	if m.Interrupted {
		b.WriteString("**Interrupted**: the tables hold the runs made before the interruption.\n\n")
	}
	cfg := harness.Table{Head: []string{"configuration", "flags"}}
	for _, c := range r.configs {
		cfg.Add(c.Name, "`"+strings.Join(c.Flags, " ")+"`")
	}
	sections := []struct {
		title string
		table func() (string, error)
	}{
		{"Configurations", cfg.Markdown},
		{"Branch coverage", r.coverageTable},
		{"Time", r.timeTable},
		{"Ablations of walk", r.ablationTable},
		{"Failed runs", r.failuresTable},
	}
	for _, s := range sections {
		md, err := s.table()
		if err != nil {
			return "", fmt.Errorf("rendering %s: %w", strings.ToLower(s.title), err)
		}
		if md == "" {
			continue
		}
		fmt.Fprintf(&b, "### %s\n\n%s\n", s.title, md)
	}
	b.WriteString(notes)
	return b.String(), nil
}

// notes explain the tables.
const notes = `Notes:

- Coverage: gocolic's branches.covered / branches.total, in percent: both
  outcomes of every condition of the target package. Cells are "median
  (sample variance)" over the runs that did not fail; the variance has the
  n-1 denominator and is "—" for a single run. "[k/n ok]" marks a cell where
  only k of n runs count (the others are listed under "Failed runs").
- Time: "last new cov" is when the run's timeline first reached its final
  coverage, from the start of the exploration; "run time" is the report's
  elapsed_ms. Neither includes instrumentation and the build of the worker
  binary.
- p: two-sided Mann-Whitney U test of the coverage samples; exact for up to
  10 runs per side without ties, otherwise the normal approximation with
  tie and continuity corrections. "*" marks p < 0.05.
- LOC-weighted average: per-program values weighted by the program's lines
  of code (non-blank, non-comment lines of its Go files); programs without
  a value are left out of the average.
- Ablations: each ablation's median coverage divided by the median coverage
  of walk on the same program ("—" where walk's median is 0), with the
  p-value of the ablation's coverage against walk's.
`
