package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/report"
	"github.com/gocolic/gocolic/session"
)

const testUsage = "gocolic test [flags] <package> <Func>"

var cmdTest = &command{
	name:  "test",
	usage: testUsage,
	short: "explore a function and write tests for it",
	run:   runTest,
}

func runTest(ctx context.Context, args []string, stderr io.Writer) int {
	cfg := new(session.Config)
	fs := commandFlags(cfg, session.CmdTest, stderr, testUsage,
		"Test explores the paths of Func in package (an import path or ./dir, as for go test)",
		"and writes <func>_gocolic_test.go next to it: regression cases pinning the observed",
		"results and one failing reproducer per distinct panic or crash.")
	return runExplore(ctx, fs, cfg, args, stderr, session.Test)
}

// commandFlags returns the flag set of cmd bound to cfg, whose usage
// message is usage, the lines of about, and the flags.
func commandFlags(cfg *session.Config, cmd session.Command, stderr io.Writer, usage string, about ...string) *flag.FlagSet {
	fs := cfg.Flags(cmd)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\n", usage)
		for _, l := range about {
			fmt.Fprintln(stderr, l)
		}
		fmt.Fprintln(stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
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
		fmt.Fprintln(stderr, argsError(fs.Args()))
		return 2
	}
	cfg.Package, cfg.Func = fs.Arg(0), fs.Arg(1)
	return runOne(ctx, cfg, stderr, run)
}

// argsError says what is wrong with the arguments left after the flags,
// which must be a package and a function; the usage above it lists the
// flags. A word among them that names a -backoff mode is most likely one
// given without "=", which that flag needs since it may stand alone.
func argsError(args []string) string {
	if len(args) < 2 {
		return fmt.Sprintf("gocolic: want a package and a function after the flags, got %d argument(s)", len(args))
	}
	for _, a := range args {
		if a == "all" || a == "implicit" || a == "off" {
			return fmt.Sprintf("gocolic: want a package and a function after the flags, got %q; a -backoff mode is given with = (-backoff=%s)", args, a)
		}
	}
	return fmt.Sprintf("gocolic: want a package and a function after the flags, got %q (flags go before the package)", args)
}

// runOne runs one exploration of cfg's function and prints its outcome.
func runOne(ctx context.Context, cfg *session.Config, stderr io.Writer,
	run func(context.Context, session.Config) (*session.Outcome, error)) int {
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
	reach := ""
	if n := len(rep.Unreachable); n > 0 {
		reach = fmt.Sprintf(" (%d/%d of the reachable, %d proved unreachable)", cov, total-n, n)
	}
	fmt.Fprintf(w, "gocolic: %d executions, %d paths, branches %d/%d%s, %d bugs, stopped: %s\n",
		rep.Execs, rep.Paths, cov, total, reach, len(rep.Findings), rep.Stopped)
	for _, f := range rep.SortedFindings() {
		fmt.Fprintf(w, "  %s: %s\n    input: %s\n", f.Kind, f.Message, out.Entry.Call(f.Input))
	}
	if m := out.MC; m != nil {
		fmt.Fprintf(w, "gocolic: abstraction: %d functions model-checked in %v, %d rounds during testing (%d refinements, %d predicates, %d graph nodes), %d outcomes proved by the straight code before them, %d monitors pruned %d negations, %d negations held by claims, %d alarms\n",
			m.Functions, m.Time.Round(time.Millisecond), m.Rounds, m.Refinements, m.Predicates, m.Nodes, m.Local, out.Monitors, rep.Prune.Pruned, rep.Prune.Claimed, len(rep.Prune.Alarms))
	}
	if rep.SlowRetried > 0 {
		fmt.Fprintf(w, "gocolic: %d executions exceeded -timeout with symbolic tracking but not without it, and were explored on a second tracked try within ten times -timeout\n", rep.SlowRetried)
	}
	if rep.SlowTracked > 0 {
		fmt.Fprintf(w, "gocolic: %d executions exceeded -timeout with symbolic tracking but not without it: not reported as bugs; what they covered counts, but their paths are unexplored (a longer -timeout explores them)\n", rep.SlowTracked)
	}
	stateDependent(w, rep)
	concretised(w, out, dir)
	wasted(w, out, dir)
	if out.TestFile != "" {
		fmt.Fprintf(w, "gocolic: wrote %s\n", out.TestFile)
	}
}

// stateTop bounds the messages printed of the state-dependent failures.
const stateTop = 3

