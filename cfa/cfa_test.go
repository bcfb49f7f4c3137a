package cfa

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// root returns the module's root directory.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

// graphOf loads the package pattern in dir, instruments it as a support
// package (every function rewritten, so every site numbered), and builds
// its graph.
func graphOf(t *testing.T, dir, pattern string) (*Graph, []sites.Site) {
	t.Helper()
	pkg, err := load.Load(dir, pattern)
	if err != nil {
		t.Fatal(err)
	}
	res, err := instrument.Package(pkg.Package, instrument.Config{RuntimePath: build.RuntimePath, Support: true})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Build([]*packages.Package{pkg.Package}, res.Sites)
	if err != nil {
		t.Fatal(err)
	}
	return g, res.Sites
}

// TestExamplesMap checks that every condition and range loop site of the
// example packages maps (to an If of its own, or as the joined last
// operand of a boolean expression), and that what is unmapped (implicit
// checks) says why.
func TestExamplesMap(t *testing.T) {
	// One load for all: each load lists and type-checks the standard
	// packages again.
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: root()}, "./examples/...")
	if err != nil || len(pkgs) < 9 {
		t.Fatalf("loading the examples: %d packages, %v", len(pkgs), err)
	}
	for _, p := range pkgs {
		t.Run(p.Name, func(t *testing.T) {
			res, err := instrument.Package(p, instrument.Config{RuntimePath: build.RuntimePath, Support: true})
			if err != nil {
				t.Fatal(err)
			}
			g, err := Build([]*packages.Package{p}, res.Sites)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, s := range res.Sites {
				if s.Kind != sites.Cond && s.Kind != sites.Loop {
					continue
				}
				n++
				if g.Branch(s.ID) == nil {
					t.Errorf("site %d %s at %s:%d:%d is unmapped", s.ID, s.Text, filepath.Base(s.Pos.Filename), s.Pos.Line, s.Pos.Column)
				}
			}
			if n == 0 {
				t.Error("no condition sites")
			}
			for _, u := range g.Unmapped() {
				if k := res.Sites[u.Site].Kind; k != sites.Implicit || u.Why == "" {
					t.Errorf("unmapped %d (%s): %q", u.Site, res.Sites[u.Site].Kind, u.Why)
				}
			}
		})
	}
}

// crafted writes src as the package p of a module in a new directory and
// returns its graph and sites.
func crafted(t *testing.T, src string) (*Graph, []sites.Site) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module p\n\ngo 1.22\n", "p.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return graphOf(t, dir, ".")
}

// siteAt returns the condition site whose condition reads text.
func siteAt(t *testing.T, table []sites.Site, text string) sites.Site {
	t.Helper()
	return siteOf(t, table, sites.Cond, text)
}

// siteOf returns the site of kind whose source reads text.
func siteOf(t *testing.T, table []sites.Site, kind sites.Kind, text string) sites.Site {
	t.Helper()
	for _, s := range table {
		if s.Text == text && s.Kind == kind {
			return s
		}
	}
	t.Fatalf("no %s site %q", kind, text)
	return sites.Site{}
}

// marks returns the constant arguments of the calls of mark in b.
func marks(b *ssa.BasicBlock) []int64 {
	var ms []int64
	for _, in := range b.Instrs {
		call, ok := in.(*ssa.Call)
		if !ok {
			continue
		}
		if f := call.Call.StaticCallee(); f != nil && f.Name() == "mark" {
			if c, ok := call.Call.Args[0].(*ssa.Const); ok {
				ms = append(ms, c.Int64())
			}
		}
	}
	return ms
}

