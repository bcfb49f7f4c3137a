package emit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The end-to-end test builds a throwaway module whose functions have
// planted bugs, generates test files for them and runs them with the real
// go command.

const e2eBuggy = `package p

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
)

// F has four planted bugs: a panic, an exit, an endless loop and a stack
// overflow, a fatal error.
func F(x int, s string, b []byte) (int, error) {
	switch x {
	case 7:
		panic("boom at seven")
	case 8:
		os.Exit(3)
	case 9:
		for {
		}
	case 10:
		debug.SetMaxStack(1 << 20)
		return recurse(x), nil
	}
	return f(x, s, b)
}

func recurse(n int) int {
	return recurse(n+1) + 1
}

func f(x int, s string, b []byte) (int, error) {
	if x < 0 {
		return 0, errors.New("negative x")
	}
	return x*10 + len(s) + len(b), nil
}

type Celsius float64

func G(_ int, c Celsius, data []byte, xs ...int) ([]byte, float64, []int, int, error) {
	if len(data) > 3 {
		return nil, 0, nil, 0, fmt.Errorf("data too long: %d bytes", len(data))
	}
	v := float64(c) * 2
	if c < -273.15 {
		v = math.NaN()
	}
	var doubled []int
	for _, x := range xs {
		doubled = append(doubled, 2*x)
	}
	return append([]byte("v:"), data...), v, doubled, len(xs), nil
}
`

// e2eFixed is e2eBuggy with the bugs of F removed.
var e2eFixed = strings.Replace(e2eBuggy, `	switch x {
	case 7:
		panic("boom at seven")
	case 8:
		os.Exit(3)
	case 9:
		for {
		}
	case 10:
		debug.SetMaxStack(1 << 20)
		return recurse(x), nil
	}
`, "\t_, _ = os.Args, debug.SetMaxStack\n", 1)

func fSuite(cases []Case) Suite {
	return Suite{
		Package: "p",
		Func:    "F",
		Params:  []Param{{"x", "int"}, {"s", "string"}, {"b", "[]byte"}},
		Results: []Result{{Type: "int", Pinned: true}, {Type: "error", IsError: true, Pinned: true}},
		Cases:   cases,
		Crashes: []Crash{
			{Kind: "panic", Message: "boom at seven", Args: []string{"7", `"a"`, "nil"}},
			{Kind: "exit", Message: "exit status 3", Args: []string{"8", `""`, `[]byte("z")`}},
			{Kind: "timeout", Message: "execution exceeded 1s", Args: []string{"9", `"loop"`, "nil"}},
			{Kind: "fatal", Message: "fatal error: stack overflow", Args: []string{"10", `""`, "nil"}},
		},
		ReproTimeout: 2 * time.Second,
	}
}

func gSuite() Suite {
	return Suite{
		Package: "p",
		Func:    "G",
		Params:  []Param{{"_", "int"}, {"c", "Celsius"}, {"data", "[]byte"}, {"", "...int"}},
		Results: []Result{
			{Type: "[]byte", Pinned: true},
			{Type: "float64", Pinned: true},
			{Type: "[]int", Pinned: true},
			{Type: "int"},
			{Type: "error", IsError: true, Pinned: true},
		},
		Cases: []Case{
			{Args: []string{"0", "Celsius(21.5)", `[]byte("ab")`, "[]int{1, 2}"}, Results: []string{`[]byte("v:ab")`, "43", "[]int{2, 4}", "", `""`}},
			{Args: []string{"1", "-300", "nil", "nil"}, Results: []string{`[]byte("v:")`, "math.NaN()", "[]int(nil)", "", `""`}, Note: "NaN result"},
			{Args: []string{"2", "0", `[]byte("long!")`, "[]int{}"}, Results: []string{"nil", "0", "nil", "", `"data too long: 5 bytes"`}},
		},
	}
}

