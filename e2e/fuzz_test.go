package e2e

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fuzzTarget is a package with a native fuzz target whose body fails in
// each way go test knows: t.Fatalf, t.Error, a panic, a failure reported
// from the package's own function; t.Skip is not a failure.
var fuzzTarget = map[string]string{
	"p/p.go": `package p

func Check(n int, s string) int {
	if n > 100 && s == "go" {
		return 2
	}
	return 0
}
`,
	"p/p_test.go": `package p

import "testing"

func FuzzT(f *testing.F) {
	f.Add(0, "")
	f.Fuzz(func(t *testing.T, n int, s string) {
		if n < 0 {
			t.Skip("negative")
		}
		if n == 4242 {
			t.Fatalf("bad n %d", n)
		}
		if s == "err" {
			t.Error("bad s")
		}
		if len(s) == 3 && s[0] == 'x' {
			panic("xpanic")
		}
		if Check(n, s) == 2 {
			t.Errorf("check said %d", 2)
		}
	})
}
`,
}

// TestFuzz runs gocolic fuzz on a native fuzz target: every failure is
// found, with its kind and message, and the corpus entries it writes make
// plain go test fail on each.
func TestFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, fuzzTarget)
	rd := filepath.Join(t.TempDir(), "run")
	res := run(t, dir, 2*time.Minute, gocolic, "fuzz", "-budget", "60s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-timeout", "10s", "-rundir", rd, "./p", "FuzzT")
	if res.code != 0 {
		t.Fatalf("gocolic fuzz exited %d:\n%s", res.code, res.stderr)
	}
	rep := readReport(t, filepath.Join(rd, "report.json"))
	// The run directory keeps the time series and the statement coverage
	// of the corpus replayed by go test.
	for file, prefix := range map[string]string{"timeline.csv": "ms,execs,covered,paths,bugs\n", "cover.out": "mode: "} {
		b, err := os.ReadFile(filepath.Join(rd, file))
		if err != nil || !strings.HasPrefix(string(b), prefix) || strings.Count(string(b), "\n") < 2 {
			t.Errorf("run directory %s: %q, %v", file, b, err)
		}
	}
	want := map[string]string{"bad n 4242": "fail", "bad s": "fail", "xpanic": "panic", "check said 2": "fail"}
	got := map[string]string{}
	for _, b := range rep.Bugs {
		got[b.Message] = b.Kind
	}
	for msg, kind := range want {
		if got[msg] != kind {
			t.Errorf("finding %q: kind %q, want %q (all: %v)", msg, got[msg], kind, got)
		}
	}
	// Failing inputs are minimised: integers as near zero and strings as
	// short as still fail the same way.
	minimal := map[string]map[string]string{
		"bad n 4242":   {"n": "4242", "s": `""`},
		"bad s":        {"n": "0", "s": `"err"`},
		"check said 2": {"n": "101", "s": `"go"`},
	}
	for _, b := range rep.Bugs {
		if m, ok := minimal[b.Message]; ok && !maps.Equal(b.Inputs, m) {
			t.Errorf("finding %q: input %v, want the minimal %v", b.Message, b.Inputs, m)
		}
		if s, err := strconv.Unquote(b.Inputs["s"]); b.Message == "xpanic" && (b.Inputs["n"] != "0" || err != nil || len(s) != 3) {
			t.Errorf("finding xpanic: input %v, want n 0 and a 3-byte s", b.Inputs)
		}
	}
	// Each finding names its corpus file and the go test command that
	// replays it.
	for _, b := range rep.Bugs {
		file, cmd, _ := strings.Cut(b.Reproducer, ": ")
		if _, err := os.Stat(file); err != nil || !strings.HasPrefix(cmd, "go test -run='^FuzzT$/^"+filepath.Base(file)+"$'") {
			t.Errorf("finding %q: reproducer %q (%v)", b.Message, b.Reproducer, err)
		}
	}
	if len(rep.Bugs) != len(want) {
		t.Errorf("%d findings, want %d: %v", len(rep.Bugs), len(want), got)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "p", "testdata", "fuzz", "FuzzT"))
	if err != nil || len(entries) < len(want) {
		t.Fatalf("corpus: %d entries, %v", len(entries), err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, "p", "testdata", "fuzz", "FuzzT", e.Name()))
		if err != nil || !strings.HasPrefix(string(b), "go test fuzz v1\n") {
			t.Errorf("corpus entry %s: %q, %v", e.Name(), b, err)
		}
	}
	// go test replays the corpus: the failures fail it.
	gt := run(t, dir, 2*time.Minute, "go", "test", "-count=1", "-run", "^FuzzT$", "./p")
	if gt.code == 0 {
		t.Errorf("go test passes over the failing corpus entries:\n%s", gt.stderr)
	}
	for _, msg := range []string{"bad n 4242"} {
		if !strings.Contains(gt.stderr, msg) {
			t.Errorf("go test output lacks %q:\n%s", msg, gt.stderr)
		}
	}
}

