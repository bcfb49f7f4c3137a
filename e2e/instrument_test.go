package e2e

import (
	"archive/zip"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/report"
)

// mixSrc is a bijective scramble of a uint32: a 32-bit equality on its
// result is out of reach of random inputs and of the concolic walk, and
// easy for Z3 once the arithmetic is symbolic. The branch is there to
// give the package a site of its own; it keeps x's parity, so a solution
// exists on both sides.
const mixSrc = `
// Mix scrambles x.
func Mix(x uint32) uint32 {
	if x&1 == 1 {
		x ^= 0x5554
	}
	return %s(x*0x9e3779b1 + 0x7f4a7c15)
}
`

// mixTarget is a function whose hard branch depends on Mix's result.
const mixTarget = `package a

import %q

func F(x uint32) int {
	if %s.Mix(x) == 0x1234abcd {
		panic("deep")
	}
	return 0
}
`

// instrReport is a JSON report with the lookups these tests make.
type instrReport struct{ *report.Report }

func readInstrReport(t *testing.T, path string) instrReport {
	t.Helper()
	return instrReport{readReport(t, path)}
}

func (r instrReport) found(msg string) bool {
	for _, b := range r.Bugs {
		if strings.Contains(b.Message, msg) {
			return true
		}
	}
	return false
}

// sitesIn counts the report's branch sites in files whose path contains
// part.
func (r instrReport) sitesIn(part string) int {
	n := 0
	for _, s := range r.Branches.Sites {
		if strings.Contains(filepath.ToSlash(s.Pos), part) {
			n++
		}
	}
	return n
}

// TestInstrumentPackages checks -instrument within the module: a.F's
// hard branch depends on b.Mix, which calls c.Fold. Only with b and c
// instrumented does x stay symbolic through both, so that Z3 finds the
// panic; their sites are then part of the report.
func TestInstrumentPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{
		"a/a.go": fmt.Sprintf(mixTarget, "example.com/m/b", "b"),
		"b/b.go": "package b\n\nimport \"example.com/m/c\"\n" + fmt.Sprintf(mixSrc, "c.Fold"),
		"c/c.go": "package c\n\nfunc Fold(x uint32) uint32 { return x ^ (x >> 15) }\n",
		"a/a_test.go": `package a

import "testing"

func FuzzF(f *testing.F) {
	f.Fuzz(func(t *testing.T, x uint32) { F(x) })
}
`,
	})
	tests := []struct {
		name  string
		args  []string
		found bool
	}{
		{"target only", []string{"test", "-notests", "./a", "F"}, false},
		{"whole module", []string{"test", "-notests", "-instrument", "./...", "./a", "F"}, true},
		{"comma-separated list", []string{"test", "-notests", "-instrument", "./b,example.com/m/c", "./a", "F"}, true},
		{"fuzz target, whole module", []string{"fuzz", "-nocorpus", "-instrument", "./...", "./a", "FuzzF"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "r.json")
			args := append([]string{tt.args[0], "-budget", "5s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-json", js}, tt.args[1:]...)
			res := run(t, dir, 2*time.Minute, gocolic, args...)
			if res.code != 0 {
				t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
			}
			rep := readInstrReport(t, js)
			if rep.found("deep") != tt.found {
				t.Errorf("panic found: %v, want %v\n%s", rep.found("deep"), tt.found, res.stderr)
			}
			// b's site is in the report exactly when b is instrumented.
			if n := rep.sitesIn("/b/b.go"); (n > 0) != tt.found {
				t.Errorf("%d sites of b in the report (total outcomes %d)", n, rep.Branches.Total)
			}
		})
	}
}

