package main

import (
	"math"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/bench/internal/harness"
)

// fixture returns results for two programs, a (30 lines, 20 branch
// outcomes) and b (20 lines, 10 outcomes), three runs each of z3, walk,
// auto and notabu; a's third auto run failed. Every number in the tables
// below follows from these by hand.
func fixture(t *testing.T) *results {
	t.Helper()
	cs, err := selectConfigs("z3,walk,auto,notabu")
	if err != nil {
		t.Fatal(err)
	}
	res := newResults([]*harness.Target{{Name: "a", Func: "A", LOC: 30}, {Name: "b", Func: "B", LOC: 20}}, cs, 3)
	type run struct {
		covered       int
		last, elapsed int64
	}
	add := func(tg, cfg string, total int, runs ...run) {
		for i, r := range runs {
			res.add(runRecord{Target: tg, Config: cfg, Run: i + 1, Seed: int64(i + 1), Covered: r.covered, Total: total,
				CoveragePct: 100 * float64(r.covered) / float64(total), LastIncreaseMS: r.last, ElapsedMS: r.elapsed})
		}
	}
	// a: z3 50% three times; walk 80, 90, 100%; auto 90, 90% and a
	// failure; notabu 40, 45, 50%.
	add("a", "z3", 20, run{10, 100, 5000}, run{10, 300, 5000}, run{10, 500, 5000})
	add("a", "walk", 20, run{16, 1000, 5000}, run{18, 2000, 5000}, run{20, 3000, 5000})
	add("a", "auto", 20, run{18, 400, 5000}, run{18, 800, 5000})
	res.add(runRecord{Target: "a", Config: "auto", Run: 3, Seed: 3, ExitCode: 1, Error: "exit status 1: solver: a | b\nfailed"})
	add("a", "notabu", 20, run{8, 100, 5000}, run{9, 100, 5000}, run{10, 100, 5000})
	// b: everything covered by every configuration.
	add("b", "z3", 10, run{10, 100, 60}, run{10, 100, 70}, run{10, 100, 80})
	add("b", "walk", 10, run{10, 200, 60}, run{10, 200, 70}, run{10, 200, 80})
	add("b", "auto", 10, run{10, 200, 60}, run{10, 200, 70}, run{10, 200, 80})
	add("b", "notabu", 10, run{10, 50, 60}, run{10, 50, 60}, run{10, 50, 60})
	return res
}

func TestTables(t *testing.T) {
	res := fixture(t)
	tests := []struct {
		name  string
		table func() (string, error)
		want  string
	}{
		{
			// a: walk [80 90 100] median 90, variance 100; p against
			// [50 50 50]: U = 9, σ² = 9/12·(7 - 24/30) = 4.65, z = 4/2.156,
			// p = 0.0636. auto [90 90] against [50 50 50]: U = 6,
			// σ² = 6/12·(6 - 30/20) = 2.25, z = 2.5/1.5, p = 0.0956.
			// Average: z3 (30·50 + 20·100)/50 = 70, walk (30·90 + 20·100)/50
			// = 94 with variance 30·100/50 = 60.
			name:  "coverage",
			table: res.coverageTable,
			want: `| program | LOC | branch outcomes | z3: cov % median (var) | walk: cov % median (var) | p walk vs z3 | auto: cov % median (var) | p auto vs z3 |
|---|--:|--:|--:|--:|--:|--:|--:|
| a | 30 | 20 | 50.0 (0.0) | 90.0 (100.0) | 0.0636 | 90.0 (0.0) [2/3 ok] | 0.0956 |
| b | 20 | 10 | 100.0 (0.0) | 100.0 (0.0) | 1 | 100.0 (0.0) | 1 |
| **LOC-weighted average** | 50 |  | 70.0 (0.0) | 94.0 (60.0) | — | 94.0 (0.0) | — |
`,
		},
		{
			// Average of z3's last new coverage: (30·0.3 + 20·0.1)/50 =
			// 0.22, variance 30·0.04/50 = 0.024; run time (30·5 +
			// 20·0.07)/50 = 3.028.
			name:  "time",
			table: res.timeTable,
			want: `| program | LOC | z3: last new cov, s | z3: run time, s | walk: last new cov, s | walk: run time, s | auto: last new cov, s | auto: run time, s |
|---|--:|--:|--:|--:|--:|--:|--:|
| a | 30 | 0.30 (0.04) | 5.00 (0.00) | 2.00 (1.00) | 5.00 (0.00) | 0.60 (0.08) [2/3 ok] | 5.00 (0.00) [2/3 ok] |
| b | 20 | 0.10 (0.00) | 0.07 (0.00) | 0.20 (0.00) | 0.07 (0.00) | 0.20 (0.00) | 0.07 (0.00) |
| **LOC-weighted average** | 50 | 0.22 (0.02) | 3.03 (0.00) | 1.28 (0.60) | 3.03 (0.00) | 0.44 (0.05) | 3.03 (0.00) |
`,
		},
		{
			// a: median 45 of walk's 90; [40 45 50] against [80 90 100]
			// has no ties: exact, U = 0, p = 2/C(6,3) = 0.1. Average
			// (30·0.5 + 20·1)/50 = 0.7.
			name:  "ablation",
			table: res.ablationTable,
			want: `| program | LOC | walk: cov % median | notabu: fraction (p) |
|---|--:|--:|--:|
| a | 30 | 90.0 | 0.50 (0.1) |
| b | 20 | 100.0 | 1.00 (1) |
| **LOC-weighted average** | 50 |  | 0.70 |
`,
		},
		{
			name:  "failures",
			table: res.failuresTable,
			want: `| program | configuration | run | seed | exit status | why |
|---|---|--:|--:|--:|---|
| a | auto | 3 | 3 | 1 | exit status 1: solver: a \| b failed |
`,
		},
	}
	for _, tt := range tests {
		got, err := tt.table()
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s table:\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
	}
	if n := res.failed(); n != 1 {
		t.Errorf("failed() = %d, want 1", n)
	}
}

