// Command compare runs gocolic, Go's native fuzzer and the two together
// (gocolic fuzz -with-fuzzer) side by side on each example, with the same
// wall-clock budget and the same number of worker processes, and prints a
// Markdown table of what each found.
//
// Usage, from the repository root:
//
//	go run ./bench/compare [-budget 10s] [-examples magic,bits] [-workers 2] [-contenders gocolic,fuzz,hybrid] [-out FILE] [-keep]
//
// For each example, in a temporary copy of the examples (a module of its
// own, whose path is unique to the run, so that no corpus or report
// touches the repository and no fuzz cache is shared), each selected
// contender runs in turn:
//
//   - gocolic: gocolic test -budget B -workers W -minimizetime 0 -notests -json r.json ./NAME Func
//     explores the function the fuzz target calls; coverage and bugs come
//     from its report.
//   - fuzz: go test -run '^$' -fuzz '^FuzzNAME$' -fuzztime B -parallel W ./NAME -test.fuzzcachedir=DIR
//     (the test-binary flag must come after the package), then, if it
//     failed, the failing input is run again to see which panic it raises.
//     Then gocolic test -replay DIR/FuzzNAME -replay NAME/testdata/fuzz/FuzzNAME -replay SEEDS ...
//     runs every input the fuzzer kept (its cache corpus, its failing
//     input and the seeds of its f.Add calls) through gocolic's
//     instrumentation, exploring nothing, so that the fuzzer's branch
//     coverage is counted in gocolic's metric.
//   - hybrid: gocolic fuzz -with-fuzzer -budget B -workers W -minimizetime 0 -json r.json ./NAME FuzzNAME
//     explores FuzzNAME's fuzz function with go test -fuzz alongside (the
//     W workers split between the two). The fuzzer's cache of the target,
//     $GOCACHE/fuzz/<pkg>/FuzzNAME, is emptied before the run and moved
//     into the workspace after it; its coverage is the replay, as for the
//     fuzzer, of everything the run left: that cache (the fuzzer's entries
//     and the inputs gocolic gave it), the corpus entries and failures
//     written to testdata, and the f.Add seeds.
//   - gocolic-fuzz (not run by default): the same without -with-fuzzer,
//     measured the same way.
//
// The tools run one after the other, never at the same time. What a tool
// wrote to the example's testdata is moved out of the module before the
// next one starts.
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
	"github.com/gocolic/gocolic/corpus"
	"github.com/gocolic/gocolic/report"
	"github.com/gocolic/gocolic/session"
)

// The contenders, in the order they run on each example.
const (
	cGocolic = "gocolic"      // gocolic test on Func
	cFuzz    = "fuzz"         // go test -fuzz on FuzzNAME
	cHybrid  = "hybrid"       // gocolic fuzz -with-fuzzer on FuzzNAME
	cGFuzz   = "gocolic-fuzz" // gocolic fuzz on FuzzNAME, no fuzzer
)

var (
	allContenders     = []string{cGocolic, cFuzz, cHybrid, cGFuzz}
	defaultContenders = []string{cGocolic, cFuzz, cHybrid}
)

func main() {
	budget := flag.Duration("budget", 10*time.Second, "wall-clock budget of each tool on each example")
	examples := flag.String("examples", "", "comma-separated examples to run (default: all under examples/)")
	workers := flag.Int("workers", runtime.NumCPU(), "worker processes of each tool (gocolic -workers, go test -parallel; the hybrid splits them)")
	contenders := flag.String("contenders", strings.Join(defaultContenders, ","), "comma-separated contenders to run, of: "+strings.Join(allContenders, ", "))
	out := flag.String("out", "", "also write the Markdown report to this file")
	keep := flag.Bool("keep", false, "keep the temporary workspace (copies, corpora, reports, logs) and print its path")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/compare [flags]\n\nRuns gocolic, go test -fuzz and gocolic fuzz -with-fuzzer on each example and prints a Markdown comparison.\n\nFlags:")
		flag.PrintDefaults()
	}
	flag.Parse()
	sel, err := harness.SelectNames(*contenders, allContenders, defaultContenders)
	if err != nil {
		fmt.Fprintln(os.Stderr, "compare: -contenders:", err)
		os.Exit(2)
	}
	if flag.NArg() != 0 || *budget <= 0 || *workers <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *budget, *workers, sel, *examples, *out, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

