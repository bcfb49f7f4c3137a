// Command compare runs gocolic and Go's native fuzzer side by side on each
// example, with the same wall-clock budget and the same number of worker
// processes, and prints a Markdown table of what each found.
//
// Usage, from the repository root:
//
//	go run ./bench/compare [-budget 10s] [-examples magic,bits] [-workers 2] [-out FILE] [-keep]
//
// For each example, in a temporary copy of the examples (a module of its
// own, so that no corpus or report touches the repository):
//
//  1. gocolic test -budget B -workers W -notests -json r.json ./NAME Func
//  2. go test -run '^$' -fuzz '^FuzzNAME$' -fuzztime B -parallel W ./NAME -test.fuzzcachedir=DIR
//     (the test-binary flag must come after the package), then, if it
//     failed, the failing input is run again to see which panic it raises.
//  3. gocolic test -replay DIR/FuzzNAME -replay NAME/testdata/fuzz/FuzzNAME -replay SEEDS ...
//     runs every input the fuzzer kept (its cache corpus, its failing
//     input and the seeds of its f.Add calls) through gocolic's
//     instrumentation, exploring nothing, so that the fuzzer's branch
//     coverage is counted in gocolic's metric.
//
// The tools run one after the other, never at the same time.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
)

func main() {
	budget := flag.Duration("budget", 10*time.Second, "wall-clock budget of each tool on each example")
	examples := flag.String("examples", "", "comma-separated examples to run (default: all under examples/)")
	workers := flag.Int("workers", runtime.NumCPU(), "worker processes of each tool (gocolic -workers, go test -parallel)")
	out := flag.String("out", "", "also write the Markdown report to this file")
	keep := flag.Bool("keep", false, "keep the temporary workspace (copies, corpora, reports, logs) and print its path")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/compare [flags]\n\nRuns gocolic and go test -fuzz on each example and prints a Markdown comparison.\n\nFlags:")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 || *budget <= 0 || *workers <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *budget, *workers, *examples, *out, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

// gocolicRun is what gocolic did on one example.
type gocolicRun struct {
	err            error
	found, other   []string // planted markers found; other bug messages
	firstMS        int64    // time to the first planted bug, -1 if none
	covered, total int
	execsPerSec    float64
	executions     int
	elapsedMS      int64
	stopped        string
}

// fuzzRun is what go test -fuzz did on one example.
type fuzzRun struct {
	err          error
	failed       bool   // it reported a failing input
	failAt       string // test duration printed with the failure
	found, other []string
	execs        int64
	execsPerSec  float64
	haveRate     bool // a progress line with execs was printed
	// Coverage of the inputs it ran, replayed through gocolic.
	covErr         error
	covered, total int
	replayed       int // inputs replayed
	inputs         int // inputs available to replay
	covNotes       []string
}

type row struct {
	ex *harness.Example
	g  gocolicRun
	f  fuzzRun
}

func run(ctx context.Context, budget time.Duration, workers int, list, outPath string, keep bool) error {
	root, err := harness.RepoRoot()
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "compare: copying the examples and building gocolic")
	w, err := harness.NewWorkspace(ctx, root)
	if err != nil {
		return err
	}
	if keep {
		fmt.Fprintf(os.Stderr, "compare: workspace kept in %s\n", w.Dir)
	} else {
		defer w.Remove()
	}
	names, err := w.ExampleNames(list)
	if err != nil {
		return err
	}
	var rows []row
	failures := 0
	for _, name := range names {
		ex, err := w.LoadExample(name)
		if err != nil {
			return err
		}
		r := row{ex: ex}
		fmt.Fprintf(os.Stderr, "compare: %s: gocolic on %s (%v, %d workers)\n", name, ex.Func, budget, workers)
		r.g = runGocolic(ctx, w, ex, budget, workers)
		fmt.Fprintf(os.Stderr, "compare: %s: go test -fuzz %s (%v, %d workers)\n", name, ex.Fuzz, budget, workers)
		r.f = runFuzz(ctx, w, ex, budget, workers)
		if r.g.err != nil || r.f.err != nil || r.f.covErr != nil {
			failures++
		}
		rows = append(rows, r)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	md := strings.ReplaceAll(report(rows, budget, workers), w.Dir, "$TMP")
	fmt.Print(md)
	if outPath != "" {
		if err := os.WriteFile(outPath, []byte(md), 0o644); err != nil {
			return err
		}
	}
	if failures > 0 {
		return fmt.Errorf("%d example(s) had errors; see the notes of the report", failures)
	}
	return nil
}

// limit is the time a tool gets before it is considered hung.
func limit(budget time.Duration) time.Duration { return budget + 2*time.Minute }

func runGocolic(ctx context.Context, w *harness.Workspace, ex *harness.Example, budget time.Duration, workers int) gocolicRun {
	g := gocolicRun{firstMS: -1}
	jsonPath := filepath.Join(w.Dir, "reports", ex.Name+".gocolic.json")
	os.MkdirAll(filepath.Dir(jsonPath), 0o755)
	flags := []string{"-budget", budget.String(), "-workers", strconv.Itoa(workers)}
	rep, _, err := w.Gocolic(ctx, limit(budget), ex.Name+".gocolic", jsonPath, flags, ex.Name, ex.Func)
	g.err = err
	if rep == nil {
		return g
	}
	var msgs []string
	for _, b := range rep.Bugs {
		msgs = append(msgs, b.Message)
		for _, p := range ex.Planted {
			if strings.Contains(b.Message, p) && (g.firstMS < 0 || b.FoundMS < g.firstMS) {
				g.firstMS = b.FoundMS
			}
		}
	}
	g.found, g.other = harness.MatchPlanted(ex.Planted, msgs)
	g.covered, g.total = rep.Branches.Covered, rep.Branches.Total
	g.execsPerSec, g.executions = rep.ExecsPerSec, rep.Executions
	g.elapsedMS, g.stopped = rep.ElapsedMS, rep.Stopped
	return g
}

var (
	progressRE = regexp.MustCompile(`execs: (\d+) \((\d+)/sec\)`)
	failFileRE = regexp.MustCompile(`Failing input written to (testdata/fuzz/\S+)`)
	panicRE    = regexp.MustCompile(`panic: (.*)`)
)

func runFuzz(ctx context.Context, w *harness.Workspace, ex *harness.Example, budget time.Duration, workers int) fuzzRun {
	var f fuzzRun
	cache := filepath.Join(w.Dir, "fuzzcache", ex.Name)
	args := []string{"test", "-run", "^$", "-fuzz", "^" + ex.Fuzz + "$", "-fuzztime", budget.String(),
		"-parallel", strconv.Itoa(workers), "./" + ex.Name, "-test.fuzzcachedir=" + cache}
	r := harness.Run(ctx, limit(budget), w.Module, w.LogPath(ex.Name+".fuzz"), "go", args...)
	out := string(r.Output)
	// Progress lines come every 3 s; the rate is over the last interval.
	// The line printed when fuzzing stops covers next to no time and shows
	// 0/sec, so the rate is taken from the last line with a non-zero one.
	for _, m := range progressRE.FindAllStringSubmatch(out, -1) {
		f.execs, _ = strconv.ParseInt(m[1], 10, 64)
		if r, _ := strconv.ParseFloat(m[2], 64); r > 0 {
			f.execsPerSec, f.haveRate = r, true
		}
	}
	fail := failFileRE.FindStringSubmatch(out)
	switch {
	case r.TimedOut:
		f.err = r.Err
	case fail != nil:
		f.failed = true
		if m := regexp.MustCompile(`--- FAIL: ` + ex.Fuzz + ` \(([0-9.]+s)\)`).FindStringSubmatch(out); m != nil {
			f.failAt = m[1]
		}
		f.found, f.other = whichBug(ctx, w, ex, fail[1], out)
	case r.Err != nil:
		f.err = fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), r.Err, harness.Tail(r.Output, 15))
	}
	fuzzCoverage(ctx, w, ex, cache, workers, &f)
	return f
}

