package explore

import (
	"hash/fnv"
	"math/bits"
	"strings"

	"github.com/gocolic/gocolic/sites"
)

// The features of the learned heuristic (seed 001, after ParaDySE). Each
// candidate is described by 40 yes/no features of b, the branch direction
// its node took on the path that opened it (flipping the candidate reaches
// pair(b), the candidate's own side). A weight vector scores it as the sum
// of the weights of the features it has (Learned).
//
// Portability: every feature is about a kind of branch (what its
// condition looks like, where it lies in the source) or about the state
// of the search (coverage, what was tried), never about a site id, a line
// or a function's name; so weights learned on one version of a package
// carry to the next, where edits move sites and renumber them. The one
// feature tied to a name is FEntry, and it names the role (the function
// under test), not the function.
const (
	// Static: what the source says about the site (SiteProps), both
	// directions unless said.

	FEntry        = iota // the site lies in the function under test, or in a fuzz target's body
	FLoopEnter           // b is the direction of a loop guard that enters the body (the true side of a for condition or of a range loop's "more elements")
	FLoopExit            // b is the direction of a loop guard that leaves the loop
	FNested              // the site lies in the then-arm of an enclosing if, or is the right operand of && (b in a && b)
	FExternalCall        // an operand is the result of a call of a function of another package, directly or through a variable it was assigned to (err in if err != nil)
	FIntConst            // an operand is an integer constant (a bare bool test has no operand but itself: it never counts)
	FCharConst           // an operand is an integer constant in [0,128), or a string constant (Go's equivalent of matching characters)
	FPointer             // an operand is a dereference, a field reached through a pointer, or an element of a slice or map
	FLocal               // an operand is a local variable, a parameter, or the result of a call (not a package variable, not a constant)
	FInLoop              // the site lies in a for or range statement of its function (its guard included; function literals inside end it)
	FCaseTrue            // b enters a case body: the true side of a case value of a switch
	FCaseFalse           // b goes on to the next case: the false side of a case value

	// Dynamic, fixed when the candidate is opened, over the path that
	// opened it (N branches; cidx the candidate's depth).

	FFront         // cidx < floor(0.1·N)
	FEnd           // cidx > floor(0.9·N)
	FMostFrequent  // b occurs on the path as often as the most frequent direction of the path
	FLeastFrequent // b occurs on the path as seldom as the least frequent direction
	FFresh         // b was first covered by the execution that opened the candidate

	// Dynamic, over the search so far.

	FAfterLast       // cidx ≥ the depth of the last candidate handed out, whose execution reached it as predicted
	FContext1        // the 1-context of b (b alone) was handed out before
	FContext2        // the 2-context of b (b and the branch before it on the path) was handed out before
	FContext3        // the same for 3 branches
	FContext4        // the same for 4
	FContext5        // the same for 5
	FSelected10      // the depth cidx and the direction b were each handed out more than 10 times
	FSelected20      // ... more than 20 times
	FSelected30      // ... more than 30 times
	FNearLast        // |cidx − depth of the last candidate handed out| ≤ 0.2·N
	FTargetUnsat     // more than 10 attempts to reach b itself failed
	FFlipUnsat       // more than 10 attempts to reach pair(b) failed (unsat, unknown, lost or diverged)
	FOppUncovered    // pair(b) was never covered
	FRegionUncovered // pair(b) and every branch direction one step after it (Successors) were never covered; 0 without Successors
	FRecent10        // b is among the last 10 directions handed out
	FRecent20        // ... the last 20
	FRecent30        // ... the last 30
	FMostUncovered   // b's function has the most uncovered branch outcomes among the functions reached so far
	FNearUnreached10 // a target lies at pair(b) or one or two Successors steps beyond it; targets are the first branch of the never-reached functions among the largest 10% (by branch sites); 0 without Successors
	FNearUnreached20 // ... the largest 20%
	FNearUnreached33 // ... the largest third
	FNearUnreachedT  // ... functions of at least 10 branch sites
	FLatestFunc      // b's function was first reached within the last 10 executions and has at least 10 branch sites

	// NumFeatures is the length of a weight vector.
	NumFeatures
)

// featureNames are the names of the features in the weight file, in order.
var featureNames = [NumFeatures]string{
	"entry", "loop-enter", "loop-exit", "nested", "external-call", "int-const", "char-const",
	"pointer", "local", "in-loop", "case-true", "case-false",
	"front", "end", "most-frequent", "least-frequent", "fresh",
	"after-last", "context-1", "context-2", "context-3", "context-4", "context-5",
	"selected-10", "selected-20", "selected-30", "near-last", "target-unsat", "flip-unsat",
	"opposite-uncovered", "region-uncovered", "recent-10", "recent-20", "recent-30",
	"most-uncovered-func", "near-unreached-10", "near-unreached-20", "near-unreached-33",
	"near-unreached-t10", "latest-func",
}

// FeatureNames returns the names of the features, in weight order.
func FeatureNames() []string { return append([]string(nil), featureNames[:]...) }

// Features is a candidate's feature vector: bit i is feature i.
type Features uint64

// Has reports whether feature i is set.
func (f Features) Has(i int) bool { return f&(1<<i) != 0 }

