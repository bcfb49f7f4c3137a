// This file holds what the runner records (one result per module,
// package and function), how it classifies a gocolic run, and how it adds
// results up into the table.

package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gocolic/gocolic/report"
)

// The statuses of a function.
const (
	statusOK      = "ok"           // gocolic ran and wrote its report
	statusRefused = "refused"      // gocolic does not support the function; Reason says why
	statusBuild   = "build-failed" // the instrumented build failed: a bug of the rewrite
	statusCrash   = "crash"        // gocolic itself failed; Reason is the kind
	statusSkipped = "not-run"      // supported, but not run: a limit, or its package did not build
)

// The kinds of crash.
const (
	crashPanic       = "gocolic panic"      // a Go panic trace of gocolic's own process
	crashInternal    = "internal error"     // the report lists internal_errors
	crashHang        = "hang"               // killed at the runner's time limit
	crashError       = "gocolic error"      // exit 1 for a failure of gocolic, no build error
	crashExit        = "exit status"        // any other exit status
	crashNoReport    = "no report"          // exit 0 without a readable report
	crashInstrumentr = "instrumenter panic" // the in-process rewrite panicked
)

// ModuleResult is what the runner measured on one module.
type ModuleResult struct {
	Path      string `json:"path"`
	Version   string `json:"version"`
	Kind      string `json:"kind"`
	GoVersion string `json:"go_version"` // the go line of its go.mod
	// Error says why the module could not be tested at all (download,
	// load); its packages are then empty.
	Error    string          `json:"error,omitempty"`
	Packages []PackageResult `json:"packages"`
}

// PackageResult is one package of a module.
type PackageResult struct {
	Path string `json:"path"`
	// Refused says why gocolic cannot instrument the package at all ("" if
	// it can): it does not build, uses cgo, ...
	Refused string `json:"refused,omitempty"`
	// Build is the outcome of the instrumented build of the whole package
	// (every function rewritten, as -instrument does): "ok", or
	// statusBuild or statusCrash with Detail; "" when not tried.
	Build       string `json:"build,omitempty"`
	BuildDetail string `json:"build_detail,omitempty"`
	// Outcomes is the number of branch outcomes of the package (two per
	// condition site), from the instrumented build.
	Outcomes int              `json:"outcomes"`
	Funcs    []FunctionResult `json:"functions"`
}

// FunctionResult is one exported function or method of a package.
type FunctionResult struct {
	Name   string `json:"name"` // Func or Type.Method
	Status string `json:"status"`
	// Reason is the refusal's reason (normalised, for counting), the kind
	// of crash, or why the function was not run.
	Reason string `json:"reason,omitempty"`
	// Detail is the full message, compiler output or panic excerpt.
	Detail     string `json:"detail,omitempty"`
	Exit       int    `json:"exit"`
	Executions int    `json:"executions"`
	Bugs       int    `json:"bugs"` // findings in the code under test (not gocolic's failures)
	// Covered are the branch outcomes the run covered, each
	// "file:line:col T" or "... F" with the file relative to the module.
	Covered []string `json:"covered,omitempty"`
	Total   int      `json:"total"` // outcomes of the run's report
	WallMS  int64    `json:"wall_ms"`
	Cached  bool     `json:"cached,omitempty"`
}

var (
	goPanicRE  = regexp.MustCompile(`(?m)^(panic: |fatal error: )`)
	goroutRE   = regexp.MustCompile(`(?m)^goroutine \d+ \[`)
	buildErrRE = regexp.MustCompile(`building the instrumented worker failed`)
)

