package cfa

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

const proveSrc = `package p

import (
	"fmt"
	"reflect"
	"sort"
)

var sink int

func mark(int) {}

type T struct{ n int }

// Reached only by reflection, by name.
func (t T) ByReflection(x int) {
	if x > 1 {
		mark(1)
	}
}

// Reached only through fmt's Stringer.
func (t T) String() string {
	if t.n > 2 {
		return "big"
	}
	return "small"
}

// An unexported method called through an interface of the package.
type shape interface{ area() int }

func (t T) area() int {
	if t.n > 3 {
		return 1
	}
	return 0
}

// An unexported method no invoke names, on a type no code converts.
type U struct{ n int }

func (u U) unused() {
	if u.n > 4 {
		mark(2)
	}
}

func never(x int) {
	if x > 5 {
		mark(3)
	}
}

func neverCaller(x int) {
	if x > 6 {
		never(x)
	}
}

func byValue(a, b int) bool {
	if a < b+7 {
		return true
	}
	return false
}

func deferred(x int) {
	if x > 8 {
		mark(4)
	}
}

func goroutine(x int) {
	if x > 9 {
		mark(5)
	}
}

func fromInit() {
	if sink > 10 {
		mark(6)
	}
}

func init() { fromInit() }

func generic[E any](x E, n int) {
	if n > 11 {
		mark(7)
	}
}

func Exported(x int) {
	if x > 12 {
		mark(8)
	}
}

func afterReturn(x int) {
	if x > 0 {
		return
	}
	return
	if x > 13 {
		mark(9)
	}
}

func afterPanic(x int) {
	panic("no")
	if x > 14 {
		mark(10)
	}
}

func afterGoto(x int) {
	goto L
	return
L:
	if x > 15 {
		mark(11)
	}
}

type Box[E any] struct{ v E }

func (b Box[E]) get(n int) int {
	if n > 17 {
		return 1
	}
	return 0
}

func (t T) viaValue(n int) {
	if n > 18 {
		mark(13)
	}
}

func (t T) viaExpr(n int) {
	if n > 19 {
		mark(14)
	}
}

type inner struct{}

func (inner) area() int {
	for i := 0; i < 20; i++ {
		mark(15)
	}
	return 0
}

type outer struct{ inner }

var hook = func(n int) {
	if n > 21 {
		mark(16)
	}
}

func Entry(x int) {
	t := T{x}
	_ = Box[int]{}.get(x)
	f := t.viaValue
	f(x)
	g := T.viaExpr
	g(t, x)
	var o shape = outer{}
	_ = o
	hook(x)
	reflect.ValueOf(t).MethodByName("By" + "Reflection").Call(nil)
	fmt.Println(t)
	var s shape = t
	_ = s.area()
	xs := []int{x, 1}
	sort.Slice(xs, func(i, j int) bool { return byValue(xs[i], xs[j]) })
	defer deferred(x)
	go goroutine(x)
	generic[string]("", x)
	afterReturn(x)
	afterPanic(x)
	afterGoto(x)
	if x > 16 {
		mark(12)
	}
}
`

// TestUnreachable checks the claims on a crafted package: functions no
// path from the entry calls, and branches after a return or a panic, are
// claimed; what reflection, an interface of another package, a func value
// given away, an interface of the package, a defer, a goroutine, an
// initialiser, a generic instance or a goto reaches is not, nor is an
// exported function of the entry's package that nothing calls... in
// another package.
func TestUnreachable(t *testing.T) {
	g, table := crafted(t, proveSrc)
	entry, _ := g.pkgs[0].Types.Scope().Lookup("Entry").(*types.Func)
	claimed := map[uint32]int{}
	for _, o := range g.Unreachable(entry) {
		claimed[o.Site()]++
	}
	for _, tt := range []struct {
		cond string
		want bool
	}{
		{"x > 1", false},   // reflection
		{"t.n > 2", false}, // fmt's Stringer
		{"t.n > 3", false}, // an interface of the package
		{"u.n > 4", true},
		{"x > 5", true},
		{"x > 6", true},
		{"a < b + 7", false}, // a func value given to sort
		{"x > 8", false},     // deferred
		{"x > 9", false},     // a goroutine
		{"sink > 10", false},
		{"n > 11", false}, // a generic function's instance
		{"x > 12", true},  // exported, but its package is the entry's
		{"x > 0", false},
		{"x > 13", true},  // after a return
		{"x > 14", true},  // after a panic
		{"x > 15", false}, // after a goto's label
		{"x > 16", false},
		{"n > 17", false}, // a method of a generic type
		{"n > 18", false}, // a method value
		{"n > 19", false}, // a method expression
		{"i < 20", false}, // promoted from an embedded field, through an interface
		{"n > 21", false}, // a package variable's func literal
	} {
		s := siteAt(t, table, tt.cond)
		if !tt.want && g.Branch(s.ID) == nil {
			t.Errorf("%s: unmapped, so unclaimed whatever reaches it", tt.cond)
		}
		switch n := claimed[s.ID]; {
		case tt.want && n != 2:
			t.Errorf("%s: %d outcomes claimed unreachable, want both", tt.cond, n)
		case !tt.want && n != 0:
			t.Errorf("%s: %d outcomes claimed unreachable, want none", tt.cond, n)
		}
	}
	if g.Unreachable(nil) != nil {
		t.Error("claims without an entry")
	}
}

