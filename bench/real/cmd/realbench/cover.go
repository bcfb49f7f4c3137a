package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	shared "github.com/gocolic/gocolic/bench/internal/harness"
)

// profile is the statement coverage of one package, read from a go test
// -coverprofile file: for each block (file:start,end), its statements and
// whether it ran.
type profile map[string]block

type block struct {
	stmts   int
	covered bool
}

// parseProfile reads a cover profile. Blocks that appear more than once
// (several test binaries) are counted once, covered if any line says so.
func parseProfile(r io.Reader) (profile, error) {
	p := profile{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	first := true
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if first {
			first = false
			if strings.HasPrefix(line, "mode:") {
				continue
			}
			return nil, fmt.Errorf("cover profile: no mode line")
		}
		// file.go:12.3,14.5 2 1
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("cover profile: bad line %q", line)
		}
		stmts, err1 := strconv.Atoi(f[1])
		count, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("cover profile: bad line %q", line)
		}
		b := p[f[0]]
		b.stmts = stmts
		b.covered = b.covered || count > 0
		p[f[0]] = b
	}
	return p, sc.Err()
}

// counts returns the covered and total statements of p.
func (p profile) counts() (covered, total int) {
	for _, b := range p {
		total += b.stmts
		if b.covered {
			covered += b.stmts
		}
	}
	return covered, total
}

// union returns the blocks covered by any of ps.
func union(ps ...profile) profile {
	u := profile{}
	for _, p := range ps {
		for k, b := range p {
			c := u[k]
			c.stmts = b.stmts
			c.covered = c.covered || b.covered
			u[k] = c
		}
	}
	return u
}

// coverage is the statement coverage of the target package by a corpus.
type coverage struct {
	prof     profile
	covered  int
	total    int
	inputs   int      // corpus entries replayed (f.Add seeds not counted)
	dropped  []string // entries left out because they kill the test binary
	err      error
	attempts int
}

func (c coverage) pct() float64 {
	if c.total == 0 {
		return 0
	}
	return 100 * float64(c.covered) / float64(c.total)
}

var (
	// failedEntryRE matches the subtest of a corpus entry that failed.
	failedEntryRE = regexp.MustCompile(`(?m)^\s*--- FAIL: (Fuzz\w*)/(\S+) \(`)
	// runningEntryRE matches an entry listed as running when go test's
	// -timeout fired.
	runningEntryRE = regexp.MustCompile(`(?m)^\s+(Fuzz\w*)/(\S+) \(\d`)
)

// replay measures the statement coverage of the target package by the
// corpus files in dirs: it copies them into the harness package's
// testdata/fuzz/FuzzXxx (which must not exist) and runs
//
//	go test -count=1 -run '^FuzzXxx$' -coverpkg=TARGET -coverprofile=P ./DIR
//
// which runs the f.Add seeds and every corpus file. An entry that panics
// or hangs kills the test binary before it writes its profile: such
// entries are moved out and the replay is run again, so their coverage is
// lost (the rest of a failing input's path is usually covered by others).
// An entry that fails with t.Fatal or t.Error does not stop the profile.
func replay(ctx context.Context, mod string, h harness, dirs []string, work, logBase string) coverage {
	var c coverage
	corpus := filepath.Join(mod, h.Dir, "testdata", "fuzz", h.Fuzz)
	defer os.RemoveAll(filepath.Join(mod, h.Dir, "testdata"))
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		c.err = err
		return c
	}
	for _, d := range dirs {
		n, err := shared.CopyFiles(d, corpus)
		if err != nil {
			c.err = err
			return c
		}
		c.inputs += n
	}
	prof := filepath.Join(work, logBase+".cover")
	// Each attempt drops the entries that killed the binary, usually
	// one: a corpus with many panicking entries (every distinct panic
	// gocolic found) needs as many attempts.
	for c.attempts = 1; c.attempts <= maxAttempts(c.inputs); c.attempts++ {
		os.Remove(prof)
		args := []string{"test", "-count=1", "-timeout", "3m", "-run", "^" + h.Fuzz + "$",
			"-coverpkg=" + h.Target, "-coverprofile=" + prof, "./" + h.Dir}
		r := shared.RunEnv(ctx, 5*time.Minute, mod, filepath.Join(work, fmt.Sprintf("%s.%d.log", logBase, c.attempts)), nil, "go", args...)
		if ctx.Err() != nil {
			c.err = ctx.Err()
			return c
		}
		if p, ok := readProfile(prof); ok {
			c.prof = p
			c.covered, c.total = p.counts()
			return c
		}
		// No profile: find the entries that killed the binary.
		var culprits []string
		for _, re := range []*regexp.Regexp{failedEntryRE, runningEntryRE} {
			for _, m := range re.FindAllStringSubmatch(string(r.Output), -1) {
				if m[1] != h.Fuzz {
					continue
				}
				name := m[2]
				if _, err := os.Stat(filepath.Join(corpus, name)); err == nil && !contains(culprits, name) {
					culprits = append(culprits, name)
				}
			}
		}
		if len(culprits) == 0 {
			c.err = fmt.Errorf("go %s wrote no profile: %v\n%s", strings.Join(args, " "), r.Err, shared.Tail(r.Output, 12))
			return c
		}
		for _, name := range culprits {
			os.Rename(filepath.Join(corpus, name), filepath.Join(work, logBase+".dropped."+name))
			c.dropped = append(c.dropped, name)
		}
	}
	c.err = fmt.Errorf("replay: still no profile after dropping %d entries", len(c.dropped))
	return c
}

