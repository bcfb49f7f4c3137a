package coordinator

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// The helper worker in testdata/worker chooses its behaviour by its one
// int64 parameter x.
const (
	modeReturn     = 0  // returns normally
	modePanic      = 1  // panic("boom")
	modeExit       = 2  // os.Exit(3)
	modeFatal      = 3  // fatal error: stack overflow
	modeHang       = 4  // blocks forever
	modeMemory     = 5  // allocates until killed
	modeGoroutine  = 6  // panics in another goroutine
	modeFatalBusy  = 7  // fatal error: stack overflow, with 100 more goroutines
	modeGoroutine2 = 8  // the panic of modeGoroutine, at another line
	modeRuntime    = 9  // panics in gocolic's runtime when tracked, returns 2 when not
	modeSlowOnce   = 30 // sleeps 1 s when tracked, then one symbolic branch
	modeSlowTwice  = 31 // sleeps 6 s when tracked, then one symbolic branch
	// modeNumbered+k for k in 0..9 panics with "bad value <x>".
	modeNumbered = 10
	// modeStateful+k for k in 0..9 returns when it is the first
	// execution of the mode in its process, and else panics with
	// "redefined: <letter k>" (k = 9 exits with status 5): a failure
	// that depends on earlier executions, as pflag's "flag redefined"
	// does.
	modeStateful = 20
	// Any value from modeBranches on returns after 64 symbolic branches.
	modeBranches = 100
)

var (
	workerOnce sync.Once
	workerPath string
	workerErr  error
)

// workerBin builds the helper worker once per test binary and returns its
// path.
func workerBin(t *testing.T) string {
	t.Helper()
	workerOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gocolic-coordinator-test-")
		if err != nil {
			workerErr = err
			return
		}
		workerPath = filepath.Join(dir, "worker")
		cmd := exec.Command("go", "build", "-o", workerPath, "./testdata/worker")
		if out, err := cmd.CombinedOutput(); err != nil {
			workerErr = fmt.Errorf("building the test worker: %v\n%s", err, out)
		}
	})
	if workerErr != nil {
		t.Fatal(workerErr)
	}
	return workerPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if workerPath != "" {
		os.RemoveAll(filepath.Dir(workerPath))
	}
	os.Exit(code)
}

// input is the environment giving the helper's parameter x the value x.
func input(x int64) sym.Env { return sym.Env{0: uint64(x)} }

// start starts a helper worker and makes sure it is gone when the test
// ends.
func start(t *testing.T, timeout time.Duration, memLimit uint64) *worker {
	t.Helper()
	w, err := startWorker(spec{bin: workerBin(t), timeout: timeout, memLimit: memLimit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-w.done:
		default:
			w.kill()
		}
	})
	return w
}

// runOK runs input x, which must return normally, and returns the
// response.
func runOK(t *testing.T, w *worker, x int64) *rt.Response {
	t.Helper()
	resp, crash, err := w.run(&rt.Request{Env: input(x), MaxLen: 8})
	if err != nil || crash != nil {
		t.Fatalf("run(%d): crash %+v, error %v; want a response", x, crash, err)
	}
	return resp
}

func TestWorkerResponses(t *testing.T) {
	w := start(t, 10*time.Second, 0)
	tests := []struct {
		x      int64
		status rt.Status
		panic  string
		result string
		path   int
	}{
		{x: modeReturn, status: rt.StatusOK, result: "0"},
		{x: modePanic, status: rt.StatusPanic, panic: "boom"},
		{x: modeNumbered + 7, status: rt.StatusPanic, panic: "bad value 17"},
		{x: modeBranches, status: rt.StatusOK, result: "0", path: 64},
		{x: 1005, status: rt.StatusOK, result: "1", path: 64},
		// The worker survives panics: the same process serves them all.
		{x: modeReturn, status: rt.StatusOK, result: "0"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.x), func(t *testing.T) {
			resp := runOK(t, w, tt.x)
			if resp.Status != tt.status || resp.Panic != tt.panic {
				t.Errorf("status %d, panic %q; want %d, %q", resp.Status, resp.Panic, tt.status, tt.panic)
			}
			if tt.status == rt.StatusPanic {
				if !strings.Contains(resp.Stack, "goroutine ") {
					t.Errorf("panic without a stack: %q", resp.Stack)
				}
				if len(resp.Results) != 0 {
					t.Errorf("a panic has results %+v", resp.Results)
				}
				return
			}
			if len(resp.Results) != 1 || !resp.Results[0].Pinned || resp.Results[0].Literal != tt.result {
				t.Errorf("results %+v, want one pinned %s", resp.Results, tt.result)
			}
			if len(resp.Path) != tt.path {
				t.Errorf("path of %d branches, want %d", len(resp.Path), tt.path)
			}
		})
	}
}