// TestUnmappedNoClaim checks that a site of an unreachable function that
// the map lost is not claimed, while its neighbour still is.
func TestUnmappedNoClaim(t *testing.T) {
	g, table := crafted(t, proveSrc)
	entry, _ := g.pkgs[0].Types.Scope().Lookup("Entry").(*types.Func)
	lost, kept := siteAt(t, table, "x > 5").ID, siteAt(t, table, "x > 6").ID
	delete(g.branches, lost)
	g.mapped = slices.DeleteFunc(g.mapped, func(id uint32) bool { return id == lost })
	g.unmapped = append(g.unmapped, Unmapped{Site: lost, Why: "lost for the test"})
	claimed := map[uint32]bool{}
	for _, o := range g.Unreachable(entry) {
		claimed[o.Site()] = true
	}
	if claimed[lost] || !claimed[kept] {
		t.Errorf("claimed the unmapped site: %t, its mapped neighbour: %t; want false, true", claimed[lost], claimed[kept])
	}
}

const checkSrc = `package p

func F(a []int, s string, i, n int, u uint, x any, b []byte) int {
	v := a[i]
	w := s[1:i]
	q := n / i
	r := n % i
	l := n << i
	k := u >> u
	j := x.(int)
	b[i] += 1
	n /= i
	for _, c := range s[2:] {
		_ = c
	}
	return v + len(w) + q + r + l + int(k) + j + n
}
`

// TestChecks checks the map of implicit checks: each maps to the one
// instruction that panics, with the outcome that panics; a compound
// assignment to a byte (two sites on one expression) stays unmapped.
func TestChecks(t *testing.T) {
	g, table := crafted(t, checkSrc)
	for _, tt := range []struct {
		text   string
		nth    int    // of the sites reading text, from 0
		want   string // the instruction's type; "" for unmapped
		panics bool
	}{
		{"a[i]", 0, "*ssa.IndexAddr", false},
		{"s[1:i]", 0, "*ssa.Slice", false},
		{"n / i", 0, "*ssa.BinOp", true},
		{"n % i", 0, "*ssa.BinOp", true},
		{"n << i", 0, "*ssa.BinOp", true},
		{"u >> u", 0, "*ssa.BinOp", true},
		{"x.(int)", 0, "*ssa.TypeAssert", false},
		{"n / i", 1, "*ssa.BinOp", true}, // n /= i
		{"b[i]", 0, "", false},
		{"s[2:]", 0, "", false},
	} {
		var s *sites.Site
		n := 0
		for i := range table {
			if table[i].Kind == sites.Implicit && table[i].Text == tt.text {
				if n == tt.nth {
					s = &table[i]
					break
				}
				n++
			}
		}
		if s == nil {
			t.Errorf("%s: no implicit site", tt.text)
			continue
		}
		br := g.Branch(s.ID)
		switch {
		case tt.want == "" && br != nil:
			t.Errorf("%s: mapped to %v, want unmapped", tt.text, br.Block.Instrs[br.index])
		case tt.want == "":
		case br == nil:
			t.Errorf("%s: unmapped", tt.text)
		case !br.Check || br.Panics != tt.panics || fmt.Sprintf("%T", br.Block.Instrs[br.index]) != tt.want:
			t.Errorf("%s: check %t, panics %t, at %T; want true, %t, %s", tt.text, br.Check, br.Panics, br.Block.Instrs[br.index], tt.panics, tt.want)
		}
	}
}

