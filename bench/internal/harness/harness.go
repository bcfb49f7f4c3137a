// Package harness holds what the benchmark programs under bench/ share:
// finding the repository, copying the examples into a throw-away module,
// building gocolic, running tools under a time limit (gocolic with its JSON
// report read through package report), and reading an example's target
// function, fuzz target and planted bugs from its source.
//
// Nothing here writes into the repository: every output goes to the
// temporary workspace.
package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/gocolic/gocolic/proc"
	"github.com/gocolic/gocolic/report"
)

// ModulePath is the module the benchmarks belong to.
const ModulePath = "github.com/gocolic/gocolic"

// RepoRoot returns the root of the gocolic checkout: the nearest directory
// above the working directory whose go.mod declares ModulePath.
func RepoRoot() (string, error) {
	return ModuleRoot(ModulePath, "run from the repository root (go run ./bench/...)")
}

// ModuleRoot returns the nearest directory at or above the working
// directory whose go.mod declares module path; hint, in the error when
// there is none, says where to run from.
func ModuleRoot(path, hint string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if Declares(filepath.Join(dir, "go.mod"), path) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the module %s: %s", path, hint)
		}
		dir = parent
	}
}

// Declares reports whether the go.mod file at gomod declares module path.
func Declares(gomod, path string) bool {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) == 2 && f[0] == "module" && strings.Trim(f[1], `"`) == path {
			return true
		}
	}
	return false
}

// Workspace is a temporary directory holding a copy of the examples as a
// module of its own and the gocolic binary.
type Workspace struct {
	Dir    string // root of the temporary directory
	Module string // the examples module: Dir/ex
	// ModulePath is the examples module's path, example.com/ followed by
	// the workspace directory's name: unique to the workspace, so that the
	// corpus cache go test -fuzz keeps under $GOCACHE/fuzz/<package path>
	// is never shared with another run, of this benchmark or of anything
	// else.
	ModulePath string
	Bin        string // the gocolic binary
	Logs       string // tool outputs, one file per run
	// FuzzRoot is $(go env GOCACHE)/fuzz, "" if go env failed.
	FuzzRoot string
}

// NewWorkspace copies root/examples into a fresh temporary module and
// builds gocolic from root into it. Generated tests, corpora and testdata
// from earlier runs are not copied.
func NewWorkspace(ctx context.Context, root string) (*Workspace, error) {
	return NewWorkspaceOf(ctx, root, "examples")
}

// NewWorkspaceOf is NewWorkspace for another directory of root holding
// one example package per subdirectory (such as bench/walk/corpus).
func NewWorkspaceOf(ctx context.Context, root, set string) (*Workspace, error) {
	dir, err := os.MkdirTemp("", "gocolic-bench-")
	if err != nil {
		return nil, fmt.Errorf("creating the workspace: %w", err)
	}
	w := &Workspace{
		Dir:        dir,
		Module:     filepath.Join(dir, "ex"),
		ModulePath: WorkspaceModulePath(dir),
		Bin:        filepath.Join(dir, "bin", "gocolic"),
		Logs:       filepath.Join(dir, "logs"),
	}
	if out, err := exec.CommandContext(ctx, "go", "env", "GOCACHE").Output(); err == nil && len(bytes.TrimSpace(out)) > 0 {
		w.FuzzRoot = filepath.Join(string(bytes.TrimSpace(out)), "fuzz")
	}
	if err := os.MkdirAll(w.Logs, 0o755); err != nil {
		return nil, err
	}
	if err := copyExamples(filepath.Join(root, filepath.FromSlash(set)), w.Module); err != nil {
		w.Remove()
		return nil, err
	}
	gomod := "module " + w.ModulePath + "\n\ngo 1.24\n"
	if err := os.WriteFile(filepath.Join(w.Module, "go.mod"), []byte(gomod), 0o644); err != nil {
		w.Remove()
		return nil, err
	}
	r := Run(ctx, 5*time.Minute, root, w.LogPath("build-gocolic"), "go", "build", "-o", w.Bin, "./cmd/gocolic")
	if r.Err != nil {
		w.Remove()
		return nil, fmt.Errorf("building gocolic: %w\n%s", r.Err, Tail(r.Output, 20))
	}
	return w, nil
}

