// Package session runs one gocolic command end to end: it loads the
// target, instruments and builds it, explores it with the coordinator, and
// writes the outputs (generated tests, JSON report, coverage profile).
// The command-line layer only parses flags into a Config.
package session

import (
	"context"
	"errors"
	"fmt"
	"go/types"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/emit"
	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/solver/walk"
	"github.com/gocolic/gocolic/solver/z3"
	"github.com/gocolic/gocolic/sym"
)

// Config is one `gocolic test` invocation.
type Config struct {
	Dir      string // directory the package pattern is relative to
	Package  string // import path or ./dir
	Func     string
	Budget   time.Duration
	Runs     int
	Workers  int
	Strategy string
	Seed     int64
	MaxLen   int // bound on string and []byte lengths; 0: 32, which fuzz raises to its longest seed (up to 1024)
	// MaxElems bounds the length of slice, map and variadic inputs (0:
	// instrument.DefaultMaxElems).
	MaxElems      int
	MaxDepth      int
	Timeout       time.Duration // per execution
	MemLimitMB    int
	SolverTimeout time.Duration
	// Solver is the solver mode: "z3" (calls of uninstrumented functions
	// concretised), "walk" (concolic walk, Z3 for the linear part) or
	// "auto" (Z3, then the walk; the default).
	Solver string
	// Walk are the concolic walk's parameters (modes walk and auto).
	Walk walk.Params
	// Impure lists packages and functions (path.Func) whose calls must
	// stay concrete, never opaque terms.
	Impure []string
	// Instrument lists go package patterns (relative to Dir) whose
	// packages in the target's import graph are instrumented too, as
	// support packages, so that values stay symbolic in calls into them;
	// packages of other modules are copied, never written (build/deps.go).
	Instrument   []string
	JSON         string // report path, "" for none
	Out          string // directory of the generated test file; "" for the package's
	CoverProfile string // "" for none
	RunDir       string // directory for report.json, timeline.csv and cover.out; "" for none
	NoTests      bool   // do not write the test file
	KeepWork     bool   // keep the work directory (overlay, binary)
	MaxBugs      int    // stop after this many distinct bugs; 0 for no limit
	// MinimizeTime bounds the minimisation of each finding's input after
	// the exploration; 0 keeps inputs as found.
	MinimizeTime time.Duration
	FuzzCache    bool // fuzz: also seed from the go test -fuzz cache of the target
	// WithFuzzer runs go test -fuzz beside the exploration (fuzz only),
	// exchanging corpus entries; the workers are split between the two.
	WithFuzzer bool
	// Replay lists directories of go test fuzz v1 files: their inputs are
	// run and measured, and nothing is explored or written but the report.
	Replay []string
	Stderr io.Writer

	maxLenAuto bool // MaxLen was not given (Validate)
}

// Validate checks a Config and fills in defaults.
func (c *Config) Validate() error {
	if c.Package == "" || c.Func == "" {
		return errors.New("usage: gocolic test [flags] <package> <Func>")
	}
	if c.Workers <= 0 {
		c.Workers = runtime.NumCPU()
	}
	if c.Budget < 0 || c.Runs < 0 {
		return errors.New("-budget and -runs must not be negative")
	}
	if c.Budget == 0 && c.Runs == 0 {
		c.Budget = 10 * time.Second
	}
	if c.MaxLen <= 0 {
		c.MaxLen, c.maxLenAuto = defaultMaxLen, true
	}
	if c.MaxLen > maxMaxLen {
		return fmt.Errorf("-maxlen %d is too large (at most %d)", c.MaxLen, maxMaxLen)
	}
	if c.MaxElems < 0 || c.MaxElems > maxMaxElems {
		return fmt.Errorf("-maxelems %d is out of range (0 to %d)", c.MaxElems, maxMaxElems)
	}
	if c.Timeout <= 0 {
		c.Timeout = time.Second
	}
	if c.SolverTimeout <= 0 {
		c.SolverTimeout = 2 * time.Second
	}
	if c.Strategy == "" {
		c.Strategy = "cover"
	}
	switch c.Solver {
	case "":
		c.Solver = SolverAuto
	case SolverZ3, SolverWalk, SolverAuto:
	default:
		return fmt.Errorf("unknown -solver %q (want %s, %s or %s)", c.Solver, SolverZ3, SolverWalk, SolverAuto)
	}
	if _, err := explore.New(c.Strategy, 0, nil, nil); err != nil {
		return err
	}
	if c.Stderr == nil {
		c.Stderr = os.Stderr
	}
	return nil
}

