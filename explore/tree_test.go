package explore

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// cond returns the condition of site in the tests: v<site> <u 10.
func cond(b *sym.Builder, site uint32) *sym.Expr {
	return b.Cmp(sym.KULt, b.Var(uint64(site), 64), b.Const(10, 64))
}

// path parses space-separated site/outcome pairs: "1t 2f" is site 1 taken
// the true way, then site 2 taken the false way. A site's first branch has
// cond(b, site); each later one a term of its own, over a variable of its
// own, as a loop's condition on a changing counter has (a repeated term's
// other side is infeasible, and so is one the earlier bounds on the same
// variable decide).
func path(b *sym.Builder, s string) []Branch {
	var p []Branch
	seen := map[uint64]uint64{}
	for _, f := range strings.Fields(s) {
		site, err := strconv.ParseUint(f[:len(f)-1], 10, 32)
		if err != nil {
			panic(err)
		}
		c := cond(b, uint32(site))
		if k := seen[site]; k > 0 {
			c = b.Cmp(sym.KULt, b.Var(site<<16|k, 64), b.Const(10+k, 64))
		}
		seen[site]++
		p = append(p, Branch{Site: uint32(site), Taken: f[len(f)-1] == 't', Cond: c})
	}
	return p
}

// describe writes a candidate as site/depth/side/prediction.
func describe(c *Candidate) string {
	side := 'f'
	if c.Side {
		side = 't'
	}
	return fmt.Sprintf("%d/%d/%c/%s", c.Node.Site, c.Depth(), side, c.Expect)
}

func describeAll(cs []*Candidate) []string {
	var ds []string
	for _, c := range cs {
		ds = append(ds, describe(c))
	}
	return ds
}

// nodeAt follows outcomes ("tf": true, then false) from the root.
func nodeAt(tr *Tree, outcomes string) *Node {
	n := tr.Root()
	for _, c := range outcomes {
		if n == nil {
			return nil
		}
		n = n.Child(c == 't')
	}
	return n
}

// checkNodes compares node states written as "<false side> <true side>"
// with the nodes reached by their outcome prefixes; "none" wants no node.
func checkNodes(t *testing.T, tr *Tree, want map[string]string) {
	t.Helper()
	for at, w := range want {
		n := nodeAt(tr, at)
		got := "none"
		if n != nil {
			got = n.State(false).String() + " " + n.State(true).String()
		}
		if got != w {
			t.Errorf("node %q: states %q, want %q", at, got, w)
		}
	}
}

