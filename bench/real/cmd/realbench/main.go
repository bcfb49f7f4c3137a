// Command realbench runs gocolic fuzz and go test -fuzz, with the same
// wall-clock budget and the same number of workers, on the native fuzz
// targets of the bench/real module, which exercise well-known packages of
// the Go module proxy, and prints a Markdown table comparing them: the
// statement coverage of the package under test by each tool's corpus (the
// measurable proxy for branch coverage), gocolic's divergences, both
// tools' executions per second, and the panics and failures each found.
//
// Usage, from bench/real:
//
//	go run ./cmd/realbench [-budget 10s] [-workers 2] [-runs 1] [-only semver,uuid.FuzzParse]
//	                       [-gocolic PATH] [-instrument=false] [-gocolic-flags '-maxlen 64']
//	                       [-slack 60s] [-out FILE] [-keep]
//	go run ./cmd/realbench -entries [-before OLD_GOCOLIC] [-budget 10s] [-workers 1] [-gocolic-flags '-seed 1'] [-only ...]
//
// Every package directory of the module whose non-test files declare
// `const Target = "import/path"` is a harness package; each func
// FuzzXxx(*testing.F) of its test files is a harness, and Target is the
// package whose coverage is measured. The function CheckXxx of the
// non-test files, which FuzzXxx calls on each input, is what gocolic test
// explores.
//
// The module is copied into a temporary directory, so that no corpus or
// report lands in the source tree. For each harness, after a warm-up of
// both tools (so that neither spends its budget compiling), each run does,
// one tool after the other:
//
//  1. go test -run '^$' -fuzz '^FuzzXxx$' -fuzztime B -parallel W ./DIR -test.fuzzcachedir=CACHE
//     with a fresh cache directory and no testdata;
//  2. gocolic fuzz -budget B -workers W -minimizetime 0 -json r.json -instrument TARGET ./DIR FuzzXxx
//     with no testdata;
//  3. gocolic test -budget B -workers W -minimizetime 0 -json r.json -instrument TARGET ./DIR CheckXxx
//     from zero values (no seeds, no testdata), when the package declares
//     CheckXxx beside Target (-zero, on by default);
//  4. for each fuzzer, its corpus (the fuzzer's cache entries and failing
//     input; the entries gocolic wrote to testdata) is copied into
//     testdata/fuzz/FuzzXxx and replayed with
//     go test -run '^FuzzXxx$' -coverpkg=TARGET -coverprofile=P ./DIR,
//     which also runs the f.Add seeds; the test file gocolic test wrote
//     is run with go test -run '^TestGocolicCheckXxx(Crashes)?$'
//     -coverpkg=TARGET -coverprofile=P ./DIR. The statement coverage of
//     TARGET in P is the coverage reported for the tool.
//
// Each tool run is killed with its whole process group if it runs past
// B + slack; a gocolic run killed so is reported as HANG.
//
// With -entries, it runs gocolic alone (entries.go): gocolic fuzz with
// the -before binary, if given, and then with the -gocolic one, each
// once, with -minimizetime 10s unless set; it counts the corpus entries
// each left, their mean input length and share of non-printable bytes,
// and replays the f.Add seeds alone and the seeds with each run's entries
// through the -gocolic binary (gocolic fuzz -runs <seeds> -minimizetime
// 0 -nocorpus) for the branch outcomes they cover.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	shared "github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/emit"
)

type config struct {
	budget       time.Duration
	workers      int
	runs         int
	only         string
	gocolic      string
	instrument   bool
	gocolicFlags string
	minimizeTime time.Duration
	slack        time.Duration
	out          string
	keep         bool
	noWarmup     bool
	zero         bool   // also run gocolic test from zero values
	fuzzer       bool   // run go test -fuzz too (false: gocolic alone, to compare with another report's fuzzer)
	entries      bool   // the -entries mode (entries.go)
	before       string // with -entries, the binary of the before column
	afterFlags   string // with -entries, flags for the -gocolic binary only
}

