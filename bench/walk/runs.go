package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/report"
)

// parseReport decodes a gocolic JSON report. A report without a branch
// total is not one of gocolic test's.
func parseReport(data []byte) (*report.Report, error) {
	r, err := report.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("parsing the gocolic report: %w", err)
	}
	if r.Branches.Total <= 0 {
		return nil, errors.New("parsing the gocolic report: no branches.total")
	}
	return r, nil
}

// lastIncrease returns the time, in milliseconds since the exploration
// started, at which the timeline first reached its highest coverage: the
// time of the last increase of coverage. It is 0 for an empty timeline or
// one that never covered anything.
func lastIncrease(ps []report.Point) int64 {
	best, at := 0, int64(0)
	for _, p := range ps {
		if p.Covered > best {
			best, at = p.Covered, p.MS
		}
	}
	return at
}

// runRecord is one run of gocolic on one target in one configuration,
// as the -json output of the harness lists it.
type runRecord struct {
	Target string   `json:"target"`
	Config string   `json:"config"`
	Run    int      `json:"run"` // 1-based
	Seed   int64    `json:"seed"`
	Args   []string `json:"args"`
	// ExitCode is gocolic's exit status, -1 if it did not exit by itself
	// (killed at the time limit, or not started).
	ExitCode int `json:"exit_code"`
	// Error says why the run counts as failed; empty for a good run.
	Error string `json:"error,omitempty"`
	// Measurements, from the report (zero when there is none).
	Covered        int            `json:"covered"`
	Total          int            `json:"total"`
	CoveragePct    float64        `json:"coverage_pct"`
	ElapsedMS      int64          `json:"elapsed_ms"`
	LastIncreaseMS int64          `json:"last_increase_ms"`
	Executions     int            `json:"executions"`
	Stopped        string         `json:"stopped,omitempty"`
	Layers         []report.Layer `json:"solver_layers,omitempty"`
	// WallMS is the wall time of the whole gocolic process, including
	// instrumentation and the build of the worker binary.
	WallMS int64 `json:"wall_ms"`
}

// ok reports whether the run counts in the statistics.
func (r *runRecord) ok() bool { return r.Error == "" }

// fill copies a report's measurements into the record.
func (r *runRecord) fill(rep *report.Report) {
	r.Covered, r.Total = rep.Branches.Covered, rep.Branches.Total
	r.CoveragePct = 100 * float64(rep.Branches.Covered) / float64(rep.Branches.Total)
	r.ElapsedMS = rep.ElapsedMS
	r.LastIncreaseMS = lastIncrease(rep.Timeline)
	r.Executions = rep.Executions
	r.Stopped = rep.Stopped
	r.Layers = rep.Solver.Layers
}

// runner runs gocolic test in the workspace.
type runner struct {
	bin     string // the gocolic binary
	module  string // the module holding the corpus copy
	reports string // directory of the JSON reports
	logs    string // directory of the logs
	budget  time.Duration
	workers int
}

// args returns the command line of one run: the configuration's flags,
// then the ones every run gets.
func (rn *runner) args(t *harness.Target, c config, seed int64, jsonPath string) []string {
	args := []string{"test"}
	args = append(args, c.Flags...)
	args = append(args,
		"-budget", rn.budget.String(),
		"-workers", strconv.Itoa(rn.workers),
		"-seed", strconv.FormatInt(seed, 10),
		"-notests", "-minimizetime", "0",
		"-json", jsonPath,
		"./"+t.Name, t.Func)
	return args
}

// run runs gocolic once on t in configuration c with the given run index
// (1-based, also the seed) and returns its record; a failure is recorded
// in the record, never dropped.
func (rn *runner) run(ctx context.Context, t *harness.Target, c config, run int) runRecord {
	seed := int64(run)
	base := fmt.Sprintf("%s.%s.%d", t.Name, c.Name, run)
	jsonPath := filepath.Join(rn.reports, base+".json")
	os.Remove(jsonPath)
	args := rn.args(t, c, seed, jsonPath)
	rec := runRecord{Target: t.Name, Config: c.Name, Run: run, Seed: seed, ExitCode: -1}
	rec.Args = append([]string{"gocolic"}, args...)
	res := harness.Run(ctx, rn.budget+2*time.Minute, rn.module, filepath.Join(rn.logs, base+".log"), rn.bin, args...)
	rec.WallMS = res.Wall.Milliseconds()
	var ee *exec.ExitError
	switch {
	case res.Err == nil:
		rec.ExitCode = 0
	case errors.As(res.Err, &ee) && !res.TimedOut:
		rec.ExitCode = ee.ExitCode()
	case !res.TimedOut:
		rec.Error = "gocolic did not run: " + res.Err.Error()
		return rec
	}
	var rep *report.Report
	data, err := os.ReadFile(jsonPath)
	if err == nil {
		rep, err = parseReport(data)
	}
	if rep != nil {
		rec.fill(rep)
	}
	rec.Error = harness.RunFailure(rec.ExitCode, res.TimedOut, err)
	if rec.Error != "" && rec.ExitCode > 0 {
		if msg := harness.LastMessage(res.Output); msg != "" {
			rec.Error += ": " + msg
		}
	}
	return rec
}
