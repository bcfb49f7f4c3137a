package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// uuidGoal needs a 36-byte string, longer than the default -maxlen.
const uuidGoal = `package u

func Parse(s string) int {
	if len(s) != 36 {
		return 0
	}
	if s[8] == '-' && s[13] == '-' {
		panic("found")
	}
	return 1
}
`

// TestMaxLenFromCode runs gocolic test on a goal behind len(s) == 36:
// the default -maxlen (32) is raised to 37 from the comparison, said on
// stderr and recorded in the report, and the goal is reached; with
// -maxlen 32 given, it is not raised and the goal stays out of reach.
func TestMaxLenFromCode(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"u/u.go": uuidGoal})
	for _, tc := range []struct {
		name   string
		flags  []string
		found  bool
		maxLen float64
	}{
		{"default", nil, true, 37},
		{"given", []string{"-maxlen", "32"}, false, 32},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "r.json")
			args := append([]string{"test", "-budget", "20s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-maxbugs", "1", "-notests", "-json", js}, tc.flags...)
			res := run(t, dir, 2*time.Minute, gocolic, append(args, "./u", "Parse")...)
			if res.code != 0 {
				t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
			}
			rep := readReport(t, js)
			found := len(rep.Bugs) > 0 && strings.Contains(rep.Bugs[0].Message, "found")
			if found != tc.found {
				t.Errorf("goal reached: %v, want %v (%d executions)\n%s", found, tc.found, rep.Executions, res.stderr)
			}
			if got, _ := rep.Config["maxlen"].(float64); got != tc.maxLen {
				t.Errorf("report's maxlen %v, want %v", rep.Config["maxlen"], tc.maxLen)
			}
		})
	}
}