func TestWorkerCrashes(t *testing.T) {
	tests := []struct {
		name     string
		x        int64
		timeout  time.Duration
		memLimit uint64
		kind     CrashKind
		message  string
		output   string // in the captured stderr
		slow     bool
	}{
		{name: "exit", x: modeExit, timeout: 10 * time.Second, kind: CrashExit, message: "exit status 3"},
		{name: "fatal", x: modeFatal, timeout: 10 * time.Second, kind: CrashFatal, message: "fatal error: stack overflow", output: "goroutine stack exceeds"},
		// The runtime prints every goroutine after a fatal error, far
		// more than the 16 KiB tail of stderr the worker handle keeps.
		{name: "fatal among many goroutines", x: modeFatalBusy, timeout: 10 * time.Second, kind: CrashFatal, message: "fatal error: stack overflow", output: "goroutine "},
		{name: "goroutine panic", x: modeGoroutine, timeout: 10 * time.Second, kind: CrashFatal, message: "panic: boom in goroutine", output: "goroutine "},
		{name: "timeout", x: modeHang, timeout: 300 * time.Millisecond, kind: CrashTimeout, message: "execution exceeded 300ms"},
		{name: "memory", x: modeMemory, timeout: 20 * time.Second, memLimit: 64 << 20, kind: CrashMemory, message: "worker memory exceeded 64 MiB", slow: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.slow && testing.Short() {
				t.Skip("slow in -short mode")
			}
			w := start(t, tt.timeout, tt.memLimit)
			// A first execution proves the worker healthy before the crash.
			runOK(t, w, modeReturn)
			begin := time.Now()
			resp, crash, err := w.run(&rt.Request{Env: input(tt.x), MaxLen: 8})
			elapsed := time.Since(begin)
			if err != nil || resp != nil || crash == nil {
				t.Fatalf("run: response %+v, error %v; want a crash", resp, err)
			}
			if crash.Kind != tt.kind || crash.Message != tt.message {
				t.Errorf("crash %s %q, want %s %q\noutput:\n%s", crash.Kind, crash.Message, tt.kind, tt.message, abbreviate(crash.Output))
			}
			if !strings.Contains(crash.Output, tt.output) {
				t.Errorf("output lacks %q:\n%s", tt.output, abbreviate(crash.Output))
			}
			if tt.kind == CrashTimeout && (elapsed < tt.timeout || elapsed > tt.timeout+5*time.Second) {
				t.Errorf("timeout after %v, want about %v", elapsed, tt.timeout)
			}
			// The process is gone.
			select {
			case <-w.done:
			case <-time.After(5 * time.Second):
				t.Fatal("the crashed worker is still running")
			}
			// A new worker serves the next input.
			w2 := start(t, tt.timeout, tt.memLimit)
			if resp := runOK(t, w2, modeReturn); resp.Status != rt.StatusOK {
				t.Errorf("replacement worker: status %d", resp.Status)
			}
		})
	}
}

// abbreviate keeps the start and the end of a long worker output.
func abbreviate(s string) string {
	if len(s) <= 1200 {
		return s
	}
	return s[:600] + "\n[...]\n" + s[len(s)-600:]
}