const polaritySrc = `package p

func mark(int) {}

func G(u, v int) bool {
	return u > 0 && v > 0
}

func F(a, b int, c bool, s string, x any, xs []int, w, r string) {
	if !(a < b) {
		mark(1)
	} else {
		mark(2)
	}
	if a > 0 && !c {
		mark(3)
	}
	switch s {
	case "x":
		mark(4)
	}
	for i := 0; i < a; i++ {
		mark(5)
	}
	switch x.(type) {
	case int:
		mark(6)
	case nil:
		mark(7)
	}
	if _, ok := x.(string); ok {
		mark(8)
	}
	for i := range a {
		mark(9)
		_ = i
	}
	for _, v := range xs {
		mark(10)
		_ = v
	}
	for _, c := range w {
		mark(11)
		_ = c
	}
	for range r {
		mark(12)
	}
}
`

// TestPolarity checks on crafted conditions that each mapped site's true
// outcome leads where the condition atom holds: through a negation, a
// conjunction, a switch's case value, a loop condition, the cases of a
// type switch and range loops over an integer, a slice and a string; that
// a comma-ok type assertion is a point of its block, before the If that
// tests ok; and that a range loop that assigns nothing is reported
// unmapped.
func TestPolarity(t *testing.T) {
	g, table := crafted(t, polaritySrc)
	for _, tt := range []struct {
		kind        sites.Kind
		text        string
		true, false int64 // the mark called first where each outcome leads; 0 for none
	}{
		{sites.Cond, "a < b", 2, 1},
		{sites.Cond, "c", 0, 3},
		{sites.Cond, `s == "x"`, 4, 0}, // a case value, named by its comparison
		{sites.Cond, "i < a", 5, 0},
		{sites.Cond, "int", 6, 0},
		{sites.Cond, "nil", 7, 0},
		{sites.Loop, "a", 9, 0},
		{sites.Loop, "xs", 10, 0},
		{sites.Loop, "w", 11, 0},
	} {
		s := siteOf(t, table, tt.kind, tt.text)
		br := g.Branch(s.ID)
		if br == nil {
			t.Errorf("%s: unmapped", tt.text)
			continue
		}
		for _, side := range []struct {
			b    *ssa.BasicBlock
			want int64
			name string
		}{{br.True, tt.true, "true"}, {br.False, tt.false, "false"}} {
			got := marks(side.b)
			if side.want == 0 && len(got) > 0 || side.want != 0 && (len(got) == 0 || got[0] != side.want) {
				t.Errorf("%s: %s outcome's block marks %v, want %d", tt.text, side.name, got, side.want)
			}
		}
	}
	// The range over an integer tests before the body and at its end.
	if br := g.Branch(siteOf(t, table, sites.Loop, "a").ID); br == nil || len(br.Also) != 1 {
		t.Errorf("range over a: %+v, want two tests", br)
	}
	// In a value context, v > 0 decides no If: both outcomes join u > 0's
	// false one.
	u, v := g.Branch(siteAt(t, table, "u > 0").ID), g.Branch(siteAt(t, table, "v > 0").ID)
	if u == nil || v == nil || !v.Joined || v.True != u.False || v.False != u.False || u.True != v.Block {
		t.Errorf("u > 0 && v > 0 as a value: mapped %+v and %+v", u, v)
	}
	// a > 0 true leads to the test of c.
	if a, c := g.Branch(siteAt(t, table, "a > 0").ID), g.Branch(siteAt(t, table, "c").ID); a == nil || c == nil || a.True != c.Block {
		t.Error("a > 0: true outcome does not lead to the test of c")
	}
	loop := siteOf(t, table, sites.Loop, "r")
	if g.Branch(loop.ID) != nil {
		t.Errorf("range over r without variables maps to %+v", g.Branch(loop.ID))
	}
	unmapped := false
	for _, u := range g.Unmapped() {
		unmapped = unmapped || u.Site == loop.ID
	}
	if !unmapped {
		t.Error("range over r without variables is not reported unmapped")
	}
	// The comma-ok assertion decides no If: it is a point of the block
	// whose If tests ok, before it.
	as, ok := g.Branch(siteAt(t, table, "x.(string)").ID), g.Branch(siteAt(t, table, "ok").ID)
	if as == nil || ok == nil || !as.Point || as.Block != ok.Block {
		t.Errorf("x.(string) and ok: mapped %+v and %+v", as, ok)
	} else if !g.Dominates(as.Site, ok.Site) || g.Dominates(ok.Site, as.Site) {
		t.Error("in one block, the assertion does not come before the If")
	}
}

