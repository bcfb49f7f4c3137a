// This file writes a run's outputs: the generated test file, the JSON
// report and the coverage profile.

package session

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/emit"
	"github.com/gocolic/gocolic/guard"
	"github.com/gocolic/gocolic/mc"
	"github.com/gocolic/gocolic/report"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// suite turns a report into the generated test suite.
func suite(t *Entry, rep *coordinator.Report) emit.Suite {
	s := emit.Suite{Package: t.PkgName, Func: t.Func, Method: t.Method, Imports: t.Imports}
	for i, p := range t.Params {
		s.Params = append(s.Params, emit.Param{Name: p.Name, Type: t.paramType(i)})
	}
	for i, r := range t.Results {
		s.Results = append(s.Results, emit.Result{Type: r, IsError: t.IsError[i], Pinned: t.Pinned[i]})
	}
	seen := map[string]bool{}
	conds := condSites(t.Sites)
	covered := map[sites.Outcome]bool{}
	for _, c := range rep.Cases {
		args, build := t.Args(c.Input), t.Build(c.Input)
		key := strings.Join(append(args, build), "\x00")
		if seen[key] {
			continue
		}
		seen[key] = true
		ec := emit.Case{Args: args, Build: build}
		for _, o := range c.Covers {
			if s, ok := conds[o.Site()]; ok && !covered[o] {
				covered[o] = true
				ec.Covers = append(ec.Covers, emit.Cond{Pos: fmt.Sprintf("%s:%d", filepath.Base(s.Pos.Filename), s.Pos.Line), Text: s.Text, Taken: o.Taken(), Std: s.Std})
			}
		}
		for i := range t.Results {
			lit := ""
			if i < len(c.Results) && c.Results[i].Pinned {
				lit = c.Results[i].Literal
			} else if i < len(s.Results) {
				s.Results[i].Pinned = false // no literal for some case: pin nothing
			}
			ec.Results = append(ec.Results, lit)
		}
		s.Cases = append(s.Cases, ec)
	}
	for _, f := range rep.SortedFindings() {
		s.Crashes = append(s.Crashes, emit.Crash{Kind: f.Kind, Message: f.Message, Args: t.Args(f.Input), Build: t.Build(f.Input), Where: coordinator.TopFunc(f.Stack)})
	}
	return s
}

// condSites returns the sites of table a generated case lists among the
// outcomes it covers first: the conditions, of the package or of a fuzz
// target, by ID.
func condSites(table []sites.Site) map[uint32]sites.Site {
	m := map[uint32]sites.Site{}
	for _, s := range table {
		if s.Kind == sites.Cond || s.Kind == sites.Test {
			m[s.ID] = s
		}
	}
	return m
}

// writeTests writes the generated test file and returns its path.
func writeTests(cfg Config, t *Entry, rep *coordinator.Report) (string, error) {
	dir := cfg.Out
	if dir == "" {
		dir = t.PkgDir
	}
	src, err := emit.TestFile(suite(t, rep))
	if err != nil {
		return "", fmt.Errorf("generating tests: %w", err)
	}
	if cfg.Out != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("writing tests: %w", err)
		}
	}
	path := filepath.Join(dir, emit.FileName(t.Func))
	if err := emit.WriteFile(path, src); err != nil {
		return "", fmt.Errorf("writing tests: %w", err)
	}
	return path, nil
}