// TestWorkerTimeoutThenKill checks that the coordinator's kill after a
// timeout, which run has already killed, is harmless.
func TestWorkerTimeoutThenKill(t *testing.T) {
	w := start(t, 200*time.Millisecond, 0)
	_, crash, _ := w.run(&rt.Request{Env: input(modeHang)})
	if crash == nil || crash.Kind != CrashTimeout {
		t.Fatalf("crash %+v, want a timeout", crash)
	}
	// Killing again, as the coordinator does after every crash, neither
	// blocks nor panics.
	finished := make(chan struct{})
	go func() {
		w.kill()
		close(finished)
	}()
	select {
	case <-finished:
	case <-time.After(5 * time.Second):
		t.Fatal("kill of a dead worker blocks")
	}
}

func TestWorkerClose(t *testing.T) {
	w := start(t, 5*time.Second, 0)
	runOK(t, w, modeReturn)
	begin := time.Now()
	w.close()
	select {
	case <-w.done:
	default:
		t.Fatal("close returned before the worker exited")
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("close took %v: the worker did not exit on its own", d)
	}
	if code := w.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("worker exit status %d after close, want 0", code)
	}
}

func TestStartWorkerMissingBinary(t *testing.T) {
	_, err := startWorker(spec{bin: filepath.Join(t.TempDir(), "missing"), timeout: time.Second})
	if err == nil {
		t.Fatal("starting a missing binary succeeded")
	}
}

func TestTopFrame(t *testing.T) {
	tests := []struct {
		name     string
		stack    string
		want     string
		wantFunc string // TopFunc
	}{
		{
			name: "user panic",
			stack: "goroutine 1 [running]:\n" +
				"runtime/debug.Stack()\n\t/go/src/runtime/debug/stack.go:26 +0x5e\n" +
				"example.com/m/internal/gocolicrt.execute.func1()\n\t/m/internal/gocolicrt/worker.go:84 +0x7c\n" +
				"panic({0x4a2b60?, 0x4e1e30?})\n\t/go/src/runtime/panic.go:792 +0x132\n" +
				"example.com/m/pkg.Parse(...)\n\t/m/pkg/parse.go:12 +0x45\n" +
				"example.com/m/pkg.init.0.func1(0xc000010000)\n\t/m/pkg/gocolic_entry.go:9 +0x1a\n",
			want: "/m/pkg/parse.go:12", wantFunc: "Parse",
		},
		{
			// The runtime is the standard package gocolicrt/rt: its
			// frames (the stack it takes, its recover) are not the
			// user's, or every panic of one message would be one bug.
			name: "runtime under GOROOT",
			stack: "goroutine 1 [running]:\n" +
				"gocolicrt/rt.goroutineStack()\n\t/go/src/gocolicrt/rt/floor.go:49 +0x2e\n" +
				"gocolicrt/rt.execute.func1()\n\t/go/src/gocolicrt/rt/worker.go:84 +0x7c\n" +
				"panic({0x4a2b60?, 0x4e1e30?})\n\t/go/src/runtime/panic.go:792 +0x132\n" +
				"example.com/m/pkg.Parse(...)\n\t/m/pkg/parse.go:12 +0x45\n",
			want: "/m/pkg/parse.go:12", wantFunc: "Parse",
		},
		{
			name: "runtime error",
			stack: "goroutine 1 [running]:\n" +
				"panic({0x4a2b60?, 0x4e1e30?})\n\t/go/src/runtime/panic.go:792 +0x132\n" +
				"runtime.goPanicIndex(0x6, 0x6)\n\t/go/src/runtime/panic.go:115 +0x74\n" +
				"example.com/m/pkg.At(...)\n\t/m/pkg/at.go:7\n",
			want: "/m/pkg/at.go:7", wantFunc: "At",
		},
		{
			name: "panic in another goroutine",
			stack: "panic: boom\n\n" +
				"goroutine 7 [running]:\n" +
				"example.com/m/pkg.Start.func1()\n\t/m/pkg/start.go:9 +0x25\n" +
				"created by example.com/m/pkg.Start in goroutine 1\n\t/m/pkg/start.go:8 +0x1a\n",
			want: "/m/pkg/start.go:9", wantFunc: "Start.func1",
		},
		{
			name: "stack overflow",
			stack: "runtime: goroutine stack exceeds 1000000000-byte limit\n" +
				"runtime: sp=0xc020160388 stack=[0xc020160000, 0xc040160000]\n" +
				"fatal error: stack overflow\n\n" +
				"runtime stack:\n" +
				"runtime.throw({0x4d5a57?, 0x200000008?})\n\t/go/src/runtime/panic.go:1229 +0x48 fp=0x7ffe sp=0x7ffd pc=0x47a488\n" +
				"runtime.newstack()\n\t/go/src/runtime/stack.go:1207 +0x5fd fp=0x7ffe sp=0x7ffd pc=0x461d5d\n\n" +
				"goroutine 1 gp=0xc000002380 m=0 mp=0x5a0420 [running]:\n" +
				"example.com/m/pkg.walk(0x2e73?)\n\t/m/pkg/walk.go:23 +0x78 fp=0xc020160390 sp=0xc020160388 pc=0x4aa8b8\n" +
				"example.com/m/pkg.walk(0x0?)\n\t/m/pkg/walk.go:26 +0x52 fp=0xc0201603e8 sp=0xc020160390 pc=0x4aa892\n",
			want: "/m/pkg/walk.go:23", wantFunc: "walk",
		},
		{
			name:  "no user frame",
			stack: "goroutine 1 [running]:\nruntime.main()\n\t/go/src/runtime/proc.go:283 +0x28b\n",
			want:  "",
		},
		{name: "empty", stack: "", want: ""},
		{
			name: "method",
			stack: "goroutine 1 [running]:\n" +
				"panic({0x4a2b60?, 0x4e1e30?})\n\t/go/src/runtime/panic.go:792 +0x132\n" +
				"github.com/x/v.(*Version).IncMinor(0xc000010000)\n\t/m/v/version.go:124 +0x45\n",
			want: "/m/v/version.go:124", wantFunc: "IncMinor",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := topFrame(tt.stack); got != tt.want {
				t.Errorf("topFrame = %q, want %q", got, tt.want)
			}
			if got := TopFunc(tt.stack); got != tt.wantFunc {
				t.Errorf("TopFunc = %q, want %q", got, tt.wantFunc)
			}
		})
	}
}