const distSrc = `package p

func mark(int) {}

func helper(x int) int {
	if x > 10 {
		return 1
	}
	return 0
}

func P(x any) {
	if _, ok := x.(string); ok {
		mark(2)
	}
}

func D(a, b int) {
	if a > 0 {
		if b > 0 {
			helper(a)
		}
	}
	if a == 5 {
		mark(1)
	}
}
`

// TestDistances checks the branch graph of a crafted function: distances
// from outcomes and from the entry to each site (into a callee and back
// out of it), distances to the nearest uncovered outcome as coverage
// grows, and dominators.
func TestDistances(t *testing.T) {
	g, table := crafted(t, distSrc)
	id := func(text string) uint32 { return siteAt(t, table, text).ID }
	A, B, C, H := id("a > 0"), id("b > 0"), id("a == 5"), id("x > 10")
	X, OK := id("x.(string)"), id("ok")
	eq := func(got, want map[uint32]int) bool {
		if len(got) != len(want) {
			return false
		}
		for k, v := range want {
			if d, ok := got[k]; !ok || d != v {
				return false
			}
		}
		return true
	}
	for _, tt := range []struct {
		name string
		got  map[uint32]int
		want map[uint32]int
	}{
		{"A true", g.From(A, true), map[uint32]int{B: 1, H: 2, C: 2}},
		{"A false", g.From(A, false), map[uint32]int{C: 1}},
		{"B true: the callee, or past the call", g.From(B, true), map[uint32]int{H: 1, C: 1}},
		{"H true: back into the caller", g.From(H, true), map[uint32]int{C: 1}},
		{"C false", g.From(C, false), map[uint32]int{}},
		{"entry of D", g.FromEntry(g.Branch(A).Func), map[uint32]int{A: 1, B: 2, H: 3, C: 2}},
		{"entry of P: through the assertion", g.FromEntry(g.Branch(X).Func), map[uint32]int{X: 1, OK: 2}},
		{"assertion false", g.From(X, false), map[uint32]int{OK: 1}},
	} {
		if !eq(tt.got, tt.want) {
			t.Errorf("%s: distances %v, want %v", tt.name, tt.got, tt.want)
		}
	}

	if d := g.Distance(A, true); d != 0 {
		t.Errorf("nothing covered: distance %d, want 0", d)
	}
	// All covered but C's true outcome.
	cov := sites.Coverage{A: 3, B: 3, H: 3, C: 1, X: 3, OK: 3}
	g.Cover(cov)
	for _, tt := range []struct {
		site uint32
		side bool
		want int
	}{
		{A, false, 1}, {A, true, 2}, {B, true, 1}, {H, true, 1}, {H, false, 1},
		{C, true, 0}, {C, false, Far}, {9999, true, Far},
	} {
		if d := g.Distance(tt.site, tt.side); d != tt.want {
			t.Errorf("site %d %t: distance %d, want %d", tt.site, tt.side, d, tt.want)
		}
	}
	g.Cover(sites.Coverage{C: 2})
	if d := g.Distance(A, false); d != Far {
		t.Errorf("all covered: distance %d, want Far", d)
	}

	for _, tt := range []struct {
		d, b uint32
		want bool
	}{
		{A, B, true}, {A, C, true}, {B, C, false}, {C, A, false}, {A, A, false}, {A, H, false},
	} {
		if got := g.Dominates(tt.d, tt.b); got != tt.want {
			t.Errorf("Dominates(%d, %d) = %t, want %t", tt.d, tt.b, got, tt.want)
		}
	}
}

// TestStatic checks that a Graph is the explore.Static the directed
// strategies read, with explore's Far.
func TestStatic(t *testing.T) {
	var _ explore.Static = (*Graph)(nil)
	if Far != explore.Far {
		t.Errorf("Far = %d, explore.Far = %d", Far, explore.Far)
	}
}
