package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gocolic/gocolic/bench/internal/harness"
)

// alpha is the significance level the tables mark.
const alpha = 0.05

// results are the runs of a benchmark, by program and strategy.
type results struct {
	programs   []*program
	strategies []string // the selected ones, in the order of explore.Names
	seeds      []int64
	recs       map[string][]runRecord
	learns     []learnRecord
}

func newResults(programs []*program, strategies []string, seeds []int64) *results {
	return &results{programs: programs, strategies: strategies, seeds: seeds, recs: map[string][]runRecord{}}
}

func recKey(program, strategy string) string { return program + "\x00" + strategy }

// add records a run.
func (r *results) add(rec runRecord) {
	k := recKey(rec.Program, rec.Strategy)
	r.recs[k] = append(r.recs[k], rec)
}

// failed counts the failed runs.
func (r *results) failed() int {
	n := 0
	for _, rs := range r.recs {
		for _, rec := range rs {
			if !rec.ok() {
				n++
			}
		}
	}
	return n
}

// sample is what the good runs of one program with one strategy measured.
type sample struct {
	bySeed map[int64]float64 // coverage in percent, by seed
	cov    []float64         // the same, in run order
	maxCov int               // most outcomes covered by one run
	total  int               // branch outcomes of the program, 0 if no good run
	execs  []float64
	secs   []float64 // exploration time of each run, in seconds
	bugs   []float64
	ran    int
	failed int
	capped int // good runs stopped by the cap before their executions
}

func (r *results) sample(program, strategy string) sample {
	s := sample{bySeed: map[int64]float64{}}
	for _, rec := range r.recs[recKey(program, strategy)] {
		s.ran++
		if !rec.ok() {
			s.failed++
			continue
		}
		s.bySeed[rec.Seed] = rec.CoveragePct
		s.cov = append(s.cov, rec.CoveragePct)
		s.maxCov = max(s.maxCov, rec.Covered)
		s.total = rec.Total
		s.execs = append(s.execs, float64(rec.Executions))
		s.secs = append(s.secs, float64(rec.ElapsedMS)/1000)
		s.bugs = append(s.bugs, float64(rec.Bugs))
		if capped(rec) {
			s.capped++
		}
	}
	return s
}

