// This file writes a run directory (-rundir): the JSON report, the time
// series and the coverage profile of one run, kept together so that
// `gocolic report` can draw them again and compare runs.

package session

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/report"
	"github.com/gocolic/gocolic/solver"
)

// writeRunDir fills cfg.RunDir. profile, if not nil, writes the run's
// coverage profile to the path it is given; its failure leaves the rest
// of the directory complete.
func writeRunDir(cfg Config, command Command, moduleDir string, t *Entry, rep *coordinator.Report, chains []solver.Solver, out *Outcome, profile func(dst string) error) error {
	if err := os.MkdirAll(cfg.RunDir, 0o755); err != nil {
		return fmt.Errorf("creating run directory: %w", err)
	}
	var errs []error
	if profile != nil {
		errs = append(errs, profile(filepath.Join(cfg.RunDir, report.ProfileFile)))
	}
	var csv bytes.Buffer
	csv.WriteString("ms,execs,covered,paths,bugs\n")
	for _, p := range timeline(rep) {
		fmt.Fprintf(&csv, "%d,%d,%d,%d,%d\n", p.MS, p.Execs, p.Covered, p.Paths, p.Findings)
	}
	errs = append(errs, writeAtomic(filepath.Join(cfg.RunDir, report.TimelineFile), csv.Bytes()))
	errs = append(errs, writeJSON(filepath.Join(cfg.RunDir, report.ReportFile), cfg, command, moduleDir, t, rep, chains, out))
	return errors.Join(errs...)
}

// copyFile copies a file atomically.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("copying %s: %w", src, err)
	}
	return writeAtomic(dst, data)
}

// coverRun runs go test -count=1 on pkgPath in moduleDir with args, writing
// the statement coverage profile to profile, and returns go test's output.
// A failing test still writes a complete profile; only a missing one is
// an error (what names what was replayed, for the message).
func coverRun(moduleDir, pkgPath, profile, what string, args ...string) ([]byte, error) {
	args = append(append([]string{"test", "-count=1", "-coverprofile", profile}, args...), pkgPath)
	cmd := exec.Command("go", args...)
	cmd.Dir = moduleDir
	out, err := cmd.CombinedOutput()
	if _, statErr := os.Stat(profile); statErr != nil {
		return out, fmt.Errorf("replaying %s for coverage failed: %v\n%s", what, err, bytes.TrimSpace(out))
	}
	return out, nil
}

// fuzzProfile replays the fuzz target's seed corpus (f.Add and
// testdata/fuzz, where gocolic wrote its inputs) under go test -cover and
// writes the statement coverage profile to out. An entry that panics or
// hangs ends the test binary before it writes its counters: the run's
// findings that hung (timeouts) are skipped from the start, since each
// would hold the replay for go test's whole -timeout, and any other
// entry that ends the binary, by a panic or by the replay's own time
// bound, is skipped on the next attempt, until the profile is complete.
func fuzzProfile(moduleDir string, t *Entry, rep *coordinator.Report, out string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	tmp := abs + ".tmp"
	var skip []string
	for _, f := range rep.SortedFindings() {
		if f.Kind == string(coordinator.CrashTimeout) {
			_, name := corpusFile(f.Input, t)
			skip = append(skip, name)
		}
	}
	for attempt := 0; ; attempt++ {
		args := []string{"-run", "^" + t.Func + "$", "-timeout", replayTimeout.String()}
		if len(skip) > 0 {
			args = append(args, "-skip", "^"+t.Func+"$/^("+strings.Join(skip, "|")+")$")
		}
		outb, err := coverRun(moduleDir, t.PkgPath, tmp, "the corpus", args...)
		name := panicked(string(outb), t.Func)
		if err != nil && (name == "" || attempt == maxSkips) {
			return err
		}
		if err == nil {
			data, err := os.ReadFile(tmp)
			if err != nil {
				return err
			}
			if bytes.Count(data, []byte("\n")) > 1 || name == "" || attempt == maxSkips {
				// A failing corpus entry fails the test; the profile is
				// still complete.
				return os.Rename(tmp, abs)
			}
		}
		skip = append(skip, regexp.QuoteMeta(name))
	}
}

// maxSkips bounds the replays of fuzzProfile.
const maxSkips = 16

// replayTimeout bounds one replay of the corpus for the coverage profile
// (go test -timeout): entries run at native speed, so a replay that takes
// this long holds an entry that hangs.
const replayTimeout = 2 * time.Minute

// panicked returns the name of the corpus entry that ended a go test run
// of fuzz target fn: the last subtest reported failing before a panic,
// or the one still running when go test's -timeout ended the binary; ""
// if there is none.
func panicked(out, fn string) string {
	i := strings.Index(out, "\npanic: ")
	if i < 0 {
		return ""
	}
	if strings.HasPrefix(out[i+1:], "panic: test timed out") {
		// panic: test timed out after 2m0s
		//	running tests:
		//		FuzzT/0b593286bc9994b2 (1m59s)
		prefix := fn + "/"
		for _, line := range strings.Split(out[i+1:], "\n")[1:] {
			line = strings.TrimSpace(line)
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				name, _, _ := strings.Cut(rest, " ")
				return name
			}
			if line != "running tests:" {
				break
			}
		}
		return ""
	}
	prefix := "--- FAIL: " + fn + "/"
	name := ""
	for _, line := range strings.Split(out[:i], "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			name, _, _ = strings.Cut(rest, " ")
		}
	}
	return name
}
