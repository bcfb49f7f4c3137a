package explore

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/sym"
)

// learnedPath is the path of the crafted run: N = 12 branches, site 1
// three times the true way; sites 1-6 are function main's, 20-23 big's.
const learnedPath = "1t 2f 1t 3t 1t 4f 5t 6f 20t 21t 22t 23t"

// learnedSites is the site table of the crafted program: main has sites
// 1..9, big 20..31 (12), far 40..51 (12, never reached).
func learnedSites() []sites.Site {
	var table []sites.Site
	add := func(fn string, from, to uint32) {
		for id := from; id <= to; id++ {
			table = append(table, sites.Site{ID: id, Kind: sites.Cond, Func: fn})
		}
	}
	add("main", 1, 9)
	add("big", 20, 31)
	add("far", 40, 51)
	return table
}

// reachGraph is a crafted static graph: the sites reachable from each
// outcome with their distances, and which sites dominate which.
type reachGraph struct {
	from map[sites.Outcome]map[uint32]int
	dom  map[[2]uint32]bool
}

func (g reachGraph) Distance(uint32, bool) int  { return Far }
func (g reachGraph) Cover(sites.Coverage)       {}
func (g reachGraph) Dominates(d, b uint32) bool { return g.dom[[2]uint32{d, b}] }
func (g reachGraph) From(site uint32, taken bool) map[uint32]int {
	return g.from[sites.OutcomeOf(site, taken)]
}

// learnedFixture runs the crafted path through a Learned strategy with
// weights theta and returns it with the candidates, by depth.
func learnedFixture(t *testing.T, theta []float64, static map[uint32]SiteProps, fl Static) (*Learned, *Tree, []*Candidate) {
	t.Helper()
	return learnedSeeded(t, theta, static, fl, 1)
}

