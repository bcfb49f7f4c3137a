// This file writes a run's outputs: the generated test file, the JSON
// report and the coverage profile.

package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/emit"
	"github.com/gocolic/gocolic/guard"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver"
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
	for _, c := range rep.Cases {
		args, build := t.Args(c.Input), t.Build(c.Input)
		key := strings.Join(append(args, build), "\x00")
		if seen[key] {
			continue
		}
		seen[key] = true
		ec := emit.Case{Args: args, Build: build}
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
		s.Crashes = append(s.Crashes, emit.Crash{Kind: f.Kind, Message: f.Message, Args: t.Args(f.Input), Build: t.Build(f.Input)})
	}
	return s
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

// jsonReport is the machine-readable report (-json).
type jsonReport struct {
	Tool        string       `json:"tool"`
	Command     string       `json:"command"` // test or fuzz
	ModuleDir   string       `json:"module_dir"`
	Package     string       `json:"package"`
	Function    string       `json:"function"`
	Executions  int          `json:"executions"`
	ExecsPerSec float64      `json:"execs_per_sec"`
	Paths       int          `json:"paths"`
	Branches    jsonBranches `json:"branches"`
	Bugs        []jsonBug    `json:"bugs"`
	Solver      jsonSolver   `json:"solver"`
	Divergences int          `json:"divergences"`
	// SlowTracked counts the executions that timed out only with tracking.
	SlowTracked int `json:"slow_tracked"`
	// AliasFallbacks counts the solver models whose pointer choices could
	// not be put into the form of the equivalence graph (coordinator/alias.go).
	AliasFallbacks int `json:"alias_fallbacks"`
	// Concretised counts the values made concrete per cause and relates
	// the divergences to them.
	Concretised jsonConcretised `json:"concretised"`
	Tree        any             `json:"tree"`
	ElapsedMS   int64           `json:"elapsed_ms"`
	Stopped     string          `json:"stopped"`
	Exhausted   bool            `json:"exhausted"`
	Tests       string          `json:"tests,omitempty"`
	Profile     string          `json:"coverprofile,omitempty"`
	Timeline    []jsonPoint     `json:"timeline"`
	Cases       [][]string      `json:"cases"`
	// ExecNS is the time workers spent inside executions.
	ExecNS int64          `json:"exec_ns"`
	Config map[string]any `json:"config"`
	// Hybrid counts the exchanges with go test -fuzz (-with-fuzzer).
	Hybrid *HybridStats `json:"hybrid,omitempty"`
	// InternalErrors are the failures of gocolic's own code that the run
	// survived or ended with (a panic in the solver chain costs its query,
	// one in an output costs that output), each with the stack that
	// locates it; a run without any has none.
	InternalErrors []jsonInternal `json:"internal_errors"`
}

type jsonInternal struct {
	Where   string `json:"where"`
	Message string `json:"message"`
	Count   int    `json:"count"`
	Stack   string `json:"stack"`
}

// guarded runs one step that writes an output of rep's run: a panic in it
// fails that output alone, with an error that says so, and is recorded
// in rep, so that the outputs written after it still are and report it.
func guarded(rep *coordinator.Report, where string, f func() error) error {
	err := guard.Do(where, f)
	rep.AddInternal(err)
	return err
}

// jsonConcretised is the report's account of concretisation: the events
// of all causes, the divergences, those with no event before their
// divergent branch, and per cause its counts and busiest places.
type jsonConcretised struct {
	Events       int         `json:"events"`
	Divergences  int         `json:"divergences"`
	Unattributed int         `json:"unattributed_divergences"`
	Causes       []jsonCause `json:"causes"`
}

type jsonCause struct {
	Cause       string             `json:"cause"`
	Description string             `json:"description"`
	Events      int                `json:"events"`
	Executions  int                `json:"executions"`
	Divergences int                `json:"divergences"`
	Sites       []jsonConcreteSite `json:"sites"`
}

type jsonConcreteSite struct {
	Pos         string `json:"pos"` // file:line, "" when unknown
	Func        string `json:"func"`
	Expr        string `json:"expr"`
	Events      int    `json:"events"`
	Executions  int    `json:"executions"`
	Divergences int    `json:"divergences"`
}

// concretisedJSON builds the report's concretised object.
func concretisedJSON(t *Entry, rep *coordinator.Report) jsonConcretised {
	c := &rep.Concretised
	j := jsonConcretised{Events: c.Events(), Divergences: c.Divergences, Unattributed: c.Unattributed, Causes: []jsonCause{}}
	for _, cr := range Concretisations(t, rep) {
		jc := jsonCause{Cause: cr.Cause.String(), Description: cr.Cause.Describe(),
			Events: cr.Events, Executions: cr.Executions, Divergences: cr.Divergences, Sites: []jsonConcreteSite{}}
		for _, s := range cr.Sites {
			js := jsonConcreteSite{Func: s.Func, Expr: s.Expr, Events: s.Events, Executions: s.Executions, Divergences: s.Divergences}
			if s.File != "" {
				js.Pos = fmt.Sprintf("%s:%d", s.File, s.Line)
			}
			jc.Sites = append(jc.Sites, js)
		}
		j.Causes = append(j.Causes, jc)
	}
	return j
}

type jsonBranches struct {
	Covered int        `json:"covered"`
	Total   int        `json:"total"`
	Sites   []jsonSite `json:"sites"`
}

type jsonSite struct {
	ID    uint32 `json:"id"`
	Pos   string `json:"pos"`
	Func  string `json:"func"`
	Cond  string `json:"cond"`
	True  bool   `json:"true"`
	False bool   `json:"false"`
}

