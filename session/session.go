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
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/emit"
	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/mc"
	"github.com/gocolic/gocolic/mutate"
	"github.com/gocolic/gocolic/report"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/solver/stack"
	"github.com/gocolic/gocolic/state"
	"github.com/gocolic/gocolic/sym"
	"github.com/gocolic/gocolic/workdir"
	"golang.org/x/tools/go/packages"
)

// Outcome is what a Test run produced.
type Outcome struct {
	Report   *coordinator.Report
	Entry    *Entry
	TestFile string // path of the written test file, "" if none
	Profile  string
	// Hybrid counts the exchanges with go test -fuzz (-with-fuzzer).
	Hybrid *report.HybridStats
	// Update is what gocolic update did to the saved suite.
	Update *report.Update
	// MC is what the model checker did (-abstraction), nil when it did
	// not run; Monitors counts the functions whose monitor pruned.
	MC       *mc.Summary
	Monitors int
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
	// Stdlib lists the standard packages instrumented (-stdlib), in place
	// or as copies, whose sites are marked Std in Sites.
	Stdlib []string
	// Instrumented lists every package instrumented, the target's and
	// -instrument's, standard ones included.
	Instrumented []string
	// Tags are the build tags added to the user's (load.FallbackTags).
	Tags []string
	// GoRoot and ModCache are go env GOROOT and GOMODCACHE, which
	// summaries and reports shorten the paths of sites by
	// (report.Places); "" when go env failed.
	GoRoot, ModCache string
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
	if err := cfg.probeNATS(); err != nil {
		return nil, err
	}
	t, err := testTargetOf(&cfg)
	if err != nil {
		return nil, err
	}
	pkg, tgt := t.pkg, t.entry
	var seeds []sym.Env
	if t.upd != nil {
		if seeds, err = startUpdate(&cfg, t); err != nil {
			return nil, err
		}
	}
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
	r, err := exploreTarget(ctx, cfg, t, seeds, nil)
	if r == nil {
		return nil, err
	}
	defer r.close()
	errs := []error{err}
	out := r.out
	write := finishState(cfg, CmdTest, t, out, &errs)
	// Whatever happened, write what was found.
	if !cfg.NoTests && write {
		var path string
		errs = append(errs, guarded(out.Report, "emit", func() (err error) {
			path, err = writeTests(cfg, tgt, out.Report)
			return err
		}))
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
		errs = append(errs, guarded(out.Report, "report", func() error {
			return writeJSON(cfg.JSON, cfg, CmdTest, pkg.ModuleDir, tgt, out.Report, r.chains, out)
		}))
	}
	if cfg.RunDir != "" {
		var profile func(dst string) error
		switch {
		case out.Profile != "":
			profile = func(dst string) error { return copyFile(out.Profile, dst) }
		case out.TestFile != "" && filepath.Dir(out.TestFile) == tgt.PkgDir:
			profile = func(dst string) error { return coverProfile(pkg.ModuleDir, tgt, out.TestFile, dst) }
		}
		errs = append(errs, guarded(out.Report, "report", func() error {
			return writeRunDir(cfg, CmdTest, pkg.ModuleDir, tgt, out.Report, r.chains, out, profile)
		}))
	}
	return out, errors.Join(errs...)
}

// testTarget loads and instruments the package of the function under
// test.
func testTarget(cfg Config) (*target, error) { return testTargetOf(&cfg) }

// testTargetOf is testTarget; for an update, cfg takes the saved suite's
// settings, which shape the inputs, before the rewrite (readSaved).
func testTargetOf(cfg *Config) (*target, error) {
	pkg, err := load.Load(cfg.Dir, cfg.Package)
	if err != nil {
		return nil, err
	}
	pkg, err = withFallbackTags(*cfg, pkg, func(tags []string) (*load.Package, error) {
		return load.LoadTags(cfg.Dir, cfg.Package, tags)
	})
	if err != nil {
		return nil, err
	}
	var upd *updating
	if cfg.update {
		if upd, err = readSaved(cfg, filepath.Dir(pkg.CompiledGoFiles[0]), CmdTest); err != nil {
			return nil, err
		}
	}
	t, err := instrumentTarget(*cfg, pkg, instrument.Config{
		Entry:    cfg.Func,
		Impure:   cfg.Impure,
		MaxElems: cfg.MaxElems,
		Markers:  cfg.Abstraction,
	})
	if err != nil {
		return nil, err
	}
	raiseMaxLen(cfg, t.ins.Consts.Len)
	t.entry = newEntry(pkg, t.ins, *cfg)
	t.entry.Stdlib, t.entry.Instrumented = t.sup.std, t.sup.paths
	t.upd = upd
	return t, nil
}