func TestRecord(t *testing.T) {
	type step struct {
		path       string
		newPath    bool
		candidates []string // site/depth/side/prediction
		trunc      bool
		incons     int // InconsistentAt
		stats      Stats
	}
	tests := []struct {
		name  string
		opts  Options
		steps []step
		nodes map[string]string // states after the last step
	}{
		{
			name: "build",
			steps: []step{
				{path: "1t 2f 3t", newPath: true, incons: -1,
					candidates: []string{"1/0/f/0", "2/1/t/11", "3/2/f/100"},
					stats:      Stats{Runs: 1, Paths: 1, Nodes: 3, Open: 3, Covered: 3}},
				{path: "1t 2t 4f", newPath: true, incons: -1,
					candidates: []string{"4/2/t/111"},
					stats:      Stats{Runs: 2, Paths: 2, Nodes: 4, Open: 3, Covered: 5}},
			},
			nodes: map[string]string{
				"":    "open covered",
				"t":   "covered covered",
				"tf":  "open covered",
				"tt":  "covered open",
				"f":   "none",
				"ttf": "none",
			},
		},
		{
			name: "repeated and prefix paths",
			steps: []step{
				{path: "1t 2f", newPath: true, incons: -1,
					candidates: []string{"1/0/f/0", "2/1/t/11"},
					stats:      Stats{Runs: 1, Paths: 1, Nodes: 2, Open: 2, Covered: 2}},
				{path: "1t 2f", incons: -1,
					stats: Stats{Runs: 2, Paths: 1, Nodes: 2, Open: 2, Covered: 2}},
				{path: "1t", newPath: true, incons: -1,
					stats: Stats{Runs: 3, Paths: 2, Nodes: 2, Open: 2, Covered: 2}},
				{path: "", newPath: true, incons: -1,
					stats: Stats{Runs: 4, Paths: 3, Nodes: 2, Open: 2, Covered: 2}},
				{path: "", incons: -1,
					stats: Stats{Runs: 5, Paths: 3, Nodes: 2, Open: 2, Covered: 2}},
			},
			nodes: map[string]string{"": "open covered", "t": "covered open"},
		},
		{
			name: "max depth",
			opts: Options{MaxDepth: 2},
			steps: []step{
				{path: "1t 2f 3t 4t", newPath: true, trunc: true, incons: -1,
					candidates: []string{"1/0/f/0", "2/1/t/11"},
					stats:      Stats{Runs: 1, Paths: 1, Nodes: 2, Open: 2, Covered: 2, Truncated: 1}},
				// Differs only beyond the bound: a new path, nothing to record.
				{path: "1t 2f 3f 5t", newPath: true, trunc: true, incons: -1,
					stats: Stats{Runs: 2, Paths: 2, Nodes: 2, Open: 2, Covered: 2, Truncated: 2}},
				{path: "1t 2t", newPath: true, incons: -1,
					stats: Stats{Runs: 3, Paths: 3, Nodes: 2, Open: 1, Covered: 3, Truncated: 2}},
			},
			nodes: map[string]string{"": "open covered", "t": "covered covered", "tf": "none", "tt": "none"},
		},
		{
			name: "site mismatch",
			steps: []step{
				{path: "1t 2f 3t", newPath: true, incons: -1,
					candidates: []string{"1/0/f/0", "2/1/t/11", "3/2/f/100"},
					stats:      Stats{Runs: 1, Paths: 1, Nodes: 3, Open: 3, Covered: 3}},
				// Same outcomes, but site 9 where the tree has site 3.
				{path: "1t 2f 9f 5t", newPath: true, incons: 2,
					stats: Stats{Runs: 2, Paths: 2, Nodes: 3, Open: 3, Covered: 3, Inconsistencies: 1}},
				// A different first site: nothing is recorded.
				{path: "7f 8t", newPath: true, incons: 0,
					stats: Stats{Runs: 3, Paths: 3, Nodes: 3, Open: 3, Covered: 3, Inconsistencies: 2}},
			},
			nodes: map[string]string{"": "open covered", "t": "covered open", "tf": "open covered", "tff": "none", "f": "none"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := sym.NewBuilder()
			tr := NewTree(b, tt.opts)
			for i, st := range tt.steps {
				in := sym.Env{0: uint64(i)}
				out := tr.Record(path(b, st.path), in, nil)
				if out.NewPath != st.newPath {
					t.Errorf("step %d %q: NewPath %t, want %t", i, st.path, out.NewPath, st.newPath)
				}
				if got := describeAll(out.NewCandidates); !slices.Equal(got, st.candidates) {
					t.Errorf("step %d %q: candidates %q, want %q", i, st.path, got, st.candidates)
				}
				for _, tg := range out.NewCandidates {
					if tg.Base[0] != uint64(i) || tg.State() != Open {
						t.Errorf("step %d: candidate %s has base %v, want the run's input", i, describe(tg), tg.Base)
					}
				}
				if out.Truncated != st.trunc {
					t.Errorf("step %d %q: Truncated %t, want %t", i, st.path, out.Truncated, st.trunc)
				}
				if out.Inconsistent != (st.incons >= 0) || out.InconsistentAt != st.incons {
					t.Errorf("step %d %q: Inconsistent %t at %d, want at %d", i, st.path, out.Inconsistent, out.InconsistentAt, st.incons)
				}
				if out.Diverged || out.Reached || out.DivergedAt != -1 {
					t.Errorf("step %d %q: run without origin reports %+v", i, st.path, out)
				}
				if got := tr.Stats(); got != st.stats {
					t.Errorf("step %d %q: stats\n%+v, want\n%+v", i, st.path, got, st.stats)
				}
			}
			checkNodes(t, tr, tt.nodes)
		})
	}
}

