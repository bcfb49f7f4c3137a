// Command strategies compares gocolic's search strategies (-strategy) on a
// corpus of larger programs, as seed 001 (Cha, Hong, Lee, Oh) compares
// hand-made search heuristics with a learned one.
//
// Usage, from the repository root:
//
//	go run ./bench/strategies [-programs stackvm,tlv] [-real gjson.FuzzGet] [-strategies cover,dfs] [-runs 20] [-first-seed N] [-execs 4000 [-cap 15m] | -budget 60s]
//	    [-heuristic-dir DIR | -learn [-learn-budget 1h] [-learn-flags "-samples 8 -top 2"]] [-out FILE] [-json FILE] [-keep]
//
// The corpus is bench/strategies/corpus: one package per directory, each
// with a single exported entry function, 400 to 900 lines of code with
// planted bugs. A package may ask for extra gocolic flags with a line
// "//strategies:flags -maxlen 96" in one of its files. The harness copies
// the corpus into a temporary module, builds gocolic there once, and runs,
// one at a time, for every program, seed k and strategy S:
//
//	gocolic test -strategy S -runs E -budget C -lanes concolic -seed k -workers 1 -notests -minimizetime 0 -json FILE <program flags> ./NAME Func
//
// (-budget D instead of -runs E -budget C with -budget). The cap C (-cap)
// only bounds a run that would otherwise hang: a Z3 query can ignore its
// own timeout, and only the end of the run's budget interrupts it; the
// tables count the runs the cap stopped. The strategies are every
// name of explore.Names() but learned, and learned too when a weight file
// is given for the program: DIR/NAME.json with -heuristic-dir, or the one
// -learn writes. -learn first runs, per program,
//
//	gocolic learn -seed 1 -runs E -budget L -o FILE <learn flags> <program flags> ./NAME Func
//
// (<learn flags>: -learn-flags, e.g. the learner's sample counts)
// (the protocol: learn on seed 1), and then evaluates every
// strategy on seeds 2 … runs+1, so that no strategy is measured on the
// learning's seed. The pseudo-strategy learned-random (named in
// -strategies, with -learn) learns a second time with -method random and
// -rounds set to the rounds the first learning ran, which costs the same
// runs, and is evaluated as learned with those weights: seed 001's RQ3.
//
// -real adds fuzz targets of the bench/real module, which exercise real
// packages of the Go module proxy (gjson.FuzzGet, or gjson for all of its
// targets; without -programs, only those run). The harness copies that
// module beside the corpus, and a run there is
//
//	gocolic fuzz -strategy S … -instrument TARGET ./DIR FuzzXxx
//
// with the same flags as above: from the fuzz target's seeds, the package
// under test instrumented too, its coverage counted with the harness's.
// -learn learns on it the same way.
//
// From each run's JSON report it takes the branch coverage of the target
// package (outcomes covered of branches.total) and prints Markdown: per
// program and strategy the average and maximum coverage, the average
// executions and exploration time, and the Wilcoxon
// signed-rank test, paired by seed, of each strategy against the best
// hand-made one (the highest average coverage among all but learned); and
// an overview of averages with the best per program. -json writes every
// run's record; -tables a.json,b.json prints the tables of such files
// again, merged (e.g. programs run by separate commands), and runs
// nothing. A run that fails (gocolic exits with a status other than
// 0, or leaves no report) is listed and left out of the statistics; the
// command then exits with status 1.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/explore"
)

// corpusDir is the corpus, relative to the repository root.
const corpusDir = "bench/strategies/corpus"

// realDir is the module of real packages' fuzz targets (-real), relative
// to the repository root.
const realDir = "bench/real"

// learned is the name of the learned strategy, which needs a weight file.
const learned = "learned"

// learnedRandom is the learned strategy with weights found by random
// sampling (gocolic learn -method random) at the cost the find / check /
// refine learning of the same program took: seed 001's RQ3 baseline.
// Only with -learn, and only when asked for by name.
const learnedRandom = "learned-random"

// options are the command's flags.
type options struct {
	programs, real string
	strategies     string
	runs, execs    int
	firstSeed      int64
	budget, cap    time.Duration
	heuristicDir   string
	learn          bool
	learnBudget    time.Duration
	learnFlags     string
	out, jsonOut   string
	tables         string
	keep           bool
}