// unsatSolver answers Unsat to every query.
type unsatSolver struct{ calls atomic.Int64 }

func (s *unsatSolver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	s.calls.Add(1)
	return solver.Result{Status: solver.Unsat}, nil
}

// countingSolver answers Sat to every query with x = 100, 101, ...: inputs
// that never reach their candidate but keep the explorer busy.
type countingSolver struct{ next atomic.Int64 }

func (s *countingSolver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	x := modeBranches + s.next.Add(1) - 1
	return solver.Result{Status: solver.Sat, Model: input(x)}, nil
}

// blockingSolver blocks every query until its context ends, as a Z3 query
// that runs past the budget does.
type blockingSolver struct {
	once    sync.Once
	started chan struct{}
}

func (s *blockingSolver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	s.once.Do(func() { close(s.started) })
	<-ctx.Done()
	return solver.Result{Status: solver.Unknown}, ctx.Err()
}

// runConfig is a coordinator configuration for the helper worker.
func runConfig(t *testing.T, s solver.Solver, seeds ...int64) Config {
	t.Helper()
	cfg := Config{
		Bin:     workerBin(t),
		Params:  []rt.Param{{Name: "x", Kind: rt.ParamInt, Width: 64, Signed: true}},
		MaxLen:  8,
		Options: Options{Workers: 1, Strategy: "cover", Timeout: 10 * time.Second},
		Solver:  s,
	}
	for _, x := range seeds {
		cfg.Seeds = append(cfg.Seeds, input(x))
	}
	return cfg
}

var errSafety = errors.New("safety deadline")

