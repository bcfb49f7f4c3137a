package session

import (
	"flag"
	"io"
	"reflect"
	"testing"
)

// TestFlagsDefaults checks that a command line without flags leaves the
// Config DefaultConfig says.
func TestFlagsDefaults(t *testing.T) {
	for _, cmd := range []Command{CmdTest, CmdFuzz} {
		var c Config
		if err := c.Flags(cmd).Parse(nil); err != nil {
			t.Fatal(err)
		}
		if want := DefaultConfig(); !reflect.DeepEqual(c, want) {
			t.Errorf("%s: flags leave\n%+v\nwant DefaultConfig\n%+v", cmd, c, want)
		}
	}
}

// TestSettings checks that the report's configuration holds every flag of
// the command, keyed by its name, with the value the command line gave.
func TestSettings(t *testing.T) {
	tests := []struct {
		cmd  Command
		args []string
		want map[string]any
	}{
		{CmdTest, nil, map[string]any{
			"budget": "0s", "strategy": "cover", "solver": "auto", "solver-timeout": "2s", "timeout": "1s",
			"walktabu": -1, "walkbisect": true, "maxelems": DefaultConfig().MaxElems, "instrument": "", "seed": int64(0),
			"lanes": "both",
		}},
		{CmdFuzz, []string{"-lanes", "both"}, map[string]any{"lanes": "both"}},
		{CmdTest, []string{"-solver", "walk", "-solver-timeout", "300ms", "-depth", "7", "-walksteps", "9",
			"-walktabu", "0", "-walkbisect=false", "-instrument", "./a,./b", "-impure", "p.F", "-seed", "3", "-budget", "2s"},
			map[string]any{
				"solver": "walk", "solver-timeout": "300ms", "depth": 7, "walksteps": 9, "walktabu": 0,
				"walkbisect": false, "instrument": "./a,./b", "impure": "p.F", "seed": int64(3), "budget": "2s",
			}},
		{CmdTest, []string{"-walktabu", "5", "-replay", "x,y"}, map[string]any{"walktabu": 5, "replay": "x,y"}},
		{CmdFuzz, []string{"-with-fuzzer", "-nocorpus"}, map[string]any{"with-fuzzer": true, "nocorpus": true}},
		{CmdTest, []string{"-strategy", "learned", "-heuristic", "h.json"}, map[string]any{"strategy": "learned", "heuristic": "h.json"}},
		{CmdLearn, nil, map[string]any{"runs": LearnRuns, "budget": "1h0m0s", "samples": 20, "top": 3, "checks": 3, "rounds": 19, "o": ""}},
		{CmdLearn, []string{"-samples", "4", "-top", "2", "-checks", "1", "-rounds", "2", "-o", "h.json"},
			map[string]any{"samples": 4, "top": 2, "checks": 1, "rounds": 2, "o": "h.json"}},
	}
	for _, tt := range tests {
		var c Config
		fs := c.Flags(tt.cmd)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatalf("%s %v: %v", tt.cmd, tt.args, err)
		}
		got := c.Settings(tt.cmd)
		fs.VisitAll(func(f *flag.Flag) {
			if _, ok := got[f.Name]; !ok {
				t.Errorf("%s %v: setting -%s missing", tt.cmd, tt.args, f.Name)
			}
		})
		if len(got) != countFlags(fs) {
			t.Errorf("%s %v: %d settings for %d flags", tt.cmd, tt.args, len(got), countFlags(fs))
		}
		for k, v := range tt.want {
			if !reflect.DeepEqual(got[k], v) {
				t.Errorf("%s %v: setting %s = %#v, want %#v", tt.cmd, tt.args, k, got[k], v)
			}
		}
		// Recording must not change the Config.
		if again := c.Settings(tt.cmd); !reflect.DeepEqual(again, got) {
			t.Errorf("%s %v: Settings changed between calls", tt.cmd, tt.args)
		}
	}
}

func countFlags(fs *flag.FlagSet) int {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n
}

// TestBackoffFlag checks -backoff's modes and its boolean forms.
func TestBackoffFlag(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
		bad  bool
	}{
		{nil, "implicit", false},
		{[]string{"-backoff"}, "all", false},
		{[]string{"-backoff=true"}, "all", false},
		{[]string{"-backoff=false"}, "off", false},
		{[]string{"-backoff=off"}, "off", false},
		{[]string{"-backoff=all"}, "all", false},
		{[]string{"-backoff=implicit"}, "implicit", false},
		{[]string{"-backoff=sometimes"}, "", true},
	} {
		var c Config
		fs := c.Flags(CmdTest)
		fs.SetOutput(io.Discard)
		err := fs.Parse(tt.args)
		if (err != nil) != tt.bad {
			t.Errorf("%v: error %v, want one: %v", tt.args, err, tt.bad)
			continue
		}
		if !tt.bad && c.Backoff != tt.want {
			t.Errorf("%v: Backoff %q, want %q", tt.args, c.Backoff, tt.want)
		}
	}
}
