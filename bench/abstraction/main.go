// Command abstraction measures abstraction-driven testing (issue 19,
// seed 002): branch coverage of gocolic test with and without
// -abstraction at equal count-based budgets, on the programs of
// bench/abstraction/corpus.
//
// Usage, from the repository root:
//
//	go run ./bench/abstraction [-programs simplewhile,unreach] [-nets 9x400] [-runs 300] [-seeds 3] [-first-seed 1] [-budget D] [-strategies cover,dfs] [-heuristic-dir W] [-mc-share 0.1,0.2] [-cap 5m] [-out FILE] [-json FILE]
//
// The harness copies the corpus into a temporary module, builds gocolic
// there once, and runs, one at a time, for every program, strategy,
// seed k and mode (off, on):
//
//	gocolic test -runs E -lanes concolic -solver z3 -seed k -workers 1 -notests -nostate -minimizetime 0 -json FILE [-strategy S] [-abstraction [-mc-share F]] ./NAME Func
//
// -nets adds nets larger than the corpus's, written by gen into the
// temporary module: 9x400 is a net of 400 transitions over 24 places fired
// for 9 rounds (gen's -seed 1 and -dead 10), named nsichneu9x400. With
// -nets and no -programs, only the nets run.
//
// -heuristic-dir W gives the strategy learned its weights, W/NAME.json
// for program NAME (gocolic learn's -o); -first-seed 2 then keeps the
// seed they were learned on out of the runs.
//
// -strategies runs every strategy named (gocolic's default when none is)
// with and without -abstraction, at the same seeds, for the table of the
// abstraction against each strategy. -mc-share runs the abstraction once
// per share given, for the curve of coverage against the model checker's
// share (seed 002's Figure 3); the share is a part of the time budget,
// so it needs -budget.
//
// Without -budget a run has no time budget, so the model checker runs
// once, before testing, for at most 2 s, and has no rounds during
// testing (which would make the run depend on timing): both modes run
// exactly E executions. -budget D gives both modes the time budget D
// too: the model checker then has -mc-share's part of it, half before
// testing and half in rounds beside it, and a run ends at E executions
// or at D. The cap (-cap) only kills a run that hangs.
//
// From each run's JSON report it takes the branch coverage of the target
// package (covered of branches.total), the outcomes proved unreachable,
// and the abstraction's numbers (model-checker time, negations pruned,
// alarms, pruned outcomes covered), and prints Markdown: per program and
// mode the mean and range of coverage over the seeds, and the means of
// the rest. -json writes every run's record. A failed run is listed and
// left out; the command then exits with status 1.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/report"
)

// program is one package of the corpus and its entry.
type program struct{ name, fn string }

// programs is the corpus, in the order of the tables.
var programs = []program{
	{"simplewhile", "Goal"},
	{"branches", "Run"},
	{"unreach", "Run"},
	{"nsichneu2", "Run"},
	{"nsichneu9", "Run"},
	{"nsichneu17", "Run"},
}

// mode is how a program is run: its strategy ("" for gocolic's
// default), with or without the abstraction, and the model checker's
// share (0 for gocolic's default).
type mode struct {
	Strategy    string  `json:"strategy,omitempty"`
	Abstraction bool    `json:"abstraction"`
	MCShare     float64 `json:"mc_share,omitempty"`
}

// modes returns the modes of the flags: for each strategy, off, then on
// at each share.
func modes(strategies, shares string) ([]mode, error) {
	strats := []string{""}
	if strategies != "" {
		strats = strings.Split(strategies, ",")
	}
	fs := []float64{0}
	if shares != "" {
		fs = nil
		for _, x := range strings.Split(shares, ",") {
			f, err := strconv.ParseFloat(x, 64)
			if err != nil || f <= 0 || f >= 1 {
				return nil, fmt.Errorf("-mc-share %q: want numbers above 0 and below 1", x)
			}
			fs = append(fs, f)
		}
	}
	var out []mode
	for _, st := range strats {
		out = append(out, mode{Strategy: st})
		for _, f := range fs {
			out = append(out, mode{Strategy: st, Abstraction: true, MCShare: f})
		}
	}
	return out, nil
}