// writeProxy lays out a file-based module proxy (GOPROXY=file://...)
// serving module path at v1.0.0 with the given files.
func writeProxy(t *testing.T, proxy, path string, files map[string]string) {
	t.Helper()
	dir := filepath.Join(proxy, filepath.FromSlash(path), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "v1.0.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, src := range files {
		w, err := zw.Create(path + "@v1.0.0/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(src))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for name, content := range map[string]string{
		"list":        "v1.0.0\n",
		"v1.0.0.info": `{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}`,
		"v1.0.0.mod":  files["go.mod"],
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// hashTree hashes the names, modes and contents of the files under dir.
func hashTree(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s %v %d\n", rel, info.Mode(), info.ModTime().UnixNano())
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
			n++
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("hashing %s: %v (%d files)", dir, err, n)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestInstrumentDependency checks -instrument on a package of another
// module, fetched from a file-based proxy into a module cache of its own
// (read-only, as go leaves it): the panic needs values to stay symbolic
// through the dependency. The module cache, go.mod and go.sum are the same
// afterwards; the cover profile and go test -fuzz beside the exploration
// (which build the code uninstrumented, without the temporary go.mod)
// still work. The dependency says go 1.16, older than generics, which the
// rewrite of its files needs.
func TestInstrumentDependency(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	proxy, cache := t.TempDir(), t.TempDir()
	// The cache is read-only; make it removable.
	t.Cleanup(func() {
		filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
	})
	writeProxy(t, proxy, "example.com/dep", map[string]string{
		"go.mod":  "module example.com/dep\n\ngo 1.16\n",
		"dep.go":  "package dep\n" + fmt.Sprintf(mixSrc, "fold"),
		"fold.go": "package dep\n\nfunc fold(x uint32) uint32 { return x ^ (x >> 15) }\n",
	})
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOMODCACHE", cache)
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOTOOLCHAIN", "local")
	t.Setenv("GOWORK", "off")
	dir := module(t, map[string]string{
		"a/a.go": fmt.Sprintf(mixTarget, "example.com/dep", "dep"),
		"p/p.go": "package p\n\nimport \"example.com/dep\"\n\nfunc G(x uint32) bool { return dep.Mix(x) == 0x1234abcd }\n",
		"p/p_test.go": `package p_test

import (
	"testing"

	"example.com/m/p"
)

func FuzzG(f *testing.F) {
	f.Add(uint32(0))
	f.Fuzz(func(t *testing.T, x uint32) {
		if p.G(x) {
			t.Fatal("deep")
		}
	})
}
`,
	})
	gomod := filepath.Join(dir, "go.mod")
	b, _ := os.ReadFile(gomod)
	if err := os.WriteFile(gomod, append(b, "\nrequire example.com/dep v1.0.0\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := run(t, dir, 2*time.Minute, "go", "mod", "tidy"); res.code != 0 {
		t.Fatalf("go mod tidy:\n%s", res.stderr)
	}
	depDir := filepath.Join(cache, "example.com", "dep@v1.0.0")
	userFiles := func() string {
		var s strings.Builder
		for _, name := range []string{"go.mod", "go.sum"} {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&s, "%s:\n%s\n", name, b)
		}
		return s.String()
	}
	cacheBefore, userBefore := hashTree(t, depDir), userFiles()

	tests := []struct {
		name  string
		args  []string
		found bool
		check func(t *testing.T, rep instrReport, tmp string)
	}{
		{name: "not instrumented", args: []string{"test", "-budget", "5s", "-notests", "./a", "F"}},
		{name: "test", found: true,
			args: []string{"test", "-budget", "5s", "-instrument", "example.com/dep", "-coverprofile", "COVER", "./a", "F"},
			check: func(t *testing.T, rep instrReport, tmp string) {
				if rep.sitesIn("example.com/dep@v1.0.0/dep.go") == 0 {
					t.Error("no site of the dependency in the report")
				}
				if b, err := os.ReadFile(filepath.Join(tmp, "cover.out")); err != nil || !strings.Contains(string(b), "example.com/m/a/a.go") {
					t.Errorf("cover profile: %v\n%s", err, b)
				}
			}},
		{name: "fuzz beside go test -fuzz", found: true,
			args: []string{"fuzz", "-budget", "8s", "-workers", "2", "-nocorpus", "-with-fuzzer", "-instrument", "example.com/dep/...", "-rundir", "RUNDIR", "./p", "FuzzG"},
			check: func(t *testing.T, rep instrReport, tmp string) {
				if rep.Hybrid == nil || rep.Hybrid.Rounds == 0 {
					t.Errorf("go test -fuzz did not run: %+v", rep.Hybrid)
				}
				if _, err := os.Stat(filepath.Join(tmp, "rd", "cover.out")); err != nil {
					t.Errorf("no cover profile in the run directory: %v", err)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			js := filepath.Join(tmp, "r.json")
			args := []string{tt.args[0], "-workers", "1", "-seed", "1", "-lanes", "concolic", "-json", js}
			for _, a := range tt.args[1:] {
				a = strings.NewReplacer("COVER", filepath.Join(tmp, "cover.out"), "RUNDIR", filepath.Join(tmp, "rd")).Replace(a)
				args = append(args, a)
			}
			res := run(t, dir, 3*time.Minute, gocolic, args...)
			if res.code != 0 {
				t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
			}
			rep := readInstrReport(t, js)
			if rep.found("deep") != tt.found {
				t.Errorf("panic found: %v, want %v\n%s", rep.found("deep"), tt.found, res.stderr)
			}
			if tt.check != nil {
				tt.check(t, rep, tmp)
			}
			if hashTree(t, depDir) != cacheBefore {
				t.Error("the dependency's directory in the module cache changed")
			}
			if userFiles() != userBefore {
				t.Errorf("go.mod or go.sum changed:\n%s\nwas\n%s", userFiles(), userBefore)
			}
		})
	}

	// Vendored modules are refused, clearly.
	if res := run(t, dir, 2*time.Minute, "go", "mod", "vendor"); res.code != 0 {
		t.Fatalf("go mod vendor:\n%s", res.stderr)
	}
	res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "2s", "-notests", "-instrument", "example.com/dep", "./a", "F")
	if res.code != 2 || !strings.Contains(res.stderr, "vendored modules") {
		t.Errorf("with vendor/: exit %d, want 2 and an error naming vendored modules:\n%s", res.code, res.stderr)
	}
}

// TestInstrumentBadInput checks the errors of -instrument: exit status 2
// and a message naming the problem.
func TestInstrumentBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{
		"a/a.go":       "package a\n\nimport \"example.com/m/cg\"\n\nfunc F(x int) int { return cg.Twice(x) }\n",
		"cg/cg.go":     "package cg\n\n// int twice(int x) { return 2*x; }\nimport \"C\"\n\nfunc Twice(x int) int { return int(C.twice(C.int(x))) }\n",
		"other/o.go":   "package other\n\nfunc O() {}\n",
		"empty/README": "no Go files\n",
	})
	tests := []struct{ name, pattern, want string }{
		{"standard library", "strings", "standard-library packages (strings): name packages of your module"},
		{"no packages", "./empty/...", "-instrument ./empty/... matches no packages"},
		{"no such package", "example.com/nope", "-instrument example.com/nope:"},
		{"not imported", "./other", "which example.com/m/a does not import"},
		{"cgo", "./cg", "example.com/m/cg (matched by ./cg) uses cgo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, dir, time.Minute, gocolic, "test", "-budget", "2s", "-instrument", tt.pattern, "./a", "F")
			if res.code != 2 || !strings.Contains(res.stderr, tt.want) {
				t.Errorf("exit status %d, want 2 and %q:\n%s", res.code, tt.want, res.stderr)
			}
		})
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "a", "*_gocolic_test.go")); len(m) > 0 {
		t.Errorf("bad input left files: %v", m)
	}
}