// The solver modes.
const (
	SolverZ3   = "z3"
	SolverWalk = "walk"
	SolverAuto = "auto"
)

// maxMaxElems bounds -maxelems: every element of a slice input has inputs
// of its own, and is assembled on every execution.
const maxMaxElems = 64

// defaultMaxLen is -maxlen when none is given.
const defaultMaxLen = 32

// maxMaxLen bounds -maxlen: every byte of every string input is a
// variable of the solver.
const maxMaxLen = 4096

// Outcome is what a Test run produced.
type Outcome struct {
	Report   *coordinator.Report
	Entry    *Entry
	TestFile string // path of the written test file, "" if none
	Profile  string
	// Hybrid counts the exchanges with go test -fuzz (-with-fuzzer).
	Hybrid *HybridStats
}

// Entry is the function under test as the outputs see it.
type Entry struct {
	PkgPath string
	PkgName string
	PkgDir  string
	Func    string
	Params  []instrument.Param
	// Results are the result types as the generated test file writes them.
	Results []string
	Pinned  []bool
	IsError []bool
	Sites   []sites.Site
	// Method is the method's name when the function under test is one:
	// Params[0] is then its receiver, and Func names Type_Method.
	Method string
	// Imports maps the import paths the parameter and result types need,
	// beyond the target package, to the names the generated test file
	// imports them under.
	Imports map[string]string
	// names writes the types of Params as the generated test file does.
	names  *emit.TypeNames
	rt     []rt.Param
	maxLen int
}

// Test runs `gocolic test`.
func Test(ctx context.Context, cfg Config) (*Outcome, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	pkg, err := load.Load(cfg.Dir, cfg.Package)
	if err != nil {
		return nil, err
	}
	sup, err := instrumentSupport(cfg, pkg)
	if err != nil {
		return nil, err
	}
	ins, err := instrument.Package(pkg.Package, sup.config(instrument.Config{
		Entry:         cfg.Func,
		RangeOverFunc: pkg.RangeOverFunc(),
		Impure:        cfg.Impure,
		MaxElems:      cfg.MaxElems,
	}))
	if err != nil {
		return nil, err
	}
	added := ins.Added()
	sup.merge(ins, added)
	tgt := newEntry(pkg, ins, cfg)
	var seeds []sym.Env
	if len(cfg.Replay) > 0 {
		cfg.NoTests = true
		if tgt.Method != "" || slices.ContainsFunc(tgt.Params, func(p instrument.Param) bool { return p.Shape != nil }) {
			return nil, fmt.Errorf("-replay: %s has parameters that are not scalars, strings or []byte, which a corpus file cannot hold", cfg.Func)
		}
		seeds, err = replaySeeds(cfg.Replay, tgt, &cfg.MaxLen)
		if err != nil {
			return nil, err
		}
		tgt.maxLen = cfg.MaxLen
	}
	r, err := exploreTarget(ctx, cfg, pkg, ins, tgt, seeds, false, nil, added, sup)
	if r == nil {
		return nil, err
	}
	defer r.close()
	errs := []error{err}
	out := r.out
	// Whatever happened, write what was found.
	if !cfg.NoTests {
		path, err := writeTests(cfg, tgt, out.Report)
		errs = append(errs, err)
		out.TestFile = path
	}
	if cfg.CoverProfile != "" && out.TestFile != "" {
		if err := coverProfile(pkg.ModuleDir, tgt, out.TestFile, cfg.CoverProfile); err != nil {
			errs = append(errs, err)
		} else {
			out.Profile = cfg.CoverProfile
		}
	}
	if cfg.JSON != "" {
		errs = append(errs, writeJSON(cfg.JSON, cfg, "test", pkg.ModuleDir, tgt, out.Report, r.chain, out))
	}
	if cfg.RunDir != "" {
		var profile func(dst string) error
		switch {
		case out.Profile != "":
			profile = func(dst string) error { return copyFile(out.Profile, dst) }
		case out.TestFile != "" && filepath.Dir(out.TestFile) == tgt.PkgDir:
			profile = func(dst string) error { return coverProfile(pkg.ModuleDir, tgt, out.TestFile, dst) }
		}
		errs = append(errs, writeRunDir(cfg, "test", pkg.ModuleDir, tgt, out.Report, r.chain, out, profile))
	}
	return out, errors.Join(errs...)
}

