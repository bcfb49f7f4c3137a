// Package learn learns the weights of the learned search strategy for one
// program: the find / check / refine loop of seed 001 (ParaDySE,
// Algorithm 2). Each round samples weight vectors, runs each once (find),
// runs the best few again from other seeds (check), and draws the next
// round's vectors around the two best (refine); it stops when a round's
// best average no longer improves on the last, or at its round limit, or
// at its time budget.
//
// The Random method is the baseline of the paper's RQ3: the same rounds
// of find and check, every vector drawn uniformly, no refinement and no
// early stop, the best check average of all rounds kept. Given the same
// sizes and rounds it spends the same runs, so the two compare at equal
// cost.
//
// The package knows nothing of how a run is made: a Runner runs the
// program once with given weights and seed and says how many branch
// outcomes it covered (session.Learn builds the worker once and runs the
// coordinator for each sample). Given its Seed and deterministic runs,
// the learner is deterministic: every random draw comes from one
// generator, in an order that does not depend on which run ends first.
package learn

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"time"
)

// Bound is the range of a weight: [−Bound, Bound].
const Bound = 10.0

// Config sizes the learning.
type Config struct {
	// Samples is the number of weight vectors drawn per round (find).
	Samples int
	// Top is the number of the find's best vectors run again (check).
	Top int
	// Checks is the number of runs, from different seeds, of each
	// vector in the check.
	Checks int
	// Rounds bounds the rounds.
	Rounds int
	// Parallel is the number of runs at once.
	Parallel int
	// Seed seeds every random draw of the learner, and the runs' seeds.
	Seed int64
	// Budget bounds the learning's wall-clock time; 0 for none. When it
	// runs out, the result is the best vector found so far (Partial).
	Budget time.Duration
	// Method is Refine (the default when empty) or Random.
	Method string
}

// The learning methods.
const (
	// MethodRefine is the paper's find / check / refine.
	MethodRefine = "refine"
	// MethodRandom samples uniformly every round: RQ3's baseline.
	MethodRandom = "random"
)

// DefaultConfig returns the sizes of a learning that sets none. The
// paper draws 1000 vectors a round and checks its 10 best 10 times. A
// run of 4000 executions took 5 s on examples/scanner and 280 s on
// examples/keywords (one worker, 2 loaded cores), so the paper's round
// is days of CPU; 29 runs a round is what fits an hour on the first kind.
func DefaultConfig() Config {
	return Config{Samples: 20, Top: 3, Checks: 3, Rounds: 19, Parallel: 1, Method: MethodRefine}
}

// Validate checks the sizes and gives the unset ones their defaults.
func (c *Config) Validate() error {
	d := DefaultConfig()
	if c.Samples < 0 || c.Top < 0 || c.Checks < 0 || c.Rounds < 0 || c.Parallel < 0 || c.Budget < 0 {
		return errors.New("-samples, -top, -checks, -rounds and -budget must not be negative")
	}
	if c.Samples == 0 {
		c.Samples = d.Samples
	}
	if c.Top == 0 {
		c.Top = d.Top
	}
	if c.Checks == 0 {
		c.Checks = d.Checks
	}
	if c.Rounds == 0 {
		c.Rounds = d.Rounds
	}
	if c.Parallel == 0 {
		c.Parallel = d.Parallel
	}
	switch c.Method {
	case "":
		c.Method = MethodRefine
	case MethodRefine, MethodRandom:
	default:
		return fmt.Errorf("-method %q: want %s or %s", c.Method, MethodRefine, MethodRandom)
	}
	if c.Top < 2 || c.Top > c.Samples {
		return fmt.Errorf("-top %d must be at least 2 (refinement draws around the two best) and at most -samples %d", c.Top, c.Samples)
	}
	return nil
}

// A Score is what one run achieved.
type Score struct {
	Covered int // branch outcomes covered
	Execs   int // executions spent
}

// A Runner runs the program once with weights theta and seed.
type Runner func(ctx context.Context, theta []float64, seed int64) (Score, error)

// Result is a learning's outcome.
type Result struct {
	Theta []float64
	// Score is Theta's average coverage in its check (Checked); a
	// vector that never reached a check (the budget ran out first) has
	// its one find run's coverage.
	Score   float64
	Checked bool
	// Rounds is the number of rounds begun.
	Rounds int
	// Runs and Execs are the runs made and the executions they spent.
	Runs, Execs int
	Elapsed     time.Duration
	// Partial says that the budget (or ctx) ended the learning early.
	Partial bool
	// Failed counts the runs that failed; each cost only itself.
	Failed int
}

// Refine draws a weight vector around w1 and w2, the best two of a
// check: per feature, if both weights are positive, uniformly between
// the smaller and Bound; if both are negative, between −Bound and the
// larger; otherwise anywhere in [−Bound, Bound].
func Refine(w1, w2 []float64, r *rand.Rand) []float64 {
	out := make([]float64, len(w1))
	for i := range out {
		lo, hi := -Bound, Bound
		switch {
		case w1[i] > 0 && w2[i] > 0:
			lo = min(w1[i], w2[i])
		case w1[i] < 0 && w2[i] < 0:
			hi = max(w1[i], w2[i])
		}
		out[i] = lo + r.Float64()*(hi-lo)
	}
	return out
}

// uniform draws a weight vector uniformly in [−Bound, Bound]^n.
func uniform(n int, r *rand.Rand) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = -Bound + r.Float64()*2*Bound
	}
	return out
}

// candidate is a weight vector and what it scored.
type candidate struct {
	theta []float64
	score float64
}

