package build

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/rt"
	"golang.org/x/mod/modfile"
)

// TestTempModFile checks the temporary go.mod: every copied module
// replaced by its copy, whatever the user's go.mod replaced it with,
// and everything else as it was.
func TestTempModFile(t *testing.T) {
	tests := []struct {
		name   string
		gomod  string
		copies map[string]string
		// replaces maps old path -> new path of the result's replace
		// directives (the version of a replaced old path must be empty).
		replaces map[string]string
		requires []string // module paths the result must require
	}{
		{
			name:     "no replacements before",
			gomod:    "module example.com/m\n\ngo 1.24\n\nrequire example.com/dep v1.0.0\n",
			copies:   map[string]string{"example.com/dep": "/w/deps/0"},
			replaces: map[string]string{"example.com/dep": "/w/deps/0"},
			requires: []string{"example.com/dep"},
		},
		{
			name: "the user's replacement of a copied module gives way",
			gomod: "module example.com/m\n\ngo 1.24\n\nrequire (\n\texample.com/dep v1.0.0\n\texample.com/other v1.2.0\n)\n\n" +
				"replace example.com/dep v1.0.0 => example.com/fork v1.0.1\n\nreplace example.com/other => ../other\n",
			copies:   map[string]string{"example.com/dep": "/w/deps/0"},
			replaces: map[string]string{"example.com/dep": "/w/deps/0", "example.com/other": "../other"},
			requires: []string{"example.com/dep", "example.com/other"},
		},
		{
			name:     "several modules, a directory with a space",
			gomod:    "module example.com/m\n\ngo 1.21\n\nrequire (\n\texample.com/a v1.0.0\n\texample.com/b v0.3.0 // indirect\n)\n",
			copies:   map[string]string{"example.com/a": "/w/deps/0_a", "example.com/b": "/w w/deps/1_b"},
			replaces: map[string]string{"example.com/a": "/w/deps/0_a", "example.com/b": "/w w/deps/1_b"},
			requires: []string{"example.com/a", "example.com/b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tempModFile([]byte(tt.gomod), tt.copies)
			if err != nil {
				t.Fatal(err)
			}
			f, err := modfile.Parse("gocolic.mod", out, nil)
			if err != nil {
				t.Fatalf("result does not parse: %v\n%s", err, out)
			}
			if f.Module.Mod.Path != "example.com/m" {
				t.Errorf("module %s, want example.com/m", f.Module.Mod.Path)
			}
			got := map[string]string{}
			for _, r := range f.Replace {
				if _, dup := got[r.Old.Path]; dup {
					t.Errorf("%s replaced twice:\n%s", r.Old.Path, out)
				}
				if tt.copies[r.Old.Path] != "" && r.Old.Version != "" {
					t.Errorf("%s replaced at version %s only, want every version", r.Old.Path, r.Old.Version)
				}
				got[r.Old.Path] = r.New.Path
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.replaces) {
				t.Errorf("replacements %v, want %v\n%s", got, tt.replaces, out)
			}
			req := map[string]string{}
			for _, r := range f.Require {
				req[r.Mod.Path] = r.Mod.Version
			}
			for _, p := range tt.requires {
				if req[p] == "" {
					t.Errorf("%s not required:\n%s", p, out)
				}
			}
			if len(req) != len(tt.requires) {
				t.Errorf("requirements %v, want %v", req, tt.requires)
			}
			if f.Go == nil || !strings.Contains(tt.gomod, "go "+f.Go.Version+"\n") {
				t.Errorf("go line changed:\n%s", out)
			}
		})
	}
}

func TestTempModFileErrors(t *testing.T) {
	for _, gomod := range []string{"go 1.24\n", "module example.com/m\nrequire (\n"} {
		if _, err := tempModFile([]byte(gomod), nil); err == nil {
			t.Errorf("go.mod %q: no error", gomod)
		}
	}
}

