package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/session"
)

// TestInstrumentFlag checks that -instrument takes comma-separated
// patterns, repeated or not, for test and fuzz alike.
func TestInstrumentFlag(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "[]"},
		{[]string{"-instrument", "./..."}, "[./...]"},
		{[]string{"-instrument", "./b, example.com/dep/...,"}, "[./b example.com/dep/...]"},
		{[]string{"-instrument", "./b", "-instrument", "example.com/dep"}, "[./b example.com/dep]"},
	}
	for _, cmd := range []session.Command{session.CmdTest, session.CmdFuzz} {
		for _, tt := range tests {
			cfg := new(session.Config)
			fs := commandFlags(cfg, cmd, io.Discard, "")
			if err := fs.Parse(tt.args); err != nil {
				t.Fatalf("%s %v: %v", cmd, tt.args, err)
			}
			if got := fmt.Sprint(cfg.Instrument); got != tt.want {
				t.Errorf("%s %v: Instrument %s, want %s", cmd, tt.args, got, tt.want)
			}
		}
	}
}

// TestCommandFlags checks that test, fuzz, learn and update each take their own flags
// and name themselves in their usage message.
func TestCommandFlags(t *testing.T) {
	tests := []struct {
		cmd   session.Command
		usage string
		args  []string
		ok    bool
	}{
		{session.CmdTest, testUsage, []string{"-maxelems", "3", "-o", "d", "-notests", "-replay", "d"}, true},
		{session.CmdTest, testUsage, []string{"-nocorpus"}, false},
		{session.CmdTest, testUsage, []string{"-with-fuzzer"}, false},
		{session.CmdFuzz, fuzzUsage, []string{"-nocorpus", "-fuzzcache", "-with-fuzzer"}, true},
		{session.CmdFuzz, fuzzUsage, []string{"-maxelems", "3"}, false},
		{session.CmdFuzz, fuzzUsage, []string{"-coverprofile", "c.out"}, false},
		{session.CmdFuzz, fuzzUsage, []string{"-replay", "d"}, false},
		{session.CmdTest, testUsage, []string{"-strategy", "learned", "-heuristic", "h.json"}, true},
		{session.CmdLearn, learnUsage, []string{"-samples", "4", "-top", "2", "-checks", "1", "-rounds", "2", "-o", "h.json"}, true},
		{session.CmdLearn, learnUsage, []string{"-strategy", "dfs"}, false},
		{session.CmdLearn, learnUsage, []string{"-json", "r.json"}, false},
		// update explores with the saved suite's settings (state.Settings).
		{session.CmdUpdate, updateUsage, []string{"-check", "-workers", "1", "-lanes", "concolic", "-json", "r.json"}, true},
		{session.CmdUpdate, updateUsage, []string{"-stdlib=false"}, false},
		{session.CmdUpdate, updateUsage, []string{"-instrument", "./dep"}, false},
		{session.CmdUpdate, updateUsage, []string{"-impure", "os"}, false},
		{session.CmdUpdate, updateUsage, []string{"-solver", "walk"}, false},
		{session.CmdUpdate, updateUsage, []string{"-strategy", "dfs"}, false},
	}
	for _, tt := range tests {
		var out strings.Builder
		fs := commandFlags(new(session.Config), tt.cmd, &out, tt.usage)
		err := fs.Parse(tt.args)
		if (err == nil) != tt.ok {
			t.Errorf("%s %v: error %v, want ok=%v", tt.cmd, tt.args, err, tt.ok)
		}
		if !tt.ok && !strings.Contains(out.String(), "usage: gocolic "+string(tt.cmd)+" ") {
			t.Errorf("%s %v: usage message does not name the command:\n%s", tt.cmd, tt.args, out.String())
		}
	}
}

// TestLearnArgs checks that gocolic learn takes flags after its
// arguments too (the -o of its usage line), and refuses a bad command
// line before loading anything.
func TestLearnArgs(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"./p"}, "usage: gocolic learn"},
		{[]string{"./p", "F"}, "no weight file given (-o FILE)"},
		{[]string{"./p", "F", "-o", "h.json", "-top", "1"}, "-top 1 must be at least 2"},
		{[]string{"-top", "9", "./p", "F", "-o", "h.json", "-samples", "4"}, "-top 9 must be at least 2 (refinement draws around the two best) and at most -samples 4"},
		{[]string{"./p", "F", "-o", "h.json", "-method", "grid"}, `-method "grid": want refine or random`},
	}
	for _, tt := range tests {
		var out strings.Builder
		code := run(context.Background(), append([]string{"learn"}, tt.args...), &out)
		if code != 2 || !strings.Contains(out.String(), tt.want) {
			t.Errorf("learn %v: exit %d, output %q, want 2 and %q", tt.args, code, out.String(), tt.want)
		}
	}
}

// TestArgsError checks the line that says what is wrong with the
// arguments after the flags: too few, a -backoff mode given without =, or
// anything else.
func TestArgsError(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "got 0 argument(s)"},
		{[]string{"./p"}, "got 1 argument(s)"},
		{[]string{"all", "./p", "F"}, "-backoff=all"},
		{[]string{"./p", "F", "extra"}, "flags go before the package"},
	} {
		if got := argsError(tt.args); !strings.Contains(got, tt.want) {
			t.Errorf("argsError(%q) = %q, want it to contain %q", tt.args, got, tt.want)
		}
	}
}