// whichBug runs the fuzzer's failing input again on its own and matches
// its panic against the planted markers. If that run cannot tell, the
// fuzzer's own output is used.
func whichBug(ctx context.Context, w *harness.Workspace, ex *harness.Example, input, fuzzOut string) (found, other []string) {
	entry := filepath.Base(input)
	r := harness.Run(ctx, 2*time.Minute, w.Module, w.LogPath(ex.Name+".fuzz-rerun"),
		"go", "test", "-count=1", "-run", "^"+ex.Fuzz+"/"+regexp.QuoteMeta(entry)+"$", "./"+ex.Name)
	for _, out := range []string{string(r.Output), fuzzOut} {
		var msgs []string
		for _, m := range panicRE.FindAllStringSubmatch(out, -1) {
			msgs = append(msgs, strings.TrimSpace(m[1]))
		}
		if len(msgs) == 0 {
			continue
		}
		found, other = harness.MatchPlanted(ex.Planted, msgs)
		if len(found) > 0 {
			return found, nil
		}
		return nil, other[:1]
	}
	return nil, []string{"failure without a panic message (see the fuzz log)"}
}

// fuzzCoverage replays every input the fuzzer ran and kept through
// gocolic to measure its branch coverage.
func fuzzCoverage(ctx context.Context, w *harness.Workspace, ex *harness.Example, cache string, workers int, f *fuzzRun) {
	dirs := []string{
		filepath.Join(cache, ex.Fuzz),
		filepath.Join(ex.Dir, "testdata", "fuzz", ex.Fuzz),
	}
	if ex.SeedErr != nil {
		f.covNotes = append(f.covNotes, "f.Add seeds not included: "+ex.SeedErr.Error())
	} else if len(ex.Seeds) > 0 {
		seeds := filepath.Join(w.Dir, "seeds", ex.Name)
		if err := harness.WriteCorpus(seeds, ex.Seeds); err != nil {
			f.covErr = err
			return
		}
		dirs = append(dirs, seeds)
	}
	for _, d := range dirs {
		f.inputs += countFiles(d)
	}
	if f.inputs == 0 {
		f.covErr = errors.New("the fuzzer left no inputs to replay")
		return
	}
	replay := func(dirs []string, logName string) (*harness.Report, error) {
		// The budget only bounds a replay that would otherwise run away:
		// a replay stops by itself once every input has run.
		const replayBudget = 5 * time.Minute
		flags := []string{"-budget", replayBudget.String(), "-workers", strconv.Itoa(workers)}
		for _, d := range dirs {
			flags = append(flags, "-replay", d)
		}
		jsonPath := filepath.Join(w.Dir, "reports", logName+".json")
		rep, _, err := w.Gocolic(ctx, limit(replayBudget), logName, jsonPath, flags, ex.Name, ex.Func)
		return rep, err
	}
	rep, err := replay(dirs, ex.Name+".fuzz-replay")
	if err != nil && strings.Contains(err.Error(), "corpus:") {
		// gocolic's corpus reader rejects some files Go writes (rune('\''));
		// retry on a copy with the character literals rewritten.
		norm := filepath.Join(w.Dir, "normalized", ex.Name)
		n, nerr := harness.NormalizeCorpus(dirs, norm)
		if nerr == nil && n > 0 {
			f.covNotes = append(f.covNotes, fmt.Sprintf("gocolic -replay rejected the fuzzer's corpus (`%s`); measured on a copy with its %d rune/byte character literals rewritten as integers",
				corpusError(err.Error()), n))
			rep, err = replay([]string{norm}, ex.Name+".fuzz-replay-normalized")
		}
	}
	if rep == nil {
		f.covErr = err
		return
	}
	if err != nil {
		f.covNotes = append(f.covNotes, "replay reported an error: "+firstLine(err.Error()))
	}
	f.covered, f.total, f.replayed = rep.Branches.Covered, rep.Branches.Total, rep.Executions
	if f.replayed != f.inputs {
		f.covNotes = append(f.covNotes, fmt.Sprintf("replay ran %d of %d inputs", f.replayed, f.inputs))
	}
}

