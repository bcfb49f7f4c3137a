package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
)

func TestRunnerArgs(t *testing.T) {
	p := &program{Target: &harness.Target{Name: "smtp", Func: "Serve"}, Flags: []string{"-maxlen", "96"}, Heuristic: "w/smtp.json", RandomHeuristic: "w/smtp.random.json"}
	tests := []struct {
		name     string
		rn       runner
		strategy string
		want     string
	}{
		{
			"fixed executions", runner{execs: 4000}, "cover",
			"test -strategy cover -runs 4000 -lanes concolic -seed 3 -workers 1 -notests -minimizetime 0 -json r.json -maxlen 96 ./smtp Serve",
		},
		{
			"fixed executions with a cap", runner{execs: 4000, cap: 15 * time.Minute}, "cover",
			"test -strategy cover -runs 4000 -budget 15m0s -lanes concolic -seed 3 -workers 1 -notests -minimizetime 0 -json r.json -maxlen 96 ./smtp Serve",
		},
		{
			"time budget, no cap", runner{execs: 4000, budget: time.Minute, cap: 15 * time.Minute}, "dfs",
			"test -strategy dfs -budget 1m0s -lanes concolic -seed 3 -workers 1 -notests -minimizetime 0 -json r.json -maxlen 96 ./smtp Serve",
		},
		{
			"learned gets its weight file", runner{execs: 300}, learned,
			"test -strategy learned -heuristic w/smtp.json -runs 300 -lanes concolic -seed 3 -workers 1 -notests -minimizetime 0 -json r.json -maxlen 96 ./smtp Serve",
		},
		{
			"learned-random is learned with the randomly sampled weights", runner{execs: 300}, learnedRandom,
			"test -strategy learned -heuristic w/smtp.random.json -runs 300 -lanes concolic -seed 3 -workers 1 -notests -minimizetime 0 -json r.json -maxlen 96 ./smtp Serve",
		},
	}
	for _, tt := range tests {
		if got := strings.Join(tt.rn.args(p, tt.strategy, 3, "r.json"), " "); got != tt.want {
			t.Errorf("%s: args = %q, want %q", tt.name, got, tt.want)
		}
	}
	learnTests := []struct {
		name string
		rn   runner
		want string
	}{
		{"defaults", runner{execs: 4000}, "learn -seed 1 -runs 4000 -budget 1h0m0s -o w.json -maxlen 96 ./smtp Serve"},
		{"learn flags before the program's", runner{execs: 4000, learnFlags: []string{"-samples", "8", "-top", "2"}},
			"learn -seed 1 -runs 4000 -budget 1h0m0s -o w.json -samples 8 -top 2 -maxlen 96 ./smtp Serve"},
	}
	for _, tt := range learnTests {
		if got := strings.Join(tt.rn.learnArgs(p, time.Hour, "w.json"), " "); got != tt.want {
			t.Errorf("%s: learnArgs = %q, want %q", tt.name, got, tt.want)
		}
	}
	// The random sampling: the learning's flags, then -method random and
	// the rounds of the refine learning, which win over -learn-flags.
	rn := runner{execs: 4000, learnFlags: []string{"-samples", "8", "-rounds", "9"}}
	got := rn.randomLearnArgs(p, time.Hour, "r.json", 3)
	want := "learn -seed 1 -runs 4000 -budget 1h0m0s -o r.json -samples 8 -rounds 9 -maxlen 96 -method random -rounds 3 ./smtp Serve"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("learnRandom args = %q, want %q", s, want)
	}
}

// TestRealArgs checks a bench/real fuzz target's runs: gocolic fuzz of the
// target from its seeds, in the copy of that module, with the package
// under test instrumented and its build tags in the environment, and
// gocolic learn on the same.
func TestRealArgs(t *testing.T) {
	p := loadReal(harness.RealHarness{Dir: "snappy", Fuzz: "FuzzDecode", Target: "github.com/golang/snappy", Tags: "noasm"})
	p.Heuristic = "w/snappy.FuzzDecode.json"
	rn := runner{execs: 4000, module: "mod", real: "real"}
	want := "fuzz -strategy learned -heuristic w/snappy.FuzzDecode.json -runs 4000 -lanes concolic -seed 2 -workers 1 -nocorpus -minimizetime 0 -json r.json -instrument github.com/golang/snappy ./snappy FuzzDecode"
	if got := strings.Join(rn.args(p, learned, 2, "r.json"), " "); got != want {
		t.Errorf("args = %q, want %q", got, want)
	}
	want = "learn -seed 1 -runs 4000 -budget 1h0m0s -o w.json -instrument github.com/golang/snappy ./snappy FuzzDecode"
	if got := strings.Join(rn.learnArgs(p, time.Hour, "w.json"), " "); got != want {
		t.Errorf("learnArgs = %q, want %q", got, want)
	}
	if d := rn.dir(p); d != "real" {
		t.Errorf("runs in %q, want the copy of bench/real", d)
	}
	if env := p.env(); !slices.Equal(env, []string{"GOFLAGS=-tags=noasm"}) {
		t.Errorf("environment %q, want the build tags", env)
	}
	if p.Name != "snappy.FuzzDecode" {
		t.Errorf("name %q", p.Name)
	}
	corpus := &program{Target: &harness.Target{Name: "smtp", Func: "Serve"}}
	if d := rn.dir(corpus); d != "mod" || corpus.env() != nil {
		t.Errorf("a corpus program runs in %q with %q, want the corpus module and no environment", d, corpus.env())
	}
}

