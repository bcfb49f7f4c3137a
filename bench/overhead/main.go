// Command overhead measures what gocolic's instrumentation costs per
// execution, as a ratio to running the same function uninstrumented, on
// each example.
//
// Usage, from the repository root:
//
//	go run ./bench/overhead [-budget 5s] [-examples magic,bits] [-workers 1] [-benchtime 1s] [-keep]
//
// For each example, in a temporary copy of the examples:
//
//  1. Search: gocolic test -budget B -workers W -notests -json r.json ./NAME Func.
//     From the report: exec_ns / executions is the mean time a worker
//     spent inside one instrumented execution (from resetting the
//     coverage state to the encoded trace, inputs symbolic, panics
//     recovered and their stacks captured), over every execution of the
//     search; cases are the inputs it kept (those that added coverage and
//     did not panic); execs_per_sec is the end-to-end rate, which also
//     pays for the coordinator, the pipes and the solver.
//  2. Native: a generated zz_native_bench_test.go calls Func on exactly the
//     kept inputs in a loop (each call under a deferred recover, results
//     stored to package variables so the calls are not optimised away),
//     run with go test -run '^$' -bench '^BenchmarkNative$' -benchtime T;
//     ns/op divided by the number of inputs is the mean native call.
//  3. Replay: the kept inputs, repeated to about -replays executions, are
//     written as a corpus and run with gocolic test -replay (no search, no
//     solving): exec_ns / executions is then the mean instrumented
//     execution on exactly the native benchmark's inputs, warm.
//
// The ratios are instrumented ns per execution over native ns per call.
package main

import (
	"context"
	"flag"
	"fmt"
	"go/format"
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
)

func main() {
	budget := flag.Duration("budget", 5*time.Second, "wall-clock budget of the gocolic search on each example")
	examples := flag.String("examples", "", "comma-separated examples to run (default: all under examples/)")
	workers := flag.Int("workers", 1, "gocolic worker processes; 1 keeps the in-worker timings free of competition between workers for the cores")
	benchtime := flag.Duration("benchtime", time.Second, "go test -benchtime of the native benchmark")
	replays := flag.Int("replays", 2000, "approximate number of instrumented executions of the replay")
	keep := flag.Bool("keep", false, "keep the temporary workspace (copies, reports, logs) and print its path")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/overhead [flags]\n\nMeasures gocolic's per-execution instrumentation overhead against native calls.\n\nFlags:")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 || *budget <= 0 || *workers <= 0 || *benchtime <= 0 || *replays <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *budget, *workers, *benchtime, *replays, *examples, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "overhead:", err)
		os.Exit(1)
	}
}

// result is the measurement of one example.
type result struct {
	ex          *harness.Example
	err         error
	inputs      int     // kept inputs
	searchExecs int     // executions of the search
	searchNS    float64 // instrumented ns per execution, search
	busy        float64 // share of the search's worker time spent in executions
	replayExecs int
	replayNS    float64 // instrumented ns per execution, replay of the kept inputs
	nativeNS    float64 // native ns per call on the kept inputs
	execsPerSec float64 // end-to-end rate of the search
}

func run(ctx context.Context, budget time.Duration, workers int, benchtime time.Duration, replays int, list string, keep bool) error {
	root, err := harness.RepoRoot()
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "overhead: copying the examples and building gocolic")
	w, err := harness.NewWorkspace(ctx, root)
	if err != nil {
		return err
	}
	if keep {
		fmt.Fprintf(os.Stderr, "overhead: workspace kept in %s\n", w.Dir)
	} else {
		defer w.Remove()
	}
	names, err := w.ExampleNames(list)
	if err != nil {
		return err
	}
	var results []result
	failures := 0
	for _, name := range names {
		ex, err := w.LoadExample(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "overhead: %s.%s\n", name, ex.Func)
		r := measure(ctx, w, ex, budget, workers, benchtime, replays)
		if r.err != nil {
			failures++
			fmt.Fprintf(os.Stderr, "overhead: %s: %v\n", name, r.err)
		}
		results = append(results, r)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	fmt.Print(strings.ReplaceAll(report(results, budget, workers, benchtime), w.Dir, "$TMP"))
	if failures > 0 {
		return fmt.Errorf("%d example(s) could not be measured", failures)
	}
	return nil
}

