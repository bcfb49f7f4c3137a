package learn

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// TestRefine checks the refinement rule: per feature, the range a new
// weight is drawn from follows the signs of the two best.
func TestRefine(t *testing.T) {
	w1 := []float64{3, -2, 4, 0, -7}
	w2 := []float64{5, -6, -1, 2, -0.5}
	want := [][2]float64{
		{3, Bound},      // both positive: from the smaller up
		{-Bound, -2},    // both negative: up to the larger
		{-Bound, Bound}, // mixed signs: anywhere
		{-Bound, Bound}, // a zero is not positive
		{-Bound, -0.5},
	}
	r := rand.New(rand.NewPCG(1, 2))
	lo := make([]float64, len(w1))
	hi := make([]float64, len(w1))
	for i := range lo {
		lo[i], hi[i] = Bound, -Bound
	}
	for range 2000 {
		w := Refine(w1, w2, r)
		for i, x := range w {
			if x < want[i][0] || x > want[i][1] {
				t.Fatalf("feature %d: %g outside [%g, %g]", i, x, want[i][0], want[i][1])
			}
			lo[i], hi[i] = min(lo[i], x), max(hi[i], x)
		}
	}
	// The draws fill their range: within 5% of each end.
	for i := range want {
		span := want[i][1] - want[i][0]
		if lo[i] > want[i][0]+0.05*span || hi[i] < want[i][1]-0.05*span {
			t.Errorf("feature %d: draws span [%g, %g], want about [%g, %g]", i, lo[i], hi[i], want[i][0], want[i][1])
		}
	}
}

// fake is a program whose coverage grows with weight 0 and shrinks with
// weight 1, plus a little noise from the seed.
func fake(_ context.Context, theta []float64, seed int64) (Score, error) {
	return Score{Covered: int(100+5*theta[0]-3*theta[1]) + int(uint64(seed)%3), Execs: 10}, nil
}

func TestLearnImproves(t *testing.T) {
	cfg := Config{Samples: 12, Top: 3, Checks: 2, Rounds: 6, Parallel: 1, Seed: 7}
	res, err := Learn(context.Background(), cfg, 4, fake, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Theta[0] < 5 || res.Theta[1] > -3 {
		t.Errorf("learned %v, want weight 0 high and weight 1 low", res.Theta)
	}
	if res.Rounds < 2 || res.Partial || !res.Checked {
		t.Errorf("rounds %d, partial %t, checked %t", res.Rounds, res.Partial, res.Checked)
	}
	if per := cfg.Samples + cfg.Top*cfg.Checks; res.Runs%per != 0 || res.Runs < 2*per || res.Execs != 10*res.Runs {
		t.Errorf("%d runs, %d executions: want whole rounds of %d runs of 10", res.Runs, res.Execs, per)
	}
	// The same seed learns the same weights, however many run at once.
	cfg.Parallel = 3
	again, err := Learn(context.Background(), cfg, 4, fake, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Theta, res.Theta) || again.Score != res.Score {
		t.Errorf("seed 7 learned %v (%g), then %v (%g) in parallel", res.Theta, res.Score, again.Theta, again.Score)
	}
	cfg.Seed = 8
	other, _ := Learn(context.Background(), cfg, 4, fake, nil)
	if slices.Equal(other.Theta, res.Theta) {
		t.Error("seeds 7 and 8 learned the same weights")
	}
}

// TestLearnPartial checks that a learning cut short returns the best
// weights found so far and says so.
func TestLearnPartial(t *testing.T) {
	tests := []struct {
		name    string
		after   int64 // runs before the cut
		checked bool  // the weights were checked
	}{
		{"during the first find", 5, false},
		{"during the first check", 14, false},
		{"in the second round", 20, true},
	}
	for _, tt := range tests {
		ctx, cancel := context.WithCancel(context.Background())
		var n atomic.Int64
		run := func(ctx context.Context, theta []float64, seed int64) (Score, error) {
			if n.Add(1) == tt.after {
				cancel()
			}
			return fake(ctx, theta, seed)
		}
		res, err := Learn(ctx, Config{Samples: 10, Top: 2, Checks: 2, Rounds: 5, Parallel: 1, Seed: 1}, 4, run, nil)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !res.Partial || len(res.Theta) != 4 || res.Score < 90 || res.Checked != tt.checked {
			t.Errorf("%s: partial %t, weights %v, score %g, checked %t", tt.name, res.Partial, res.Theta, res.Score, res.Checked)
		}
		if res.Runs != int(tt.after) {
			t.Errorf("%s: %d runs, want %d: none after the cut", tt.name, res.Runs, tt.after)
		}
	}
}

// TestLearnFailures checks that a failing run costs only itself, and
// that a learning whose runs all fail is an error.
func TestLearnFailures(t *testing.T) {
	var n atomic.Int64
	some := func(ctx context.Context, theta []float64, seed int64) (Score, error) {
		if n.Add(1)%4 == 0 {
			return Score{}, errors.New("worker died")
		}
		return fake(ctx, theta, seed)
	}
	res, err := Learn(context.Background(), Config{Samples: 8, Top: 2, Checks: 2, Rounds: 3, Parallel: 1}, 4, some, nil)
	if err != nil || res.Failed == 0 {
		t.Errorf("some failures: %v, %d failed", err, res.Failed)
	}
	all := func(context.Context, []float64, int64) (Score, error) { return Score{}, errors.New("worker died") }
	if _, err := Learn(context.Background(), Config{Samples: 8, Top: 2, Checks: 2, Rounds: 3, Parallel: 1}, 4, all, nil); err == nil {
		t.Error("all runs failed, and Learn succeeded")
	}
}

func TestConfigValidate(t *testing.T) {
	c := Config{}
	if err := c.Validate(); err != nil || c != DefaultConfig() {
		t.Errorf("zero config: %+v, %v", c, err)
	}
	for _, bad := range []Config{{Samples: 4, Top: 5}, {Top: 1}, {Checks: -1}} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%+v validated", bad)
		}
	}
}

