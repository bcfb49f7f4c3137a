package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	shared "github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/emit"
	schema "github.com/gocolic/gocolic/report"
)

// finding is a failure a tool reported.
type finding struct {
	Kind    string // panic, fail, or one of gocolic's crash kinds (timeout, memory, exit, fatal); crash for the fuzzer's "hung or terminated unexpectedly"
	Message string
}

func (f finding) String() string { return f.Kind + ": " + f.Message }

// fuzzRun is what one go test -fuzz run did.
type fuzzRun struct {
	err         error // the run failed for another reason than a finding
	timedOut    bool
	execs       int64
	execsPerSec float64 // executions over elapsed time, from the last progress line
	haveRate    bool
	finding     *finding
	failFile    string // the failing input it wrote (testdata/fuzz/FuzzXxx/NAME)
	raceNote    bool   // ended by Go's -fuzztime deadline race, not a failure
	corpus      []string
	entries     int // corpus entries it left (cache and testdata)
	wall        time.Duration
}

var (
	progressRE = regexp.MustCompile(`elapsed: (\w+), execs: (\d+) \(`)
	failFileRE = regexp.MustCompile(`Failing input written to (testdata/fuzz/\S+)`)
	// deadlineRaceRE matches the whole failure report of a go test -fuzz
	// run that Go's coordinator ended at its own -fuzztime deadline
	// (go.dev/issue/75804, Go 1.26).
	deadlineRaceRE = regexp.MustCompile(`(?m)^--- FAIL: Fuzz\w* \([0-9.]+s\)\n\s+context deadline exceeded\n`)
	fileLineRE     = regexp.MustCompile(`^[\w.-]+\.go:\d+: `)
)

// deadlineRace reports whether the output of a failed go test -fuzz run
// shows Go's end-of-fuzztime race rather than a failure of the target: the
// coordinator reports its own deadline as a failure and writes no failing
// input.
func deadlineRace(out []byte) bool {
	return deadlineRaceRE.Match(out) && !bytes.Contains(out, []byte("Failing input written to"))
}

// parseProgress returns the executions of the last progress line and the
// rate over the whole run, executions over elapsed time, which is how
// gocolic's report counts execs_per_sec. (The rate the line prints is that
// of the last interval only, 0/sec on the line printed when fuzzing stops.)
func parseProgress(out []byte) (execs int64, rate float64, haveRate bool) {
	for _, m := range progressRE.FindAllSubmatch(out, -1) {
		execs, _ = strconv.ParseInt(string(m[2]), 10, 64)
		if d, err := time.ParseDuration(string(m[1])); err == nil && d > 0 {
			rate, haveRate = float64(execs)/d.Seconds(), true
		}
	}
	return execs, rate, haveRate
}

// parseFuzzFailure returns what failed in the output of a go test -fuzz
// run that wrote a failing input: the first message under "--- FAIL:
// FuzzXxx".
func parseFuzzFailure(out []byte, fuzz string) finding {
	s := string(out)
	if strings.Contains(s, "fuzzing process hung or terminated unexpectedly") {
		msg := "fuzzing process hung or terminated unexpectedly"
		if i := strings.Index(s, msg); i >= 0 {
			rest := s[i+len(msg):]
			if l, _, _ := strings.Cut(strings.TrimLeft(rest, ": "), "\n"); strings.TrimSpace(l) != "" {
				msg += ": " + strings.TrimSpace(l)
			}
		}
		return finding{Kind: "crash", Message: msg}
	}
	i := strings.Index(s, "--- FAIL: "+fuzz+" (")
	if i < 0 {
		return finding{Kind: "fail", Message: "(no failure message found)"}
	}
	for _, l := range strings.Split(s[i:], "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "--- FAIL") {
			continue
		}
		l = fileLineRE.ReplaceAllString(l, "")
		if rest, ok := strings.CutPrefix(l, "panic: "); ok {
			rest = strings.TrimSuffix(strings.TrimSuffix(rest, " [recovered, repanicked]"), " [recovered]")
			return finding{Kind: "panic", Message: rest}
		}
		if strings.HasPrefix(l, "Failing input written") {
			break
		}
		return finding{Kind: "fail", Message: l}
	}
	return finding{Kind: "fail", Message: "(no failure message found)"}
}

// runFuzz runs go test -fuzz on h with a fresh cache directory, moves its
// corpus (cache entries and whatever it wrote to testdata) into dir, and
// reads its output.
func runFuzz(ctx context.Context, mod string, h harness, budget, limit time.Duration, workers int, dir string) fuzzRun {
	var f fuzzRun
	cache := filepath.Join(dir, "fuzzcache")
	os.RemoveAll(filepath.Join(mod, h.Dir, "testdata"))
	args := []string{"test", "-run", "^$", "-fuzz", "^" + h.Fuzz + "$", "-fuzztime", budget.String(),
		"-parallel", strconv.Itoa(workers), "./" + h.Dir,
		// A test-binary flag: after the package, with =.
		"-test.fuzzcachedir=" + cache}
	r := shared.RunEnv(ctx, limit, mod, filepath.Join(dir, "fuzz.log"), nil, "go", args...)
	f.wall, f.timedOut = r.Wall, r.TimedOut
	f.execs, f.execsPerSec, f.haveRate = parseProgress(r.Output)
	fail := failFileRE.FindSubmatch(r.Output)
	switch {
	case r.TimedOut:
		f.err = r.Err
	case fail != nil:
		f.failFile = string(fail[1])
		fd := parseFuzzFailure(r.Output, h.Fuzz)
		f.finding = &fd
	case r.Err != nil && deadlineRace(r.Output):
		f.raceNote = true
	case r.Err != nil:
		f.err = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), r.Err, shared.Tail(r.Output, 12))
	}
	for _, src := range []struct{ from, to string }{
		{filepath.Join(cache, h.Fuzz), filepath.Join(dir, "corpus-cache")},
		{filepath.Join(mod, h.Dir, "testdata", "fuzz", h.Fuzz), filepath.Join(dir, "corpus-testdata")},
	} {
		n, err := moveDir(src.from, src.to)
		if err != nil && f.err == nil {
			f.err = err
		}
		f.entries += n
		f.corpus = append(f.corpus, src.to)
	}
	os.RemoveAll(filepath.Join(mod, h.Dir, "testdata"))
	os.RemoveAll(cache)
	return f
}