func main() {
	var c config
	flag.DurationVar(&c.budget, "budget", 10*time.Second, "wall-clock budget of each tool on each harness")
	flag.IntVar(&c.workers, "workers", runtime.NumCPU(), "worker processes of each tool (gocolic -workers, go test -parallel)")
	flag.IntVar(&c.runs, "runs", 1, "runs of each tool on each harness; the table shows medians")
	flag.StringVar(&c.only, "only", "", "comma-separated harnesses to run: a package directory (semver), a fuzz target (FuzzNewVersion) or both (semver.FuzzNewVersion)")
	flag.StringVar(&c.gocolic, "gocolic", "", "the gocolic binary (default: built from the repository two directories up)")
	flag.BoolVar(&c.instrument, "instrument", true, "pass -instrument TARGET to gocolic, so that it instruments the package under test too (-instrument=false: only the harness package)")
	flag.StringVar(&c.gocolicFlags, "gocolic-flags", "", "more flags for gocolic fuzz and gocolic test, space-separated (e.g. '-maxlen 64')")
	flag.BoolVar(&c.fuzzer, "fuzzer", true, "also run go test -fuzz on each harness (-fuzzer=false: gocolic alone, e.g. a second gocolic configuration to set beside another report's fuzzer column)")
	flag.BoolVar(&c.zero, "zero", true, "also run gocolic test on each harness's CheckXxx function from zero values (no seeds) and replay the tests it writes")
	flag.DurationVar(&c.minimizeTime, "minimizetime", 0, "gocolic -minimizetime: time spent minimising each failing input after the budget")
	flag.DurationVar(&c.slack, "slack", 60*time.Second, "time a tool may run past its budget (plus -minimizetime for gocolic) before it is killed and reported as hung")
	flag.StringVar(&c.out, "out", "", "also write the Markdown report to this file")
	flag.BoolVar(&c.keep, "keep", false, "keep the temporary workspace (logs, reports, corpora, cover profiles) and print its path")
	flag.BoolVar(&c.noWarmup, "nowarmup", false, "skip the warm-up runs that put both tools' builds into the build cache")
	flag.BoolVar(&c.entries, "entries", false, "measure gocolic fuzz's corpus entries instead of comparing with go test -fuzz: how many, mean input length, non-printable bytes, branch outcomes they cover when replayed, minimisation time (-minimizetime defaults to gocolic's 10s)")
	flag.StringVar(&c.afterFlags, "after-flags", "", "with -entries: more flags for the -gocolic binary only (its runs and the replays), e.g. ones a -before binary does not know")
	flag.StringVar(&c.before, "before", "", "with -entries: another gocolic binary (e.g. built from an older commit), measured the same way for a before column")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./cmd/realbench [flags]   (from bench/real)\n\nRuns gocolic fuzz and go test -fuzz on every harness of the module and prints a Markdown comparison.\n\nFlags:")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 || c.budget <= 0 || c.workers <= 0 || c.runs <= 0 || ((c.before != "" || c.afterFlags != "") && !c.entries) {
		flag.Usage()
		os.Exit(2)
	}
	if c.entries {
		set := false
		flag.Visit(func(f *flag.Flag) { set = set || f.Name == "minimizetime" })
		if !set {
			// What a user gets: the -entries mode measures minimisation.
			c.minimizeTime = 10 * time.Second
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	code, err := bench(ctx, c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "realbench:", err)
	}
	os.Exit(code)
}

// harnessResult is everything measured on one harness.
type harnessResult struct {
	h        harness
	version  string // module@version of the target
	seeds    coverage
	warmFuzz string // what went wrong in the fuzzer's warm-up, if anything
	warmG    string // what went wrong in gocolic fuzz's warm-up, if anything
	warmT    string // what went wrong in gocolic test's warm-up, if anything
	runs     []runResult
}

// runResult is one run of every tool on a harness.
type runResult struct {
	fuzz  fuzzRun
	g     gocolicRun // gocolic fuzz, from the seeds
	t     gocolicRun // gocolic test, from zero values (zero status if not run)
	fcov  coverage
	gcov  coverage
	tcov  coverage
	union profile // the blocks any tool's corpus covers
}

// ranTest reports whether the run includes gocolic test.
func (r runResult) ranTest() bool { return r.t.status != "" }

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "realbench: "+format+"\n", args...)
}