func TestRecordConstantCondition(t *testing.T) {
	b := sym.NewBuilder()
	tr := NewTree(b, Options{})
	p := []Branch{
		{Site: 1, Taken: true, Cond: b.Bool(true)},
		{Site: 2, Taken: false, Cond: b.Bool(false)},
		{Site: 3, Taken: false, Cond: cond(b, 3)},
	}
	out := tr.Record(p, sym.Env{}, nil)
	if got, want := describeAll(out.NewCandidates), []string{"3/2/t/101"}; !slices.Equal(got, want) {
		t.Errorf("candidates %q, want %q", got, want)
	}
	checkNodes(t, tr, map[string]string{"": "infeasible covered", "t": "covered infeasible", "tf": "covered open"})
	if st := tr.Stats(); st.Infeasible != 2 || st.Open != 1 {
		t.Errorf("stats %+v, want 2 infeasible and 1 open", st)
	}
}

// TestRecordRepeatedCondition checks that a condition the prefix already
// decided, by the same term or its negation, or an equality of a term the
// prefix set equal to another constant, a bound on a length the prefix's
// bounds exclude, a byte whose class a table gave compared with a byte of
// another class, a byte's index out of a 256-entry table, a conjunction
// with an excluded part (a string compared with a constant), gets no
// candidate on its other side, and one decided the other way (an
// inconsistent execution) still does; the conditions the tree assumes
// count as the prefix's. A computed term's bounds meet the same way as a
// variable's, a term compared with itself plus an offset is a bound on
// it, an index whose shape bounds it within its table needs no check, and
// a condition over one variable the prefix leaves few values is tried at
// each.
func TestRecordRepeatedCondition(t *testing.T) {
	b := sym.NewBuilder()
	c, d := cond(b, 1), cond(b, 2)
	v := b.Var(7, 8)
	eq := func(k uint64) *sym.Expr { return b.Eq(v, b.Const(k, 8)) }
	n := b.Var(9, 64) // an input's length
	one := b.Const(1, 64)
	// A table lookup of v's class: '{' -> 3, '}' -> 1, '"' -> 2, else 0.
	class := b.Const(0, 8)
	for _, e := range []struct{ k, v uint64 }{{'{', 3}, {'}', 1}, {'"', 2}} {
		class = b.Ite(eq(e.k), b.Const(e.v, 8), class)
	}
	positive, grown := b.Cmp(sym.KSLt, b.Const(0, 64), n), b.Cmp(sym.KSLt, one, b.Bin(sym.KAdd, n, one))
	domain := b.Cmp(sym.KULe, n, b.Const(58, 64))
	// A length computed from the input (a reader's count), and an end
	// three before it.
	computed := b.Bin(sym.KAdd, n, b.Var(10, 64))
	end := b.Bin(sym.KAdd, computed, b.Const(sym.Mask(64)-2, 64)) // computed - 3
	// A reader's position after one read of up to 4096 bytes, at or past
	// the input's length n: below it only for n > 4096.
	pos := b.Ite(b.Cmp(sym.KULt, n, b.Const(4096, 64)), n, b.Const(4096, 64))
	atEnd := b.Cmp(sym.KULe, n, pos)
	// upperhex[c>>4] of a byte read at a symbolic offset.
	nibble := b.ZExt(b.Bin(sym.KLShr, b.Ite(b.Eq(n, one), v, b.Var(11, 8)), b.Const(4, 8)), 64)
	tests := []struct {
		name  string
		path  []Branch
		cands int
		nodes map[string]string
	}{
		{"same term, same way", []Branch{{1, true, c}, {2, true, c}, {3, false, d}}, 2,
			map[string]string{"": "open covered", "t": "infeasible covered", "tt": "covered open"}},
		{"negated term, same value", []Branch{{1, false, c}, {2, true, b.Not(c)}}, 1,
			map[string]string{"": "covered open", "f": "infeasible covered"}},
		{"decided the other way", []Branch{{1, true, c}, {2, false, c}}, 2,
			map[string]string{"": "open covered", "t": "covered open"}},
		{"byte read as another constant", []Branch{{1, true, eq('a')}, {2, false, eq('b')}}, 1,
			map[string]string{"": "open covered", "t": "covered infeasible"}},
		{"byte known only unequal", []Branch{{1, false, eq('a')}, {2, false, eq('b')}}, 2,
			map[string]string{"": "covered open", "f": "covered open"}},
		{"digit compared with ']'", []Branch{{1, false, b.Cmp(sym.KULt, v, b.Const('0', 8))}, {2, false, b.Cmp(sym.KULt, b.Const('9', 8), v)}, {3, false, eq(']')}}, 2,
			map[string]string{"": "covered open", "f": "covered open", "ff": "covered infeasible"}},
		{"byte range leaves the constant", []Branch{{1, false, b.Cmp(sym.KULt, v, b.Const('0', 8))}, {2, false, eq('5')}}, 2,
			map[string]string{"": "covered open", "f": "covered open"}},
		{"length bounded, then off by one", []Branch{{1, true, b.Cmp(sym.KSLt, one, b.Bin(sym.KAdd, n, one))}, {2, false, b.Cmp(sym.KSLt, n, one)}}, 1,
			map[string]string{"": "open covered", "t": "covered infeasible"}},
		{"length range leaves the constant", []Branch{{1, true, b.Cmp(sym.KSLt, one, b.Bin(sym.KAdd, n, one))}, {2, false, b.Eq(n, b.Const(5, 64))}}, 2,
			map[string]string{"": "open covered", "t": "covered open"}},
		{"length left no value", []Branch{{1, true, b.Cmp(sym.KULt, n, b.Const(5, 64))}, {2, true, b.Cmp(sym.KULt, b.Const(10, 64), n)}, {3, false, b.Eq(n, b.Const(7, 64))}}, 3,
			map[string]string{"": "open covered", "t": "open covered", "tt": "covered open"}},
		{"length wraps around", []Branch{{1, true, positive}, {2, true, grown}}, 2,
			map[string]string{"": "open covered", "t": "open covered"}},
		{"length within the domain does not wrap around", []Branch{{1, true, positive}, {2, true, grown}}, 1,
			map[string]string{"": "open covered", "t": "infeasible covered"}},
		{"conjunction with a part the prefix excludes", []Branch{{1, true, eq('a')}, {2, false, b.And(b.Eq(n, b.Const(3, 64)), eq('b'))}}, 1,
			map[string]string{"": "open covered", "t": "covered infeasible"}},
		{"negated conjunction with a part left open", []Branch{{1, true, eq('a')}, {2, true, b.And(b.Eq(n, b.Const(3, 64)), eq('a'))}}, 2,
			map[string]string{"": "open covered", "t": "open covered"}},
		{"conjunction that held fixes its parts", []Branch{{1, true, b.And(b.Eq(n, b.Const(3, 64)), eq('a'))}, {2, false, eq('b')}}, 1,
			map[string]string{"": "open covered", "t": "covered infeasible"}},
		{"byte index within its table", []Branch{{1, true, b.Cmp(sym.KULt, b.ZExt(v, 16), b.Const(256, 16))}}, 0,
			map[string]string{"": "infeasible covered"}},
		{"byte of a class compared with another class's byte", []Branch{{1, true, b.Eq(class, b.Const(0, 8))}, {2, false, eq('}')}}, 1,
			map[string]string{"": "open covered", "t": "covered infeasible"}},
		{"byte of a class compared with a byte of that class", []Branch{{1, true, b.Eq(class, b.Const(0, 8))}, {2, false, eq('a')}}, 2,
			map[string]string{"": "open covered", "t": "covered open"}},
		{"computed length bounded by a loop guard, then by an index check", []Branch{{1, true, b.Cmp(sym.KSLt, b.Const(3, 64), computed)}, {2, true, b.Cmp(sym.KULt, b.Const(3, 64), computed)}}, 1,
			map[string]string{"": "open covered", "t": "infeasible covered"}},
		{"end a constant before a computed length", []Branch{{1, true, b.Cmp(sym.KSLe, b.Const(0, 64), end)}, {2, true, b.Cmp(sym.KULe, end, computed)}}, 1,
			map[string]string{"": "open covered", "t": "infeasible covered"}},
		{"end of another length", []Branch{{1, true, b.Cmp(sym.KSLe, b.Const(0, 64), end)}, {2, true, b.Cmp(sym.KULe, end, n)}}, 2,
			map[string]string{"": "open covered", "t": "open covered"}},
		{"high nibble of a byte at a symbolic offset within its table", []Branch{{1, true, b.Cmp(sym.KULt, nibble, b.Const(16, 64))}}, 0,
			map[string]string{"": "infeasible covered"}},
		{"reader at the end of its input within the domain", []Branch{{1, true, atEnd}}, 0,
			map[string]string{"": "infeasible covered"}},
		{"reader at the end of its input of any length", []Branch{{1, true, atEnd}}, 1,
			map[string]string{"": "open covered"}},
		{"other terms", []Branch{{1, true, c}, {2, true, d}}, 2,
			map[string]string{"": "open covered", "t": "open covered"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := NewTree(b, Options{})
			if strings.Contains(tt.name, "within the domain") {
				tr.Assume(domain)
			}
			out := tr.Record(tt.path, sym.Env{}, nil)
			if len(out.NewCandidates) != tt.cands {
				t.Errorf("%d candidates %q, want %d", len(out.NewCandidates), describeAll(out.NewCandidates), tt.cands)
			}
			checkNodes(t, tr, tt.nodes)
			infeasible := 0
			for _, states := range tt.nodes {
				infeasible += strings.Count(states, "infeasible")
			}
			if got := tr.Stats().Settled; got != infeasible {
				t.Errorf("%d sides settled, want %d", got, infeasible)
			}
		})
	}
}

