package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/session"
	"github.com/gocolic/gocolic/solver/walk"
)

const testUsage = "gocolic test [flags] <package> <Func>"

var cmdTest = &command{
	name:  "test",
	usage: testUsage,
	short: "explore a function and write tests for it",
	run:   runTest,
}

func runTest(ctx context.Context, args []string, stderr io.Writer) int {
	fs, cfg := exploreFlags("test", stderr)
	fs.StringVar(&cfg.Out, "o", "", "directory for the generated test file (default: the package's directory)")
	fs.StringVar(&cfg.CoverProfile, "coverprofile", "", "write a coverage profile of the generated tests, for go tool cover")
	fs.BoolVar(&cfg.NoTests, "notests", false, "do not write the generated test file")
	fs.Func("replay", "run the inputs of a go test fuzz v1 corpus directory and report their coverage, exploring nothing (repeatable)", func(dir string) error {
		cfg.Replay = append(cfg.Replay, dir)
		return nil
	})
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\n", testUsage)
		fmt.Fprintln(stderr, "Test explores the paths of Func in package (an import path or ./dir, as for go test)")
		fmt.Fprintln(stderr, "and writes <func>_gocolic_test.go next to it: regression cases pinning the observed")
		fmt.Fprintln(stderr, "results and one failing reproducer per distinct panic or crash.\n\nFlags:")
		fs.PrintDefaults()
	}
	return runExplore(ctx, fs, cfg, args, stderr, session.Test)
}

// exploreFlags declares the flags test and fuzz share.
func exploreFlags(name string, stderr io.Writer) (*flag.FlagSet, *session.Config) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := new(session.Config)
	fs.DurationVar(&cfg.Budget, "budget", 0, "wall-clock budget of the exploration (default 10s unless -runs is set)")
	fs.IntVar(&cfg.Runs, "runs", 0, "stop after this many executions (0: no limit)")
	fs.IntVar(&cfg.Workers, "workers", 0, "worker processes running the target (default: number of CPUs)")
	fs.StringVar(&cfg.Strategy, "strategy", "cover", fmt.Sprintf("search strategy: %v", explore.Names()))
	fs.Int64Var(&cfg.Seed, "seed", 0, "seed of the random choices, for reproducible runs")
	fs.IntVar(&cfg.MaxLen, "maxlen", 0, "maximum length of string and []byte inputs (default 32; fuzz raises the default to the longest seed, up to 1024; at most 4096)")
	fs.IntVar(&cfg.MaxElems, "maxelems", instrument.DefaultMaxElems, "maximum length of slice, map and variadic inputs (test)")
	fs.IntVar(&cfg.MaxDepth, "depth", 0, "bound on the symbolic branches explored along one path (0: none)")
	fs.DurationVar(&cfg.Timeout, "timeout", 0, "time limit of one execution (default 1s)")
	fs.IntVar(&cfg.MemLimitMB, "memlimit", 2048, "resident memory limit of a worker in MiB (0: none)")
	fs.DurationVar(&cfg.SolverTimeout, "solver-timeout", 0, "time limit of one solver query (default 2s)")
	fs.StringVar(&cfg.Solver, "solver", session.SolverAuto, "solver: z3 (calls of uninstrumented functions stay concrete), walk (concolic walk, Z3 for the linear part) or auto (Z3, then the walk for what it cannot model or on timeout)")
	fs.IntVar(&cfg.Walk.Steps, "walksteps", walk.DefaultSteps, "concolic walk: iterations per non-linear constraint")
	fs.IntVar(&cfg.Walk.Neighbors, "walkneighbors", walk.DefaultNeighbors, "concolic walk: random and bisection neighbours per step")
	fs.Func("walktabu", "concolic walk: iterations a variable stays tabu (-1: min(|vars|, 3); 0: no tabu)", func(v string) error {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil || n < -1:
			return errors.New("want -1, 0 or a positive number")
		case n == 0:
			cfg.Walk.NoTabu = true
		case n > 0:
			cfg.Walk.Tabu = n
		}
		return nil
	})
	fs.BoolFunc("walkbisect", "concolic walk: use the bisection step (default true)", func(v string) error {
		b, err := strconv.ParseBool(v)
		cfg.Walk.NoBisect = !b
		return err
	})
	fs.Func("impure", "comma-separated packages or functions (path.Func) whose calls stay concrete, never opaque terms (repeatable)", func(v string) error {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				cfg.Impure = append(cfg.Impure, f)
			}
		}
		return nil
	})
	fs.Func("instrument", "comma-separated go package patterns (./..., example.com/dep/...) whose packages the target imports are instrumented too, so that values stay symbolic in calls into them; dependencies are copied, never written (repeatable; default: the target package only)", func(v string) error {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				cfg.Instrument = append(cfg.Instrument, f)
			}
		}
		return nil
	})
	fs.StringVar(&cfg.JSON, "json", "", "write the machine-readable report to this file")
	fs.StringVar(&cfg.RunDir, "rundir", "", "keep the run in this directory (report.json, timeline.csv, cover.out) for gocolic report")
	fs.IntVar(&cfg.MaxBugs, "maxbugs", 0, "stop once this many distinct bugs are found (0: no limit)")
	fs.DurationVar(&cfg.MinimizeTime, "minimizetime", 10*time.Second, "time spent minimising each failing input after the exploration (0: keep inputs as found)")
	fs.BoolVar(&cfg.KeepWork, "work", false, "print and keep the work directory (overlay and worker binary)")
	return fs, cfg
}

