// Package coordinator is the coordinator of a run: it keeps the execution tree,
// asks the solver for inputs that reach its open branches, hands the
// inputs to worker processes running the instrumented target, and collects
// what they report (seed 004 §2: the concolic loop, and §4.2: divergence).
//
// One goroutine — the one that calls Run — owns the tree and the strategy;
// a pool of goroutines, each with a solver stack of its own, answers the
// queries it builds (pool.go); one goroutine per worker only executes.
package coordinator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/guard"
	"github.com/gocolic/gocolic/mutate"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// Config is what one run needs: the user's Options, and what the session
// built for the run.
type Config struct {
	Options
	Bin    string     // the instrumented worker binary
	Args   []string   // its arguments
	Dir    string     // the directory it runs in: the package's ("": gocolic's)
	Params []rt.Param // the entry function's parameters
	Sites  []sites.Site
	MaxLen int // bound on the length of string and []byte inputs
	// NewSolver makes one solver stack for a goroutine of the solver
	// pool, and the function that releases it; Run calls it Solvers
	// times, and once more for each solver the watchdog replaces, from
	// the goroutine that called Run, and releases every stack before it
	// returns, but those of abandoned queries, released when they end. Without NewSolver, Solver is the one
	// stack of a pool of one.
	NewSolver func() (solver.Solver, func(), error)
	Solver    solver.Solver
	// SolveBound is the longest a query of these solvers takes when
	// they keep their own time limits (stack.Options.Bound). A query
	// that runs well past it is abandoned with its goroutine, and the
	// goroutine replaced from NewSolver (pool.go's watchdog); 0 turns
	// the watchdog off. A watchdog that fires depends on timing, so it
	// breaks the sameness of -workers 1 -seed N runs, which is kept in
	// every run where no query is stuck.
	SolveBound time.Duration
	// Seeds are the first inputs; without any, the run starts from zero
	// values and empty strings.
	Seeds []sym.Env
	// NoSolve runs the seeds only, solving nothing: it measures the
	// coverage of a given corpus.
	NoSolve bool
	// Inject, if not nil, delivers inputs found elsewhere while the run
	// goes on (a fuzzer's corpus entries); they are run like seeds. A run
	// with Inject does not end when its own search is exhausted, only at
	// the end of its budget.
	Inject <-chan sym.Env
	// Remote, if not nil, runs the inputs and the mutation lane's
	// batches on executors outside this process (package dist), Workers
	// of them at a time, instead of on worker processes of the run's own.
	Remote Remote
	// OnKeep, if not nil, is called with every input the run keeps (it
	// covered something first, or failed in a new way: failed is true),
	// from the goroutine that called Run; it must not block.
	OnKeep func(env sym.Env, failed bool)
	// Opaque makes the workers shadow calls of uninstrumented functions
	// with opaque terms (rt.OpaqueEnv); without it those results are
	// concrete.
	Opaque bool
	// Progress, if not nil, receives a status line every second.
	Progress io.Writer
	// Dict, if not nil, starts the mutation lane's dictionary (the
	// target's constants); the lane adds the constants of the traces.
	Dict *mutate.Dict
	// Static, if not nil, is the static graph of the strategies that
	// ask for one (explore.UsesStatic).
	Static explore.Static
	// Weights, if not nil, are the learned strategy's, instead of those
	// of the file Options.Heuristic names (gocolic learn's samples).
	Weights []float64
	// Props holds the static properties of the branch sites
	// (explore.SitePropsOf), which the learned strategy's features read.
	Props map[uint32]explore.SiteProps
	// Paths makes the run keep one input for each distinct path up to
	// MaxDepth (Report.Suite), the state of the suite (prior.go).
	Paths bool
	// Prior, if not nil, judges every candidate an execution opens by a
	// saved suite (gocolic update, prior.go); the solver is then asked
	// nothing until every seed has run.
	Prior func(c *explore.Candidate) Prior
	// Unreachable are the branch outcomes proved unreachable before the
	// run (claims.go); an execution that covers one refutes them all.
	Unreachable []Claim
	// Pruner, if not nil, judges each new candidate by the monitors of
	// the model checker (prune.go); the workers then trace every
	// execution (rt.Request.Trace).
	Pruner Pruner
	// Rounds, if not nil, delivers the claims of the model checker's
	// rounds during the run (claims.go), which join Unreachable's.
	Rounds <-chan []Claim
	// OnCover, if not nil, is called with every branch outcome the run
	// covers first, from the goroutine that called Run; it must not
	// block. The model checker's rounds aim at the others.
	OnCover func(sites.Outcome)
}

// Execution is one input that a run keeps: it covered something first.
type Execution struct {
	Input   sym.Env
	Results []rt.Result
	Elapsed time.Duration
	// First are the outcomes the input was kept for: those it covered
	// before any other execution of the run, in the order it took them.
	// Minimisation keeps them covered.
	First []sites.Outcome
	// Covers are all the outcomes the input takes.
	Covers []sites.Outcome
	// Minimized says that Input is a smaller input than the one first
	// found, covering First still (minimize.go).
	Minimized bool
}

// Finding is one distinct failure of the target.
type Finding struct {
	Kind    string // "panic" or a CrashKind
	Message string
	Stack   string
	Input   sym.Env
	Count   int // executions that hit it
	Elapsed time.Duration
	// First and Covers are as in Execution; a crash of the worker covers
	// nothing.
	First, Covers []sites.Outcome
	// Minimized says that Input is a smaller input than the one first
	// found, failing in the same way.
	Minimized bool
}

// Point is one sample of the coverage-over-time series.
type Point struct {
	Elapsed  time.Duration
	Execs    int
	Covered  int
	Paths    int
	Findings int
}

