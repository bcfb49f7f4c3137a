// Command compare runs gocolic, Go's native fuzzer and the two together
// (gocolic fuzz -with-fuzzer) side by side on each example, with the same
// wall-clock budget and the same number of worker processes, and prints a
// Markdown table of what each found.
//
// Usage, from the repository root:
//
//	go run ./bench/compare [-set examples|bench/walk/corpus] [-budget 10s] [-examples magic,bits] [-workers 2] [-contenders gocolic,fuzz,hybrid] [-out FILE] [-keep]
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
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
)

// The contenders, in the order they run on each example.
const (
	cGocolic = "gocolic"      // gocolic test on Func
	cFuzz    = "fuzz"         // go test -fuzz on FuzzNAME
	cHybrid  = "hybrid"       // gocolic fuzz -with-fuzzer on FuzzNAME
	cGFuzz   = "gocolic-fuzz" // gocolic fuzz on FuzzNAME, no fuzzer
	// The lanes of gocolic fuzz alone (issue 16): the concolic search of
	// the seeds, and the mutation lane, a fuzzer in gocolic's workers.
	cGConcolic = "gocolic-concolic" // gocolic fuzz -lanes concolic on FuzzNAME
	cGMutate   = "gocolic-mutate"   // gocolic fuzz -lanes mutate on FuzzNAME
)

var (
	allContenders     = []string{cGocolic, cFuzz, cHybrid, cGFuzz, cGConcolic, cGMutate}
	defaultContenders = []string{cGocolic, cFuzz, cHybrid}
	// targetContenders run gocolic fuzz on FuzzNAME, in this order.
	targetContenders = []string{cHybrid, cGFuzz, cGConcolic, cGMutate}
)

// targetFlags are the flags of a target contender beyond gocolicFlags.
var targetFlags = map[string][]string{
	cHybrid:    {"-with-fuzzer"},
	cGConcolic: {"-lanes", "concolic"},
	cGMutate:   {"-lanes", "mutate"},
}

func main() {
	budget := flag.Duration("budget", 10*time.Second, "wall-clock budget of each tool on each example")
	examples := flag.String("examples", "", "comma-separated examples to run (default: all of -set)")
	set := flag.String("set", "examples", "the directory of the repository whose packages are the examples: examples, or bench/walk/corpus (no planted bugs; fuzz targets from zero values)")
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
	if err := run(ctx, *set, *budget, *workers, sel, *examples, *out, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

// row is what the contenders did on one example; a contender not run
// has nil.
type row struct {
	ex *harness.Example
	g  *gocolicRun
	f  *fuzzRun
	// targets holds the runs of the target contenders that ran.
	targets map[string]*targetRun
}

// target returns the row's run of target contender c, nil if it did not
// run.
func (r row) target(c string) *targetRun { return r.targets[c] }

// run runs the contenders on each example in turn and prints the Markdown
// report (and writes it to outPath, if not empty).
func run(ctx context.Context, set string, budget time.Duration, workers int, contenders []string, list, outPath string, keep bool) error {
	root, err := harness.RepoRoot()
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "compare: copying the examples and building gocolic")
	w, err := harness.NewWorkspaceOf(ctx, root, set)
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
		for _, c := range targetContenders {
			if !selected[c] || ctx.Err() != nil {
				continue
			}
			fmt.Fprintf(os.Stderr, "compare: %s: gocolic fuzz %s %s (%v, %d workers)\n", name, strings.Join(targetFlags[c], " "), ex.Fuzz, budget, workers)
			t := runTarget(ctx, w, ex, budget, workers, c)
			if r.targets == nil {
				r.targets = map[string]*targetRun{}
			}
			r.targets[c] = &t
			failed = failed || t.err != nil || t.cov.err != nil
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

// firstLine returns the first line of s.
func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