// coverProfile replays the generated tests under `go test -cover`, so
// that the profile is the statement coverage the suite gives, in the
// format `go tool cover` reads.
func coverProfile(moduleDir string, t *Entry, testFile, out string) error {
	if filepath.Dir(testFile) != t.PkgDir {
		return fmt.Errorf("-coverprofile needs the tests in the package directory (not -o %s)", filepath.Dir(testFile))
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	tmp := abs + ".tmp"
	run := fmt.Sprintf("^TestGocolic%s(Crashes)?$", t.Func)
	if _, err := coverRun(moduleDir, t.PkgPath, tmp, "the generated tests", "-run", run); err != nil {
		return err
	}
	// A failing reproducer is expected; the profile is still complete.
	return os.Rename(tmp, abs)
}

// guarded runs one step that writes an output of rep's run: a panic in it
// fails that output alone, with an error that says so, and is recorded
// in rep, so that the outputs written after it still are and report it.
func guarded(rep *coordinator.Report, where string, f func() error) error {
	err := guard.Do(where, f)
	rep.AddInternal(err)
	return err
}

// concretisedJSON builds the report's concretised object.
func concretisedJSON(t *Entry, rep *coordinator.Report) *report.Concretised {
	c := &rep.Concretised
	j := &report.Concretised{Events: c.Events(), Divergences: c.Divergences, Unattributed: c.Unattributed, Causes: []report.Cause{}}
	for _, cr := range Concretisations(t, rep) {
		jc := report.Cause{Cause: cr.Cause.String(), Description: cr.Cause.Describe(),
			Events: cr.Events, Executions: cr.Executions, Divergences: cr.Divergences, Sites: []report.ConcreteSite{}}
		for _, s := range cr.Sites {
			js := report.ConcreteSite{Func: s.Func, Expr: s.Expr, Events: s.Events, Executions: s.Executions, Divergences: s.Divergences}
			if s.File != "" {
				js.Pos = fmt.Sprintf("%s:%d", s.File, s.Line)
			}
			jc.Sites = append(jc.Sites, js)
		}
		j.Causes = append(j.Causes, jc)
	}
	return j
}

// solverJSON builds the report's solver object. chains are the stacks of
// the solver pool, all built alike: each layer's counts are summed over
// them, layer by layer.
func solverJSON(t *Entry, rep *coordinator.Report, chains []solver.Solver) report.Solver {
	j := report.Solver{Sat: rep.Queries["sat"], Unsat: rep.Queries["unsat"], Unknown: rep.Queries["unknown"] + rep.Queries["error"] + rep.Queries["stuck"], TimeMS: rep.SolverTime.Milliseconds(),
		Optimistic: report.Optimistic{Queries: rep.Optimistic.Queries, Sat: rep.Optimistic.Sat, Reached: rep.Optimistic.Reached},
		Deferred:   rep.Deferred, Sites: []report.SolverSite{}}
	j.Queries = j.Sat + j.Unsat + j.Unknown
	if s := rep.Stuck; s.Queries > 0 {
		j.Stuck = &report.Stuck{Queries: s.Queries, Replaced: s.Replaced, Late: s.Late, Dead: s.Dead, Why: s.Why}
	}
	for _, chain := range chains {
		for i, l := range solver.Layers(chain) {
			st := l.Stats()
			if i == len(j.Layers) {
				j.Layers = append(j.Layers, report.Layer{Name: l.Name()})
			}
			jl := &j.Layers[i]
			jl.Queries += st.Queries
			jl.Sat += st.Sat
			jl.Unsat += st.Unsat
			jl.Unknown += st.Unknown
			jl.TimeMS += st.Time.Milliseconds()
		}
	}
	for _, s := range QuerySites(t, rep) {
		js := report.SolverSite{ID: s.ID, Func: s.Func, Cond: s.Cond, Queries: s.Queries, Sat: s.Sat, Unsat: s.Unsat, Unknown: s.Unknown, Stuck: s.Stuck, TimeMS: s.Time.Milliseconds()}
		if s.File != "" {
			js.Pos = fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Col)
		}
		j.Sites = append(j.Sites, js)
	}
	return j
}

// unreachableJSON lists the claims that stand at the end of the run, by
// site and outcome.
func unreachableJSON(t *Entry, rep *coordinator.Report) []report.Unreachable {
	out := []report.Unreachable{}
	byID := map[uint32]sites.Site{}
	for _, s := range t.Sites {
		byID[s.ID] = s
	}
	for _, c := range rep.Unreachable {
		s := byID[c.Outcome.Site()]
		out = append(out, report.Unreachable{ID: s.ID, File: s.Pos.Filename, Line: s.Pos.Line, Func: s.Func, Cond: s.Text, Outcome: c.Outcome.Taken(), By: c.By,
			Round: c.Round, ProvedMS: c.At.Milliseconds()})
	}
	slices.SortFunc(out, func(a, b report.Unreachable) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(btoi(a.Outcome), btoi(b.Outcome)))
	})
	return out
}