func TestNeedsFileVersion(t *testing.T) {
	for v, want := range map[string]bool{"": true, "1.16": true, "1.17": true, "1.18": false, "1.21": false, "1.24.0": false} {
		if got := needsFileVersion(v); got != want {
			t.Errorf("needsFileVersion(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestSetFileVersion(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{
			name: "no build line",
			src:  "//line /m/x.go:1\npackage x\n",
			want: "//go:build go1.21\n\n//line /m/x.go:1\npackage x\n",
		},
		{
			name: "a build line is replaced in place",
			src:  "//line /m/x.go:1\n//go:build linux\n\npackage x\n\n//go:build notthis\n",
			want: "//line /m/x.go:1\n//go:build go1.21\n\npackage x\n\n//go:build notthis\n",
		},
		{
			name: "old +build lines go too, line count kept",
			src:  "//go:build linux || darwin\n// +build linux darwin\n\npackage x\n",
			want: "//go:build go1.21\n\n\npackage x\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(setFileVersion([]byte(tt.src), "go1.21")); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestCopyModule(t *testing.T) {
	src := t.TempDir()
	files := map[string]string{
		"go.mod":            "module example.com/dep\n",
		"dep.go":            "package dep\n",
		"sub/sub.go":        "package sub\n",
		"sub/data.txt":      "embedded",
		"nested/go.mod":     "module example.com/dep/nested\n",
		"nested/nested.go":  "package nested\n",
		".git/config":       "[core]\n",
		"testdata/x/in.txt": "x",
	}
	for name, content := range files {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	dst := filepath.Join(t.TempDir(), "copy")
	if err := copyModule(src, dst); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dst, p)
		got = append(got, filepath.ToSlash(rel))
		b, _ := os.ReadFile(p)
		if string(b) != files[filepath.ToSlash(rel)] {
			t.Errorf("%s: content %q, want %q", rel, b, files[filepath.ToSlash(rel)])
		}
		if info, _ := d.Info(); info.Mode().Perm()&0o200 == 0 {
			t.Errorf("%s is not writable in the copy", rel)
		}
		return nil
	})
	want := "[dep.go go.mod sub/data.txt sub/sub.go testdata/x/in.txt]"
	if fmt.Sprint(got) != want {
		t.Errorf("copied %v, want %s (no nested module, no .git)", got, want)
	}
}

// treeHash hashes the names, modes and contents of the files under dir.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s %v\n", rel, info.Mode())
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestWorkerDependency builds a worker whose "instrumented" files include
// one of another module, read-only as in the module cache and at go 1.16:
// the copy is what gets compiled, with the runtime as a module of its
// own, and neither the module nor the user's go.mod and go.sum change.
func TestWorkerDependency(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	root := t.TempDir()
	dep := filepath.Join(root, "dep")
	user := filepath.Join(root, "user")
	write := func(p, s string, mode os.FileMode) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dep, "go.mod"), "module example.com/dep\n\ngo 1.16\n", 0o444)
	write(filepath.Join(dep, "dep.go"), "package dep\n\nfunc Triple(x int) int { return x * 4 }\n", 0o444)
	write(filepath.Join(user, "go.mod"), "module example.com/w\n\ngo 1.24\n\nrequire (\n\texample.com/dep v1.0.0\n\texample.com/other v1.0.0\n)\n\n"+
		"replace example.com/dep => ../dep\n\nreplace example.com/other => ./other\n", 0o644)
	write(filepath.Join(user, "go.sum"), "", 0o644)
	write(filepath.Join(user, "other", "go.mod"), "module example.com/other\n\ngo 1.24\n", 0o644)
	write(filepath.Join(user, "other", "other.go"), "package other\n\nfunc Add(x, y int) int { return x + y }\n", 0o644)
	write(filepath.Join(user, "p", "p.go"), "package p\n\nimport (\n\t\"example.com/dep\"\n\t\"example.com/other\"\n)\n\n"+
		"func Double(x int) int { return other.Add(dep.Triple(x), 0) }\n", 0o644)
	// Read-only, as the module cache is.
	if err := os.Chmod(dep, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dep, 0o755) })
	before := treeHash(t, dep)
	userBefore := treeHash(t, user)

	// The rewritten dep.go imports the runtime and uses generics, which
	// go 1.16 forbids: the copy gets a //go:build go1.21 line.
	depSrc := "//line " + filepath.Join(dep, "dep.go") + ":1\npackage dep\n\nimport rt \"" + RuntimePath + "\"\n\n" +
		"var _ = rt.ParamInt\n\nfunc id[T any](x T) T { return x }\n\nfunc Triple(x int) int { return id(x) * 3 }\n"
	drv := strings.Replace(entryFile, "Double(rt.InputInt", "Double(2 * rt.InputInt", 1)
	work := t.TempDir()
	bin, err := Worker(Spec{
		ModuleDir: user, ModulePath: "example.com/w", PkgPath: "example.com/w/p", PkgName: "p",
		Files:   map[string][]byte{filepath.Join(dep, "dep.go"): []byte(depSrc)},
		Added:   map[string][]byte{filepath.Join(user, "p", "gocolic_entry.go"): []byte(drv)},
		Deps:    []Dep{{Path: "example.com/dep", Dir: dep, GoVersion: "1.16"}},
		WorkDir: work,
	})
	if err != nil {
		t.Fatal(err)
	}
	resp := serveOne(t, bin, &rt.Request{Env: map[uint64]uint64{0: 7}, MaxLen: 4})
	if resp.Status != rt.StatusOK || len(resp.Results) != 1 || resp.Results[0].Literal != "42" {
		t.Errorf("response %+v, want 42 = 2*7*3 from the overlay's Triple", resp)
	}
	if treeHash(t, dep) != before {
		t.Error("the dependency's directory changed")
	}
	if treeHash(t, user) != userBefore {
		t.Error("the user's module changed (go.mod, go.sum or sources)")
	}
	if _, err := os.Stat(filepath.Join(work, "gocolic.sum")); err != nil {
		t.Errorf("no go.sum beside the temporary go.mod: %v", err)
	}
}

// TestPrepareDepsTwice prepares the same work directory twice, as the
// session's second build (without the standard copies) does: the second
// copies the modules afresh instead of failing on the first's files.
func TestPrepareDepsTwice(t *testing.T) {
	main, dep, work := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(main, "go.mod"), []byte("module example.com/m\n\ngo 1.24\n\nrequire example.com/dep v1.0.0\n"), 0o644)
	os.WriteFile(filepath.Join(dep, "go.mod"), []byte("module example.com/dep\n\ngo 1.24\n"), 0o644)
	os.WriteFile(filepath.Join(dep, "dep.go"), []byte("package dep\n"), 0o644)
	s := Spec{ModuleDir: main, WorkDir: work, Deps: []Dep{{Path: "example.com/dep", Dir: dep, GoVersion: "1.24"}}}
	for i := range 2 {
		if _, _, err := prepareDeps(s); err != nil {
			t.Fatalf("preparation %d: %v", i+1, err)
		}
	}
}
