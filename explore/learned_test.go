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

// succ is a crafted branch CFG.
type succ map[sites.Outcome][]sites.Outcome

func (s succ) Successors(site uint32, taken bool) []sites.Outcome {
	return s[sites.OutcomeOf(site, taken)]
}

// learnedFixture runs the crafted path through a Learned strategy with
// weights theta and returns it with the candidates, by depth.
func learnedFixture(t *testing.T, theta []float64, static map[uint32]SiteStatic, fl Successors) (*Learned, *Tree, []*Candidate) {
	t.Helper()
	s, err := NewLearned(theta, LearnedInput{Sites: learnedSites(), Static: static, Successors: fl})
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
	static := map[uint32]SiteStatic{1: SLoopGuard | SEntry, 4: SCase | SIntConst, 20: SNested}
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
	fl := succ{
		sites.OutcomeOf(5, false): {sites.OutcomeOf(6, true)},
		sites.OutcomeOf(6, true):  {sites.OutcomeOf(40, false)},
		sites.OutcomeOf(3, false): {sites.OutcomeOf(7, true)},
		sites.OutcomeOf(2, true):  {sites.OutcomeOf(1, true)}, // 1t is covered
	}
	theta := make([]float64, NumFeatures)
	theta[FEnd] = 1 // the first pick is the deepest: site 23 at depth 11
	s, tr, cs := learnedFixture(t, theta, nil, fl)
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
		// 2t → 1t, which is covered; no successors count as uncovered.
		{FRegionUncovered, []int{0, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{FRecent10, nil},                  // only 23t was handed out
		{FMostUncovered, []int{8, 9, 10}}, // big: 24 outcomes, 4 covered; main 18, 5 covered
		{FNearUnreached10, []int{6, 7}},   // 5f → 6t → 40f and 6t → 40f; far is never reached
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
	// The pick is depth 4 (b = 1t), whose 1-context the candidates at
	// depths 0 and 2 share; their 2-contexts (1t alone, 1t after 2f)
	// differ from depth 4's (1t after 3t).
	theta := make([]float64, NumFeatures)
	theta[FEntry] = 1
	s, _, cs := learnedFixture(t, theta, map[uint32]SiteStatic{1: SEntry}, nil)
	first, _ := s.Next()
	if first != cs[4] { // ties among the entry's sites: the deepest
		t.Fatalf("first pick %s, want depth 4", first)
	}
	tests := []struct {
		feature int
		want    []int
	}{
		{FContext1, []int{0, 2, 4}},
		{FContext2, []int{4}},
		{FRecent10, []int{0, 2, 4}},
		{FRecent30, []int{0, 2, 4}},
		{FAfterLast, nil}, // no answer yet
	}
	for _, tt := range tests {
		if got := setOf(s, cs, tt.feature); !slices.Equal(got, tt.want) {
			t.Errorf("%s: depths %v, want %v", featureNames[tt.feature], got, tt.want)
		}
	}
}

// TestLearnedChoice checks which candidate the strategy hands out given
// its weights.
func TestLearnedChoice(t *testing.T) {
	static := map[uint32]SiteStatic{4: SCase, 3: SNested, 22: SNested}
	tests := []struct {
		name    string
		weights map[int]float64
		want    []int // depths of the first picks
	}{
		{"zero weights: deepest first", nil, []int{11, 10, 9}},
		{"case-false", map[int]float64{FCaseFalse: 2}, []int{5, 11, 10}},
		{"case-true: no candidate has it", map[int]float64{FCaseTrue: 2}, []int{11, 10, 9}},
		{"nested, the deeper first", map[int]float64{FNested: 1}, []int{10, 3, 11}},
		{"negative nested", map[int]float64{FNested: -1}, []int{11, 9, 8}},
		// front is dynamic: zero for the first pick, then it leads.
		{"front after the first pick", map[int]float64{FFront: 3}, []int{11, 0, 10}},
	}
	for _, tt := range tests {
		theta := make([]float64, NumFeatures)
		for f, w := range tt.weights {
			theta[f] = w
		}
		s, _, cs := learnedFixture(t, theta, static, nil)
		depth := map[*Candidate]int{}
		for _, c := range cs {
			depth[c] = c.Depth()
		}
		var got []int
		for range tt.want {
			c, ok := s.Next()
			if !ok {
				t.Fatalf("%s: ran out", tt.name)
			}
			got = append(got, depth[c])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: picked depths %v, want %v", tt.name, got, tt.want)
		}
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
	// The current path is 1t 2f 8t: 8 then 1 (2's other side is
	// covered); then the pool: 4 and 3, deepest first.
	if want := []string{"8", "1", "4", "3"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

func TestNewLearnedWeights(t *testing.T) {
	if _, err := NewLearned(make([]float64, 3), LearnedInput{}); err == nil {
		t.Error("NewLearned took 3 weights")
	}
}