func newEntry(pkg *load.Package, ins *instrument.Result, cfg Config) *Entry {
	t := &Entry{
		PkgPath: pkg.PkgPath, PkgName: pkg.Name, PkgDir: filepath.Dir(pkg.CompiledGoFiles[0]),
		Func: cfg.Func, Params: ins.Params, Pinned: ins.Pinnable,
		IsError: ins.ResultIsError, Sites: ins.Sites, maxLen: cfg.MaxLen, rt: ins.RTParams,
		Tags: pkg.Tags,
	}
	// Without them paths are only shown in full.
	t.GoRoot, t.ModCache, _ = build.Roots(pkg.ModuleDir)
	if ins.Recv != nil {
		t.Method = ins.Method
		t.Params = append([]instrument.Param{*ins.Recv}, ins.Params...)
		t.Func = funcFileName(cfg.Func)
	}
	t.names = emit.NewTypeNames(pkg.Types, entryTypes(t.Params, ins.Results)...)
	t.Imports = t.names.Imports()
	for _, r := range ins.Results {
		t.Results = append(t.Results, t.names.Type(r))
	}
	return t
}

// target is the function under test, instrumented, with what building
// and exploring it need.
type target struct {
	pkg   *load.Package      // the package the outputs go to
	ins   *instrument.Result // the rewrite of the package
	added map[string][]byte  // files the rewrite adds (the entry file)
	sup   *support           // the support packages instrumented with it
	entry *Entry
	fuzz  bool              // the worker is the package's test binary running a fuzz target
	icfg  instrument.Config // the target's rewrite, for a second one without copies
	// tests is the external test package of a fuzz target, whose syntax
	// holds the sites of the fuzz body, when pkg is the package under test.
	tests []*packages.Package
	// ipkg is the package instrumented as the target (ins is its
	// rewrite): pkg, or the external test package of a fuzz target,
	// whose pkg is the package under test.
	ipkg *load.Package
	// funcs are the fingerprints of the package's functions (state), upd
	// the saved suite of an update run.
	funcs map[string]string
	upd   *updating
	// unreadSeeds holds the warnings about a fuzz target's f.Add calls
	// not read from the source, whose seeds a run of the target gives
	// (runSeeds).
	unreadSeeds string
}

// instrumentTarget instruments pkg with c and the support packages cfg
// asks for, merging their rewrites into one.
func instrumentTarget(cfg Config, pkg *load.Package, c instrument.Config) (*target, error) {
	return instrumentWith(cfg, pkg, c, true)
}

// instrumentWith is instrumentTarget, with the floor packages among the
// standard ones instrumented as copies or not (stdlib.go).
func instrumentWith(cfg Config, pkg *load.Package, c instrument.Config, copies bool) (*target, error) {
	sup, err := instrumentSupport(cfg, pkg, copies)
	if err != nil {
		return nil, err
	}
	ins, err := instrument.Package(pkg.Package, sup.config(c))
	if err != nil {
		return nil, err
	}
	added := ins.Added()
	if err := sup.merge(ins, added); err != nil {
		return nil, err
	}
	return &target{pkg: pkg, ipkg: pkg, ins: ins, added: added, sup: sup, icfg: c, funcs: state.Fingerprints(pkg.Syntax)}, nil
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
	out    *Outcome
	chains []solver.Solver // the stacks of the solver pool, for the report
	close  func()
}

