package session

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/guard"
	"github.com/gocolic/gocolic/report"
)

// TestGuardedOutputs makes writing the test file panic, as a bug of the
// emitter would: that output fails with an error that says so, and the
// JSON report written after it still is, listing the failure with its
// stack beside the one the coordinator recorded.
func TestGuardedOutputs(t *testing.T) {
	rep := &coordinator.Report{Queries: map[string]int{}}
	rep.AddInternal(&guard.Error{Where: "solver", Value: "index out of range", Stack: "solver stack"})
	tgt := &Entry{PkgPath: "example.com/m/p", PkgName: "p", Func: "F"}
	steps := []struct {
		where string
		f     func() error
		want  string // error message; "" for none
	}{
		{"emit", func() error { panic("emitter bug") }, "internal error in emit: panic: emitter bug"},
		{"corpus", func() error { return errors.New("disk full") }, "disk full"},
		{"report", func() error {
			return writeJSON(filepath.Join(t.TempDir(), "r.json"), Config{}, "test", "/x", tgt, rep, nil, &Outcome{})
		}, ""},
	}
	for _, s := range steps {
		err := guarded(rep, s.where, s.f)
		if got := fmtErr(err); got != s.want {
			t.Errorf("%s: error %q, want %q", s.where, got, s.want)
		}
	}
	j, _ := writeAndRead(t, Config{}, tgt, rep, &Outcome{})
	if len(j.InternalErrors) != 2 {
		t.Fatalf("internal errors %+v, want the solver's and the emitter's", j.InternalErrors)
	}
	if ie := j.InternalErrors[0]; ie != (report.InternalError{Where: "solver", Message: "index out of range", Count: 1, Stack: "solver stack"}) {
		t.Errorf("first internal error %+v", ie)
	}
	if ie := j.InternalErrors[1]; ie.Where != "emit" || ie.Message != "emitter bug" || ie.Count != 1 || !strings.Contains(ie.Stack, "session.TestGuardedOutputs") {
		t.Errorf("second internal error %+v, want the emitter's panic with its stack", ie)
	}
	// A run without failures says so with an empty list.
	path := filepath.Join(t.TempDir(), "report.json")
	if err := writeJSON(path, Config{}, CmdTest, "/x", tgt, &coordinator.Report{Queries: map[string]int{}}, nil, &Outcome{}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"internal_errors": []`) {
		t.Errorf("report of a clean run lacks an empty internal_errors list")
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// writeAndRead writes the JSON report of a test run and reads it back; it
// returns the report and the path of its file.
func writeAndRead(t *testing.T, cfg Config, tgt *Entry, rep *coordinator.Report, out *Outcome) (report.Report, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.json")
	if err := writeJSON(path, cfg, CmdTest, "/x", tgt, rep, nil, out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j report.Report
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	return j, path
}