func main() {
	var o options
	flag.StringVar(&o.programs, "programs", "", "comma-separated programs of "+corpusDir+" to run (default: all, or none with -real)")
	flag.StringVar(&o.real, "real", "", "comma-separated fuzz targets of "+realDir+" to run too (gjson.FuzzGet, or a package directory for all of its targets): gocolic fuzz from the target's seeds, the package under test instrumented")
	flag.StringVar(&o.strategies, "strategies", "", "comma-separated strategies to run (default: all of "+strings.Join(explore.Names(), ", ")+"; learned only with -heuristic-dir or -learn)")
	flag.IntVar(&o.runs, "runs", 20, "runs per program and strategy, one per seed (1 … runs; with -learn 2 … runs+1)")
	flag.Int64Var(&o.firstSeed, "first-seed", 0, "first seed of the runs (0: 1, or 2 with -learn); e.g. 2 with -heuristic-dir and weights learned on seed 1")
	flag.IntVar(&o.execs, "execs", 4000, "executions per run (gocolic's -runs); ignored with -budget")
	flag.DurationVar(&o.budget, "budget", 0, "wall-clock budget per run (gocolic's -budget) instead of a number of executions")
	flag.DurationVar(&o.cap, "cap", 15*time.Minute, "with -execs: wall-clock bound of a run (gocolic's -budget beside -runs; 0: none); the tables count the runs it stopped")
	flag.StringVar(&o.heuristicDir, "heuristic-dir", "", "directory of weight files NAME.json for -strategy learned, one per program")
	flag.BoolVar(&o.learn, "learn", false, "run gocolic learn on each program with seed 1 first, then evaluate on the other seeds")
	flag.DurationVar(&o.learnBudget, "learn-budget", time.Hour, "gocolic learn's -budget per program")
	flag.StringVar(&o.learnFlags, "learn-flags", "", "extra flags of gocolic learn, space-separated (e.g. \"-samples 8 -top 2 -checks 2 -rounds 3\")")
	flag.StringVar(&o.out, "out", "", "also write the Markdown report to this file")
	flag.StringVar(&o.jsonOut, "json", "", "write every run's record (raw data) to this JSON file")
	flag.StringVar(&o.tables, "tables", "", "run nothing: print the tables of earlier -json files (comma-separated; with the same budget and seeds), merged")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary workspace (corpus copy, reports, weight files, logs) and print its path")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/strategies [flags]\n\nRuns gocolic with each search strategy on the programs of "+corpusDir+"\nand prints Markdown tables of branch coverage with Wilcoxon signed-rank tests.\n\nFlags:")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := o.check(); err != nil || flag.NArg() != 0 {
		if err != nil {
			fmt.Fprintln(os.Stderr, "strategies:", err)
		}
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	run := run
	if o.tables != "" {
		run = retable
	}
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "strategies:", err)
		os.Exit(1)
	}
}

// check validates the flags' values and combinations.
func (o *options) check() error {
	switch {
	case o.runs < 1:
		return errors.New("-runs must be at least 1")
	case o.budget == 0 && o.execs < 1:
		return errors.New("-execs must be at least 1")
	case o.budget < 0:
		return errors.New("-budget must be positive")
	case o.cap < 0:
		return errors.New("-cap must not be negative")
	case o.firstSeed < 0:
		return errors.New("-first-seed must not be negative")
	case o.learn && o.firstSeed == 1:
		return errors.New("-first-seed 1 with -learn: seed 1 is the learning's")
	case o.learn && o.heuristicDir != "":
		return errors.New("-learn and -heuristic-dir exclude each other")
	case o.learn && o.learnBudget <= 0:
		return errors.New("-learn-budget must be positive")
	case o.learnFlags != "" && !o.learn:
		return errors.New("-learn-flags needs -learn")
	}
	return nil
}

// seeds returns the seeds every strategy runs with: from -first-seed, or
// 1 … runs, or 2 … runs+1 after learning on seed 1.
func (o *options) seeds() []int64 {
	first := int64(1)
	switch {
	case o.firstSeed > 0:
		first = o.firstSeed
	case o.learn:
		first = 2
	}
	var s []int64
	for k := 0; k < o.runs; k++ {
		s = append(s, first+int64(k))
	}
	return s
}

// selectStrategies parses -strategies. learned is known only when weight
// files come with it; it is then part of the default selection.
func selectStrategies(list string, withLearned, withRandom bool) ([]string, error) {
	var known []string
	for _, n := range explore.Names() {
		if n != learned || withLearned {
			known = append(known, n)
		}
	}
	if !withLearned && slices.Contains(strings.Split(list, ","), learned) {
		return nil, errors.New("-strategies: learned needs -heuristic-dir or -learn")
	}
	def := slices.Clone(known)
	if withRandom {
		known = append(known, learnedRandom)
	} else if slices.Contains(strings.Split(list, ","), learnedRandom) {
		return nil, errors.New("-strategies: learned-random needs -learn")
	}
	names, err := harness.SelectNames(list, known, def)
	if err != nil {
		return nil, fmt.Errorf("-strategies: %w", err)
	}
	return names, nil
}

