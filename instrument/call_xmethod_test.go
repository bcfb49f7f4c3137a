package instrument

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/rt"
	"golang.org/x/tools/go/packages"
)

// TestForeignPromotedMethods checks calls of another instrumented
// package's methods promoted through embedded fields: the receiver
// becomes the field path written out, with the address taken or the
// pointer dereferenced as Go does for the method value, and the shadows
// of a value receiver handed over; a path through an unexported field of
// the other package, which the caller cannot write, stays on the
// original method, as does a method expression of the outer type. A
// variadic function called with one argument goes to its twin.
func TestForeignPromotedMethods(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command")
	}
	b := `package b

type Mixer struct{ K uint32 }

func (m *Mixer) Mix(x uint32) uint32 { return m.K ^ x }

func (m Mixer) MixV(x uint32) uint32 { return m.K + x }

type Outer struct{ Mixer }

type PtrOuter struct{ *Mixer }

type Deep struct{ *Outer }

type mixer struct{ Mixer }

type Sealed struct{ mixer }

func Sum(x uint32, more ...uint32) uint32 { return x + uint32(len(more)) }
`
	a := `package a

import "example.com/m/b"

type local struct{ b.Mixer }

type localPtr struct {
	n int
	*b.Mixer
}

type inner struct{ b.Mixer }

type unexp struct{ inner }

func F(x uint32, l local, lp *localPtr, o b.Outer, po b.PtrOuter, d b.Deep, u unexp, s b.Sealed, ls []local) uint32 {
	r := l.Mix(x) + l.MixV(x)
	r += lp.Mix(x) + lp.MixV(x)
	r += o.Mix(x) + po.MixV(x) + d.Mix(x)
	r += u.Mix(x)
	r += ls[0].MixV(x) + mk().MixV(x) + mkp().Mix(x)
	r += s.Mix(x) + s.MixV(x)
	r += local.MixV(l, x)
	r += b.Sum(x)
	return r
}

func mk() local { return local{} }

func mkp() *local { return &local{} }
`
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.24\n",
		"b/b.go": b,
		"a/a.go": a,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: dir}, "./a")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading: %v %v", err, pkgs)
	}
	sup, err := Package(pkgs[0].Imports["example.com/m/b"], Config{RuntimePath: rt.ImportPath, Support: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Package(pkgs[0], Config{RuntimePath: rt.ImportPath, Entry: "F", Imported: sup.Exports})
	if err != nil {
		t.Fatal(err)
	}
	var out string
	for _, src := range res.Files {
		out += string(src)
	}
	tests := []struct {
		name string
		want string // a piece of the rewritten code
		in   bool   // whether it must be there
	}{
		{"pointer method through a value embed", "b.Gclm5_Mixer_Mix(&l.Mixer, ", true},
		{"value method through a value embed", "b.Gclm5_Mixer_MixV(_gcl.Pass(&l.Mixer, l.Mixer), ", true},
		{"pointer method through a pointer embed", "b.Gclm5_Mixer_Mix(lp.Mixer, ", true},
		{"value method through a pointer embed", "b.Gclm5_Mixer_MixV(_gcl.Pass(lp.Mixer, *lp.Mixer), ", true},
		{"embedded field of another package's struct", "b.Gclm5_Mixer_Mix(&o.Mixer, ", true},
		{"value method through another package's pointer embed", "b.Gclm5_Mixer_MixV(_gcl.Pass(po.Mixer, *po.Mixer), ", true},
		{"two embeds, the outer a pointer", "b.Gclm5_Mixer_Mix(&d.Outer.Mixer, ", true},
		{"unexported field of this package", "b.Gclm5_Mixer_Mix(&u.inner.Mixer, ", true},
		{"element of a slice", "b.Gclm5_Mixer_MixV(_gcl.Pass(&ls[0].Mixer, ls[0].Mixer), ", true},
		{"value returned by a call: no second evaluation", "b.Gclm5_Mixer_MixV(mk().Mixer, ", true},
		{"pointer returned by a call", "b.Gclm5_Mixer_Mix(&mkp().Mixer, ", true},
		{"unexported field of another package", "s.mixer", false},
		{"method expression of the outer type", "Gclm5_Mixer_MixV(l", false},
		{"variadic function with one argument", "b.Gcl_Sum(_gcl.Mk(x, _gcl_s_x))", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Contains(out, tt.want); got != tt.in {
				t.Errorf("rewrite contains %q: %v, want %v\n%s", tt.want, got, tt.in, out)
			}
		})
	}
	// What stays refused calls the original, its argument counted as
	// made concrete by the call.
	for _, refused := range []string{"s.Mix(", "s.MixV(", "local.MixV(l, "} {
		if want := refused + "_gcl.Concrete("; !strings.Contains(out, want) {
			t.Errorf("the refused call %s is not left to the original method with a counted argument:\n%s", refused, out)
		}
	}
}