// newWorkDir makes the run's work directory (removing those of runs
// killed earlier, package workdir) and returns the function that removes
// it, which does nothing with -keepwork.
func newWorkDir(cfg Config) (string, func(), error) {
	d, _, err := workdir.New()
	if err != nil {
		return "", nil, err
	}
	if cfg.KeepWork {
		d.Keep()
		fmt.Fprintf(cfg.Stderr, "gocolic: work directory %s\n", d.Path)
		return d.Path, func() {}, nil
	}
	return d.Path, func() { d.Close() }, nil
}

// exploreTarget builds the worker and runs the coordinator from seeds,
// with go test -fuzz beside it when hy is not nil. It returns nil only
// when nothing ran; otherwise the error, if any, is the run's own.
func exploreTarget(ctx context.Context, cfg Config, t *target, seeds []sym.Env, hy *hybrid) (*run, error) {
	work, cleanup, err := newWorkDir(cfg)
	if err != nil {
		return nil, err
	}
	// The static facts (go/ssa of the instrumented packages) are built
	// while the worker builds, on a copy of t: buildWorker replaces t's
	// rewrite when it falls back to the originals of the copies, and the
	// facts are then made again for the rewrite that runs.
	factsc := make(chan facts, 1)
	ins, tc := t.ins, *t
	go func() { factsc <- staticFacts(cfg, &tc) }()
	bin, args, err := buildWorker(cfg, t, work)
	f := <-factsc
	if err != nil {
		cleanup()
		return nil, err
	}
	if t.ins != ins {
		f = staticFacts(cfg, t)
	}
	var eval *coordinator.Evaluator
	if cfg.Solver.Opaque() {
		eval = coordinator.NewEvaluator(bin, args, t.entry.PkgDir, cfg.Timeout)
	}
	closeAll := func() {
		if eval != nil {
			eval.Close()
		}
		cleanup()
	}
	static, claims, staticErr := f.static, f.claims, f.err
	seeds = runSeeds(cfg, t, bin, args, seeds)
	dcfg, chains := runConfig(cfg, t, bin, args, eval, seeds)
	dcfg.Progress, dcfg.Static, dcfg.Unreachable, dcfg.Pruner = cfg.Stderr, static, claims, f.pruner
	if cfg.Strategy == "learned" {
		dcfg.Props = siteProps(t, cfg.Func)
	}
	// The suite's state needs every path's input; an update also the
	// saved suite's word on every candidate, by the sites of the build.
	dcfg.Paths = t.upd != nil || cfg.keepsState()
	if t.upd != nil {
		t.upd.hash = newPathHasher(t.ins.Sites)
		dcfg.Prior = t.upd.prior
	}
	c := t.ins.Consts
	dcfg.Dict.AddConsts(c.Ints, c.Strings, c.Floats)
	if len(cfg.Replay) > 0 {
		dcfg.NoSolve = true
		dcfg.MinimizeTime = 0 // a replay reports the corpus as it is
	}
	if cfg.NATS != "" {
		solvers := fmt.Sprintf("%d solvers", cfg.Solvers)
		if cfg.NATSSolve {
			solvers = fmt.Sprintf("%d queries at a time solved by the executors", cfg.Solvers)
		}
		fmt.Fprintf(cfg.Stderr, "gocolic: exploring %s.%s with %d executions at a time over NATS (%d executors here), %s, strategy %s\n", t.pkg.Name, cfg.Func, cfg.Workers, cfg.Local, solvers, cfg.Strategy)
	} else {
		fmt.Fprintf(cfg.Stderr, "gocolic: exploring %s.%s with %d workers, %d solvers, strategy %s\n", t.pkg.Name, cfg.Func, cfg.Workers, cfg.Solvers, cfg.Strategy)
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
	rnd, stopRounds := startRounds(ctx, cfg, t, &f)
	if rnd != nil {
		dcfg.Pruner, dcfg.Rounds, dcfg.OnCover = f.pruner, rnd.claims, rnd.covered.add
	}
	stopDist := func() {}
	if cfg.NATS != "" {
		var err error
		if stopDist, err = startDist(ctx, cfg, t, &dcfg, chains, work); err != nil {
			stopRounds()
			stopFuzzer()
			closeAll()
			return nil, err
		}
	}
	rep, runErr := coordinator.Run(ctx, dcfg)
	stopDist()
	stopRounds()
	if rnd != nil {
		f.monitors = rnd.mons.Len()
		f.mc.Rounds = rnd.n
	}
	stopFuzzer()
	if rep == nil {
		closeAll()
		return nil, fmt.Errorf("%w: %w", ErrRun, runErr)
	}
	rep.AddInternal(staticErr)
	if runErr != nil {
		runErr = fmt.Errorf("%w: %w", ErrRun, runErr)
	}
	return &run{out: &Outcome{Report: rep, Entry: t.entry, MC: f.mc, Monitors: f.monitors}, chains: chains.released(), close: closeAll}, runErr
}

// stacks are the solver stacks of a run's pool, kept for the report's
// layer counts. A stack's counts are read only once the goroutine that
// used it has released it: the pool's watchdog may abandon a goroutine
// whose query ignores its interrupt, and that goroutine goes on writing
// its stack's counts after the run.
type stacks struct {
	mu  sync.Mutex
	all []*pooled
}

type pooled struct {
	s        solver.Solver
	released bool
}

// add records s and returns the function that releases it with close.
func (k *stacks) add(s solver.Solver, close func()) func() {
	p := &pooled{s: s}
	k.mu.Lock()
	k.all = append(k.all, p)
	k.mu.Unlock()
	return func() {
		close()
		k.mu.Lock()
		p.released = true
		k.mu.Unlock()
	}
}

// len returns the number of stacks made so far.
func (k *stacks) len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.all)
}