func countFiles(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			n++
		}
	}
	return n
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

// corpusError returns the part of gocolic's error output from "corpus:"
// on, which names the rejected line but not the file's temporary path.
func corpusError(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if i := strings.Index(l, "corpus:"); i >= 0 {
			return strings.TrimSpace(l[i:])
		}
	}
	return firstLine(s)
}

// report formats the Markdown report.
func report(rows []row, budget time.Duration, workers int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Budget %v per tool per example, %d worker processes each, %s %s/%s, %d CPUs.\n\n",
		budget, workers, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	b.WriteString("| example | planted bugs | gocolic: bugs found | gocolic: branch cov | gocolic: execs/s | fuzz: bugs found | fuzz: branch cov | fuzz: execs/s |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|\n")
	var planted, gFound, fFound, gCov, gTot, fCov, fTot int
	var notes []string
	for _, r := range rows {
		ex := r.ex
		planted += len(ex.Planted)
		gBugs, gBr, gRate := "error", "error", "error"
		if r.g.err != nil {
			notes = append(notes, fmt.Sprintf("%s: gocolic: %s", ex.Name, firstLine(r.g.err.Error())))
		}
		if r.g.total > 0 || r.g.err == nil {
			gFound += len(r.g.found)
			gCov += r.g.covered
			gTot += r.g.total
			gBugs = bugCell(r.g.found, r.g.other)
			gBr = fmt.Sprintf("%d/%d", r.g.covered, r.g.total)
			gRate = rate(r.g.execsPerSec)
		}
		fBugs, fBr, fRate := "error", "error", "—"
		if r.f.err != nil {
			notes = append(notes, fmt.Sprintf("%s: go test -fuzz: %s", ex.Name, firstLine(r.f.err.Error())))
		} else {
			fFound += len(r.f.found)
			fBugs = bugCell(r.f.found, r.f.other)
		}
		if r.f.haveRate {
			fRate = rate(r.f.execsPerSec)
		} else if r.f.err == nil {
			fRate = "— ¹"
		}
		if r.f.covErr != nil {
			notes = append(notes, fmt.Sprintf("%s: fuzz coverage replay: %s", ex.Name, firstLine(r.f.covErr.Error())))
		} else {
			fCov += r.f.covered
			fTot += r.f.total
			fBr = fmt.Sprintf("%d/%d", r.f.covered, r.f.total)
			if len(r.f.covNotes) > 0 {
				fBr += " ²"
			}
		}
		for _, n := range r.f.covNotes {
			notes = append(notes, fmt.Sprintf("%s: fuzz coverage: %s", ex.Name, n))
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s | %s |\n", ex.Name, len(ex.Planted), gBugs, gBr, gRate, fBugs, fBr, fRate)
	}
	fmt.Fprintf(&b, "| **total** | **%d** | **%d** | **%s** | | **%d** | **%s** | |\n\n",
		planted, gFound, pct(gCov, gTot), fFound, pct(fCov, fTot))

	b.WriteString("Details: which planted bugs were found, and when.\n\n")
	b.WriteString("| example | target | gocolic: found | gocolic: stopped | fuzz: found | fuzz: outcome | fuzz: inputs replayed |\n")
	b.WriteString("|---|---|---|---|---|---|--:|\n")
	for _, r := range rows {
		gStop := "—"
		if r.g.stopped != "" {
			gStop = fmt.Sprintf("%s after %d ms, %d execs", r.g.stopped, r.g.elapsedMS, r.g.executions)
		}
		gFoundCell := names(r.g.found, r.g.other)
		if r.g.firstMS >= 0 {
			gFoundCell += fmt.Sprintf(" (first at %d ms)", r.g.firstMS)
		}
		outcome := "no failure in the budget"
		switch {
		case r.f.err != nil:
			outcome = "error"
		case r.f.failed:
			outcome = "stopped at first failure, " + r.f.failAt
		}
		if r.f.execs > 0 {
			outcome += fmt.Sprintf(", %d execs", r.f.execs)
		}
		replayed := "—"
		if r.f.covErr == nil {
			replayed = strconv.Itoa(r.f.replayed)
		}
		fmt.Fprintf(&b, "| %s | %s.%s | %s | %s | %s | %s | %s |\n", r.ex.Name, r.ex.Package, r.ex.Func,
			gFoundCell, gStop, names(r.f.found, r.f.other), outcome, replayed)
	}
	b.WriteString("\nNotes:\n\n")
	b.WriteString("- Bugs found: planted bugs (`// planted:` markers) whose text is in a reported panic message; `+N other` counts reported failures that match no marker.\n")
	b.WriteString("- go test -fuzz stops at its first failing input, so it reports at most one bug per run; gocolic keeps going and reports every distinct panic.\n")
	b.WriteString("- Branch cov: both outcomes of every condition of the package, as gocolic counts them. The fuzzer's is measured by replaying, through gocolic's instrumentation, every input it kept: its cache corpus, its failing input and its f.Add seeds. Inputs it ran but did not keep only cover outcomes that kept inputs already cover, as far as Go's coverage feedback (edge counters) tells.\n")
	b.WriteString("- gocolic: execs/s is executions over its exploration time, including solving and IPC; it stops early when it has tried every open branch (\"exhausted\"), so its time used can be far below the budget. fuzz: execs/s is the rate on its last progress line (over its last 3-second interval), which does not include its start-up and baseline-coverage phase.\n")
	b.WriteString("- ¹ no progress line with a non-zero rate was printed before the fuzzer stopped.\n")
	b.WriteString("- ² see the note for this example below.\n")
	for _, n := range notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	return b.String()
}

func bugCell(found, other []string) string {
	s := strconv.Itoa(len(found))
	if len(other) > 0 {
		s += fmt.Sprintf(" (+%d other)", len(other))
	}
	return s
}

func names(found, other []string) string {
	var parts []string
	for _, f := range found {
		parts = append(parts, "`"+f+"`")
	}
	for _, o := range other {
		parts = append(parts, "other: `"+strings.ReplaceAll(o, "|", "\\|")+"`")
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

func rate(r float64) string {
	if r <= 0 {
		return "0"
	}
	return groupThousands(int64(r + 0.5))
}

func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var out []byte
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, c)
	}
	return string(out)
}

func pct(a, b int) string {
	if b == 0 {
		return "0/0"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", a, b, 100*float64(a)/float64(b))
}
