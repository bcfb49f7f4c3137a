package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// paramTargets take composite parameters: each panics behind an equality
// of 32 bits or more on values that arrive inside the parameter, so a
// concrete value reaches it only if those values are inputs.
const paramTargets = `package par

type inner struct {
	code uint32
	tag  string
}

type Rec struct {
	ID    int32
	in    inner
	Data  []byte
	flags [2]bool
}

type Node struct {
	Val  int32
	Next *Node
}

func Struct(r Rec) {
	if r.in.code^0x5bd1e995 == 0xdeadbeef && r.in.tag == "ok" && r.flags[1] {
		panic("found")
	}
}

func Bytes(r Rec) {
	if len(r.Data) == 3 && r.Data[2] == 'z' && r.ID*7 == 0x12345679 {
		panic("found")
	}
}

func Pointer(r *Rec) {
	if r != nil && r.ID == 0x31415927 {
		panic("found")
	}
}

func List(n *Node) {
	if n == nil || n.Next == nil || n.Next.Next == nil {
		return
	}
	if n.Val == 1 && n.Next.Val*n.Next.Next.Val == 0x7ffffffe {
		panic("found")
	}
}

func Nil(r *Rec, n *Node) {
	if r == nil && n != nil && n.Next == nil && n.Val == 0x1234567 {
		panic("found")
	}
}

func Array(a [3]uint32) {
	if a[0]+a[1] == 0xcafef00d && a[2] == a[0]>>3 {
		panic("found")
	}
}

func Slice(xs []uint32) {
	if len(xs) == 4 && xs[3]-xs[0] == 0x6a09e667 {
		panic("found")
	}
}

func Strings(ss []string) {
	if len(ss) >= 2 && ss[1] == "magic" {
		panic("found")
	}
}

func Variadic(k int, xs ...uint32) {
	s := uint32(k)
	for _, x := range xs {
		s = s*31 + x
	}
	if len(xs) == 2 && k == 7 && s == 0x243f6a88 {
		panic("found")
	}
}

type Counter struct {
	n    uint32
	seen []uint32
}

func (c *Counter) Add(x uint32) {
	c.n += x
	if c.n == 0x0badcafe && x == 1 && len(c.seen) == 1 {
		panic("found")
	}
}

func (r Rec) Check(k int32) {
	if r.ID+k == 0x13579bdf && k == 0x1000 {
		panic("found")
	}
}
`

// TestParams checks that composite parameters and receivers are inputs
// whose parts stay symbolic: Z3 alone reaches each panic.
func TestParams(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"par/par.go": paramTargets})
	expectPanics(t, dir, "./par", []string{"Struct", "Bytes", "Pointer", "List", "Nil", "Array", "Slice", "Strings", "Variadic", "Counter.Add", "(*Counter).Add", "Rec.Check"})
}

// literalTargets take parameters of every composite kind, including maps,
// pointers to scalars and a type of another package.
const literalTargets = `package lit

import "image"

type Opt struct {
	Name   string
	Limit  *int
	Where  image.Point
	Scores map[string]float64
}

func Configure(o *Opt, extra ...Opt) int {
	n := len(extra)
	if o.Limit != nil && *o.Limit == 0x7eadbeef {
		panic("limit")
	}
	if o.Where.X == 77777 && o.Scores != nil {
		n++
	}
	return n
}

type Grid [2][2]int8

func (g Grid) Trace() int { return int(g[0][0]) + int(g[1][1]) }
`

// TestParamsGeneratedTests checks that the test files written for
// composite parameters compile and replay: every regression case passes
// and each crash is reproduced.
func TestParamsGeneratedTests(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"lit/lit.go": literalTargets})
	generateTests(t, dir, "./lit", nil, "Configure", "Grid.Trace")
	src, err := os.ReadFile(filepath.Join(dir, "lit", "configure_gocolic_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"image"`, "Where: image.Point{", "Limit: func() *int {", "in_extra []Opt", "Configure(tt.in_o, tt.in_extra...)", "panic: limit"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("configure_gocolic_test.go lacks %q:\n%s", want, src)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "lit", "grid_trace_gocolic_test.go")); err != nil {
		t.Errorf("no test file for the method Grid.Trace: %v", err)
	}
	// The crash reproducer fails, as it must while the panic is there;
	// everything else passes.
	names, out := failingTests(t, dir, "./lit")
	if want := []string{"TestGocolicConfigureCrashes", "TestGocolicConfigureCrashes/panics_limit"}; !slices.Equal(names, want) {
		t.Errorf("failing tests %q, want only %q:\n%s", names, want, out)
	}
	if !strings.Contains(out, "--- PASS: TestGocolicGrid_Trace") || !strings.Contains(out, "--- PASS: TestGocolicConfigure ") {
		t.Errorf("the regression tables did not pass:\n%s", out)
	}
}