// Report is the outcome of a run.
type Report struct {
	Execs       int
	Paths       int
	Elapsed     time.Duration
	Covered     sites.Coverage
	Cases       []Execution
	Findings    []*Finding
	Tree        explore.Stats
	Divergences int
	// DivergedSites counts the divergent executions per branch site of
	// the prediction where they left it (DivergentSites sorts them).
	DivergedSites map[uint32]int
	// Concretised counts the values made concrete, per cause and site,
	// and attributes the divergences to them (concrete.go).
	Concretised Concretisations
	// SolverTime is the time the pool's goroutines spent solving,
	// together: with several, it can exceed Elapsed.
	SolverTime time.Duration
	Queries    map[string]int // path queries: sat, unsat, unknown, error, stuck
	// SiteQueries counts the path queries per branch site (queries.go).
	SiteQueries map[uint32]*SiteQueries
	// Optimistic counts the optimistic queries (queries.go).
	Optimistic OptimisticStats
	// Stuck counts the queries the pool's watchdog gave up on, and what
	// became of their solvers (pool.go).
	Stuck StuckStats
	// Deferred counts the candidates the back-off put aside
	// (explore.Backoff).
	Deferred  int
	Timeline  []Point
	Exhausted bool // every open branch was tried: the search is complete
	Stopped   string
	Restarts  int
	// SlowTracked counts the executions that exceeded the time limit
	// with symbolic tracking but ended in time without it: the cost of
	// tracking, not a hang of the target, so they are not findings.
	SlowTracked int
	// SlowRetried counts the executions that exceeded the time limit
	// with symbolic tracking, ended in time without it, and then ended
	// with tracking within slowFactor times the limit: their paths were
	// explored (confirmTimeout).
	SlowRetried int
	// StateDependent are the failures that did not recur when their
	// input ran alone, in a worker process of its own: they depended on
	// what earlier executions left in the process (package-level state),
	// so they are not findings (alone.go). Alone counts the check.
	StateDependent []*Finding
	Alone          AloneStats
	// ExecTime is the time workers spent inside executions, without
	// the coordinator, the solver and the pipes.
	ExecTime time.Duration
	// CPU is the CPU time of gocolic's own process during the
	// exploration: the coordinator and the solvers, not the workers
	// (zero where it cannot be measured). With the solvers' time
	// (Queries' layers) it tells what the coordinator costs per
	// execution, the number a model of scaling needs.
	CPU time.Duration
	// MinimizeExecs counts the executions spent minimising findings and
	// cases, MinimizeElapsed the time.
	MinimizeExecs   int
	MinimizeElapsed time.Duration
	// CasesFound counts the cases the exploration kept, before the final
	// pass reduced them to Cases (minimize.go).
	CasesFound int
	// Injected counts the inputs taken from Config.Inject.
	Injected int
	// AliasFallbacks counts the models whose pointer choices stayed the
	// solver's: their canonical form broke the query (alias.go).
	AliasFallbacks int
	// Lanes counts the work and the finds of each lane (lane.go).
	Lanes LaneStats
	// InternalErrors are the failures of gocolic's own code the run
	// survived or ended with (internal.go).
	InternalErrors []*InternalError
	// Suite holds one input per distinct path, in the order the paths
	// were first taken (Config.Paths).
	Suite []PathInput
	// Update is what Config.Prior decided.
	Update UpdateStats
	// Unreachable are the claims of Config.Unreachable that stand at the
	// end: all of them, or none once an execution refuted one (claims.go).
	Unreachable []Claim
	// Prune counts what the monitors of Config.Pruner did (prune.go).
	Prune PruneStats
}

// LaneStats counts what each lane did and what they handed each other.
type LaneStats struct {
	// ConcolicExecs counts the concolic lane's executions, its traces of
	// the mutation lane's inputs among them; ConcolicKept the inputs it
	// found itself (seeds and solver answers) that covered an outcome
	// first.
	ConcolicExecs, ConcolicKept int
	// MutationExecs counts the inputs run in batches; MutationKept those
	// that reached a new outcome or hit-count bucket.
	MutationExecs, MutationKept int
	// Traced counts the mutation lane's inputs the concolic lane traced
	// (those covering an outcome first); Seeded the concolic lane's kept
	// inputs handed to the mutation lane's corpus.
	Traced, Seeded int
	// DutyHeld counts the times the solver was held back, its share of
	// the pool's time below the whole while the concolic lane found less
	// per CPU-second than the mutation lane (duty.go); DutyTime is how
	// long its share was below the whole in all.
	DutyHeld int
	DutyTime time.Duration
}

type job struct {
	env    sym.Env
	origin *explore.Candidate
	// optimistic is the candidate whose goal an optimistic query solved
	// for this input; origin is nil then.
	optimistic *explore.Candidate
	batch      *laneBatch // a batch of the mutation lane, instead of env
	lane       bool       // env is an input the mutation lane kept, to trace
	// later: the input was traced before, its path set aside (lane.go),
	// and now joins the tree.
	later bool
	// seed is 1 + the index of the seed the input is, 0 for others.
	seed int
}

type outcome struct {
	job   job
	resp  *rt.Response
	crash *Crash
	err   error
	// slow: the execution timed out under tracking and resp is its run
	// without tracking (confirmTimeout), or it panicked in gocolic's
	// runtime and resp is that run (fault says how).
	slow bool
	// fault is a panic of gocolic's runtime in the tracked execution,
	// which the run without tracking did not repeat (confirmPanic).
	fault *rt.Response
	// retried: the execution timed out under tracking and resp is its
	// second tracked run, within the longer limit (retryTracked).
	retried bool
	// A batch's results, and the crashes of its inputs (lane.go).
	bresp   *rt.BatchResponse
	crashes map[int]*Crash
	// lost: the input went to a remote executor and none reported
	// before the run stopped (remote.go); nothing ran.
	lost bool
}