// learnedSeeded is learnedFixture with the seed of the choice among
// equals.
func learnedSeeded(t *testing.T, theta []float64, static map[uint32]SiteProps, fl Static, seed int64) (*Learned, *Tree, []*Candidate) {
	t.Helper()
	s, err := NewLearned(theta, LearnedInput{Sites: learnedSites(), Props: static, Static: fl, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	b := sym.NewBuilder()
	tr := NewTree(b, Options{})
	p := path(b, learnedPath)
	out := tr.Record(p, sym.Env{}, nil)
	fb := Feedback{Event: Ran, Outcome: out, Fresh: sites.Coverage{}}
	for _, br := range p {
		fb.Hits = append(fb.Hits, Hit{Site: br.Site, Side: br.Taken, Count: 1})
		if br.Site != 2 { // 2f counts as covered before this run
			fb.Fresh.Add(br.Site, br.Taken)
		}
	}
	s.Update(fb)
	return s, tr, out.NewCandidates
}

// setOf returns the depths of the candidates that have feature f.
func setOf(s *Learned, cs []*Candidate, f int) []int {
	var out []int
	for _, c := range cs {
		if s.features(s.byNode[c.Node], 0).Has(f) {
			out = append(out, c.Depth())
		}
	}
	return out
}

func TestLearnedStaticAndPathFeatures(t *testing.T) {
	static := map[uint32]SiteProps{1: SLoopGuard | SEntry, 4: SCase | SIntConst, 20: SNested}
	s, _, cs := learnedFixture(t, make([]float64, NumFeatures), static, nil)
	// Before any selection only the static features are set.
	if got := setOf(s, cs, FFront); got != nil {
		t.Errorf("front before the first selection: %v, want none", got)
	}
	if _, ok := s.Next(); !ok { // the first selection switches the dynamic features on
		t.Fatal("no candidate")
	}
	tests := []struct {
		feature int
		want    []int
	}{
		{FEntry, []int{0, 2, 4}},
		{FLoopEnter, []int{0, 2, 4}}, // b is 1t: the side that enters
		{FLoopExit, nil},
		{FCaseFalse, []int{5}}, // b is 4f
		{FCaseTrue, nil},
		{FIntConst, []int{5}},
		{FNested, []int{8}},
		{FFront, []int{0}},              // cidx < floor(1.2)
		{FEnd, []int{11}},               // cidx > floor(10.8)
		{FMostFrequent, []int{0, 2, 4}}, // 1t, three times
		{FLeastFrequent, []int{1, 3, 5, 6, 7, 8, 9, 10, 11}},
		{FFresh, []int{0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}, // not 2f
	}
	for _, tt := range tests {
		if got := setOf(s, cs, tt.feature); !slices.Equal(got, tt.want) {
			t.Errorf("%s: depths %v, want %v", featureNames[tt.feature], got, tt.want)
		}
	}
}

func TestLearnedSearchFeatures(t *testing.T) {
	fl := reachGraph{from: map[sites.Outcome]map[uint32]int{
		sites.OutcomeOf(5, false): {6: 1, 40: 2},
		sites.OutcomeOf(6, true):  {40: 1},
		sites.OutcomeOf(3, false): {7: 1},
		sites.OutcomeOf(2, true):  {1: 1}, // site 1 is covered
	}}
	theta := make([]float64, NumFeatures)
	theta[FNested] = 1 // the first pick is site 23 at depth 11
	s, tr, cs := learnedFixture(t, theta, map[uint32]SiteProps{23: SNested}, fl)
	first, _ := s.Next()
	if first != cs[11] {
		t.Fatalf("first pick %s, want depth 11", first)
	}
	// The pick was reached as predicted: after-last holds from its depth on.
	b := sym.NewBuilder()
	out := tr.Record(path(b, "1t 2f 1t 3t 1t 4f 5t 6f 20t 21t 22t 23f"), sym.Env{}, first)
	s.Update(Feedback{Event: Ran, Origin: first, Outcome: out})
	// Eleven failed attempts at 1f (depth 0's side), one fake one at 1t.
	for range 11 {
		s.Update(Feedback{Event: Refuted, Origin: cs[0]})
	}
	for range 11 {
		s.Update(Feedback{Event: Unsolved, Origin: &Candidate{Node: cs[0].Node, Side: true}})
	}
	tests := []struct {
		feature int
		want    []int
	}{
		{FAfterLast, nil},                                        // depth 11 is no longer open
		{FContext1, nil},                                         // 23t was handed out: no other 23t
		{FNearLast, []int{9, 10}},                                // |d-11|·5 ≤ 12
		{FFlipUnsat, []int{0, 2, 4}},                             // pair(b) = 1f failed 11 times
		{FTargetUnsat, []int{0, 2, 4}},                           // b = 1t failed 11 times
		{FOppUncovered, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}, // the untaken sides
		// 2t → site 1 and 5f → site 6, which are covered; no
		// successors count as uncovered.
		{FRegionUncovered, []int{0, 2, 3, 4, 5, 7, 8, 9, 10}},
		{FRecent10, nil},                  // only 23t was handed out
		{FMostUncovered, []int{8, 9, 10}}, // big: 24 outcomes, 4 covered; main 18, 5 covered
		{FNearUnreached10, []int{6, 7}},   // 5f → 6 → 40 and 6t → 40; far is never reached
		{FNearUnreachedT, []int{6, 7}},    // far has 12 ≥ 10 branch sites
		{FLatestFunc, []int{8, 9, 10}},    // big: 12 sites, first reached 1 run ago; main has 9
	}
	for _, tt := range tests {
		if got := setOf(s, cs[:11], tt.feature); !slices.Equal(got, tt.want) {
			t.Errorf("%s: depths %v, want %v", featureNames[tt.feature], got, tt.want)
		}
	}
}

func TestLearnedContextAndRecent(t *testing.T) {
	// The pick is one of depths 0, 2 and 4 (b = 1t), whose 1-context
	// the three share; their 2-contexts (1t alone, 1t after 2f, 1t after
	// 3t) differ.
	theta := make([]float64, NumFeatures)
	theta[FEntry] = 1
	for seed := range int64(6) {
		s, _, cs := learnedSeeded(t, theta, map[uint32]SiteProps{1: SEntry}, nil, seed)
		first, _ := s.Next()
		if d := first.Depth(); d != 0 && d != 2 && d != 4 {
			t.Fatalf("first pick %s, want depth 0, 2 or 4", first)
		}
		tests := []struct {
			feature int
			want    []int
		}{
			{FContext1, []int{0, 2, 4}},
			{FContext2, []int{first.Depth()}},
			{FRecent10, []int{0, 2, 4}},
			{FRecent30, []int{0, 2, 4}},
			{FAfterLast, nil}, // no answer yet
		}
		for _, tt := range tests {
			if got := setOf(s, cs, tt.feature); !slices.Equal(got, tt.want) {
				t.Errorf("seed %d: %s: depths %v, want %v", seed, featureNames[tt.feature], got, tt.want)
			}
		}
	}
}

// TestLearnedContextDominators checks that the sites dominating a
// branch are left out of its contexts: with sites 2 and 3 dominating
// site 1, the 2-contexts of depths 2 and 4 are both 1t after 1t.
func TestLearnedContextDominators(t *testing.T) {
	theta := make([]float64, NumFeatures)
	theta[FEntry] = 1
	g := reachGraph{dom: map[[2]uint32]bool{{2, 1}: true, {3, 1}: true}}
	for seed := range int64(6) {
		s, _, cs := learnedSeeded(t, theta, map[uint32]SiteProps{1: SEntry}, g, seed)
		first, _ := s.Next()
		want := []int{2, 4}
		if first.Depth() == 0 {
			want = []int{0}
		}
		if got := setOf(s, cs, FContext2); !slices.Equal(got, want) {
			t.Errorf("seed %d: picked depth %d: context-2 at depths %v, want %v", seed, first.Depth(), got, want)
		}
	}
}

// TestLearnedChoice checks which candidates the strategy hands out
// first, given its weights.
func TestLearnedChoice(t *testing.T) {
	static := map[uint32]SiteProps{4: SCase, 3: SNested, 22: SNested | SIntConst}
	tests := []struct {
		name    string
		weights map[int]float64
		want    []int // depths of the first picks
	}{
		{"case-false", map[int]float64{FCaseFalse: 2}, []int{5}},
		{"case-true: no candidate has it", map[int]float64{FCaseTrue: 2, FIntConst: 1}, []int{10}},
		{"nested and int-const add up", map[int]float64{FNested: 1, FIntConst: 2}, []int{10, 3}},
		{"a negative weight outweighs", map[int]float64{FNested: 4, FIntConst: -5, FCaseFalse: 1}, []int{3, 5}},
		// front and end are dynamic: zero for the first pick.
		{"front after the first pick", map[int]float64{FFront: 3, FCaseFalse: 1}, []int{5, 0}},
		{"end after the first pick", map[int]float64{FEnd: 3, FCaseFalse: 1}, []int{5, 11}},
	}
	for _, tt := range tests {
		theta := make([]float64, NumFeatures)
		for f, w := range tt.weights {
			theta[f] = w
		}
		s, _, _ := learnedFixture(t, theta, static, nil)
		var got []int
		for range tt.want {
			c, ok := s.Next()
			if !ok {
				t.Fatalf("%s: ran out", tt.name)
			}
			got = append(got, c.Depth())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: picked depths %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestLearnedTies checks that equals are chosen among at random: the
// same seed makes the same choices, other seeds others, and a candidate
// of lower score never comes before them.
func TestLearnedTies(t *testing.T) {
	theta := make([]float64, NumFeatures)
	theta[FNested] = -1
	orders := map[string]bool{}
	drainDepths := func(seed int64) []int {
		s, _, _ := learnedSeeded(t, theta, map[uint32]SiteProps{3: SNested, 22: SNested}, nil, seed)
		var order []int
		for {
			c, ok := s.Next()
			if !ok {
				return order
			}
			order = append(order, c.Depth())
		}
	}
	for seed := range int64(8) {
		order := drainDepths(seed)
		if again := drainDepths(seed); !slices.Equal(order, again) {
			t.Errorf("seed %d: order %v, then %v", seed, order, again)
		}
		if len(order) != 12 {
			t.Fatalf("seed %d: order %v", seed, order)
		}
		last := slices.Clone(order[10:])
		slices.Sort(last)
		if !slices.Equal(last, []int{3, 10}) {
			t.Errorf("seed %d: order %v: the nested sites are not last", seed, order)
		}
		orders[fmt.Sprint(order)] = true
	}
	if len(orders) < 4 {
		t.Errorf("8 seeds gave %d orders", len(orders))
	}
}

// TestLearnedCurrentPath checks that the candidates of the last path
// come first, and that the rest are scored when it has none left.
func TestLearnedCurrentPath(t *testing.T) {
	s, err := NewLearned(make([]float64, NumFeatures), LearnedInput{})
	if err != nil {
		t.Fatal(err)
	}
	b := sym.NewBuilder()
	tr := NewTree(b, Options{})
	var got []string
	// The second path leaves the first at depth 1.
	offer(s, tr.Record(path(b, "1t 2t 3t 4t"), sym.Env{}, nil).NewCandidates...)
	offer(s, tr.Record(path(b, "1t 2f 8t"), sym.Env{}, nil).NewCandidates...)
	for {
		c, ok := s.Next()
		if !ok {
			break
		}
		got = append(got, fmt.Sprint(c.Node.Site))
	}
	// The current path is 1t 2f 8t: 8 and 1 (2's other side is
	// covered); then the pool: 4 and 3.
	slices.Sort(got[:2])
	slices.Sort(got[2:])
	if want := []string{"1", "8", "3", "4"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want 1 and 8, then 3 and 4", got)
	}
}

func TestNewLearnedWeights(t *testing.T) {
	if _, err := NewLearned(make([]float64, 3), LearnedInput{}); err == nil {
		t.Error("NewLearned took 3 weights")
	}
}