// TestFuzzBadInput checks the errors of gocolic fuzz.
func TestFuzzBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	files := map[string]string{
		"p/p.go": "package p\n",
		"p/p_test.go": `package p

import "testing"

func FuzzComplex(f *testing.F) {
	f.Fuzz(func(t *testing.T, x complex128) {})
}

func FuzzNoFuzz(f *testing.F) {}
`,
	}
	dir := module(t, files)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"./p", "FuzzNope"}, "fuzz targets: FuzzComplex, FuzzNoFuzz"},
		{[]string{"./p", "FuzzComplex"}, "argument x of the fuzz function of FuzzComplex has type complex128"},
		{[]string{"./p", "FuzzNoFuzz"}, "does not call f.Fuzz"},
	}
	for _, tt := range tests {
		res := run(t, dir, time.Minute, gocolic, append([]string{"fuzz", "-budget", "2s"}, tt.args...)...)
		if res.code != 2 || !strings.Contains(res.stderr, tt.want) {
			t.Errorf("gocolic fuzz %v: exit %d, want 2 and %q:\n%s", tt.args, res.code, tt.want, res.stderr)
		}
	}
}

// TestFuzzHybrid runs gocolic fuzz -with-fuzzer on a target with a branch
// that hangs on a checksum that random mutation reaches quickly: the fuzzer's
// entries reach gocolic and cover it, gocolic's inputs reach the fuzzer,
// and -nocorpus leaves the package's directory as it was.
func TestFuzzHybrid(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := module(t, map[string]string{
		"p/p.go": `package p

import "hash/crc32"

func Rare(b []byte) int {
	if crc32.ChecksumIEEE(b)%512 == 7 {
		return 1
	}
	if len(b) == 5 && b[0] == 'q' && b[4] == '!' {
		return 2
	}
	return 0
}
`,
		"p/p_test.go": `package p

import "testing"

func FuzzRare(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Rare(b)
	})
}
`,
	})
	// A module path of its own keeps the fuzz cache of other runs away.
	modPath := fmt.Sprintf("example.com/hybrid%d", time.Now().UnixNano())
	mod := "module " + modPath + "\n\ngo 1.24\n"
	if gc, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		t.Cleanup(func() { os.RemoveAll(filepath.Join(strings.TrimSpace(string(gc)), "fuzz", modPath)) })
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(t.TempDir(), "r.json")
	res := run(t, dir, 3*time.Minute, gocolic, "fuzz", "-with-fuzzer", "-nocorpus", "-budget", "20s", "-workers", "2", "-seed", "1", "-json", js, "./p", "FuzzRare")
	if res.code != 0 {
		t.Fatalf("gocolic fuzz -with-fuzzer exited %d:\n%s", res.code, res.stderr)
	}
	rep := readReport(t, js)
	h := rep.Hybrid
	if h == nil || h.Rounds < 1 || h.FromFuzzer < 1 || h.ToFuzzer < 1 || h.Note != "" {
		t.Fatalf("hybrid counts %+v: want a round, entries both ways and no early stop", h)
	}
	for _, s := range rep.Branches.Sites {
		if strings.Contains(s.Cond, "crc32") && !(s.True && s.False) {
			t.Errorf("branch %q: true %v, false %v; the fuzzer's entry should cover both", s.Cond, s.True, s.False)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "p", "testdata")); !os.IsNotExist(err) {
		t.Errorf("-nocorpus left testdata behind (%v)", err)
	}
}