// maxAttempts bounds the replays of a corpus of n entries: one per
// entry that may kill the binary, at least 8, at most 256 (a corpus
// of gocolic's with 134 entries, 60-odd of them distinct panics, needed
// more than 64).
func maxAttempts(n int) int { return min(max(8, n+1), 256) }

// moveDir moves the directory src (if it exists) to dst, which must not
// exist, and returns the number of regular files it held.
func moveDir(src, dst string) (int, error) {
	if _, err := os.Stat(src); os.IsNotExist(err) {
		return 0, nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return 0, err
	}
	if err := os.Rename(src, dst); err != nil {
		return 0, err
	}
	return shared.CountFiles(dst), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// failedSubtestRE matches a subtest of a generated test that failed:
// "--- FAIL: TestGocolicCheckX/name (".
var failedSubtestRE = regexp.MustCompile(`(?m)^\s*--- FAIL: (TestGocolic\w*)/(\S+) \(`)

// runningSubtestRE matches a subtest of a generated test listed as
// running when go test's -timeout fired.
var runningSubtestRE = regexp.MustCompile(`(?m)^\s+(TestGocolic\w*)/(\S+) \(\d`)

// generatedTests is the -run pattern of the tests gocolic test writes for
// fn: TestGocolic<fn>, the regression cases, and TestGocolic<fn>Crashes,
// one failing reproducer per panic or crash.
func generatedTests(fn string) string {
	return "^TestGocolic" + fn + "(Crashes)?$"
}

// skipPattern returns the -skip pattern that leaves out the subtests
// named in skip, as test/subtest, or "" if there are none. go test
// matches a pattern level by level, so a subtest named in one test is
// also skipped in the other if it has the same name there.
func skipPattern(skip []string) string {
	if len(skip) == 0 {
		return ""
	}
	var tests, subs []string
	for _, s := range skip {
		t, sub, _ := strings.Cut(s, "/")
		if t = regexp.QuoteMeta(t); !contains(tests, t) {
			tests = append(tests, t)
		}
		subs = append(subs, regexp.QuoteMeta(sub))
	}
	return "^(" + strings.Join(tests, "|") + ")$/^(" + strings.Join(subs, "|") + ")$"
}

// killers returns the subtests of generated tests, as test/subtest, that
// the output of a go test run which wrote no profile shows failed or
// still running, and that skip does not hold yet.
func killers(out []byte, skip []string) []string {
	var found []string
	for _, re := range []*regexp.Regexp{failedSubtestRE, runningSubtestRE} {
		for _, m := range re.FindAllSubmatch(out, -1) {
			name := string(m[1]) + "/" + string(m[2])
			if !contains(skip, name) && !contains(found, name) {
				found = append(found, name)
			}
		}
	}
	return found
}

// replayTests measures the statement coverage of the target package by
// the test file gocolic test wrote for h.Check (file, "" if it wrote
// none): it copies the file into the harness package and runs
//
//	go test -count=1 -run '^TestGocolicCheckXxx(Crashes)?$' -coverpkg=TARGET -coverprofile=P ./DIR
//
// which runs neither the fuzz targets nor their seeds. The reproducers of
// TestGocolicCheckXxxCrashes fail by design (they pin the panics gocolic
// found), in process under a recover, or in a child process for crashes
// that would kill the binary, so the test binary lives on and writes its
// profile. Should a subtest kill it anyway (a case that hangs or crashes
// when replayed), it is skipped by name (-skip) and the replay run again.
func replayTests(ctx context.Context, mod string, h harness, file, work, logBase string) coverage {
	var c coverage
	if file != "" {
		dst := filepath.Join(mod, h.Dir, filepath.Base(file))
		data, err := os.ReadFile(file)
		if err == nil {
			err = os.WriteFile(dst, data, 0o644)
		}
		if err != nil {
			c.err = err
			return c
		}
		defer os.Remove(dst)
		c.inputs = 1
	}
	prof := filepath.Join(work, logBase+".cover")
	// Each attempt drops the entries that killed the binary, usually
	// one: a corpus with many panicking entries (every distinct panic
	// gocolic found) needs as many attempts.
	for c.attempts = 1; c.attempts <= maxAttempts(c.inputs); c.attempts++ {
		os.Remove(prof)
		args := []string{"test", "-count=1", "-timeout", "3m", "-run", generatedTests(h.Check)}
		if p := skipPattern(c.dropped); p != "" {
			args = append(args, "-skip", p)
		}
		args = append(args, "-coverpkg="+h.Target, "-coverprofile="+prof, "./"+h.Dir)
		r := shared.RunEnv(ctx, 5*time.Minute, mod, filepath.Join(work, fmt.Sprintf("%s.%d.log", logBase, c.attempts)), nil, "go", args...)
		if ctx.Err() != nil {
			c.err = ctx.Err()
			return c
		}
		if p, ok := readProfile(prof); ok {
			c.prof = p
			c.covered, c.total = p.counts()
			return c
		}
		culprits := killers(r.Output, c.dropped)
		if len(culprits) == 0 {
			c.err = fmt.Errorf("go %s wrote no profile: %v\n%s", strings.Join(args, " "), r.Err, shared.Tail(r.Output, 12))
			return c
		}
		c.dropped = append(c.dropped, culprits...)
	}
	c.err = fmt.Errorf("replay: still no profile after skipping %d subtests", len(c.dropped))
	return c
}

// readProfile reads the cover profile at path, if it exists and holds
// blocks.
func readProfile(path string) (profile, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	p, err := parseProfile(f)
	return p, err == nil && len(p) > 0
}
