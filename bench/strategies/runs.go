package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/report"
)

// flagsDirective starts the line by which a corpus package asks for extra
// gocolic flags.
const flagsDirective = "//strategies:flags "

// program is one package of the corpus with what its runs need.
type program struct {
	*harness.Target
	// Flags are the extra gocolic flags of its //strategies:flags lines.
	Flags []string `json:"flags,omitempty"`
	// Heuristic is the weight file of -strategy learned, "" if none.
	Heuristic string `json:"-"`
	// RandomHeuristic is the weight file of learned-random, "" if none.
	RandomHeuristic string `json:"-"`
	// Real is the bench/real harness the program stands for (-real), nil
	// for a package of the corpus: its runs are gocolic fuzz of the fuzz
	// target, from its seeds, with the package under test instrumented.
	Real *harness.RealHarness `json:"real,omitempty"`
}

// loadReal returns the program of the bench/real harness h.
func loadReal(h harness.RealHarness) *program {
	return &program{
		Target: &harness.Target{Name: h.Name(), Func: h.Fuzz},
		Flags:  []string{"-instrument", h.Target},
		Real:   &h,
	}
}

// command is gocolic's subcommand for p's runs, and the package argument.
func (p *program) command() (sub, pkg string) {
	if p.Real != nil {
		return "fuzz", "./" + p.Real.Dir
	}
	return "test", "./" + p.Name
}

// quiet is the flag that keeps p's runs from writing what the tables do
// not read: gocolic test's tests, gocolic fuzz's corpus entries.
func (p *program) quiet() string {
	if p.Real != nil {
		return "-nocorpus"
	}
	return "-notests"
}

// env is what p's runs add to gocolic's environment (build tags).
func (p *program) env() []string {
	if p.Real != nil {
		return p.Real.GocolicEnv()
	}
	return nil
}

// loadProgram reads the corpus package in dir.
func loadProgram(dir string) (*program, error) {
	t, err := harness.LoadTarget(dir)
	if err != nil {
		return nil, err
	}
	p := &program{Target: t}
	for _, f := range t.Files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		p.Flags = append(p.Flags, directiveFlags(string(data))...)
	}
	return p, nil
}

// directiveFlags returns the flags of the //strategies:flags lines of src.
func directiveFlags(src string) []string {
	var out []string
	for _, l := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), flagsDirective); ok {
			out = append(out, strings.Fields(rest)...)
		}
	}
	return out
}

// runRecord is one run of gocolic on one program with one strategy, as
// the -json output lists it.
type runRecord struct {
	Program  string   `json:"program"`
	Strategy string   `json:"strategy"`
	Seed     int64    `json:"seed"`
	Args     []string `json:"args"`
	// ExitCode is gocolic's exit status, -1 if it did not exit by itself.
	ExitCode int `json:"exit_code"`
	// Error says why the run counts as failed; empty for a good run.
	Error string `json:"error,omitempty"`
	// Measurements, from the report (zero when there is none).
	Covered     int     `json:"covered"`
	Total       int     `json:"total"`
	CoveragePct float64 `json:"coverage_pct"`
	Executions  int     `json:"executions"`
	ElapsedMS   int64   `json:"elapsed_ms"`
	Stopped     string  `json:"stopped,omitempty"`
	Bugs        int     `json:"bugs"`
	// WallMS is the wall time of the whole gocolic process, including
	// instrumentation and the build of the worker binary.
	WallMS int64 `json:"wall_ms"`
}

// ok reports whether the run counts in the statistics.
func (r *runRecord) ok() bool { return r.Error == "" }

// fill copies a report's measurements into the record.
func (r *runRecord) fill(rep *report.Report) {
	r.Covered, r.Total = rep.Branches.Covered, rep.Branches.Total
	if rep.Branches.Total > 0 {
		r.CoveragePct = 100 * float64(rep.Branches.Covered) / float64(rep.Branches.Total)
	}
	r.Executions = rep.Executions
	r.ElapsedMS = rep.ElapsedMS
	r.Stopped = rep.Stopped
	r.Bugs = len(rep.Bugs)
}

// learnRecord is one gocolic learn run.
type learnRecord struct {
	Program string   `json:"program"`
	Args    []string `json:"args"`
	Weights string   `json:"weights,omitempty"` // the weight file written
	Error   string   `json:"error,omitempty"`
	WallMS  int64    `json:"wall_ms"`
	// Learned is how the weights were learned, as their file records it
	// (rounds, executions, the learner's own time, the check's score);
	// nil without a weight file.
	Learned *explore.Learning `json:"learned,omitempty"`
}

