// This file keeps the state of a generated suite (package suite) and runs
// gocolic update: the saved inputs are run again on the changed code, the
// execution tree grows from their paths, and only the ranges of changed
// paths are explored with the solver (seed 003).

package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/corpus"
	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/proc"
	"github.com/gocolic/gocolic/report"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/state"
	"github.com/gocolic/gocolic/sym"
)

// ErrChanged marks an update with -check that found the suite out of
// date: a kept test's results changed, or tests were added or dropped.
var ErrChanged = errors.New("the generated suite is out of date")

// Update runs `gocolic update`: cfg.Func names the function (or, when it
// begins with Fuzz, the fuzz target) whose saved suite is brought up to
// date with the code.
func Update(ctx context.Context, cfg Config) (*Outcome, error) {
	cfg.update = true
	if strings.HasPrefix(cfg.Func, "Fuzz") {
		return Fuzz(ctx, cfg)
	}
	return Test(ctx, cfg)
}

// updating is an update run's view of the saved suite.
type updating struct {
	old   *state.State
	sides state.Sides
	hash  *pathHasher
	check bool
}

// readSaved reads the saved state of cfg.Func in the package directory
// pkgDir and takes from it the settings that fix the path space: the
// bounds, the strategy and seed, and what is instrumented and how
// (state.Settings). An update offers no flags for them, so that a suite is
// never updated under other settings than it was made with; to change
// them, run gocolic test (or fuzz) again.
func readSaved(cfg *Config, pkgDir string, cmd Command) (*updating, error) {
	old, err := state.Read(state.Path(pkgDir, funcFileName(cfg.Func)))
	if err != nil {
		return nil, err
	}
	if old.Command != string(cmd) {
		return nil, fmt.Errorf("the suite of %s was saved by gocolic %s, not %s", cfg.Func, old.Command, cmd)
	}
	cfg.Strategy, cfg.MaxDepth, cfg.Seed = old.Strategy, old.MaxDepth, old.Seed
	// The saved bound is the suite's input layout: never raised again.
	cfg.MaxLen, cfg.MaxElems, cfg.maxLenAuto = old.MaxLen, old.MaxElems, false
	cfg.Stdlib, cfg.Solver.Mode = old.Settings.Stdlib, old.Settings.Solver
	cfg.Instrument, cfg.Impure = slices.Clone(old.Settings.Instrument), slices.Clone(old.Settings.Impure)
	if err := cfg.Solver.Validate(); err != nil {
		return nil, fmt.Errorf("the suite of %s: %w", cfg.Func, err)
	}
	return &updating{old: old, check: cfg.Check}, nil
}

// savedSettings are the settings of cfg a state records beside the
// bounds (state.Settings).
func savedSettings(cfg Config) state.Settings {
	return state.Settings{
		Stdlib: cfg.Stdlib, Instrument: nonNil(cfg.Instrument), Impure: nonNil(cfg.Impure), Solver: cfg.Solver.Mode,
	}
}

// nonNil returns l, or an empty list for nil, so that a state writes []
// and reads back equal.
func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// funcFileName is the name outputs give the function fn: Type_Method for
// a method Type.Method or (*Type).Method, which name tests and files so.
func funcFileName(fn string) string {
	typ, method, ok := strings.Cut(fn, ".")
	if !ok {
		return fn
	}
	return strings.Trim(typ, "(*)") + "_" + method
}

// startUpdate checks that the saved inputs of t's update still fit its
// function and returns them as the run's seeds.
func startUpdate(cfg *Config, t *target) ([]sym.Env, error) {
	u, old := t.upd, t.upd.old
	t.entry.maxLen = old.MaxLen
	if got := stateParams(t.entry); !slices.Equal(got, old.Params) {
		return nil, fmt.Errorf("the inputs of %s changed since its suite was saved (%s, now %s): run gocolic %s again",
			t.entry.Func, strings.Join(old.Params, " "), strings.Join(got, " "), old.Command)
	}
	var err error
	seeds := make([]sym.Env, len(old.Inputs))
	var paths [][]state.Step
	for i, in := range old.Inputs {
		if seeds[i], err = stateEnv(in.Values, t.entry); err != nil {
			return nil, fmt.Errorf("saved input %d of %s: %w", i+1, t.entry.Func, err)
		}
		if in.Path != nil {
			paths = append(paths, in.Path)
		}
	}
	fmt.Fprintf(cfg.Stderr, "gocolic: updating the suite of %s: %d saved inputs (strategy %s, depth %d)\n", t.entry.Func, len(seeds), cfg.Strategy, cfg.MaxDepth)
	// The path hasher follows the sites of the build (exploreTarget).
	u.sides = state.SavedSides(paths)
	return seeds, nil
}

