package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/report"
)

// reportJSON is a gocolic report cut down to what the harness reads, plus
// fields it must ignore.
const reportJSON = `{
  "tool": "gocolic",
  "executions": 42,
  "branches": {"covered": 18, "total": 24, "sites": [{"id": 1, "true": true}]},
  "solver": {"queries": 9, "layers": [
    {"name": "cache", "queries": 9, "sat": 6, "unsat": 2, "unknown": 1, "time_ms": 30},
    {"name": "walk", "queries": 3, "sat": 2, "unsat": 0, "unknown": 1, "time_ms": 250}
  ]},
  "elapsed_ms": 5003,
  "stopped": "budget",
  "timeline": [
    {"ms": 1, "execs": 1, "covered": 9, "paths": 1, "bugs": 0},
    {"ms": 80, "execs": 2, "covered": 12, "paths": 2, "bugs": 0},
    {"ms": 2285, "execs": 30, "covered": 18, "paths": 30, "bugs": 0},
    {"ms": 5003, "execs": 42, "covered": 18, "paths": 42, "bugs": 0}
  ]
}`

func TestParseReport(t *testing.T) {
	rep, err := parseReport([]byte(reportJSON))
	if err != nil {
		t.Fatal(err)
	}
	var rec runRecord
	rec.fill(rep)
	want := runRecord{
		Covered: 18, Total: 24, CoveragePct: 75, ElapsedMS: 5003, LastIncreaseMS: 2285,
		Executions: 42, Stopped: "budget",
		Layers: []report.Layer{
			{Name: "cache", Queries: 9, Sat: 6, Unsat: 2, Unknown: 1, TimeMS: 30},
			{Name: "walk", Queries: 3, Sat: 2, Unsat: 0, Unknown: 1, TimeMS: 250},
		},
	}
	if rec.Covered != want.Covered || rec.Total != want.Total || rec.CoveragePct != want.CoveragePct ||
		rec.ElapsedMS != want.ElapsedMS || rec.LastIncreaseMS != want.LastIncreaseMS ||
		rec.Executions != want.Executions || rec.Stopped != want.Stopped || !slices.Equal(rec.Layers, want.Layers) {
		t.Errorf("filled record\n%+v\nwant\n%+v", rec, want)
	}

	bad := []struct {
		name, data, want string
	}{
		{"not JSON", "gocolic: oops", "parsing the gocolic report"},
		{"truncated", reportJSON[:100], "parsing the gocolic report"},
		{"no branches", `{"executions": 3}`, "no branches.total"},
	}
	for _, tt := range bad {
		if _, err := parseReport([]byte(tt.data)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func TestLastIncrease(t *testing.T) {
	tests := []struct {
		name string
		ps   []report.Point
		want int64
	}{
		{"empty", nil, 0},
		{"nothing covered", []report.Point{{MS: 5, Covered: 0}, {MS: 900, Covered: 0}}, 0},
		{"one point", []report.Point{{MS: 7, Covered: 4}}, 7},
		{"plateau at the end", []report.Point{{MS: 1, Covered: 9}, {MS: 80, Covered: 12}, {MS: 2285, Covered: 18}, {MS: 5003, Covered: 18}}, 2285},
		{"increase at the last point", []report.Point{{MS: 1, Covered: 9}, {MS: 4990, Covered: 10}}, 4990},
		// Not expected from gocolic, but the first time the maximum is
		// reached is the answer.
		{"dip", []report.Point{{MS: 1, Covered: 5}, {MS: 10, Covered: 8}, {MS: 20, Covered: 6}, {MS: 30, Covered: 8}}, 10},
	}
	for _, tt := range tests {
		if got := lastIncrease(tt.ps); got != tt.want {
			t.Errorf("%s: lastIncrease = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestRunnerArgs(t *testing.T) {
	rn := &runner{budget: 5 * time.Second, workers: 1}
	tg := &harness.Target{Name: "blind", Func: "Solve"}
	tests := []struct {
		config string
		seed   int64
		want   string
	}{
		{"z3", 1, "test -solver z3 -budget 5s -workers 1 -seed 1 -notests -minimizetime 0 -json R ./blind Solve"},
		{"nobisect", 7, "test -solver walk -walkbisect=false -budget 5s -workers 1 -seed 7 -notests -minimizetime 0 -json R ./blind Solve"},
		{"neighbors20", 3, "test -solver walk -walkneighbors 20 -budget 5s -workers 1 -seed 3 -notests -minimizetime 0 -json R ./blind Solve"},
	}
	for _, tt := range tests {
		cs, err := selectConfigs(tt.config)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(rn.args(tg, cs[0], tt.seed, "R"), " "); got != tt.want {
			t.Errorf("%s: args\n%s\nwant\n%s", tt.config, got, tt.want)
		}
	}
}

func TestSelectConfigs(t *testing.T) {
	tests := []struct {
		list    string
		want    []string
		wantErr string
	}{
		{"", configNames(allConfigs), ""},
		{"walk,z3", []string{"z3", "walk"}, ""},
		{"steps25, auto", []string{"auto", "steps25"}, ""},
		{"z4", nil, `unknown name "z4"`},
	}
	for _, tt := range tests {
		got, err := selectConfigs(tt.list)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("selectConfigs(%q): error %v, want one containing %q", tt.list, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(configNames(got), tt.want) {
			t.Errorf("selectConfigs(%q) = %v, %v; want %v", tt.list, configNames(got), err, tt.want)
		}
	}
}

func TestMissingFlags(t *testing.T) {
	help := `usage: gocolic test [flags] <package> <Func>

Flags:
  -budget duration
    	wall-clock budget of the exploration
  -notests
    	do not write the generated test file
  -seed int
    	seed of the random choices
  -solver-timeout duration
    	time limit of one solver query (default 2s)
  -walkbisect
    	bisection step (default true)
`
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"all listed", []string{"test", "-budget", "5s", "-notests", "-seed", "1", "./x", "X"}, nil},
		{"prefix of a listed flag is not listed", []string{"-solver", "z3", "-budget", "1s"}, []string{"-solver"}},
		{"name=value", []string{"-walkbisect=false", "-walksteps", "25"}, []string{"-walksteps"}},
		{"each once", []string{"-solver", "walk", "-solver", "z3", "-x"}, []string{"-solver", "-x"}},
	}
	for _, tt := range tests {
		if got := missingFlags(help, tt.args); !slices.Equal(got, tt.want) {
			t.Errorf("%s: missingFlags = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestRunnerRun runs the runner against stand-ins for gocolic (shell
// scripts) that complete, leave no report, fail, or reject a flag.
func TestRunnerRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-ins are shell scripts")
	}
	report := strings.ReplaceAll(reportJSON, "\n", " ")
	tests := []struct {
		name, script string
		want         runRecord
	}{
		{
			name:   "completed",
			script: "printf '%s' '" + report + "' > \"$json\"\nexit 0",
			want:   runRecord{ExitCode: 0, Covered: 18, Total: 24, CoveragePct: 75, ElapsedMS: 5003, LastIncreaseMS: 2285, Executions: 42, Stopped: "budget"},
		},
		{
			name:   "no report",
			script: "exit 0",
			want:   runRecord{ExitCode: 0, Error: "no usable JSON report: open "},
		},
		{
			name:   "failed with a report",
			script: "printf '%s' '" + report + "' > \"$json\"\necho 'gocolic: elapsed: 1s, execs: 3' >&2\necho 'gocolic: building the worker: boom' >&2\nexit 1",
			want:   runRecord{ExitCode: 1, Error: "exit status 1: building the worker: boom", Covered: 18, Total: 24, CoveragePct: 75, ElapsedMS: 5003, LastIncreaseMS: 2285, Executions: 42, Stopped: "budget"},
		},
		{
			name:   "unknown flag",
			script: "echo 'flag provided but not defined: -solver' >&2\necho 'usage: gocolic test [flags] <package> <Func>' >&2\nexit 2",
			want:   runRecord{ExitCode: 2, Error: "exit status 2: flag provided but not defined: -solver"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			bin := filepath.Join(dir, "gocolic")
			script := "#!/bin/sh\njson=\nwhile [ $# -gt 0 ]; do\n\tif [ \"$1\" = -json ]; then json=$2; fi\n\tshift\ndone\n" + tt.script + "\n"
			if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			rn := &runner{bin: bin, module: dir, reports: dir, logs: dir, budget: time.Second, workers: 1}
			cs, err := selectConfigs("walk")
			if err != nil {
				t.Fatal(err)
			}
			got := rn.run(context.Background(), &harness.Target{Name: "blind", Func: "Solve"}, cs[0], 3)
			if got.Target != "blind" || got.Config != "walk" || got.Run != 3 || got.Seed != 3 || got.Args[0] != "gocolic" || got.Args[1] != "test" {
				t.Errorf("identity of the record: %+v", got)
			}
			if got.ExitCode != tt.want.ExitCode || !strings.HasPrefix(got.Error, tt.want.Error) || (got.Error == "") != (tt.want.Error == "") ||
				got.Covered != tt.want.Covered || got.Total != tt.want.Total || got.CoveragePct != tt.want.CoveragePct ||
				got.ElapsedMS != tt.want.ElapsedMS || got.LastIncreaseMS != tt.want.LastIncreaseMS ||
				got.Executions != tt.want.Executions || got.Stopped != tt.want.Stopped {
				t.Errorf("record\n%+v\nwant\n%+v", got, tt.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "blind.walk.3.log")); err != nil {
				t.Errorf("no log: %v", err)
			}
		})
	}
}