// meta are the settings of a benchmark run.
type meta struct {
	Execs       int     `json:"execs,omitempty"`  // executions per run, 0 with a time budget
	Budget      string  `json:"budget,omitempty"` // time budget per run
	Cap         string  `json:"cap,omitempty"`    // wall-clock bound of a run of Execs executions
	Runs        int     `json:"runs"`
	Seeds       []int64 `json:"seeds"`
	Learn       bool    `json:"learn,omitempty"`
	LearnBudget string  `json:"learn_budget,omitempty"`
	LearnFlags  string  `json:"learn_flags,omitempty"`
	GoVersion   string  `json:"go_version"`
	Platform    string  `json:"platform"`
	CPUs        int     `json:"cpus"`
	Commit      string  `json:"commit,omitempty"`
	Interrupted bool    `json:"interrupted,omitempty"`
}

// runner runs gocolic in the workspace.
type runner struct {
	bin     string // the gocolic binary
	module  string // the module holding the corpus copy
	real    string // the copy of the bench/real module (-real)
	reports string // directory of the JSON reports
	logs    string // directory of the logs
	weights string // directory of the weight files -learn writes
	execs   int    // executions per run, unless budget
	budget  time.Duration
	// cap bounds a run of execs executions in wall-clock time (gocolic's
	// -budget beside -runs), 0 for no bound: a Z3 query can ignore its own
	// timeout, and only the end of the run's budget interrupts it.
	cap time.Duration
	// learn are extra flags of gocolic learn (-learn-flags).
	learnFlags []string
}

