package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// proveTarget has two condition outcomes reachable from F, two behind a
// return (dead code) and two in a function nothing calls.
const proveTarget = `package p

func helper(x int) int {
	if x > 100 {
		return 1
	}
	return 0
}

func F(x int) int {
	if x > 3 {
		return 1
	}
	return 0
	if x > 7 {
		return 2
	}
	return 3
}
`

// TestReportUnreachable runs gocolic test on a package with unreachable
// branch outcomes: the report lists them (file, line, outcome, proof),
// the summary line and gocolic report's page give coverage of all
// outcomes and of the reachable ones; with -prove=false nothing is
// claimed.
func TestReportUnreachable(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": proveTarget})
	for _, tt := range []struct {
		prove   string
		claimed int
		summary string
	}{
		{"true", 4, "branches 2/6 (2/2 of the reachable, 4 proved unreachable)"},
		{"false", 0, "branches 2/6, "},
	} {
		t.Run("prove="+tt.prove, func(t *testing.T) {
			rd := filepath.Join(t.TempDir(), "run")
			res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "10s", "-workers", "1", "-seed", "1",
				"-lanes", "concolic", "-solver", "z3", "-notests", "-nostate", "-prove="+tt.prove, "-rundir", rd, "./p", "F")
			if res.code != 0 {
				t.Fatalf("gocolic test exited %d:\n%s", res.code, res.stderr)
			}
			if !strings.Contains(res.stderr, tt.summary) {
				t.Errorf("summary lacks %q:\n%s", tt.summary, res.stderr)
			}
			rep := readReport(t, filepath.Join(rd, "report.json"))
			if rep.Branches.Covered != 2 || rep.Branches.Total != 6 || len(rep.Unreachable) != tt.claimed || rep.Reachable() != 6-tt.claimed {
				t.Fatalf("branches %d/%d, %d unreachable; want 2/6, %d", rep.Branches.Covered, rep.Branches.Total, len(rep.Unreachable), tt.claimed)
			}
			if len(rep.InternalErrors) != 0 {
				t.Errorf("internal errors: %+v", rep.InternalErrors)
			}
			lines := map[string]int{"x > 100": 4, "x > 7": 15}
			type goal struct {
				cond    string
				outcome bool
			}
			seen := map[goal]bool{}
			for _, u := range rep.Unreachable {
				if filepath.Base(u.File) != "p.go" || lines[u.Cond] != u.Line || u.By != "cfg" {
					t.Errorf("unreachable %+v, want p.go:%d by cfg", u, lines[u.Cond])
				}
				seen[goal{u.Cond, u.Outcome}] = true
			}
			for cond := range lines {
				if tt.claimed > 0 && (!seen[goal{cond, false}] || !seen[goal{cond, true}]) {
					t.Errorf("outcomes claimed %v, want both of %s", seen, cond)
				}
			}
			if tt.claimed == 0 {
				return
			}
			page := filepath.Join(t.TempDir(), "page.html")
			res = run(t, dir, time.Minute, gocolic, "report", "-o", page, rd)
			if res.code != 0 {
				t.Fatalf("gocolic report exited %d:\n%s", res.code, res.stderr)
			}
			html, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"2 / 6 (33.3%)", "of the reachable", "2 / 2 (100.0%), 4 proved unreachable"} {
				if !strings.Contains(string(html), want) {
					t.Errorf("page lacks %q", want)
				}
			}
		})
	}
}

// abstractionTarget has an outcome that only values make unreachable:
// x < 3 after b, which is set only when x > 5.
const abstractionTarget = `package p

func F(x int) int {
	b := false
	if x > 5 {
		b = true
	}
	if b {
		if x < 3 {
			return 1
		}
	}
	return 0
}
`

// TestAbstractionClaims runs gocolic test -abstraction: the model checker
// proves the one unreachable outcome (by "mc"), testing covers the five
// others and refutes no claim; without the flag nothing is claimed.
func TestAbstractionClaims(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": abstractionTarget})
	for _, tt := range []struct {
		flag    string
		claimed int
		summary string
	}{
		{"true", 1, "branches 5/6 (5/5 of the reachable, 1 proved unreachable)"},
		{"false", 0, "branches 5/6, "},
	} {
		t.Run("abstraction="+tt.flag, func(t *testing.T) {
			rd := filepath.Join(t.TempDir(), "run")
			res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "10s", "-workers", "1", "-seed", "1",
				"-lanes", "concolic", "-solver", "z3", "-notests", "-nostate", "-abstraction="+tt.flag, "-rundir", rd, "./p", "F")
			if res.code != 0 {
				t.Fatalf("gocolic test exited %d:\n%s", res.code, res.stderr)
			}
			if !strings.Contains(res.stderr, tt.summary) {
				t.Errorf("summary lacks %q:\n%s", tt.summary, res.stderr)
			}
			rep := readReport(t, filepath.Join(rd, "report.json"))
			if len(rep.InternalErrors) != 0 {
				t.Errorf("internal errors: %+v", rep.InternalErrors)
			}
			if len(rep.Unreachable) != tt.claimed {
				t.Fatalf("%d unreachable, want %d: %+v", len(rep.Unreachable), tt.claimed, rep.Unreachable)
			}
			for _, u := range rep.Unreachable {
				if u.Cond != "x < 3" || !u.Outcome || u.By != "mc" || u.Line != 9 {
					t.Errorf("unreachable %+v, want x < 3 true at line 9 by mc", u)
				}
			}
		})
	}
}
