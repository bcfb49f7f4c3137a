package mc

import "testing"

// TestCheckCoarse checks the coarse check (MaxRefinements < 0) that
// Prove runs first: on Flagged, whose goal x < 3 needs one refinement to
// be proved, it closes a graph without refining and gives the goal up
// instead of claiming it; the default check refines and claims it.
// Neither claims an unmapped goal.
func TestCheckCoarse(t *testing.T) {
	p := loadAbs(t)
	gl := p.goal(t, "Flagged", "x < 3", true)
	for _, tc := range []struct {
		name  string
		max   int
		steps int
		want  Status
	}{
		{"coarse", -1, 0, Unknown},
		{"refined", 0, 1, Unreachable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			unmapped := Goal{Site: 1 << 30, Taken: true}
			res := checkFn(t, p, "Flagged", []Goal{gl, unmapped}, Options{MaxRefinements: tc.max})
			if v := res.Verdicts[unmapped]; v.Status != Unknown {
				t.Errorf("the unmapped goal: %v, want unknown", v.Status)
			}
			if res.ARG == nil {
				t.Fatalf("no closed graph: %s", res.Incomplete)
			}
			if len(res.Steps) != tc.steps || res.Verdicts[gl].Status != tc.want {
				t.Errorf("%d steps, verdict %v (%s); want %d, %v", len(res.Steps), res.Verdicts[gl].Status, res.Verdicts[gl].Why, tc.steps, tc.want)
			}
		})
	}
}

// TestEither checks how Prove combines the coarse and the refined
// verdicts on a goal: a proof stands unless the other found a path,
// and then neither is believed.
func TestEither(t *testing.T) {
	for _, tc := range []struct{ a, b, want Status }{
		{Unknown, Unknown, Unknown},
		{Unreachable, Unknown, Unreachable},
		{Unknown, Unreachable, Unreachable},
		{Reachable, Unknown, Reachable},
		{Unknown, Reachable, Reachable},
		{Unreachable, Unreachable, Unreachable},
		{Reachable, Unreachable, Unknown},
		{Unreachable, Reachable, Unknown},
	} {
		if got := either(tc.a, tc.b); got != tc.want {
			t.Errorf("either(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestCheckAllConds checks AllConds, which the rounds during testing
// use: the conditions of every plain If of the function's sites are
// predicates from the start, goals or not, so that a coarse graph
// towards Flagged's x < 3 alone tracks x > 5 and b as well.
func TestCheckAllConds(t *testing.T) {
	p := loadAbs(t)
	gl := p.goal(t, "Flagged", "x < 3", true)
	for _, tc := range []struct {
		all   bool
		preds int
	}{
		{false, 1},
		{true, 3},
	} {
		res := checkFn(t, p, "Flagged", []Goal{gl}, Options{MaxRefinements: -1, AllConds: tc.all})
		if res.ARG == nil {
			t.Fatalf("AllConds %t: no closed graph: %s", tc.all, res.Incomplete)
		}
		if len(res.ARG.Preds) != tc.preds {
			t.Errorf("AllConds %t: %d predicates, want %d", tc.all, len(res.ARG.Preds), tc.preds)
		}
	}
}