// Run explores the target until the budget is spent, the search space is
// exhausted, or ctx is cancelled; it returns what it found in every case.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Workers < 1 {
		cfg.Workers = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultOptions().Timeout
	}
	d := &coordinator{
		cfg:      cfg,
		b:        sym.NewBuilder(),
		rep:      &Report{Covered: sites.Coverage{}, Queries: map[string]int{}, SiteQueries: map[uint32]*SiteQueries{}},
		start:    time.Now(),
		cpu0:     processCPU(),
		seen:     map[string]*Finding{},
		stopping: make(chan struct{}),
		rng:      rand.New(rand.NewPCG(uint64(cfg.Seed), 0x9e3779b97f4a7c15)),
		optFails: map[uint32]uint32{},
		optOut:   map[uint32]bool{},
	}
	d.tree = explore.NewTree(d.b, explore.Options{MaxDepth: cfg.MaxDepth})
	strat, err := newStrategy(cfg, d.isStd)
	if err != nil {
		return nil, err
	}
	d.strat = strat
	switch cfg.Backoff {
	case BackoffAll:
		d.backoff = explore.NewBackoff(strat, explore.DefaultBackoff())
	case BackoffImplicit:
		o := explore.DefaultBackoff()
		implicit := map[uint32]bool{}
		for _, s := range cfg.Sites {
			if s.Kind == sites.Implicit {
				implicit[s.ID] = true
			}
		}
		o.Only = func(site uint32) bool { return implicit[site] }
		d.backoff = explore.NewBackoff(strat, o)
	}
	if d.backoff != nil {
		d.strat = d.backoff
	}
	d.offs = rt.Layout(cfg.Params, cfg.MaxLen)
	d.domain()
	d.tree.Assume(d.limits...)
	d.alias = newAliasGraph(d.b, cfg.Params, d.offs)
	if cfg.Lanes != LanesConcolic && cfg.Lanes != "" && !cfg.NoSolve {
		d.lane = newLane(cfg.Params, cfg.MaxLen, cfg.Timeout, cfg.Dict, cfg.Seed, cfg.Seeds)
	}
	for _, s := range cfg.Sites {
		if s.Kind == sites.Cond && !s.Std { // the target's: std sites count apart
			d.condSites++
		}
	}
	d.claims(cfg.Unreachable)
	// A panic of the loop (or of a worker's exchange) ends the run, not
	// the process: what was found so far is returned and written.
	err = guard.Do("coordinator", func() error { return d.loop(ctx) })
	d.internal(err, "the run ends with what it found")
	if guard.As(err) != nil && d.rep.Stopped == "" {
		d.rep.Stopped = "internal error"
	}
	d.rep.Elapsed = time.Since(d.start)
	if c := processCPU(); c > 0 {
		d.rep.CPU = c - d.cpu0
	}
	// A finished run checks that each finding fails alone, before it
	// spends minimisation on any (alone.go).
	if err == nil && ctx.Err() == nil {
		aerr := guard.Do("alone", func() error {
			d.checkAlone(ctx, aloneLimits{runs: aloneRuns, frame: aloneFrame})
			return nil
		})
		d.internal(aerr, "findings stay as they were found")
	}
	// An interrupted run ends now; a finished one minimises its findings,
	// after the exploration's budget and outside its statistics.
	if err == nil && d.cfg.MinimizeTime > 0 && ctx.Err() == nil {
		err = guard.Do("minimize", func() error { return d.minimize(ctx) })
		if guard.As(err) != nil {
			// Recorded and said: it costs the minimisation, not the run.
			d.internal(err, "findings and cases keep the inputs found")
			err = nil
		}
	}
	d.rep.CasesFound = len(d.rep.Cases)
	if d.lane != nil {
		d.rep.Lanes.MutationExecs, d.rep.Lanes.MutationKept, d.rep.Lanes.Seeded = d.lane.Execs, d.lane.Kept, d.lane.Seeded
		d.rep.Lanes.DutyHeld, d.rep.Lanes.DutyTime = d.duty.Held, d.duty.Time
	}
	if err == nil && !d.cfg.NoSolve {
		d.reduce() // a replay reports the corpus as it is
	}
	d.rep.Update.Unrun = d.seedsLeft
	d.rep.Tree = d.tree.Stats()
	d.rep.Prune.Covered = d.prunedCovered()
	d.rep.Paths = d.rep.Tree.Paths
	d.rep.Divergences = d.rep.Tree.Divergences
	if d.backoff != nil {
		d.rep.Deferred = d.backoff.Deferrals
	}
	d.sample()
	return d.rep, err
}

// newStrategy returns the run's search strategy; the learned one reads
// its weights from Config.Weights or else from the file -heuristic names.
func newStrategy(cfg Config, isStd func(uint32) bool) (explore.Strategy, error) {
	ec := explore.Config{Seed: cfg.Seed, Std: isStd, RandomShare: cfg.RandomShare, Static: cfg.Static}
	if cfg.Strategy == "learned" {
		ec.Weights, ec.Sites, ec.Props = cfg.Weights, cfg.Sites, cfg.Props
		if ec.Weights == nil {
			w, err := explore.ReadWeights(cfg.Heuristic)
			if err != nil {
				return nil, err
			}
			ec.Weights = w.Weights
		}
	}
	return explore.New(cfg.Strategy, ec)
}

type coordinator struct {
	cfg     Config
	b       *sym.Builder
	dec     *sym.Decoder
	tree    *explore.Tree
	strat   explore.Strategy
	backoff *explore.Backoff // strat, unless Options.Backoff is off
	// slowMisses counts the second tries of slow tracked executions
	// that timed out again (retryTracked); worker goroutines share it.
	slowMisses  atomic.Int32
	rep         *Report
	start       time.Time
	cpu0        time.Duration // processCPU at start
	offs        []int
	limits      []*sym.Expr // domain constraints of the inputs
	alias       *aliasGraph // decides which pointer inputs alias (alias.go)
	seen        map[string]*Finding
	rng         *rand.Rand
	condSites   int
	covered     int
	claimed     map[sites.Outcome]Claim      // the standing claims of Config.Unreachable (claims.go)
	heldClaimed []*explore.Candidate         // candidates held back by a claim (claims.go)
	pruned      map[int][]*explore.Candidate // the candidates each monitor held back (prune.go)
	dropped     map[int]bool                 // the monitors an alarm dropped (prune.go)
	refuted     bool                         // an execution refuted a claim: no claim stands (claims.go)
	lastShow    time.Time
	pool        *pool
	// stopping is closed when the run stops (the budget, the runs, a
	// finding limit): a worker bisecting a crashed batch ends there, so
	// that the run ends in time (laneWorker.run).
	stopping  chan struct{}
	stopOnce  sync.Once
	minSolver solver.Solver // the minimiser's (minimize.go)
	// minAbandoned is set when a query of minSolver was given up while
	// still running: its stack must then not be released under it.
	minAbandoned bool
	solveCtx     context.Context   // the context queries are solved under
	optQueue     []request         // optimistic queries waiting for the pool
	optFails     map[uint32]uint32 // failed path queries by uncovered outcome
	optOut       map[uint32]bool   // outcomes with an optimistic query or input under way
	lane         *lane             // the mutation lane, nil without one (lane.go)
	traceLane    []job             // inputs the mutation lane kept, for the concolic lane to trace
	aside        []job             // inputs of the mutation lane whose paths wait for the tree (lane.go)
	dry          bool              // the strategy had no candidate when last asked
	lockstep     bool              // one worker and one solver: events in an order no timing changes (lane.go)
	barren       int               // path queries answered since the concolic lane last covered something
	duty         duty              // the solver's share of the pool by the lanes' yields (duty.go)
	// The update run's (prior.go): seeds not yet taken in, candidates of
	// changed ranges, candidates put off, and the paths kept.
	seedsLeft int
	changed   []*explore.Candidate
	later     []*explore.Candidate
	pathKeys  map[[16]byte]bool
}

