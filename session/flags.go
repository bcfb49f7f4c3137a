package session

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/solver/walk"
)

// Command names a gocolic command that takes a Config.
type Command string

// The commands that explore.
const (
	CmdTest Command = "test"
	CmdFuzz Command = "fuzz"
	// CmdUpdate brings a saved suite up to date (Update); the strategy,
	// seed, depth and length bounds are the saved suite's.
	CmdUpdate Command = "update"
)

// Flags sets c to DefaultConfig and returns the flag set of command cmd,
// bound to c's fields and showing those defaults. It is the one place
// that names the flags: the report's configuration (Settings) is keyed
// by the same names.
func (c *Config) Flags(cmd Command) *flag.FlagSet {
	fs := flag.NewFlagSet(string(cmd), flag.ContinueOnError)
	d := DefaultConfig()
	if cmd == CmdLearn {
		d.Runs, d.Budget = LearnRuns, LearnBudget
	}
	c.bind(fs, cmd, d)
	return fs
}

// Settings returns every setting of command cmd as the report records
// it, keyed by flag name: numbers, booleans and strings as they are,
// durations as text (10s), lists joined by commas.
func (c *Config) Settings(cmd Command) map[string]any {
	var cp Config
	fs := flag.NewFlagSet(string(cmd), flag.ContinueOnError)
	cp.bind(fs, cmd, *c)
	out := make(map[string]any)
	fs.VisitAll(func(f *flag.Flag) {
		switch v := f.Value.(flag.Getter).Get().(type) {
		case time.Duration:
			out[f.Name] = v.String()
		default:
			out[f.Name] = v
		}
	})
	return out
}