func bench(ctx context.Context, c config) (int, error) {
	root, err := shared.ModuleRoot(modulePath, "run from bench/real (go run ./cmd/realbench)")
	if err != nil {
		return 2, err
	}
	all, err := shared.DiscoverReal(root)
	if err != nil {
		return 2, err
	}
	hs, err := shared.SelectReal(all, c.only)
	if err != nil {
		return 2, fmt.Errorf("-only: %w", err)
	}
	if len(hs) == 0 {
		return 2, fmt.Errorf("no harnesses found under %s", root)
	}
	work, err := os.MkdirTemp("", "realbench-")
	if err != nil {
		return 1, err
	}
	if c.keep {
		logf("workspace kept in %s", work)
	} else {
		defer os.RemoveAll(work)
	}
	mod := filepath.Join(work, "mod")
	repoRoot := filepath.Dir(filepath.Dir(root))
	if err := shared.CopyRealModule(ctx, root, mod, repoRoot); err != nil {
		return 1, err
	}
	bin := c.gocolic
	if bin == "" {
		repo := repoRoot
		if !shared.Declares(filepath.Join(repo, "go.mod"), toolModulePath) {
			return 2, fmt.Errorf("-gocolic not given and %s is not the gocolic repository", repo)
		}
		bin = filepath.Join(work, "bin", "gocolic")
		logf("building gocolic")
		r := shared.RunEnv(ctx, 10*time.Minute, repo, filepath.Join(work, "build-gocolic.log"), nil, "go", "build", "-o", bin, "./cmd/gocolic")
		if r.Err != nil {
			return 1, fmt.Errorf("building gocolic: %v\n%s", r.Err, shared.Tail(r.Output, 20))
		}
	} else if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}
	runsDir := filepath.Join(work, "runs")
	if c.entries {
		return benchEntries(ctx, c, root, mod, bin, work, runsDir, hs)
	}
	versions := map[string]string{}
	var results []harnessResult
	for _, h := range hs {
		if ctx.Err() != nil {
			break
		}
		hr := harnessResult{h: h}
		hdir := filepath.Join(runsDir, h.Name())
		os.MkdirAll(hdir, 0o755)
		if v, ok := versions[h.Target]; ok {
			hr.version = v
		} else {
			hr.version = moduleVersion(ctx, mod, h.Target)
			versions[h.Target] = hr.version
		}
		gflags := gocolicFlags(c, h)
		zero := c.zero && h.Check != ""
		if c.zero && !zero {
			logf("%s: no function Check%s beside Target: no gocolic test run", h.Name(), strings.TrimPrefix(h.Fuzz, "Fuzz"))
		}
		if !c.noWarmup {
			logf("%s: warming up", h.Name())
			hr.warmFuzz, hr.warmG = warmUp(ctx, mod, bin, h, gflags, hdir, c.fuzzer)
			if zero {
				hr.warmT = warmUpTest(ctx, mod, bin, h, gflags, hdir)
			}
		}
		hr.seeds = replay(ctx, mod, h, nil, hdir, "replay-seeds")
		for i := 1; i <= c.runs && ctx.Err() == nil; i++ {
			dir := filepath.Join(hdir, strconv.Itoa(i))
			os.MkdirAll(dir, 0o755)
			var rr runResult
			if c.fuzzer { // otherwise rr.fuzz and rr.fcov stay zero, and the report leaves their columns empty
				logf("%s: run %d/%d: go test -fuzz (%v, %d workers)", h.Name(), i, c.runs, c.budget, c.workers)
				rr.fuzz = runFuzz(ctx, mod, h, c.budget, c.budget+c.slack, c.workers, dir)
			}
			logf("%s: run %d/%d: gocolic fuzz (%v, %d workers)", h.Name(), i, c.runs, c.budget, c.workers)
			rr.g = runGocolic(ctx, mod, bin, h, append(append([]string(nil), gflags...), "-budget", c.budget.String(), "-workers", strconv.Itoa(c.workers)),
				c.budget+c.minimizeTime+c.slack, dir)
			if rr.g.status != "ok" {
				logf("%s: run %d/%d: gocolic: %s", h.Name(), i, c.runs, rr.g.status)
			}
			if zero {
				logf("%s: run %d/%d: gocolic test %s from zero values (%v, %d workers)", h.Name(), i, c.runs, h.Check, c.budget, c.workers)
				rr.t = runGocolicTest(ctx, mod, bin, h, append(append([]string(nil), gflags...), "-budget", c.budget.String(), "-workers", strconv.Itoa(c.workers)),
					c.budget+c.minimizeTime+c.slack, dir)
				if rr.t.status != "ok" {
					logf("%s: run %d/%d: gocolic test: %s", h.Name(), i, c.runs, rr.t.status)
				}
			}
			logf("%s: run %d/%d: replaying every corpus for coverage of %s", h.Name(), i, c.runs, h.Target)
			if c.fuzzer {
				rr.fcov = replay(ctx, mod, h, rr.fuzz.corpus, dir, "replay-fuzz")
			}
			rr.gcov = replay(ctx, mod, h, rr.g.corpus, dir, "replay-gocolic")
			profs := []profile{rr.gcov.prof}
			ok := rr.gcov.err == nil
			if c.fuzzer {
				profs = append(profs, rr.fcov.prof)
				ok = ok && rr.fcov.err == nil
			}
			if zero {
				file := ""
				if len(rr.t.corpus) > 0 {
					file = rr.t.corpus[0]
				}
				rr.tcov = replayTests(ctx, mod, h, file, dir, "replay-gocolic-test")
				profs = append(profs, rr.tcov.prof)
				ok = ok && rr.tcov.err == nil
			}
			if ok {
				rr.union = union(profs...)
			}
			hr.runs = append(hr.runs, rr)
		}
		results = append(results, hr)
	}
	return output(ctx, c, report(results, c, goModLine(root)), work)
}