// TestFuzzFloat runs gocolic fuzz on float arguments: it reaches the
// branches on NaN, negative zero and a float-to-integer conversion, and
// go test reads the float corpus entries it writes (a NaN with payload
// among them) and fails on them.
func TestFuzzFloat(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{
		"p/p.go": `package p

func Classify(x float64, y float32) int {
	if x != x {
		return 2
	}
	if float64(y) > 1e30 && int64(x) == 7 {
		return 3
	}
	if x == 0 && 1/x < 0 {
		return 4
	}
	return 0
}
`,
		"p/p_test.go": `package p

import "testing"

func FuzzF(f *testing.F) {
	f.Add(1.0, float32(2))
	f.Fuzz(func(t *testing.T, x float64, y float32) {
		switch Classify(x, y) {
		case 2:
			t.Error("nan")
		case 3:
			panic("big")
		case 4:
			t.Error("negative zero")
		}
	})
}
`,
	})
	js := filepath.Join(t.TempDir(), "r.json")
	res := run(t, dir, 2*time.Minute, gocolic, "fuzz", "-budget", "60s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-timeout", "10s", "-json", js, "./p", "FuzzF")
	if res.code != 0 {
		t.Fatalf("gocolic fuzz exited %d:\n%s", res.code, res.stderr)
	}
	rep := readReport(t, js)
	got := map[string]bool{}
	for _, b := range rep.Bugs {
		got[b.Message] = true
	}
	for _, msg := range []string{"nan", "big", "negative zero"} {
		if !got[msg] {
			t.Errorf("finding %q missing (all: %v)", msg, got)
		}
	}
	// go test replays each entry; a panic ends a run, so one at a time.
	entries, err := os.ReadDir(filepath.Join(dir, "p", "testdata", "fuzz", "FuzzF"))
	if err != nil {
		t.Fatal(err)
	}
	var outs strings.Builder
	for _, e := range entries {
		gt := run(t, dir, 2*time.Minute, "go", "test", "-count=1", "-run", "^FuzzF$/^"+e.Name()+"$", "./p")
		outs.WriteString(gt.stderr)
	}
	for _, msg := range []string{"nan", "negative zero", "panic: big"} {
		if !strings.Contains(outs.String(), msg) {
			t.Errorf("go test over the float corpus does not fail with %q:\n%s", msg, outs.String())
		}
	}
	if strings.Contains(outs.String(), "malformed") || strings.Contains(outs.String(), "unsupported") {
		t.Errorf("go test could not read a corpus entry:\n%s", outs.String())
	}
}

// TestFuzzExternal runs a fuzz target of an external test package
// (package q_test): the package under test is instrumented with it, so
// the values the fuzz function passes into q stay symbolic there, and
// q's branches, not the test's, are the coverage.
func TestFuzzExternal(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{
		"q/q.go": `package q

var calls int

func Parse(b []byte) int {
	calls++
	if len(b) > 4 && b[0] == 'G' && b[1] == 'O' && check(b[2:]) {
		return 1
	}
	return 0
}

func check(b []byte) bool { return b[0]^b[1] == 0x5a && b[2] == '!' }

func Scale(x int32) int32 { return x * 3 }
`,
		"q/q_test.go": `package q_test

import (
	"testing"

	"example.com/m/q"
)

func FuzzParse(f *testing.F) {
	f.Add([]byte("hello"), int32(1))
	f.Fuzz(func(t *testing.T, b []byte, n int32) {
		if q.Parse(b) == 1 {
			t.Error("magic")
		}
		if q.Scale(n) == 300 {
			panic("scaled")
		}
	})
}
`,
	})
	js := filepath.Join(t.TempDir(), "r.json")
	res := run(t, dir, 2*time.Minute, gocolic, "fuzz", "-budget", "60s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-timeout", "10s", "-json", js, "./q", "FuzzParse")
	if res.code != 0 {
		t.Fatalf("gocolic fuzz exited %d:\n%s", res.code, res.stderr)
	}
	rep := readReport(t, js)
	got := map[string]string{}
	for _, b := range rep.Bugs {
		got[b.Message] = b.Kind
	}
	if got["magic"] != "fail" || got["scaled"] != "panic" {
		t.Errorf("findings %v, want magic (fail) and scaled (panic)", got)
	}
	// Coverage is q's: every outcome of its 6 conditions.
	if rep.Branches.Total != 12 || rep.Branches.Covered != 12 {
		t.Errorf("branch outcomes %d/%d, want 12/12 of package q", rep.Branches.Covered, rep.Branches.Total)
	}
	gt := run(t, dir, 2*time.Minute, "go", "test", "-count=1", "-run", "^FuzzParse$", "./q")
	if gt.code == 0 || !strings.Contains(gt.stderr, "FuzzParse/") {
		t.Errorf("go test passes over the corpus written for the external target:\n%s", gt.stderr)
	}
}