// bind sets c to d and declares the flags of cmd on fs, bound to c's
// fields and showing d's values as their defaults.
func (c *Config) bind(fs *flag.FlagSet, cmd Command, d Config) {
	*c = d
	// The exploration (coordinator.Options).
	if cmd == CmdLearn {
		// A learning is many runs: -budget bounds all of them, -runs
		// each, and each run has one worker.
		fs.DurationVar(&c.Budget, "budget", d.Budget, "wall-clock budget of the whole learning; when it runs out, the best weights found so far are written (0: none)")
		fs.IntVar(&c.Runs, "runs", d.Runs, "executions of each learning run (the paper's 4000)")
		fs.IntVar(&c.Workers, "workers", d.Workers, "learning runs at once, each with one worker process and one solver (0: number of CPUs)")
	} else {
		fs.DurationVar(&c.Budget, "budget", d.Budget, "wall-clock budget of the exploration (0: 10s unless -runs is set)")
		fs.IntVar(&c.Runs, "runs", d.Runs, "stop after this many executions (0: no limit)")
		fs.IntVar(&c.Workers, "workers", d.Workers, "worker processes running the target (0: number of CPUs)")
		fs.IntVar(&c.Solvers, "solvers", d.Solvers, "goroutines solving queries, each with a solver stack of its own (0: half of -workers, at least one; with one, -workers 1 and -seed make a run deterministic)")
		if cmd != CmdUpdate {
			fs.StringVar(&c.Strategy, "strategy", d.Strategy, fmt.Sprintf("search strategy: %v", explore.Names()))
		}
		fs.Float64Var(&c.RandomShare, "random-share", d.RandomShare, "fraction of the priority strategy's choices made at random instead of by priority (0 to 1)")
		fs.StringVar(&c.Heuristic, "heuristic", d.Heuristic, "weight file of -strategy learned (written by gocolic learn)")
		fs.StringVar(&c.Lanes, "lanes", d.Lanes, "search lanes: concolic (symbolic execution and solving), mutate (mutation of kept inputs at close to native speed: a fuzzer) or both")
	}
	if cmd == CmdTest || cmd == CmdFuzz {
		fs.StringVar(&c.NATS, "nats", d.NATS, "spread the executions over the NATS server (with JetStream) at this URL, or one started in this process (embedded); -workers then counts the executions out at once on all machines, and executors join with gocolic worker")
		fs.StringVar(&c.NATSListen, "nats-listen", d.NATSListen, "with -nats embedded: host:port on which executors of other machines join (port 0: any free one; \"\": this process only)")
		fs.StringVar(&c.RunID, "run", d.RunID, "with -nats: the run's id on the server, which gocolic worker -run names (default: a fresh one)")
		fs.IntVar(&c.Local, "local", d.Local, "with -nats: executors in this process (-1: -workers)")
		fs.BoolVar(&c.NATSSolve, "nats-solve", d.NATSSolve, "with -nats: the executors solve the queries too, each with a solver stack of its own, and this process only selects; -solvers then counts the queries out at once (default: -workers)")
	}
	if cmd != CmdUpdate {
		fs.Int64Var(&c.Seed, "seed", d.Seed, "seed of the random choices, for reproducible runs")
		fs.IntVar(&c.MaxDepth, "depth", d.MaxDepth, "bound on the symbolic branches explored along one path (0: none)")
	}
	fs.DurationVar(&c.Timeout, "timeout", d.Timeout, "time limit of one execution")
	fs.IntVar(&c.MemLimitMB, "memlimit", d.MemLimitMB, "resident memory limit of a worker in MiB (0: none)")
	if cmd != CmdLearn {
		fs.IntVar(&c.MaxBugs, "maxbugs", d.MaxBugs, "stop once this many distinct bugs are found (0: no limit)")
		fs.DurationVar(&c.MinimizeTime, "minimizetime", d.MinimizeTime, "time spent minimising each failing input, and once more all kept cases together, after the exploration (0: keep inputs as found)")
	}
	c.Backoff = d.Backoff
	fs.Var(backoffValue{&c.Backoff}, "backoff", "branch outcomes asked about less and less often as their queries keep failing (unsat or unknown): implicit (index, slice, division and shift checks; outcomes the solver gives up on, at any site), all, or off, given as -backoff=MODE; -backoff alone means all")
	fs.BoolVar(&c.Optimistic, "optimistic", d.Optimistic, "when a path condition fails at a branch outcome no run has taken, solve its last condition alone and run the input")
	if cmd == CmdLearn {
		// The learner (learn.Config).
		fs.IntVar(&c.Learn.Samples, "samples", d.Learn.Samples, "weight vectors drawn and run once per round (find; the paper: 1000)")
		fs.IntVar(&c.Learn.Top, "top", d.Learn.Top, "best vectors of a round run again (check; at least 2; the paper: 10)")
		fs.IntVar(&c.Learn.Checks, "checks", d.Learn.Checks, "runs of each checked vector, from other seeds (the paper: 10)")
		fs.IntVar(&c.Learn.Rounds, "rounds", d.Learn.Rounds, "at most this many rounds; a round that does not improve on the last ends the learning")
		fs.StringVar(&c.Learn.Method, "method", d.Learn.Method, "refine (find / check / refine, seed 001) or random (uniform draws every round, no refinement and no early stop: the paper's RQ3 baseline at the same cost per round)")
	}

	// The solver stack (stack.Options).
	if cmd != CmdUpdate {
		fs.StringVar(&c.Solver.Mode, "solver", d.Solver.Mode, "solver: z3 (calls of uninstrumented functions stay concrete), walk (concolic walk, Z3 for the linear part) or auto (Z3, then the walk for what it cannot model or on timeout)")
	}
	fs.DurationVar(&c.Solver.Timeout, "solver-timeout", d.Solver.Timeout, "time limit of one solver query")
	fs.IntVar(&c.Solver.Memory, "solver-memory", d.Solver.Memory, "memory Z3 may hold in MiB, all solvers together; a query that needs more is given up")
	fs.IntVar(&c.Solver.Walk.Steps, "walksteps", d.Solver.Walk.Steps, "concolic walk: iterations per non-linear constraint")
	fs.IntVar(&c.Solver.Walk.Neighbors, "walkneighbors", d.Solver.Walk.Neighbors, "concolic walk: random and bisection neighbours per step")
	fs.Var(tabuValue{&c.Solver.Walk}, "walktabu", "concolic walk: iterations a variable stays tabu (-1: min(|vars|, 3); 0: no tabu)")
	fs.Var(bisectValue{&c.Solver.Walk}, "walkbisect", "concolic walk: use the bisection step")

	// Inputs and instrumentation.
	maxLen := "maximum length of string and []byte inputs (0: 32; at most 4096)"
	if cmd == CmdFuzz {
		maxLen = "maximum length of string and []byte inputs (0: 32, raised to the longest seed up to 1024; at most 4096)"
	}
	if cmd != CmdUpdate {
		fs.IntVar(&c.MaxLen, "maxlen", d.MaxLen, maxLen)
	}
	if cmd != CmdFuzz && cmd != CmdUpdate {
		fs.IntVar(&c.MaxElems, "maxelems", d.MaxElems, "maximum length of slice, map and variadic inputs")
	}
	if cmd != CmdUpdate {
		fs.Var(listValue{&c.Impure, true}, "impure", "comma-separated packages or functions (path.Func) whose calls stay concrete, never opaque terms (repeatable)")
		fs.BoolVar(&c.Stdlib, "stdlib", d.Stdlib, "instrument the standard packages the target reaches (strings, bytes, bufio, regexp, encoding/..., net/url, ...) in place, and strconv, unicode, unicode/utf8, path, slices and cmp, which the runtime is built on, as copies, so that values stay symbolic through them; the rest of what the runtime is built on (fmt, math, ...) keeps its models")
		fs.Var(listValue{&c.Instrument, true}, "instrument", "comma-separated go package patterns (./..., example.com/dep/...) whose packages the target imports are instrumented too, so that values stay symbolic in calls into them; dependencies are copied, never written (repeatable; default: the target package only)")
	}

	if cmd != CmdLearn {
		fs.BoolVar(&c.Prove, "prove", d.Prove, "prove branch outcomes unreachable when no path of the control-flow and call graphs leads to them from the entry, and report coverage of the reachable outcomes beside coverage of all")
		fs.BoolVar(&c.Abstraction, "abstraction", d.Abstraction, "model-check each function (predicate abstraction refined on spurious paths; calls and memory are any value), before testing and, with a time budget, in rounds beside it towards the outcomes not covered yet: prove the branch outcomes no abstract path reaches unreachable, and skip the negations no abstract path allows (experimental)")
		fs.Float64Var(&c.MCShare, "mc-share", d.MCShare, "with -abstraction, the model checker's share of the budget: half before testing, half in rounds beside it")
	}

	// Outputs.
	if cmd != CmdLearn {
		fs.StringVar(&c.JSON, "json", d.JSON, "write the machine-readable report to this file")
		fs.StringVar(&c.RunDir, "rundir", d.RunDir, "keep the run in this directory (report.json, timeline.csv, cover.out) for gocolic report")
	}
	fs.BoolVar(&c.KeepWork, "work", d.KeepWork, "print and keep the work directory (overlay and worker binary)")
	if cmd == CmdTest || cmd == CmdFuzz {
		fs.BoolVar(&c.NoState, "nostate", d.NoState, "do not write the suite's state (testdata/gocolic/<func>.state.json), which gocolic update reads")
	}
	if cmd == CmdTest || cmd == CmdFuzz || cmd == CmdUpdate {
		fs.IntVar(&c.MaxState, "maxstate", d.MaxState, "most branches, over all its paths, the suite's state may hold; a larger suite's state is not written (0: no bound)")
	}
	switch cmd {
	case CmdUpdate:
		fs.BoolVar(&c.Check, "check", d.Check, "rewrite nothing; exit 1 if the suite is out of date (a kept test's results changed, tests were added or dropped), for CI")
	case CmdLearn:
		fs.StringVar(&c.WeightsOut, "o", d.WeightsOut, "the weight file to write, for gocolic test|fuzz -strategy learned -heuristic FILE")
	case CmdTest:
		fs.StringVar(&c.Out, "o", d.Out, "directory for the generated test file (default: the package's directory)")
		fs.StringVar(&c.CoverProfile, "coverprofile", d.CoverProfile, "write a coverage profile of the generated tests, for go tool cover")
		fs.BoolVar(&c.NoTests, "notests", d.NoTests, "do not write the generated test file")
		fs.Var(listValue{&c.Replay, false}, "replay", "run the inputs of a go test fuzz v1 corpus directory and report their coverage, exploring nothing (repeatable)")
	case CmdFuzz:
		fs.BoolVar(&c.NoTests, "nocorpus", d.NoTests, "do not write corpus entries (with -with-fuzzer, also drop the failures the fuzzer wrote)")
		fs.BoolVar(&c.FuzzCache, "fuzzcache", d.FuzzCache, "also take the entries go test -fuzz keeps in its cache as seeds")
		fs.BoolVar(&c.WithFuzzer, "with-fuzzer", d.WithFuzzer, "run go test -fuzz on the target alongside, exchanging corpus entries (splits -workers between the two)")
	}
}