// runDriver runs the coordinator with a safety deadline, so that a
// coordinator that never stops fails the test instead of hanging it.
func runDriver(t *testing.T, ctx context.Context, cfg Config) *Report {
	t.Helper()
	ctx, cancel := context.WithTimeoutCause(ctx, 10*time.Second, errSafety)
	defer cancel()
	rep, err := Run(ctx, cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if rep == nil {
		t.Fatal("Run returned no report")
	}
	if errors.Is(context.Cause(ctx), errSafety) {
		t.Fatalf("Run did not stop on its own (stopped %q after %d executions)", rep.Stopped, rep.Execs)
	}
	return rep
}

type wantFinding struct {
	kind    string
	message string
	count   int
	input   int64
}

func checkFindings(t *testing.T, got []*Finding, want []wantFinding) {
	t.Helper()
	if len(got) != len(want) {
		var s []string
		for _, f := range got {
			s = append(s, fmt.Sprintf("%s %q ×%d", f.Kind, f.Message, f.Count))
		}
		t.Fatalf("%d findings %v, want %d", len(got), s, len(want))
	}
	for i, w := range want {
		f := got[i]
		if f.Kind != w.kind || f.Message != w.message || f.Count != w.count {
			t.Errorf("finding %d: %s %q ×%d, want %s %q ×%d", i, f.Kind, f.Message, f.Count, w.kind, w.message, w.count)
		}
		if x := int64(f.Input[0]); x != w.input {
			t.Errorf("finding %d: input x=%d, want the first one, %d", i, x, w.input)
		}
	}
}

func TestRunSeedsAndFindings(t *testing.T) {
	tests := []struct {
		name     string
		seeds    []int64
		findings []wantFinding
		restarts int
		cases    int
	}{
		{
			name:  "zero input by default",
			cases: 1,
		},
		{
			name:     "same panic twice is one finding",
			seeds:    []int64{modePanic, modePanic},
			findings: []wantFinding{{"panic", "boom", 2, modePanic}},
		},
		{
			name:  "numbers in messages do not tell findings apart",
			seeds: []int64{modeNumbered + 3, modeNumbered + 4, modePanic, modeNumbered + 5},
			findings: []wantFinding{
				{"panic", "bad value 13", 3, modeNumbered + 3},
				{"panic", "boom", 1, modePanic},
			},
		},
		{
			name:  "goroutine panics at two places are two findings",
			seeds: []int64{modeGoroutine, modeGoroutine2, modeGoroutine},
			findings: []wantFinding{
				{"fatal", "panic: boom in goroutine", 2, modeGoroutine},
				{"fatal", "panic: boom in goroutine", 1, modeGoroutine2},
			},
			restarts: 3,
		},
		{
			name:  "crashes are findings and do not stop the run",
			seeds: []int64{modeExit, modeFatal, modeGoroutine, modeExit, modeReturn},
			findings: []wantFinding{
				{"exit", "exit status 3", 2, modeExit},
				{"fatal", "fatal error: stack overflow", 1, modeFatal},
				{"fatal", "panic: boom in goroutine", 1, modeGoroutine},
			},
			restarts: 4,
			cases:    1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &unsatSolver{}
			cfg := runConfig(t, s, tt.seeds...)
			rep := runDriver(t, context.Background(), cfg)
			wantExecs := max(len(tt.seeds), 1)
			if rep.Execs != wantExecs {
				t.Errorf("%d executions, want %d", rep.Execs, wantExecs)
			}
			if rep.Stopped != "exhausted" || !rep.Exhausted {
				t.Errorf("stopped %q, exhausted %v; want exhausted", rep.Stopped, rep.Exhausted)
			}
			if rep.Restarts != tt.restarts {
				t.Errorf("%d restarts, want %d", rep.Restarts, tt.restarts)
			}
			if len(rep.Cases) != tt.cases {
				t.Errorf("%d cases, want %d", len(rep.Cases), tt.cases)
			}
			checkFindings(t, rep.Findings, tt.findings)
			if s.calls.Load() != 0 {
				t.Errorf("%d solver calls for inputs without symbolic branches", s.calls.Load())
			}
		})
	}
}

func TestRunTimeoutAndMemoryFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("slow in -short mode")
	}
	cfg := runConfig(t, &unsatSolver{}, modeHang, modeMemory, modeReturn)
	// Long enough for the blow-up to pass 64 MiB, and the memory watch
	// to see it, on a loaded machine before the timeout takes it.
	cfg.Timeout = 3 * time.Second
	cfg.MemLimitMB = 64
	// The hang and the memory blow-up go to different workers.
	cfg.Workers = 2
	rep := runDriver(t, context.Background(), cfg)
	kinds := map[string]int{}
	for _, f := range rep.Findings {
		kinds[f.Kind] += f.Count
	}
	if kinds["timeout"] != 1 || kinds["memory"] != 1 || len(rep.Findings) != 2 {
		t.Errorf("findings by kind %v, want one timeout and one memory", kinds)
	}
	if rep.Restarts != 2 || rep.Execs != 3 {
		t.Errorf("%d restarts, %d executions; want 2 and 3", rep.Restarts, rep.Execs)
	}
}

func TestRunUnsatExploration(t *testing.T) {
	s := &unsatSolver{}
	rep := runDriver(t, context.Background(), runConfig(t, s, modeBranches))
	// One run opens the 64 other sides; each is refuted.
	if got := s.calls.Load(); got != 64 {
		t.Errorf("%d solver calls, want 64", got)
	}
	if rep.Queries["unsat"] != 64 {
		t.Errorf("queries %v, want 64 unsat", rep.Queries)
	}
	if rep.Execs != 1 || rep.Stopped != "exhausted" || !rep.Exhausted {
		t.Errorf("%d executions, stopped %q, exhausted %v; want 1, exhausted", rep.Execs, rep.Stopped, rep.Exhausted)
	}
	covered := 0
	for _, bits := range rep.Covered {
		if bits != 1 {
			t.Errorf("outcome bits %b, want only false covered", bits)
		}
		covered++
	}
	if covered != 64 {
		t.Errorf("%d sites covered, want 64", covered)
	}
}

func TestRunStops(t *testing.T) {
	tests := []struct {
		name    string
		solver  func() solver.Solver
		seeds   []int64
		runs    int
		budget  time.Duration
		cancel  bool // cancel the context once the solver blocks
		maxBugs int
		noSolve bool
		stopped string // "": not checked
		execs   int    // -1: not checked
	}{
		{name: "runs", solver: func() solver.Solver { return &countingSolver{} }, seeds: []int64{modeBranches}, runs: 5, stopped: "runs", execs: 5},
		{name: "runs fewer than seeds", solver: func() solver.Solver { return &unsatSolver{} }, seeds: []int64{0, 0, 0, 0, 0}, runs: 2, noSolve: true, stopped: "runs", execs: 2},
		{name: "budget", solver: func() solver.Solver { return &blockingSolver{started: make(chan struct{})} }, seeds: []int64{modeBranches}, budget: 300 * time.Millisecond, stopped: "budget", execs: 1},
		{name: "interrupted", solver: func() solver.Solver { return &blockingSolver{started: make(chan struct{})} }, seeds: []int64{modeBranches}, cancel: true, stopped: "interrupted", execs: 1},
		{name: "maxbugs", solver: func() solver.Solver { return &unsatSolver{} }, seeds: []int64{modePanic, modeExit, modeReturn, modeReturn}, maxBugs: 1, stopped: "maxbugs", execs: -1},
		{name: "no solve", solver: func() solver.Solver { return &countingSolver{} }, seeds: []int64{modeBranches, modeReturn}, noSolve: true, execs: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.solver()
			cfg := runConfig(t, s, tt.seeds...)
			cfg.Runs, cfg.Budget, cfg.MaxBugs, cfg.NoSolve = tt.runs, tt.budget, tt.maxBugs, tt.noSolve
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel {
				bs := s.(*blockingSolver)
				go func() {
					select {
					case <-bs.started:
						cancel()
					case <-ctx.Done():
					}
				}()
			}
			begin := time.Now()
			rep := runDriver(t, ctx, cfg)
			if tt.stopped != "" && rep.Stopped != tt.stopped {
				t.Errorf("stopped %q, want %q", rep.Stopped, tt.stopped)
			}
			if cs, ok := s.(*countingSolver); ok && tt.noSolve && cs.next.Load() != 0 {
				t.Errorf("%d solver calls with NoSolve", cs.next.Load())
			}
			if tt.execs >= 0 && rep.Execs != tt.execs {
				t.Errorf("%d executions, want %d", rep.Execs, tt.execs)
			}
			if tt.stopped != "" && tt.stopped != "exhausted" && rep.Exhausted {
				t.Error("a stopped run claims an exhausted search")
			}
			if tt.budget > 0 && time.Since(begin) < tt.budget {
				t.Errorf("stopped after %v, before the budget of %v", time.Since(begin), tt.budget)
			}
			if tt.maxBugs > 0 && (len(rep.Findings) < tt.maxBugs || rep.Execs > 2) {
				t.Errorf("%d findings after %d executions, want %d finding after at most 2", len(rep.Findings), rep.Execs, tt.maxBugs)
			}
		})
	}
}