// gocolicRun is what gocolic test did on one example.
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

// replayCov is the branch coverage of a set of inputs, measured by
// running them through gocolic test -replay.
type replayCov struct {
	err            error
	covered, total int
	replayed       int      // inputs replayed
	inputs         int      // inputs available to replay
	bugs           []string // messages of the failures the inputs raised
	notes          []string
}

// fuzzRun is what go test -fuzz did on one example.
type fuzzRun struct {
	err          error
	failed       bool   // it reported a failing input
	failAt       string // test duration printed with the failure
	found, other []string
	execs        int64
	execsPerSec  float64
	haveRate     bool      // a progress line with execs was printed
	cov          replayCov // coverage of the inputs it kept
}

// targetRun is what gocolic fuzz, with or without -with-fuzzer, did on
// one example's fuzz target.
type targetRun struct {
	err          error
	found, other []string // planted markers found; other bug messages
	// firstMS is the time to the first planted bug in the run's own
	// report, -1 if none there.
	firstMS int64
	// replayOnly are the planted bugs found only by the replay of the
	// inputs the run left, not in its own report.
	replayOnly []string
	haveOwn    bool // the run's own report was read
	// Coverage in the run's own report: every input gocolic ran.
	ownCovered, ownTotal int
	execsPerSec          float64
	executions           int
	elapsedMS            int64
	stopped              string
	hybrid               *report.HybridStats
	cacheFiles           int       // entries the fuzzer's cache held at the end (hybrid)
	cov                  replayCov // coverage of everything the run left
	notes                []string
}

type row struct {
	ex *harness.Example
	g  *gocolicRun
	f  *fuzzRun
	h  *targetRun // hybrid
	gf *targetRun // gocolic fuzz alone
}