// prior judges a candidate by the saved suite (coordinator.Config.Prior).
func (u *updating) prior(c *explore.Candidate) coordinator.Prior {
	k := u.hash.prefix(c.Node).Node(u.hash.site(c.Node.Site), u.hash.cond(c.Node.Cond))
	switch {
	case u.sides.Judge(k, c.Side) == state.Changed:
		return coordinator.PriorExplore
	case u.old.Exhausted:
		return coordinator.PriorSettled
	case u.check:
		// What the saved run had not tried yet is no change of the code.
		return coordinator.PriorSkip
	}
	return coordinator.PriorLater
}

// pathHasher turns the paths of one run into suite steps and node keys:
// site IDs into keys that do not depend on the numbering of the sites
// around them (Func#h#k: the k-th branch site of Func whose kind and
// condition text hash to h, so that adding or removing a branch elsewhere
// leaves the other sites' keys alone), conditions into hashes of their
// terms.
type pathHasher struct {
	keys  map[uint32]string
	hash  state.CondHasher
	conds map[*sym.Expr]string
	nodes map[*explore.Node]state.Prefix // the prefix leading to each node
}

func newPathHasher(table []sites.Site) *pathHasher {
	h := &pathHasher{keys: map[uint32]string{}, conds: map[*sym.Expr]string{}, nodes: map[*explore.Node]state.Prefix{}}
	count := map[string]int{}
	for _, s := range table {
		if !s.IsBranch() {
			continue
		}
		fn := strings.Join(strings.Fields(s.Func), "_")
		if fn == "" {
			fn = "_"
		}
		text := fnv.New32a()
		fmt.Fprintf(text, "%s\x00%s", s.Kind, s.Text)
		k := fmt.Sprintf("%s#%08x", fn, text.Sum32())
		h.keys[s.ID] = fmt.Sprintf("%s#%d", k, count[k])
		count[k]++
	}
	return h
}

func (h *pathHasher) site(id uint32) string {
	if k, ok := h.keys[id]; ok {
		return k
	}
	return fmt.Sprintf("#%d", id)
}

func (h *pathHasher) cond(e *sym.Expr) string {
	if c, ok := h.conds[e]; ok {
		return c
	}
	c := h.hash.Cond(e)
	h.conds[e] = c
	return c
}

// steps returns a path as suite steps.
func (h *pathHasher) steps(path []explore.Branch) []state.Step {
	out := make([]state.Step, len(path))
	for i, br := range path {
		out[i] = state.Step{Site: h.site(br.Site), Taken: br.Taken, Cond: h.cond(br.Cond)}
	}
	return out
}

// prefix returns the prefix of the path leading to n.
func (h *pathHasher) prefix(n *explore.Node) state.Prefix {
	var chain []*explore.Node
	m := n
	for ; m != nil; m = m.Parent() {
		if _, ok := h.nodes[m]; ok {
			break
		}
		chain = append(chain, m)
	}
	p := state.Prefix{}
	if m != nil {
		p = h.nodes[m]
	}
	for i := len(chain) - 1; i >= 0; i-- {
		c := chain[i]
		if par := c.Parent(); par != nil {
			p = h.nodes[par].Then(state.Step{Site: h.site(par.Site), Taken: par.Child(true) == c, Cond: h.cond(par.Cond)})
		}
		h.nodes[c] = p
	}
	return h.nodes[n]
}

// stateParams describes the input layout of t, one word per runtime
// input: kind, width, signedness and bound. The saved inputs fit a
// function only with the same layout.
func stateParams(t *Entry) []string {
	out := make([]string, len(t.rt))
	for i, p := range t.rt {
		s := leafType(p)
		if p.Max != 0 {
			s += fmt.Sprintf("<=%d", p.Max)
		}
		if p.Ref {
			s += fmt.Sprintf("&%v", p.Refs)
		}
		out[i] = strings.ReplaceAll(s, " ", ",")
	}
	return out
}

// leafType is the corpus type a runtime input's value is written as.
func leafType(p rt.Param) string {
	switch p.Kind {
	case rt.ParamInt:
		if p.Signed {
			return fmt.Sprintf("int%d", p.Width)
		}
		return fmt.Sprintf("uint%d", p.Width)
	case rt.ParamFloat:
		return fmt.Sprintf("float%d", p.Width)
	case rt.ParamBool:
		return "bool"
	case rt.ParamBytes:
		return "[]byte"
	}
	return "string"
}