// Remove deletes the workspace, and whatever go test -fuzz kept in its
// cache for the workspace's module.
func (w *Workspace) Remove() {
	os.RemoveAll(w.Dir)
	if d := w.ModuleFuzzCache(); d != "" {
		os.RemoveAll(d)
	}
}

// LogPath returns the path of the log file called name.
func (w *Workspace) LogPath(name string) string { return filepath.Join(w.Logs, name+".log") }

// copyExamples copies the Go sources of src into dst, leaving out testdata
// directories and generated gocolic tests so that every run starts clean.
func copyExamples(src, dst string) error {
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("examples directory: %w", err)
	}
	return CopyTree(src, dst,
		func(dir string) bool { return dir == "testdata" },
		func(file string) bool {
			return strings.HasSuffix(file, ".go") && !strings.HasSuffix(file, "_gocolic_test.go")
		})
}

// CopyTree copies the regular files under src that keep accepts (by
// name) to the same places under dst, leaving out the directories below
// src that skip accepts (by name).
func CopyTree(src, dst string, skip, keep func(name string) bool) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			if rel != "." && skip(d.Name()) {
				return filepath.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() || !keep(d.Name()) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// ExampleNames lists the examples of the workspace, or checks the names of
// a comma-separated list.
func (w *Workspace) ExampleNames(list string) ([]string, error) {
	if list != "" {
		var names []string
		for _, n := range strings.Split(list, ",") {
			n = strings.TrimSpace(n)
			if n == "" {
				continue
			}
			if st, err := os.Stat(filepath.Join(w.Module, n)); err != nil || !st.IsDir() {
				return nil, fmt.Errorf("no example %q under examples/", n)
			}
			names = append(names, n)
		}
		return names, nil
	}
	entries, err := os.ReadDir(w.Module)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// Result is the outcome of one command.
type Result struct {
	Output   []byte // stdout and stderr, interleaved
	Err      error  // nil if the command exited with status 0
	ExitCode int    // -1 if it did not exit by itself (killed, not started)
	TimedOut bool   // killed at its own limit, not because ctx ended
	Wall     time.Duration
}

// Run runs a command in dir with a time limit, and writes its output to
// logPath as well (if not empty). At the limit, or when ctx is cancelled,
// the command's whole process group is killed: go test runs the test
// binary and the fuzzer's workers as children, and gocolic its workers,
// which killing the parent alone would leave running.
func Run(ctx context.Context, limit time.Duration, dir, logPath, name string, args ...string) Result {
	return RunEnv(ctx, limit, dir, logPath, nil, name, args...)
}

// RunEnv is Run with env added to the command's environment.
func RunEnv(ctx context.Context, limit time.Duration, dir, logPath string, env []string, name string, args ...string) Result {
	lctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := proc.CommandContext(lctx, name, args...)
	cmd.Dir = dir
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := Result{Output: out.Bytes(), Err: err, ExitCode: -1, Wall: time.Since(start)}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.ExitCode = ee.ExitCode()
	} else if err == nil {
		r.ExitCode = 0
	}
	if lctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		r.TimedOut = true
		r.Err = fmt.Errorf("%s did not finish within %v and was killed", name, limit)
	}
	if logPath != "" {
		header := fmt.Sprintf("$ (cd %s && %s %s)\n", dir, name, strings.Join(args, " "))
		footer := fmt.Sprintf("\n[exit: %v, wall %v]\n", err, r.Wall.Round(time.Millisecond))
		_ = os.WriteFile(logPath, []byte(header+out.String()+footer), 0o644)
	}
	return r
}

