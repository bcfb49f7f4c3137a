// Package state is the saved state of a generated test suite: what
// `gocolic test` and `gocolic fuzz` leave beside the tests they write, so
// that `gocolic update` can maintain the suite after a code change by
// re-running the saved inputs instead of solving for them again (seed 003,
// incremental symbolic execution with ranges).
//
// A state file holds one input for each distinct path the run explored,
// with that path as the sequence of branch directions it took, in
// exploration order; the settings that fix the path space (strategy,
// depth bound, seed, length bound); a fingerprint of every function of the
// package; and what the run spent. The file is JSON under the package's
// testdata/gocolic/<func>.state.json, meant to be committed with the
// generated tests.
package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Version is the state format this package reads and writes. A file of
// another version is refused whole: its paths and keys may mean something
// else. Version 2 added Settings; version 3 hashes conditions node by node
// (CondHasher), which gives other hashes than the wire encoding did.
const Version = 3

// Dir is the directory of state files, relative to the package's.
const Dir = "testdata/gocolic"

// FileName returns the state file's name for the function (or fuzz
// target) fn, as session names it (Type_Method for methods).
func FileName(fn string) string { return fn + ".state.json" }

// Path returns the state file of fn in the package directory pkgDir.
func Path(pkgDir, fn string) string {
	return filepath.Join(pkgDir, filepath.FromSlash(Dir), FileName(fn))
}

// State is one saved suite.
type State struct {
	Version int    `json:"version"`
	Command string `json:"command"` // test or fuzz
	Package string `json:"package"`
	Func    string `json:"func"`
	// Target is the function as the command was given it: Type.Method
	// or (*Type).Method where Func is Type_Method.
	Target string `json:"target"`
	// The settings that fix the explored path space: an update explores
	// with the same ones.
	Strategy string `json:"strategy"`
	MaxDepth int    `json:"maxdepth"` // 0: unbounded
	Seed     int64  `json:"seed"`
	MaxLen   int    `json:"maxlen"`
	MaxElems int    `json:"maxelems"`
	// Settings are the other settings that shape the path space: what is
	// instrumented and which calls become terms.
	Settings Settings `json:"settings"`
	// Params describes the input layout (one entry per runtime input, see
	// session): the saved inputs mean nothing for another layout.
	Params []string `json:"params"`
	// Exhausted says the saved run explored every branch side it could
	// reach up to the depth bound: a side it left untaken was refuted
	// (or given up) by the solver, not merely never tried.
	Exhausted bool `json:"exhausted"`
	// Funcs maps each function of the package (Name, or Recv.Name for a
	// method) to its Fingerprint.
	Funcs map[string]string `json:"funcs"`
	// Inputs are the kept inputs, one per distinct path, in the order the
	// run first took their paths.
	Inputs []Input `json:"inputs"`
	// Spent is what the saved run cost.
	Spent Spent `json:"spent"`
}

// Settings are the run's settings, beyond the bounds, that change which
// branches are symbolic and what their conditions are: a path saved under
// other settings is another path. An update explores with the saved ones.
type Settings struct {
	// Stdlib, Instrument and Impure are gocolic's -stdlib, -instrument
	// and -impure: which packages are instrumented, which calls stay
	// concrete.
	Stdlib     bool     `json:"stdlib"`
	Instrument []string `json:"instrument"`
	Impure     []string `json:"impure"`
	// Solver is the -solver mode: any but z3 makes the calls of
	// uninstrumented functions opaque terms of the conditions.
	Solver string `json:"solver"`
}

// Input is one saved input and the path it took.
type Input struct {
	// Values are the input's runtime values, one per input of the layout,
	// each as its line of a go test fuzz v1 file (package corpus).
	Values []string `json:"values"`
	// Path is the branch-direction sequence of the execution, up to the
	// depth bound. An input whose execution crashed the worker has none.
	Path []Step `json:"path"`
	// Results are the literals of the function's results the generated
	// tests compare (empty for a result not pinned), or the finding the
	// input failed with ("panic: msg").
	Results []string `json:"results,omitempty"`
}

// Step is one branch of a path: the site's stable key, the direction
// taken, and a hash of the branch condition's term.
type Step struct {
	Site  string
	Taken bool
	Cond  string
}

// String returns the step as the state file writes it: "T site cond" or
// "F site cond".
func (s Step) String() string {
	d := "F"
	if s.Taken {
		d = "T"
	}
	return d + " " + s.Site + " " + s.Cond
}

// MarshalJSON writes the step as its String, to keep long paths short.
func (s Step) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (s *Step) UnmarshalJSON(data []byte) error {
	var str string
	if err := json.Unmarshal(data, &str); err != nil {
		return err
	}
	f := strings.Fields(str)
	if len(f) != 3 || (f[0] != "T" && f[0] != "F") {
		return fmt.Errorf("bad path step %q", str)
	}
	*s = Step{Taken: f[0] == "T", Site: f[1], Cond: f[2]}
	return nil
}

// Spent is what a run cost: executions, solver queries and time.
type Spent struct {
	Executions int   `json:"executions"`
	Queries    int   `json:"queries"`
	ElapsedMS  int64 `json:"elapsed_ms"`
}

// Encode returns the state file's content.
func Encode(st *State) ([]byte, error) {
	if st.Version != Version {
		return nil, fmt.Errorf("state: encoding a state of version %d (this gocolic writes %d)", st.Version, Version)
	}
	data, err := json.MarshalIndent(st, "", "\t")
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	return append(data, '\n'), nil
}

// ErrVersion marks a state file of another format version.
var ErrVersion = errors.New("state file of another format version")

// Decode parses a state file. Anything but a complete state of this
// version is an error and no state: a truncated or corrupt file, unknown
// fields, a path step that does not parse, a missing function name.
func Decode(data []byte) (*State, error) {
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("corrupt state file: %w", err)
	}
	if head.Version == nil {
		return nil, errors.New("corrupt state file: no version")
	}
	if *head.Version != Version {
		return nil, fmt.Errorf("%w (%d; this gocolic reads %d): run gocolic test again", ErrVersion, *head.Version, Version)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	st := new(State)
	if err := dec.Decode(st); err != nil {
		return nil, fmt.Errorf("corrupt state file: %w", err)
	}
	if dec.More() {
		return nil, errors.New("corrupt state file: data after the state")
	}
	if st.Func == "" || st.Package == "" || st.Target == "" {
		return nil, errors.New("corrupt state file: no package or function")
	}
	if st.Settings.Solver == "" {
		return nil, errors.New("corrupt state file: no solver mode")
	}
	for i, in := range st.Inputs {
		if len(in.Values) != len(st.Params) {
			return nil, fmt.Errorf("corrupt state file: input %d has %d values for %d inputs", i+1, len(in.Values), len(st.Params))
		}
	}
	return st, nil
}

// Read reads and decodes the state file at path; its error is one line
// that names the file.
func Read(path string) (*State, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no suite state %s: run gocolic test (or fuzz) first", path)
		}
		return nil, fmt.Errorf("reading suite state: %w", err)
	}
	st, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return st, nil
}