func measure(ctx context.Context, w *harness.Workspace, ex *harness.Example, budget time.Duration, workers int, benchtime time.Duration, replays int) result {
	r := result{ex: ex}
	reports := filepath.Join(w.Dir, "reports")
	os.MkdirAll(reports, 0o755)
	wflag := strconv.Itoa(workers)

	// 1. Search.
	flags := []string{"-budget", budget.String(), "-workers", wflag}
	rep, _, err := w.Gocolic(ctx, budget+2*time.Minute, ex.Name+".search", filepath.Join(reports, ex.Name+".search.json"), flags, ex.Name, ex.Func)
	if rep == nil {
		r.err = err
		return r
	}
	if rep.Executions == 0 || len(rep.Cases) == 0 {
		r.err = fmt.Errorf("the search kept no inputs (%d executions)", rep.Executions)
		return r
	}
	r.inputs, r.searchExecs, r.execsPerSec = len(rep.Cases), rep.Executions, rep.ExecsPerSec
	r.searchNS = float64(rep.ExecNS) / float64(rep.Executions)
	if rep.ElapsedMS > 0 {
		r.busy = float64(rep.ExecNS) / (float64(rep.ElapsedMS) * 1e6 * float64(workers))
	}

	// 2. Native.
	src, err := benchFile(ex, rep.Cases)
	if err != nil {
		r.err = err
		return r
	}
	benchPath := filepath.Join(ex.Dir, "zz_native_bench_test.go")
	if err := os.WriteFile(benchPath, src, 0o644); err != nil {
		r.err = err
		return r
	}
	res := harness.Run(ctx, benchtime*10+2*time.Minute, w.Module, w.LogPath(ex.Name+".native"),
		"go", "test", "-count=1", "-run", "^$", "-bench", "^BenchmarkNative$", "-benchtime", benchtime.String(), "./"+ex.Name)
	os.Remove(benchPath)
	if res.Err != nil {
		r.err = fmt.Errorf("native benchmark: %w\n%s", res.Err, harness.Tail(res.Output, 15))
		return r
	}
	m := nsOpRE.FindSubmatch(res.Output)
	if m == nil {
		r.err = fmt.Errorf("native benchmark: no ns/op in its output\n%s", harness.Tail(res.Output, 15))
		return r
	}
	nsOp, _ := strconv.ParseFloat(string(m[1]), 64)
	r.nativeNS = nsOp / float64(len(rep.Cases))

	// 3. Replay of the kept inputs, repeated.
	var entries [][]corpus.Value
	var one [][]corpus.Value
	for _, c := range rep.Cases {
		var e []corpus.Value
		for i, lit := range c {
			v, err := harness.ValueOf(ex.Params[i].Type, lit)
			if err != nil {
				r.err = fmt.Errorf("kept input %v: %w", c, err)
				return r
			}
			e = append(e, v)
		}
		one = append(one, e)
	}
	for len(entries) < replays {
		entries = append(entries, one...)
	}
	dir := filepath.Join(w.Dir, "replay", ex.Name)
	if err := corpus.WriteDir(dir, entries); err != nil {
		r.err = err
		return r
	}
	const replayBudget = 5 * time.Minute // a replay stops by itself when every input has run
	flags = []string{"-budget", replayBudget.String(), "-workers", wflag, "-replay", dir}
	rrep, _, err := w.Gocolic(ctx, replayBudget+2*time.Minute, ex.Name+".replay", filepath.Join(reports, ex.Name+".replay.json"), flags, ex.Name, ex.Func)
	if rrep == nil {
		r.err = err
		return r
	}
	if rrep.Executions != len(entries) {
		r.err = fmt.Errorf("the replay ran %d of %d inputs", rrep.Executions, len(entries))
	}
	if rrep.Executions > 0 {
		r.replayExecs = rrep.Executions
		r.replayNS = float64(rrep.ExecNS) / float64(rrep.Executions)
	}
	return r
}

var nsOpRE = regexp.MustCompile(`(?m)^BenchmarkNative(?:-\d+)?\s+\d+\s+([0-9.]+) ns/op`)

