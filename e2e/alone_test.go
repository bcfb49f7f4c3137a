package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// registry keeps a package-level map across calls, as pflag's global
// flag set does: a name defined before panics, which depends on what
// earlier executions in the same worker process defined; n == 7 is a bug
// of its own.
const registry = `package reg

var defined = map[string]bool{}

func Define(name string, n int) int {
	if n == 7 {
		panic("seven")
	}
	if defined[name] {
		panic("redefined: " + name)
	}
	defined[name] = true
	return len(name)
}
`

// TestStateDependentFailures runs gocolic test on the registry: the
// panics "redefined" do not recur when their input runs alone in a fresh
// worker, so they are listed in the report's state_dependent and not
// among its bugs, and the generated file reproduces only the real bug.
func TestStateDependentFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"reg/reg.go": registry})
	js := filepath.Join(t.TempDir(), "r.json")
	res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "20s", "-runs", "2000", "-workers", "1", "-seed", "1", "-json", js, "./reg", "Define")
	if res.code != 0 {
		t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
	}
	rep := readReport(t, js)
	if len(rep.Bugs) != 1 || rep.Bugs[0].Message != "seven" {
		var msgs []string
		for _, b := range rep.Bugs {
			msgs = append(msgs, b.Message)
		}
		t.Errorf("bugs %q, want only \"seven\"\n%s", msgs, res.stderr)
	}
	sd := rep.StateDependent
	if sd == nil || len(sd.Failures) == 0 {
		t.Fatalf("no state-dependent failures in the report\n%s", res.stderr)
	}
	for _, f := range sd.Failures {
		if f.Kind != "panic" || !strings.HasPrefix(f.Message, "redefined: ") || f.Count < 1 || f.Call == "" {
			t.Errorf("state-dependent failure %+v, want a panic \"redefined: ...\" with its count and call", f)
		}
	}
	// The bug and the first failure at the place were run alone; the
	// others at that place, past three, were classified without a run.
	if sd.Checked < 2 || sd.Checked+sd.Inferred != len(sd.Failures)+1 || sd.Unchecked != 0 {
		t.Errorf("checked %d, inferred %d, unchecked %d for %d failures and 1 bug", sd.Checked, sd.Inferred, sd.Unchecked, len(sd.Failures))
	}
	if !strings.Contains(res.stderr, "did not recur when their input ran alone") {
		t.Errorf("the summary does not say it:\n%s", res.stderr)
	}
	src, err := os.ReadFile(filepath.Join(dir, "reg", "define_gocolic_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(src); !strings.Contains(s, `"seven"`) || strings.Contains(s, "redefined") {
		t.Errorf("the generated file should reproduce \"seven\" and no \"redefined\":\n%s", s)
	}
}