// abstractionJSON is what the model checker and its monitors did, nil
// when it did not run.
func abstractionJSON(rep *coordinator.Report, sum *mc.Summary, monitors int) *report.Abstraction {
	if sum == nil {
		return nil
	}
	return &report.Abstraction{
		MCMS: sum.Time.Milliseconds(), Rounds: sum.Rounds, Functions: sum.Functions, Incomplete: sum.Incomplete, Skipped: sum.Skipped,
		Refinements: sum.Refinements, Predicates: sum.Predicates, ARGNodes: sum.Nodes, Monitors: monitors,
		Local: sum.Local, Pruned: rep.Prune.Pruned, Released: rep.Prune.Released, HeldByClaims: rep.Prune.Claimed, Alarms: append([]string{}, rep.Prune.Alarms...),
		PrunedCovered: rep.Prune.Covered,
	}
}

// writeJSON writes the JSON report (-json, and report.json of -rundir)
// of a run to path.
func writeJSON(path string, cfg Config, command Command, moduleDir string, t *Entry, rep *coordinator.Report, chains []solver.Solver, out *Outcome) error {
	cov, total := rep.Covered.CondOutcomes(t.Sites)
	j := report.Report{
		Tool: "gocolic", Command: string(command), ModuleDir: moduleDir, GoRoot: t.GoRoot, ModCache: t.ModCache, Package: t.PkgPath, Function: t.Func,
		Executions: rep.Execs, Paths: rep.Paths, Divergences: rep.Divergences, SlowTracked: rep.SlowTracked, SlowRetried: rep.SlowRetried, AliasFallbacks: rep.AliasFallbacks, Tree: rep.Tree,
		Concretised: concretisedJSON(t, rep), ElapsedMS: rep.Elapsed.Milliseconds(), Stopped: rep.Stopped, Exhausted: rep.Exhausted,
		Tests: out.TestFile, Profile: out.Profile,
		Branches: report.Branches{Covered: cov, Total: total, Sites: []report.Site{}},
		Bugs:     []report.Bug{},
		Config:   cfg.Settings(command),
		Lanes: &report.Lanes{
			ConcolicExecs: rep.Lanes.ConcolicExecs, ConcolicKept: rep.Lanes.ConcolicKept,
			MutationExecs: rep.Lanes.MutationExecs, MutationKept: rep.Lanes.MutationKept,
			Traced: rep.Lanes.Traced, Seeded: rep.Lanes.Seeded,
			DutyHeld: rep.Lanes.DutyHeld, DutyMS: rep.Lanes.DutyTime.Milliseconds(),
		},
	}
	if rep.Elapsed > 0 {
		j.ExecsPerSec = float64(rep.Execs) / rep.Elapsed.Seconds()
	}
	for _, ds := range DivergentSites(t, rep, MaxDivergentSites) {
		jd := report.DivergentSite{Func: ds.Func, Cond: ds.Cond, Count: ds.Count}
		if ds.File != "" {
			jd.Pos = fmt.Sprintf("%s:%d", ds.File, ds.Line)
		}
		j.DivergentSites = append(j.DivergentSites, jd)
	}
	j.Tags = t.Tags
	if len(t.Stdlib) > 0 {
		j.Stdlib = &report.Stdlib{Packages: t.Stdlib}
	}
	for _, s := range t.Sites {
		if s.Kind != sites.Cond {
			continue
		}
		if s.Std {
			if j.Stdlib != nil {
				j.Stdlib.Total += 2
				j.Stdlib.Covered += btoi(rep.Covered.Has(s.ID, true)) + btoi(rep.Covered.Has(s.ID, false))
			}
			continue
		}
		j.Branches.Sites = append(j.Branches.Sites, report.Site{
			ID: s.ID, Pos: fmt.Sprintf("%s:%d:%d", s.Pos.Filename, s.Pos.Line, s.Pos.Column),
			Func: s.Func, Cond: s.Text, True: rep.Covered.Has(s.ID, true), False: rep.Covered.Has(s.ID, false),
		})
	}
	j.Unreachable = unreachableJSON(t, rep)
	j.Abstraction = abstractionJSON(rep, out.MC, out.Monitors)
	for i, f := range rep.SortedFindings() {
		bug := report.Bug{Kind: f.Kind, Message: f.Message, Call: t.Call(f.Input), Count: f.Count,
			FoundMS: f.Elapsed.Milliseconds(), Minimized: f.Minimized, Stack: f.Stack, Inputs: inputsJSON(t, f.Input)}
		switch {
		case out.TestFile != "" && command == CmdFuzz:
			_, name := corpusFile(f.Input, t)
			bug.Reproducer = fmt.Sprintf("%s: go test -run='^%s$/^%s$'", filepath.Join(out.TestFile, name), t.Func, name)
		case out.TestFile != "":
			bug.Reproducer = fmt.Sprintf("%s: TestGocolic%sCrashes (case %d)", out.TestFile, t.Func, i+1)
		}
		j.Bugs = append(j.Bugs, bug)
	}
	j.StateDependent = stateDependentJSON(t, rep)
	j.Solver = solverJSON(t, rep, chains)
	j.ExecNS = rep.ExecTime.Nanoseconds()
	j.CPUMS = rep.CPU.Milliseconds()
	j.Hybrid = out.Hybrid
	j.Update = out.Update
	j.Cases = [][]string{}
	for _, c := range rep.Cases {
		j.Cases = append(j.Cases, t.Args(c.Input))
	}
	j.CasesFound, j.MinimizeMS, j.MinimizeExecs = rep.CasesFound, rep.MinimizeElapsed.Milliseconds(), rep.MinimizeExecs
	j.Timeline = timeline(rep)
	j.InternalErrors = []report.InternalError{}
	for _, ie := range rep.InternalErrors {
		j.InternalErrors = append(j.InternalErrors, report.InternalError{Where: ie.Where, Message: ie.Message, Count: ie.Count, Stack: ie.Stack})
	}
	data, err := report.Encode(&j)
	if err != nil {
		return err
	}
	return writeAtomic(path, data)
}