func newEntry(pkg *load.Package, ins *instrument.Result, cfg Config) *Entry {
	t := &Entry{
		PkgPath: pkg.PkgPath, PkgName: pkg.Name, PkgDir: filepath.Dir(pkg.CompiledGoFiles[0]),
		Func: cfg.Func, Params: ins.Params, Pinned: ins.Pinnable,
		IsError: ins.ResultIsError, Sites: ins.Sites, maxLen: cfg.MaxLen, rt: ins.RTParams,
	}
	if ins.Recv != nil {
		t.Method = ins.Method
		t.Params = append([]instrument.Param{*ins.Recv}, ins.Params...)
		// Type.Method and (*Type).Method name tests and files as Type_Method.
		typ, _, _ := strings.Cut(cfg.Func, ".")
		t.Func = strings.Trim(typ, "(*)") + "_" + ins.Method
	}
	t.names = emit.NewTypeNames(pkg.Types, entryTypes(t.Params, ins.Results)...)
	t.Imports = t.names.Imports()
	for _, r := range ins.Results {
		t.Results = append(t.Results, t.names.Type(r))
	}
	return t
}

// entryTypes lists the types the generated test file writes for params
// and results, in the order it chooses their packages' import names in:
// each parameter's type and then its shape's, outermost first, then the
// results'.
func entryTypes(params []instrument.Param, results []types.Type) []types.Type {
	var ts []types.Type
	var shape func(sh *instrument.Shape)
	shape = func(sh *instrument.Shape) {
		if sh == nil {
			return
		}
		ts = append(ts, sh.Type)
		for _, e := range sh.Elems {
			shape(e)
		}
	}
	for _, p := range params {
		ts = append(ts, p.Type)
		shape(p.Shape)
	}
	return append(ts, results...)
}

// paramType returns the type of parameter i as the generated test file
// writes it: ...T for a variadic parameter.
func (t *Entry) paramType(i int) string {
	p := t.Params[i]
	if s, ok := p.Type.(*types.Slice); ok && p.Variadic {
		return "..." + t.names.Type(s.Elem())
	}
	return t.names.Type(p.Type)
}

// run is an exploration that has ended, with what its outputs need.
type run struct {
	out   *Outcome
	chain solver.Solver
	close func()
}