func TestQuery(t *testing.T) {
	b := sym.NewBuilder()
	tr := NewTree(b, Options{})
	c := func(site uint32) *sym.Expr { return cond(b, site) }
	not := func(site uint32) *sym.Expr { return b.Not(c(site)) }
	first := tr.Record(path(b, "1t 2f 3t"), sym.Env{}, nil).NewCandidates
	second := tr.Record(path(b, "1t 2t 4f 5t"), sym.Env{}, nil).NewCandidates
	tests := []struct {
		candidate   *Candidate
		constraints []*sym.Expr
		goal        *sym.Expr
	}{
		{first[0], []*sym.Expr{}, not(1)},
		{first[1], []*sym.Expr{c(1)}, c(2)},
		{first[2], []*sym.Expr{c(1), not(2)}, not(3)},
		{second[0], []*sym.Expr{c(1), c(2)}, c(4)},
		{second[1], []*sym.Expr{c(1), c(2), not(4)}, not(5)},
	}
	for _, tt := range tests {
		before := tt.candidate.State()
		q := tr.Query(tt.candidate)
		if !slices.Equal(q.Constraints, tt.constraints) || q.Goal != tt.goal {
			t.Errorf("Query(%s) = %v, goal %v; want %v, goal %v", describe(tt.candidate), q.Constraints, q.Goal, tt.constraints, tt.goal)
		}
		if tt.candidate.State() != before {
			t.Errorf("Query(%s) changed its state from %s to %s", describe(tt.candidate), before, tt.candidate.State())
		}
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		status  solver.Status
		covered bool // an execution covered the side before the answer came
		want    State
	}{
		{solver.Sat, false, Pending},
		{solver.Unsat, false, Infeasible},
		{solver.Unknown, false, Failed},
		{solver.Unsat, true, Covered},
		{solver.Unknown, true, Covered},
	}
	for _, tt := range tests {
		b := sym.NewBuilder()
		tr := NewTree(b, Options{})
		tg := tr.Record(path(b, "1t 2f"), sym.Env{}, nil).NewCandidates[1] // site 2, true side
		s := NewBFS()
		s.Add(tg)
		if got, ok := s.Next(); !ok || got != tg || tg.State() != Pending {
			t.Fatalf("Next = %v, %t; want the candidate, Pending", got, ok)
		}
		if tt.covered {
			tr.Record(path(b, "1t 2t"), sym.Env{}, nil)
		}
		tr.Resolve(tg, tt.status)
		if got := tg.State(); got != tt.want {
			t.Errorf("%s (covered %t): state %s, want %s", tt.status, tt.covered, got, tt.want)
		}
		st := tr.Stats()
		counts := map[State]int{Open: st.Open, Pending: st.Pending, Covered: st.Covered, Infeasible: st.Infeasible, Failed: st.Failed}
		wantCounts := map[State]int{Open: 1, Covered: 2}
		if tt.covered {
			wantCounts[Covered] = 3
		} else {
			wantCounts[tt.want]++
		}
		for s, n := range wantCounts {
			if counts[s] != n {
				t.Errorf("%s (covered %t): %d sides %s, want %d (%+v)", tt.status, tt.covered, counts[s], s, n, st)
			}
		}
	}
}