// label names m in the table.
func (m mode) label() string {
	st := m.Strategy
	if st == "" {
		st = "default"
	}
	switch {
	case !m.Abstraction:
		return st + " | off"
	case m.MCShare > 0:
		return fmt.Sprintf("%s | on, share %g", st, m.MCShare)
	}
	return st + " | on"
}

// record is one run.
type record struct {
	Program string `json:"program"`
	mode
	Seed  int `json:"seed"`
	Execs int `json:"execs"`
	// Queries and Unsat count the solver's path-condition queries.
	Queries     int   `json:"queries"`
	Unsat       int   `json:"unsat"`
	Covered     int   `json:"covered"`
	Total       int   `json:"total"`
	Unreachable int   `json:"unreachable"`
	MCMS        int64 `json:"mc_ms"`
	Rounds      int   `json:"rounds"`
	Pruned      int   `json:"pruned"`
	// Held counts the negations held back because a claim rules their
	// side out.
	Held   int `json:"held_by_claims"`
	Alarms int `json:"alarms"`
	// PrunedCovered must be 0: a pruned negation taken all the same.
	PrunedCovered int    `json:"pruned_covered"`
	WallMS        int64  `json:"wall_ms"`
	Failure       string `json:"failure,omitempty"`
}

// options are the harness's settings.
type options struct {
	only, nets     string // -programs, -nets
	ms             []mode
	runs           int
	seeds          int // seeds first .. first+seeds-1
	first          int
	budget, capDur time.Duration
	out, jsonTo    string
	heuristics     string // -heuristic-dir
}

func main() {
	var o options
	var strats, shares string
	flag.StringVar(&o.only, "programs", "", "comma-separated programs of the corpus (default: all)")
	flag.StringVar(&o.nets, "nets", "", "comma-separated nets ROUNDSxTRANSITIONS to generate and run besides (24 places)")
	flag.IntVar(&o.runs, "runs", 300, "executions of each run")
	flag.IntVar(&o.seeds, "seeds", 3, "seeds of each program and mode, from -first-seed on")
	flag.IntVar(&o.first, "first-seed", 1, "first seed of the runs; e.g. 2 with -heuristic-dir and weights learned on seed 1")
	flag.DurationVar(&o.budget, "budget", 0, "time budget of each run besides -runs (0: none; the model checker then has 2 s before testing and no rounds)")
	flag.StringVar(&strats, "strategies", "", "comma-separated strategies, each run with and without -abstraction (default: gocolic's; learned needs -heuristic-dir)")
	flag.StringVar(&shares, "mc-share", "", "comma-separated shares of the budget for the model checker, one run with -abstraction each (needs -budget)")
	flag.DurationVar(&o.capDur, "cap", 5*time.Minute, "kill a run that takes longer")
	flag.StringVar(&o.out, "out", "", "write the Markdown tables to this file too")
	flag.StringVar(&o.jsonTo, "json", "", "write every run's record to this file")
	flag.StringVar(&o.heuristics, "heuristic-dir", "", "directory of weight files NAME.json, one per program, for the strategy learned")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	o.ms, err = modes(strats, shares)
	switch {
	case err != nil:
	case shares != "" && o.budget <= 0:
		err = fmt.Errorf("-mc-share is a share of the time budget: give -budget too")
	case strings.Contains(","+strats+",", ",learned,") && o.heuristics == "":
		err = fmt.Errorf("the strategy learned needs -heuristic-dir")
	}
	if err == nil {
		err = mainErr(ctx, o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "abstraction:", err)
		os.Exit(1)
	}
}

