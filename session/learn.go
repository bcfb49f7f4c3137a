// This file runs `gocolic learn`: the weights of the learned strategy,
// learned for one target by package learn, each of its runs a run of the
// coordinator on one worker binary built once.

package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/learn"
	"github.com/gocolic/gocolic/sym"
)

// CmdLearn is `gocolic learn`.
const CmdLearn Command = "learn"

// LearnRuns is the execution budget of one learning run when -runs is
// not given: the paper's 4000.
const LearnRuns = 4000

// LearnBudget is gocolic learn's -budget when none is given: the issue's
// bound on learning a 500-line package on 2 cores.
const LearnBudget = time.Hour

// Learned is the outcome of gocolic learn.
type Learned struct {
	Weights *explore.Weights
	Result  *learn.Result
	File    string // where the weights were written
}

// Learn runs `gocolic learn`: it instruments and builds the target
// (cfg.Func, a function or a FuzzXxx target) once, then learns the
// weights of the learned strategy with cfg.Learn's sizes, each run of the
// learner a run of the coordinator with one worker, one solver and
// cfg.Runs executions (LearnRuns if unset), cfg.Workers of them at once;
// cfg.Budget bounds the whole learning. It writes the weights to
// cfg.WeightsOut.
func Learn(ctx context.Context, cfg Config) (*Learned, error) {
	if cfg.Runs == 0 {
		cfg.Runs = LearnRuns
	}
	if cfg.WeightsOut == "" {
		return nil, errors.New("no weight file given (-o FILE)")
	}
	budget := cfg.Budget // the learning's, not a run's
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	lc := cfg.Learn
	lc.Seed, lc.Budget, lc.Parallel = cfg.Seed, budget, cfg.Workers
	if err := lc.Validate(); err != nil {
		return nil, err
	}
	var t *target
	var seeds []sym.Env
	var err error
	if strings.HasPrefix(cfg.Func, "Fuzz") {
		t, seeds, _, err = fuzzTarget(&cfg)
	} else {
		t, err = testTarget(cfg)
	}
	if err != nil {
		return nil, err
	}
	work, cleanup, err := newWorkDir(cfg)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	bin, args, err := buildWorker(cfg, t, work)
	if err != nil {
		return nil, err
	}
	props := siteProps(t, cfg.Func)
	// One graph for every run: the learned strategy only reads it
	// (Dominates, From), which is safe from the parallel runs.
	gcfg := cfg
	gcfg.Strategy = "learned"
	// Without one (staticGraph says why), the features that read it
	// stay 0.
	graph, _ := staticGraph(gcfg, t)

	// One learning run: the coordinator with the learned strategy, one
	// worker and one solver (deterministic given its seed), no time
	// budget, nothing minimised.
	run := func(ctx context.Context, theta []float64, seed int64) (learn.Score, error) {
		rc := cfg
		rc.Workers, rc.Solvers, rc.Seed = 1, 1, seed
		rc.Strategy, rc.Heuristic = "learned", ""
		rc.Budget, rc.MinimizeTime, rc.Lanes = 0, 0, coordinator.LanesConcolic
		var eval *coordinator.Evaluator
		if cfg.Solver.Opaque() {
			eval = coordinator.NewEvaluator(bin, args, t.entry.PkgDir, cfg.Timeout)
			defer eval.Close()
		}
		dcfg, _ := runConfig(rc, t, bin, args, eval, seeds)
		dcfg.Weights, dcfg.Props, dcfg.Static = theta, props, graph
		rep, err := coordinator.Run(ctx, dcfg)
		if rep == nil {
			return learn.Score{}, err
		}
		covered, _ := rep.Covered.CondOutcomes(t.ins.Sites)
		return learn.Score{Covered: covered, Execs: rep.Execs}, err
	}
	fmt.Fprintf(cfg.Stderr, "gocolic: learning weights for %s.%s (%s): %d samples a round, the best %d checked %d times each, up to %d rounds; runs of %d executions, %d at once\n",
		t.pkg.Name, cfg.Func, lc.Method, lc.Samples, lc.Top, lc.Checks, lc.Rounds, cfg.Runs, lc.Parallel)
	res, err := learn.Learn(ctx, lc, explore.NumFeatures, run, cfg.Stderr)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRun, err)
	}
	if res.Partial {
		fmt.Fprintf(cfg.Stderr, "gocolic: learn: stopped by the budget in round %d: writing the best weights found so far\n", res.Rounds)
	}
	w := explore.NewWeights(res.Theta, explore.Learning{
		Package: t.pkg.PkgPath, Func: cfg.Func, Runs: cfg.Runs, Seed: cfg.Seed,
		Samples: lc.Samples, Top: lc.Top, Checks: lc.Checks, Rounds: res.Rounds, Method: lc.Method,
		Score: res.Score, Executions: res.Execs, Seconds: res.Elapsed.Seconds(), Partial: res.Partial,
	})
	if err := w.Write(cfg.WeightsOut); err != nil {
		return nil, err
	}
	return &Learned{Weights: w, Result: res, File: cfg.WeightsOut}, nil
}

// The learned strategy's look-ahead features read the graph's From.
var _ explore.Reach = (*cfa.Graph)(nil)
