// Package e2e runs the gocolic command as a user would: on copies of the
// bundled examples and on small targets written here, checking what it
// finds and that the tests it writes behave under plain go test.
package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocolic/gocolic/report"
)

// gocolic is the path of the command built once for all tests.
var gocolic string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gocolic-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	gocolic = filepath.Join(dir, "gocolic")
	cmd := exec.Command("go", "build", "-o", gocolic, "../cmd/gocolic")
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building gocolic: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// module makes a temporary module with the given files.
func module(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.24\n"
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// copyExamples copies the bundled examples into a temporary module, so
// that neither gocolic nor go test writes into the repository.
func copyExamples(t *testing.T) string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir("../examples", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("../examples", p)
		if strings.HasSuffix(rel, "_gocolic_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return module(t, files)
}

type result struct {
	code   int
	stderr string
}

// run runs a command in dir with a time limit.
func run(t *testing.T, dir string, limit time.Duration, name string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %v did not finish within %v:\n%s", name, args, limit, out.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return result{code, out.String()}
}

// generateTests runs gocolic test on each function of pkg in dir with a
// fixed seed, one worker, Z3 alone and a 20 s budget, so that it writes
// its test files, and fails t if a run does not exit 0.
func generateTests(t *testing.T, dir, pkg string, extra []string, fns ...string) {
	t.Helper()
	for _, fn := range fns {
		args := append([]string{"test", "-budget", "20s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-solver", "z3"}, extra...)
		res := run(t, dir, 2*time.Minute, gocolic, append(args, pkg, fn)...)
		if res.code != 0 {
			t.Fatalf("gocolic test %s exited %d:\n%s", fn, res.code, res.stderr)
		}
	}
}

// failingTests runs go test -v on pkg in dir and returns the names of the
// tests and subtests that failed, sorted, with go test's output.
func failingTests(t *testing.T, dir, pkg string) ([]string, string) {
	t.Helper()
	res := run(t, dir, 2*time.Minute, "go", "test", "-count=1", "-v", pkg)
	var names []string
	for _, m := range failLine.FindAllStringSubmatch(res.stderr, -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return names, res.stderr
}

var failLine = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)

// readReport reads a JSON report with the schema gocolic writes it in.
func readReport(t *testing.T, path string) *report.Report {
	t.Helper()
	r, err := report.ReadJSON(path)
	if err != nil {
		t.Fatalf("bad report: %v", err)
	}
	return r
}

var plantedRE = regexp.MustCompile(`// planted: (.+)`)

// TestExamples runs gocolic on every bundled example: it must reach every
// planted panic, and the file it writes must pass (regression cases) and
// fail with the panic message (reproducers) under go test.
func TestExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := copyExamples(t)
	examples := []struct{ pkg, fn string }{
		{"magic", "Identify"}, {"overflow", "FrameSize"}, {"keywords", "Setting"},
		{"header", "PayloadLen"}, {"checksum", "Handle"}, {"nested", "Price"},
		{"scanner", "Tokens"}, {"divzero", "MeanLevel"}, {"bits", "Decode"},
	}
	for _, ex := range examples {
		t.Run(ex.pkg, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, ex.pkg, ex.pkg+".go"))
			if err != nil {
				t.Fatal(err)
			}
			var planted []string
			for _, m := range plantedRE.FindAllStringSubmatch(string(src), -1) {
				planted = append(planted, strings.TrimSpace(m[1]))
			}
			if len(planted) == 0 {
				t.Fatalf("%s has no planted bug", ex.pkg)
			}
			js := filepath.Join(t.TempDir(), "r.json")
			// One worker and a fixed seed make the search deterministic,
			// so that a machine under load does not change what is found;
			// a long execution limit keeps a slow machine from turning an
			// execution into a timeout finding.
			res := run(t, dir, 3*time.Minute, gocolic, "test", "-budget", "90s", "-workers", "1", "-seed", "1", "-timeout", "10s",
				"-maxbugs", fmt.Sprint(len(planted)),
				"-json", js, "./"+ex.pkg, ex.fn)
			if res.code != 0 {
				t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
			}
			rep := readReport(t, js)
			for _, p := range planted {
				found := false
				for _, b := range rep.Bugs {
					found = found || strings.Contains(b.Message, p)
				}
				if !found {
					t.Errorf("planted bug %q not found; bugs: %+v\n%s", p, rep.Bugs, res.stderr)
				}
			}
			if rep.Tests == "" {
				t.Fatalf("no test file written:\n%s", res.stderr)
			}
			reg := run(t, dir, 2*time.Minute, "go", "test", "-count=1", "-run", "^TestGocolic"+ex.fn+"$", "./"+ex.pkg)
			if reg.code != 0 {
				t.Errorf("regression cases fail:\n%s", reg.stderr)
			}
			rep2 := run(t, dir, 2*time.Minute, "go", "test", "-count=1", "-v", "-run", "^TestGocolic"+ex.fn+"Crashes$", "./"+ex.pkg)
			if rep2.code == 0 {
				t.Errorf("reproducers pass, want them to fail:\n%s", rep2.stderr)
			}
			for _, p := range planted {
				if !strings.Contains(rep2.stderr, p) {
					t.Errorf("reproducer output lacks %q:\n%s", p, rep2.stderr)
				}
			}
		})
	}
}