// classify turns a finished `gocolic test` run into a function result:
// its exit status, whether it was killed at the time limit, its combined
// output, and the report it wrote (nil if none could be read). moduleDir
// is the module's directory, which the covered outcomes are made relative
// to.
func classify(exit int, timedOut bool, output []byte, rep *report.Report, moduleDir string) FunctionResult {
	r := FunctionResult{Exit: exit}
	switch {
	case timedOut:
		r.Status, r.Reason, r.Detail = statusCrash, crashHang, tail(output, 8)
	case goPanicRE.Match(output) && goroutRE.Match(output):
		r.Status, r.Reason, r.Detail = statusCrash, crashPanic, panicExcerpt(output)
	case exit == 1 && buildErrRE.Match(output):
		r.Status, r.Reason, r.Detail = statusBuild, "instrumented build failed", compilerErrors(output)
	case exit == 2:
		msg := lastGocolicLine(output)
		r.Status, r.Reason, r.Detail = statusRefused, normalizeReason(msg), msg
	case exit == 1:
		r.Status, r.Reason, r.Detail = statusCrash, crashError, tail(output, 8)
	case exit != 0:
		r.Status, r.Reason, r.Detail = statusCrash, crashExit+" "+strconv.Itoa(exit), tail(output, 8)
	case rep == nil:
		r.Status, r.Reason, r.Detail = statusCrash, crashNoReport, tail(output, 8)
	default:
		r.Status = statusOK
	}
	if rep == nil {
		return r
	}
	r.Executions, r.Bugs, r.Total = rep.Executions, len(rep.Bugs), rep.Branches.Total
	for _, s := range rep.Branches.Sites {
		pos := relPos(s.Pos, moduleDir)
		if s.True {
			r.Covered = append(r.Covered, pos+" T")
		}
		if s.False {
			r.Covered = append(r.Covered, pos+" F")
		}
	}
	sort.Strings(r.Covered)
	if len(rep.InternalErrors) > 0 && (r.Status == statusOK || r.Status == statusCrash && r.Reason == crashError) {
		var b strings.Builder
		for _, e := range rep.InternalErrors {
			fmt.Fprintf(&b, "%s: %s (%d times)\n%s\n", e.Where, e.Message, e.Count, firstLines(e.Stack, 12))
		}
		r.Status, r.Reason, r.Detail = statusCrash, crashInternal, strings.TrimSpace(b.String())
	}
	return r
}

// relPos makes the file of a site position relative to the module
// directory, so that positions from runs in different copies agree.
func relPos(pos, moduleDir string) string {
	if moduleDir == "" {
		return pos
	}
	if rel, err := filepath.Rel(moduleDir, pos); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return pos
}

