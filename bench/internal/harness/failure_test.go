package harness

import (
	"errors"
	"testing"
)

func TestRunFailure(t *testing.T) {
	tests := []struct {
		name      string
		code      int
		timedOut  bool
		reportErr error
		want      string
	}{
		{"completed", 0, false, nil, ""},
		{"completed without report", 0, false, errors.New("open r.json: no such file"), "no usable JSON report: open r.json: no such file"},
		{"gocolic failed", 1, false, nil, "exit status 1"},
		{"bad input", 2, false, errors.New("missing"), "exit status 2"},
		{"killed", -1, true, errors.New("missing"), "killed at the time limit"},
	}
	for _, tt := range tests {
		if got := RunFailure(tt.code, tt.timedOut, tt.reportErr); got != tt.want {
			t.Errorf("%s: RunFailure = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestLastMessage(t *testing.T) {
	tests := []struct {
		name, out, want string
	}{
		{"unknown flag", "flag provided but not defined: -solver\nusage: gocolic test [flags] <package> <Func>\n\nFlags:\n  -budget duration\n", "flag provided but not defined: -solver"},
		{
			"error after status lines",
			"gocolic: elapsed: 1s, execs: 3 (3/sec), paths: 3, branches: 2/4 (50.0%), bugs: 0, solver: 9%\ngocolic: 3 executions, 3 paths, branches 2/4, 0 bugs, stopped: error\ngocolic: solver: z3 crashed\n",
			"solver: z3 crashed",
		},
		{"only status lines", "gocolic: elapsed: 1s, execs: 3 (3/sec)\n\n  something else\n", "gocolic: elapsed: 1s, execs: 3 (3/sec)"},
		{"nothing", "", ""},
	}
	for _, tt := range tests {
		if got := LastMessage([]byte(tt.out)); got != tt.want {
			t.Errorf("%s: LastMessage = %q, want %q", tt.name, got, tt.want)
		}
	}
}