// TestBadInput checks that each kind of bad input gets one clear error
// and exit status 2, and that nothing is written.
func TestBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{
		"ok/ok.go":       "package ok\n\nfunc F(x int) int { return x }\n\nfunc G(f func() int) int { return f() }\n\nfunc H(v any) bool { return v == nil }\n",
		"broken/b.go":    "package broken\n\nfunc F(x int) int { return y }\n",
		"empty/empty.go": "package empty\n",
	})
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"does not build", []string{"./broken", "F"}, "undefined: y"},
		{"unknown function", []string{"./ok", "Nope"}, "functions: F, G, H"},
		{"function parameter", []string{"./ok", "G"}, "parameter f of G has type func() int: functions are not supported"},
		{"interface without implementations", []string{"./ok", "H"}, "parameter v of H has type any: no type declared in package ok implements the interface"},
		{"no such method", []string{"./ok", "T.M"}, "has no type T"},
		{"no such package", []string{"./missing", "F"}, "missing"},
		{"no functions", []string{"./empty", "F"}, "no function F"},
		{"bad strategy", []string{"-strategy", "astar", "./ok", "F"}, "unknown strategy"},
		{"missing arguments", []string{"./ok"}, "usage: gocolic test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, dir, time.Minute, gocolic, append([]string{"test", "-budget", "2s"}, tt.args...)...)
			if res.code != 2 {
				t.Errorf("exit status %d, want 2:\n%s", res.code, res.stderr)
			}
			if !strings.Contains(res.stderr, tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, res.stderr)
			}
		})
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "*", "*_gocolic_test.go"))
	if len(matches) > 0 {
		t.Errorf("bad input left files: %v", matches)
	}
}

// TestHandWrittenFileKept checks that gocolic never overwrites a test
// file it did not generate.
func TestHandWrittenFileKept(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	const mine = "package ok\n\n// my own tests\n"
	dir := module(t, map[string]string{
		"ok/ok.go":             "package ok\n\nfunc F(x int) int {\n\tif x == 42 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n",
		"ok/f_gocolic_test.go": mine,
	})
	res := run(t, dir, time.Minute, gocolic, "test", "-budget", "5s", "./ok", "F")
	if res.code == 0 {
		t.Errorf("gocolic succeeded over a hand-written file:\n%s", res.stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "ok", "f_gocolic_test.go"))
	if err != nil || string(b) != mine {
		t.Errorf("hand-written file changed: %q, %v", b, err)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startExploring starts gocolic with args in dir (with env, if not nil)
// and returns once it explores: at its first progress line.
func startExploring(t *testing.T, dir string, env []string, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(gocolic, args...)
	cmd.Dir, cmd.Env = dir, env
	out := new(syncBuffer)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(out.String(), "execs:") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no progress line:\n%s", out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	return cmd, out
}

// TestInterrupt checks that Ctrl-C ends a run early and still writes what
// it found.
func TestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT")
	}
	dir := copyExamples(t)
	js := filepath.Join(t.TempDir(), "r.json")
	cmd, out := startExploring(t, dir, nil, "test", "-budget", "5m", "-json", js, "./scanner", "Tokens")
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("interrupted run failed: %v\n%s", err, out.String())
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("interrupted run did not stop:\n%s", out.String())
	}
	rep := readReport(t, js)
	if rep.Stopped != "interrupted" || rep.Executions == 0 {
		t.Errorf("report: stopped %q after %d executions", rep.Stopped, rep.Executions)
	}
	if _, err := os.Stat(filepath.Join(dir, "scanner", "tokens_gocolic_test.go")); err != nil {
		t.Errorf("no tests written after interrupt: %v", err)
	}
}
