package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// concretisedTargets hand a symbolic input to code gocolic does not see
// into, and branch concretely on what comes back before a symbolic
// branch: the input the solver derives for the symbolic branch changes
// the concrete one, so the run diverges. The line of each drop is marked.
const concretisedTargets = `package h

import (
	"crypto/sha256"

	"example.com/m/h/lib"
)

// Hash: sha256.Sum256 returns an array, which no model or opaque term
// covers, so b's term is dropped at the call.
func Hash(b []byte) int {
	sum := sha256.Sum256(b) // dropped: call
	if sum[0] != 0xe3 {     // sha256("") starts with 0xe3
		return 1
	}
	if len(b) == 5 {
		return 2
	}
	return 0
}

// Checksum: lib.Sum, a function of another package gocolic does not
// instrument, is an opaque call, concrete under -solver z3.
func Checksum(b []byte) int {
	c := lib.Sum(b) // dropped: opaque
	if c != 0 {     // Sum("") is 0
		return 1
	}
	if len(b) == 3 {
		return 2
	}
	return 0
}
`

// concretisedLib is the package of Checksum's opaque call.
const concretisedLib = `package lib

// Sum is an FNV-1a hash of b, 0 for no bytes.
func Sum(b []byte) uint32 {
	if len(b) == 0 {
		return 0
	}
	h := uint32(2166136261)
	for _, c := range b {
		h ^= uint32(c)
		h *= 16777619
	}
	return h
}
`

// TestConcretisedDivergence checks that the JSON report and the summary
// name the cause of the divergence and the line where the value was made
// concrete.
func TestConcretisedDivergence(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"h/h.go": concretisedTargets, "h/lib/lib.go": concretisedLib})
	line := func(marker string) int {
		for i, l := range strings.Split(concretisedTargets, "\n") {
			if strings.Contains(l, marker) {
				return i + 1
			}
		}
		t.Fatalf("no line marked %q", marker)
		return 0
	}
	tests := []struct {
		fn, cause, marker string
	}{
		{"Hash", "call", "dropped: call"},
		{"Checksum", "opaque", "dropped: opaque"},
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "r.json")
			res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "30s", "-workers", "1", "-seed", "1", "-lanes", "concolic",
				"-notests", "-solver", "z3", "-json", js, "./h", tt.fn)
			if res.code != 0 {
				t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
			}
			rep := readReport(t, js)
			c := rep.Concretised
			if rep.Divergences == 0 || c.Divergences != rep.Divergences {
				t.Fatalf("%d divergences, %d in the concretised object; want some, the same\n%s", rep.Divergences, c.Divergences, res.stderr)
			}
			pos := fmt.Sprintf("%s:%d", filepath.Join("h", "h.go"), line(tt.marker))
			var found bool
			for _, cause := range c.Causes {
				if cause.Cause != tt.cause {
					continue
				}
				found = true
				if cause.Divergences != rep.Divergences || cause.Events == 0 {
					t.Errorf("cause %s: %d events, %d divergences; want events and all %d divergences", cause.Cause, cause.Events, cause.Divergences, rep.Divergences)
				}
				if len(cause.Sites) == 0 || !strings.HasSuffix(cause.Sites[0].Pos, string(filepath.Separator)+pos) || cause.Sites[0].Divergences == 0 {
					t.Errorf("cause %s: places %+v, want %s first, with the divergences", cause.Cause, cause.Sites, pos)
				}
			}
			if !found {
				t.Errorf("no cause %q in %+v", tt.cause, c.Causes)
			}
			if c.Unattributed != 0 {
				t.Errorf("%d divergences after no concretised value, want 0", c.Unattributed)
			}
			summary := fmt.Sprintf("  %s: ", tt.cause)
			if !strings.Contains(res.stderr, summary) || !strings.Contains(res.stderr, pos) {
				t.Errorf("summary lacks %q or %s:\n%s", summary, pos, res.stderr)
			}
		})
	}
}
