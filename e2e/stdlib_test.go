package e2e

import (
	"slices"
	"strings"
	"testing"
	"time"

	"path/filepath"
)

// stdlibGoal hides its goal behind strings.Fields, which has no model:
// only the instrumented strings package keeps the words symbolic.
const stdlibGoal = `package s

import "strings"

func Words(s string) int {
	f := strings.Fields(s)
	if len(f) == 3 && f[2] == "go" {
		panic("found")
	}
	return len(f)
}
`

// TestStdlibInstrumented runs gocolic test on a goal behind a standard
// function with default flags, which instrument strings in place and
// reach it, and with -stdlib=false, which leave the call concrete and do
// not; the report lists the instrumented packages and keeps their
// branches out of the target's.
func TestStdlibInstrumented(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"s/s.go": stdlibGoal})
	for _, tc := range []struct {
		name  string
		flags []string
		found bool
	}{
		{"default", nil, true},
		{"stdlib off", []string{"-stdlib=false"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "s.json")
			args := append([]string{"test", "-budget", "40s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-maxbugs", "1", "-notests", "-json", js}, tc.flags...)
			res := run(t, dir, 2*time.Minute, gocolic, append(args, "./s", "Words")...)
			if res.code != 0 {
				t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
			}
			rep := readReport(t, js)
			found := len(rep.Bugs) > 0 && strings.Contains(rep.Bugs[0].Message, "found")
			if found != tc.found {
				t.Errorf("goal reached: %v, want %v (bugs %+v after %d executions)\n%s", found, tc.found, rep.Bugs, rep.Executions, res.stderr)
			}
			if tc.found {
				if rep.Stdlib == nil || !slices.Contains(rep.Stdlib.Packages, "strings") || rep.Stdlib.Total == 0 {
					t.Errorf("report's stdlib = %+v, want strings with its branches", rep.Stdlib)
				}
			} else if rep.Stdlib != nil {
				t.Errorf("report's stdlib = %+v with -stdlib=false, want none", rep.Stdlib)
			}
			// The target's one function has 3 conditions: len, f[2], and
			// the && between them; strings' hundreds are not among them.
			if rep.Branches.Total > 8 {
				t.Errorf("target branches total %d, want only the target's", rep.Branches.Total)
			}
		})
	}
}

// callbackGoal is behind strings.FieldsFunc with a function literal as its
// predicate: the goal needs the split positions, which depend on the input
// only through the literal's result.
const callbackGoal = `package s

import "strings"

func Fields(s string) int {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '|' })
	if len(f) == 3 && f[1] == "go" {
		panic("found")
	}
	return len(f)
}
`

// TestStdlibCallbackLiteral runs gocolic test, concolic lane only, on a
// goal behind a standard function that calls a function literal of the
// target: the literal's twin must run there (rt.Closure, rt.Dyn), so that
// the predicate's result, and the fields, stay symbolic.
func TestStdlibCallbackLiteral(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"s/s.go": callbackGoal})
	js := filepath.Join(t.TempDir(), "s.json")
	res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "40s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-maxbugs", "1", "-notests", "-json", js, "./s", "Fields")
	if res.code != 0 {
		t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
	}
	rep := readReport(t, js)
	if len(rep.Bugs) == 0 || !strings.Contains(rep.Bugs[0].Message, "found") {
		t.Errorf("goal not reached after %d executions (bugs %+v)\n%s", rep.Executions, rep.Bugs, res.stderr)
	}
}