func TestDivergence(t *testing.T) {
	// The tree starts from "1t 2f 3t"; the origin is the false side of
	// site 3 at depth 2, predicted bit-vector 100.
	tests := []struct {
		name       string
		before     string // a run recorded after the origin was handed out
		run        string
		reached    bool
		divergedAt int
		site       uint32 // the predicted site at divergedAt
		originWant State
		candidates []string
		stats      Stats
		nodes      map[string]string
	}{
		{
			name: "reached", run: "1t 2f 3f 5t",
			reached: true, divergedAt: -1, originWant: Covered,
			candidates: []string{"5/3/f/1000"},
			stats:      Stats{Runs: 2, Paths: 2, Nodes: 4, Open: 3, Covered: 5},
			nodes:      map[string]string{"tf": "covered covered", "tff": "open covered"},
		},
		{
			name: "true side at depth 2", run: "1t 2f 3t",
			divergedAt: 2, site: 3, originWant: Failed,
			stats: Stats{Runs: 2, Paths: 1, Nodes: 3, Open: 2, Covered: 3, Failed: 1, Divergences: 1},
			nodes: map[string]string{"": "open covered", "t": "covered open", "tf": "failed covered", "tff": "none"},
		},
		{
			name: "other side at depth 1", run: "1t 2t 4f",
			divergedAt: 1, site: 2, originWant: Failed,
			candidates: []string{"4/2/t/111"},
			stats:      Stats{Runs: 2, Paths: 2, Nodes: 4, Open: 2, Covered: 5, Failed: 1, Divergences: 1},
			nodes:      map[string]string{"": "open covered", "t": "covered covered", "tf": "failed covered", "tt": "covered open", "tff": "none"},
		},
		{
			name: "ended early", run: "1t 2f",
			divergedAt: 2, site: 3, originWant: Failed,
			stats: Stats{Runs: 2, Paths: 2, Nodes: 3, Open: 2, Covered: 3, Failed: 1, Divergences: 1},
			nodes: map[string]string{"tf": "failed covered"},
		},
		{
			name: "site mismatch at origin depth", run: "1t 2f 9f 6t",
			divergedAt: 2, site: 3, originWant: Failed,
			stats: Stats{Runs: 2, Paths: 2, Nodes: 3, Open: 2, Covered: 3, Failed: 1, Divergences: 1, Inconsistencies: 1},
			nodes: map[string]string{"tf": "failed covered", "tff": "none"},
		},
		{
			name: "covered meanwhile", before: "1t 2f 3f", run: "1t 2t 4f",
			divergedAt: 1, site: 2, originWant: Covered,
			candidates: []string{"4/2/t/111"},
			stats:      Stats{Runs: 3, Paths: 3, Nodes: 4, Open: 2, Covered: 6, Divergences: 1},
			nodes:      map[string]string{"tf": "covered covered", "tt": "covered open"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := sym.NewBuilder()
			tr := NewTree(b, Options{})
			origin := tr.Record(path(b, "1t 2f 3t"), sym.Env{}, nil).NewCandidates[2]
			if got := origin.Expect.String(); got != "100" {
				t.Fatalf("origin predicts %s, want 100", got)
			}
			tr.Resolve(origin, solver.Sat)
			if tt.before != "" {
				tr.Record(path(b, tt.before), sym.Env{}, nil)
			}
			out := tr.Record(path(b, tt.run), sym.Env{}, origin)
			if out.Reached != tt.reached || out.Diverged != (tt.divergedAt >= 0) || out.DivergedAt != tt.divergedAt {
				t.Errorf("Reached %t, Diverged %t at %d; want %t, at %d", out.Reached, out.Diverged, out.DivergedAt, tt.reached, tt.divergedAt)
			}
			if out.Diverged && out.DivergedSite != tt.site {
				t.Errorf("diverged at site %d, want %d", out.DivergedSite, tt.site)
			}
			if got := origin.State(); got != tt.originWant {
				t.Errorf("origin %s, want %s", got, tt.originWant)
			}
			if got := describeAll(out.NewCandidates); !slices.Equal(got, tt.candidates) {
				t.Errorf("candidates %q, want %q", got, tt.candidates)
			}
			if got := tr.Stats(); got != tt.stats {
				t.Errorf("stats\n%+v, want\n%+v", got, tt.stats)
			}
			checkNodes(t, tr, tt.nodes)
		})
	}
}

