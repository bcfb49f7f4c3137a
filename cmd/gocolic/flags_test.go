package main

import (
	"fmt"
	"io"
	"testing"
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
	for _, cmd := range []string{"test", "fuzz"} {
		for _, tt := range tests {
			fs, cfg := exploreFlags(cmd, io.Discard)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatalf("%s %v: %v", cmd, tt.args, err)
			}
			if got := fmt.Sprint(cfg.Instrument); got != tt.want {
				t.Errorf("%s %v: Instrument %s, want %s", cmd, tt.args, got, tt.want)
			}
		}
	}
}
