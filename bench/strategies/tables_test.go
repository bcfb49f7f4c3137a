package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/explore"
)

// fixture returns results of two programs, three strategies and five
// seeds (distinct differences between strategies, so that the tests are
// exact): on "vm" dfs is best and cover loses on every seed, on "ini" cover
// is best and learned beats it on every seed; one run of "ini" with dfs
// failed.
func fixture() *results {
	progs := []*program{
		{Target: &harness.Target{Name: "vm", Func: "Run", LOC: 500}},
		{Target: &harness.Target{Name: "ini", Func: "Load", LOC: 450}},
	}
	seeds := []int64{1, 2, 3, 4, 5}
	r := newResults(progs, []string{"cover", "dfs", learned}, seeds)
	add := func(prog, strat string, covered []int, total int) {
		for i, c := range covered {
			r.add(runRecord{Program: prog, Strategy: strat, Seed: seeds[i], Covered: c, Total: total,
				CoveragePct: 100 * float64(c) / float64(total), Executions: 4000, ElapsedMS: int64(1000 * (i + 1)), Bugs: i % 2})
		}
	}
	add("vm", "cover", []int{50, 52, 54, 56, 58}, 200)
	add("vm", "dfs", []int{60, 61, 62, 63, 64}, 200)
	add("vm", learned, []int{60, 62, 61, 64, 63}, 200)
	add("ini", "cover", []int{100, 100, 101, 102, 100}, 300)
	add("ini", "dfs", []int{90, 92, 94, 96}, 300)
	r.add(runRecord{Program: "ini", Strategy: "dfs", Seed: 5, ExitCode: 1, Error: "exit status 1: a | b"})
	add("ini", learned, []int{110, 112, 114, 116, 118}, 300)
	return r
}

func TestBest(t *testing.T) {
	r := fixture()
	tests := []struct{ program, want string }{
		{"vm", "dfs"},
		{"ini", "cover"}, // learned is higher, but not hand-made
		{"none", ""},
	}
	for _, tt := range tests {
		if got := r.best(tt.program); got != tt.want {
			t.Errorf("best(%s) = %q, want %q", tt.program, got, tt.want)
		}
	}
}

