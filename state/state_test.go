package state

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func sample() *State {
	return &State{
		Version: Version, Command: "test", Package: "example.com/mid", Func: "Mid", Target: "Mid",
		Strategy: "dfs", MaxDepth: 50, Seed: 7, MaxLen: 32,
		Settings: Settings{Stdlib: true, Instrument: []string{"./dep/..."}, Impure: []string{"os"}, Solver: "z3"},
		Params:   []string{"int64", "int64", "int64"}, Exhausted: true,
		Funcs: map[string]string{"Mid": "0123456789abcdef", "T.M": "fedcba9876543210"},
		Inputs: []Input{
			{Values: []string{"int64(0)", "int64(1)", "int64(2)"},
				Path:    []Step{{Site: "Mid#0", Taken: true, Cond: "aa"}, {Site: "Mid#1", Taken: false, Cond: "bb"}},
				Results: []string{"1"}},
			{Values: []string{"int64(-3)", "int64(0)", "int64(0)"}},
		},
		Spent: Spent{Executions: 9, Queries: 8, ElapsedMS: 120},
	}
}

func TestRoundTrip(t *testing.T) {
	st := sample()
	data, err := Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, st) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, st)
	}
	if !strings.Contains(string(data), `"T Mid#0 aa"`) {
		t.Errorf("steps are not written as strings:\n%s", data)
	}
}

func TestDecodeRefuses(t *testing.T) {
	good, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	other := strings.Replace(string(good), fmt.Sprintf(`"version": %d`, Version), `"version": 1`, 1)
	for _, tc := range []struct {
		name, data string
		version    bool // the error is ErrVersion
	}{
		{"empty", "", false},
		{"truncated", string(good[:len(good)/2]), false},
		{"truncated at the end", string(good[:len(good)-3]), false},
		{"not JSON", "go test fuzz v1\nint(1)\n", false},
		{"no version", `{"func": "Mid", "package": "p"}`, false},
		{"other version", other, true},
		{"unknown field", strings.Replace(string(good), `"strategy"`, `"strategy2": "x", "strategy"`, 1), false},
		{"bad step", strings.Replace(string(good), `"T Mid#0 aa"`, `"X Mid#0 aa"`, 1), false},
		{"values do not fit the layout", strings.Replace(string(good), `"int64(-3)",`, ``, 1), false},
		{"trailing data", string(good) + "{}", false},
		{"no function", strings.Replace(string(good), `"func": "Mid"`, `"func": ""`, 1), false},
		{"no settings (a version 1 file relabelled)", strings.Replace(string(good), `"solver": "z3"`, `"solver": ""`, 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := Decode([]byte(tc.data))
			if err == nil || st != nil {
				t.Fatalf("Decode = %v, %v; want no state and an error", st, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			if got := errors.Is(err, ErrVersion); got != tc.version {
				t.Errorf("errors.Is(%q, ErrVersion) = %t, want %t", err, got, tc.version)
			}
		})
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	if _, err := Read(filepath.Join(dir, "none.state.json")); err == nil || !strings.Contains(err.Error(), "run gocolic test") {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.state.json")
	if err := os.WriteFile(bad, []byte(`{"version": 2, "func": `), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("corrupt file: %v, want an error naming it", err)
	}
}

func TestEncodeRefusesOtherVersion(t *testing.T) {
	st := sample()
	st.Version = 0
	if _, err := Encode(st); err == nil {
		t.Fatal("Encode wrote a state without this version")
	}
}