// domain builds the constraints every input satisfies: lengths of strings
// and byte slices are at most MaxLen, bounded inputs (lengths of slices
// and maps, pointer choices) at most their Max.
func (d *coordinator) domain() {
	for i, p := range d.cfg.Params {
		switch {
		case p.Kind == rt.ParamString || p.Kind == rt.ParamBytes:
			v := d.b.Var(uint64(d.offs[i]), 64)
			d.limits = append(d.limits, d.b.Cmp(sym.KULe, v, d.b.Const(uint64(d.cfg.MaxLen), 64)))
		case p.Max != 0:
			v := d.b.Var(uint64(d.offs[i]), p.Width)
			d.limits = append(d.limits, d.b.Cmp(sym.KULe, v, d.b.Const(p.Max, p.Width)))
		}
	}
}

// seedInput returns the first input: zeros and empty strings.
func (d *coordinator) seedInput() sym.Env { return sym.Env{} }

func (d *coordinator) loop(ctx context.Context) error {
	jobs := make(chan job)
	results := make(chan outcome, d.cfg.Workers)
	wctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	startErr := make(chan error, d.cfg.Workers)
	if d.cfg.Remote != nil {
		lost, cancelLost := d.lostContext()
		defer cancelLost()
		for range d.cfg.Workers {
			go d.remoteLoop(wctx, lost, jobs, results)
		}
	} else {
		for range d.cfg.Workers {
			go d.workerLoop(wctx, jobs, results, startErr)
		}
	}
	var queue []job
	for i, s := range d.cfg.Seeds {
		queue = append(queue, job{env: s, seed: i + 1})
	}
	if d.cfg.Prior != nil {
		d.seedsLeft = len(d.cfg.Seeds)
	}
	if len(queue) == 0 {
		queue = []job{{env: d.seedInput()}}
	}
	inflight := 0
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	// The budget bounds the solver too: a query still running when it
	// ends is interrupted.
	budgetCtx := ctx
	if d.cfg.Budget > 0 {
		var stopBudget context.CancelFunc
		budgetCtx, stopBudget = context.WithTimeout(ctx, d.cfg.Budget)
		defer stopBudget()
	}
	stop := func(why string) {
		if d.rep.Stopped == "" {
			d.rep.Stopped = why
		}
		d.stopOnce.Do(func() { close(d.stopping) })
	}
	d.solveCtx = budgetCtx
	p, err := d.startPool(budgetCtx)
	if err != nil {
		stop("error")
		return err
	}
	d.pool = p
	defer p.close()
	d.lockstep = d.cfg.Workers == 1 && p.size == 1
	if d.lane != nil {
		d.lane.fixed = d.lockstep
	}
	// withBatches: in lockstep beside the mutation lane, whose batch the
	// one worker runs while the loop waits for an answer.
	withBatches := d.lockstep && d.lane != nil
	// Queries being solved count as inputs to come: room bounds them
	// with the queued inputs, as the queue alone was bounded when one
	// goroutine solved.
	room := max(d.cfg.Workers, p.size)
	done := budgetCtx.Done()
	inject := d.cfg.Inject
	rounds := d.cfg.Rounds
	for {
		budgetLeft := d.cfg.Runs == 0 || d.rep.Execs+inflight < d.cfg.Runs
		// Keep the pool busy while workers are. A pool of one is waited
		// for, answer by answer, so that the order of events does not
		// depend on timing: with one worker also beside the mutation
		// lane (lockstep), whose batch then runs during the wait; with
		// more workers the mutation lane's batches use the wait instead.
		// Batches do not count: they only fill workers the concolic
		// lane leaves idle.
		yielded := false // the solver stopped with candidates left
		// In lockstep an idle worker gets its job (a batch, unless the
		// mutation lane yields) before the loop waits for an answer,
		// so that the job runs during the wait.
		if withBatches && d.rep.Stopped == "" && budgetLeft && inflight == 0 {
			queue = d.laneJobs(queue, inflight, true)
		}
		sendFirst := withBatches && inflight == 0 && len(queue) > 0
		for waiting := concolicJobs(queue); !sendFirst && d.rep.Stopped == "" && budgetLeft && d.solving() && budgetCtx.Err() == nil && p.idle() && d.onDuty() &&
			waiting+p.busy < room && inflight+waiting+p.busy < d.cfg.Workers+room; waiting = concolicJobs(queue) {
			r, ok := d.nextRequest()
			if !ok {
				d.dry = true
				break
			}
			d.dry = false
			p.send(r)
			if p.size == 1 && (d.lane == nil || d.lockstep) {
				a, ok := d.await(budgetCtx)
				// In lockstep a query the solver gave up on
				// (at its timeout, seconds each) hands the
				// worker back to the mutation lane for a round:
				// a chain of them kept the worker idle
				// (go-version: 112 s before the second
				// execution). Unknown answers depend on time
				// already, so this adds no nondeterminism.
				if !ok && budgetCtx.Err() == nil {
					if withBatches {
						yielded = true
						break
					}
					continue // given up by the watchdog: the next query
				}
				if !ok {
					break // stuck past the budget: the loop stops the run
				}
				if j, ok := d.take(a); ok {
					queue = append(queue, j)
				} else if withBatches && (a.err != nil || a.res.Status == solver.Unknown) {
					yielded = true
					break
				}
			}
		}
		if d.lane != nil && d.rep.Stopped == "" && budgetLeft {
			if d.dry && p.busy == 0 || d.barren >= barrenQueries {
				queue = d.release(queue)
			}
			queue = d.laneJobs(queue, inflight, p.busy > 0)
		}
		if d.rep.Stopped == "" && !budgetLeft && inflight == 0 {
			stop("runs") // even with seeds still queued
		}
		if d.rep.Stopped == "" && len(queue) == 0 && inflight == 0 && p.busy == 0 && len(d.optQueue) == 0 && !yielded {
			switch {
			case !budgetLeft:
				stop("runs")
			case budgetCtx.Err() != nil:
				// The strategy ran dry because the budget interrupted
				// the solver: the select below records why.
			case d.cfg.NoSolve:
				stop("replayed")
			case inject != nil:
				// Wait for inputs from elsewhere until the budget ends.
				d.rep.Exhausted = true
			case p.live() == 0:
				// Every solver is stuck in a query the watchdog gave
				// up on, and none could be replaced: the search is
				// not exhausted, it cannot go on.
				stop("solver stuck")
			default:
				d.rep.Exhausted = true
				stop("exhausted")
			}
		}
		if d.rep.Stopped != "" && inflight == 0 {
			cancel()
			d.drain()
			// The claims of rounds that have ended are taken in.
			for rounds != nil {
				select {
				case cs, ok := <-rounds:
					if !ok {
						rounds = nil
					} else {
						d.addClaims(cs)
					}
				default:
					rounds = nil
				}
			}
			return nil
		}
		var send chan job
		var next job
		if d.rep.Stopped == "" && len(queue) > 0 && budgetLeft && (!d.lockstep || inflight == 0) {
			// In lockstep a job goes out only after the last one's
			// outcome was taken in, in the order queued, so that the
			// lanes alternate (laneJobs); otherwise the concolic lane's
			// inputs go first.
			if !d.lockstep {
				front(queue)
			}
			send, next = jobs, queue[0]
		}
		select {
		case send <- next:
			queue = queue[1:]
			inflight++
		case a := <-p.answers:
			if !d.accept(a) {
				break // late: its query was given up
			}
			if j, ok := d.take(a); ok && d.rep.Stopped == "" {
				queue = append(queue, j)
			}
		case <-p.watch():
			d.unstick()
		case o := <-results:
			inflight--
			if o.err != nil {
				stop("error")
				cancel()
				// Drain the others before returning.
				for ; inflight > 0; inflight-- {
					<-results
				}
				return o.err
			}
			d.process(o)
			if d.cfg.MaxBugs > 0 && len(d.rep.Findings) >= d.cfg.MaxBugs {
				stop("maxbugs")
			}
		case err := <-startErr:
			stop("error")
			for ; inflight > 0; inflight-- {
				<-results
			}
			return err
		case env, ok := <-inject:
			if !ok {
				inject = nil // nothing more will come
			} else if d.rep.Stopped == "" {
				queue = append(queue, job{env: env})
				d.rep.Injected++
				d.rep.Exhausted = false
			}
		case cs, ok := <-rounds:
			if !ok {
				rounds = nil
			} else {
				d.addClaims(cs)
			}
		case <-tick.C:
			d.progress(false)
		case <-done:
			done = nil // stopped: wait for the executions in flight
			if ctx.Err() != nil {
				stop("interrupted")
			} else {
				stop("budget")
			}
		}
	}
}

