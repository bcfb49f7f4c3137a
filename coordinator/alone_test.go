package coordinator

import (
	"context"
	"slices"
	"testing"
	"time"
)

// messages returns the messages of fs, in order.
func messages(fs []*Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Message)
	}
	return out
}

// TestRunAlone runs the helper worker on inputs whose failures depend on
// an earlier execution in the same process (a panic and an exit) beside
// failures of their own (a panic, and a panic in another goroutine that
// kills the worker): after the exploration the first two do not recur
// alone and leave the findings, the others stay.
func TestRunAlone(t *testing.T) {
	cfg := runConfig(t, &unsatSolver{}, modeStateful, modeStateful+1, modeStateful+9, modeGoroutine, modePanic)
	rep := runDriver(t, context.Background(), cfg)
	if got, want := messages(rep.Findings), []string{"panic: boom in goroutine", "boom"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
	if len(rep.StateDependent) != 2 || rep.StateDependent[0].Message != "redefined: b" || rep.StateDependent[1].Kind != string(CrashExit) {
		t.Errorf("state-dependent %q, want the panic \"redefined: b\" and the exit", messages(rep.StateDependent))
	}
	if rep.Alone.Elapsed <= 0 {
		t.Errorf("the check took %v", rep.Alone.Elapsed)
	}
	rep.Alone.Elapsed = 0
	if want := (AloneStats{Checked: 4}); rep.Alone != want {
		t.Errorf("alone %+v, want %+v", rep.Alone, want)
	}
}

// TestCheckAloneLimits checks the bounds of the check on eight
// state-dependent panics at one place and one real panic: the runs per
// run, the classification without a run once enough of one kind and
// place did not recur, an interrupt and a worker that does not start.
func TestCheckAloneLimits(t *testing.T) {
	seeds := []int64{}
	for k := range 9 {
		seeds = append(seeds, modeStateful+int64(k))
	}
	seeds = append(seeds, modePanic)
	cfg := runConfig(t, &unsatSolver{}, seeds...)
	rep := runDriver(t, context.Background(), cfg)
	// The run's own check, with the default limits, decides them all.
	rep.Alone.Elapsed = 0
	if want := (AloneStats{Checked: 4, Inferred: 5}); rep.Alone != want || len(rep.Findings) != 1 || len(rep.StateDependent) != 8 {
		t.Fatalf("alone %+v, %d findings, %d state-dependent; want %+v, 1, 8", rep.Alone, len(rep.Findings), len(rep.StateDependent), want)
	}
	found := append(append([]*Finding{}, rep.StateDependent...), rep.Findings...)
	slices.SortStableFunc(found, func(a, b *Finding) int { return int(a.Elapsed - b.Elapsed) })

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name      string
		lim       aloneLimits
		ctx       context.Context
		bin       string
		want      AloneStats
		findings  int
		internals int
	}{
		{name: "default", lim: aloneLimits{runs: aloneRuns, frame: aloneFrame}, want: AloneStats{Checked: 4, Inferred: 5}, findings: 1},
		{name: "two runs", lim: aloneLimits{runs: 2, frame: 3}, want: AloneStats{Checked: 2, Unchecked: 7}, findings: 7},
		{name: "one miss per place", lim: aloneLimits{runs: 64, frame: 1}, want: AloneStats{Checked: 2, Inferred: 7}, findings: 1},
		{name: "interrupted", lim: aloneLimits{runs: 64, frame: 3}, ctx: cancelled, want: AloneStats{Unchecked: 9}, findings: 9},
		{name: "no worker", lim: aloneLimits{runs: 64, frame: 3}, bin: "gocolic-no-such-worker", want: AloneStats{Unchecked: 9}, findings: 9, internals: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cfg
			if tt.bin != "" {
				c.Bin = tt.bin
			}
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			d := &coordinator{cfg: c, rep: &Report{Findings: slices.Clone(found)}}
			d.checkAlone(ctx, tt.lim)
			d.rep.Alone.Elapsed = 0
			if d.rep.Alone != tt.want || len(d.rep.Findings) != tt.findings || len(d.rep.Findings)+len(d.rep.StateDependent) != len(found) {
				t.Errorf("alone %+v, %d findings, %d state-dependent; want %+v, %d, %d", d.rep.Alone, len(d.rep.Findings), len(d.rep.StateDependent), tt.want, tt.findings, len(found)-tt.findings)
			}
			if n := len(d.rep.InternalErrors); n != tt.internals || n > 0 && d.rep.InternalErrors[0].Where != "alone" {
				t.Errorf("internal errors %+v, want %d of \"alone\"", d.rep.InternalErrors, tt.internals)
			}
			if last := d.rep.Findings[len(d.rep.Findings)-1]; last.Message != "boom" {
				t.Errorf("last finding %q, want the real panic \"boom\" kept", last.Message)
			}
		})
	}
}

// TestCheckAloneTimeouts checks that a hang is run alone too, within its
// limit: a timeout whose input returns alone (a loaded machine's, found
// in a batch's bisection) leaves the findings, a real hang stays, and
// another failure whose run alone hits the limit stays a bug, unchecked.
func TestCheckAloneTimeouts(t *testing.T) {
	cfg := runConfig(t, nil)
	// Long enough for a fresh worker's first execution on a loaded
	// machine, which the limit includes.
	cfg.Timeout = time.Second
	timeout := func(x int64) *Finding {
		return &Finding{Kind: string(CrashTimeout), Message: "execution exceeded 1s", Input: input(x)}
	}
	d := &coordinator{cfg: cfg, rep: &Report{Findings: []*Finding{timeout(modeReturn), timeout(modeHang)}}}
	d.checkAlone(context.Background(), aloneLimits{runs: aloneRuns, frame: aloneFrame})
	if len(d.rep.Findings) != 1 || int64(d.rep.Findings[0].Input[0]) != modeHang ||
		len(d.rep.StateDependent) != 1 || int64(d.rep.StateDependent[0].Input[0]) != modeReturn {
		t.Errorf("findings %+v, state-dependent %+v; want the real hang kept and the other moved", d.rep.Findings, d.rep.StateDependent)
	}
	if d.rep.Alone.Checked != 2 {
		t.Errorf("alone %+v, want both checked", d.rep.Alone)
	}

	// A panic whose run alone times out (a fresh process on a loaded
	// machine) was not shown to be state-dependent: it stays a bug.
	panicked := &Finding{Kind: "panic", Message: "boom", Input: input(modeHang)}
	d = &coordinator{cfg: cfg, rep: &Report{Findings: []*Finding{panicked}}}
	d.checkAlone(context.Background(), aloneLimits{runs: aloneRuns, frame: aloneFrame})
	if len(d.rep.Findings) != 1 || len(d.rep.StateDependent) != 0 || d.rep.Alone.Unchecked != 1 {
		t.Errorf("findings %+v, state-dependent %+v, alone %+v; want the panic kept, unchecked", d.rep.Findings, d.rep.StateDependent, d.rep.Alone)
	}
}