// listValue is a repeatable flag that appends to a list, splitting each
// value at commas when split is set.
type listValue struct {
	p     *[]string
	split bool
}

func (l listValue) String() string {
	if l.p == nil {
		return ""
	}
	return strings.Join(*l.p, ",")
}

func (l listValue) Get() any { return l.String() }

func (l listValue) Set(v string) error {
	if !l.split {
		*l.p = append(*l.p, v)
		return nil
	}
	for _, f := range strings.Split(v, ",") {
		if f = strings.TrimSpace(f); f != "" {
			*l.p = append(*l.p, f)
		}
	}
	return nil
}

// tabuValue is -walktabu: -1 for the walk's default tenure, 0 for none,
// or a number of iterations.
type tabuValue struct{ p *walk.Params }

func (t tabuValue) String() string {
	switch {
	case t.p == nil:
		return ""
	case t.p.NoTabu:
		return "0"
	case t.p.Tabu > 0:
		return strconv.Itoa(t.p.Tabu)
	}
	return "-1"
}

func (t tabuValue) Get() any {
	n, _ := strconv.Atoi(t.String())
	return n
}

func (t tabuValue) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < -1 {
		return errors.New("want -1, 0 or a positive number")
	}
	t.p.NoTabu, t.p.Tabu = n == 0, max(n, 0)
	return nil
}