// benchFile generates the native benchmark of ex.Func over cases, which are
// Go literals of its parameters as gocolic's report gives them.
func benchFile(ex *harness.Example, cases [][]string) ([]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by bench/overhead. DO NOT EDIT.\n\npackage %s\n\nimport \"testing\"\n\n", ex.Package)
	b.WriteString("type zzNativeCase struct {\n")
	for i, p := range ex.Params {
		fmt.Fprintf(&b, "\tp%d %s\n", i, p.Type)
	}
	b.WriteString("}\n\nvar zzNativeCases = []zzNativeCase{\n")
	for _, c := range cases {
		if len(c) != len(ex.Params) {
			return nil, fmt.Errorf("kept input %v has %d values for %d parameters", c, len(c), len(ex.Params))
		}
		fmt.Fprintf(&b, "\t{%s},\n", strings.Join(c, ", "))
	}
	b.WriteString("}\n\n")
	var sinks, args []string
	for i, t := range ex.Results {
		fmt.Fprintf(&b, "var zzNativeSink%d %s\n", i, t)
		sinks = append(sinks, fmt.Sprintf("zzNativeSink%d", i))
	}
	for i := range ex.Params {
		args = append(args, fmt.Sprintf("c.p%d", i))
	}
	call := fmt.Sprintf("%s(%s)", ex.Func, strings.Join(args, ", "))
	if len(sinks) > 0 {
		call = strings.Join(sinks, ", ") + " = " + call
	}
	fmt.Fprintf(&b, `
// zzNativeCall makes one call; a panic is recovered, as gocolic's worker does.
func zzNativeCall(c *zzNativeCase) {
	defer func() { _ = recover() }()
	%s
}

// BenchmarkNative makes one call per kept input per iteration.
func BenchmarkNative(b *testing.B) {
	for i := 0; i < b.N; i++ {
		for k := range zzNativeCases {
			zzNativeCall(&zzNativeCases[k])
		}
	}
}
`, call)
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return nil, fmt.Errorf("generated benchmark does not parse: %w", err)
	}
	return src, nil
}

func report(results []result, budget time.Duration, workers int, benchtime time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Search budget %v, %d gocolic worker(s), native -benchtime %v, %s %s/%s, %d CPUs.\n\n",
		budget, workers, benchtime, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	b.WriteString("| example | kept inputs | native ns/call | instrumented ns/exec, replay | overhead, same inputs | search execs | instrumented ns/exec, search | overhead, search | search: share of worker time in executions | end-to-end execs/s |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	var notes []string
	for _, r := range results {
		if r.err != nil {
			notes = append(notes, fmt.Sprintf("%s: %s", r.ex.Name, strings.SplitN(r.err.Error(), "\n", 2)[0]))
		}
		if r.nativeNS == 0 {
			fmt.Fprintf(&b, "| %s | error | | | | | | | | |\n", r.ex.Name)
			continue
		}
		replay, ratioReplay := "—", "—"
		if r.replayExecs > 0 {
			replay = fmt.Sprintf("%.0f", r.replayNS)
			ratioReplay = fmt.Sprintf("%.0f×", r.replayNS/r.nativeNS)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %d | %.0f | %.0f× | %.0f%% | %.0f |\n",
			r.ex.Name, r.inputs, nativeCell(r.nativeNS), replay, ratioReplay,
			r.searchExecs, r.searchNS, r.searchNS/r.nativeNS, 100*r.busy, r.execsPerSec)
	}
	b.WriteString(`
- native ns/call: the uninstrumented function on the kept inputs (go test -bench, ns/op ÷ inputs), including a deferred recover per call.
- instrumented ns/exec, replay: gocolic -replay of the kept inputs repeated to about the -replays count; time inside the worker from reset to encoded trace, inputs symbolic; no search and no solving, but the coordinator still decodes every trace.
- instrumented ns/exec, search: the same in-worker time over every execution of the search (different inputs: all executed ones, including panicking ones, whose stack capture is counted).
- share of worker time in executions: exec_ns ÷ (elapsed × workers) of the search; the rest is workers waiting for the coordinator (solving, decoding traces, IPC).
- end-to-end execs/s: executions ÷ elapsed of the search, all costs included.
`)
	for _, n := range notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	return b.String()
}

func nativeCell(ns float64) string {
	if ns < 10 {
		return fmt.Sprintf("%.1f", ns)
	}
	return fmt.Sprintf("%.0f", ns)
}
