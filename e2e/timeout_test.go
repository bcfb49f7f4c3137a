package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// timeoutTargets time out in two ways: Spin hangs at one input, Heavy is
// fast but builds a term per iteration of a long loop, so that only its
// run with symbolic tracking exceeds the time limit.
const timeoutTargets = `package tm

func Spin(x int) int {
	if x == 123456789 {
		for {
		}
	}
	return x
}

func Heavy(x int) int {
	h := x
	for i := 0; i < 5000000; i++ {
		h = h*31 + x
	}
	if h == 7 {
		return 1
	}
	return 0
}
`

// TestTimeouts checks that a hang is a timeout finding, and that an
// execution that exceeds -timeout only with symbolic tracking is not:
// gocolic runs it again without tracking, counts it, reports no bug, and
// keeps what that run covered.
func TestTimeouts(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"tm/tm.go": timeoutTargets})
	tests := []struct {
		fn       string
		wantBug  bool // a timeout finding
		wantSlow bool // executions slow only under tracking
	}{
		{"Spin", true, false},
		{"Heavy", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "r.json")
			res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "10s", "-workers", "1", "-seed", "1", "-lanes", "concolic",
				"-maxbugs", "1", "-notests", "-minimizetime", "0", "-timeout", "1500ms", "-solver", "z3", "-json", js, "./tm", tt.fn)
			if res.code != 0 {
				t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
			}
			rep := readReport(t, js)
			gotBug := len(rep.Bugs) > 0 && rep.Bugs[0].Kind == "timeout"
			if gotBug != tt.wantBug || len(rep.Bugs) > 1 || len(rep.Bugs) == 1 && !gotBug {
				t.Errorf("bugs %+v, want a timeout: %v\n%s", rep.Bugs, tt.wantBug, res.stderr)
			}
			if (rep.SlowTracked > 0) != tt.wantSlow {
				t.Errorf("%d executions slow only under tracking, want some: %v\n%s", rep.SlowTracked, tt.wantSlow, res.stderr)
			}
			// What the runs without tracking covered counts, and kept
			// a case: Heavy's loop and its h != 7 side.
			if tt.wantSlow && (rep.Branches.Covered == 0 || len(rep.Cases) == 0) {
				t.Errorf("slow executions: %d outcomes covered, %d cases; want their coverage and a case", rep.Branches.Covered, len(rep.Cases))
			}
		})
	}
}

// hangFuzz is a fuzz target that hangs at one input the solver finds.
var hangFuzz = map[string]string{
	"hf/hf.go": `package hf

func Spin(x int) int {
	if x == 123456789 {
		for {
		}
	}
	return x + 1
}
`,
	"hf/hf_test.go": `package hf

import "testing"

func FuzzHang(f *testing.F) {
	f.Add(1)
	f.Fuzz(func(t *testing.T, x int) { Spin(x) })
}
`}

// TestFuzzHangProfile checks that a run directory's coverage profile,
// which replays the corpus under go test, skips the corpus entry of a
// timeout finding: replayed, it held go test until its own ten-minute
// timeout, long after the run's budget (seen on govalues/decimal).
func TestFuzzHangProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, hangFuzz)
	rd := filepath.Join(t.TempDir(), "run")
	res := run(t, dir, 3*time.Minute, gocolic, "fuzz", "-budget", "10s", "-workers", "1", "-seed", "1", "-lanes", "concolic",
		"-maxbugs", "1", "-minimizetime", "0", "-timeout", "1500ms", "-rundir", rd, "./hf", "FuzzHang")
	if res.code != 0 {
		t.Fatalf("gocolic fuzz exited %d:\n%s", res.code, res.stderr)
	}
	rep := readReport(t, filepath.Join(rd, "report.json"))
	if len(rep.Bugs) != 1 || rep.Bugs[0].Kind != "timeout" {
		t.Fatalf("bugs %+v, want one timeout\n%s", rep.Bugs, res.stderr)
	}
	b, err := os.ReadFile(filepath.Join(rd, "cover.out"))
	if err != nil || !strings.HasPrefix(string(b), "mode: ") || strings.Count(string(b), "\n") < 2 {
		t.Errorf("cover.out: %q, %v\n%s", b, err, res.stderr)
	}
}
