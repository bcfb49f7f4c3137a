package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/explore"
)

// TestLearn runs gocolic learn on an example with tiny sizes, and then
// gocolic test with the weights it wrote: the file is valid and says
// what it was learned on, and the learned strategy reads it.
func TestLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := copyExamples(t)
	weights := filepath.Join(dir, "h.json")
	r := run(t, dir, 5*time.Minute, gocolic, "learn", "-runs", "40", "-samples", "3", "-top", "2", "-checks", "1",
		"-rounds", "2", "-workers", "2", "-seed", "3", "-solver", "z3", "./keywords", "Setting", "-o", weights)
	if r.code != 0 {
		t.Fatalf("gocolic learn exited %d:\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "wrote "+weights) {
		t.Errorf("gocolic learn does not say where it wrote the weights:\n%s", r.stderr)
	}
	w, err := explore.ReadWeights(weights)
	if err != nil {
		t.Fatal(err)
	}
	l := w.Learned
	// A round is 3 find runs and 2 check runs; a second round is run
	// only when it can improve on the first, and it runs whole.
	if l.Func != "Setting" || !strings.HasSuffix(l.Package, "/keywords") || l.Runs != 40 || l.Seed != 3 ||
		l.Samples != 3 || l.Top != 2 || l.Checks != 1 || l.Rounds < 1 || l.Method != "refine" || l.Score <= 0 || l.Partial ||
		l.Executions < 5*40*l.Rounds/2 || l.Executions > 5*40*l.Rounds {
		t.Errorf("weight file says %+v", l)
	}

	rep := filepath.Join(dir, "r.json")
	r = run(t, dir, 2*time.Minute, gocolic, "test", "-strategy", "learned", "-heuristic", weights, "-runs", "40",
		"-workers", "1", "-solver", "z3", "-notests", "-json", rep, "./keywords", "Setting")
	if r.code != 0 {
		t.Fatalf("gocolic test -strategy learned exited %d:\n%s", r.code, r.stderr)
	}
	got := readReport(t, rep)
	if got.Config["strategy"] != "learned" || got.Config["heuristic"] != weights || got.Branches.Covered == 0 {
		t.Errorf("report: strategy %v, heuristic %v, %d outcomes covered", got.Config["strategy"], got.Config["heuristic"], got.Branches.Covered)
	}

	// A weight file of another version is refused in one line, before
	// anything is built.
	data, err := os.ReadFile(weights)
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, []byte(strings.Replace(string(data), `"version": 1`, `"version": 0`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, dir, time.Minute, gocolic, "test", "-strategy", "learned", "-heuristic", old, "./keywords", "Setting")
	if want := "gocolic: -heuristic " + old + ": weight file format version 0"; r.code != 2 || !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("old weight file: exit %d, output %q, want one line starting %q", r.code, r.stderr, want)
	}
}
