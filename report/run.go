// Package report owns gocolic's JSON report: its one schema (Report, and
// the file names of a run directory), which gocolic writes and every
// reader decodes, and the page that renders the run directories gocolic
// test and gocolic fuzz leave with -rundir as one self-contained HTML
// page: a summary of each run, a plot of branch outcomes covered over
// time, the findings, and the source annotated with the branch outcomes
// the runs reached.
//
// The page needs nothing but a browser: its CSS and its plot (SVG) are
// inline, and it loads nothing from the network.
package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	rep, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	run := &Run{Dir: dir, Report: *rep}
	profile := filepath.Join(dir, ProfileFile)
	if st, err := os.Stat(profile); err == nil && st.Mode().IsRegular() {
		run.Profile = profile
	}
	return run, nil
}
