package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	shared "github.com/gocolic/gocolic/bench/internal/harness"
	schema "github.com/gocolic/gocolic/report"
)

func TestParseProfile(t *testing.T) {
	in := `mode: set
example.com/p/a.go:3.10,5.2 2 1
example.com/p/a.go:5.2,7.3 3 0
example.com/p/b.go:1.1,2.2 5 0
example.com/p/b.go:1.1,2.2 5 1
`
	p, err := parseProfile(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if cov, tot := p.counts(); cov != 7 || tot != 10 {
		t.Fatalf("counts = %d/%d, want 7/10", cov, tot)
	}
	q, err := parseProfile(strings.NewReader("mode: set\nexample.com/p/a.go:5.2,7.3 3 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cov, tot := union(p, q).counts(); cov != 10 || tot != 10 {
		t.Fatalf("union counts = %d/%d, want 10/10", cov, tot)
	}
	if _, err := parseProfile(strings.NewReader("a.go:1.1,2.2 1 1\n")); err == nil {
		t.Fatal("a profile without a mode line was accepted")
	}
	if _, err := parseProfile(strings.NewReader("mode: set\na.go:1.1,2.2 x 1\n")); err == nil {
		t.Fatal("a bad line was accepted")
	}
}

func TestParseProgress(t *testing.T) {
	out := []byte(`fuzz: elapsed: 0s, gathering baseline coverage: 0/2 completed
fuzz: elapsed: 3s, execs: 90000 (30000/sec), new interesting: 4 (total: 6)
fuzz: elapsed: 6s, execs: 190000 (33333/sec), new interesting: 5 (total: 7)
fuzz: elapsed: 6s, execs: 190010 (0/sec), new interesting: 5 (total: 7)
PASS`)
	execs, r, ok := parseProgress(out)
	if execs != 190010 || r != 190010.0/6 || !ok {
		t.Fatalf("parseProgress = %d, %v, %v", execs, r, ok)
	}
	if _, r, _ := parseProgress([]byte("fuzz: elapsed: 1m0s, execs: 600 (7/sec), new interesting: 0 (total: 1)\n")); r != 10 {
		t.Fatalf("rate over 1m0s = %v, want 10", r)
	}
	if _, _, ok := parseProgress([]byte("PASS\n")); ok {
		t.Fatal("a rate without progress lines")
	}
}

func TestDeadlineRace(t *testing.T) {
	race := []byte("fuzz: elapsed: 10s, execs: 5 (0/sec)\n--- FAIL: FuzzX (10.01s)\n    context deadline exceeded\nFAIL\n")
	if !deadlineRace(race) {
		t.Fatal("the deadline race was not recognised")
	}
	real := append(append([]byte(nil), race...), "    Failing input written to testdata/fuzz/FuzzX/abc\n"...)
	if deadlineRace(real) {
		t.Fatal("a failure with a failing input was taken for the deadline race")
	}
}

func TestParseFuzzFailure(t *testing.T) {
	cases := []struct {
		out  string
		want finding
	}{
		{`fuzz: elapsed: 0s, gathering baseline coverage: 0/2 completed
--- FAIL: FuzzParse (0.69s)
    --- FAIL: FuzzParse (0.00s)
        uuid_test.go:22: Parse("x") error <nil>, Validate error bad

    Failing input written to testdata/fuzz/FuzzParse/42b4246d3ccdd8ae
`, finding{"fail", `Parse("x") error <nil>, Validate error bad`}},
		{`--- FAIL: FuzzFormatFloat (2.35s)
    --- FAIL: FuzzFormatFloat (0.00s)
        testing.go:1974: panic: runtime error: index out of range [10] with length 10 [recovered]
            goroutine 25 [running]:
`, finding{"panic", "runtime error: index out of range [10] with length 10"}},
		{`--- FAIL: FuzzX (1.00s)
    fuzzing process hung or terminated unexpectedly: exit status 2
    Failing input written to testdata/fuzz/FuzzX/1
`, finding{"crash", "fuzzing process hung or terminated unexpectedly: exit status 2"}},
	}
	for i, c := range cases {
		fuzz := strings.Fields(c.out[strings.Index(c.out, "--- FAIL: "):])[2]
		if got := parseFuzzFailure([]byte(c.out), fuzz); got != c.want {
			t.Errorf("case %d: got %+v, want %+v", i, got, c.want)
		}
	}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		r    shared.Result
		want string
	}{
		{shared.Result{ExitCode: 0}, "ok"},
		{shared.Result{ExitCode: -1, TimedOut: true}, "HANG"},
		{shared.Result{ExitCode: 2, Output: []byte("panic: boom\n\ngoroutine 1 [running]:\n")}, "CRASH"},
		{shared.Result{ExitCode: 1, Output: []byte("gocolic: build failed\n")}, "exit 1"},
		{shared.Result{ExitCode: -1}, "killed"},
	}
	for _, c := range cases {
		if got := classify(c.r); got != c.want {
			t.Errorf("classify(%+v) = %q, want %q", c.r, got, c.want)
		}
	}
}

func TestMedian(t *testing.T) {
	if m, _ := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median = %v", m)
	}
	if m, _ := median([]float64{4, 1, 2, 3}); m != 2.5 {
		t.Errorf("median = %v", m)
	}
	if _, ok := median(nil); ok {
		t.Error("median of nothing")
	}
}