// Learn runs find / check / refine for weight vectors of n features and
// returns the best vector. Progress lines go to log. It fails only if no
// run succeeded.
func Learn(ctx context.Context, cfg Config, n int, run Runner, log io.Writer) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = io.Discard
	}
	start := time.Now()
	if cfg.Budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Budget)
		defer cancel()
	}
	stream := uint64(0x6c6561726e)
	if cfg.Method == MethodRandom {
		// Its own draws from the first round on: on a common stream the
		// two methods would share round 1, and where refinement's best
		// came from there (it stops early when later rounds do not
		// improve) RQ3 would compare a heuristic with itself.
		stream ^= 0x72616e64
	}
	r := rand.New(rand.NewPCG(uint64(cfg.Seed), stream))
	l := &learner{cfg: cfg, run: run, log: log}
	res := &Result{}
	var best *candidate  // best of the last improving round's check
	var found *candidate // best single find run, for a learning cut before any check
	var w1, w2 []float64
	for round := 1; round <= cfg.Rounds; round++ {
		res.Rounds = round
		thetas := make([][]float64, cfg.Samples)
		for i := range thetas {
			if w1 == nil {
				thetas[i] = uniform(n, r)
			} else {
				thetas[i] = Refine(w1, w2, r)
			}
		}
		// Find: each vector once.
		jobs := make([]job, len(thetas))
		for i, th := range thetas {
			jobs[i] = job{theta: th, seed: r.Int64()}
		}
		scores := l.all(ctx, jobs)
		var ranked []candidate
		for i, s := range scores {
			if s.ok {
				ranked = append(ranked, candidate{thetas[i], float64(s.Covered)})
			}
		}
		slices.SortStableFunc(ranked, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
		if len(ranked) > 0 && (found == nil || ranked[0].score > found.score) {
			found = &ranked[0]
		}
		if ctx.Err() != nil {
			break
		}
		if len(ranked) < 2 {
			return nil, fmt.Errorf("learning: round %d: %d of %d runs failed: %w", round, len(thetas)-len(ranked), len(thetas), l.firstErr)
		}
		// Check: the best few, each from Checks other seeds.
		top := ranked[:min(cfg.Top, len(ranked))]
		jobs = jobs[:0]
		for _, c := range top {
			for range cfg.Checks {
				jobs = append(jobs, job{theta: c.theta, seed: r.Int64()})
			}
		}
		scores = l.all(ctx, jobs)
		if ctx.Err() != nil {
			break
		}
		var checked []candidate
		for i, c := range top {
			sum, k := 0, 0
			for _, s := range scores[i*cfg.Checks : (i+1)*cfg.Checks] {
				if s.ok {
					sum += s.Covered
					k++
				}
			}
			if k > 0 {
				checked = append(checked, candidate{c.theta, float64(sum) / float64(k)})
			}
		}
		slices.SortStableFunc(checked, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
		if len(checked) < 2 {
			return nil, fmt.Errorf("learning: round %d: the check's runs failed: %w", round, l.firstErr)
		}
		fmt.Fprintf(log, "gocolic: learn: round %d: best of find %d, best check average %.2f (%d runs, %s)\n",
			round, int(ranked[0].score), checked[0].score, l.runs, time.Since(start).Round(time.Second))
		if cfg.Method == MethodRandom {
			// No refinement: every round draws afresh, the best of all stands.
			if best == nil || checked[0].score > best.score {
				best = &checked[0]
			}
			continue
		}
		if best != nil && checked[0].score <= best.score {
			break // no improvement: the last improving round's best stands
		}
		best = &checked[0]
		w1, w2 = checked[0].theta, checked[1].theta
	}
	res.Runs, res.Execs, res.Failed, res.Elapsed = l.runs, l.execs, l.failed, time.Since(start)
	res.Partial = ctx.Err() != nil
	switch {
	case best != nil:
		res.Theta, res.Score, res.Checked = best.theta, best.score, true
	case found != nil:
		res.Theta, res.Score = found.theta, found.score
	default:
		return res, fmt.Errorf("learning: no run finished (%d failed): %w", l.failed, cmp.Or(ctx.Err(), l.firstErr))
	}
	return res, nil
}

// learner runs jobs on Parallel goroutines and counts their cost.
type learner struct {
	cfg         Config
	run         Runner
	log         io.Writer
	mu          sync.Mutex
	runs, execs int
	failed      int
	firstErr    error // of the failed runs, the first, which log shows
}

type job struct {
	theta []float64
	seed  int64
}

type result struct {
	Score
	ok bool
}

// all runs jobs, at most Parallel at once, and returns their results in
// the jobs' order; a job not run (ctx ended) or failed is not ok.
func (l *learner) all(ctx context.Context, jobs []job) []result {
	out := make([]result, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(l.cfg.Parallel, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil {
					continue // handed out as the budget ended
				}
				s, err := l.run(ctx, jobs[i].theta, jobs[i].seed)
				l.mu.Lock()
				l.runs++
				l.execs += s.Execs
				switch {
				case ctx.Err() != nil:
					// Cut by the budget: its coverage is not comparable.
				case err != nil:
					l.failed++
					if l.firstErr == nil {
						l.firstErr = err
						fmt.Fprintf(l.log, "gocolic: learn: a run failed, which costs that run: %v\n", err)
					}
				default:
					out[i] = result{s, true}
				}
				l.mu.Unlock()
			}
		}()
	}
feed:
	for i := range jobs {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	return out
}