// mixerPkg is the start of package b of the method tests: Mixer
// scrambles its argument with a key, by pointer and by value receiver.
const mixerPkg = `package b

// Mixer scrambles with a key.
type Mixer struct{ K uint32 }

func mix(k, x uint32) uint32 {
	x ^= k
	return (x ^ (x >> 15)) * 0x9e3779b1
}

// Mix has a pointer receiver.
func (m *Mixer) Mix(x uint32) uint32 { return mix(m.K, x) }

// MixV has a value receiver.
func (m Mixer) MixV(x uint32) uint32 { return mix(m.K, x) + 1 }
`

// TestInstrumentMethods checks that exported methods of an instrumented
// package keep their arguments symbolic when another package calls them:
// each case's hard branch is a 32-bit equality on a scramble computed
// inside a method of b, reached through one form of call. Without the
// forwarders the arguments reach b's methods concretely and no case is
// found.
func TestInstrumentMethods(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	b := mixerPkg + `

// Pair has two results.
func (m *Mixer) Pair(x uint32) (uint32, bool) { return mix(m.K, x) + 2, x != 0 }

type hidden struct{ k uint32 }

// New returns a value of an unexported type.
func New() *hidden { return &hidden{k: 5} }

// Mix of an unexported type, exported.
func (h *hidden) Mix(x uint32) uint32 { return mix(h.k, x) + 3 }
`
	a := `package a

import "example.com/m/b"

func F(x uint32, sel uint8) int {
	switch sel {
	case 0:
		var m b.Mixer
		if m.Mix(x) == 0x1234abcd {
			panic("pointer method on a value")
		}
	case 1:
		m := &b.Mixer{K: 9}
		if m.Mix(x) == 0x2345bcde {
			panic("pointer method on a pointer")
		}
	case 2:
		m := b.Mixer{K: 3}
		if m.MixV(x) == 0x3456cdef {
			panic("value method on a value")
		}
	case 3:
		m := &b.Mixer{K: 4}
		if m.MixV(x) == 0x4567def0 {
			panic("value method on a pointer")
		}
	case 4:
		if b.New().Mix(x) == 0x5678ef01 {
			panic("method of an unexported type")
		}
	case 5:
		var m b.Mixer
		if (*b.Mixer).Mix(&m, x) == 0x6789f012 {
			panic("method expression")
		}
	case 6:
		var m b.Mixer
		if y, ok := m.Pair(x); ok && y == 0x789a0123 {
			panic("two results")
		}
	case 7:
		m := b.Mixer{K: x}
		if m.MixV(11) == 0x89ab1234 {
			panic("symbolic field of a value receiver")
		}
	case 8:
		m := &b.Mixer{K: x}
		if m.MixV(12) == 0x9abc2345 {
			panic("symbolic field of a value receiver through a pointer")
		}
	}
	return 0
}
`
	expectInstrPanics(t, a, b, []string{
		"pointer method on a value", "pointer method on a pointer", "value method on a value",
		"value method on a pointer", "method of an unexported type", "method expression",
		"two results", "symbolic field of a value receiver",
		"symbolic field of a value receiver through a pointer",
	})
}