// setUp copies the programs into a module of their own in the workspace
// and builds gocolic there.
func (rn *runner) setUp(ctx context.Context, root string, programs []*program) error {
	for _, d := range []string{rn.module, rn.reports, rn.logs, rn.weights} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("creating the workspace: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(rn.module, "go.mod"), []byte("module example.com/strategybench\n\ngo 1.24\n"), 0o644); err != nil {
		return fmt.Errorf("writing the corpus module: %w", err)
	}
	for _, p := range programs {
		if p.Real != nil {
			continue
		}
		src := filepath.Dir(p.Files[0])
		keep := func(n string) bool { return strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") }
		if err := harness.CopyTree(src, filepath.Join(rn.module, p.Name), func(string) bool { return true }, keep); err != nil {
			return fmt.Errorf("copying %s: %w", p.Name, err)
		}
	}
	if slices.ContainsFunc(programs, func(p *program) bool { return p.Real != nil }) {
		if err := harness.CopyRealModule(ctx, filepath.Join(root, realDir), rn.real, root); err != nil {
			return fmt.Errorf("bench/real: %w", err)
		}
	}
	fmt.Fprintln(os.Stderr, "strategies: building gocolic")
	r := harness.Run(ctx, 5*time.Minute, root, filepath.Join(rn.logs, "build-gocolic.log"), "go", "build", "-o", rn.bin, "./cmd/gocolic")
	if r.Err != nil {
		return fmt.Errorf("building gocolic: %w\n%s", r.Err, harness.Tail(r.Output, 20))
	}
	return nil
}

// limitFlags are the flags that bound one run: -budget, or -runs with
// the cap as -budget.
func (rn *runner) limitFlags() []string {
	if rn.budget > 0 {
		return []string{"-budget", rn.budget.String()}
	}
	f := []string{"-runs", strconv.Itoa(rn.execs)}
	if rn.cap > 0 {
		f = append(f, "-budget", rn.cap.String())
	}
	return f
}

// dir is the module directory p's runs start in.
func (rn *runner) dir(p *program) string {
	if p.Real != nil {
		return rn.real
	}
	return rn.module
}

// args returns the command line of one run.
func (rn *runner) args(p *program, strategy string, seed int64, jsonPath string) []string {
	sub, pkg := p.command()
	var args []string
	switch strategy {
	case learned:
		args = []string{sub, "-strategy", learned, "-heuristic", p.Heuristic}
	case learnedRandom:
		args = []string{sub, "-strategy", learned, "-heuristic", p.RandomHeuristic}
	default:
		args = []string{sub, "-strategy", strategy}
	}
	args = append(args, rn.limitFlags()...)
	// -lanes concolic: a strategy orders the concolic lane's candidates
	// only, and with both lanes most of an execution budget goes to the
	// mutation lane's batches (every strategy then covered the same);
	// gocolic learn evaluates its samples the same way.
	args = append(args,
		"-lanes", "concolic",
		"-seed", strconv.FormatInt(seed, 10),
		"-workers", "1",
		p.quiet(), "-minimizetime", "0",
		"-json", jsonPath)
	args = append(args, p.Flags...)
	return append(args, pkg, p.Func)
}

// timeLimit is how long a run may take before the harness kills it.
func (rn *runner) timeLimit() time.Duration {
	switch {
	case rn.budget > 0:
		return rn.budget + 2*time.Minute
	case rn.cap > 0:
		return rn.cap + 2*time.Minute
	}
	return 2 * time.Hour
}

// run runs gocolic once and returns its record; a failure is recorded in
// the record, never dropped.
func (rn *runner) run(ctx context.Context, p *program, strategy string, seed int64) runRecord {
	base := fmt.Sprintf("%s.%s.%d", p.Name, strategy, seed)
	jsonPath := filepath.Join(rn.reports, base+".json")
	os.Remove(jsonPath)
	args := rn.args(p, strategy, seed, jsonPath)
	rec := runRecord{Program: p.Name, Strategy: strategy, Seed: seed, ExitCode: -1}
	rec.Args = append([]string{"gocolic"}, args...)
	res := harness.RunEnv(ctx, rn.timeLimit(), rn.dir(p), filepath.Join(rn.logs, base+".log"), p.env(), rn.bin, args...)
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
	rep, err := report.ReadJSON(jsonPath)
	if err == nil && rep.Branches.Total <= 0 {
		err = errors.New("no branches.total")
	}
	if err == nil {
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

// learnArgs returns the command line of gocolic learn for p.
func (rn *runner) learnArgs(p *program, budget time.Duration, out string) []string {
	args := []string{"learn", "-seed", "1", "-runs", strconv.Itoa(rn.execs), "-budget", budget.String(), "-o", out}
	args = append(args, rn.learnFlags...)
	args = append(args, p.Flags...)
	_, pkg := p.command()
	return append(args, pkg, p.Func)
}

// learn runs gocolic learn on p with seed 1 and returns the weight file's
// path in the record.
func (rn *runner) learn(ctx context.Context, p *program, budget time.Duration) learnRecord {
	out := filepath.Join(rn.weights, p.Name+".json")
	return rn.learnWith(ctx, p, budget, out, rn.learnArgs(p, budget, out))
}

// learnRandom runs gocolic learn -method random on p with seed 1 for
// rounds rounds (those its find / check / refine learning ran, so that
// both cost the same runs; later flags win over -learn-flags).
func (rn *runner) learnRandom(ctx context.Context, p *program, budget time.Duration, rounds int) learnRecord {
	out := filepath.Join(rn.weights, p.Name+".random.json")
	return rn.learnWith(ctx, p, budget, out, rn.randomLearnArgs(p, budget, out, rounds))
}

// randomLearnArgs returns the command line of learnRandom.
func (rn *runner) randomLearnArgs(p *program, budget time.Duration, out string, rounds int) []string {
	args := rn.learnArgs(p, budget, out)
	n := len(args) - 2 // the package and function stay last
	return append(append(args[:n:n], "-method", "random", "-rounds", strconv.Itoa(rounds)), args[n:]...)
}

func (rn *runner) learnWith(ctx context.Context, p *program, budget time.Duration, out string, args []string) learnRecord {
	lr := learnRecord{Program: p.Name, Args: append([]string{"gocolic"}, args...)}
	// gocolic learn stops at its budget and writes the best weights; the
	// margin covers the build and the last runs.
	res := harness.RunEnv(ctx, budget+10*time.Minute, rn.dir(p), filepath.Join(rn.logs, "learn."+filepath.Base(out)+".log"), p.env(), rn.bin, args...)
	lr.WallMS = res.Wall.Milliseconds()
	switch {
	case res.Err != nil:
		lr.Error = res.Err.Error()
		if msg := harness.LastMessage(res.Output); msg != "" {
			lr.Error += ": " + msg
		}
	default:
		w, err := explore.ReadWeights(out)
		if err != nil {
			lr.Error = "no weight file: " + err.Error()
		} else {
			lr.Weights, lr.Learned = out, &w.Learned
		}
	}
	return lr
}
