// This file runs gocolic on an example: gocolic test on its function, and
// gocolic fuzz, with or without go test -fuzz alongside, on its fuzz target.

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/report"
)

// gocolicRun is what gocolic test did on one example.
type gocolicRun struct {
	err            error
	found, other   []string // planted markers found; other bug messages
	firstMS        int64    // time to the first planted bug, -1 if none
	covered, total int
	execsPerSec    float64
	executions     int
	elapsedMS      int64
	stopped        string
}

// targetRun is what gocolic fuzz, with or without -with-fuzzer, did on
// one example's fuzz target.
type targetRun struct {
	err          error
	found, other []string // planted markers found; other bug messages
	// firstMS is the time to the first planted bug in the run's own
	// report, -1 if none there.
	firstMS int64
	// replayOnly are the planted bugs found only by the replay of the
	// inputs the run left, not in its own report.
	replayOnly []string
	haveOwn    bool // the run's own report was read
	// Coverage in the run's own report: every input gocolic ran.
	ownCovered, ownTotal int
	execsPerSec          float64
	executions           int
	elapsedMS            int64
	stopped              string
	hybrid               *report.HybridStats
	cacheFiles           int       // entries the fuzzer's cache held at the end (hybrid)
	cov                  replayCov // coverage of everything the run left
	notes                []string
}

// gocolicFlags are the flags every gocolic exploration gets. Failing
// inputs are not minimised after the exploration (-minimizetime 0): the
// replays then run the inputs as found, and no run goes on past its
// budget; minimising changes neither the bugs nor the coverage of a
// report.
func gocolicFlags(budget time.Duration, workers int) []string {
	return []string{"-budget", budget.String(), "-workers", strconv.Itoa(workers), "-minimizetime", "0"}
}

// runGocolic runs gocolic test on the example's function.
func runGocolic(ctx context.Context, w *harness.Workspace, ex *harness.Example, budget time.Duration, workers int) gocolicRun {
	g := gocolicRun{firstMS: -1}
	jsonPath := filepath.Join(w.Dir, "reports", ex.Name+".gocolic.json")
	os.MkdirAll(filepath.Dir(jsonPath), 0o755)
	rep, _, err := w.Gocolic(ctx, limit(budget), ex.Name+".gocolic", jsonPath, gocolicFlags(budget, workers), ex.Name, ex.Func)
	g.err = err
	if rep == nil {
		return g
	}
	g.found, g.other, g.firstMS = reportBugs(ex, rep)
	g.covered, g.total = rep.Branches.Covered, rep.Branches.Total
	g.execsPerSec, g.executions = rep.ExecsPerSec, rep.Executions
	g.elapsedMS, g.stopped = rep.ElapsedMS, rep.Stopped
	return g
}

// reportBugs matches the bugs of a gocolic report against the planted
// markers, and returns the time of the first planted one (-1 if none).
func reportBugs(ex *harness.Example, rep *report.Report) (found, other []string, firstMS int64) {
	firstMS = -1
	var msgs []string
	for _, b := range rep.Bugs {
		msgs = append(msgs, b.Message)
		for _, p := range ex.Planted {
			if strings.Contains(b.Message, p) && (firstMS < 0 || b.FoundMS < firstMS) {
				firstMS = b.FoundMS
			}
		}
	}
	found, other = harness.MatchPlanted(ex.Planted, msgs)
	return found, other, firstMS
}