func TestDirectiveFlags(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"none", "package p\n\n// strategies:flags -maxlen 9\n", nil},
		{"one line", "package p\n\n//strategies:flags -maxlen 96\n", []string{"-maxlen", "96"}},
		{"two lines", "//strategies:flags -a\npackage p\n\t//strategies:flags -b 1 \n", []string{"-a", "-b", "1"}},
	}
	for _, tt := range tests {
		if got := directiveFlags(tt.src); !slices.Equal(got, tt.want) {
			t.Errorf("%s: directiveFlags = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestSelectStrategies(t *testing.T) {
	tests := []struct {
		name        string
		list        string
		withLearned bool
		withRandom  bool
		want        []string
		wantErr     string
	}{
		{name: "default has no learned", want: []string{"cover", "dfs", "bfs", "random", "random-branch", "uniform-random", "generational", "priority", "cfds", "cgs"}},
		{name: "default with weights", withLearned: true, want: []string{"cover", "dfs", "bfs", "random", "random-branch", "uniform-random", "generational", "priority", "cfds", "cgs", learned}},
		{name: "order of explore.Names", list: "cgs,cover", want: []string{"cover", "cgs"}},
		{name: "learned without weights", list: "cover,learned", wantErr: "learned needs -heuristic-dir or -learn"},
		{name: "learned-random not by default", withLearned: true, withRandom: true, want: []string{"cover", "dfs", "bfs", "random", "random-branch", "uniform-random", "generational", "priority", "cfds", "cgs", learned}},
		{name: "learned-random by name", list: "learned-random,learned,cover", withLearned: true, withRandom: true, want: []string{"cover", learned, learnedRandom}},
		{name: "learned-random without -learn", list: "learned-random", withLearned: true, wantErr: "learned-random needs -learn"},
		{name: "unknown", list: "astar", wantErr: `unknown name "astar"`},
	}
	for _, tt := range tests {
		got, err := selectStrategies(tt.list, tt.withLearned, tt.withRandom)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%s: selectStrategies = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

func TestOptions(t *testing.T) {
	ok := options{runs: 3, execs: 4000, learnBudget: time.Hour}
	if err := ok.check(); err != nil {
		t.Errorf("check(%+v) = %v, want nil", ok, err)
	}
	if got := ok.seeds(); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Errorf("seeds = %v, want 1 2 3", got)
	}
	learn := ok
	learn.learn = true
	if got := learn.seeds(); !slices.Equal(got, []int64{2, 3, 4}) {
		t.Errorf("seeds with -learn = %v, want 2 3 4 (seed 1 is the learning's)", got)
	}
	from := ok
	from.firstSeed = 5
	if got := from.seeds(); !slices.Equal(got, []int64{5, 6, 7}) {
		t.Errorf("seeds with -first-seed 5 = %v, want 5 6 7", got)
	}
	bad := []struct {
		name string
		o    options
		want string
	}{
		{"no runs", options{runs: 0, execs: 1}, "-runs"},
		{"no executions", options{runs: 1, execs: 0}, "-execs"},
		{"negative budget", options{runs: 1, execs: 1, budget: -time.Second}, "-budget"},
		{"negative cap", options{runs: 1, execs: 1, cap: -time.Second}, "-cap"},
		{"learn and weights", options{runs: 1, execs: 1, learn: true, heuristicDir: "w", learnBudget: time.Hour}, "exclude"},
		{"learn flags without learning", options{runs: 1, execs: 1, learnFlags: "-samples 4"}, "-learn-flags"},
		{"negative first seed", options{runs: 1, execs: 1, firstSeed: -1}, "-first-seed"},
		{"learning's seed evaluated", options{runs: 1, execs: 1, learn: true, firstSeed: 1, learnBudget: time.Hour}, "seed 1"},
	}
	for _, tt := range bad {
		if err := tt.o.check(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: check = %v, want an error about %s", tt.name, err, tt.want)
		}
	}
}

// TestCorpus checks the benchmark's own corpus: at least six packages,
// each loads with one entry function, has 400 to 900 lines of code and
// plants bugs.
func TestCorpus(t *testing.T) {
	names, err := harness.CorpusNames("corpus")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 6 {
		t.Errorf("%d corpus packages, want at least 6", len(names))
	}
	for _, n := range names {
		p, err := loadProgram(filepath.Join("corpus", n))
		if err != nil {
			t.Error(err)
			continue
		}
		if p.LOC < 400 || p.LOC > 900 {
			t.Errorf("%s: %d lines of code, want 400 to 900", n, p.LOC)
		}
		planted, err := harness.Planted(filepath.Join("corpus", n))
		if err != nil {
			t.Fatal(err)
		}
		if len(planted) < 2 {
			t.Errorf("%s: %d planted bugs, want at least 2", n, len(planted))
		}
	}
}