// released returns the stacks released so far, in the order they were
// made.
func (k *stacks) released() []solver.Solver {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []solver.Solver
	for _, p := range k.all {
		if p.released {
			out = append(out, p.s)
		}
	}
	return out
}

// runConfig returns the coordinator's configuration of a run of the
// worker bin on t with the options of cfg, from seeds, and where the
// solver stacks the run makes are kept: one stack per goroutine of the
// solver pool, made and released by the coordinator.
func runConfig(cfg Config, t *target, bin string, args []string, eval *coordinator.Evaluator, seeds []sym.Env) (coordinator.Config, *stacks) {
	chains := &stacks{}
	floats := floatVars(t.entry.rt, cfg.MaxLen)
	newSolver := func() (solver.Solver, func(), error) {
		// Each stack's walk has a seed of its own, the first the run's.
		st, err := stack.New(cfg.Solver, stack.Env{Eval: eval, Floats: floats, Seed: uint64(cfg.Seed) + uint64(chains.len())})
		if err != nil {
			return nil, nil, err
		}
		return st, chains.add(st.Solver, st.Close), nil
	}
	return coordinator.Config{
		Options: cfg.Options,
		Bin:     bin, Args: args, Dir: t.entry.PkgDir, Params: t.entry.rt, Sites: t.ins.Sites, MaxLen: cfg.MaxLen,
		NewSolver: newSolver, SolveBound: cfg.Solver.Bound(), Seeds: seeds, Opaque: cfg.Solver.Opaque(),
		Dict: mutate.NewDict(0),
	}, chains
}

// siteProps returns the static properties of the target's branch
// sites, which the learned strategy's features read.
func siteProps(t *target, entry string) map[uint32]explore.SiteProps {
	out := map[uint32]explore.SiteProps{}
	for _, p := range append([]*packages.Package{t.pkg.Package}, t.tests...) {
		for id, st := range explore.SitePropsOf(explore.Source{Fset: p.Fset, Files: p.Syntax, Info: p.TypesInfo, Pkg: p.Types}, t.ins.Sites, entry) {
			out[id] |= st
		}
	}
	return out
}