func run(ctx context.Context, budget time.Duration, workers int, contenders []string, list, outPath string, keep bool) error {
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
	selected := map[string]bool{}
	for _, c := range contenders {
		selected[c] = true
	}
	var rows []row
	failures := 0
	for _, name := range names {
		ex, err := w.LoadExample(name)
		if err != nil {
			return err
		}
		r := row{ex: ex}
		failed := false
		if selected[cGocolic] {
			fmt.Fprintf(os.Stderr, "compare: %s: gocolic test on %s (%v, %d workers)\n", name, ex.Func, budget, workers)
			g := runGocolic(ctx, w, ex, budget, workers)
			r.g = &g
			failed = failed || g.err != nil
		}
		if selected[cFuzz] && ctx.Err() == nil {
			fmt.Fprintf(os.Stderr, "compare: %s: go test -fuzz %s (%v, %d workers)\n", name, ex.Fuzz, budget, workers)
			f := runFuzz(ctx, w, ex, budget, workers)
			r.f = &f
			failed = failed || f.err != nil || f.cov.err != nil
		}
		if selected[cHybrid] && ctx.Err() == nil {
			fmt.Fprintf(os.Stderr, "compare: %s: gocolic fuzz -with-fuzzer %s (%v, %d workers)\n", name, ex.Fuzz, budget, workers)
			h := runTarget(ctx, w, ex, budget, workers, true)
			r.h = &h
			failed = failed || h.err != nil || h.cov.err != nil
		}
		if selected[cGFuzz] && ctx.Err() == nil {
			fmt.Fprintf(os.Stderr, "compare: %s: gocolic fuzz %s (%v, %d workers)\n", name, ex.Fuzz, budget, workers)
			gf := runTarget(ctx, w, ex, budget, workers, false)
			r.gf = &gf
			failed = failed || gf.err != nil || gf.cov.err != nil
		}
		if failed {
			failures++
		}
		rows = append(rows, r)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	md, err := markdownReport(rows, contenders, budget, workers)
	if err != nil {
		return err
	}
	md = strings.ReplaceAll(md, w.Dir, "$TMP")
	md = strings.ReplaceAll(md, w.ModulePath, "$MODULE")
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

// gocolicFlags are the flags every gocolic exploration gets. Failing
// inputs are not minimised after the exploration (-minimizetime 0): the
// replays then run the inputs as found, and no run goes on past its
// budget; minimising changes neither the bugs nor the coverage of a
// report.
func gocolicFlags(budget time.Duration, workers int) []string {
	return []string{"-budget", budget.String(), "-workers", strconv.Itoa(workers), "-minimizetime", "0"}
}

func runGocolic(ctx context.Context, w *harness.Workspace, ex *harness.Example, budget time.Duration, workers int) gocolicRun {
	g := gocolicRun{firstMS: -1}
	jsonPath := filepath.Join(w.Dir, "reports", ex.Name+".gocolic.json")
	os.MkdirAll(filepath.Dir(jsonPath), 0o755)
	rep, _, err := w.Gocolic(ctx, limit(budget), ex.Name+".gocolic", jsonPath, gocolicFlags(budget, workers), ex.Name, ex.Func)
	g.err = err
	if rep == nil {
		return g
	}
	g.found, g.other, g.firstMS = reportBugs(ex, rep)
	g.covered, g.total = rep.Branches.Covered, rep.Branches.Total
	g.execsPerSec, g.executions = rep.ExecsPerSec, rep.Executions
	g.elapsedMS, g.stopped = rep.ElapsedMS, rep.Stopped
	return g
}

// reportBugs matches the bugs of a gocolic report against the planted
// markers, and returns the time of the first planted one (-1 if none).
func reportBugs(ex *harness.Example, rep *report.Report) (found, other []string, firstMS int64) {
	firstMS = -1
	var msgs []string
	for _, b := range rep.Bugs {
		msgs = append(msgs, b.Message)
		for _, p := range ex.Planted {
			if strings.Contains(b.Message, p) && (firstMS < 0 || b.FoundMS < firstMS) {
				firstMS = b.FoundMS
			}
		}
	}
	found, other = harness.MatchPlanted(ex.Planted, msgs)
	return found, other, firstMS
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
	case r.Err != nil && !session.FuzzerDeadlineRace(r.Output):
		f.err = fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), r.Err, harness.Tail(r.Output, 15))
	}
	f.cov = replayCoverage(ctx, w, ex, []string{
		filepath.Join(cache, ex.Fuzz),
		filepath.Join(ex.Dir, "testdata", "fuzz", ex.Fuzz),
	}, workers, ex.Name+".fuzz-replay")
	// Its failing input must not reach the next contender.
	if _, err := w.StashTestdata(ex.Name, cFuzz); err != nil && f.err == nil {
		f.err = err
	}
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