// TestInstrumentPromotedMethods checks that methods of an instrumented
// package promoted through embedded fields keep their arguments
// symbolic when another package calls them: b's Mixer is embedded by
// value and by pointer, in a's structs and in b's own; each case's hard
// branch is a 32-bit equality on a scramble computed inside Mixer's
// methods. Without the field path written out, the call ran the
// original method concretely and no case was found.
func TestInstrumentPromotedMethods(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	b := mixerPkg + `

// Outer embeds a Mixer by value.
type Outer struct{ Mixer }

// PtrOuter embeds a Mixer by pointer.
type PtrOuter struct{ *Mixer }
`
	a := `package a

import "example.com/m/b"

type byValue struct{ b.Mixer }

type byPointer struct {
	n int
	*b.Mixer
}

func F(x uint32, sel uint8) int {
	switch sel {
	case 0:
		var v byValue
		if v.Mix(x) == 0x1234abcd {
			panic("pointer method through a value embed")
		}
	case 1:
		p := &byPointer{Mixer: &b.Mixer{K: 3}}
		if p.MixV(x) == 0x2345bcde {
			panic("value method through a pointer embed")
		}
	case 2:
		var o b.Outer
		if o.Mix(x) == 0x3456cdef {
			panic("method of an embedded field of another package's struct")
		}
	case 3:
		v := byValue{b.Mixer{K: x}}
		if v.MixV(7) == 0x4567def0 {
			panic("symbolic field of a promoted value receiver")
		}
	case 4:
		o := b.PtrOuter{Mixer: &b.Mixer{K: 5}}
		if o.MixV(x) == 0x5678ef01 {
			panic("value method through another package's pointer embed")
		}
	}
	return 0
}
`
	expectInstrPanics(t, a, b, []string{
		"pointer method through a value embed", "value method through a pointer embed",
		"method of an embedded field of another package's struct",
		"symbolic field of a promoted value receiver",
		"value method through another package's pointer embed",
	})
}

// expectInstrPanics runs gocolic test on F of package a (source a) with
// package b (source b) instrumented, and checks that it finds a panic
// with each of msgs.
func expectInstrPanics(t *testing.T, a, b string, msgs []string) {
	t.Helper()
	dir := module(t, map[string]string{"a/a.go": a, "b/b.go": b})
	js := filepath.Join(t.TempDir(), "r.json")
	res := run(t, dir, 3*time.Minute, gocolic, "test", "-budget", "20s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-notests", "-json", js, "-instrument", "./b", "./a", "F")
	if res.code != 0 {
		t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
	}
	rep := readInstrReport(t, js)
	for _, msg := range msgs {
		if !rep.found(msg) {
			t.Errorf("%q not found", msg)
		}
	}
	if t.Failed() {
		t.Logf("gocolic:\n%s", res.stderr)
	}
}