// capped tells whether a run of a fixed number of executions was stopped
// by its wall-clock cap instead.
func capped(rec runRecord) bool {
	return rec.Stopped == "budget" && slices.Contains(rec.Args, "-runs")
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// best returns the hand-made strategy (not learned) with the highest mean
// coverage on program, "" if none has a good run. Ties go to the earlier
// strategy.
func (r *results) best(program string) string {
	bestName, bestMean := "", math.Inf(-1)
	for _, s := range r.strategies {
		if s == learned || s == learnedRandom {
			continue
		}
		m := mean(r.sample(program, s).cov)
		if !math.IsNaN(m) && m > bestMean {
			bestName, bestMean = s, m
		}
	}
	return bestName
}

// paired returns the coverage of a and b on the seeds where both have a
// good run, in seed order.
func paired(a, b sample, seeds []int64) (x, y []float64) {
	for _, k := range seeds {
		va, okA := a.bySeed[k]
		vb, okB := b.bySeed[k]
		if okA && okB {
			x, y = append(x, va), append(y, vb)
		}
	}
	return x, y
}

// compare tests s against best on program, paired by seed.
func (r *results) compare(program, s, best string) string {
	if s == best {
		return "best"
	}
	x, y := paired(r.sample(program, s), r.sample(program, best), r.seeds)
	if len(x) == 0 {
		return "–"
	}
	res, err := harness.SignedRank(x, y)
	if err != nil {
		return "error: " + harness.Cell(err.Error())
	}
	dir := "="
	if res.N > 0 {
		half := float64(res.N*(res.N+1)) / 4
		switch {
		case res.WPlus > half:
			dir = "+"
		case res.WPlus < half:
			dir = "−"
		}
	}
	p := formatP(res.P)
	if res.P < alpha {
		p = "**" + p + "**"
	}
	return fmt.Sprintf("%s p=%s (n=%d)", dir, p, res.N)
}

func formatP(p float64) string {
	switch {
	case p < 0.001:
		return "<0.001"
	case p >= 0.995:
		return "1"
	}
	return strconv.FormatFloat(p, 'f', 3, 64)
}

func pct(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// ranSeed reports whether any run was made with seed k.
func (r *results) ranSeed(k int64) bool {
	for _, rs := range r.recs {
		for _, rec := range rs {
			if rec.Seed == k {
				return true
			}
		}
	}
	return false
}

// markdown formats the report.
func (r *results) markdown(m meta) (string, error) {
	var b strings.Builder
	b.WriteString("# Search strategies: branch coverage\n\n")
	limit := fmt.Sprintf("%d executions", m.Execs)
	if m.Cap != "" {
		limit += " (at most " + m.Cap + ": \"capped\" runs stopped there)"
	}
	if m.Budget != "" {
		limit = m.Budget
	}
	seeds, planned := "", m.Seeds
	if m.Interrupted {
		// Say what ran, not what was planned.
		planned = slices.DeleteFunc(slices.Clone(planned), func(k int64) bool { return !r.ranSeed(k) })
	}
	if len(planned) > 0 {
		seeds = fmt.Sprintf("seeds %d–%d", planned[0], planned[len(planned)-1])
	}
	fmt.Fprintf(&b, "Each run: one worker, %s, %s (%d runs per program and strategy", limit, seeds, len(planned))
	if len(planned) < m.Runs {
		fmt.Fprintf(&b, " of the %d planned", m.Runs)
	}
	fmt.Fprintf(&b, "). %s, %s, %d CPUs", m.GoVersion, m.Platform, m.CPUs)
	if m.Commit != "" {
		fmt.Fprintf(&b, ", commit %s", m.Commit)
	}
	b.WriteString(".\n")
	if m.Learn {
		learnFlags := ""
		if m.LearnFlags != "" {
			learnFlags = ", `" + m.LearnFlags + "`"
		}
		fmt.Fprintf(&b, "`learned`: weights from `gocolic learn -seed 1` per program (budget %s%s), evaluated on the other seeds.\n", m.LearnBudget, learnFlags)
		if slices.Contains(r.strategies, learnedRandom) {
			b.WriteString("`learned-random`: weights from `gocolic learn -method random` on the same seed, with as many rounds as that learning ran (the same runs), evaluated the same way (seed 001's RQ3).\n")
		}
	}
	if m.Interrupted {
		b.WriteString("\n**Interrupted**: the tables hold the runs made before the interruption.\n")
	}
	b.WriteString("\nCoverage: branch outcomes of the program's package covered, in percent of its total (both outcomes of every condition). " +
		"\"vs best\": two-sided Wilcoxon signed-rank test, paired by seed, against the hand-made strategy with the highest average " +
		"on the program (+ above it, − below it, n pairs with a difference; **bold** p < 0.05).\n")

	// Overview: averages.
	b.WriteString("\n## Average coverage (%)\n\n")
	ov := harness.Table{Head: append([]string{"program", "outcomes"}, r.strategies...), Right: []bool{false, true}}
	for range r.strategies {
		ov.Right = append(ov.Right, true)
	}
	for _, p := range r.programs {
		best := r.best(p.Name)
		total := 0
		row := []string{p.Name, ""}
		top := math.Inf(-1)
		for _, s := range r.strategies {
			if v := mean(r.sample(p.Name, s).cov); v > top {
				top = v
			}
		}
		for _, s := range r.strategies {
			sm := r.sample(p.Name, s)
			if sm.total > 0 {
				total = sm.total
			}
			c := pct(mean(sm.cov))
			if mean(sm.cov) == top {
				c = "**" + c + "**"
			}
			if s == best {
				c += "†"
			}
			row = append(row, c)
		}
		row[1] = strconv.Itoa(total)
		ov.Add(row...)
	}
	t, err := ov.Markdown()
	if err != nil {
		return "", err
	}
	b.WriteString(t)
	b.WriteString("\n**bold**: highest average on the program; †: the best hand-made strategy, the reference of the tests below.\n")

	// Per program.
	for _, p := range r.programs {
		best := r.best(p.Name)
		if p.Real != nil {
			fmt.Fprintf(&b, "\n## %s (`gocolic fuzz` of `%s` from its seeds, with `%s` instrumented; outcomes of both packages)\n\n", p.Name, p.Func, p.Real.Target)
		} else {
			fmt.Fprintf(&b, "\n## %s (`%s`, %d lines of code)\n\n", p.Name, p.Func, p.LOC)
		}
		pt := harness.Table{
			Head:  []string{"strategy", "runs", "avg %", "max %", "max outcomes", "avg executions", "avg s", "avg bugs", "vs best (" + best + ")"},
			Right: []bool{false, true, true, true, true, true, true, true, false},
		}
		for _, s := range r.strategies {
			sm := r.sample(p.Name, s)
			runs := strconv.Itoa(len(sm.cov))
			if sm.failed > 0 {
				runs += fmt.Sprintf(" (%d failed)", sm.failed)
			}
			if sm.capped > 0 {
				runs += fmt.Sprintf(" (%d capped)", sm.capped)
			}
			maxPct, maxOut := "–", "–"
			if len(sm.cov) > 0 {
				maxPct = pct(slices.Max(sm.cov))
				maxOut = fmt.Sprintf("%d/%d", sm.maxCov, sm.total)
			}
			execs, secs, bugs := "–", "–", "–"
			if len(sm.execs) > 0 {
				execs = harness.Rate(mean(sm.execs))
				secs = strconv.FormatFloat(mean(sm.secs), 'f', 1, 64)
				bugs = strconv.FormatFloat(mean(sm.bugs), 'f', 1, 64)
			}
			cmp := "–"
			if best != "" && len(sm.cov) > 0 {
				cmp = r.compare(p.Name, s, best)
			}
			pt.Add(s, runs, pct(mean(sm.cov)), maxPct, maxOut, execs, secs, bugs, cmp)
		}
		t, err := pt.Markdown()
		if err != nil {
			return "", err
		}
		b.WriteString(t)
	}

	if slices.Contains(r.strategies, learned) {
		b.WriteString("\n## Is the learned heuristic best?\n\n")
		lt := harness.Table{Head: []string{"program", "learned avg %", "best hand-made", "its avg %", "signed-rank"}, Right: []bool{false, true, false, true, false}}
		for _, p := range r.programs {
			best := r.best(p.Name)
			l := r.sample(p.Name, learned)
			cmp := "–"
			if best != "" && len(l.cov) > 0 {
				cmp = r.compare(p.Name, learned, best)
			}
			lt.Add(p.Name, pct(mean(l.cov)), best, pct(mean(r.sample(p.Name, best).cov)), cmp)
		}
		t, err := lt.Markdown()
		if err != nil {
			return "", err
		}
		b.WriteString(t)
	}
	if slices.Contains(r.strategies, learned) && slices.Contains(r.strategies, learnedRandom) {
		b.WriteString("\n## Find / check / refine against random sampling at the same cost (RQ3)\n\n")
		lt := harness.Table{Head: []string{"program", "learned avg %", "learned-random avg %", "signed-rank (learned vs random)"}, Right: []bool{false, true, true, false}}
		for _, p := range r.programs {
			l, rs := r.sample(p.Name, learned), r.sample(p.Name, learnedRandom)
			cmp := "–"
			if len(l.cov) > 0 && len(rs.cov) > 0 {
				cmp = r.compare(p.Name, learned, learnedRandom)
			}
			lt.Add(p.Name, pct(mean(l.cov)), pct(mean(rs.cov)), cmp)
		}
		t, err := lt.Markdown()
		if err != nil {
			return "", err
		}
		b.WriteString(t)
	}
	if len(r.learns) > 0 {
		b.WriteString("\n## Learning\n\n")
		lt := harness.Table{
			Head:  []string{"program", "method", "rounds", "executions", "learning time", "wall time", "check score (outcomes)", "result"},
			Right: []bool{false, false, true, true, true, true, true, false},
		}
		for _, l := range r.learns {
			res := "ok"
			if l.Error != "" {
				res = "FAILED: " + harness.Cell(l.Error)
			}
			method, rounds, execs, secs, score := "–", "–", "–", "–", "–"
			if c := l.Learned; c != nil {
				method = cmp.Or(c.Method, "refine")
				rounds, execs = strconv.Itoa(c.Rounds), harness.Rate(float64(c.Executions))
				secs, score = fmt.Sprintf("%.0fs", c.Seconds), strconv.FormatFloat(c.Score, 'f', 1, 64)
				if c.Partial {
					res += " (stopped at its budget: best so far)"
				}
			}
			lt.Add(l.Program, method, rounds, execs, secs, fmt.Sprintf("%.0fs", float64(l.WallMS)/1000), score, res)
		}
		t, err := lt.Markdown()
		if err != nil {
			return "", err
		}
		b.WriteString(t)
	}
	if r.failed() > 0 {
		b.WriteString("\n## Failed runs\n\n")
		ft := harness.Table{Head: []string{"program", "strategy", "seed", "error"}}
		for _, p := range r.programs {
			for _, s := range r.strategies {
				for _, rec := range r.recs[recKey(p.Name, s)] {
					if !rec.ok() {
						ft.Add(p.Name, s, strconv.FormatInt(rec.Seed, 10), harness.Cell(rec.Error))
					}
				}
			}
		}
		t, err := ft.Markdown()
		if err != nil {
			return "", err
		}
		b.WriteString(t)
	}
	return b.String(), nil
}