// buildWorker says what is instrumented and builds the worker binary in
// work; it returns the binary and the arguments it runs with.
func buildWorker(cfg Config, t *target, work string) (string, []string, error) {
	// (A fuzz target's pkg is the package under test, a support package
	// itself.)
	also := slices.DeleteFunc(slices.Clone(t.sup.paths), func(p string) bool { return p == t.pkg.PkgPath || slices.Contains(t.sup.std, p) })
	if len(t.sup.std) > 0 {
		fmt.Fprintf(cfg.Stderr, "gocolic: standard packages instrumented: %s\n", t.sup.stdList())
	}
	for _, f := range t.sup.stdFailed {
		fmt.Fprintf(cfg.Stderr, "gocolic: not instrumented (its model or concrete calls stand): %s\n", f)
	}
	switch {
	case len(also) > 0:
		fmt.Fprintf(cfg.Stderr, "gocolic: also instrumented: %s\n", strings.Join(also, ", "))
	case len(cfg.Instrument) > 0:
		fmt.Fprintf(cfg.Stderr, "gocolic: -instrument matches no package besides %s\n", t.pkg.PkgPath)
	}
	branchSites, own := 0, 0
	for _, s := range t.ins.Sites {
		if s.IsBranch() && !s.Std {
			branchSites++
			if filepath.Dir(s.Pos.Filename) == t.entry.PkgDir {
				own++
			}
		}
	}
	if own == branchSites {
		fmt.Fprintf(cfg.Stderr, "gocolic: instrumented %s (%d branch sites), building worker\n", t.pkg.PkgPath, branchSites)
	} else {
		// Most of a thin harness's sites are its dependencies'.
		fmt.Fprintf(cfg.Stderr, "gocolic: instrumented %s and what it imports (%d branch sites, %d in %s), building worker\n", t.pkg.PkgPath, branchSites, own, t.pkg.Name)
	}
	spec := func() build.Spec {
		return build.Spec{
			ModuleDir: t.pkg.ModuleDir, ModulePath: t.pkg.ModulePath,
			PkgPath: t.pkg.PkgPath, PkgName: t.pkg.Name,
			Files: t.ins.Files, Added: t.added,
			WorkDir: work, Test: t.fuzz,
			Deps: t.sup.deps, GoVersion: t.pkg.GoVersion, Tags: t.pkg.Tags,
		}
	}
	bin, err := build.Worker(spec())
	var berr *build.Error
	if errors.As(err, &berr) && len(t.sup.copies) > 0 {
		// A copy's type that is not an alias of the original's
		// (unicode.SpecialCase) may meet code that was not
		// redirected; the run goes on with the originals.
		fmt.Fprintln(cfg.Stderr, "gocolic: "+copiesFallback(berr, t.sup.copies))
		if err := t.withoutCopies(cfg); err != nil {
			return "", nil, err
		}
		bin, err = build.Worker(spec())
	}
	if err != nil {
		return "", nil, err
	}
	var args []string
	if t.fuzz {
		// The test binary runs only the fuzz target, for as long as the
		// coordinator keeps it.
		args = []string{"-test.run=^" + cfg.Func + "$", "-test.timeout=0"}
	}
	return bin, args, nil
}

// withoutCopies instruments t's package again with the floor packages
// left as they are (no copies), and takes that rewrite as t's. The
// target's rewrite differs only in its sites, which no longer follow the
// copies'.
func (t *target) withoutCopies(cfg Config) error {
	t2, err := instrumentWith(cfg, t.ipkg, t.icfg, false)
	if err != nil {
		return fmt.Errorf("instrumenting %s without the copies: %w", t.ipkg.PkgPath, err)
	}
	t.ins, t.added, t.sup = t2.ins, t2.added, t2.sup
	t.entry.Sites, t.entry.Stdlib, t.entry.Instrumented = t.ins.Sites, t.sup.std, t.sup.paths
	return nil
}

// copiesFallback says that the worker did not build, naming the packages
// that failed (a copy as its original's path, marked), and that it is
// built again without the copies: the copies may have caused the failure
// in another package (a type of a copy meeting code that was not
// redirected), or not at all.
func copiesFallback(berr *build.Error, copies []build.Copy) string {
	failed := berr.Packages()
	for i, p := range failed {
		if orig, ok := strings.CutPrefix(p, build.CopyPrefix+"/"); ok {
			failed[i] = orig + " (copy)"
		}
	}
	where := ""
	if len(failed) > 0 {
		where = " in " + strings.Join(failed, ", ")
	}
	paths := make([]string, len(copies))
	for i, c := range copies {
		paths[i] = c.Path
	}
	return fmt.Sprintf("the worker does not build%s; building it again without the instrumented copies of %s:\n%s",
		where, strings.Join(paths, ", "), firstLines(berr.Output, 5))
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
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