func TestCompare(t *testing.T) {
	r := fixture()
	tests := []struct {
		name, program, strategy, best, want string
	}{
		{"the best itself", "vm", "dfs", "dfs", "best"},
		// Five pairs, all below, distinct differences: exact p = 2/32.
		{"below on every seed", "vm", "cover", "dfs", "− p=0.062 (n=5)"},
		// learned vs dfs on vm: differences 0,1,-1,1,-1 → 4 non-zero, tied.
		{"no difference overall", "vm", learned, "dfs", "= p=1 (n=4)"},
		// dfs failed on seed 5: four pairs, all below; exact 2/16.
		{"failed run left out of the pairs", "ini", "dfs", "cover", "− p=0.125 (n=4)"},
		{"above on every seed", "ini", learned, "cover", "+ p=0.062 (n=5)"},
	}
	for _, tt := range tests {
		if got := r.compare(tt.program, tt.strategy, tt.best); got != tt.want {
			t.Errorf("%s: compare = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	r := fixture()
	r.learns = []learnRecord{
		{Program: "vm", WallMS: 61000, Learned: &explore.Learning{Rounds: 3, Executions: 144000, Seconds: 58.4, Score: 212.5, Partial: true}},
		{Program: "ini", WallMS: 2000, Error: "exit status 1"},
	}
	md, err := r.markdown(meta{Execs: 4000, Runs: 5, Seeds: []int64{1, 2, 3, 4, 5}, Learn: true, LearnBudget: "1h0m0s", LearnFlags: "-samples 8 -top 2",
		GoVersion: "go1.24", Platform: "linux/amd64", CPUs: 2, Commit: "abc123"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Each run: one worker, 4000 executions, seeds 1–5 (5 runs per program and strategy). go1.24, linux/amd64, 2 CPUs, commit abc123.",
		"weights from `gocolic learn -seed 1` per program (budget 1h0m0s, `-samples 8 -top 2`)",
		"| program | outcomes | cover | dfs | learned |",
		// vm: dfs is best and has the top average (31.0); learned ties at 31.0.
		"| vm | 200 | 27.0 | **31.0**† | **31.0** |",
		"| ini | 300 | 33.5† | 31.0 | **38.0** |",
		"## vm (`Run`, 500 lines of code)",
		"| strategy | runs | avg % | max % | max outcomes | avg executions | avg s | avg bugs | vs best (dfs) |",
		// avg s: 1 to 5 s over the seeds; 1 to 4 s where seed 5 failed.
		"| cover | 5 | 27.0 | 29.0 | 58/200 | 4,000 | 3.0 | 0.4 | − p=0.062 (n=5) |",
		"| dfs | 5 | 31.0 | 32.0 | 64/200 | 4,000 | 3.0 | 0.4 | best |",
		"| dfs | 4 (1 failed) | 31.0 | 32.0 | 96/300 | 4,000 | 2.5 | 0.5 | − p=0.125 (n=4) |",
		"## Is the learned heuristic best?",
		"| ini | 38.0 | cover | 33.5 | + p=0.062 (n=5) |",
		"| program | method | rounds | executions | learning time | wall time | check score (outcomes) | result |",
		"| vm | refine | 3 | 144,000 | 58s | 61s | 212.5 | ok (stopped at its budget: best so far) |",
		"| ini | – | – | – | – | 2s | – | FAILED: exit status 1 |",
		"## Failed runs",
		`| ini | dfs | 5 | exit status 1: a \| b |`,
	}
	for _, w := range want {
		if !strings.Contains(md, w) {
			t.Errorf("markdown lacks %q; got:\n%s", w, md)
		}
	}
}

// TestMarkdownInterrupted checks that an interrupted run's header names
// the seeds that ran, and how many were planned.
func TestMarkdownInterrupted(t *testing.T) {
	r := fixture()
	md, err := r.markdown(meta{Execs: 4000, Runs: 20, Seeds: []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, Interrupted: true})
	if err != nil {
		t.Fatal(err)
	}
	if w := "4000 executions, seeds 1–5 (5 runs per program and strategy of the 20 planned)"; !strings.Contains(md, w) {
		t.Errorf("markdown lacks %q; got:\n%s", w, md)
	}
}

func TestMarkdownBudgetAndNoLearned(t *testing.T) {
	r := fixture()
	r.strategies = []string{"cover", "dfs"}
	md, err := r.markdown(meta{Budget: "1m0s", Runs: 5, Seeds: []int64{1, 2, 3, 4, 5}, Interrupted: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"one worker, 1m0s, seeds 1–5 (5 runs per program and strategy)", "**Interrupted**"} {
		if !strings.Contains(md, w) {
			t.Errorf("markdown lacks %q; got:\n%s", w, md)
		}
	}
	for _, absent := range []string{"learned", "## Learning"} {
		if strings.Contains(md, absent) {
			t.Errorf("markdown has %q without the learned strategy; got:\n%s", absent, md)
		}
	}
}

func TestSignificantIsBold(t *testing.T) {
	// Twelve seeds, b above a on every one: exact p = 2/4096.
	seeds := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	r := newResults([]*program{{Target: &harness.Target{Name: "p"}}}, []string{"cover", "dfs"}, seeds)
	for i, k := range seeds {
		r.add(runRecord{Program: "p", Strategy: "cover", Seed: k, Covered: 10 + i, Total: 100, CoveragePct: float64(10 + i)})
		r.add(runRecord{Program: "p", Strategy: "dfs", Seed: k, Covered: 30 + 2*i, Total: 100, CoveragePct: float64(30 + 2*i)})
	}
	if got, want := r.compare("p", "cover", "dfs"), "− p=**<0.001** (n=12)"; got != want {
		t.Errorf("compare = %q, want %q", got, want)
	}
}

func TestCappedRuns(t *testing.T) {
	r := newResults([]*program{{Target: &harness.Target{Name: "p"}}}, []string{"cover"}, []int64{1, 2})
	r.add(runRecord{Program: "p", Strategy: "cover", Seed: 1, Args: []string{"gocolic", "test", "-runs", "4000", "-budget", "15m0s"},
		Covered: 10, Total: 100, CoveragePct: 10, Executions: 4000, Stopped: "runs"})
	r.add(runRecord{Program: "p", Strategy: "cover", Seed: 2, Args: []string{"gocolic", "test", "-runs", "4000", "-budget", "15m0s"},
		Covered: 12, Total: 100, CoveragePct: 12, Executions: 1234, Stopped: "budget"})
	md, err := r.markdown(meta{Execs: 4000, Cap: "15m0s", Runs: 2, Seeds: []int64{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"4000 executions (at most 15m0s", "| cover | 2 (1 capped) | 11.0 | 12.0 | 12/100 | 2,617 |"} {
		if !strings.Contains(md, w) {
			t.Errorf("markdown lacks %q; got:\n%s", w, md)
		}
	}
}

// TestMarkdownRQ3 checks the table of learned against learned-random,
// and that learned-random is never the best hand-made strategy.
func TestMarkdownRQ3(t *testing.T) {
	progs := []*program{{Target: &harness.Target{Name: "vm", Func: "Run", LOC: 500}}}
	seeds := []int64{2, 3, 4, 5, 6}
	r := newResults(progs, []string{"cover", learned, learnedRandom}, seeds)
	add := func(strat string, covered []int) {
		for i, c := range covered {
			r.add(runRecord{Program: "vm", Strategy: strat, Seed: seeds[i], Covered: c, Total: 200, CoveragePct: float64(c) / 2, Executions: 4000})
		}
	}
	add("cover", []int{50, 52, 54, 56, 58})
	add(learned, []int{60, 62, 64, 66, 68})
	add(learnedRandom, []int{70, 71, 72, 73, 74}) // above cover: still not "best hand-made"
	r.learns = []learnRecord{
		{Program: "vm", Learned: &explore.Learning{Rounds: 3, Executions: 144000, Seconds: 58, Score: 62, Method: "refine"}},
		{Program: "vm", Learned: &explore.Learning{Rounds: 3, Executions: 150000, Seconds: 61, Score: 55, Method: "random"}},
	}
	if b := r.best("vm"); b != "cover" {
		t.Errorf("best hand-made = %q, want cover", b)
	}
	md, err := r.markdown(meta{Execs: 4000, Runs: 5, Seeds: seeds, Learn: true, LearnBudget: "1h0m0s"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"## Find / check / refine against random sampling at the same cost (RQ3)",
		"`learned-random`: weights from `gocolic learn -method random`",
		"| program | learned avg % | learned-random avg % | signed-rank (learned vs random) |",
		"| vm | 32.0 | 36.0 | − p=0.062 (n=5) |",
		"| vm | random | 3 | 150,000 | 61s |",
	} {
		if !strings.Contains(md, w) {
			t.Errorf("markdown lacks %q; got:\n%s", w, md)
		}
	}
}

// TestRetable checks -tables: the -json files of two earlier runs, one per
// program, print as one report; more seeds of a program join its earlier
// ones; files of another budget are refused.
func TestRetable(t *testing.T) {
	dir := t.TempDir()
	r := fixture()
	m := meta{Execs: 4000, Runs: 5, Seeds: []int64{1, 2, 3, 4, 5}, Commit: "abc"}
	write := func(name string, m meta, keep string) string {
		part := newResults(nil, r.strategies, r.seeds)
		for _, p := range r.programs {
			if p.Name == keep {
				part.programs = append(part.programs, p)
			}
		}
		for k, recs := range r.recs {
			if strings.HasPrefix(k, keep+"\x00") {
				part.recs[k] = recs
			}
		}
		path := filepath.Join(dir, name)
		if err := writeRaw(path, dir, m, part); err != nil {
			t.Fatal(err)
		}
		return path
	}
	vm := write("vm.json", m, "vm")
	m2 := m
	m2.Commit = "def"
	ini := write("ini.json", m2, "ini")
	out := filepath.Join(dir, "merged.md")
	if err := retable(context.Background(), options{tables: vm + "," + ini, out: out}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"commit abc, def.",
		"| vm | 200 | 27.0 | **31.0**† | **31.0** |",
		"| ini | 300 | 33.5† | 31.0 | **38.0** |",
		`| ini | dfs | 5 | exit status 1: a \| b |`,
	} {
		if !strings.Contains(string(md), w) {
			t.Errorf("merged tables lack %q; got:\n%s", w, md)
		}
	}
	m3 := m
	m3.Execs = 1000
	other := write("other.json", m3, "ini")
	if err := retable(context.Background(), options{tables: vm + "," + other}); err == nil || !strings.Contains(err.Error(), "another budget") {
		t.Errorf("files of two budgets merged: err = %v", err)
	}
	// Seeds 6 and 7 of vm, run later, join seeds 1–5.
	more := newResults(r.programs[:1], r.strategies, []int64{6, 7})
	for _, s := range r.strategies {
		for _, k := range []int64{6, 7} {
			more.add(runRecord{Program: "vm", Strategy: s, Seed: k, Covered: 100, Total: 200, CoveragePct: 50, Executions: 4000})
		}
	}
	m4 := m
	m4.Seeds, m4.Runs = []int64{6, 7}, 2
	later := filepath.Join(dir, "later.json")
	if err := writeRaw(later, dir, m4, more); err != nil {
		t.Fatal(err)
	}
	if err := retable(context.Background(), options{tables: later + "," + vm, out: out}); err != nil {
		t.Fatal(err)
	}
	if md, err = os.ReadFile(out); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"seeds 1–7 (7 runs per program and strategy)",
		"| cover | 7 | 33.6 |",
	} {
		if !strings.Contains(string(md), w) {
			t.Errorf("tables of more seeds lack %q; got:\n%s", w, md)
		}
	}
}