// e2eShadow has functions named like the locals of the generated tests.
const e2eShadow = `package q

import "errors"

func t(x int) int { return x + 1 }

func tt(x int) (int, error) {
	if x < 0 {
		return 0, errors.New("negative")
	}
	return x, nil
}

func tests(x int) int { return 2 * x }

func errText(x int) error {
	if x == 0 {
		return errors.New("zero")
	}
	return nil
}
`

// shadowSuites returns suites for the functions of e2eShadow. Their
// crashes are already fixed, so every generated test must pass.
func shadowSuites() []Suite {
	crashes := []Crash{
		{Kind: "panic", Message: "was a panic", Args: []string{"1"}},
		{Kind: "exit", Message: "was an exit", Args: []string{"2"}},
	}
	intResult := []Result{{Type: "int", Pinned: true}}
	return []Suite{
		{Package: "q", Func: "t", Params: []Param{{"x", "int"}}, Results: intResult,
			Cases: []Case{{Args: []string{"1"}, Results: []string{"2"}}}, Crashes: crashes},
		{Package: "q", Func: "tt", Params: []Param{{"x", "int"}},
			Results: []Result{{Type: "int", Pinned: true}, {Type: "error", IsError: true, Pinned: true}},
			Cases: []Case{
				{Args: []string{"-1"}, Results: []string{"0", `"negative"`}},
				{Args: []string{"5"}, Results: []string{"5", "nil"}}, // nil is accepted for no error
			}, Crashes: crashes},
		{Package: "q", Func: "tests", Params: []Param{{"x", "int"}}, Results: intResult,
			Cases: []Case{{Args: []string{"3"}, Results: []string{"6"}}}, Crashes: crashes},
		{Package: "q", Func: "errText", Params: []Param{{"x", "int"}},
			Results: []Result{{Type: "error", IsError: true, Pinned: true}},
			Cases:   []Case{{Args: []string{"0"}, Results: []string{`"zero"`}}}, Crashes: crashes},
	}
}