// TestLearnRandom checks RQ3's baseline: every round draws uniformly (no
// refinement), all rounds run (no early stop), so the cost equals the
// rounds' runs, and the result is the best check average of all rounds.
func TestLearnRandom(t *testing.T) {
	type run struct {
		theta []float64
		score int
	}
	record := func(runs *[]run) Runner {
		var mu sync.Mutex
		return func(ctx context.Context, theta []float64, seed int64) (Score, error) {
			s, err := fake(ctx, theta, seed)
			mu.Lock()
			*runs = append(*runs, run{slices.Clone(theta), s.Covered})
			mu.Unlock()
			return s, err
		}
	}
	cfg := Config{Samples: 10, Top: 2, Checks: 2, Rounds: 4, Parallel: 1, Seed: 3}
	perRound := cfg.Samples + cfg.Top*cfg.Checks

	var refined []run
	cfg.Method = MethodRefine
	if _, err := Learn(context.Background(), cfg, 4, record(&refined), nil); err != nil {
		t.Fatal(err)
	}
	var sampled []run
	cfg.Method = MethodRandom
	res, err := Learn(context.Background(), cfg, 4, record(&sampled), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rounds != cfg.Rounds || res.Runs != cfg.Rounds*perRound || len(sampled) != res.Runs {
		t.Errorf("random: %d rounds, %d runs (%d recorded), want %d and %d", res.Rounds, res.Runs, len(sampled), cfg.Rounds, cfg.Rounds*perRound)
	}
	if slices.Equal(refined[0].theta, sampled[0].theta) {
		t.Error("random sampling drew refinement's first sample: the methods share their first round")
	}
	// Refinement keeps weight 0 positive after the first round (the two
	// best have it positive); uniform draws do not.
	negative := func(runs []run) bool {
		for _, r := range runs[perRound:] {
			if r.theta[0] < 0 {
				return true
			}
		}
		return false
	}
	if negative(refined) {
		t.Error("refine: a later round drew weight 0 negative; the test's premise fails")
	}
	if !negative(sampled) {
		t.Error("random: no later round drew weight 0 negative: it refined")
	}
	// The result is the best check average over all rounds: a checked
	// vector is run once in the find and Checks times in the check.
	byTheta := map[string][]int{}
	for _, r := range sampled {
		k := fmt.Sprint(r.theta)
		byTheta[k] = append(byTheta[k], r.score)
	}
	bestAvg := -1.0
	for _, scores := range byTheta {
		if len(scores) != 1+cfg.Checks {
			continue
		}
		sum := 0
		for _, s := range scores[1:] {
			sum += s
		}
		bestAvg = max(bestAvg, float64(sum)/float64(cfg.Checks))
	}
	if !res.Checked || res.Score != bestAvg {
		t.Errorf("random: result score %g (checked %t), want the best check average %g", res.Score, res.Checked, bestAvg)
	}
}