// TestUnreachableOpen checks the roots a package of the graph other than
// the entry's has: its exported functions (a package outside the graph
// may call them), and a function another package pulls by
// //go:linkname.
func TestUnreachableOpen(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module m\n\ngo 1.22\n",
		"p/p.go": `package p

import "m/q"

func secret(x int) {
	if x > 1 {
		println(1)
	}
}

func unused(x int) {
	if x > 2 {
		println(2)
	}
}

func Entry(x int) { q.Used(x) }
`,
		"q/q.go": `package q

import _ "unsafe"

//go:linkname pulled m/p.secret
func pulled(x int)

func Used(x int) {
	if x > 3 {
		println(3)
	}
}

func Exported(x int) {
	if x > 4 {
		println(4)
	}
}

func unexported(x int) {
	if x > 5 {
		println(5)
	}
}
`,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: dir}, "./p", "./q")
	if err != nil || len(pkgs) != 2 {
		t.Fatalf("loading: %d packages, %v", len(pkgs), err)
	}
	var table []sites.Site
	for _, p := range pkgs {
		res, err := instrument.Package(p, instrument.Config{RuntimePath: build.RuntimePath, Support: true, SiteBase: uint32(len(table))})
		if err != nil {
			t.Fatal(err)
		}
		table = append(table, res.Sites...)
	}
	g, err := Build(pkgs, table)
	if err != nil {
		t.Fatal(err)
	}
	var entry *types.Func
	for _, p := range pkgs {
		if f, ok := p.Types.Scope().Lookup("Entry").(*types.Func); ok {
			entry = f
		}
	}
	claimed := map[uint32]bool{}
	for _, o := range g.Unreachable(entry) {
		claimed[o.Site()] = true
	}
	for cond, want := range map[string]bool{"x > 1": false, "x > 2": true, "x > 3": false, "x > 4": false, "x > 5": true} {
		s := siteAt(t, table, cond)
		if g.Branch(s.ID) == nil {
			t.Errorf("%s: unmapped", cond)
		}
		if claimed[s.ID] != want {
			t.Errorf("%s: claimed %t, want %t", cond, claimed[s.ID], want)
		}
	}
}

const callsSrc = `package p

func once(x int) int   { return x + 1 }
func twice(x int) int  { return x * 2 }
func valued(x int) int { return x }
func deferred()        {}
func spawned()         {}
func Exported(x int) int { return x }

type T struct{}

func (T) method() int  { return 1 }
func (*T) pointer() int { return 2 }
func (T) Method() int  { return 3 }

type (
	B  struct{}
	V  struct{}
	X  struct{}
	C  struct{}
	U  struct{}
	H  struct{ u *U }
	G[E any] struct{ e E }
)

func (B) boxed() int   { return 1 }
func (V) bound() int   { return 1 }
func (X) expr() int    { return 1 }
func (C) invoked() int { return 1 }
func (*U) held() int   { return 1 }
func (G[E]) generic() int { return 1 }

var fv = valued

func Entry(x int) int {
	defer deferred()
	go spawned()
	var t T
	var b B
	var v V
	var c C
	var h H
	var i interface{ invoked() int }
	var sink any = b
	sink = h
	_ = sink
	if i != nil {
		x += i.invoked()
	}
	bf := v.bound
	return once(x) + twice(x) + twice(3) + valued(x) + Exported(x) + fv(x) + t.method() + t.pointer() + t.Method() +
		b.boxed() + bf() + X.expr(X{}) + c.invoked() + h.u.held() + G[int]{}.generic()
}
`

// TestStaticCalls checks which functions only their static calls start:
// a function called directly, once or twice, is, and so are methods with
// unexported names, of value or pointer receivers, called directly; one
// whose value is taken, one deferred or started as a goroutine, an
// exported one are not, nor are methods whose receiver is converted to an
// interface (or held by a value that is), whose name an interface calls,
// whose method value or expression is taken, exported or of a generic type.
func TestStaticCalls(t *testing.T) {
	g, _ := crafted(t, callsSrc)
	byName := map[string]*ssa.Function{}
	for _, f := range g.Funcs() {
		byName[f.Name()] = f
	}
	for _, tt := range []struct {
		fn    string
		calls int
		ok    bool
	}{
		{"once", 1, true},
		{"twice", 2, true},
		{"valued", 0, false},
		{"deferred", 0, false},
		{"spawned", 0, false},
		{"Exported", 0, false},
		{"method", 1, true},
		{"pointer", 1, true},
		{"Method", 0, false},
		{"boxed", 0, false},
		{"bound", 0, false},
		{"expr", 0, false},
		{"invoked", 0, false},
		{"held", 0, false},
		{"generic", 0, false},
	} {
		if byName[tt.fn] == nil {
			t.Fatalf("%s: no such function", tt.fn)
		}
		calls, ok := g.StaticCalls(byName[tt.fn])
		if ok != tt.ok || len(calls) != tt.calls {
			t.Errorf("%s: %d calls, ok %v; want %d, %v", tt.fn, len(calls), ok, tt.calls, tt.ok)
		}
		for _, c := range calls {
			if c.Call.StaticCallee() != byName[tt.fn] {
				t.Errorf("%s: call %v calls another function", tt.fn, c)
			}
		}
	}
}
