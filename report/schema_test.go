package report

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSetting(t *testing.T) {
	tests := []struct {
		name  string
		value any
		want  string
	}{
		{"missing", nil, ""},
		{"string", "cover", "cover"},
		{"number read from JSON", float64(42), "42"},
		{"fraction", 0.25, "0.25"},
		{"bool", true, "true"},
		{"int written by gocolic", 4, "4"},
		{"list", []string{"a", "b"}, `["a","b"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Report{Config: map[string]any{}}
			if tt.value != nil {
				r.Config["k"] = tt.value
			}
			if got := r.Setting("k"); got != tt.want {
				t.Errorf("Setting = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestEncodeDecode checks that a report survives its encoding, that the
// encoding is the indented one gocolic writes, and that empty optional
// fields are left out.
func TestEncodeDecode(t *testing.T) {
	in := &Report{
		Tool: "gocolic", Command: "fuzz", Executions: 12,
		Branches:    Branches{Covered: 1, Total: 4, Sites: []Site{{ID: 3, Pos: "p.go:1:2", Cond: "x > 0", True: true}, {ID: 4, Pos: "p.go:9:2", Cond: "y > 0"}}},
		Unreachable: []Unreachable{{ID: 4, File: "p.go", Line: 9, Cond: "y > 0", Outcome: true, By: "cfg"}, {ID: 4, File: "p.go", Line: 9, Cond: "y > 0", By: "cfg"}},
		Bugs:        []Bug{{Kind: "panic", Message: "m", Inputs: map[string]string{"x": "1"}, Count: 2}},
		Concretised: &Concretised{Events: 1, Causes: []Cause{{Cause: "call", Sites: []ConcreteSite{{Pos: "p.go:3"}}}}},
		Timeline:    []Point{{MS: 5, Execs: 1, Covered: 1, Paths: 1, Findings: 0}},
		Cases:       [][]string{{"1"}},
		Config:      map[string]any{"strategy": "cover", "workers": float64(2)},
		Hybrid:      &HybridStats{Rounds: 1, Parallel: 2},
	}
	data, err := Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.HasPrefix(text, "{\n  \"tool\": \"gocolic\",\n") || !strings.HasSuffix(text, "}\n") {
		t.Errorf("encoding is not gocolic's indented JSON:\n%s", text)
	}
	for _, absent := range []string{`"tests"`, `"coverprofile"`, `"reproducer"`, `"stack"`, `"note"`} {
		if strings.Contains(text, absent) {
			t.Errorf("empty %s written:\n%s", absent, text)
		}
	}
	out, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("decoded\n%+v\nwant\n%+v", out, in)
	}
	for _, want := range []string{`"unreachable": [`, `"outcome": true`, `"by": "cfg"`, `"file": "p.go"`, `"line": 9`} {
		if !strings.Contains(text, want) {
			t.Errorf("encoding lacks %s:\n%s", want, text)
		}
	}
	if n := out.Reachable(); n != 2 {
		t.Errorf("Reachable() = %d, want 4 - 2", n)
	}
}

func TestReadJSON(t *testing.T) {
	dir := writeRunDir(t, t.TempDir(), "run", `{"executions": 3}`, "")
	r, err := ReadJSON(filepath.Join(dir, ReportFile))
	if err != nil || r.Executions != 3 {
		t.Errorf("ReadJSON = %+v, %v", r, err)
	}
	bad := writeRunDir(t, t.TempDir(), "run", `[]`, "")
	if _, err := ReadJSON(filepath.Join(bad, ReportFile)); err == nil || !strings.Contains(err.Error(), ReportFile) {
		t.Errorf("ReadJSON of a list: %v, want an error naming the file", err)
	}
	if _, err := ReadJSON(filepath.Join(bad, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("ReadJSON of a missing file: %v, want an error naming it", err)
	}
}