// runTarget runs gocolic fuzz on the example's fuzz target, with go test
// -fuzz alongside if withFuzzer, and measures the coverage of everything
// the run left by replaying it.
func runTarget(ctx context.Context, w *harness.Workspace, ex *harness.Example, budget time.Duration, workers int, withFuzzer bool) targetRun {
	t := targetRun{firstMS: -1}
	label := cGFuzz
	if withFuzzer {
		label = cHybrid
	}
	td := filepath.Join(ex.Dir, "testdata")
	if _, err := os.Stat(td); err == nil {
		// Nothing should be left there; if something is, it must not seed
		// this run.
		if _, err := w.StashTestdata(ex.Name, label+"-leftover"); err != nil {
			t.err = err
			return t
		}
		t.notes = append(t.notes, "a testdata directory left by an earlier tool was moved away first")
	}
	var cacheDir string
	if withFuzzer {
		var err error
		if cacheDir, err = w.FuzzCacheDir(w.PkgPath(ex.Name), ex.Fuzz); err != nil {
			t.err = err
			return t
		}
		// The module path is unique to the workspace, so the cache should
		// be empty; make sure of it, for this target and every other one
		// of the module.
		if err := os.RemoveAll(w.ModuleFuzzCache()); err != nil {
			t.err = fmt.Errorf("emptying the fuzz cache: %w", err)
			return t
		}
		warmFuzzBuild(ctx, w, ex)
	}
	flags := gocolicFlags(budget, workers)
	if withFuzzer {
		flags = append(flags, "-with-fuzzer")
	}
	jsonPath := filepath.Join(w.Dir, "reports", ex.Name+"."+label+".json")
	os.MkdirAll(filepath.Dir(jsonPath), 0o755)
	rep, _, err := w.GocolicFuzz(ctx, limit(budget), ex.Name+"."+label, jsonPath, flags, ex.Name, ex.Fuzz)
	t.err = err
	var dirs []string
	if withFuzzer {
		// The cache goes into the workspace, and out of the build cache.
		keep := filepath.Join(w.Dir, "corpora", label, ex.Name, "cache")
		n, merr := harness.MoveFiles(cacheDir, keep)
		if merr == nil {
			merr = os.RemoveAll(w.ModuleFuzzCache())
		}
		if merr != nil && t.err == nil {
			t.err = fmt.Errorf("moving the fuzz cache: %w", merr)
		}
		t.cacheFiles = n
		dirs = append(dirs, keep)
	}
	stash, serr := w.StashTestdata(ex.Name, label)
	if serr != nil {
		t.err = errors.Join(t.err, serr)
		return t
	}
	dirs = append(dirs, filepath.Join(stash, "fuzz", ex.Fuzz))
	if rep != nil {
		t.haveOwn = true
		t.found, t.other, t.firstMS = reportBugs(ex, rep)
		t.ownCovered, t.ownTotal = rep.Branches.Covered, rep.Branches.Total
		t.execsPerSec, t.executions = rep.ExecsPerSec, rep.Executions
		t.elapsedMS, t.stopped = rep.ElapsedMS, rep.Stopped
		t.hybrid = rep.Hybrid
	}
	if withFuzzer && rep != nil && rep.Hybrid == nil {
		t.notes = append(t.notes, "the report has no hybrid section")
	}
	t.cov = replayCoverage(ctx, w, ex, dirs, workers, ex.Name+"."+label+"-replay")
	// Bugs: those of the run's report and those the inputs it left raise
	// when replayed (a failure the fuzzer found after gocolic's last look
	// is only there).
	var msgs []string
	if rep != nil {
		for _, b := range rep.Bugs {
			msgs = append(msgs, b.Message)
		}
	}
	found, other := harness.MatchPlanted(ex.Planted, harness.DistinctMessages(append(msgs, t.cov.bugs...)))
	for _, p := range found {
		if !contains(t.found, p) {
			t.replayOnly = append(t.replayOnly, p)
		}
	}
	t.found, t.other = found, other
	return t
}