// await waits for the answer of a pool of one, and accepts it; once ctx
// has ended, at most shutdownGrace longer (pool.close). It returns false
// without an answer then, or when the watchdog gave the query up
// (unstick). Late answers of abandoned queries are dropped on the way.
func (d *coordinator) await(ctx context.Context) (answer, bool) {
	p := d.pool
	for ctx.Err() == nil {
		select {
		case a := <-p.answers:
			if d.accept(a) {
				return a, true
			}
		case <-p.watch():
			d.unstick()
			if p.busy == 0 {
				return answer{}, false
			}
		case <-ctx.Done():
		}
	}
	grace := time.After(shutdownGrace)
	for {
		select {
		case a := <-p.answers:
			if d.accept(a) {
				return a, true
			}
		case <-grace:
			p.stuck = true
			return answer{}, false
		}
	}
}

// drain interrupts the queries still being solved when the run stops and
// takes in their answers, waiting at most shutdownGrace, so that every
// query asked is counted and its candidate resolved; the inputs they give
// are not run.
func (d *coordinator) drain() {
	p := d.pool
	p.cancel()
	grace := time.After(shutdownGrace)
	for p.busy > 0 && !p.stuck {
		select {
		case a := <-p.answers:
			if d.accept(a) {
				d.take(a)
			}
		case <-grace:
			p.stuck = true // a query ignores its interruption (pool.close)
		}
	}
}

// spec describes the workers of this run.
func (d *coordinator) spec() spec {
	return workerSpec(d.cfg.Bin, d.cfg.Args, d.cfg.Dir, d.cfg.Timeout, uint64(d.cfg.MemLimitMB)<<20, d.cfg.Opaque)
}

func workerSpec(bin string, args []string, dir string, timeout time.Duration, memLimit uint64, opaque bool) spec {
	sp := spec{bin: bin, args: args, dir: dir, timeout: timeout, memLimit: memLimit}
	if opaque {
		sp.env = []string{rt.OpaqueEnv + "=1"}
	}
	return sp
}

// workerLoop runs jobs in one worker process, replacing it when it dies.
func (d *coordinator) workerLoop(ctx context.Context, jobs <-chan job, results chan<- outcome, startErr chan<- error) {
	x := d.execer()
	w, err := startWorker(x.sp)
	if err != nil {
		startErr <- err
		return
	}
	defer func() { w.close() }()
	lw := &laneWorker{w: w, start: func() (*worker, error) { return startWorker(x.sp) }, stopping: d.stopping}
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-jobs:
			var o outcome
			if j.batch != nil {
				w, o = lw.runJob(d.lane, w, j)
			} else {
				w, o = x.exec(w, j)
			}
			results <- o
			if o.err != nil {
				return
			}
		}
	}
}

// execer runs the concolic lane's inputs on a worker process: the
// execution, and the second runs that tell a crash of the target from one
// of tracking (confirmPanic, confirmTimeout, retryTracked). The worker
// goroutines of a run use it, and so do executors in other processes
// (Executor), which is why it holds copies of the run's settings rather
// than the coordinator.
type execer struct {
	sp      spec
	maxLen  int
	trace   bool
	timeout time.Duration
	// end is when the run's budget ends (zero: no time budget); a second
	// try that cannot end before it is not started.
	end time.Time
	// slowMisses counts the second tries of slow tracked executions that
	// timed out again (retryTracked), shared by the run's executors.
	slowMisses *atomic.Int32
	// stopping is closed when the run stops.
	stopping <-chan struct{}
}