func TestPrediction(t *testing.T) {
	// A path longer than a word exercises the packed prefix.
	var s strings.Builder
	for i := range 70 {
		fmt.Fprintf(&s, "%d%c ", i+1, "ft"[i%3/2])
	}
	b := sym.NewBuilder()
	tr := NewTree(b, Options{})
	p := path(b, s.String())
	ts := tr.Record(p, sym.Env{}, nil).NewCandidates
	if len(ts) != 70 {
		t.Fatalf("%d candidates, want 70", len(ts))
	}
	for _, tg := range ts {
		d := tg.Depth()
		bits := tg.Expect.Bools()
		if len(bits) != d+1 || tg.Expect.Len() != d+1 {
			t.Fatalf("depth %d: prediction of length %d", d, len(bits))
		}
		for i := range d {
			if bits[i] != p[i].Taken {
				t.Fatalf("depth %d: bit %d is %t, want the path's %t", d, i, bits[i], p[i].Taken)
			}
		}
		if bits[d] != !p[d].Taken {
			t.Fatalf("depth %d: last bit %t, want the flipped outcome", d, bits[d])
		}
		if got := tg.Expect.Mismatch(p); got != d {
			t.Errorf("depth %d: Mismatch(path) = %d", d, got)
		}
		if got := tg.Expect.Mismatch(p[:d]); got != d {
			t.Errorf("depth %d: Mismatch(short path) = %d", d, got)
		}
	}
	if (Prediction{}).Len() != 0 || (Prediction{}).Mismatch(nil) != -1 {
		t.Error("zero Prediction is not empty")
	}
}