// exploreTarget builds the worker and runs the coordinator. It returns nil
// only when nothing ran; otherwise the error, if any, is the run's own.
func exploreTarget(ctx context.Context, cfg Config, pkg *load.Package, ins *instrument.Result, tgt *Entry, seeds []sym.Env, fuzz bool, hy *hybrid, added map[string][]byte, sup *support) (*run, error) {
	work, err := os.MkdirTemp("", "gocolic-")
	if err != nil {
		return nil, fmt.Errorf("creating work directory: %w", err)
	}
	cleanup := func() { os.RemoveAll(work) }
	if cfg.KeepWork {
		fmt.Fprintf(cfg.Stderr, "gocolic: work directory %s\n", work)
		cleanup = func() {}
	}
	// (A fuzz target's pkg is the package under test, a support package
	// itself.)
	also := slices.DeleteFunc(slices.Clone(sup.paths), func(p string) bool { return p == pkg.PkgPath })
	switch {
	case len(also) > 0:
		fmt.Fprintf(cfg.Stderr, "gocolic: also instrumented: %s\n", strings.Join(also, ", "))
	case len(cfg.Instrument) > 0:
		fmt.Fprintf(cfg.Stderr, "gocolic: -instrument matches no package besides %s\n", pkg.PkgPath)
	}
	branchSites := 0
	for _, s := range ins.Sites {
		if s.Kind != sites.Concrete {
			branchSites++
		}
	}
	fmt.Fprintf(cfg.Stderr, "gocolic: instrumented %s (%d branch sites), building worker\n", pkg.PkgPath, branchSites)
	bin, err := build.Worker(build.Spec{
		ModuleDir: pkg.ModuleDir, ModulePath: pkg.ModulePath,
		PkgPath: pkg.PkgPath, PkgName: pkg.Name,
		Files: ins.Files, Added: added,
		WorkDir: work, Test: fuzz,
		Deps: sup.deps, GoVersion: pkg.GoVersion,
	})
	if err != nil {
		cleanup()
		return nil, err
	}
	var args []string
	if fuzz {
		// The test binary runs only the fuzz target, for as long as the
		// coordinator keeps it.
		args = []string{"-test.run=^" + cfg.Func + "$", "-test.timeout=0"}
	}
	z3core, err := z3.New(z3.Options{Timeout: cfg.SolverTimeout})
	if err != nil {
		cleanup()
		return nil, fmt.Errorf("starting Z3: %w", err)
	}
	var core solver.Solver = z3core
	var eval *coordinator.Evaluator
	if cfg.Solver != SolverZ3 {
		eval = coordinator.NewEvaluator(bin, args, cfg.Timeout)
		wp := cfg.Walk
		if wp.Timeout == 0 {
			wp.Timeout = cfg.SolverTimeout
		}
		wp.Seed = uint64(cfg.Seed)
		w := walk.New(z3core, eval, floatVars(tgt.rt, cfg.MaxLen), wp)
		core = w
		if cfg.Solver == SolverAuto {
			// Z3 gets a tenth of its timeout on a non-linear query, so
			// that the walk still has time when Z3 gives up.
			core = solver.NewAuto(z3core, w, solver.AutoOptions{
				Hard:     func(e *sym.Expr) bool { return !walk.Linear(e) },
				FirstTry: cfg.SolverTimeout / 10,
			})
		}
	}
	chain := solver.Chain(core, solver.DefaultConfig())
	minimizeTime := cfg.MinimizeTime
	if len(cfg.Replay) > 0 {
		minimizeTime = 0 // a replay reports the corpus as it is
	}
	fmt.Fprintf(cfg.Stderr, "gocolic: exploring %s.%s with %d workers, strategy %s\n", pkg.Name, cfg.Func, cfg.Workers, cfg.Strategy)
	dcfg := coordinator.Config{
		Bin: bin, Args: args, Params: tgt.rt, Sites: ins.Sites, MaxLen: cfg.MaxLen,
		Workers: cfg.Workers, Budget: cfg.Budget, Runs: cfg.Runs, Strategy: cfg.Strategy,
		Seed: cfg.Seed, Timeout: cfg.Timeout, MemLimit: uint64(cfg.MemLimitMB) << 20,
		MaxDepth: cfg.MaxDepth, Solver: chain, Progress: cfg.Stderr,
		Seeds: seeds, NoSolve: len(cfg.Replay) > 0, MaxBugs: cfg.MaxBugs,
		MinimizeTime: minimizeTime, Opaque: cfg.Solver != SolverZ3,
	}
	stopFuzzer := func() {}
	if hy != nil {
		fmt.Fprintf(cfg.Stderr, "gocolic: running go test -fuzz beside it (-parallel %d)\n", hy.parallel)
		dcfg.Inject, dcfg.OnKeep = hy.inject, hy.keep
		hctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			hy.run(hctx, cfg.Budget)
			close(done)
		}()
		stopFuzzer = func() { cancel(); <-done }
	}
	rep, runErr := coordinator.Run(ctx, dcfg)
	stopFuzzer()
	closeAll := func() {
		if eval != nil {
			eval.Close()
		}
		z3core.Close()
		cleanup()
	}
	if rep == nil {
		closeAll()
		return nil, fmt.Errorf("%w: %w", ErrRun, runErr)
	}
	if runErr != nil {
		runErr = fmt.Errorf("%w: %w", ErrRun, runErr)
	}
	return &run{out: &Outcome{Report: rep, Entry: tgt}, chain: chain, close: closeAll}, runErr
}

