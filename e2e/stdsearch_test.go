package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stdSearchGoals hides goals behind the search code of strings, which
// ends in internal/bytealg and internal/stringslite: a Split whose
// separator is an input (the Split model leaves it to the instrumented
// strings, whose Index and Count end in the models of bytealg), a Cut
// (stringslite.Cut's model) and a TrimSuffix and CutPrefix (the models of
// stringslite's, or of strings' when strings is not instrumented).
const stdSearchGoals = `package s

import "strings"

func SplitSep(s, sep string) int {
	parts := strings.Split(s, sep)
	if len(parts) == 3 && parts[1] == "ab" {
		panic("split goal")
	}
	return len(parts)
}

func Pair(s string) int {
	k, v, ok := strings.Cut(s, "=")
	if ok && k == "key" && v == "on" {
		panic("cut goal")
	}
	return len(k)
}

func Trim(s string) int {
	if r, ok := strings.CutPrefix(strings.TrimSuffix(s, ";"), "v="); ok && r == "go" && len(s) == 5 {
		panic("trim goal")
	}
	return len(s)
}
`

// TestStdlibSearchModels runs gocolic test on goals behind strings'
// searches, which the default flags reach and -stdlib=false, which leaves
// the calls concrete, does not unless strings' own function is modelled.
func TestStdlibSearchModels(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"s/s.go": stdSearchGoals})
	for _, tc := range []struct {
		fn, goal string
		extra    []string // -maxlen 8: over 32-byte inputs the terms of a search for a symbolic separator time Z3 out
		off      bool     // reached with -stdlib=false too: strings' function has a model
	}{
		{"SplitSep", "split goal", []string{"-maxlen", "8"}, false},
		{"Pair", "cut goal", nil, false},
		{"Trim", "trim goal", nil, true},
	} {
		for _, stdlib := range []bool{true, false} {
			name := tc.fn + map[bool]string{true: " default", false: " stdlib off"}[stdlib]
			t.Run(name, func(t *testing.T) {
				js := filepath.Join(t.TempDir(), "s.json")
				args := append([]string{"test", "-budget", "40s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-maxbugs", "1", "-notests", "-json", js}, tc.extra...)
				if !stdlib {
					args = append(args, "-stdlib=false")
				}
				res := run(t, dir, 2*time.Minute, gocolic, append(args, "./s", tc.fn)...)
				if res.code != 0 {
					t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
				}
				rep := readReport(t, js)
				found := len(rep.Bugs) > 0 && strings.Contains(rep.Bugs[0].Message, tc.goal)
				if want := stdlib || tc.off; found != want {
					t.Errorf("goal reached: %v, want %v (bugs %+v after %d executions)\n%s", found, want, rep.Bugs, rep.Executions, res.stderr)
				}
			})
		}
	}
}