// stateDependent prints one line on the failures that did not recur when
// their input ran alone in a fresh worker: how many, and the first few
// messages; nothing when there are none.
func stateDependent(w io.Writer, rep *coordinator.Report) {
	fs := rep.StateDependent
	if len(fs) == 0 {
		return
	}
	var first []string
	for _, f := range fs[:min(len(fs), stateTop)] {
		msg, _, _ := strings.Cut(f.Message, "\n")
		if strings.ContainsFunc(msg, func(r rune) bool { return !unicode.IsPrint(r) }) {
			msg = strconv.Quote(msg) // a name made of input bytes
		}
		first = append(first, f.Kind+": "+msg)
	}
	if len(fs) > stateTop {
		first = append(first, "...")
	}
	inferred := ""
	if n := rep.Alone.Inferred; n > 0 {
		inferred = fmt.Sprintf(", %d of them without a run of their own (others of their kind and place had not recurred)", n)
	}
	fmt.Fprintf(w, "gocolic: %d failures did not recur when their input ran alone in a fresh worker process%s: not reported as bugs; they depend on state earlier executions left in the process (package-level variables); state_dependent in the report lists them: %s\n",
		len(fs), inferred, strings.Join(first, "; "))
}

// wastedTop bounds the branch sites printed with their failed queries.
const wastedTop = 3

// wasted prints the path queries of the run that led to no execution
// (unsat or unknown) and the sites with most of them; nothing when none
// failed.
func wasted(w io.Writer, out *session.Outcome, dir string) {
	stuck(w, out, dir)
	q := out.Report.Queries
	unsat, unknown := q["unsat"], q["unknown"]+q["error"]+q["stuck"]
	if unsat+unknown == 0 {
		return
	}
	fmt.Fprintf(w, "gocolic: solver: %d queries, %d unsat, %d unknown; most failed at:\n", q["sat"]+unsat+unknown, unsat, unknown)
	sites := session.QuerySites(out.Entry, out.Report)
	for _, s := range sites[:min(len(sites), wastedTop)] {
		if s.Failed() == 0 {
			break
		}
		place := "(unknown place)"
		if s.File != "" {
			place = fmt.Sprintf("%s:%d %s", places(out, dir).Path(s.File), s.Line, s.Cond)
		}
		fmt.Fprintf(w, "  %s: %d of %d failed, %s\n", place, s.Failed(), s.Queries, s.Time.Round(time.Millisecond))
	}
}

// stuck prints the queries the solver pool's watchdog gave up on, where
// they were asked and what became of their solvers; nothing when none.
func stuck(w io.Writer, out *session.Outcome, dir string) {
	s := out.Report.Stuck
	if s.Queries == 0 {
		return
	}
	fmt.Fprintf(w, "gocolic: solver: %d queries ignored -solver-timeout and their interrupt and were given up (counted unknown); %d solvers replaced", s.Queries, s.Replaced)
	if s.Dead > 0 {
		fmt.Fprintf(w, "; up to %d solvers lost: %s", s.Dead, s.Why)
	}
	fmt.Fprintln(w)
	for _, q := range session.QuerySites(out.Entry, out.Report) {
		if q.Stuck > 0 && q.File != "" {
			fmt.Fprintf(w, "  stuck at %s:%d %s: %d\n", places(out, dir).Path(q.File), q.Line, q.Cond, q.Stuck)
		}
	}
}

// places returns how the summary of out writes paths: relative to dir,
// the working directory, when below it.
func places(out *session.Outcome, dir string) report.Places {
	return report.Places{Dir: dir, GoRoot: out.Entry.GoRoot, ModCache: out.Entry.ModCache}
}

// divergentSites prints the branch sites where most executions left
// their predicted path, at most concretisedTop; nothing when none did.
func divergentSites(w io.Writer, out *session.Outcome, dir string) {
	ds := session.DivergentSites(out.Entry, out.Report, concretisedTop)
	if len(ds) == 0 {
		return
	}
	var parts []string
	for _, d := range ds {
		place := "(unknown place)"
		if d.File != "" {
			place = fmt.Sprintf("%s:%d %s", places(out, dir).Path(d.File), d.Line, d.Cond)
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", place, d.Count))
	}
	fmt.Fprintf(w, "gocolic: executions left their predicted path most at: %s\n", strings.Join(parts, ", "))
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
		divergentSites(w, out, dir)
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
				place = fmt.Sprintf("%s:%d %s", places(out, dir).Path(s.File), s.Line, s.Expr)
			}
			fmt.Fprintf(w, "%s %s ×%d", sep, place, s.Events)
		}
		fmt.Fprintln(w)
	}
	divergentSites(w, out, dir)
	if cs := session.UninstrumentedCallees(out.Entry, out.Report); len(cs) > 0 {
		var parts []string
		for _, c := range cs[:min(len(cs), concretisedTop)] {
			parts = append(parts, fmt.Sprintf("%s ×%d", c.Pkg, c.Events))
		}
		fmt.Fprintf(w, "gocolic: calls into packages not instrumented made values concrete: %s; -instrument %s keeps them symbolic\n",
			strings.Join(parts, ", "), cs[0].Pkg)
	}
}