// lastGocolicLine returns the last line of output that gocolic wrote as
// an error ("gocolic: ..."), without the prefix; the last line if none.
func lastGocolicLine(output []byte) string {
	lines := strings.Split(strings.TrimSpace(string(output)), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l, ok := strings.CutPrefix(lines[i], "gocolic: "); ok && !strings.HasPrefix(l, "warning:") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

var (
	// paramRE matches the refusal of a parameter or receiver type
	// (instrument's findEntry); the last group is the reason.
	paramRE = regexp.MustCompile(`^(?:parameter \S+|receiver) of \S+ has type .*?: (functions are not supported as inputs|channels are not supported as inputs|no type declared in package \S+ implements the interface|\S+ is not supported as input|the type cannot be named in the package)$`)
	pkgRE   = regexp.MustCompile(`package \S+`)
)

// normalizeReason reduces a refusal message to its reason, without the
// names of the function, parameter and package, so that refusals can be
// counted by reason.
func normalizeReason(msg string) string {
	switch {
	case strings.Contains(msg, "is generic;"):
		return "generic function"
	case strings.Contains(msg, "is an interface method"):
		return "interface method"
	case strings.Contains(msg, "comes from an embedded interface"):
		return "method of an embedded interface"
	case strings.Contains(msg, "is promoted from another package"):
		return "method promoted from another package"
	}
	if m := paramRE.FindStringSubmatch(msg); m != nil {
		why := pkgRE.ReplaceAllString(m[1], "package P")
		if strings.HasPrefix(msg, "receiver") {
			return "receiver: " + why
		}
		return "parameter: " + why
	}
	return pkgRE.ReplaceAllString(firstLines(msg, 1), "package P")
}

// panicExcerpt returns the panic line and the frames after it.
func panicExcerpt(output []byte) string {
	loc := goPanicRE.FindIndex(output)
	if loc == nil {
		return tail(output, 12)
	}
	return firstLines(string(output[loc[0]:]), 16)
}

// compilerErrors returns the compiler's lines of a failed build.
func compilerErrors(output []byte) string {
	i := buildErrRE.FindIndex(output)
	if i == nil {
		return tail(output, 12)
	}
	return firstLines(strings.TrimSpace(string(output[i[1]:])), 12)
}

// tail returns the last n non-empty lines of out.
func tail(out []byte, n int) string {
	var lines []string
	for _, l := range bytes.Split(out, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			lines = append(lines, string(l))
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// Summary is one module's row of the table.
type Summary struct {
	Module      string `json:"module"` // path@version
	Kind        string `json:"kind"`
	Packages    int    `json:"packages"`
	PkgRefused  int    `json:"packages_refused"`
	BuildFailed int    `json:"builds_failed"` // packages whose instrumented build failed
	Crashes     int    `json:"crashes"`       // gocolic crashes: functions, and package rewrites that panicked
	Functions   int    `json:"functions"`     // exported functions and methods of the packages not refused
	FuncRefused int    `json:"functions_refused"`
	Run         int    `json:"functions_run"`     // functions gocolic ran to the end of its budget
	NotRun      int    `json:"functions_not_run"` // supported but not run (limits, package build failed)
	Executions  int    `json:"executions"`
	Bugs        int    `json:"bugs"`     // findings in the module's code
	Covered     int    `json:"covered"`  // branch outcomes covered by the runs (union over functions)
	Outcomes    int    `json:"outcomes"` // branch outcomes of the packages with a run
	// Reasons counts the refusals, of packages ("package: ...") and of
	// functions, by reason.
	Reasons map[string]int `json:"reasons"`
}

// summarize adds up one module's results.
func summarize(m ModuleResult) Summary {
	s := Summary{Module: m.Path + "@" + m.Version, Kind: m.Kind, Reasons: map[string]int{}}
	if m.Error != "" {
		s.Reasons["module: "+firstLines(m.Error, 1)]++
	}
	for _, p := range m.Packages {
		s.Packages++
		if p.Refused != "" {
			s.PkgRefused++
			s.Reasons["package: "+normalizeReason(p.Refused)]++
			continue
		}
		buildFailed := p.Build == statusBuild
		if p.Build == statusCrash {
			s.Crashes++
		}
		covered := map[string]bool{}
		ran := false
		outcomes := p.Outcomes
		for _, f := range p.Funcs {
			outcomes = max(outcomes, f.Total)
			s.Functions++
			switch f.Status {
			case statusRefused:
				s.FuncRefused++
				s.Reasons[f.Reason]++
			case statusBuild:
				buildFailed = true
			case statusCrash:
				s.Crashes++
			case statusSkipped:
				s.NotRun++
			}
			if f.Status == statusOK || f.Status == statusCrash && f.Executions > 0 {
				ran = true
			}
			if f.Status == statusOK {
				s.Run++
			}
			s.Executions += f.Executions
			s.Bugs += f.Bugs
			for _, c := range f.Covered {
				covered[c] = true
			}
		}
		if buildFailed {
			s.BuildFailed++
		}
		if ran {
			s.Covered += len(covered)
			s.Outcomes += outcomes
		}
	}
	return s
}

// total adds the rows up; its Module is "total".
func total(rows []Summary) Summary {
	t := Summary{Module: "total", Reasons: map[string]int{}}
	for _, r := range rows {
		t.Packages += r.Packages
		t.PkgRefused += r.PkgRefused
		t.BuildFailed += r.BuildFailed
		t.Crashes += r.Crashes
		t.Functions += r.Functions
		t.FuncRefused += r.FuncRefused
		t.Run += r.Run
		t.NotRun += r.NotRun
		t.Executions += r.Executions
		t.Bugs += r.Bugs
		t.Covered += r.Covered
		t.Outcomes += r.Outcomes
		for k, v := range r.Reasons {
			t.Reasons[k] += v
		}
	}
	return t
}