func (f *Features) set(i int, on bool) {
	if on {
		*f |= 1 << i
	}
}

// Score returns θ·f.
func (f Features) Score(theta *[NumFeatures]float64) float64 {
	var s float64
	for f != 0 { // in increasing order of i, as sums of floats depend on it
		s += theta[bits.TrailingZeros64(uint64(f))]
		f &= f - 1
	}
	return s
}

// SiteProps holds what the source says about one branch site
// (SitePropsOf computes it): the static features that do not depend on
// the direction, and the two properties from which the directional ones
// follow.
type SiteProps uint16

// The static properties of a site.
const (
	SEntry SiteProps = 1 << iota
	SLoopGuard
	SNested
	SExternalCall
	SIntConst
	SCharConst
	SPointer
	SLocal
	SInLoop
	SCase
)

// features returns the static features of direction taken of a site with
// properties st.
func (st SiteProps) features(taken bool) Features {
	var f Features
	f.set(FEntry, st&SEntry != 0)
	f.set(FLoopEnter, st&SLoopGuard != 0 && taken)
	f.set(FLoopExit, st&SLoopGuard != 0 && !taken)
	f.set(FNested, st&SNested != 0)
	f.set(FExternalCall, st&SExternalCall != 0)
	f.set(FIntConst, st&SIntConst != 0)
	f.set(FCharConst, st&SCharConst != 0)
	f.set(FPointer, st&SPointer != 0)
	f.set(FLocal, st&SLocal != 0)
	f.set(FInLoop, st&SInLoop != 0)
	f.set(FCaseTrue, st&SCase != 0 && taken)
	f.set(FCaseFalse, st&SCase != 0 && !taken)
	return f
}

// Reach is what the features that look ahead (FRegionUncovered,
// FNearUnreached*) read of a Static graph that has it (cfa.Graph does):
// From returns the sites reachable from taking side taken at site on the
// interprocedural branch graph, each with the number of branches entered
// on a shortest path to it, its own included (1 for the sites entered
// next). Without it those features are 0.
type Reach interface {
	From(site uint32, taken bool) map[uint32]int
}

// pathDir is one direction on a path: the node's site and the side the
// path took there.
type pathDir struct {
	site  uint32
	taken bool
}

func (d pathDir) outcome() sites.Outcome { return sites.OutcomeOf(d.site, d.taken) }

// pathOf returns the directions of the path through n that takes side at
// n, root first.
func pathOf(n *Node, side bool) []pathDir {
	out := make([]pathDir, n.Depth+1)
	out[n.Depth] = pathDir{n.Site, side}
	for m := n; m.parent != nil; m = m.parent {
		out[m.parent.Depth] = pathDir{m.parent.Site, m.side}
	}
	return out
}

// contexts returns the hashes of the k-contexts of direction taken at n,
// k = 1..5: the direction, then the directions before it on the path,
// skipping those whose site dominates n's (always there, they tell
// nothing; dom may be nil), up to k of them. (ParaDySE's trace holds
// every branch and call; here it is the path's symbolic branches.) A
// context that the path is too short for repeats the longest one.
func contexts(n *Node, taken bool, dom func(d, b uint32) bool) [5]uint64 {
	var out [5]uint64
	h := fnv.New64a()
	var rec [5]byte
	write := func(site uint32, side bool) {
		rec[0], rec[1], rec[2], rec[3] = byte(site), byte(site>>8), byte(site>>16), byte(site>>24)
		rec[4] = 0
		if side {
			rec[4] = 1
		}
		h.Write(rec[:])
	}
	write(n.Site, taken)
	out[0] = h.Sum64()
	m := n
	for k := 1; k < 5; k++ {
		for m.parent != nil && dom != nil && dom(m.parent.Site, n.Site) {
			m = m.parent
		}
		if m.parent != nil {
			write(m.parent.Site, m.side)
			m = m.parent
		}
		out[k] = h.Sum64()
	}
	return out
}

// pathFeatures returns the features fixed when a candidate at depth cidx,
// of direction b, is opened by an execution of path (N = len(path)), whose
// direction counts are counts, and which covered fresh first.
func pathFeatures(cidx int, b pathDir, path []pathDir, counts map[pathDir]int, lo, hi int, fresh sites.Coverage) Features {
	var f Features
	n := len(path)
	f.set(FFront, cidx < n/10)
	f.set(FEnd, cidx > n*9/10)
	f.set(FMostFrequent, counts[b] == hi)
	f.set(FLeastFrequent, counts[b] == lo)
	f.set(FFresh, fresh.Has(b.site, b.taken))
	return f
}

// dirCounts counts the directions of path and returns the smallest and
// largest count.
func dirCounts(path []pathDir) (counts map[pathDir]int, lo, hi int) {
	counts = make(map[pathDir]int, len(path))
	for _, d := range path {
		counts[d]++
	}
	lo = len(path)
	for _, c := range counts {
		lo, hi = min(lo, c), max(hi, c)
	}
	return counts, lo, hi
}

var staticNames = [...]string{"entry", "loop-guard", "nested", "external-call", "int-const", "char-const", "pointer", "local", "in-loop", "case"}

// String lists the properties, joined by |.
func (st SiteProps) String() string {
	var parts []string
	for i, n := range staticNames {
		if st&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "|")
}
