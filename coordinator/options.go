package coordinator

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/gocolic/gocolic/explore"
)

// Options are the user's settings of an exploration: its budget, its
// workers and its search. Config embeds them beside what the run is
// given by the session (the worker binary, the parameters, the solver).
type Options struct {
	Workers int // parallel worker processes
	// Solvers is the number of goroutines that solve queries, each with
	// a solver stack of its own; 0 means half the Workers, at least one.
	// With one,
	// the coordinator waits for each answer, so that a run with one
	// worker and a fixed Seed is deterministic.
	Solvers  int
	Budget   time.Duration // wall-clock budget; 0 for none
	Runs     int           // execution budget; 0 for none
	Strategy string        // name of the search strategy, see explore.New
	// RandomShare is the fraction of the priority strategy's choices
	// made at random instead of by priority (explore.Priority).
	RandomShare float64
	// Heuristic is the weight file of the learned strategy (gocolic
	// learn writes it); the learned strategy needs it, no other reads it.
	Heuristic string
	Seed      int64         // seed of every random choice of the run
	Timeout   time.Duration // time limit of one execution
	// MemLimitMB bounds the resident memory of a worker, in MiB; 0 for
	// none.
	MemLimitMB int
	// MaxDepth bounds the symbolic branches explored along one path; 0
	// for none.
	MaxDepth int
	// MaxBugs stops the run once that many distinct findings are known;
	// 0 for no limit.
	MaxBugs int
	// MinimizeTime bounds the search for a smaller input of each finding
	// once the exploration is over; 0 keeps the inputs as found.
	MinimizeTime time.Duration
	// Backoff chooses the branch outcomes asked about less and less
	// often as their queries keep failing (explore.Backoff): BackoffOff,
	// BackoffImplicit or BackoffAll.
	Backoff string
	// Optimistic solves the goal of a failed query alone, without its
	// path condition, and runs the input (optimistic.go).
	Optimistic bool
	// Lanes chooses the search: LanesConcolic, LanesMutate or LanesBoth
	// (lane.go).
	Lanes string
}

// DefaultOptions returns the options of a run that sets none. Workers
// and Budget are left zero: Validate derives them (the number of CPUs;
// DefaultBudget unless Runs bounds the run).
func DefaultOptions() Options {
	return Options{
		Strategy:     "cover",
		RandomShare:  0.1, // not measured: the seed gives no value
		Timeout:      time.Second,
		MemLimitMB:   2048,
		MinimizeTime: 10 * time.Second,
		Backoff:      BackoffImplicit, // measured: on all sites it kept a goal behind the instrumented strings.Fields out of reach; on implicit checks it cut the wasted queries of parsers (ARCHITECTURE.md, query policy)
		Lanes:        LanesBoth,       // measured: the mutation lane keeps real code from stopping exhausted (BENCHMARKS.md, lanes)
	}
}

// The values of Options.Backoff.
const (
	BackoffOff = "off" // every outcome is asked as the strategy orders it
	// BackoffImplicit backs off only the outcomes of the checks the
	// language makes (index and slice bounds, zero divisors, shift
	// counts: sites.Implicit), whose panicking side correct code keeps
	// out of reach: most of a parser's unsatisfiable queries.
	BackoffImplicit = "implicit"
	BackoffAll      = "all" // every branch outcome
)

// DefaultBudget is the budget of a run that gives neither a budget nor a
// number of runs.
const DefaultBudget = 10 * time.Second

// Validate checks the options and gives the unset ones (zero or, for
// Workers, Solvers and Timeout, negative) their defaults. MemLimitMB,
// MaxDepth, MaxBugs and MinimizeTime mean "none" at zero and are kept.
func (o *Options) Validate() error {
	d := DefaultOptions()
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	if o.Solvers <= 0 {
		// Half the workers: measured on 2 shared cores (keywords,
		// header, blind), a second Z3 context beside two workers made
		// each query 2-4 times slower and covered no more; workers
		// idle while they wait for inputs, so larger machines still
		// solve on many cores.
		o.Solvers = max(1, o.Workers/2)
	}
	if o.Budget < 0 || o.Runs < 0 {
		return errors.New("-budget and -runs must not be negative")
	}
	if o.Budget == 0 && o.Runs == 0 {
		o.Budget = DefaultBudget
	}
	if o.Timeout <= 0 {
		o.Timeout = d.Timeout
	}
	if o.Strategy == "" {
		o.Strategy = d.Strategy
	}
	if err := explore.ValidStrategy(o.Strategy); err != nil {
		return err
	}
	if o.RandomShare < 0 || o.RandomShare > 1 {
		return errors.New("-random-share must be between 0 and 1")
	}
	switch {
	case o.Strategy == "learned" && o.Heuristic == "":
		return errors.New("-strategy learned needs -heuristic FILE (a weight file written by gocolic learn)")
	case o.Strategy != "learned" && o.Heuristic != "":
		return fmt.Errorf("-heuristic is read by -strategy learned only, not %s", o.Strategy)
	case o.Heuristic != "":
		if _, err := explore.ReadWeights(o.Heuristic); err != nil {
			return err
		}
	}
	if o.Lanes == "" {
		o.Lanes = d.Lanes
	}
	switch o.Backoff {
	case "":
		o.Backoff = d.Backoff
	case BackoffOff, BackoffImplicit, BackoffAll:
	default:
		return fmt.Errorf("-backoff %q: want off, implicit or all", o.Backoff)
	}
	if err := validLanes(o.Lanes); err != nil {
		return err
	}
	if o.MemLimitMB < 0 || o.MaxDepth < 0 || o.MaxBugs < 0 || o.MinimizeTime < 0 {
		return errors.New("-memlimit, -depth, -maxbugs and -minimizetime must not be negative")
	}
	return nil
}