// floatVars returns the input variables that hold floats, with their
// widths, so that the concolic walk steps them as floats even where only
// an opaque call reads them.
func floatVars(params []rt.Param, maxLen int) map[uint64]uint8 {
	out := make(map[uint64]uint8)
	offs := rt.Layout(params, maxLen)
	for i, p := range params {
		if p.Kind == rt.ParamFloat {
			out[uint64(offs[i])] = p.Width
		}
	}
	return out
}

// Args returns the Go literals of the parameters for input env; for a
// method, the receiver's comes first.
func (t *Entry) Args(env sym.Env) []string {
	args := rt.DecodeInput(t.rt, t.maxLen, env)
	if !slices.ContainsFunc(t.Params, func(p instrument.Param) bool { return p.Shape != nil }) {
		// Every parameter is one input, in order.
		out := make([]string, len(t.rt))
		for i := range t.rt {
			typ := ""
			if i < len(t.Params) {
				typ = t.paramType(i)
			}
			out[i] = leafLiteral(t.rt[i], args[i], typ)
		}
		return out
	}
	l := literals{names: t.names, ps: t.rt, args: args}
	out := make([]string, len(t.Params))
	for i, p := range t.Params {
		if p.Shape == nil {
			out[i] = leafLiteral(t.rt[p.Leaf], args[p.Leaf], t.paramType(i))
		} else {
			out[i] = l.shape(p.Shape)
		}
	}
	return out
}

// Build returns a function literal that returns the parameters for input
// env, for a case whose pointer parameters alias (emit.Case.Build), or ""
// when the literals of Args say it all.
func (t *Entry) Build(env sym.Env) string {
	if !slices.ContainsFunc(t.Params, func(p instrument.Param) bool { return p.Shape != nil }) {
		return ""
	}
	typs := make([]string, len(t.Params))
	for i := range t.Params {
		typs[i] = t.paramType(i)
	}
	l := literals{names: t.names, ps: t.rt, args: rt.DecodeInput(t.rt, t.maxLen, env)}
	return buildLiteral(l, t.Params, typs)
}

// leafLiteral writes the value a of an input p of type typ.
func leafLiteral(p rt.Param, a rt.Arg, typ string) string {
	switch p.Kind {
	case rt.ParamInt:
		if p.Signed {
			return strconv.FormatInt(sym.SignExtend(a.Bits, p.Width), 10)
		}
		return strconv.FormatUint(a.Bits, 10)
	case rt.ParamBool:
		return strconv.FormatBool(a.Bits == 1)
	case rt.ParamFloat:
		return floatLiteral(a.Bits, p.Width, typ)
	case rt.ParamBytes:
		return "[]byte(" + strconv.Quote(string(a.Bytes)) + ")"
	}
	return strconv.Quote(string(a.Bytes))
}

// floatLiteral returns a Go expression of type typ for the float of width
// w with the given bits: a constant where one says it exactly, else a
// conversion of what package math makes (NaNs, infinities, -0).
func floatLiteral(bits uint64, w uint8, typ string) string {
	f := math.Float64frombits(bits)
	if w == 32 {
		f = float64(math.Float32frombits(uint32(bits)))
	}
	switch {
	case f != f:
		if w == 32 {
			return fmt.Sprintf("%s(math.Float32frombits(0x%x))", typ, bits)
		}
		if bits == math.Float64bits(math.NaN()) {
			return typ + "(math.NaN())"
		}
		return fmt.Sprintf("%s(math.Float64frombits(0x%x))", typ, bits)
	case math.IsInf(f, 1):
		return typ + "(math.Inf(1))"
	case math.IsInf(f, -1):
		return typ + "(math.Inf(-1))"
	case f == 0 && math.Signbit(f):
		return typ + "(math.Copysign(0, -1))"
	}
	return strconv.FormatFloat(f, 'g', -1, int(w))
}

// Call returns the call of the function on input env, for messages.
func (t *Entry) Call(env sym.Env) string {
	args := t.Args(env)
	if t.Method != "" && len(args) > 0 {
		return args[0] + "." + t.Method + "(" + strings.Join(args[1:], ", ") + ")"
	}
	return t.Func + "(" + strings.Join(args, ", ") + ")"
}

// ErrRun marks failures of the exploration itself, as opposed to problems
// with the user's package.
var ErrRun = errors.New("exploration failed")