// benchEntries runs the -entries mode on the harnesses hs and prints its
// report.
func benchEntries(ctx context.Context, c config, root, mod, bin, work, runsDir string, hs []harness) (int, error) {
	before := c.before
	if before != "" {
		abs, err := filepath.Abs(before)
		if err != nil {
			return 2, err
		}
		before = abs
	}
	var results []entriesResult
	for _, h := range hs {
		if ctx.Err() != nil {
			break
		}
		hdir := filepath.Join(runsDir, h.Name())
		os.MkdirAll(hdir, 0o755)
		r := runEntries(ctx, c, mod, bin, before, h, hdir)
		r.version = moduleVersion(ctx, mod, h.Target)
		results = append(results, r)
	}
	md := entriesReport(results, c, goModLine(root), before != "")
	return output(ctx, c, md, work)
}

// output prints the report md, with the workspace's paths as $WORK, and
// writes it to -out.
func output(ctx context.Context, c config, md, work string) (int, error) {
	md = strings.ReplaceAll(md, work, "$WORK")
	fmt.Print(md)
	if c.out != "" {
		if err := os.WriteFile(c.out, []byte(md), 0o644); err != nil {
			return 1, err
		}
	}
	if ctx.Err() != nil {
		return 1, ctx.Err()
	}
	return 0, nil
}

// gocolicFlags are the flags every gocolic run on h gets, budget and
// workers aside.
func gocolicFlags(c config, h harness) []string {
	flags := []string{"-minimizetime", c.minimizeTime.String()}
	if c.instrument {
		flags = append(flags, "-instrument", h.Target)
	}
	return append(flags, strings.Fields(c.gocolicFlags)...)
}

// moduleVersion returns module@version of the module that provides pkg.
func moduleVersion(ctx context.Context, mod, pkg string) string {
	r := shared.Run(ctx, 2*time.Minute, mod, "", "go", "list", "-f", "{{with .Module}}{{.Path}}@{{.Version}}{{end}}", pkg)
	if r.Err != nil {
		return "?"
	}
	return listAnswer(r.Output)
}

// listAnswer returns the last line of the output of a go list command:
// on a fresh module cache, "go: downloading ..." lines come first.
func listAnswer(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// warmUp puts the fuzzing build of h and gocolic's instrumented build
// into the build cache: go test -fuzz with -fuzztime 1x and a throw-away
// cache (only if fuzzer), and gocolic fuzz -runs 1 -nocorpus. It returns
// what went wrong in each, "" if nothing.
func warmUp(ctx context.Context, mod, bin string, h harness, gflags []string, dir string, fuzzer bool) (fuzzNote, gNote string) {
	if fuzzer {
		cache := filepath.Join(dir, "warm-fuzzcache")
		r := shared.RunEnv(ctx, 10*time.Minute, mod, filepath.Join(dir, "warmup-fuzz.log"), nil, "go",
			"test", "-run", "^$", "-fuzz", "^"+h.Fuzz+"$", "-fuzztime", "1x", "-parallel", "1", "./"+h.Dir, "-test.fuzzcachedir="+cache)
		if r.Err != nil && !failFileRE.Match(r.Output) && !deadlineRace(r.Output) {
			fuzzNote = fmt.Sprintf("%v: %s", r.Err, shared.Tail(r.Output, 5))
		}
		os.RemoveAll(cache)
		os.RemoveAll(filepath.Join(mod, h.Dir, "testdata"))
	}
	args := append([]string{"fuzz"}, gflags...)
	args = append(args, "-runs", "1", "-workers", "1", "-nocorpus", "-json", filepath.Join(dir, "warmup-gocolic.json"), "./"+h.Dir, h.Fuzz)
	r := shared.RunEnv(ctx, 10*time.Minute, mod, filepath.Join(dir, "warmup-gocolic.log"), h.GocolicEnv(), bin, args...)
	if s := classify(r); s != "ok" {
		gNote = s + ": " + shared.Tail(r.Output, 8)
	}
	os.RemoveAll(filepath.Join(mod, h.Dir, "testdata"))
	return fuzzNote, gNote
}

// warmUpTest puts gocolic test's instrumented build of h.Check into the
// build cache: gocolic test -runs 1 -notests. It returns what went wrong,
// "" if nothing.
func warmUpTest(ctx context.Context, mod, bin string, h harness, gflags []string, dir string) string {
	args := append([]string{"test"}, gflags...)
	args = append(args, "-runs", "1", "-workers", "1", "-notests", "-json", filepath.Join(dir, "warmup-gocolic-test.json"), "./"+h.Dir, h.Check)
	r := shared.RunEnv(ctx, 10*time.Minute, mod, filepath.Join(dir, "warmup-gocolic-test.log"), h.GocolicEnv(), bin, args...)
	os.Remove(filepath.Join(mod, h.Dir, emit.FileName(h.Check)))
	if s := classify(r); s != "ok" {
		return s + ": " + shared.Tail(r.Output, 8)
	}
	return ""
}