type jsonBug struct {
	Kind       string            `json:"kind"`
	Message    string            `json:"message"`
	Inputs     map[string]string `json:"inputs"`
	Call       string            `json:"call"`
	Count      int               `json:"count"`
	FoundMS    int64             `json:"found_ms"`
	Minimized  bool              `json:"minimized"`
	Reproducer string            `json:"reproducer,omitempty"`
	Stack      string            `json:"stack,omitempty"`
}

type jsonSolver struct {
	Queries int         `json:"queries"`
	Sat     int         `json:"sat"`
	Unsat   int         `json:"unsat"`
	Unknown int         `json:"unknown"`
	TimeMS  int64       `json:"time_ms"`
	Layers  []jsonLayer `json:"layers"`
}

type jsonLayer struct {
	Name    string `json:"name"`
	Queries int    `json:"queries"`
	Sat     int    `json:"sat"`
	Unsat   int    `json:"unsat"`
	Unknown int    `json:"unknown"`
	TimeMS  int64  `json:"time_ms"`
}

type jsonPoint struct {
	MS       int64 `json:"ms"`
	Execs    int   `json:"execs"`
	Covered  int   `json:"covered"`
	Paths    int   `json:"paths"`
	Findings int   `json:"bugs"`
}

func writeJSON(path string, cfg Config, command Command, moduleDir string, t *Entry, rep *coordinator.Report, chain solver.Solver, out *Outcome) error {
	cov, total := rep.Covered.CondOutcomes(t.Sites)
	j := jsonReport{
		Tool: "gocolic", Command: string(command), ModuleDir: moduleDir, Package: t.PkgPath, Function: t.Func,
		Executions: rep.Execs, Paths: rep.Paths, Divergences: rep.Divergences, SlowTracked: rep.SlowTracked, AliasFallbacks: rep.AliasFallbacks, Tree: rep.Tree,
		Concretised: concretisedJSON(t, rep), ElapsedMS: rep.Elapsed.Milliseconds(), Stopped: rep.Stopped, Exhausted: rep.Exhausted,
		Tests: out.TestFile, Profile: out.Profile,
		Branches: jsonBranches{Covered: cov, Total: total, Sites: []jsonSite{}},
		Bugs:     []jsonBug{},
		Config:   cfg.Settings(command),
	}
	if rep.Elapsed > 0 {
		j.ExecsPerSec = float64(rep.Execs) / rep.Elapsed.Seconds()
	}
	for _, s := range t.Sites {
		if s.Kind != sites.Cond {
			continue
		}
		j.Branches.Sites = append(j.Branches.Sites, jsonSite{
			ID: s.ID, Pos: fmt.Sprintf("%s:%d:%d", s.Pos.Filename, s.Pos.Line, s.Pos.Column),
			Func: s.Func, Cond: s.Text, True: rep.Covered.Has(s.ID, true), False: rep.Covered.Has(s.ID, false),
		})
	}
	for i, f := range rep.SortedFindings() {
		bug := jsonBug{Kind: f.Kind, Message: f.Message, Call: t.Call(f.Input), Count: f.Count,
			FoundMS: f.Elapsed.Milliseconds(), Minimized: f.Minimized, Stack: f.Stack, Inputs: map[string]string{}}
		for k, a := range t.Args(f.Input) {
			name := t.Params[k].Name
			if name == "" || name == "_" {
				name = fmt.Sprintf("#%d", k+1)
			}
			bug.Inputs[name] = a
		}
		switch {
		case out.TestFile != "" && command == CmdFuzz:
			_, name := corpusFile(f.Input, t)
			bug.Reproducer = fmt.Sprintf("%s: go test -run='^%s$/^%s$'", filepath.Join(out.TestFile, name), t.Func, name)
		case out.TestFile != "":
			bug.Reproducer = fmt.Sprintf("%s: TestGocolic%sCrashes (case %d)", out.TestFile, t.Func, i+1)
		}
		j.Bugs = append(j.Bugs, bug)
	}
	j.Solver = jsonSolver{Sat: rep.Queries["sat"], Unsat: rep.Queries["unsat"], Unknown: rep.Queries["unknown"] + rep.Queries["error"], TimeMS: rep.SolverTime.Milliseconds()}
	j.Solver.Queries = j.Solver.Sat + j.Solver.Unsat + j.Solver.Unknown
	for _, l := range solver.Layers(chain) {
		st := l.Stats()
		j.Solver.Layers = append(j.Solver.Layers, jsonLayer{Name: l.Name(), Queries: st.Queries, Sat: st.Sat, Unsat: st.Unsat, Unknown: st.Unknown, TimeMS: st.Time.Milliseconds()})
	}
	j.ExecNS = rep.ExecTime.Nanoseconds()
	j.Hybrid = out.Hybrid
	j.Cases = [][]string{}
	for _, c := range rep.Cases {
		j.Cases = append(j.Cases, t.Args(c.Input))
	}
	j.Timeline = timeline(rep)
	j.InternalErrors = []jsonInternal{}
	for _, ie := range rep.InternalErrors {
		j.InternalErrors = append(j.InternalErrors, jsonInternal{Where: ie.Where, Message: ie.Message, Count: ie.Count, Stack: ie.Stack})
	}
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(path, append(data, '\n'))
}

// timeline returns the run's time series in time order.
func timeline(rep *coordinator.Report) []jsonPoint {
	ps := []jsonPoint{}
	for _, p := range rep.Timeline {
		ps = append(ps, jsonPoint{MS: p.Elapsed.Milliseconds(), Execs: p.Execs, Covered: p.Covered, Paths: p.Paths, Findings: p.Findings})
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