// warmFuzzBuild builds the example's fuzzing test binary into the build
// cache (go test -fuzz with -fuzztime 1x and a throw-away corpus cache),
// so that the first round of the hybrid's fuzzer does not spend its budget
// compiling. Failures are ignored: the hybrid run reports its own.
func warmFuzzBuild(ctx context.Context, w *harness.Workspace, ex *harness.Example) {
	cache := filepath.Join(w.Dir, "warmcache", ex.Name)
	harness.Run(ctx, 5*time.Minute, w.Module, w.LogPath(ex.Name+".hybrid-warmup"), "go",
		"test", "-run", "^$", "-fuzz", "^"+ex.Fuzz+"$", "-fuzztime", "1x", "-parallel", "1",
		"./"+ex.Name, "-test.fuzzcachedir="+cache)
	os.RemoveAll(cache)
	// A failure it might have written must not seed the hybrid.
	os.RemoveAll(filepath.Join(ex.Dir, "testdata"))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// replayCoverage runs the inputs of the corpus directories dirs, plus the
// example's f.Add seeds, through gocolic to measure their branch coverage.
func replayCoverage(ctx context.Context, w *harness.Workspace, ex *harness.Example, dirs []string, workers int, logName string) replayCov {
	var c replayCov
	dirs = append([]string(nil), dirs...)
	if ex.SeedErr != nil {
		c.notes = append(c.notes, "f.Add seeds not included: "+ex.SeedErr.Error())
	} else if len(ex.Seeds) > 0 {
		seeds := filepath.Join(w.Dir, "seeds", ex.Name)
		if err := corpus.WriteDir(seeds, ex.Seeds); err != nil {
			c.err = err
			return c
		}
		dirs = append(dirs, seeds)
	}
	for _, d := range dirs {
		c.inputs += harness.CountFiles(d)
	}
	if c.inputs == 0 {
		c.err = errors.New("no inputs were left to replay")
		return c
	}
	replay := func(dirs []string, logName string) (*report.Report, error) {
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
	rep, err := replay(dirs, logName)
	if err != nil && strings.Contains(err.Error(), "corpus:") {
		// gocolic's corpus reader rejects some files Go writes (rune('\''));
		// retry on a copy with the character literals rewritten.
		norm := filepath.Join(w.Dir, "normalized", logName)
		n, nerr := harness.NormalizeCorpus(dirs, norm)
		if nerr == nil && n > 0 {
			c.notes = append(c.notes, fmt.Sprintf("gocolic -replay rejected the corpus (`%s`); measured on a copy with its %d rune/byte character literals rewritten as integers",
				corpusError(err.Error()), n))
			rep, err = replay([]string{norm}, logName+"-normalized")
		}
	}
	if rep == nil {
		c.err = err
		return c
	}
	if err != nil {
		c.notes = append(c.notes, "replay reported an error: "+firstLine(err.Error()))
	}
	c.covered, c.total, c.replayed = rep.Branches.Covered, rep.Branches.Total, rep.Executions
	for _, b := range rep.Bugs {
		c.bugs = append(c.bugs, b.Message)
	}
	if c.replayed != c.inputs {
		c.notes = append(c.notes, fmt.Sprintf("replay ran %d of %d inputs", c.replayed, c.inputs))
	}
	return c
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

// contenderInfo describes a contender in the report.
var contenderInfo = map[string]struct{ title, command, entry, measured string }{
	cGocolic: {"gocolic", "`gocolic test -budget B -workers W -minimizetime 0 -notests ./NAME Func`",
		"Func, the package function FuzzNAME calls; starts from zero values, no seeds",
		"its own report: every input it ran"},
	cFuzz: {"fuzz", "`go test -run '^$' -fuzz '^FuzzNAME$' -fuzztime B -parallel W ./NAME -test.fuzzcachedir=DIR`",
		"FuzzNAME's fuzz function; starts from its f.Add seeds",
		"replay through Func of its cache corpus, its failing input and the f.Add seeds"},
	cHybrid: {"hybrid", "`gocolic fuzz -with-fuzzer -budget B -workers W -minimizetime 0 ./NAME FuzzNAME`",
		"FuzzNAME's fuzz function, both sides; gocolic starts from the f.Add seeds, the fuzzer from them and what gocolic gives it",
		"replay through Func of everything the run left: the fuzzer's cache corpus (with the inputs gocolic gave it), the corpus entries and failures in testdata (gocolic's and the fuzzer's), the f.Add seeds"},
	cGFuzz: {"gocolic fuzz", "`gocolic fuzz -budget B -workers W -minimizetime 0 ./NAME FuzzNAME`",
		"FuzzNAME's fuzz function; starts from the f.Add seeds",
		"replay through Func of its corpus entries and failures in testdata and the f.Add seeds"},
}

// totals accumulates a contender's totals over the examples.
type totals struct {
	found, covered, total int
}

func (t *totals) add(found []string, covered, total int) {
	t.found += len(found)
	t.covered += covered
	t.total += total
}

// markdownReport formats the Markdown report.
func markdownReport(rows []row, contenders []string, budget time.Duration, workers int) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Budget %v per tool per example, %d worker processes each, %s %s/%s, %d CPUs.",
		budget, workers, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	selected := map[string]bool{}
	for _, c := range contenders {
		selected[c] = true
	}
	if selected[cHybrid] {
		p := max(1, workers/2)
		fmt.Fprintf(&b, " The hybrid splits its %d: go test -fuzz -parallel %d, gocolic %d worker(s).", workers, p, max(1, workers-p))
	}
	b.WriteString("\n\n")

	ct := harness.Table{Head: []string{"contender", "command", "entry point", "branch cov measured by"}}
	for _, c := range contenders {
		i := contenderInfo[c]
		ct.Add(i.title, i.command, i.entry, i.measured)
	}
	if err := writeTable(&b, &ct); err != nil {
		return "", err
	}

	var notes []string
	note := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	mt := harness.Table{Head: []string{"example", "planted bugs"}, Right: []bool{false, true}}
	for _, c := range contenders {
		t := contenderInfo[c].title
		third := t + ": execs/s"
		if c == cHybrid {
			third = "hybrid: rounds / from fuzzer / to fuzzer"
		}
		mt.Head = append(mt.Head, t+": bugs found", t+": branch cov", third)
		mt.Right = append(mt.Right, true, true, true)
	}
	tot := map[string]*totals{}
	for _, c := range contenders {
		tot[c] = &totals{}
	}
	var rounds, from, to int
	planted := 0
	for _, r := range rows {
		ex := r.ex
		planted += len(ex.Planted)
		cells := []string{ex.Name, strconv.Itoa(len(ex.Planted))}
		if g := r.g; selected[cGocolic] {
			gBugs, gBr, gRate := "error", "error", "error"
			if g == nil {
				gBugs, gBr, gRate = "—", "—", "—"
			} else {
				if g.err != nil {
					note("%s: gocolic: %s", ex.Name, firstLine(g.err.Error()))
				}
				if g.total > 0 || g.err == nil {
					tot[cGocolic].add(g.found, g.covered, g.total)
					gBugs = bugCell(g.found, g.other)
					gBr = fmt.Sprintf("%d/%d", g.covered, g.total)
					gRate = harness.Rate(g.execsPerSec)
				}
			}
			cells = append(cells, gBugs, gBr, gRate)
		}
		if f := r.f; selected[cFuzz] {
			fBugs, fBr, fRate := "error", "error", "—"
			if f == nil {
				fBugs, fBr = "—", "—"
			} else {
				if f.err != nil {
					note("%s: go test -fuzz: %s", ex.Name, firstLine(f.err.Error()))
				} else {
					tot[cFuzz].found += len(f.found)
					fBugs = bugCell(f.found, f.other)
				}
				if f.haveRate {
					fRate = harness.Rate(f.execsPerSec)
				} else if f.err == nil {
					fRate = "— ¹"
				}
				fBr = covCell(ex.Name, "fuzz", f.cov, tot[cFuzz], note)
			}
			cells = append(cells, fBugs, fBr, fRate)
		}
		for _, c := range []string{cHybrid, cGFuzz} {
			if !selected[c] {
				continue
			}
			t := r.h
			if c == cGFuzz {
				t = r.gf
			}
			title := contenderInfo[c].title
			bugs, br, third := "—", "—", "—"
			if t != nil {
				if t.err != nil {
					note("%s: %s: %s", ex.Name, title, firstLine(t.err.Error()))
				}
				for _, n := range t.notes {
					note("%s: %s: %s", ex.Name, title, n)
				}
				bugs = "error"
				if t.haveOwn || t.cov.err == nil {
					tot[c].found += len(t.found)
					bugs = bugCell(t.found, t.other)
					if len(t.replayOnly) > 0 {
						bugs += " ³"
					}
				}
				br = covCell(ex.Name, title, t.cov, tot[c], note)
				if c == cHybrid {
					if t.hybrid != nil {
						hs := t.hybrid
						third = fmt.Sprintf("%d / %d / %d", hs.Rounds, hs.FromFuzzer, hs.ToFuzzer)
						rounds, from, to = rounds+hs.Rounds, from+hs.FromFuzzer, to+hs.ToFuzzer
						if hs.Note != "" {
							note("%s: hybrid: the fuzzer side stopped early: %s", ex.Name, firstLine(hs.Note))
						}
					}
				} else if t.haveOwn {
					third = harness.Rate(t.execsPerSec)
				}
			}
			cells = append(cells, bugs, br, third)
		}
		mt.Add(cells...)
	}
	totalCells := []string{"**total**", fmt.Sprintf("**%d**", planted)}
	for _, c := range contenders {
		third := ""
		if c == cHybrid {
			third = fmt.Sprintf("**%d / %d / %d**", rounds, from, to)
		}
		totalCells = append(totalCells, fmt.Sprintf("**%d**", tot[c].found), "**"+pct(tot[c].covered, tot[c].total)+"**", third)
	}
	mt.Add(totalCells...)
	if err := writeTable(&b, &mt); err != nil {
		return "", err
	}

	if selected[cGocolic] || selected[cFuzz] {
		b.WriteString("Details: which planted bugs were found, and when.\n\n")
		dt := harness.Table{Head: []string{"example", "target"}}
		if selected[cGocolic] {
			dt.Head = append(dt.Head, "gocolic: found", "gocolic: stopped")
		}
		if selected[cFuzz] {
			dt.Head = append(dt.Head, "fuzz: found", "fuzz: outcome", "fuzz: inputs replayed")
			dt.Right = make([]bool, len(dt.Head))
			dt.Right[len(dt.Head)-1] = true
		}
		for _, r := range rows {
			cells := []string{r.ex.Name, r.ex.Package + "." + r.ex.Func}
			if selected[cGocolic] {
				gFoundCell, gStop := "—", "—"
				if g := r.g; g != nil {
					if g.stopped != "" {
						gStop = fmt.Sprintf("%s after %d ms, %d execs", g.stopped, g.elapsedMS, g.executions)
					}
					gFoundCell = names(g.found, g.other)
					if g.firstMS >= 0 {
						gFoundCell += fmt.Sprintf(" (first at %d ms)", g.firstMS)
					}
				}
				cells = append(cells, gFoundCell, gStop)
			}
			if selected[cFuzz] {
				found, outcome, replayed := "—", "—", "—"
				if f := r.f; f != nil {
					found = names(f.found, f.other)
					outcome = "no failure in the budget"
					switch {
					case f.err != nil:
						outcome = "error"
					case f.failed:
						outcome = "stopped at first failure, " + f.failAt
					}
					if f.execs > 0 {
						outcome += fmt.Sprintf(", %d execs", f.execs)
					}
					if f.cov.err == nil {
						replayed = strconv.Itoa(f.cov.replayed)
					}
				}
				cells = append(cells, found, outcome, replayed)
			}
			dt.Add(cells...)
		}
		if err := writeTable(&b, &dt); err != nil {
			return "", err
		}
	}

	for _, c := range []string{cHybrid, cGFuzz} {
		if !selected[c] {
			continue
		}
		title := contenderInfo[c].title
		if c == cHybrid {
			b.WriteString("Details of the hybrid (gocolic fuzz -with-fuzzer): bugs, its own report's coverage, and what went between gocolic and the fuzzer.\n\n")
		} else {
			b.WriteString("Details of gocolic fuzz alone.\n\n")
		}
		dt := harness.Table{Head: []string{"example", "target", title + ": found", title + ": stopped (gocolic side)", title + ": branch cov, own report", title + ": inputs replayed"},
			Right: []bool{false, false, false, false, true, true}}
		if c == cHybrid {
			dt.Head = append(dt.Head, "fuzzer rounds", "entries from fuzzer", "inputs to fuzzer", "rounds ended by a fuzzer failure", "fuzzer cache entries at the end")
			dt.Right = append(dt.Right, true, true, true, true, true)
		}
		for _, r := range rows {
			t := r.h
			if c == cGFuzz {
				t = r.gf
			}
			cells := []string{r.ex.Name, r.ex.Package + "." + r.ex.Fuzz}
			if t == nil {
				dt.Add(cells...)
				continue
			}
			found := names(t.found, t.other)
			if t.firstMS >= 0 {
				found += fmt.Sprintf(" (first at %d ms)", t.firstMS)
			}
			if len(t.replayOnly) > 0 {
				found += fmt.Sprintf("; only in the replay of its outputs: %s", names(t.replayOnly, nil))
			}
			stop, own, replayed := "—", "—", "—"
			if t.haveOwn {
				stop = fmt.Sprintf("%s after %d ms, %d execs", t.stopped, t.elapsedMS, t.executions)
				own = fmt.Sprintf("%d/%d", t.ownCovered, t.ownTotal)
			}
			if t.cov.err == nil {
				replayed = strconv.Itoa(t.cov.replayed)
			}
			cells = append(cells, found, stop, own, replayed)
			if c == cHybrid {
				if hs := t.hybrid; hs != nil {
					cells = append(cells, strconv.Itoa(hs.Rounds), strconv.Itoa(hs.FromFuzzer), strconv.Itoa(hs.ToFuzzer),
						strconv.Itoa(hs.FuzzerFailed), strconv.Itoa(t.cacheFiles))
				} else {
					cells = append(cells, "—", "—", "—", "—", strconv.Itoa(t.cacheFiles))
				}
			}
			dt.Add(cells...)
		}
		if err := writeTable(&b, &dt); err != nil {
			return "", err
		}
	}

	b.WriteString("Notes:\n\n")
	b.WriteString("- Bugs found: planted bugs (`// planted:` markers) whose text is in a reported panic message; `+N other` counts reported failures that match no marker.\n")
	if selected[cFuzz] {
		b.WriteString("- go test -fuzz stops at its first failing input, so it reports at most one bug per run; gocolic keeps going and reports every distinct panic.\n")
	}
	b.WriteString("- Branch cov: both outcomes of every condition of the package, as gocolic counts them (conditions in test files are not counted). Where it is measured by a replay, the inputs run through gocolic's instrumentation of Func, exploring nothing; every fuzz function here only calls Func with its arguments, so this is the coverage the inputs had when they ran. Inputs a fuzzer ran but did not keep only cover outcomes that kept inputs already cover, as far as Go's coverage feedback (edge counters) tells.\n")
	if selected[cHybrid] {
		b.WriteString("- Hybrid: its bugs are those of its own report plus those the inputs it left raise when replayed; its branch cov is the replay. Its own report counts every input gocolic ran, including the fuzzer entries it took, but not fuzzer entries that appeared after gocolic's last look. Rounds: go test -fuzz processes started; a round is restarted to take gocolic's new inputs, since the fuzzer reads its corpus only at start. Its fuzzer's cache ($GOCACHE/fuzz/<package>/FuzzNAME, in a module whose path is unique to the run) is emptied before the run and moved out of the build cache after it. Before each hybrid run, `go test -fuzz -fuzztime 1x` with a throw-away cache builds its fuzzing binary, so that its first round finds it in the build cache.\n")
	}
	if selected[cGocolic] || selected[cGFuzz] || selected[cHybrid] {
		b.WriteString("- gocolic: execs/s is executions over its exploration time, including solving and IPC; gocolic test stops early when it has tried every open branch (\"exhausted\"), so its time used can be far below the budget. -minimizetime 0: failing inputs are not minimised after the budget, so that replays run the inputs as found.\n")
	}
	if selected[cFuzz] {
		b.WriteString("- fuzz: execs/s is the rate on its last progress line (over its last 3-second interval), which does not include its start-up and baseline-coverage phase.\n")
		b.WriteString("- ¹ no progress line with a non-zero rate was printed before the fuzzer stopped.\n")
	}
	b.WriteString("- ² see the note for this example below.\n")
	if selected[cHybrid] || selected[cGFuzz] {
		b.WriteString("- ³ a planted bug was found only by replaying the inputs the run left, not in its own report (see the details).\n")
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	return b.String(), nil
}

func writeTable(b *strings.Builder, t *harness.Table) error {
	md, err := t.Markdown()
	if err != nil {
		return err
	}
	b.WriteString(md)
	b.WriteString("\n")
	return nil
}

// covCell formats a replayed coverage, adds it to the totals, and notes
// its errors and caveats.
func covCell(example, who string, c replayCov, t *totals, note func(string, ...any)) string {
	if c.err != nil {
		note("%s: %s coverage replay: %s", example, who, firstLine(c.err.Error()))
		return "error"
	}
	t.covered += c.covered
	t.total += c.total
	cell := fmt.Sprintf("%d/%d", c.covered, c.total)
	if len(c.notes) > 0 {
		cell += " ²"
	}
	for _, n := range c.notes {
		note("%s: %s coverage: %s", example, who, n)
	}
	return cell
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

func pct(a, b int) string {
	if b == 0 {
		return "0/0"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", a, b, 100*float64(a)/float64(b))
}