// stateValues writes an input as the corpus lines of its runtime inputs.
func stateValues(env sym.Env, t *Entry) []string {
	args := rt.DecodeInput(t.rt, t.maxLen, env)
	out := make([]string, len(args))
	for i, a := range args {
		v := leafValue(t.rt[i], a)
		v.Type = leafType(t.rt[i])
		out[i] = v.Line()
	}
	return out
}

// stateEnv reads what stateValues writes.
func stateEnv(lines []string, t *Entry) (sym.Env, error) {
	vs, err := corpus.Parse([]byte(corpus.Header + "\n" + strings.Join(lines, "\n") + "\n"))
	if err != nil {
		return nil, err
	}
	return entryEnv(vs, t, t.maxLen)
}

// stateResults writes what an execution returned as the state keeps it.
func stateResults(p coordinator.PathInput) []string {
	if p.Failure != "" {
		return []string{p.Failure}
	}
	out := make([]string, len(p.Results))
	for i, r := range p.Results {
		if r.Pinned {
			out[i] = r.Literal
		}
	}
	return out
}

// newState is the state of the suite a run leaves.
func newState(cmd Command, cfg Config, t *target, rep *coordinator.Report, reps []coordinator.PathInput, h *pathHasher) *state.State {
	e := t.entry
	st := &state.State{
		Version: state.Version, Command: string(cmd), Package: e.PkgPath, Func: e.Func, Target: cfg.Func,
		Strategy: cfg.Strategy, MaxDepth: cfg.MaxDepth, Seed: cfg.Seed, MaxLen: e.maxLen, MaxElems: cfg.MaxElems,
		Settings: savedSettings(cfg),
		Params:   stateParams(e), Exhausted: rep.Exhausted, Funcs: t.funcs, Inputs: []state.Input{},
		Spent: state.Spent{Executions: rep.Execs, Queries: queries(rep), ElapsedMS: rep.Elapsed.Milliseconds()},
	}
	for _, p := range reps {
		st.Inputs = append(st.Inputs, state.Input{Values: stateValues(p.Input, e), Path: h.steps(p.Path()), Results: stateResults(p)})
	}
	// Inputs that crash the worker leave no path; they are kept to be
	// run again.
	for _, f := range rep.SortedFindings() {
		if f.Kind != "panic" && f.Kind != "fail" {
			st.Inputs = append(st.Inputs, state.Input{Values: stateValues(f.Input, e), Results: []string{f.Kind + ": " + f.Message}})
		}
	}
	return st
}

// queries counts a run's path queries.
func queries(rep *coordinator.Report) int {
	n := 0
	for _, q := range rep.Queries {
		n += q
	}
	return n
}

// writeState writes st as the state file of t's function.
func writeState(t *Entry, st *state.State) error {
	data, err := state.Encode(st)
	if err != nil {
		return err
	}
	path := state.Path(t.PkgDir, t.Func)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing suite state: %w", err)
	}
	return writeAtomic(path, data)
}

// directions returns the branch-direction sequence of a path, the
// identity of a test: its sites and the sides they took.
func directions(path []state.Step) string {
	var b strings.Builder
	for _, s := range path {
		b.WriteString(s.Site)
		if s.Taken {
			b.WriteString("+")
		} else {
			b.WriteString("-")
		}
	}
	return b.String()
}

