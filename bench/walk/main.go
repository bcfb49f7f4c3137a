// Command walk measures gocolic's concolic-walk solver (Dinges and Agha,
// FSE 2014) against classic concolic testing on a corpus of small programs
// whose branches need non-linear, floating-point or library-computed
// constraints, and measures the walk's parameters by ablation.
//
// Usage, from the repository root:
//
//	go run ./bench/walk [-targets blind,tcas] [-configs z3,walk,auto] [-runs 7] [-budget 5s] [-workers 1] [-out FILE] [-json FILE] [-keep]
//
// The corpus is bench/walk/corpus: one package per directory, each with a
// single exported entry function. The harness copies it into a temporary
// module, builds gocolic there once (go build -o DIR/gocolic ./cmd/gocolic),
// and runs, one at a time, for every program, run index k = 1 … runs and
// configuration:
//
//	gocolic test <configuration flags> -budget B -workers W -seed k -notests -minimizetime 0 -json FILE ./NAME Func
//
// The configurations are z3 (-solver z3: calls the solver cannot model are
// concretised, classic concolic testing), walk (-solver walk), auto
// (-solver auto) and six ablations of walk: tabu off (-walktabu 0),
// bisection off (-walkbisect=false), 25 and 1000 steps (-walksteps), 1 and
// 20 neighbours (-walkneighbors). Runs of one index go through all the
// configurations before the next index starts, so that a drift of the
// machine's speed spreads over all of them.
//
// From each run's JSON report it takes the branch coverage, the run time
// (elapsed_ms) and the time of the last coverage increase (from the
// timeline), and prints Markdown tables: median and variance of coverage
// and times per program for z3, walk and auto with Mann-Whitney p-values
// of walk and auto against z3, a LOC-weighted average row, and the
// ablations' median coverage as a fraction of walk's. -json writes every
// run's record. A run that fails (gocolic exits with a status other than
// 0, which it uses for completed runs whether or not they found bugs, or
// leaves no report) is listed in the output and left out of the
// statistics; the command then exits with status 1.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
)

// Names of the configurations the tables single out.
const (
	cfgZ3   = "z3"
	cfgWalk = "walk"
	cfgAuto = "auto"
)

// config is one way to run gocolic.
type config struct {
	Name  string   `json:"name"`
	Flags []string `json:"flags"`
	// Ablation marks a variant of walk, compared with walk rather than
	// with z3.
	Ablation bool `json:"ablation"`
}

// allConfigs are the configurations, in the order they run and appear.
var allConfigs = []config{
	{Name: cfgZ3, Flags: []string{"-solver", "z3"}},
	{Name: cfgWalk, Flags: []string{"-solver", "walk"}},
	{Name: cfgAuto, Flags: []string{"-solver", "auto"}},
	{Name: "notabu", Flags: []string{"-solver", "walk", "-walktabu", "0"}, Ablation: true},
	{Name: "nobisect", Flags: []string{"-solver", "walk", "-walkbisect=false"}, Ablation: true},
	{Name: "steps25", Flags: []string{"-solver", "walk", "-walksteps", "25"}, Ablation: true},
	{Name: "steps1000", Flags: []string{"-solver", "walk", "-walksteps", "1000"}, Ablation: true},
	{Name: "neighbors1", Flags: []string{"-solver", "walk", "-walkneighbors", "1"}, Ablation: true},
	{Name: "neighbors20", Flags: []string{"-solver", "walk", "-walkneighbors", "20"}, Ablation: true},
}

// corpusDir is the corpus, relative to the repository root.
const corpusDir = "bench/walk/corpus"

// options are the command's flags.
type options struct {
	targets, configs string
	runs, workers    int
	budget           time.Duration
	out, jsonOut     string
	keep             bool
}