// gocolicRun is what one gocolic fuzz or gocolic test run did.
type gocolicRun struct {
	status   string // ok, HANG, CRASH, exit N, no report
	detail   string // the end of its output, when status is not ok
	exitCode int
	rep      *schema.Report
	repErr   error
	corpus   []string // fuzz: the directory of its corpus entries; test: the test file it wrote
	entries  int      // fuzz: corpus entries; test: regression cases
	wall     time.Duration
}

// goPanicRE matches the start of a Go panic or fatal error in gocolic's
// own output (a crash of the tool, not of the target).
var goPanicRE = regexp.MustCompile(`(?m)^(panic: |fatal error: )`)

// classify names the outcome of a gocolic run from its exit status and
// output.
func classify(r shared.Result) string {
	switch {
	case r.TimedOut:
		return "HANG"
	case r.ExitCode == 0:
		return "ok"
	case goPanicRE.Match(r.Output) && bytes.Contains(r.Output, []byte("goroutine ")):
		return "CRASH"
	case r.ExitCode < 0:
		return "killed"
	default:
		return "exit " + strconv.Itoa(r.ExitCode)
	}
}

// runGocolic runs gocolic fuzz on h, moves the corpus it wrote into dir,
// and reads its report.
func runGocolic(ctx context.Context, mod, bin string, h harness, flags []string, limit time.Duration, dir string) gocolicRun {
	os.RemoveAll(filepath.Join(mod, h.Dir, "testdata"))
	g := runCommand(ctx, mod, bin, h, "fuzz", h.Fuzz, flags, limit, dir, "gocolic")
	to := filepath.Join(dir, "corpus-gocolic")
	n, err := moveDir(filepath.Join(mod, h.Dir, "testdata", "fuzz", h.Fuzz), to)
	if err != nil && g.detail == "" {
		g.detail = "moving its corpus: " + err.Error()
	}
	g.entries = n
	g.corpus = []string{to}
	os.RemoveAll(filepath.Join(mod, h.Dir, "testdata"))
	return g
}

// runCommand runs gocolic cmd (test or fuzz) on fn of h, its log and
// JSON report in dir under name, and classifies the run by its exit and
// its report.
func runCommand(ctx context.Context, mod, bin string, h harness, cmd, fn string, flags []string, limit time.Duration, dir, name string) gocolicRun {
	var g gocolicRun
	jsonPath := filepath.Join(dir, name+".json")
	os.Remove(jsonPath)
	args := append([]string{cmd}, flags...)
	args = append(args, "-json", jsonPath, "./"+h.Dir, fn)
	r := shared.RunEnv(ctx, limit, mod, filepath.Join(dir, name+".log"), h.GocolicEnv(), bin, args...)
	g.wall, g.exitCode = r.Wall, r.ExitCode
	g.status = classify(r)
	g.rep, g.repErr = readReport(jsonPath)
	if g.status == "ok" && g.rep == nil {
		g.status = "no report"
	}
	if g.status != "ok" {
		g.detail = shared.Tail(r.Output, 15)
	}
	return g
}

// findings returns the bugs of a gocolic report.
func (g gocolicRun) findings() []finding {
	if g.rep == nil {
		return nil
	}
	var out []finding
	for _, b := range g.rep.Bugs {
		out = append(out, finding{Kind: b.Kind, Message: b.Message})
	}
	return out
}

// runGocolicTest runs gocolic test on h.Check from zero values (no seeds,
// no testdata), moves the test file it wrote into dir, and reads its
// report. The run's corpus is that file.
func runGocolicTest(ctx context.Context, mod, bin string, h harness, flags []string, limit time.Duration, dir string) gocolicRun {
	pkgDir := filepath.Join(mod, h.Dir)
	generated := filepath.Join(pkgDir, emit.FileName(h.Check))
	os.RemoveAll(filepath.Join(pkgDir, "testdata"))
	os.Remove(generated)
	g := runCommand(ctx, mod, bin, h, "test", h.Check, flags, limit, dir, "gocolic-test")
	if g.rep != nil {
		g.entries = len(g.rep.Cases)
	}
	to := filepath.Join(dir, emit.FileName(h.Check))
	if err := os.Rename(generated, to); err == nil {
		g.corpus = []string{to}
	} else if !os.IsNotExist(err) && g.detail == "" {
		g.detail = "moving its test file: " + err.Error()
	}
	os.RemoveAll(filepath.Join(pkgDir, "testdata"))
	return g
}

// readReport reads a gocolic JSON report.
func readReport(path string) (*schema.Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rep schema.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &rep, nil
}