// runTarget runs gocolic fuzz on the example's fuzz target as target
// contender label (with go test -fuzz alongside for the hybrid), and
// measures the coverage of everything the run left by replaying it.
func runTarget(ctx context.Context, w *harness.Workspace, ex *harness.Example, budget time.Duration, workers int, label string) targetRun {
	t := targetRun{firstMS: -1}
	withFuzzer := label == cHybrid
	td := filepath.Join(ex.Dir, "testdata")
	if _, err := os.Stat(td); err == nil {
		// Nothing should be left there; if something is, it must not seed
		// this run.
		if _, err := w.StashTestdata(ex.Name, label+"-leftover"); err != nil {
			t.err = err
			return t
		}
		t.notes = append(t.notes, "a testdata directory left by an earlier tool was moved away first")
	}
	var cacheDir string
	if withFuzzer {
		var err error
		if cacheDir, err = w.FuzzCacheDir(w.PkgPath(ex.Name), ex.Fuzz); err != nil {
			t.err = err
			return t
		}
		// The module path is unique to the workspace, so the cache should
		// be empty; make sure of it, for this target and every other one
		// of the module.
		if err := os.RemoveAll(w.ModuleFuzzCache()); err != nil {
			t.err = fmt.Errorf("emptying the fuzz cache: %w", err)
			return t
		}
		warmFuzzBuild(ctx, w, ex)
	}
	flags := append(gocolicFlags(budget, workers), targetFlags[label]...)
	jsonPath := filepath.Join(w.Dir, "reports", ex.Name+"."+label+".json")
	os.MkdirAll(filepath.Dir(jsonPath), 0o755)
	rep, _, err := w.GocolicFuzz(ctx, limit(budget), ex.Name+"."+label, jsonPath, flags, ex.Name, ex.Fuzz)
	t.err = err
	var dirs []string
	if withFuzzer {
		// The cache goes into the workspace, and out of the build cache.
		keep := filepath.Join(w.Dir, "corpora", label, ex.Name, "cache")
		n, merr := harness.MoveFiles(cacheDir, keep)
		if merr == nil {
			merr = os.RemoveAll(w.ModuleFuzzCache())
		}
		if merr != nil && t.err == nil {
			t.err = fmt.Errorf("moving the fuzz cache: %w", merr)
		}
		t.cacheFiles = n
		dirs = append(dirs, keep)
	}
	stash, serr := w.StashTestdata(ex.Name, label)
	if serr != nil {
		t.err = errors.Join(t.err, serr)
		return t
	}
	dirs = append(dirs, filepath.Join(stash, "fuzz", ex.Fuzz))
	if rep != nil {
		t.haveOwn = true
		t.found, t.other, t.firstMS = reportBugs(ex, rep)
		t.ownCovered, t.ownTotal = rep.Branches.Covered, rep.Branches.Total
		t.execsPerSec, t.executions = rep.ExecsPerSec, rep.Executions
		t.elapsedMS, t.stopped = rep.ElapsedMS, rep.Stopped
		t.hybrid = rep.Hybrid
	}
	if withFuzzer && rep != nil && rep.Hybrid == nil {
		t.notes = append(t.notes, "the report has no hybrid section")
	}
	t.cov = replayCoverage(ctx, w, ex, dirs, workers, ex.Name+"."+label+"-replay")
	// Bugs: those of the run's report and those the inputs it left raise
	// when replayed (a failure the fuzzer found after gocolic's last look
	// is only there).
	var msgs []string
	if rep != nil {
		for _, b := range rep.Bugs {
			msgs = append(msgs, b.Message)
		}
	}
	found, other := harness.MatchPlanted(ex.Planted, harness.DistinctMessages(append(msgs, t.cov.bugs...)))
	for _, p := range found {
		if !contains(t.found, p) {
			t.replayOnly = append(t.replayOnly, p)
		}
	}
	t.found, t.other = found, other
	return t
}

// warmFuzzBuild builds the example's fuzzing test binary into the build
// cache (go test -fuzz with -fuzztime 1x and a throw-away corpus cache),
// so that the first round of the hybrid's fuzzer does not spend its budget
// compiling. Failures are ignored: the hybrid run reports its own.
func warmFuzzBuild(ctx context.Context, w *harness.Workspace, ex *harness.Example) {
	cache := filepath.Join(w.Dir, "warmcache", ex.Name)
	harness.Run(ctx, 5*time.Minute, w.Module, w.LogPath(ex.Name+".hybrid-warmup"), "go",
		"test", "-run", "^$", "-fuzz", "^"+ex.Fuzz+"$", "-fuzztime", "1x", "-parallel", "1",
		"./"+ex.Name, "-test.fuzzcachedir="+cache)
	os.RemoveAll(cache)
	// A failure it might have written must not seed the hybrid.
	os.RemoveAll(filepath.Join(ex.Dir, "testdata"))
}