// TestHarnesses checks the module's harnesses: at least 25, over at least
// 12 packages, each with a Target that is not the harness package and a
// Check function for gocolic test.
func TestHarnesses(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if !shared.Declares(filepath.Join(root, "go.mod"), modulePath) {
		t.Fatalf("%s is not the root of %s", root, modulePath)
	}
	hs, err := shared.DiscoverReal(root)
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, h := range hs {
		if h.Target == "" || strings.HasPrefix(h.Target, modulePath) {
			t.Errorf("%s: bad target %q", h.Name(), h.Target)
		}
		if want := "Check" + strings.TrimPrefix(h.Fuzz, "Fuzz"); h.Check != want {
			t.Errorf("%s: no func %s beside its Target", h.Name(), want)
		}
		targets[h.Target] = true
	}
	if len(hs) < 25 || len(targets) < 12 {
		t.Errorf("%d harnesses over %d packages, want at least 25 over 12", len(hs), len(targets))
	}
	sel, err := shared.SelectReal(hs, "semver,FuzzParse")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range sel {
		if h.Dir != "semver" && h.Fuzz != "FuzzParse" {
			t.Errorf("-only selected %s", h.Name())
		}
	}
	if _, err := shared.SelectReal(hs, "nosuch"); err == nil {
		t.Error("-only accepted an unknown harness")
	}
}