// runExplore parses the arguments and runs one exploration.
func runExplore(ctx context.Context, fs *flag.FlagSet, cfg *session.Config, args []string, stderr io.Writer,
	run func(context.Context, session.Config) (*session.Outcome, error)) int {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return 2
	}
	cfg.Package, cfg.Func = fs.Arg(0), fs.Arg(1)
	cfg.Stderr = stderr
	cfg.Dir, _ = os.Getwd()
	out, err := run(ctx, *cfg)
	if out != nil {
		summary(stderr, out, cfg.Dir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gocolic: %v\n", err)
		return exitCode(err)
	}
	return 0
}

// summary prints the outcome of a run; file names are relative to dir.
func summary(w io.Writer, out *session.Outcome, dir string) {
	rep := out.Report
	cov, total := rep.Covered.CondOutcomes(out.Entry.Sites)
	fmt.Fprintf(w, "gocolic: %d executions, %d paths, branches %d/%d, %d bugs, stopped: %s\n",
		rep.Execs, rep.Paths, cov, total, len(rep.Findings), rep.Stopped)
	for _, f := range rep.SortedFindings() {
		fmt.Fprintf(w, "  %s: %s\n    input: %s\n", f.Kind, f.Message, out.Entry.Call(f.Input))
	}
	if rep.SlowTracked > 0 {
		fmt.Fprintf(w, "gocolic: %d executions exceeded -timeout with symbolic tracking but not without it: not reported as bugs, and their paths are unexplored\n", rep.SlowTracked)
	}
	concretised(w, out, dir)
	if out.TestFile != "" {
		fmt.Fprintf(w, "gocolic: wrote %s\n", out.TestFile)
	}
}

// concretisedTop bounds the places printed per cause.
const concretisedTop = 3

// concretised prints the divergences and the values made concrete, per
// cause with its busiest places; nothing when there were neither.
func concretised(w io.Writer, out *session.Outcome, dir string) {
	c := &out.Report.Concretised
	causes := session.Concretisations(out.Entry, out.Report)
	if len(causes) == 0 && c.Divergences == 0 {
		return
	}
	if len(causes) == 0 {
		fmt.Fprintf(w, "gocolic: divergences: %d; no value was made concrete\n", c.Divergences)
		return
	}
	fmt.Fprintf(w, "gocolic: divergences: %d, %d of them after no concretised value; values made concrete, by cause:\n", c.Divergences, c.Unattributed)
	for _, cr := range causes {
		fmt.Fprintf(w, "  %s: %d times in %d executions, before %d of the divergences;", cr.Cause, cr.Events, cr.Executions, cr.Divergences)
		for i, s := range cr.Sites[:min(len(cr.Sites), concretisedTop)] {
			sep := ","
			if i == 0 {
				sep = " at"
			}
			place := "(unknown place)"
			if s.File != "" {
				file := s.File
				if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
					file = rel
				}
				place = fmt.Sprintf("%s:%d %s", file, s.Line, s.Expr)
			}
			fmt.Fprintf(w, "%s %s ×%d", sep, place, s.Events)
		}
		fmt.Fprintln(w)
	}
}
