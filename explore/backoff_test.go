package explore

import (
	"slices"
	"testing"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// TestBackoff hands out the candidates of one path through site 7 eight
// times and site 8 twice (shallowest first), answering each as the test
// says, and checks the order in which a back-off of threshold 2 and
// largest shift 3 hands them out, by depth.
func TestBackoff(t *testing.T) {
	refuted := func(int) Event { return Refuted }
	tests := []struct {
		name   string
		answer func(depth int) Event // what became of the candidate at depth
		want   []int
	}{
		{
			name:   "reached sides keep the inner order",
			answer: func(int) Event { return Ran },
			want:   []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
		},
		{
			// Site 7 fails at depths 0 and 1; then one in 2 passes (3),
			// one in 4 (5), one in 8 (none left); site 8 is not backed
			// off; what was put aside comes last, oldest first.
			name:   "refuted outcome backs off exponentially",
			answer: refuted,
			want:   []int{0, 1, 3, 5, 8, 9, 2, 4, 6, 7},
		},
		{
			name:   "unsolved counts as a failure",
			answer: func(int) Event { return Unsolved },
			want:   []int{0, 1, 3, 5, 8, 9, 2, 4, 6, 7},
		},
		{
			// Depth 3 is reached: site 7 starts again from no failure.
			name: "a reached side clears its outcome's failures",
			answer: func(d int) Event {
				if d == 3 {
					return Ran
				}
				return Refuted
			},
			want: []int{0, 1, 3, 4, 5, 7, 8, 9, 2, 6},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := sym.NewBuilder()
			tr := NewTree(b, Options{})
			s := NewBackoff(NewBFS(), BackoffOptions{Threshold: 2, MaxShift: 3})
			offer(s, tr.Record(path(b, "7t 7t 7t 7t 7t 7t 7t 7t 8t 8t"), sym.Env{}, nil).NewCandidates...)
			var got []int
			for {
				c, ok := s.Next()
				if !ok {
					break
				}
				if c.State() != Pending {
					t.Fatalf("Next returned %s", c)
				}
				if len(got) == 5 {
					// The four not handed out, queued or aside, are Open
					// and counted by Len.
					if st := tr.Stats(); st.Open != 4 || s.Len() != 4 {
						t.Errorf("after 6 hand-outs: %d open, Len %d; want 4 and 4", st.Open, s.Len())
					}
				}
				got = append(got, c.Depth())
				switch ev := tt.answer(c.Depth()); ev {
				case Ran:
					s.Update(Feedback{Event: Ran, Origin: c, Outcome: Outcome{Reached: true}})
				default:
					st := solver.Unsat
					if ev == Unsolved {
						st = solver.Unknown
					}
					tr.Resolve(c, st)
					s.Update(Feedback{Event: ev, Origin: c})
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("order %v, want %v", got, tt.want)
			}
			if s.Len() != 0 {
				t.Errorf("Len %d when drained", s.Len())
			}
		})
	}
}

// TestBackoffFailures checks the count of failures in a row that a
// Backoff keeps per outcome.
func TestBackoffFailures(t *testing.T) {
	b := sym.NewBuilder()
	tr := NewTree(b, Options{})
	s := NewBackoff(NewDFS(), DefaultBackoff())
	cs := tr.Record(path(b, "5t 5t 6f"), sym.Env{}, nil).NewCandidates
	offer(s, cs...)
	s.Update(Feedback{Event: Refuted, Origin: cs[0]})
	s.Update(Feedback{Event: Unsolved, Origin: cs[1]})
	s.Update(Feedback{Event: Lost, Origin: cs[2]})
	if f5, f6 := s.Failures(5, false), s.Failures(6, true); f5 != 2 || f6 != 0 {
		t.Errorf("failures: site 5 %d, site 6 %d; want 2 and 0", f5, f6)
	}
	if s.String() != "dfs" {
		t.Errorf("String %q, want the inner strategy's", s.String())
	}
}

// TestBackoffOnly checks that BackoffOptions.Only limits the back-off of
// refuted outcomes to the sites it accepts: refutations elsewhere are not
// counted and their candidates keep the inner order; queries the solver
// gives up on back their outcome off at every site.
func TestBackoffOnly(t *testing.T) {
	backedOff, inner := []int{0, 1, 3, 5, 8, 9, 2, 4, 6, 7}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, tt := range []struct {
		name    string
		only    func(uint32) bool
		event   Event
		want    []int
		counted bool // site 7's failures are counted
	}{
		{"refuted, site 7 backed off", func(s uint32) bool { return s == 7 }, Refuted, backedOff, true},
		{"refuted, site 7 left alone", func(s uint32) bool { return s == 8 }, Refuted, inner, false},
		{"unknown, site 7 backed off though not accepted", func(s uint32) bool { return s == 8 }, Unsolved, backedOff, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := sym.NewBuilder()
			tr := NewTree(b, Options{})
			s := NewBackoff(NewBFS(), BackoffOptions{Threshold: 2, UnknownThreshold: 2, MaxShift: 3, Only: tt.only})
			offer(s, tr.Record(path(b, "7t 7t 7t 7t 7t 7t 7t 7t 8t 8t"), sym.Env{}, nil).NewCandidates...)
			got := failAll(s, tr, tt.event)
			if !slices.Equal(got, tt.want) {
				t.Errorf("order %v, want %v", got, tt.want)
			}
			if f := s.Failures(7, false); (f > 0) != tt.counted {
				t.Errorf("site 7 counted %d failures, want counted: %v", f, tt.counted)
			}
		})
	}
}

// TestBackoffUnknownThreshold checks that queries the solver gives up on
// back an outcome off after UnknownThreshold of them, before the
// Threshold that refutations need.
func TestBackoffUnknownThreshold(t *testing.T) {
	for _, tt := range []struct {
		name  string
		event Event
		want  []int
	}{
		// Threshold 4: four pass, then one in 2, one in 4, one in 8
		// (none of the last two); the deferred come last, in order.
		{"refuted", Refuted, []int{0, 1, 2, 3, 5, 7, 4, 6, 8, 9}},
		// UnknownThreshold 2: two pass, then one in 2, 4, 8.
		{"unknown", Unsolved, []int{0, 1, 3, 5, 9, 2, 4, 6, 7, 8}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := sym.NewBuilder()
			tr := NewTree(b, Options{})
			s := NewBackoff(NewBFS(), BackoffOptions{Threshold: 4, UnknownThreshold: 2, MaxShift: 3})
			offer(s, tr.Record(path(b, "7t 7t 7t 7t 7t 7t 7t 7t 7t 7t"), sym.Env{}, nil).NewCandidates...)
			got := failAll(s, tr, tt.event)
			if !slices.Equal(got, tt.want) {
				t.Errorf("order %v, want %v", got, tt.want)
			}
		})
	}
}

// failAll takes every candidate s hands out, in order, and fails its query
// with event (Refuted or Unsolved); it returns the candidates' depths.
func failAll(s *Backoff, tr *Tree, event Event) []int {
	var got []int
	for {
		c, ok := s.Next()
		if !ok {
			return got
		}
		got = append(got, c.Depth())
		st := solver.Unsat
		if event == Unsolved {
			st = solver.Unknown
		}
		tr.Resolve(c, st)
		s.Update(Feedback{Event: event, Origin: c})
	}
}