// diff compares the suite of the new state (reps, one input per path)
// with the saved one: tests kept (a saved input on the path it took
// before), dropped (the other saved inputs) and added (the other inputs),
// the kept tests whose results changed, the ranges explored and the
// functions changed.
func (u *updating) diff(st *state.State, rep *coordinator.Report, reps []coordinator.PathInput, e *Entry) *report.Update {
	old := u.old
	up := &report.Update{Changed: []report.ResultChange{}, FuncsChanged: []string{}, Checked: u.check,
		Executions: rep.Execs, Queries: queries(rep), ElapsedMS: rep.Elapsed.Milliseconds(),
		Saved: report.Spent{Executions: old.Spent.Executions, Queries: old.Spent.Queries, ElapsedMS: old.Spent.ElapsedMS},
		Sides: len(rep.Update.Changed), Settled: rep.Update.Settled}
	var valid [][]bool
	for i, p := range reps {
		now := st.Inputs[i]
		if !u.kept(p, directions(now.Path)) {
			up.Added++
			continue
		}
		up.Kept++
		dirs := make([]bool, len(now.Path))
		for k, br := range now.Path {
			dirs[k] = br.Taken
		}
		valid = append(valid, dirs)
		if was := old.Inputs[p.Seed]; !slices.Equal(was.Results, now.Results) {
			up.Changed = append(up.Changed, report.ResultChange{Call: e.Call(p.Input), Old: was.Results, New: now.Results})
		}
	}
	for _, in := range old.Inputs {
		if in.Path != nil {
			up.Dropped++
		}
	}
	up.Dropped -= up.Kept
	sort.Slice(valid, func(a, b int) bool { return state.Less(valid[a], valid[b]) })
	up.Ranges = len(state.Ranges(valid, rep.Update.Changed))
	for fn, fp := range st.Funcs {
		if old.Funcs[fn] != fp {
			up.FuncsChanged = append(up.FuncsChanged, fn)
		}
	}
	for fn := range old.Funcs {
		if _, ok := st.Funcs[fn]; !ok {
			up.FuncsChanged = append(up.FuncsChanged, fn)
		}
	}
	sort.Strings(up.FuncsChanged)
	return up
}

// outOfDate reports whether an update changed the suite.
func outOfDate(up *report.Update) bool {
	return len(up.Changed) > 0 || up.Added > 0 || up.Dropped > 0
}

// printUpdate writes what an update did, each changed result old against
// new.
func printUpdate(cfg Config, up *report.Update) {
	w := cfg.Stderr
	fmt.Fprintf(w, "gocolic: update: %d tests kept, %d dropped, %d added, %d results changed; %d ranges explored (%d sides, %d settled by the saved run)\n",
		up.Kept, up.Dropped, up.Added, len(up.Changed), up.Ranges, up.Sides, up.Settled)
	fmt.Fprintf(w, "gocolic: update: %d executions, %d solver queries, %d ms (the saved run: %d, %d, %d ms)\n",
		up.Executions, up.Queries, up.ElapsedMS, up.Saved.Executions, up.Saved.Queries, up.Saved.ElapsedMS)
	if len(up.FuncsChanged) > 0 {
		fmt.Fprintf(w, "gocolic: update: functions changed: %s\n", strings.Join(up.FuncsChanged, ", "))
	}
	for _, c := range up.Changed {
		fmt.Fprintf(w, "gocolic: result changed: %s: %s, now %s\n", c.Call, strings.Join(c.Old, ", "), strings.Join(c.New, ", "))
	}
}

// keepsState reports whether a run of cfg writes the suite's state: beside
// the tests (or corpus entries) it writes, unless -nostate.
func (c *Config) keepsState() bool {
	return !c.NoTests && !c.NoState && len(c.Replay) == 0
}

// finishState writes the state of the suite out leaves and, for an update,
// says what changed; it reports whether the other outputs are to be
// written: not by an update with -check, which fails instead when the
// suite is out of date. Errors are appended to errs.
func finishState(cfg Config, cmd Command, t *target, out *Outcome, errs *[]error) bool {
	rep := out.Report
	if t.upd == nil && !cfg.keepsState() {
		return true
	}
	if t.upd != nil && rep.Update.Unrun > 0 {
		// The saved inputs not run would be dropped as if their paths
		// were gone.
		*errs = append(*errs, fmt.Errorf("the run ended before %d of the %d saved inputs ran again (stopped: %s); nothing was rewritten: give update a larger -budget",
			rep.Update.Unrun, len(t.upd.old.Inputs), rep.Stopped))
		return false
	}
	if n := suiteBranches(rep.Suite); cfg.MaxState > 0 && n > cfg.MaxState {
		msg := fmt.Sprintf("the suite's %d paths take %d branches in all, more than -maxstate %d", len(rep.Suite), n, cfg.MaxState)
		if t.upd != nil {
			*errs = append(*errs, fmt.Errorf("%s: nothing was rewritten (a larger -maxstate writes the state)", msg))
			return false
		}
		// A state left from an earlier run would describe other tests.
		old := state.Path(t.entry.PkgDir, t.entry.Func)
		gone := ""
		if err := os.Remove(old); err == nil {
			gone = "; the earlier state file, which described other tests, was removed"
		} else if !errors.Is(err, fs.ErrNotExist) {
			*errs = append(*errs, fmt.Errorf("removing the earlier suite state: %w", err))
		}
		fmt.Fprintf(cfg.Stderr, "gocolic: suite state not written: %s (gocolic update needs it; -depth, a shorter -budget or a larger -maxstate keeps one)%s\n", msg, gone)
		return true
	}
	var st *state.State
	var reps []coordinator.PathInput
	*errs = append(*errs, guarded(rep, "state", func() error {
		h := t.upd.hasher(t)
		reps = t.upd.represent(rep.Suite, h)
		st = newState(cmd, cfg, t, rep, reps, h)
		return nil
	}))
	if st == nil {
		return t.upd == nil || !t.upd.check
	}
	if t.upd != nil {
		*errs = append(*errs, guarded(rep, "update", func() error {
			out.Update = t.upd.diff(st, rep, reps, t.entry)
			printUpdate(cfg, out.Update)
			return nil
		}))
		if t.upd.check {
			if out.Update != nil && outOfDate(out.Update) {
				*errs = append(*errs, fmt.Errorf("%w: %d tests dropped, %d added, %d results changed (gocolic update -check rewrites nothing)",
					ErrChanged, out.Update.Dropped, out.Update.Added, len(out.Update.Changed)))
			}
			return false
		}
	}
	if t.upd != nil && sameSuite(t.upd.old, st) {
		// Only the cost would change: the committed file stays as it is.
		return true
	}
	*errs = append(*errs, guarded(rep, "state", func() error { return writeState(t.entry, st) }))
	return true
}

