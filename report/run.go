// Package report renders the run directories that gocolic test and gocolic
// fuzz leave with -rundir as one self-contained HTML page: a summary of
// each run, a plot of branch outcomes covered over time, the findings, and
// the source annotated with the branch outcomes the runs reached.
//
// The page needs nothing but a browser: its CSS and its plot (SVG) are
// inline, and it loads nothing from the network.
package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// The files of a run directory that the report reads.
const (
	ReportFile  = "report.json"
	ProfileFile = "cover.out"
)

// Run is one run directory, loaded.
type Run struct {
	// Dir is the run directory as given.
	Dir string
	// Report is the content of its report.json.
	Report Report
	// Profile is the path of its statement coverage profile (cover.out),
	// or "" when it has none.
	Profile string
	// CoverHTML, when not empty, is the address of the page that go tool
	// cover made of Profile, relative to the report's page; WriteFile sets
	// it.
	CoverHTML string
	// CoverNote says why there is no such page, when there should be one.
	CoverNote string
}

// Report is the JSON report of a run (report.json, or the file of -json).
// Every field may be missing from older reports, and fields it does not
// know are ignored.
type Report struct {
	Tool        string   `json:"tool"`
	Command     string   `json:"command"`    // "test" or "fuzz"
	ModuleDir   string   `json:"module_dir"` // root of the target's module
	Package     string   `json:"package"`
	Function    string   `json:"function"`
	Executions  int      `json:"executions"`
	ExecsPerSec float64  `json:"execs_per_sec"`
	Paths       int      `json:"paths"`
	Branches    Branches `json:"branches"`
	Bugs        []Bug    `json:"bugs"`
	Solver      Solver   `json:"solver"`
	Divergences int      `json:"divergences"`
	// Concretised counts the values the run made concrete, per cause,
	// and relates its divergences to them; nil in reports that predate it.
	Concretised *Concretised `json:"concretised"`
	ElapsedMS   int64        `json:"elapsed_ms"`
	Stopped     string       `json:"stopped"`
	Exhausted   bool         `json:"exhausted"`
	Tests       string       `json:"tests"`
	Timeline    []Point      `json:"timeline"`
	// Config holds the run's settings (strategy, workers, seed, budget,
	// ...) as the JSON values they were written as; see [Report.Setting].
	Config map[string]json.RawMessage `json:"config"`
}

// Concretised is a run's account of concretisation: the events of all
// causes, the divergent executions, those with no event before their
// divergent branch, and the causes that occurred.
type Concretised struct {
	Events       int     `json:"events"`
	Divergences  int     `json:"divergences"`
	Unattributed int     `json:"unattributed_divergences"`
	Causes       []Cause `json:"causes"`
}

// Cause is one cause of concretisation in a run: its events, the
// executions with one, the divergent executions with one before their
// divergent branch, and the places with most events.
type Cause struct {
	Cause       string         `json:"cause"`
	Description string         `json:"description"`
	Events      int            `json:"events"`
	Executions  int            `json:"executions"`
	Divergences int            `json:"divergences"`
	Sites       []ConcreteSite `json:"sites"`
}

// ConcreteSite is one place where a run made values concrete.
type ConcreteSite struct {
	Pos         string `json:"pos"` // file:line, the file an absolute path; "" when unknown
	Func        string `json:"func"`
	Expr        string `json:"expr"`
	Events      int    `json:"events"`
	Executions  int    `json:"executions"`
	Divergences int    `json:"divergences"`
}

// Branches is the branch-outcome coverage of a run.
type Branches struct {
	Covered int    `json:"covered"`
	Total   int    `json:"total"`
	Sites   []Site `json:"sites"`
}

// Site is one condition of the target package: its two outcomes and
// whether the run covered each.
type Site struct {
	ID    uint32 `json:"id"`
	Pos   string `json:"pos"` // file:line:column, the file an absolute path
	Func  string `json:"func"`
	Cond  string `json:"cond"`
	True  bool   `json:"true"`
	False bool   `json:"false"`
}

// Bug is one distinct finding of a run.
type Bug struct {
	Kind       string            `json:"kind"`
	Message    string            `json:"message"`
	Inputs     map[string]string `json:"inputs"`
	Call       string            `json:"call"`
	Count      int               `json:"count"`
	FoundMS    int64             `json:"found_ms"`
	Minimized  bool              `json:"minimized"`
	Reproducer string            `json:"reproducer"`
	Stack      string            `json:"stack"`
}

// Solver counts the solver queries of a run.
type Solver struct {
	Queries int     `json:"queries"`
	Sat     int     `json:"sat"`
	Unsat   int     `json:"unsat"`
	Unknown int     `json:"unknown"`
	TimeMS  int64   `json:"time_ms"`
	Layers  []Layer `json:"layers"`
}

// Layer counts the queries one layer of the solver chain answered or
// passed on.
type Layer struct {
	Name    string `json:"name"`
	Queries int    `json:"queries"`
	Sat     int    `json:"sat"`
	Unsat   int    `json:"unsat"`
	Unknown int    `json:"unknown"`
	TimeMS  int64  `json:"time_ms"`
}

// Point is one sample of a run's progress, taken when something changed.
type Point struct {
	MS       int64 `json:"ms"`
	Execs    int   `json:"execs"`
	Covered  int   `json:"covered"`
	Paths    int   `json:"paths"`
	Findings int   `json:"bugs"`
}

// Setting returns a setting of the run's configuration as text: a string
// as it is, a number or a boolean as JSON writes it, "" when missing.
func (r *Report) Setting(key string) string {
	raw, ok := r.Config[key]
	if !ok {
		return ""
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return ""
	}
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return string(raw)
}

// Load reads the run directory dir: its report.json, and whether it has a
// coverage profile. The error names the file at fault.
func Load(dir string) (*Run, error) {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("run directory %s does not exist", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("run directory %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory (want a run directory of gocolic test -rundir)", dir)
	}
	path := filepath.Join(dir, ReportFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file (is %s a run directory of gocolic test -rundir?)", path, dir)
	}
	if err != nil {
		return nil, err
	}
	run := &Run{Dir: dir}
	if err := parseReport(data, &run.Report); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	profile := filepath.Join(dir, ProfileFile)
	if st, err := os.Stat(profile); err == nil && st.Mode().IsRegular() {
		run.Profile = profile
	}
	return run, nil
}

// parseReport decodes a JSON report, which must be an object.
func parseReport(data []byte, r *Report) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return errors.New("malformed JSON report: not a JSON object")
	}
	if err := json.Unmarshal(trimmed, r); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("malformed JSON report at byte %d: %v", se.Offset, err)
		}
		return fmt.Errorf("malformed JSON report: %v", err)
	}
	return nil
}
