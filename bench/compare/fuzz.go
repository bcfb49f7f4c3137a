// This file runs Go's native fuzzer (go test -fuzz) on an example's fuzz
// target and finds out which bug its failing input raises.

package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/session"
)

// fuzzRun is what go test -fuzz did on one example.
type fuzzRun struct {
	err          error
	failed       bool   // it reported a failing input
	failAt       string // test duration printed with the failure
	found, other []string
	execs        int64
	execsPerSec  float64
	haveRate     bool      // a progress line with execs was printed
	cov          replayCov // coverage of the inputs it kept
}

var (
	progressRE = regexp.MustCompile(`execs: (\d+) \((\d+)/sec\)`)
	failFileRE = regexp.MustCompile(`Failing input written to (testdata/fuzz/\S+)`)
	panicRE    = regexp.MustCompile(`panic: (.*)`)
)

// runFuzz runs go test -fuzz on the example's fuzz target, finds out
// which bug a failing input raises, and measures the coverage of the
// inputs it kept.
func runFuzz(ctx context.Context, w *harness.Workspace, ex *harness.Example, budget time.Duration, workers int) fuzzRun {
	var f fuzzRun
	cache := filepath.Join(w.Dir, "fuzzcache", ex.Name)
	args := []string{"test", "-run", "^$", "-fuzz", "^" + ex.Fuzz + "$", "-fuzztime", budget.String(),
		"-parallel", strconv.Itoa(workers), "./" + ex.Name, "-test.fuzzcachedir=" + cache}
	r := harness.Run(ctx, limit(budget), w.Module, w.LogPath(ex.Name+".fuzz"), "go", args...)
	out := string(r.Output)
	// Progress lines come every 3 s; the rate is over the last interval.
	// The line printed when fuzzing stops covers next to no time and shows
	// 0/sec, so the rate is taken from the last line with a non-zero one.
	for _, m := range progressRE.FindAllStringSubmatch(out, -1) {
		f.execs, _ = strconv.ParseInt(m[1], 10, 64)
		if r, _ := strconv.ParseFloat(m[2], 64); r > 0 {
			f.execsPerSec, f.haveRate = r, true
		}
	}
	fail := failFileRE.FindStringSubmatch(out)
	switch {
	case r.TimedOut:
		f.err = r.Err
	case fail != nil:
		f.failed = true
		if m := regexp.MustCompile(`--- FAIL: ` + ex.Fuzz + ` \(([0-9.]+s)\)`).FindStringSubmatch(out); m != nil {
			f.failAt = m[1]
		}
		f.found, f.other = whichBug(ctx, w, ex, fail[1], out)
	case r.Err != nil && !session.FuzzerDeadlineRace(r.Output):
		f.err = fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), r.Err, harness.Tail(r.Output, 15))
	}
	f.cov = replayCoverage(ctx, w, ex, []string{
		filepath.Join(cache, ex.Fuzz),
		filepath.Join(ex.Dir, "testdata", "fuzz", ex.Fuzz),
	}, workers, ex.Name+".fuzz-replay")
	// Its failing input must not reach the next contender.
	if _, err := w.StashTestdata(ex.Name, cFuzz); err != nil && f.err == nil {
		f.err = err
	}
	return f
}

// whichBug runs the fuzzer's failing input again on its own and matches
// its panic against the planted markers. If that run cannot tell, the
// fuzzer's own output is used.
func whichBug(ctx context.Context, w *harness.Workspace, ex *harness.Example, input, fuzzOut string) (found, other []string) {
	entry := filepath.Base(input)
	r := harness.Run(ctx, 2*time.Minute, w.Module, w.LogPath(ex.Name+".fuzz-rerun"),
		"go", "test", "-count=1", "-run", "^"+ex.Fuzz+"/"+regexp.QuoteMeta(entry)+"$", "./"+ex.Name)
	for _, out := range []string{string(r.Output), fuzzOut} {
		var msgs []string
		for _, m := range panicRE.FindAllStringSubmatch(out, -1) {
			msgs = append(msgs, strings.TrimSpace(m[1]))
		}
		if len(msgs) == 0 {
			continue
		}
		found, other = harness.MatchPlanted(ex.Planted, msgs)
		if len(found) > 0 {
			return found, nil
		}
		return nil, other[:1]
	}
	return nil, []string{"failure without a panic message (see the fuzz log)"}
}