// execer returns the run's execer.
func (d *coordinator) execer() *execer {
	x := &execer{sp: d.spec(), maxLen: d.cfg.MaxLen, trace: d.cfg.Pruner != nil, timeout: d.cfg.Timeout,
		slowMisses: &d.slowMisses, stopping: d.stopping}
	if d.cfg.Budget > 0 {
		x.end = d.start.Add(d.cfg.Budget)
	}
	return x
}

// exec runs the input of job j on w and returns the worker to go on with
// (w, or its replacement when the execution killed it) and the outcome.
// An outcome with an error leaves no worker to go on with.
func (x *execer) exec(w *worker, j job) (*worker, outcome) {
	// replace kills w and starts another; it returns the error of one
	// that did not start.
	replace := func() error {
		w.kill()
		nw, err := startWorker(x.sp)
		if err != nil {
			return err
		}
		w = nw
		return nil
	}
	q := &rt.Request{Env: j.env, MaxLen: x.maxLen, Trace: x.trace}
	resp, crash, err := runJob(w, q)
	if crash == nil && err == nil && runtimePanic(resp) {
		c, ok, dead := confirmPanic(w, q, resp)
		if dead {
			if err := replace(); err != nil {
				return w, outcome{job: j, err: err}
			}
		}
		if !ok {
			return w, outcome{job: j, resp: c, slow: true, fault: resp}
		}
	}
	if crash != nil {
		if err := replace(); err != nil {
			return w, outcome{job: j, err: err}
		}
		if crash.Kind == CrashExit && strings.HasPrefix(crash.Message, "worker failed") {
			return w, outcome{job: j, err: errors.New(crash.Message)}
		}
		if crash.Kind == CrashTimeout {
			return x.confirmTimeout(w, j, q, crash)
		}
	}
	return w, outcome{job: j, resp: resp, crash: crash, err: err}
}

// confirmTimeout runs the input of job j, whose execution timed out, again
// on the fresh worker w, without symbolic tracking. If that run ends in
// time, the timeout was the cost of tracking, not a hang of the target:
// the outcome is slow, with the concrete run's response (a panic in it is
// still a finding). Otherwise the outcome is the crash, the timeout
// unless the concrete run crashed otherwise, and the worker is replaced
// again.
func (x *execer) confirmTimeout(w *worker, j job, q *rt.Request, timeout *Crash) (*worker, outcome) {
	cq := *q
	cq.Concrete = true
	resp, crash, err := w.run(&cq)
	switch {
	case err != nil:
		return w, outcome{job: j, err: err}
	case crash == nil:
		return x.retryTracked(w, j, q, resp)
	case crash.Kind == CrashTimeout:
		crash = timeout
	}
	w.kill()
	nw, err := startWorker(x.sp)
	if err != nil {
		return w, outcome{job: j, err: err}
	}
	return nw, outcome{job: j, crash: crash}
}

// The second, longer try of an execution that was slow only with
// tracking (retryTracked).
const (
	// slowFactor times -timeout is the second try's limit: tracked code
	// runs 10–100 times slower than the original (BENCHMARKS.md), so an
	// input near the limit natively can need that much with tracking.
	slowFactor = 10
	// maxSlowMisses ends second tries for the run once that many have
	// timed out again: a target whose tracked runs are that slow would
	// spend its budget waiting on them.
	maxSlowMisses = 3
)

// retryTracked runs q, whose tracked execution timed out and whose
// concrete one (concrete, on w) ended in time, with tracking again within
// slowFactor times the time limit, so that its path reaches the tree: a
// seed slow only with tracking otherwise left the concolic search without
// a path (go-version under load stopped exhausted after its two seeds).
// The target does not hang on q, so the longer wait is bounded by
// tracking's cost. Second tries stop for the run after maxSlowMisses of
// them time out again, and none starts without the time for it left in
// the budget; otherwise, and when the second try fails too, the outcome
// is slow, with the concrete run's response.
func (x *execer) retryTracked(w *worker, j job, q *rt.Request, concrete *rt.Response) (*worker, outcome) {
	slow := outcome{job: j, resp: concrete, slow: true}
	limit := slowFactor * x.timeout
	if !x.end.IsZero() && time.Until(x.end) < limit || x.slowMisses.Load() >= maxSlowMisses {
		return w, slow
	}
	select {
	case <-x.stopping:
		return w, slow
	default:
	}
	resp, crash, err := w.runWithin(q, limit)
	switch {
	case err != nil:
		return w, outcome{job: j, err: err}
	case crash == nil && !runtimePanic(resp):
		return w, outcome{job: j, resp: resp, retried: true}
	case crash == nil:
		return w, slow // the runtime's panic: the concrete run stands for it
	}
	// Timed out again, or crashed only with tracking (its memory): the
	// concrete run stands for the execution.
	x.slowMisses.Add(1)
	w.kill()
	nw, err := startWorker(x.sp)
	if err != nil {
		return w, outcome{job: j, err: err}
	}
	return nw, slow
}

