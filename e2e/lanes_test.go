package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/report"
)

// laneTargets pair a condition only the solver meets (a 32-bit product, no
// constant of the source and no mutation of one) with one only the
// mutation lane meets: mix reads its input through a pointer, so the
// rewrite keeps it concrete and the concolic lane has nothing to negate
// there, and a random input meets it one time in eight.
const laneTargets = `package ln

func mix(b uint32) uint32 {
	x := b
	p := &x
	return (*p * 2654435761) >> 29
}

// Solved needs the solver's a, then a mutation of b that keeps it.
func Solved(a, b uint32) int {
	if a*0x9E3779B1 == 0x12345678 {
		if mix(b) == 3 {
			return 2
		}
		return 1
	}
	return 0
}

// Mutated needs the mutation lane's b, then the solver's a on its path.
func Mutated(a, b uint32) int {
	if mix(b) == 3 {
		if a*0x9E3779B1 == 0x12345678 {
			return 2
		}
		return 1
	}
	return 0
}

// None has no input: the mutation lane has nothing to try.
func None() int { return 1 }
`

// covers reports whether the run covered the outcome side of the branch
// of function fn whose condition contains cond.
func covers(rep *report.Report, fn, cond string, side bool) bool {
	for _, s := range rep.Branches.Sites {
		if s.Func == fn && strings.Contains(s.Cond, cond) {
			return side && s.True || !side && s.False
		}
	}
	return false
}

// TestLanes runs gocolic test with each choice of -lanes on targets that
// need both lanes. The concolic lane alone stops, exhausted, short of the
// inner branches; with both lanes the run goes on to its budget while the
// mutation lane finds coverage, the input the solver found seeds the
// mutation lane (Solved: the inner branch needs a mutation of it), and an
// input the mutation lane kept is traced and solved from by the concolic
// lane (Mutated: the inner branch needs the solver on its path). A target
// without inputs leaves neither lane anything, and the run ends early.
func TestLanes(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"ln/ln.go": laneTargets})
	const solved, mixed = "0x12345678", "mix(b) == 3"
	tests := []struct {
		fn, lanes   string
		wantStopped string
		inner       string // the inner condition, whose true side only both lanes together reach
		wantInner   bool
		check       func(t *testing.T, l *report.Lanes)
	}{
		{fn: "Solved", lanes: "concolic", wantStopped: "exhausted", inner: mixed},
		{fn: "Solved", lanes: "both", wantStopped: "budget", inner: mixed, wantInner: true,
			check: func(t *testing.T, l *report.Lanes) {
				if l.Seeded == 0 || l.MutationKept == 0 {
					t.Errorf("lanes %+v: want inputs seeded into the mutation lane and kept by it", *l)
				}
			}},
		{fn: "Mutated", lanes: "concolic", wantStopped: "exhausted", inner: solved},
		{fn: "Mutated", lanes: "both", wantStopped: "budget", inner: solved, wantInner: true,
			check: func(t *testing.T, l *report.Lanes) {
				if l.Traced == 0 || l.ConcolicKept == 0 {
					t.Errorf("lanes %+v: want the mutation lane's inputs traced and the concolic lane finding from them", *l)
				}
			}},
		{fn: "None", lanes: "both", wantStopped: "exhausted"},
	}
	for _, tt := range tests {
		t.Run(tt.fn+"/"+tt.lanes, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "r.json")
			res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "6s", "-workers", "1", "-seed", "1",
				"-lanes", tt.lanes, "-notests", "-minimizetime", "0", "-json", js, "./ln", tt.fn)
			if res.code != 0 {
				t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
			}
			rep := readReport(t, js)
			if rep.Stopped != tt.wantStopped {
				t.Errorf("stopped %q after %d ms, want %q", rep.Stopped, rep.ElapsedMS, tt.wantStopped)
			}
			if tt.inner != "" {
				if got := covers(rep, tt.fn, tt.inner, true); got != tt.wantInner {
					t.Errorf("true side of %q covered: %v, want %v; branches %+v", tt.inner, got, tt.wantInner, rep.Branches.Sites)
				}
			}
			if rep.Lanes == nil {
				t.Fatal("the report has no lanes")
			}
			if tt.check != nil {
				tt.check(t, rep.Lanes)
			}
		})
	}
}