func TestTablesWithoutBaselines(t *testing.T) {
	res := fixture(t)
	// Without z3 there are no p-value columns; without walk no ablation
	// table; with only ablations no main tables.
	tests := []struct {
		configs              string
		coverHead            string
		ablationEmpty, noCov bool
	}{
		{configs: "walk,notabu", coverHead: "| program | LOC | branch outcomes | walk: cov % median (var) |"},
		{configs: "z3,notabu", coverHead: "| program | LOC | branch outcomes | z3: cov % median (var) |", ablationEmpty: true},
		{configs: "notabu", ablationEmpty: true, noCov: true},
	}
	for _, tt := range tests {
		cs, err := selectConfigs(tt.configs)
		if err != nil {
			t.Fatal(err)
		}
		res.configs = cs
		cov, err := res.coverageTable()
		if err != nil {
			t.Fatal(err)
		}
		if tt.noCov != (cov == "") || !tt.noCov && !strings.HasPrefix(cov, tt.coverHead+"\n") {
			t.Errorf("%s: coverage table starts %q, want %q", tt.configs, strings.SplitN(cov, "\n", 2)[0], tt.coverHead)
		}
		abl, err := res.ablationTable()
		if err != nil {
			t.Fatal(err)
		}
		if tt.ablationEmpty != (abl == "") {
			t.Errorf("%s: ablation table %q, want empty: %v", tt.configs, abl, tt.ablationEmpty)
		}
	}
}

func TestMarkdown(t *testing.T) {
	md, err := fixture(t).markdown(meta{Budget: "5s", Workers: 1, Runs: 3, GoVersion: "go1.26.8", Platform: "linux/amd64", CPUs: 2, Commit: "abc1234"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"3 run(s) per program and configuration (seeds 1 to 3), budget 5s per run, 1 worker(s), one run at a time; go1.26.8 linux/amd64, 2 CPUs, gocolic at abc1234.\n",
		"### Configurations\n\n| configuration | flags |\n|---|---|\n| z3 | `-solver z3` |\n| walk | `-solver walk` |\n| auto | `-solver auto` |\n| notabu | `-solver walk -walktabu 0` |\n",
		"### Branch coverage\n\n| program |",
		"### Time\n\n| program |",
		"### Ablations of walk\n\n| program |",
		"### Failed runs\n\n| program |",
		"Notes:\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "Interrupted") {
		t.Errorf("report says interrupted")
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{formatP(1), "1"},
		{formatP(0.5), "0.5"},
		{formatP(0.05), "0.05"},
		{formatP(0.0499), "0.0499 *"},
		{formatP(0.06360256962075364), "0.0636"},
		{formatP(2.0 / 3432), "0.000583 *"},
		{formatP(8.151536127743262e-05), "8.15e-05 *"},
		{formatP(math.NaN()), "—"},
		{medVar(nil, 1), "—"},
		{medVar([]float64{50}, 1), "50.0 (—)"},
		{medVar([]float64{1, 2, 4}, 2), "2.00 (2.33)"},
		{escapeCell("a|b\n  c"), `a\|b c`},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: %q, want %q", i, tt.got, tt.want)
		}
	}
}
