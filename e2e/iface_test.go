package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// ifaceTargets take interface parameters, fields and elements, whose
// candidates are the package's types that implement Shape (Circle,
// *Circle, Rect, *Rect, *Square, in that order). Each panics behind the
// dynamic type a test selects and, mostly, an equality of 32 bits on a
// field of the chosen value, so only a symbolic choice with symbolic
// fields reaches it.
const ifaceTargets = `package shp

type Shape interface{ Area() int64 }

type Circle struct{ R int64 }

func (c Circle) Area() int64 { return 3 * c.R * c.R }

type Rect struct{ W, H int32 }

func (r Rect) Area() int64 {
	if r.W == 0x2468ace0 {
		panic("found")
	}
	return int64(r.W) * int64(r.H)
}

type Square struct {
	Side uint32
	Tag  string
}

func (s *Square) Area() int64 {
	if s.Side == 0x13572468 && s.Tag == "sq" {
		panic("found")
	}
	return int64(s.Side) * int64(s.Side)
}

type Holder struct {
	S Shape
	N int32
}

func Switch(s Shape) int {
	switch v := s.(type) {
	case Circle:
		return 1
	case *Square:
		if v.Side == 0xdeadbeef {
			panic("found")
		}
		return 2
	case Rect:
		if v.H == 0x31415927 {
			panic("found")
		}
		return 3
	}
	return 0
}

func AssertOK(s Shape) bool {
	r, ok := s.(*Rect)
	if ok && r.W == 0x01234567 {
		panic("found")
	}
	return ok
}

func IfAssert(s Shape) bool {
	if c, ok := s.(Circle); ok && c.R == 0x7654321f {
		panic("found")
	}
	return false
}

func MethodValue(s Shape) int64 {
	if _, ok := s.(Rect); !ok {
		return 0
	}
	return s.Area()
}

func MethodPointer(s Shape) int64 {
	if s == nil {
		return 0
	}
	if _, ok := s.(*Square); !ok {
		return 0
	}
	return s.Area()
}

func Nil(s Shape, k int32) {
	if k == 0x5eed && s == nil {
		panic("found")
	}
}

func NilCase(s Shape) {
	switch s.(type) {
	case nil:
		panic("found")
	}
}

func Field(h Holder, xs []Shape) {
	c, ok := h.S.(*Circle)
	if !ok || c.R != 0x7ead || len(xs) != 2 || xs[0] != nil {
		return
	}
	if sq, ok := xs[1].(*Square); ok && sq.Side == 0xfeedf00d {
		panic("found")
	}
}

func Must(s Shape) int64 {
	if s == nil {
		return 0
	}
	return s.(Circle).R
}
`

// TestIface checks that interface inputs reach the panics behind a
// dynamic type: type switches, type assertions (with ok, in an if, and
// the form that panics), method calls through the interface with value
// and pointer receivers, comparisons with nil and a nil case, and
// interfaces inside a struct and a slice. Z3 alone has to find each.
func TestIface(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"shp/shp.go": ifaceTargets})
	expectPanics(t, dir, "./shp", []string{"Switch", "AssertOK", "IfAssert", "MethodValue", "MethodPointer", "Nil", "NilCase", "Field"})
	t.Run("Must", func(t *testing.T) {
		js := filepath.Join(t.TempDir(), "r.json")
		res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "30s", "-workers", "1", "-seed", "1", "-lanes", "concolic",
			"-maxbugs", "1", "-notests", "-minimizetime", "0", "-solver", "z3", "-json", js, "./shp", "Must")
		if res.code != 0 {
			t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
		}
		rep := readReport(t, js)
		if len(rep.Bugs) == 0 || !strings.Contains(rep.Bugs[0].Message, "interface conversion") {
			t.Errorf("failed assertion not found (bugs %+v)\n%s", rep.Bugs, res.stderr)
		}
	})
}

// TestIfaceGeneratedTests checks that the test files written for
// interface inputs compile and replay: the literals name the candidates
// (values, pointers and nil), the regression cases pass and each crash is
// reproduced. Field's crash needs a nil element, written as nil.
func TestIfaceGeneratedTests(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"shp/shp.go": ifaceTargets})
	generateTests(t, dir, "./shp", nil, "Switch", "Field")
	src, err := os.ReadFile(filepath.Join(dir, "shp", "switch_gocolic_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"in_s Shape", "Circle{R: ", "&Square{Side: 3735928559", "Rect{W: 0, H: 826366247}"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("switch_gocolic_test.go lacks %q:\n%s", want, src)
		}
	}
	src, err = os.ReadFile(filepath.Join(dir, "shp", "field_gocolic_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Holder{S: &Circle{R: 32429}", "[]Shape{nil, &Square{Side: 4277006349"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("field_gocolic_test.go lacks %q:\n%s", want, src)
		}
	}
	names, out := failingTests(t, dir, "./shp")
	// Switch panics at two places: two distinct bugs.
	want := []string{"TestGocolicFieldCrashes", "TestGocolicFieldCrashes/panics_found",
		"TestGocolicSwitchCrashes", "TestGocolicSwitchCrashes/panics_found", "TestGocolicSwitchCrashes/panics_found_2"}
	if !slices.Equal(names, want) {
		t.Errorf("failing tests %q, want only %q:\n%s", names, want, out)
	}
	if !strings.Contains(out, "--- PASS: TestGocolicSwitch ") || !strings.Contains(out, "--- PASS: TestGocolicField ") {
		t.Errorf("the regression tables did not pass:\n%s", out)
	}
}