// TestRunAttributesDivergences runs the branches mode with a solver whose
// inputs never reach their candidates: every run after the seed diverges at
// its candidate's depth, and the worker concretises x after 32 branches, so
// the divergences at depth 32 and deeper are attributed to that call and
// the shallower ones to nothing.
func TestRunAttributesDivergences(t *testing.T) {
	cfg := runConfig(t, &countingSolver{}, modeBranches)
	cfg.Runs = 1 + 64 // the seed, then one run per candidate
	rep := runDriver(t, context.Background(), cfg)
	c := &rep.Concretised
	if rep.Execs != 65 || rep.Divergences != 64 || c.Divergences != 64 {
		t.Fatalf("%d executions, %d divergences (%d seen by the attribution); want 65, 64", rep.Execs, rep.Divergences, c.Divergences)
	}
	want := ConcreteCount{Events: 65, Executions: 65, Divergences: 32}
	if got := c.Causes[rt.CauseCall]; got != want {
		t.Errorf("call: %+v, want %+v", got, want)
	}
	if c.Unattributed != 32 {
		t.Errorf("%d unattributed divergences, want 32", c.Unattributed)
	}
	sites := c.Sites(rt.CauseCall, 0)
	if len(sites) != 1 || sites[0].Site != 64 || sites[0].ConcreteCount != want {
		t.Errorf("call sites %+v, want site 64 with %+v", sites, want)
	}
	if c.Events() != 65 {
		t.Errorf("%d events of any cause, want 65", c.Events())
	}
	// Run k flips site k at depth k: one divergence at each site, the
	// ties in site order.
	if all := rep.DivergentSites(0); len(all) != 64 {
		t.Errorf("%d divergent sites, want 64: %+v", len(all), all)
	}
	top := rep.DivergentSites(3)
	if want := []SiteCount{{0, 1}, {1, 1}, {2, 1}}; !slices.Equal(top, want) {
		t.Errorf("top divergent sites %+v, want %+v", top, want)
	}
}

func TestRunWorkerStartError(t *testing.T) {
	cfg := runConfig(t, &unsatSolver{})
	cfg.Bin = filepath.Join(t.TempDir(), "missing")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rep, err := Run(ctx, cfg)
	if err == nil {
		t.Fatal("Run with a missing worker binary succeeded")
	}
	if ctx.Err() != nil {
		t.Fatal("Run did not return on the start error")
	}
	if rep != nil && rep.Stopped != "error" {
		t.Errorf("stopped %q, want error", rep.Stopped)
	}
}

func TestRunUnknownStrategy(t *testing.T) {
	cfg := Config{Bin: "unused", Options: Options{Strategy: "sideways", Timeout: time.Second}, Solver: &unsatSolver{}}
	if _, err := Run(context.Background(), cfg); err == nil {
		t.Fatal("Run with an unknown strategy succeeded")
	}
}

func TestRunProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("slow in -short mode")
	}
	var out syncBuffer
	// 64 queries of 25ms each keep the run going past the first tick.
	cfg := runConfig(t, &slowSolver{delay: 25 * time.Millisecond}, modeBranches)
	cfg.Progress = &out
	rep := runDriver(t, context.Background(), cfg)
	if rep.Stopped != "exhausted" {
		t.Errorf("stopped %q, want exhausted", rep.Stopped)
	}
	line := regexp.MustCompile(`(?m)^gocolic: elapsed: \d+s, execs: \d+ \(\d+/sec\), paths: 1, branches: 0/0 \(0\.0%\), bugs: 0, solver: \d+%$`)
	if !line.MatchString(out.String()) {
		t.Errorf("progress output %q lacks the status line of the first second", out.String())
	}
}

// slowSolver is a countingSolver that takes its time.
type slowSolver struct {
	countingSolver
	delay time.Duration
}

func (s *slowSolver) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return solver.Result{}, ctx.Err()
	}
	return s.countingSolver.Solve(ctx, q)
}

// syncBuffer is a strings.Builder safe for the coordinator's writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestFindingKey checks which failures count as one finding: numbers
// and the contents of quoted strings do not tell them apart; the rest of
// the message, the kind and the innermost frame do.
func TestFindingKey(t *testing.T) {
	const stack = "panic({0x1, 0x2})\n\t/go/src/runtime/panic.go:860\nexample.com/p.F(0x1)\n\t/m/p.go:9 +0x1\n"
	const other = "panic({0x1, 0x2})\n\t/go/src/runtime/panic.go:860\nexample.com/p.G(0x1)\n\t/m/p.go:19 +0x1\n"
	tests := []struct {
		name   string
		a, b   [3]string // kind, message, stack
		wantEq bool
	}{
		{"numbers", [3]string{"panic", "index out of range [5] with length 3", stack}, [3]string{"panic", "index out of range [7] with length 2", stack}, true},
		{"quoted input", [3]string{"panic", `property violated: "E" at "": unparsed tail left`, stack}, [3]string{"panic", `property violated: "[{\"k\":e}]" at "1.k": unparsed tail left`, stack}, true},
		{"escaped quote inside", [3]string{"panic", `bad "a\"b" here`, stack}, [3]string{"panic", `bad "x" here`, stack}, true},
		{"lists of quoted strings", [3]string{"fail", `fields differ: ["" "\n" ""] against ["" "x"]`, stack}, [3]string{"fail", `fields differ: ["a"] against ["b", "c", "d"]`, stack}, true},
		{"a quoted string beside a list", [3]string{"fail", `field "a" of ["a" "b"]`, stack}, [3]string{"fail", `field ["a" "b"]`, stack}, false},
		{"other words", [3]string{"panic", `property violated: "E": unparsed tail left`, stack}, [3]string{"panic", `property violated: "E": cannot parse exponent`, stack}, false},
		{"other kind", [3]string{"panic", "boom", stack}, [3]string{"fail", "boom", stack}, false},
		{"other frame", [3]string{"panic", "boom", stack}, [3]string{"panic", "boom", other}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ka, kb := findingKey(tt.a[0], tt.a[1], tt.a[2]), findingKey(tt.b[0], tt.b[1], tt.b[2])
			if (ka == kb) != tt.wantEq {
				t.Errorf("keys %q and %q: equal %v, want %v", ka, kb, ka == kb, tt.wantEq)
			}
		})
	}
}

// TestStartWorkerDir checks that a worker process runs in the directory
// its spec names, as go test runs a test binary in its package's
// directory (a fuzz target may read its testdata by a relative path).
func TestStartWorkerDir(t *testing.T) {
	dir := t.TempDir()
	w, err := startWorker(spec{bin: "sh", args: []string{"-c", "pwd > where"}, dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	<-w.done
	got, err := os.ReadFile(filepath.Join(dir, "where"))
	if err != nil {
		t.Fatalf("the worker did not run in %s: %v", dir, err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	if d, _ := filepath.EvalSymlinks(strings.TrimSpace(string(got))); d != want {
		t.Errorf("worker ran in %s, want %s", d, want)
	}
}
