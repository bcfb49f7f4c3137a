package coordinator

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/explore"
)

func TestOptionsValidate(t *testing.T) {
	heuristic := filepath.Join(t.TempDir(), "h.json")
	if err := explore.NewWeights(make([]float64, explore.NumFeatures), explore.Learning{}).Write(heuristic); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(corrupt, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		in   Options
		want Options // after Validate, when err is ""
		err  string
	}{
		{name: "zero", in: Options{},
			want: Options{Workers: runtime.NumCPU(), Solvers: max(1, runtime.NumCPU()/2), Budget: DefaultBudget, Timeout: time.Second, Strategy: "cover", Lanes: LanesBoth, Backoff: BackoffImplicit}},
		{name: "runs bound the run", in: Options{Runs: 5},
			want: Options{Workers: runtime.NumCPU(), Solvers: max(1, runtime.NumCPU()/2), Runs: 5, Timeout: time.Second, Strategy: "cover", Lanes: LanesBoth, Backoff: BackoffImplicit}},
		{name: "given values kept", in: Options{Workers: 3, Solvers: 2, Budget: time.Minute, Strategy: "dfs", Timeout: 2 * time.Second, MemLimitMB: 7, MaxBugs: 1},
			want: Options{Workers: 3, Solvers: 2, Budget: time.Minute, Strategy: "dfs", Timeout: 2 * time.Second, MemLimitMB: 7, MaxBugs: 1, Lanes: LanesBoth, Backoff: BackoffImplicit}},
		{name: "negative workers, solvers and timeout take defaults", in: Options{Workers: -1, Solvers: -1, Timeout: -time.Second, Runs: 1},
			want: Options{Workers: runtime.NumCPU(), Solvers: max(1, runtime.NumCPU()/2), Runs: 1, Timeout: time.Second, Strategy: "cover", Lanes: LanesBoth, Backoff: BackoffImplicit}},
		{name: "one solver for one worker", in: Options{Workers: 1, Runs: 1},
			want: Options{Workers: 1, Solvers: 1, Runs: 1, Timeout: time.Second, Strategy: "cover", Lanes: LanesBoth, Backoff: BackoffImplicit}},
		{name: "solvers for half the workers", in: Options{Workers: 5, Runs: 1},
			want: Options{Workers: 5, Solvers: 2, Runs: 1, Timeout: time.Second, Strategy: "cover", Lanes: LanesBoth, Backoff: BackoffImplicit}},
		{name: "negative budget", in: Options{Budget: -time.Second}, err: "must not be negative"},
		{name: "negative runs", in: Options{Runs: -1}, err: "must not be negative"},
		{name: "negative memlimit", in: Options{MemLimitMB: -1}, err: "-memlimit"},
		{name: "unknown strategy", in: Options{Strategy: "sideways"}, err: "sideways"},
		{name: "lanes kept", in: Options{Runs: 1, Lanes: LanesMutate},
			want: Options{Workers: runtime.NumCPU(), Solvers: max(1, runtime.NumCPU()/2), Runs: 1, Timeout: time.Second, Strategy: "cover", Lanes: LanesMutate, Backoff: BackoffImplicit}},
		{name: "unknown lanes", in: Options{Lanes: "sideways"}, err: "-lanes"},
		{name: "backoff kept", in: Options{Runs: 1, Backoff: BackoffOff},
			want: Options{Workers: runtime.NumCPU(), Solvers: max(1, runtime.NumCPU()/2), Runs: 1, Timeout: time.Second, Strategy: "cover", Lanes: LanesBoth, Backoff: BackoffOff}},
		{name: "unknown backoff", in: Options{Backoff: "sometimes"}, err: "-backoff"},
		{name: "random share above 1", in: Options{RandomShare: 1.5}, err: "-random-share"},
		{name: "negative random share", in: Options{RandomShare: -0.1}, err: "-random-share"},
		{name: "random share kept", in: Options{Runs: 1, Strategy: "priority", RandomShare: 0.5},
			want: Options{Workers: runtime.NumCPU(), Solvers: max(1, runtime.NumCPU()/2), Runs: 1, Timeout: time.Second, Strategy: "priority", RandomShare: 0.5, Lanes: LanesBoth, Backoff: BackoffImplicit}},
		{name: "learned with its weights", in: Options{Workers: 1, Runs: 1, Strategy: "learned", Heuristic: heuristic},
			want: Options{Workers: 1, Solvers: 1, Runs: 1, Timeout: time.Second, Strategy: "learned", Heuristic: heuristic, Lanes: LanesBoth, Backoff: BackoffImplicit}},
		{name: "learned without weights", in: Options{Strategy: "learned"}, err: "-strategy learned needs -heuristic FILE"},
		{name: "weights without learned", in: Options{Strategy: "dfs", Heuristic: heuristic}, err: "-heuristic is read by -strategy learned only"},
		{name: "corrupt weights", in: Options{Strategy: "learned", Heuristic: corrupt}, err: "-heuristic " + corrupt + ": not a gocolic weight file"},
	}
	for _, tt := range tests {
		o := tt.in
		err := o.Validate()
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
		} else if o != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, o, tt.want)
		}
	}
}

// TestNewStrategy checks that the learned strategy takes its weights
// from the configuration or, without them, from the weight file.
func TestNewStrategy(t *testing.T) {
	file := filepath.Join(t.TempDir(), "h.json")
	if err := explore.NewWeights(make([]float64, explore.NumFeatures), explore.Learning{}).Write(file); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  Config
		want string // the strategy's name, or the error's start
	}{
		{"by name", Config{Options: Options{Strategy: "dfs"}}, "dfs"},
		{"learned from the file", Config{Options: Options{Strategy: "learned", Heuristic: file}}, "learned"},
		{"learned from the weights given", Config{Options: Options{Strategy: "learned"}, Weights: make([]float64, explore.NumFeatures)}, "learned"},
		{"weights of another length", Config{Options: Options{Strategy: "learned", Heuristic: file}, Weights: make([]float64, 3)}, "explore: learned strategy: 3 weights"},
		{"no file", Config{Options: Options{Strategy: "learned", Heuristic: file + ".missing"}}, "-heuristic: open"},
	}
	for _, tt := range tests {
		s, err := newStrategy(tt.cfg, nil)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = s.String()
		}
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