// TestReport checks the summary row of each harness: statement coverage
// of the seeds, of each tool's corpus and of their union (medians and
// ranges over runs), every tool's execs/s and gocolic's divergences
// (medians), the panics and failures of each tool, and the list of
// findings.
func TestReport(t *testing.T) {
	cov := func(n int) coverage { return coverage{covered: n, total: 200} }
	// prof is a profile of 200 statements, n of them covered.
	prof := func(n int) profile {
		return profile{"a.go:1.1,2.2": {stmts: n, covered: true}, "a.go:3.1,4.2": {stmts: 200 - n}}
	}
	gRun := func(div int, rate float64, bugs ...string) gocolicRun {
		g := gocolicRun{status: "ok", rep: &schema.Report{Divergences: div, ExecsPerSec: rate}}
		for _, m := range bugs {
			g.rep.Bugs = append(g.rep.Bugs, schema.Bug{Kind: "panic", Message: m})
		}
		return g
	}
	fRun := func(rate float64, fail string) fuzzRun {
		f := fuzzRun{execsPerSec: rate, haveRate: true}
		if fail != "" {
			f.finding = &finding{Kind: "fail", Message: fail}
		}
		return f
	}
	one := harnessResult{
		h: harness{Dir: "a", Fuzz: "FuzzA", Target: "example.com/a"}, version: "example.com/a@v1.0.0", seeds: cov(20),
		runs: []runResult{{g: gRun(3, 1234.4, "boom"), fuzz: fRun(20000, "bad"), gcov: cov(60), fcov: cov(80), union: prof(90)}},
	}
	three := harnessResult{
		h: harness{Dir: "b", Fuzz: "FuzzB", Target: "example.com/b", Check: "CheckB"}, version: "example.com/b@v2.0.0", seeds: cov(10),
		runs: []runResult{
			{g: gRun(1, 100, "boom"), t: gRun(0, 50), fuzz: fRun(900, ""), gcov: cov(40), tcov: cov(30), fcov: cov(100), union: prof(110)},
			{g: gRun(5, 300), t: gRun(4, 70, "zero"), fuzz: fRun(1100, ""), gcov: cov(100), tcov: cov(50), fcov: cov(100), union: prof(120)},
			{g: gRun(2, 200, "boom", "x"), t: gocolicRun{status: "HANG"}, fuzz: fRun(1000, ""), gcov: cov(60), tcov: coverage{err: os.ErrNotExist}, fcov: coverage{err: os.ErrNotExist}},
		},
	}
	md := report([]harnessResult{one, three}, config{budget: 5e9, workers: 2, runs: 3, instrument: true, fuzzer: true}, "1.26.0")
	for _, want := range []string{
		"| harness | package@version | stmt cov: seeds only | stmt cov: go test -fuzz | stmt cov: gocolic fuzz (seeds) | stmt cov: gocolic test (zero values) | stmt cov: union | execs/s: go test -fuzz | execs/s: gocolic fuzz | execs/s: gocolic test | gocolic divergences (fuzz / test) | panics/failures: go test -fuzz | gocolic fuzz | gocolic test | status: gocolic fuzz | gocolic test |",
		"| a.FuzzA | example.com/a@v1.0.0 | 10.0% (20/200) | 40.0% (80/200) | 30.0% (60/200) | — | 45.0% (90/200) | 20,000 | 1,234 | — | 3 / — | 1 (1 fail) | 1 (1 panic) | — | ok | — |",
		"| b.FuzzB | example.com/b@v2.0.0 | 5.0% (10/200) | 50.0% [50.0–50.0] (2 of 3 runs) | 30.0% [20.0–50.0] | 20.0% [15.0–25.0] (2 of 3 runs) | 57.5% [55.0–60.0] (2 of 3 runs) | 1,000 | 200 | 60 | 2 / 2 | 0 | 2 (2 panic) | 1 (1 panic) | ok | **HANG ×1, ok ×2** ² |",
		"- a.FuzzA, gocolic fuzz (1 of 1 runs): panic: `boom`",
		"- a.FuzzA, go test -fuzz (1 of 1 runs): fail: `bad`",
		"- b.FuzzB, gocolic fuzz (2 of 3 runs): panic: `boom`",
		"- b.FuzzB, gocolic fuzz (1 of 3 runs): panic: `x`",
		"- b.FuzzB, gocolic test (1 of 3 runs): panic: `zero`",
		"- b.FuzzB run 3: replay of the fuzz corpus: file does not exist",
		"- b.FuzzB run 3: replay of gocolic test's tests: file does not exist",
		"- b.FuzzB run 3: gocolic test HANG",
		"proxy for branch coverage",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks\n%s\nin\n%s", want, md)
		}
	}
}

// TestReportWithoutFuzzer checks a report of -fuzzer=false: the fuzzer's
// columns are empty rather than errors or zeros, its replay is not called
// failed, and the union is gocolic's own coverage.
func TestReportWithoutFuzzer(t *testing.T) {
	g := gocolicRun{status: "ok", rep: &schema.Report{ExecsPerSec: 500}}
	one := harnessResult{
		h: harness{Dir: "a", Fuzz: "FuzzA", Target: "example.com/a"}, version: "example.com/a@v1.0.0", seeds: coverage{covered: 20, total: 200},
		runs: []runResult{{g: g, gcov: coverage{covered: 60, total: 200},
			union: profile{"a.go:1.1,2.2": {stmts: 60, covered: true}, "a.go:3.1,4.2": {stmts: 140}}}},
	}
	md := report([]harnessResult{one}, config{budget: 5e9, workers: 2, runs: 1, instrument: true}, "1.26.0")
	for _, want := range []string{
		"go test -fuzz was not run (-fuzzer=false)",
		"| a.FuzzA | example.com/a@v1.0.0 | 10.0% (20/200) | — | 30.0% (60/200) | — | 30.0% (60/200) | — | 500 | — | 0 / — | — | 0 | — | ok | — |",
		"| — | — | not run | — | 30.0% |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks\n%s\nin\n%s", want, md)
		}
	}
	if strings.Contains(md, "replay of the fuzz corpus") {
		t.Errorf("report calls the fuzzer's replay failed:\n%s", md)
	}
}

