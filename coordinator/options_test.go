package coordinator

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		name string
		in   Options
		want Options // after Validate, when err is ""
		err  string
	}{
		{name: "zero", in: Options{},
			want: Options{Workers: runtime.NumCPU(), Solvers: max(1, runtime.NumCPU()/2), Budget: DefaultBudget, Timeout: time.Second, Strategy: "cover", Lanes: LanesConcolic}},
		{name: "runs bound the run", in: Options{Runs: 5},
			want: Options{Workers: runtime.NumCPU(), Solvers: max(1, runtime.NumCPU()/2), Runs: 5, Timeout: time.Second, Strategy: "cover", Lanes: LanesConcolic}},
		{name: "given values kept", in: Options{Workers: 3, Solvers: 2, Budget: time.Minute, Strategy: "dfs", Timeout: 2 * time.Second, MemLimitMB: 7, MaxBugs: 1},
			want: Options{Workers: 3, Solvers: 2, Budget: time.Minute, Strategy: "dfs", Timeout: 2 * time.Second, MemLimitMB: 7, MaxBugs: 1, Lanes: LanesConcolic}},
		{name: "negative workers, solvers and timeout take defaults", in: Options{Workers: -1, Solvers: -1, Timeout: -time.Second, Runs: 1},
			want: Options{Workers: runtime.NumCPU(), Solvers: max(1, runtime.NumCPU()/2), Runs: 1, Timeout: time.Second, Strategy: "cover", Lanes: LanesConcolic}},
		{name: "one solver for one worker", in: Options{Workers: 1, Runs: 1},
			want: Options{Workers: 1, Solvers: 1, Runs: 1, Timeout: time.Second, Strategy: "cover", Lanes: LanesConcolic}},
		{name: "solvers for half the workers", in: Options{Workers: 5, Runs: 1},
			want: Options{Workers: 5, Solvers: 2, Runs: 1, Timeout: time.Second, Strategy: "cover", Lanes: LanesConcolic}},
		{name: "negative budget", in: Options{Budget: -time.Second}, err: "must not be negative"},
		{name: "negative runs", in: Options{Runs: -1}, err: "must not be negative"},
		{name: "negative memlimit", in: Options{MemLimitMB: -1}, err: "-memlimit"},
		{name: "unknown strategy", in: Options{Strategy: "sideways"}, err: "sideways"},
		{name: "lanes kept", in: Options{Runs: 1, Lanes: LanesMutate},
			want: Options{Workers: runtime.NumCPU(), Solvers: max(1, runtime.NumCPU()/2), Runs: 1, Timeout: time.Second, Strategy: "cover", Lanes: LanesMutate}},
		{name: "unknown lanes", in: Options{Lanes: "sideways"}, err: "-lanes"},
		{name: "random share above 1", in: Options{RandomShare: 1.5}, err: "-random-share"},
		{name: "negative random share", in: Options{RandomShare: -0.1}, err: "-random-share"},
		{name: "random share kept", in: Options{Runs: 1, Strategy: "priority", RandomShare: 0.5},
			want: Options{Workers: runtime.NumCPU(), Solvers: max(1, runtime.NumCPU()/2), Runs: 1, Timeout: time.Second, Strategy: "priority", RandomShare: 0.5, Lanes: LanesConcolic}},
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