func run(ctx context.Context, o options) error {
	root, err := harness.RepoRoot()
	if err != nil {
		return err
	}
	withLearned := o.learn || o.heuristicDir != ""
	strategies, err := selectStrategies(o.strategies, withLearned, o.learn)
	if err != nil {
		return err
	}
	known, err := harness.CorpusNames(filepath.Join(root, corpusDir))
	if err != nil {
		return err
	}
	var names []string
	if o.programs != "" || o.real == "" {
		if names, err = harness.SelectNames(o.programs, known, known); err != nil {
			return fmt.Errorf("-programs: %w", err)
		}
	}
	var programs []*program
	for _, n := range names {
		p, err := loadProgram(filepath.Join(root, corpusDir, n))
		if err != nil {
			return err
		}
		programs = append(programs, p)
	}
	if o.real != "" {
		all, err := harness.DiscoverReal(filepath.Join(root, realDir))
		if err != nil {
			return fmt.Errorf("-real: %w", err)
		}
		hs, err := harness.SelectReal(all, o.real)
		if err != nil {
			return fmt.Errorf("-real: %w", err)
		}
		for _, h := range hs {
			programs = append(programs, loadReal(h))
		}
	}
	if o.heuristicDir != "" && slices.Contains(strategies, learned) {
		for _, p := range programs {
			f, err := filepath.Abs(filepath.Join(o.heuristicDir, p.Name+".json"))
			if err != nil {
				return err
			}
			if _, err := os.Stat(f); err != nil {
				return fmt.Errorf("-heuristic-dir: no weight file for %s: %w", p.Name, err)
			}
			p.Heuristic = f
		}
	}

	dir, err := os.MkdirTemp("", "gocolic-strategies-")
	if err != nil {
		return fmt.Errorf("creating the workspace: %w", err)
	}
	if o.keep {
		fmt.Fprintf(os.Stderr, "strategies: workspace kept in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	rn := &runner{
		bin:        filepath.Join(dir, "bin", "gocolic"),
		module:     filepath.Join(dir, "mod"),
		real:       filepath.Join(dir, "real"),
		reports:    filepath.Join(dir, "reports"),
		logs:       filepath.Join(dir, "logs"),
		weights:    filepath.Join(dir, "weights"),
		execs:      o.execs,
		budget:     o.budget,
		cap:        o.cap,
		learnFlags: strings.Fields(o.learnFlags),
	}
	if err := rn.setUp(ctx, root, programs); err != nil {
		return err
	}

	m := meta{
		Execs: o.execs, Budget: durationString(o.budget), Runs: o.runs, Seeds: o.seeds(),
		Learn: o.learn, LearnBudget: durationString(o.learnBudget), LearnFlags: o.learnFlags,
		GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, CPUs: runtime.NumCPU(),
		Commit: harness.Commit(ctx, root),
	}
	if o.budget > 0 {
		m.Execs = 0
	} else {
		m.Cap = durationString(o.cap)
	}
	if !o.learn {
		m.LearnBudget = ""
	}
	res := newResults(programs, strategies, o.seeds())
	if o.learn && (slices.Contains(strategies, learned) || slices.Contains(strategies, learnedRandom)) {
		for _, p := range programs {
			if ctx.Err() != nil {
				break
			}
			fmt.Fprintf(os.Stderr, "strategies: learning %s (budget %v)\n", p.Name, o.learnBudget)
			lr := rn.learn(ctx, p, o.learnBudget)
			res.learns = append(res.learns, lr)
			if lr.Error != "" {
				fmt.Fprintf(os.Stderr, "strategies: learning %s FAILED: %s\n", p.Name, lr.Error)
				continue
			}
			p.Heuristic = lr.Weights
			fmt.Fprintf(os.Stderr, "strategies: learned %s in %.0fs\n", p.Name, float64(lr.WallMS)/1000)
			if !slices.Contains(strategies, learnedRandom) || ctx.Err() != nil {
				continue
			}
			fmt.Fprintf(os.Stderr, "strategies: sampling weights at random for %s (%d rounds, as learned)\n", p.Name, lr.Learned.Rounds)
			rr := rn.learnRandom(ctx, p, o.learnBudget, lr.Learned.Rounds)
			res.learns = append(res.learns, rr)
			if rr.Error != "" {
				fmt.Fprintf(os.Stderr, "strategies: random sampling for %s FAILED: %s\n", p.Name, rr.Error)
				continue
			}
			p.RandomHeuristic = rr.Weights
		}
	}

	total := len(programs) * o.runs * len(strategies)
	done := 0
loop:
	for _, p := range programs {
		for _, seed := range o.seeds() {
			for _, s := range strategies {
				if ctx.Err() != nil {
					m.Interrupted = true
					break loop
				}
				var rec runRecord
				if (s == learned && p.Heuristic == "") || (s == learnedRandom && p.RandomHeuristic == "") {
					rec = runRecord{Program: p.Name, Strategy: s, Seed: seed, ExitCode: -1, Error: "no weight file (learning failed)"}
				} else {
					rec = rn.run(ctx, p, s, seed)
				}
				if ctx.Err() != nil {
					m.Interrupted = true
					break loop
				}
				res.add(rec)
				done++
				status := fmt.Sprintf("%d/%d (%.1f%%), %d executions, %.1fs", rec.Covered, rec.Total, rec.CoveragePct, rec.Executions, float64(rec.WallMS)/1000)
				if !rec.ok() {
					status = "FAILED: " + rec.Error
				}
				fmt.Fprintf(os.Stderr, "strategies: [%d/%d] %s %s seed %d: %s\n", done, total, p.Name, s, seed, status)
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

func durationString(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return d.String()
}

// rawOutput is the -json file: the settings, the learnings and every
// run's record.
type rawOutput struct {
	Meta     meta          `json:"meta"`
	Programs []*program    `json:"programs"`
	Learns   []learnRecord `json:"learns,omitempty"`
	Runs     []runRecord   `json:"runs"`
}

// writeRaw writes every record to path, workspace paths replaced by $TMP.
func writeRaw(path, dir string, m meta, res *results) error {
	raw := rawOutput{Meta: m, Programs: res.programs, Runs: []runRecord{}}
	for _, l := range res.learns {
		l.Args = replaceAll(l.Args, dir)
		l.Weights = strings.ReplaceAll(l.Weights, dir, "$TMP")
		l.Error = strings.ReplaceAll(l.Error, dir, "$TMP")
		raw.Learns = append(raw.Learns, l)
	}
	for _, p := range res.programs {
		for _, s := range res.strategies {
			for _, rec := range res.recs[recKey(p.Name, s)] {
				rec.Args = replaceAll(rec.Args, dir)
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

// replaceAll returns a copy of args with dir replaced by $TMP.
func replaceAll(args []string, dir string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		out[i] = strings.ReplaceAll(a, dir, "$TMP")
	}
	return out
}

// retable prints the tables of the -json files of earlier runs (-tables),
// merged: programs, strategies, seeds, runs and learnings of every file,
// so that more seeds of a program, run later, join the earlier ones. The
// files must share their budget, which the tables' header states once;
// their commits are listed. The first file's settings (its learning) head
// the tables.
func retable(_ context.Context, o options) error {
	var (
		m        meta
		programs []*program
		recs     []runRecord
		learns   []learnRecord
		have     = map[string]bool{}
		commits  []string
	)
	files := strings.Split(o.tables, ",")
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("-tables: %w", err)
		}
		var raw rawOutput
		if err := json.Unmarshal(data, &raw); err != nil {
			return fmt.Errorf("-tables: %s: %w", f, err)
		}
		if i == 0 {
			m = raw.Meta
		} else if raw.Meta.Execs != m.Execs || raw.Meta.Budget != m.Budget || raw.Meta.Cap != m.Cap {
			return fmt.Errorf("-tables: %s has another budget than %s", f, files[0])
		} else {
			for _, k := range raw.Meta.Seeds {
				if !slices.Contains(m.Seeds, k) {
					m.Seeds = append(m.Seeds, k)
				}
			}
		}
		if !slices.Contains(commits, raw.Meta.Commit) {
			commits = append(commits, raw.Meta.Commit)
		}
		m.Interrupted = m.Interrupted || raw.Meta.Interrupted
		for _, p := range raw.Programs {
			if !have[p.Name] {
				have[p.Name] = true
				programs = append(programs, p)
			}
		}
		recs = append(recs, raw.Runs...)
		learns = append(learns, raw.Learns...)
	}
	m.Commit = strings.Join(commits, ", ")
	slices.Sort(m.Seeds)
	m.Runs = len(m.Seeds)
	var strategies []string
	for _, s := range append(explore.Names(), learnedRandom) {
		if slices.ContainsFunc(recs, func(r runRecord) bool { return r.Strategy == s }) {
			strategies = append(strategies, s)
		}
	}
	res := newResults(programs, strategies, m.Seeds)
	res.learns = learns
	for _, r := range recs {
		res.add(r)
	}
	md, err := res.markdown(m)
	if err != nil {
		return err
	}
	return harness.Publish(md, "$TMP", o.out)
}