func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("go command not found: %v", err)
	}
	mod := t.TempDir()
	pkg := filepath.Join(mod, "p")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite := func(path, content string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	generateIn := func(dir string, s Suite) {
		t.Helper()
		src, err := TestFile(s)
		if err != nil {
			t.Fatalf("TestFile(%s): %v", s.Func, err)
		}
		if err := WriteFile(filepath.Join(dir, FileName(s.Func)), src); err != nil {
			t.Fatal(err)
		}
	}
	generate := func(s Suite) {
		t.Helper()
		generateIn(pkg, s)
	}
	goCmd := func(args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir = mod
		cmd.Env = append(os.Environ(),
			"GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off",
			ReproEnv+"=", // in case this test itself runs as a reproducer
		)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	mustWrite(filepath.Join(mod, "go.mod"), "module example.com/t\n\ngo 1.22\n")
	mustWrite(filepath.Join(pkg, "p.go"), e2eBuggy)
	// The true results of F, as the explorer would have recorded them.
	goodCases := []Case{
		{Args: []string{"1", `"ab"`, `[]byte("\x00")`}, Results: []string{"13", `""`}, Note: "x >= 0"},
		{Args: []string{"-4", `""`, "nil"}, Results: []string{"0", `"negative x"`}, Note: "x < 0"},
		{Args: []string{"0", `"é"`, "[]byte{}"}, Results: []string{"2", `""`}},
	}
	generate(fSuite(goodCases))
	generate(gSuite())
	shadow := filepath.Join(mod, "q")
	if err := os.MkdirAll(shadow, 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(filepath.Join(shadow, "q.go"), e2eShadow)
	for _, s := range shadowSuites() {
		generateIn(shadow, s)
	}

	if out, err := goCmd("vet", "./p", "./q"); err != nil {
		t.Fatalf("go vet of the generated files failed: %v\n%s", err, out)
	}

	t.Run("regression cases pass", func(t *testing.T) {
		out, err := goCmd("test", "-count=1", "-run", "^TestGocolic(F|G)$", "./p")
		if err != nil {
			t.Fatalf("go test failed: %v\n%s", err, out)
		}
	})

	t.Run("functions named like generated locals", func(t *testing.T) {
		out, err := goCmd("test", "-count=1", "-v", "./q")
		if err != nil {
			t.Fatalf("go test failed: %v\n%s", err, out)
		}
		for _, s := range shadowSuites() {
			for _, test := range []string{"TestGocolic" + s.Func, "TestGocolic" + s.Func + "Crashes"} {
				if want := "--- PASS: " + test + " "; !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
		}
	})

	t.Run("crashes fail while the bugs are present", func(t *testing.T) {
		start := time.Now()
		out, err := goCmd("test", "-count=1", "-v", "-run", "^TestGocolicFCrashes$", "./p")
		if err == nil {
			t.Fatalf("go test passed, want a failure:\n%s", out)
		}
		for _, want := range []string{
			"--- FAIL: TestGocolicFCrashes/panics_boom_at_seven ",
			`F(7, "a", []byte(nil)) panicked: boom at seven`,
			"--- FAIL: TestGocolicFCrashes/exits_status_3 ",
			`F(8, "", []byte{0x7a}) crashed: exit status 3 (gocolic found exit: exit status 3)`,
			"--- FAIL: TestGocolicFCrashes/hangs_execution_exceeded_1s ",
			`F(9, "loop", []byte(nil)) did not return within 2s (gocolic found timeout: execution exceeded 1s)`,
			"--- FAIL: TestGocolicFCrashes/dies_stack_overflow ",
			`F(10, "", []byte(nil)) crashed: exit status 2 (gocolic found fatal: fatal error: stack overflow)`,
			// From the head of the child's output, which is long.
			"\n        runtime: goroutine stack exceeds 1048576-byte limit",
			"bytes omitted ...]",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, "--- PASS: TestGocolicFCrashes/") {
			t.Errorf("some crash subtest passed:\n%s", out)
		}
		t.Logf("crash reproduction took %v", time.Since(start))
	})

	t.Run("crashes pass once the bugs are fixed", func(t *testing.T) {
		mustWrite(filepath.Join(pkg, "p.go"), e2eFixed)
		out, err := goCmd("test", "-count=1", "-v", "-run", "^TestGocolic(F|FCrashes|G)$", "./p")
		if err != nil {
			t.Fatalf("go test failed: %v\n%s", err, out)
		}
		for _, name := range []string{"panics_boom_at_seven", "exits_status_3", "hangs_execution_exceeded_1s", "dies_stack_overflow"} {
			if want := "--- PASS: TestGocolicFCrashes/" + name + " "; !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		// The coverage replay of the generated tests must work too.
		out, err = goCmd("test", "-count=1", "-run", "^TestGocolicF(Crashes)?$", "-coverprofile", filepath.Join(mod, "cover.out"), "./p")
		if err != nil {
			t.Fatalf("go test -coverprofile failed: %v\n%s", err, out)
		}
	})

	t.Run("a wrong pinned result fails readably", func(t *testing.T) {
		generate(fSuite([]Case{
			{Args: []string{"1", `"a"`, `[]byte("b")`}, Results: []string{"42", `"boom"`}},
			{Args: []string{"1", `"ab"`, `[]byte("\x00")`}, Results: []string{"13", `""`}},
		}))
		out, err := goCmd("test", "-count=1", "-v", "-run", "^TestGocolicF$", "./p")
		if err == nil {
			t.Fatalf("go test passed, want a failure:\n%s", out)
		}
		for _, want := range []string{
			"--- FAIL: TestGocolicF/boom ",
			`F(1, "a", []byte{0x62}) result 0 = 12, want 42`,
			`F(1, "a", []byte{0x62}) error = "", want "boom"`,
			"--- PASS: TestGocolicF/returns_13 ",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
	})
}