// TestFuzzCompositeSeed runs gocolic fuzz on a target whose panic lies
// next to its f.Add seed, a 40-byte []byte{...} literal of named
// constants, char and hex literals: the panic needs the seed's first 39
// bytes (behind a SHA-256 prefix the solver cannot invert) and a last byte that
// differs from the seed's. It is found only if the literal is read and
// kept whole, longer than the default -maxlen 32; the f.Add call gocolic
// cannot read from the source gives its seed through a run of FuzzB.
func TestFuzzCompositeSeed(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	seed := []byte{0xc0, 'g', 'o'}
	for len(seed) < 39 {
		seed = append(seed, byte(len(seed)*7))
	}
	var lit strings.Builder
	lit.WriteString("magic, 'g', 'o'")
	for _, c := range seed[3:] {
		fmt.Fprintf(&lit, ", 0x%02x", c)
	}
	lit.WriteString(", '?'")
	dir := module(t, map[string]string{
		"p/p.go": fmt.Sprintf(`package p

import "crypto/sha256"

// Check reports whether b is 40 bytes long, its first 39 bytes have the
// seed's hash and its last is '!'.
func Check(b []byte) bool {
	return len(b) == 40 && sha256.Sum256(b[:39]) == %#v && b[39] == '!'
}
`, sha256.Sum256(seed)),
		"p/p_test.go": `package p

import "testing"

const magic = 0xc0

func FuzzB(f *testing.F) {
	v := []byte{1}
	f.Add(v)
	f.Add([]byte{` + lit.String() + `})
	f.Fuzz(func(t *testing.T, b []byte) {
		if Check(b) {
			panic("composite")
		}
	})
}
`,
	})
	js := filepath.Join(t.TempDir(), "r.json")
	res := run(t, dir, 2*time.Minute, gocolic, "fuzz", "-budget", "30s", "-maxbugs", "1", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-minimizetime", "0", "-json", js, "./p", "FuzzB")
	if res.code != 0 {
		t.Fatalf("gocolic fuzz exited %d:\n%s", res.code, res.stderr)
	}
	// f.Add(v) is not read from the source; the run of FuzzB gives it.
	if strings.Contains(res.stderr, "is not used as a seed") {
		t.Errorf("a warning about f.Add(v), whose seed a run of FuzzB gives:\n%s", res.stderr)
	}
	for _, want := range []string{
		"gocolic: -maxlen 41 (raised from the default 32: the code compares a length with 40)",
		"gocolic: 1 seed inputs",
		"gocolic: 1 more seed inputs from running FuzzB's f.Add calls",
	} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, res.stderr)
		}
	}
	rep := readReport(t, js)
	if len(rep.Bugs) != 1 || rep.Bugs[0].Message != "composite" {
		t.Fatalf("findings %+v, want the panic next to the seed:\n%s", rep.Bugs, res.stderr)
	}
	b, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(rep.Bugs[0].Inputs["b"], "[]byte("), ")"))
	if err != nil || b != string(seed)+"!" {
		t.Errorf("failing input %s (%v), want the seed with '!' last", rep.Bugs[0].Inputs["b"], err)
	}
}