// backoffValue is -backoff: off, implicit or all
// (coordinator.Options.Backoff). It is also a boolean flag, as it was
// before it had modes: -backoff and -backoff=true mean all,
// -backoff=false off.
type backoffValue struct{ p *string }

func (b backoffValue) String() string {
	if b.p == nil {
		return ""
	}
	return *b.p
}

func (b backoffValue) Get() any { return b.String() }

func (b backoffValue) IsBoolFlag() bool { return true }

func (b backoffValue) Set(v string) error {
	switch v {
	case "true":
		v = coordinator.BackoffAll
	case "false":
		v = coordinator.BackoffOff
	case coordinator.BackoffOff, coordinator.BackoffImplicit, coordinator.BackoffAll:
	default:
		return errors.New("want off, implicit or all")
	}
	*b.p = v
	return nil
}

// bisectValue is -walkbisect, the negation of walk.Params.NoBisect.
type bisectValue struct{ p *walk.Params }

func (b bisectValue) String() string { return strconv.FormatBool(b.p != nil && !b.p.NoBisect) }

func (b bisectValue) Get() any { return b.p != nil && !b.p.NoBisect }

func (b bisectValue) IsBoolFlag() bool { return true }

func (b bisectValue) Set(v string) error {
	on, err := strconv.ParseBool(v)
	if err != nil {
		return err
	}
	b.p.NoBisect = !on
	return nil
}