// Tail returns the last n non-empty lines of out, for error messages.
func Tail(out []byte, n int) string {
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Gocolic runs `gocolic test` in the workspace module with the given flags
// on ./name Func, writing its JSON report to jsonPath, and reads the
// report. A run that fails but still wrote its report returns both the
// report and the error.
func (w *Workspace) Gocolic(ctx context.Context, limit time.Duration, logName, jsonPath string, flags []string, name, fn string) (*report.Report, Result, error) {
	args := append([]string{"test"}, flags...)
	args = append(args, "-notests", "-json", jsonPath, "./"+name, fn)
	return w.gocolic(ctx, limit, logName, jsonPath, args)
}

// GocolicFuzz runs `gocolic fuzz` in the workspace module with the given
// flags on ./name FuzzXxx, like Gocolic. Its corpus entries go to the
// package's testdata/fuzz/FuzzXxx in the workspace.
func (w *Workspace) GocolicFuzz(ctx context.Context, limit time.Duration, logName, jsonPath string, flags []string, name, target string) (*report.Report, Result, error) {
	args := append([]string{"fuzz"}, flags...)
	args = append(args, "-json", jsonPath, "./"+name, target)
	return w.gocolic(ctx, limit, logName, jsonPath, args)
}

func (w *Workspace) gocolic(ctx context.Context, limit time.Duration, logName, jsonPath string, args []string) (*report.Report, Result, error) {
	// gocolic does not make the report's directory: a run whose first
	// contender was a replay found none.
	if err := os.MkdirAll(filepath.Dir(jsonPath), 0o755); err != nil {
		return nil, Result{}, fmt.Errorf("report directory: %w", err)
	}
	os.Remove(jsonPath)
	r := Run(ctx, limit, w.Module, w.LogPath(logName), w.Bin, args...)
	rep, rerr := report.ReadJSON(jsonPath)
	switch {
	case r.Err != nil && rerr != nil:
		return nil, r, fmt.Errorf("gocolic %s: %w\n%s", strings.Join(args, " "), r.Err, Tail(r.Output, 10))
	case r.Err != nil:
		return rep, r, fmt.Errorf("gocolic %s: %w (report written anyway)\n%s", strings.Join(args, " "), r.Err, Tail(r.Output, 10))
	case rerr != nil:
		return nil, r, rerr
	}
	return rep, r, nil
}

// plantedRE matches the comment that marks a planted bug; its text is a
// substring of the bug's panic message.
var plantedRE = regexp.MustCompile(`^\s*// planted: (.+?)\s*$`)

// Planted returns the planted-bug markers in the non-test Go files of dir.
func Planted(dir string) ([]string, error) {
	files, err := goFiles(dir, false)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(data), "\n") {
			if m := plantedRE.FindStringSubmatch(line); m != nil {
				out = append(out, m[1])
			}
		}
	}
	return out, nil
}

// MatchPlanted splits bug messages into the planted bugs they show (each
// planted marker at most once, in the order of planted) and the messages
// that match no marker.
func MatchPlanted(planted, messages []string) (found, other []string) {
	hit := map[string]bool{}
	for _, m := range messages {
		matched := false
		for _, p := range planted {
			if strings.Contains(m, p) {
				hit[p] = true
				matched = true
			}
		}
		if !matched {
			other = append(other, m)
		}
	}
	for _, p := range planted {
		if hit[p] {
			found = append(found, p)
		}
	}
	return found, other
}

// goFiles lists the .go files of dir: the test files if tests, the others
// otherwise.
func goFiles(dir string, tests bool) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") != tests {
			continue
		}
		out = append(out, filepath.Join(dir, n))
	}
	if len(out) == 0 {
		return nil, errors.New("no Go files in " + dir)
	}
	return out, nil
}

// Commit returns the repository's commit, with "+dirty" when the work
// tree has changes, or "" when git cannot tell.
func Commit(ctx context.Context, root string) string {
	out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return ""
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.CommandContext(ctx, "git", "-C", root, "status", "--porcelain").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c += "+dirty"
	}
	return c
}