// suiteBranches counts the branches of a suite's paths.
func suiteBranches(suite []coordinator.PathInput) int {
	n := 0
	for _, p := range suite {
		n += p.Len()
	}
	return n
}

// hasher returns the path hasher of u, or a new one for a run that is no
// update (u is nil).
func (u *updating) hasher(t *target) *pathHasher {
	if u == nil {
		return newPathHasher(t.ins.Sites)
	}
	return u.hash
}

// represent picks one input per path among the run's (several seeds may
// take one path), in the order the paths were first taken: a saved input
// that took the path before if there is one (u is an update's), else the
// first.
func (u *updating) represent(all []coordinator.PathInput, h *pathHasher) []coordinator.PathInput {
	at := map[string]int{}
	var out []coordinator.PathInput
	for _, p := range all {
		dirs := directions(h.steps(p.Path()))
		i, ok := at[dirs]
		switch {
		case !ok:
			at[dirs] = len(out)
			out = append(out, p)
		case u != nil && !u.kept(out[i], dirs) && u.kept(p, dirs):
			out[i] = p
		}
	}
	return out
}

// kept reports whether p is a saved input that took the path dirs before.
func (u *updating) kept(p coordinator.PathInput, dirs string) bool {
	return p.Seed >= 0 && p.Seed < len(u.old.Inputs) && u.old.Inputs[p.Seed].Path != nil && directions(u.old.Inputs[p.Seed].Path) == dirs
}

// SavedTargets lists the functions and fuzz targets whose suites are saved
// in the package pattern names (relative to dir): the targets of its
// testdata/gocolic state files, sorted. A state file that cannot be read
// is an error.
func SavedTargets(ctx context.Context, dir, pattern string) ([]string, error) {
	cmd := proc.CommandContext(ctx, "go", "list", "-f", "{{.Dir}}", pattern)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("finding package %s: %w: %s", pattern, err, strings.TrimSpace(stderr.String()))
	}
	pkgDirs := strings.Fields(strings.TrimSpace(string(out)))
	if len(pkgDirs) != 1 {
		return nil, fmt.Errorf("%s names %d packages; gocolic update takes one", pattern, len(pkgDirs))
	}
	files, err := filepath.Glob(filepath.Join(pkgDirs[0], filepath.FromSlash(state.Dir), "*.state.json"))
	if err != nil {
		return nil, err
	}
	var targets []string
	for _, f := range files {
		st, err := state.Read(f)
		if err != nil {
			return nil, err
		}
		targets = append(targets, st.Target)
	}
	if len(targets) == 0 {
		return nil, fmt.Errorf("no saved suites in %s: run gocolic test (or fuzz) first", filepath.Join(pkgDirs[0], filepath.FromSlash(state.Dir)))
	}
	sort.Strings(targets)
	return targets, nil
}

// sameSuite reports whether two states hold the same suite, whatever their
// runs cost.
func sameSuite(a, b *state.State) bool {
	ac, bc := *a, *b
	ac.Spent, bc.Spent = state.Spent{}, state.Spent{}
	ad, aerr := state.Encode(&ac)
	bd, berr := state.Encode(&bc)
	return aerr == nil && berr == nil && bytes.Equal(ad, bd)
}