func mainErr(ctx context.Context, o options) error {
	var progs []program
	if o.only != "" || o.nets == "" {
		var err error
		if progs, err = choose(o.only); err != nil {
			return err
		}
	}
	root, err := harness.RepoRoot()
	if err != nil {
		return err
	}
	w, err := harness.NewWorkspaceOf(ctx, root, "bench/abstraction/corpus")
	if err != nil {
		return err
	}
	defer w.Remove()
	for _, n := range strings.Split(o.nets, ",") {
		if n == "" {
			continue
		}
		p, err := generate(ctx, root, w, n)
		if err != nil {
			return err
		}
		progs = append(progs, p)
	}
	if o.heuristics != "" {
		if o.heuristics, err = filepath.Abs(o.heuristics); err != nil {
			return err
		}
	}
	var recs []record
	for _, p := range progs {
		for seed := o.first; seed < o.first+o.seeds; seed++ {
			for _, m := range o.ms {
				r := runOne(ctx, w, p, seed, m, o.runs, o.budget, o.capDur, o.heuristics)
				fmt.Fprintf(os.Stderr, "%s seed %d %s: %d/%d%s\n", p.name, seed, m.label(), r.Covered, r.Total, failNote(r))
				recs = append(recs, r)
			}
		}
	}
	var sinks []io.Writer
	sinks = append(sinks, os.Stdout)
	if o.out != "" {
		f, err := os.Create(o.out)
		if err != nil {
			return err
		}
		defer f.Close()
		sinks = append(sinks, f)
	}
	table(io.MultiWriter(sinks...), recs, progs, o.ms, o.runs, o.budget, o.seeds)
	if o.jsonTo != "" {
		b, err := json.MarshalIndent(recs, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.jsonTo, b, 0o644); err != nil {
			return err
		}
	}
	for _, r := range recs {
		if r.Failure != "" {
			return fmt.Errorf("some runs failed")
		}
	}
	return nil
}

// generate writes the net spec names (ROUNDSxTRANSITIONS) into w's
// module with gen and returns it.
func generate(ctx context.Context, root string, w *harness.Workspace, spec string) (program, error) {
	rounds, transitions, ok := strings.Cut(spec, "x")
	r, err1 := strconv.Atoi(rounds)
	t, err2 := strconv.Atoi(transitions)
	if !ok || err1 != nil || err2 != nil || r < 1 || t < 1 {
		return program{}, fmt.Errorf("-nets: %q is not ROUNDSxTRANSITIONS", spec)
	}
	name := "nsichneu" + spec
	res := harness.Run(ctx, 5*time.Minute, root, w.LogPath("gen-"+name), "go", "run", "./bench/abstraction/gen",
		"-iterations", rounds, "-transitions", transitions, "-places", "24", "-o", filepath.Join(w.Module, name))
	if res.Err != nil {
		return program{}, fmt.Errorf("generating %s: %w\n%s", name, res.Err, harness.Tail(res.Output, 20))
	}
	return program{name, "Run"}, nil
}

// choose returns the programs named in only (all when empty).
func choose(only string) ([]program, error) {
	if only == "" {
		return programs, nil
	}
	var out []program
	for _, n := range strings.Split(only, ",") {
		found := false
		for _, p := range programs {
			if p.name == n {
				out, found = append(out, p), true
			}
		}
		if !found {
			return nil, fmt.Errorf("no program %q in the corpus", n)
		}
	}
	return out, nil
}

func failNote(r record) string {
	if r.Failure == "" {
		return ""
	}
	return " FAILED: " + r.Failure
}