func main() {
	var o options
	flag.StringVar(&o.targets, "targets", "", "comma-separated programs of "+corpusDir+" to run (default: all)")
	flag.StringVar(&o.configs, "configs", "", "comma-separated configurations to run (default: all), of: "+strings.Join(configNames(allConfigs), ", "))
	flag.IntVar(&o.runs, "runs", 7, "runs per program and configuration (seeds 1 to runs)")
	flag.DurationVar(&o.budget, "budget", 5*time.Second, "gocolic's -budget for every run")
	flag.IntVar(&o.workers, "workers", 1, "gocolic's -workers for every run")
	flag.StringVar(&o.out, "out", "", "also write the Markdown report to this file")
	flag.StringVar(&o.jsonOut, "json", "", "write every run's record (raw data) to this JSON file")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary workspace (corpus copy, reports, logs) and print its path")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/walk [flags]\n\nRuns gocolic with the z3, walk and auto solvers and walk's ablations on the programs of "+corpusDir+"\nand prints Markdown tables of coverage and time.\n\nFlags:")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 || o.runs < 1 || o.budget <= 0 || o.workers < 1 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "walk:", err)
		os.Exit(1)
	}
}

func configNames(cs []config) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

// selectConfigs parses -configs.
func selectConfigs(list string) ([]config, error) {
	names, err := harness.SelectNames(list, configNames(allConfigs), configNames(allConfigs))
	if err != nil {
		return nil, fmt.Errorf("-configs: %w", err)
	}
	var out []config
	for _, c := range allConfigs {
		for _, n := range names {
			if c.Name == n {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

func run(ctx context.Context, o options) error {
	root, err := harness.RepoRoot()
	if err != nil {
		return err
	}
	configs, err := selectConfigs(o.configs)
	if err != nil {
		return err
	}
	known, err := harness.CorpusNames(filepath.Join(root, corpusDir))
	if err != nil {
		return err
	}
	names, err := harness.SelectNames(o.targets, known, known)
	if err != nil {
		return fmt.Errorf("-targets: %w", err)
	}
	var targets []*harness.Target
	for _, n := range names {
		t, err := harness.LoadTarget(filepath.Join(root, corpusDir, n))
		if err != nil {
			return err
		}
		targets = append(targets, t)
	}

	dir, err := os.MkdirTemp("", "gocolic-walk-")
	if err != nil {
		return fmt.Errorf("creating the workspace: %w", err)
	}
	if o.keep {
		fmt.Fprintf(os.Stderr, "walk: workspace kept in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	rn := &runner{
		bin:     filepath.Join(dir, "bin", "gocolic"),
		module:  filepath.Join(dir, "mod"),
		reports: filepath.Join(dir, "reports"),
		logs:    filepath.Join(dir, "logs"),
		budget:  o.budget,
		workers: o.workers,
	}
	if err := setUp(ctx, root, rn, targets, configs); err != nil {
		return err
	}

	res := newResults(targets, configs, o.runs)
	m := meta{
		Budget: o.budget.String(), Workers: o.workers, Runs: o.runs,
		GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, CPUs: runtime.NumCPU(),
		Commit: harness.Commit(ctx, root),
	}
	total := len(targets) * o.runs * len(configs)
	done := 0
loop:
	for _, t := range targets {
		for k := 1; k <= o.runs; k++ {
			for _, c := range configs {
				if ctx.Err() != nil {
					m.Interrupted = true
					break loop
				}
				rec := rn.run(ctx, t, c, k)
				if ctx.Err() != nil {
					// A run cut short by the interruption is no measurement.
					m.Interrupted = true
					break loop
				}
				res.add(rec)
				done++
				status := fmt.Sprintf("%d/%d (%.1f%%), last new cov %.2fs, run time %.2fs", rec.Covered, rec.Total, rec.CoveragePct,
					float64(rec.LastIncreaseMS)/1000, float64(rec.ElapsedMS)/1000)
				if !rec.ok() {
					status = "FAILED: " + rec.Error
				}
				fmt.Fprintf(os.Stderr, "walk: [%d/%d] %s %s run %d: %s\n", done, total, t.Name, c.Name, k, status)
			}
		}
	}

	md, err := res.markdown(m)
	if err != nil {
		return err
	}
	if err := harness.Publish(md, dir, o.out); err != nil {
		return err
	}
	if o.jsonOut != "" {
		if err := writeRaw(o.jsonOut, dir, m, res); err != nil {
			return err
		}
	}
	switch {
	case m.Interrupted:
		return ctx.Err()
	case res.failed() > 0:
		return fmt.Errorf("%d of %d runs failed; see \"Failed runs\"", res.failed(), done)
	}
	return nil
}

// setUp copies the targets into a module of their own in the workspace,
// builds gocolic there and checks that it has every flag the selected
// configurations use.
func setUp(ctx context.Context, root string, rn *runner, targets []*harness.Target, configs []config) error {
	for _, d := range []string{rn.module, rn.reports, rn.logs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("creating the workspace: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(rn.module, "go.mod"), []byte("module example.com/walkbench\n\ngo 1.24\n"), 0o644); err != nil {
		return fmt.Errorf("writing the corpus module: %w", err)
	}
	for _, t := range targets {
		if err := copyFiles(t.Files, filepath.Join(rn.module, t.Name)); err != nil {
			return fmt.Errorf("copying %s: %w", t.Name, err)
		}
	}
	fmt.Fprintln(os.Stderr, "walk: building gocolic")
	r := harness.Run(ctx, 5*time.Minute, root, filepath.Join(rn.logs, "build-gocolic.log"), "go", "build", "-o", rn.bin, "./cmd/gocolic")
	if r.Err != nil {
		return fmt.Errorf("building gocolic: %w\n%s", r.Err, harness.Tail(r.Output, 20))
	}
	out, _ := exec.CommandContext(ctx, rn.bin, "test", "-h").CombinedOutput()
	var flags []string
	for _, c := range configs {
		flags = append(flags, c.Flags...)
	}
	flags = append(flags, rn.args(&harness.Target{Name: "x", Func: "X"}, config{}, 1, "r.json")...)
	if missing := missingFlags(string(out), flags); len(missing) > 0 {
		return fmt.Errorf("gocolic test has no %s flag (see gocolic test -h): this gocolic cannot run the benchmark", strings.Join(missing, ", "))
	}
	return nil
}

// flagNameRE matches a flag on a command line: -name or -name=value.
var flagNameRE = regexp.MustCompile(`^--?([A-Za-z][A-Za-z0-9_-]*)`)

// missingFlags returns the flags of args ("-name" or "-name=value") that
// the usage text help does not list, each once, in the order of args.
func missingFlags(help string, args []string) []string {
	var missing []string
	seen := map[string]bool{}
	for _, a := range args {
		m := flagNameRE.FindStringSubmatch(a)
		if m == nil || seen[m[1]] {
			continue
		}
		seen[m[1]] = true
		listed := regexp.MustCompile(`(?m)^\s+-` + regexp.QuoteMeta(m[1]) + `(\s|$)`)
		if !listed.MatchString(help) {
			missing = append(missing, "-"+m[1])
		}
	}
	return missing
}

// copyFiles copies files into dir.
func copyFiles(files []string, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, fs.FileMode(0o644)); err != nil {
			return err
		}
	}
	return nil
}

// rawOutput is the -json file: the run's settings and every run's record.
type rawOutput struct {
	Meta    meta              `json:"meta"`
	Targets []*harness.Target `json:"targets"`
	Configs []config          `json:"configs"`
	Runs    []runRecord       `json:"runs"`
}

// writeRaw writes every run's record to path, workspace paths replaced by
// $TMP.
func writeRaw(path, dir string, m meta, res *results) error {
	raw := rawOutput{Meta: m, Targets: res.targets, Configs: res.configs, Runs: []runRecord{}}
	for _, t := range res.targets {
		for _, c := range res.configs {
			for _, rec := range res.recs[recKey(t.Name, c.Name)] {
				rec.Args = slices.Clone(rec.Args)
				for i, a := range rec.Args {
					rec.Args[i] = strings.ReplaceAll(a, dir, "$TMP")
				}
				rec.Error = strings.ReplaceAll(rec.Error, dir, "$TMP")
				raw.Runs = append(raw.Runs, rec)
			}
		}
	}
	data, err := json.MarshalIndent(raw, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding -json: %w", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing -json: %w", err)
	}
	return nil
}