func TestUnion(t *testing.T) {
	parse := func(s string) profile {
		p, err := parseProfile(strings.NewReader("mode: set\n" + s))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := parse("a.go:1.1,2.2 2 1\na.go:3.1,4.2 3 0\na.go:5.1,6.2 4 0\n")
	b := parse("a.go:3.1,4.2 3 1\n")
	c := parse("a.go:5.1,6.2 4 1\n")
	cases := []struct {
		ps         []profile
		cov, total int
	}{
		{[]profile{a}, 2, 9},
		{[]profile{a, b}, 5, 9},
		{[]profile{a, b, c}, 9, 9},
		{[]profile{nil, b}, 3, 3},
	}
	for i, tc := range cases {
		if cov, tot := union(tc.ps...).counts(); cov != tc.cov || tot != tc.total {
			t.Errorf("case %d: union counts %d/%d, want %d/%d", i, cov, tot, tc.cov, tc.total)
		}
	}
}

func TestGeneratedTests(t *testing.T) {
	re := regexp.MustCompile(generatedTests("CheckParse"))
	for name, want := range map[string]bool{
		"TestGocolicCheckParse":         true,
		"TestGocolicCheckParseCrashes":  true,
		"TestGocolicCheckParseBytes":    false,
		"FuzzParse":                     false,
		"XTestGocolicCheckParseCrashes": false,
	} {
		if re.MatchString(name) != want {
			t.Errorf("-run %s matches %s: %v, want %v", re, name, !want, want)
		}
	}
}

// TestKillers checks what the replay of a generated test skips when the
// test binary died: the subtests that failed or were still running,
// not the ones already skipped, nor the fuzz corpus's.
func TestKillers(t *testing.T) {
	out := []byte(`--- FAIL: TestGocolicCheckX (0.00s)
    --- FAIL: TestGocolicCheckX/empty (0.00s)
panic: boom [recovered]
--- FAIL: FuzzX/abc (0.00s)
panic: test timed out after 3m0s
	running tests:
		TestGocolicCheckXCrashes/hang_1 (2m59s)
		TestGocolicCheckX/slow (3m0s)
`)
	cases := []struct {
		skip []string
		want []string
	}{
		{nil, []string{"TestGocolicCheckX/empty", "TestGocolicCheckXCrashes/hang_1", "TestGocolicCheckX/slow"}},
		{[]string{"TestGocolicCheckX/empty"}, []string{"TestGocolicCheckXCrashes/hang_1", "TestGocolicCheckX/slow"}},
	}
	for i, c := range cases {
		if got := killers(out, c.skip); !slices.Equal(got, c.want) {
			t.Errorf("case %d: killers = %q, want %q", i, got, c.want)
		}
	}
}

// TestSkipPattern checks the -skip pattern against go test's matching,
// level by level: test name, then subtest name.
func TestSkipPattern(t *testing.T) {
	if p := skipPattern(nil); p != "" {
		t.Errorf("skipPattern(nil) = %q, want none", p)
	}
	p := skipPattern([]string{"TestGocolicCheckX/empty", "TestGocolicCheckXCrashes/hang_1", "TestGocolicCheckX/a#01"})
	test, sub, ok := strings.Cut(p, "/")
	if !ok {
		t.Fatalf("skipPattern = %q, want two levels", p)
	}
	tre, sre := regexp.MustCompile(test), regexp.MustCompile(sub)
	cases := []struct {
		test, sub string
		skipped   bool
	}{
		{"TestGocolicCheckX", "empty", true},
		{"TestGocolicCheckXCrashes", "hang_1", true},
		{"TestGocolicCheckX", "a#01", true},
		{"TestGocolicCheckX", "a", false},
		{"TestGocolicCheckX", "empty_2", false},
		{"TestGocolicCheckXY", "empty", false},
	}
	for _, c := range cases {
		if got := tre.MatchString(c.test) && sre.MatchString(c.sub); got != c.skipped {
			t.Errorf("-skip %s on %s/%s: skipped %v, want %v", p, c.test, c.sub, got, c.skipped)
		}
	}
}

func TestMaxAttempts(t *testing.T) {
	for _, tt := range []struct{ entries, want int }{
		{0, 8}, {7, 8}, {8, 9}, {30, 31}, {63, 64}, {300, 256},
	} {
		if got := maxAttempts(tt.entries); got != tt.want {
			t.Errorf("maxAttempts(%d) = %d, want %d", tt.entries, got, tt.want)
		}
	}
}

// TestListAnswer checks that the module version is read past the lines go
// list prints while it downloads.
func TestListAnswer(t *testing.T) {
	tests := []struct{ out, want string }{
		{"github.com/gobwas/glob@v1.1.0\n", "github.com/gobwas/glob@v1.1.0"},
		{"go: downloading github.com/gobwas/glob v1.1.0\ngithub.com/gobwas/glob@v1.1.0\n", "github.com/gobwas/glob@v1.1.0"},
	}
	for _, tt := range tests {
		if got := listAnswer([]byte(tt.out)); got != tt.want {
			t.Errorf("listAnswer(%q) = %q, want %q", tt.out, got, tt.want)
		}
	}
}