// runOne runs gocolic test once and reads its report.
func runOne(ctx context.Context, w *harness.Workspace, p program, seed int, m mode, runs int, budget, capDur time.Duration, heuristics string) record {
	rec := record{Program: p.name, mode: m, Seed: seed}
	name := fmt.Sprintf("%s-%d-%s-%t-%g", p.name, seed, m.Strategy, m.Abstraction, m.MCShare)
	jsonPath := filepath.Join(w.Dir, name+".json")
	args := []string{"test", "-runs", strconv.Itoa(runs), "-lanes", "concolic", "-solver", "z3", "-seed", strconv.Itoa(seed),
		"-workers", "1", "-notests", "-nostate", "-minimizetime", "0", "-json", jsonPath, "-abstraction=" + strconv.FormatBool(m.Abstraction)}
	if budget > 0 {
		args = append(args, "-budget", budget.String())
	}
	if m.Strategy != "" {
		args = append(args, "-strategy", m.Strategy)
	}
	if m.Strategy == "learned" {
		args = append(args, "-heuristic", filepath.Join(heuristics, p.name+".json"))
	}
	if m.MCShare > 0 {
		args = append(args, "-mc-share", strconv.FormatFloat(m.MCShare, 'g', -1, 64))
	}
	args = append(args, "./"+p.name, p.fn)
	res := harness.Run(ctx, capDur, w.Module, w.LogPath(name), w.Bin, args...)
	rec.WallMS = res.Wall.Milliseconds()
	rep, err := report.ReadJSON(jsonPath)
	if f := harness.RunFailure(res.ExitCode, res.TimedOut, err); f != "" {
		rec.Failure = f
		return rec
	}
	rec.Execs, rec.Covered, rec.Total, rec.Unreachable = rep.Executions, rep.Branches.Covered, rep.Branches.Total, len(rep.Unreachable)
	rec.Queries, rec.Unsat = rep.Solver.Queries, rep.Solver.Unsat
	if a := rep.Abstraction; a != nil {
		rec.MCMS, rec.Rounds, rec.Pruned, rec.Held, rec.Alarms, rec.PrunedCovered = a.MCMS, a.Rounds, a.Pruned, a.HeldByClaims, len(a.Alarms), a.PrunedCovered
	}
	return rec
}

// table prints, per program and mode, the mean and range of coverage
// over the seeds that ran, and the means of the abstraction's numbers.
func table(w io.Writer, recs []record, progs []program, ms []mode, runs int, budget time.Duration, seeds int) {
	limit := fmt.Sprintf("-runs %d", runs)
	if budget > 0 {
		limit += " -budget " + budget.String()
	}
	fmt.Fprintf(w, "Branch coverage of gocolic test at %s (mean over %d seeds, -workers 1, -solver z3, -lanes concolic):\n\n", limit, seeds)
	fmt.Fprintln(w, "| program | strategy | -abstraction | covered (min–max) / total | proved unreachable | covered / reachable | executions | queries (unsat) | model checker ms | rounds | pruned (held by claims) | alarms | pruned covered | failed |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, p := range progs {
		for _, m := range ms {
			var ok []record
			failed := 0
			for _, r := range recs {
				if r.Program != p.name || r.mode != m {
					continue
				}
				if r.Failure != "" {
					failed++
					continue
				}
				ok = append(ok, r)
			}
			if len(ok) == 0 && failed == 0 {
				continue
			}
			row := summarise(ok)
			fmt.Fprintf(w, "| %s | %s | %.1f (%d–%d) / %d | %.1f | %.1f / %.1f | %.0f | %.0f (%.0f) | %.0f | %.1f | %.1f (%.1f) | %.1f | %d | %d |\n",
				p.name, m.label(), row.covered, row.min, row.max, row.total, row.unreachable, row.covered, float64(row.total)-row.unreachable, row.execs, row.queries, row.unsat, row.mcMS, row.rounds, row.pruned, row.held, row.alarms, row.prunedCovered, failed)
		}
	}
}

// row is what a table row shows of some runs.
type row struct {
	covered, unreachable, execs, queries, unsat, mcMS, rounds, pruned, held, alarms float64
	min, max, total, prunedCovered                                                  int
}

func summarise(rs []record) row {
	var r row
	if len(rs) == 0 {
		return r
	}
	r.min = rs[0].Covered
	for _, x := range rs {
		r.covered += float64(x.Covered)
		r.unreachable += float64(x.Unreachable)
		r.queries += float64(x.Queries)
		r.unsat += float64(x.Unsat)
		r.mcMS += float64(x.MCMS)
		r.rounds += float64(x.Rounds)
		r.pruned += float64(x.Pruned)
		r.held += float64(x.Held)
		r.execs += float64(x.Execs)
		r.alarms += float64(x.Alarms)
		r.min, r.max, r.total = min(r.min, x.Covered), max(r.max, x.Covered), x.Total
		r.prunedCovered += x.PrunedCovered
	}
	n := float64(len(rs))
	r.covered /= n
	r.unreachable /= n
	r.queries /= n
	r.unsat /= n
	r.mcMS /= n
	r.rounds /= n
	r.pruned /= n
	r.held /= n
	r.execs /= n
	r.alarms /= n
	return r
}