// process takes in one execution's outcome.
func (d *coordinator) process(o outcome) {
	if o.job.batch != nil {
		d.processBatch(o)
		return
	}
	if o.lost {
		d.seedDone(o.job)
		return
	}
	d.rep.Execs++
	d.rep.Lanes.ConcolicExecs++
	defer d.seedDone(o.job)
	if c := o.job.optimistic; c != nil {
		delete(d.optOut, outcomeOf(c))
	}
	elapsed := time.Since(d.start)
	if o.crash != nil {
		n := len(d.rep.Findings)
		d.restartFinding(o, elapsed)
		if d.cfg.OnKeep != nil && len(d.rep.Findings) > n {
			d.cfg.OnKeep(o.job.env, true)
		}
		if o.job.origin != nil {
			// The run left no path; its candidate stays unreached.
			d.tree.Resolve(o.job.origin, solver.Unknown)
		}
		d.strat.Update(explore.Feedback{Event: explore.Lost, Origin: o.job.origin})
		return
	}
	if o.retried {
		d.rep.SlowRetried++
	}
	if o.slow {
		if o.fault != nil {
			d.rep.addInternal("worker", "panic in gocolic's runtime: "+o.fault.Panic, o.fault.Stack)
		}
		d.processSlow(o, elapsed)
		return
	}
	resp := o.resp
	d.rep.ExecTime += time.Duration(resp.Nanos)
	if d.dec == nil {
		d.dec = sym.NewDecoder(d.b)
	}
	path := make([]explore.Branch, 0, len(resp.Path))
	if err := d.dec.Decode(resp.Exprs); err == nil {
		for _, e := range resp.Path {
			c, err := d.dec.Node(e.Cond)
			if err != nil || !c.IsBool() {
				break
			}
			path = append(path, explore.Branch{Site: e.Site, Taken: e.Taken, Cond: c})
		}
	}
	var out explore.Outcome
	aside := o.job.lane && !o.job.later && d.cfg.Lanes == LanesBoth
	if aside {
		d.setAside(o.job) // its coverage counts now, its path later
	} else {
		out = d.tree.Record(path, o.job.env, o.job.origin)
		out.NewCandidates = d.holdClaimed(d.prune(resp, d.judge(out.NewCandidates)))
		d.keepPath(o.job, path, resp)
	}
	divergedAt := -1
	if out.Diverged {
		divergedAt = out.DivergedAt
		if d.rep.DivergedSites == nil {
			d.rep.DivergedSites = map[uint32]int{}
		}
		d.rep.DivergedSites[out.DivergedSite]++
	}
	d.rep.Concretised.Add(resp.Concrete, divergedAt)
	fb := explore.Feedback{Event: explore.Ran, Origin: o.job.origin, Outcome: out, Hits: make([]explore.Hit, len(resp.Hits))}
	for i, h := range resp.Hits {
		so := uint32(h >> 32) // site<<1 | outcome
		fb.Hits[i] = explore.Hit{Site: so >> 1, Side: so&1 == 1, Count: uint32(h)}
	}
	fresh := resp.Fresh
	if o.job.lane {
		// The worker's map holds what the batch covered: the run's
		// coverage is the judge of what this input adds.
		fresh = d.freshOf(resp.Hits)
	}
	first, freshCover := d.addCover(fresh, o.job.env)
	fb.Fresh = freshCover
	switch {
	case aside:
		// The strategy is not told: an outcome it counted as covered
		// would demote the concolic lane's candidates for it, with no
		// path of its own beyond.
	case o.job.later:
		// Now that its path joins the tree, the strategy learns what
		// it covered.
		sfb := fb
		sfb.Fresh = sites.Coverage{}
		for _, h := range fb.Hits {
			sfb.Fresh.Add(h.Site, h.Side)
		}
		d.strat.Update(sfb)
	default:
		d.strat.Update(fb)
	}
	if c := o.job.optimistic; c != nil && fb.Fresh.Has(c.Node.Site, c.Side) {
		d.rep.Optimistic.Reached++
	}
	newCover := fb.NewCover()
	findings := len(d.rep.Findings)
	switch {
	case resp.Status == rt.StatusPanic:
		d.addFinding("panic", resp.Panic, resp.Stack, o.job.env, elapsed).cover(first, resp)
	case resp.Status == rt.StatusFail:
		d.addFinding("fail", resp.Panic, resp.Stack, o.job.env, elapsed).cover(first, resp)
	case newCover || len(d.rep.Cases) == 0:
		d.rep.Cases = append(d.rep.Cases, Execution{Input: o.job.env, Results: resp.Results, Elapsed: elapsed, First: first, Covers: covers(resp)})
	}
	if failed := len(d.rep.Findings) > findings; d.cfg.OnKeep != nil && (newCover || failed) {
		d.cfg.OnKeep(o.job.env, failed)
	}
	if newCover {
		d.sample()
	}
	if newCover && !o.job.lane {
		d.rep.Lanes.ConcolicKept++
		d.barren = 0
		d.duty.concolic.add(time.Now(), 1, 0)
	}
	if d.lane != nil {
		d.learnLane(o.job, resp.Hits, path, newCover)
	}
}

// addCover records the outcomes fresh (site<<1 | outcome) that env covered
// and returns those the run had not covered, also as a set (nil when none).
func (d *coordinator) addCover(fresh []uint32, env sym.Env) ([]sites.Outcome, sites.Coverage) {
	var first []sites.Outcome
	var set sites.Coverage
	for _, f := range fresh {
		site, side := f>>1, f&1 == 1
		if d.rep.Covered.Add(site, side) {
			d.refute(sites.Outcome(f), env)
			if d.cfg.OnCover != nil {
				d.cfg.OnCover(sites.Outcome(f))
			}
			first = append(first, sites.Outcome(f))
			if set == nil {
				set = sites.Coverage{}
			}
			set.Add(site, side)
			if d.isCond(site) {
				d.covered++
			}
		}
	}
	return first, set
}

// processSlow takes in an execution that only the run without tracking
// finished in time: it has no path, so its candidate stays unreached, but
// what that run covered counts, an input that covers something first is
// kept as a case (and in the corpus), and a panic or failure of the
// target in it is a finding.
func (d *coordinator) processSlow(o outcome, elapsed time.Duration) {
	d.rep.SlowTracked++
	d.rep.ExecTime += time.Duration(o.resp.Nanos)
	if o.job.origin != nil {
		d.tree.Resolve(o.job.origin, solver.Unknown)
	}
	d.strat.Update(explore.Feedback{Event: explore.Lost, Origin: o.job.origin})
	first, _ := d.addCover(d.freshOf(o.resp.Hits), o.job.env)
	n := len(d.rep.Findings)
	switch {
	case o.resp.Status == rt.StatusPanic:
		d.addFinding("panic", o.resp.Panic, o.resp.Stack, o.job.env, elapsed).cover(first, o.resp)
	case o.resp.Status == rt.StatusFail:
		d.addFinding("fail", o.resp.Panic, o.resp.Stack, o.job.env, elapsed).cover(first, o.resp)
	case len(first) > 0:
		d.rep.Cases = append(d.rep.Cases, Execution{Input: o.job.env, Results: o.resp.Results, Elapsed: elapsed, First: first, Covers: covers(o.resp)})
	}
	failed := len(d.rep.Findings) > n
	if d.cfg.OnKeep != nil && (failed || len(first) > 0) {
		d.cfg.OnKeep(o.job.env, failed)
	}
	if len(first) > 0 {
		d.sample()
	}
	if d.lane != nil {
		d.learnLane(o.job, o.resp.Hits, nil, len(first) > 0)
	}
}

// isStd reports whether site belongs to a standard package instrumented
// in place.
func (d *coordinator) isStd(site uint32) bool {
	return int(site) < len(d.cfg.Sites) && d.cfg.Sites[site].Std
}