// TestLeafAndPath checks that Record reports the last node it walked
// through, whose Path is the recorded path, and that each new node keeps
// the candidate it opened.
func TestLeafAndPath(t *testing.T) {
	b := sym.NewBuilder()
	tr := NewTree(b, Options{})
	first := tr.Record(path(b, "1t 2f 3t"), sym.Env{}, nil)
	again := tr.Record(path(b, "1t 2f 4t"), sym.Env{}, nil) // inconsistent at depth 2
	for _, tt := range []struct {
		name  string
		out   Outcome
		sites []uint32
		sides []bool
	}{
		{"new path", first, []uint32{1, 2, 3}, []bool{false, true, false}},
		{"cut where inconsistent", again, []uint32{1, 2}, []bool{false, true}},
	} {
		var got []uint32
		var sides []bool
		for _, n := range tt.out.Leaf.Path() {
			got = append(got, n.Site)
			sides = append(sides, n.Side())
		}
		if !slices.Equal(got, tt.sites) || !slices.Equal(sides, tt.sides) {
			t.Errorf("%s: leaf path %v %v, want %v %v", tt.name, got, sides, tt.sites, tt.sides)
		}
	}
	for _, c := range first.NewCandidates {
		if c.Node.Candidate() != c {
			t.Errorf("node of %s keeps %v", c, c.Node.Candidate())
		}
	}
	if out := tr.Record(nil, sym.Env{}, nil); out.Leaf != nil {
		t.Errorf("empty path: leaf %v", out.Leaf)
	}
}