// inputsJSON maps each parameter's name (#1, #2, ... when it has none)
// to its argument in env as a Go literal.
func inputsJSON(t *Entry, env sym.Env) map[string]string {
	m := map[string]string{}
	for k, a := range t.Args(env) {
		name := t.Params[k].Name
		if name == "" || name == "_" {
			name = fmt.Sprintf("#%d", k+1)
		}
		m[name] = a
	}
	return m
}

// stateDependentJSON builds the report's state_dependent object: the
// check of each finding alone and the failures that did not recur.
func stateDependentJSON(t *Entry, rep *coordinator.Report) *report.StateDependent {
	a := rep.Alone
	j := &report.StateDependent{Checked: a.Checked, Inferred: a.Inferred, Unchecked: a.Unchecked, ElapsedMS: a.Elapsed.Milliseconds(), Failures: []report.StateFailure{}}
	for _, f := range rep.StateDependent {
		j.Failures = append(j.Failures, report.StateFailure{Kind: f.Kind, Message: f.Message, Inputs: inputsJSON(t, f.Input),
			Call: t.Call(f.Input), Count: f.Count, FoundMS: f.Elapsed.Milliseconds()})
	}
	return j
}

// timeline returns the run's time series in time order.
func timeline(rep *coordinator.Report) []report.Point {
	ps := []report.Point{}
	for _, p := range rep.Timeline {
		ps = append(ps, report.Point{MS: p.Elapsed.Milliseconds(), Execs: p.Execs, Covered: p.Covered, Paths: p.Paths, Findings: p.Findings})
	}
	sort.SliceStable(ps, func(a, b int) bool { return ps[a].MS < ps[b].MS })
	return ps
}

// writeAtomic writes a file by renaming a complete temporary file over it,
// so that an interrupted run never leaves half a file.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".gocolic-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