func (d *coordinator) isCond(site uint32) bool {
	return int(site) < len(d.cfg.Sites) && d.cfg.Sites[site].Kind == sites.Cond && !d.cfg.Sites[site].Std
}

func (d *coordinator) restartFinding(o outcome, elapsed time.Duration) {
	d.rep.Restarts++
	d.addFinding(string(o.crash.Kind), o.crash.Message, o.crash.Output, o.job.env, elapsed)
}

// addFinding records a failure, once per kind, message and place: the
// numbers in a message (the index of an index-out-of-range error) and
// the text of its quoted strings (the input a property check prints) do
// not tell failures apart. The first input is kept; the finding returned is
// nil when it is not the first.
func (d *coordinator) addFinding(kind, msg, stack string, env sym.Env, elapsed time.Duration) *Finding {
	key := findingKey(kind, msg, stack)
	if f, ok := d.seen[key]; ok {
		f.Count++
		return nil
	}
	f := &Finding{Kind: kind, Message: msg, Stack: stack, Input: env, Count: 1, Elapsed: elapsed}
	d.seen[key] = f
	d.rep.Findings = append(d.rep.Findings, f)
	d.sample()
	return f
}

// findingKey tells findings apart: kind, message without its numbers
// and the contents of its quoted strings, and the innermost frame of user
// code; a list of quoted strings counts as one, whatever its length. A
// harness that prints its input with %q made every input a finding of
// its own: about a thousand in 60 s on bench/real's fastjson Get harness,
// one bug under a handful of messages, each finding an entry of the
// corpus; a differential harness that prints a []string with %q made one
// finding per number of fields (go-csvvalue: 64 for about four bugs).
func findingKey(kind, msg, stack string) string {
	msg = quoted.ReplaceAllString(msg, `"Q"`)
	msg = quotedList.ReplaceAllString(msg, `"Q"`)
	return kind + "\x00" + digits.ReplaceAllString(msg, "N") + "\x00" + topFrame(stack)
}

var (
	digits = regexp.MustCompile(`[0-9]+`)
	// quoted matches a Go-quoted string, escapes included.
	quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	// quotedList matches two or more quoted strings after quoted's
	// replacement, separated as fmt prints a slice (spaces) or a
	// composite literal (commas).
	quotedList = regexp.MustCompile(`"Q"(?:,? "Q")+`)
)

// topFrame returns the innermost frame of a panic stack that is in user
// code: the location that panicked, used to tell findings apart.
func topFrame(stack string) string {
	_, loc := userFrame(stack)
	return loc
}

// TopFunc returns the name of the function of the innermost user frame
// of a panic stack, without its package or receiver ("IncMinor" for
// github.com/x/v.(*Version).IncMinor(...), "Start.func1" for a closure
// in Start); "" if there is none.
func TopFunc(stack string) string {
	fn, _ := userFrame(stack)
	if i := strings.LastIndexByte(fn, '('); i > 0 && strings.HasSuffix(fn, ")") {
		fn = fn[:i] // the arguments
	}
	parts := strings.Split(fn, ".")
	k := len(parts) - 1
	for k > 0 && closureName.MatchString(parts[k]) {
		k--
	}
	return strings.Join(parts[k:], ".")
}

// closureName matches the name the compiler gives a function literal.
var closureName = regexp.MustCompile(`^(func|gowrap|deferwrap)[0-9]+$`)

// userFrame returns the function line and the location of the innermost
// frame of a panic stack that is in user code.
func userFrame(stack string) (fn, loc string) {
	lines := strings.Split(stack, "\n")
	for i := 0; i+1 < len(lines); i++ {
		fn := strings.TrimSpace(lines[i])
		// A frame is a function line followed by a tab-indented location.
		if strings.HasPrefix(lines[i], "\t") || !strings.HasPrefix(lines[i+1], "\t") {
			continue
		}
		if strings.HasPrefix(fn, "panic(") || strings.HasPrefix(fn, "runtime") || strings.HasPrefix(fn, "created by ") ||
			strings.Contains(fn, "gocolicrt") || fn == "" || inRuntime(fn) {
			continue
		}
		loc := strings.TrimSpace(lines[i+1])
		if j := strings.LastIndex(loc, " +0x"); j >= 0 {
			loc = loc[:j]
		}
		return fn, loc
	}
	return "", ""
}

func (d *coordinator) sample() {
	d.rep.Timeline = append(d.rep.Timeline, Point{
		Elapsed: time.Since(d.start), Execs: d.rep.Execs, Covered: d.covered,
		Paths: d.tree.Stats().Paths, Findings: len(d.rep.Findings),
	})
}

// progress prints the status line.
func (d *coordinator) progress(final bool) {
	if d.cfg.Progress == nil {
		return
	}
	el := time.Since(d.start)
	rate := float64(d.rep.Execs) / el.Seconds()
	share := 0.0 // of the pool's time
	if el > 0 && d.pool != nil {
		share = 100 * d.rep.SolverTime.Seconds() / el.Seconds() / float64(d.pool.size)
	}
	total := 2 * d.condSites
	pct := 0.0
	if total > 0 {
		pct = 100 * float64(d.covered) / float64(total)
	}
	reach := ""
	if n := len(d.claimed); n > 0 {
		reach = fmt.Sprintf(" (%d/%d reachable)", d.covered, total-n)
	}
	fmt.Fprintf(d.cfg.Progress, "gocolic: elapsed: %s, execs: %d (%.0f/sec), paths: %d, branches: %d/%d (%.1f%%)%s, bugs: %d, solver: %.0f%%\n",
		el.Round(time.Second), d.rep.Execs, rate, d.tree.Stats().Paths, d.covered, total, pct, reach, len(d.rep.Findings), share)
}

// SortedFindings returns the findings in order of discovery.
func (r *Report) SortedFindings() []*Finding {
	fs := append([]*Finding(nil), r.Findings...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Elapsed < fs[j].Elapsed })
	return fs
}

// Inputs returns the inputs worth keeping: those of the findings, in
// order of discovery, then those that covered something first.
func (r *Report) Inputs() []sym.Env {
	var out []sym.Env
	for _, f := range r.SortedFindings() {
		out = append(out, f.Input)
	}
	for _, c := range r.Cases {
		out = append(out, c.Input)
	}
	return out
}