// TestFuzzLoopSeeds runs gocolic fuzz on a target that adds its seeds in
// range loops, over a package-level table of structs and over a slice
// literal, as most real fuzz targets do: its panic needs the first 19
// bytes of one table entry (behind a SHA-256 the solver cannot invert)
// and a last byte that differs from the entry's, so it is found only if
// the loops are read.
func TestFuzzLoopSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	const seed = "gocolic-loop-seed-0"
	dir := module(t, map[string]string{
		"p/p.go": fmt.Sprintf(`package p

import "crypto/sha256"

// Check reports whether b is 20 bytes long, its first 19 bytes have the
// seed's hash and its last is '!'.
func Check(b []byte) bool {
	return len(b) == 20 && sha256.Sum256(b[:19]) == %#v && b[19] == '!'
}
`, sha256.Sum256([]byte(seed))),
		"p/p_test.go": `package p

import "testing"

var tests = []struct {
	in   string
	want bool
}{
	{"plain", false},
	{in: "` + seed + `?"},
}

func FuzzS(f *testing.F) {
	for _, tc := range tests {
		f.Add([]byte(tc.in))
	}
	for _, s := range []string{"x", "yy"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if Check(b) {
			panic("looped")
		}
	})
}

func TestTable(t *testing.T) {
	for _, tc := range tests {
		if Check([]byte(tc.in)) != tc.want {
			t.Errorf("Check(%q)", tc.in)
		}
	}
}
`,
	})
	js := filepath.Join(t.TempDir(), "r.json")
	res := run(t, dir, 2*time.Minute, gocolic, "fuzz", "-budget", "30s", "-maxbugs", "1", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-minimizetime", "0", "-json", js, "./p", "FuzzS")
	if res.code != 0 {
		t.Fatalf("gocolic fuzz exited %d:\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stderr, "gocolic: 4 seed inputs") || strings.Contains(res.stderr, "is not used as a seed") {
		t.Errorf("stderr does not say 4 seed inputs without a warning:\n%s", res.stderr)
	}
	rep := readReport(t, js)
	if len(rep.Bugs) != 1 || rep.Bugs[0].Message != "looped" {
		t.Fatalf("findings %+v, want the panic next to the table's seed:\n%s", rep.Bugs, res.stderr)
	}
	if got := rep.Bugs[0].Inputs["b"]; got != `[]byte("`+seed+`!")` {
		t.Errorf("failing input %s, want the seed with '!' last", got)
	}
}

// TestFuzzComputedSeeds runs gocolic fuzz on a target whose seed is
// computed at run time (f.Add(strings.Repeat(…))), which the source does
// not give as a constant: gocolic runs the target once for its seeds, and
// the panic next to the seed (behind a SHA-256 the solver cannot invert)
// is found from it.
func TestFuzzComputedSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	seed := strings.Repeat("gocolic-", 3)
	dir := module(t, map[string]string{
		"p/p.go": fmt.Sprintf(`package p

import "crypto/sha256"

// Check reports whether b, but its last byte, has the seed's hash, and
// its last byte is '!'.
func Check(b []byte) bool {
	return len(b) == %d && sha256.Sum256(b[:%d]) == %#v && b[%d] == '!'
}
`, len(seed)+1, len(seed), sha256.Sum256([]byte(seed)), len(seed)),
		"p/p_test.go": `package p

import (
	"strings"
	"testing"
)

func FuzzC(f *testing.F) {
	f.Add([]byte(strings.Repeat("gocolic-", 3) + "?"))
	f.Add([]byte("x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if Check(b) {
			panic("computed")
		}
	})
}
`,
	})
	js := filepath.Join(t.TempDir(), "r.json")
	res := run(t, dir, 2*time.Minute, gocolic, "fuzz", "-budget", "30s", "-maxbugs", "1", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-minimizetime", "0", "-json", js, "./p", "FuzzC")
	if res.code != 0 {
		t.Fatalf("gocolic fuzz exited %d:\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stderr, "gocolic: 1 more seed inputs from running FuzzC's f.Add calls") || strings.Contains(res.stderr, "is not used as a seed") {
		t.Errorf("stderr does not say 1 more seed input without a warning:\n%s", res.stderr)
	}
	rep := readReport(t, js)
	if len(rep.Bugs) != 1 || rep.Bugs[0].Message != "computed" {
		t.Fatalf("findings %+v, want the panic next to the computed seed:\n%s", rep.Bugs, res.stderr)
	}
}
