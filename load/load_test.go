package load

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// writeTree writes files (slash-separated paths relative to a new
// temporary directory) and returns the directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// goodModule is a module with a root package, a nested package and a
// package importing another one.
var goodModule = map[string]string{
	"go.mod":       "module example.com/m\n\ngo 1.24\n",
	"root.go":      "package root\n\nfunc Root() int { return 1 }\n",
	"p/p.go":       "package p\n\nimport \"example.com/m/a/b\"\n\nfunc P(x int) int { return b.B(x) + 1 }\n",
	"p/p_test.go":  "package p\n\nimport \"testing\"\n\nfunc TestP(t *testing.T) {}\n",
	"a/a.go":       "package a\n\nfunc A() {}\n",
	"a/b/b.go":     "package b\n\nfunc B(x int) int { return x * 2 }\n",
	"a/b/doc.go":   "// Package b doubles.\npackage b\n",
	"cmd/c/c.go":   "package main\n\nfunc main() {}\n",
	"p/ignored.go": "//go:build never\n\npackage p\n\nvar broken int = \"x\"\n",
}

func TestLoad(t *testing.T) {
	root := writeTree(t, goodModule)
	tests := []struct {
		name    string
		dir     string // relative to the module root
		pattern string
		path    string
		pkgName string
		files   int // Go files compiled
	}{
		{name: "root dot", dir: ".", pattern: ".", path: "example.com/m", pkgName: "root", files: 1},
		{name: "relative", dir: ".", pattern: "./p", path: "example.com/m/p", pkgName: "p", files: 1},
		{name: "nested relative", dir: ".", pattern: "./a/b", path: "example.com/m/a/b", pkgName: "b", files: 2},
		{name: "import path", dir: ".", pattern: "example.com/m/a/b", path: "example.com/m/a/b", pkgName: "b", files: 2},
		{name: "main package", dir: ".", pattern: "./cmd/c", path: "example.com/m/cmd/c", pkgName: "main", files: 1},
		{name: "subdirectory dot", dir: "a/b", pattern: ".", path: "example.com/m/a/b", pkgName: "b", files: 2},
		{name: "subdirectory relative", dir: "a", pattern: "./b", path: "example.com/m/a/b", pkgName: "b", files: 2},
		{name: "subdirectory parent", dir: "a/b", pattern: "../../p", path: "example.com/m/p", pkgName: "p", files: 1},
		{name: "subdirectory import path", dir: "a", pattern: "example.com/m/p", path: "example.com/m/p", pkgName: "p", files: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkg, err := Load(filepath.Join(root, filepath.FromSlash(tt.dir)), tt.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if pkg.PkgPath != tt.path || pkg.Name != tt.pkgName {
				t.Errorf("package %s (%s), want %s (%s)", pkg.PkgPath, pkg.Name, tt.path, tt.pkgName)
			}
			if pkg.ModulePath != "example.com/m" || pkg.GoVersion != "1.24" {
				t.Errorf("module %s go %s, want example.com/m go 1.24", pkg.ModulePath, pkg.GoVersion)
			}
			if !sameDir(t, pkg.ModuleDir, root) {
				t.Errorf("module dir %s, want %s", pkg.ModuleDir, root)
			}
			if len(pkg.Syntax) != tt.files || len(pkg.CompiledGoFiles) != tt.files {
				t.Errorf("%d syntax trees, %d compiled files; want %d (no tests, no excluded files)", len(pkg.Syntax), len(pkg.CompiledGoFiles), tt.files)
			}
			if pkg.Types == nil || pkg.TypesInfo == nil || !pkg.Types.Complete() {
				t.Error("package is not type-checked")
			}
			for _, f := range pkg.CompiledGoFiles {
				if strings.HasSuffix(f, "_test.go") {
					t.Errorf("test file %s loaded", f)
				}
			}
		})
	}
}

func sameDir(t *testing.T, a, b string) bool {
	t.Helper()
	sa, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	return os.SameFile(sa, sb)
}

func TestLoadImportsAreTyped(t *testing.T) {
	root := writeTree(t, goodModule)
	pkg, err := Load(root, "./p")
	if err != nil {
		t.Fatal(err)
	}
	dep, ok := pkg.Imports["example.com/m/a/b"]
	if !ok || dep.Types == nil || dep.Types.Scope().Lookup("B") == nil {
		t.Errorf("import example.com/m/a/b not loaded with types: %+v", dep)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		dir     string
		pattern string
		build   string   // "yes": the error wraps ErrBuild; "no": it does not; "": unchecked
		want    []string // in the message
	}{
		{
			name: "type error",
			files: map[string]string{
				"go.mod": "module example.com/m\n\ngo 1.24\n",
				"p/p.go": "package p\n\nfunc F() int {\n\treturn nope\n}\n",
			},
			pattern: "./p", build: "yes",
			want: []string{"example.com/m/p", "p.go:4:9", "undefined: nope"},
		},
		{
			name: "mismatched types",
			files: map[string]string{
				"go.mod": "module example.com/m\n\ngo 1.24\n",
				"p/p.go": "package p\n\nvar x int = \"s\"\n",
			},
			pattern: "example.com/m/p", build: "yes",
			want: []string{"p.go:3:13", `cannot use "s"`},
		},
		{
			name: "syntax error",
			files: map[string]string{
				"go.mod": "module example.com/m\n\ngo 1.24\n",
				"p/p.go": "package p\n\nfunc F( {\n",
			},
			pattern: "./p", build: "yes",
			want: []string{"p.go:3"},
		},
		{
			name: "error in a dependency",
			files: map[string]string{
				"go.mod": "module example.com/m\n\ngo 1.24\n",
				"p/p.go": "package p\n\nimport \"example.com/m/q\"\n\nvar X = q.Y\n",
				"q/q.go": "package q\n\nvar Y int = undefinedName\n",
			},
			pattern: "./p", build: "yes",
			want: []string{"undefined: undefinedName", "q.go:3"},
		},
		{
			name: "several packages",
			files: map[string]string{
				"go.mod": "module example.com/m\n\ngo 1.24\n",
				"p/p.go": "package p\n",
				"q/q.go": "package q\n",
			},
			pattern: "./...", build: "no",
			want: []string{"matches 2 packages", "example.com/m/p", "example.com/m/q"},
		},
		{
			name: "missing directory",
			files: map[string]string{
				"go.mod": "module example.com/m\n\ngo 1.24\n",
			},
			// go list reports the missing directory as an error of the
			// package, which Load passes on as ErrBuild: either way it
			// must name the directory.
			pattern: "./nothere",
			want:    []string{"nothere"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeTree(t, tt.files)
			pkg, err := Load(filepath.Join(root, tt.dir), tt.pattern)
			if err == nil {
				t.Fatalf("Load succeeded: %s", pkg.PkgPath)
			}
			if got := errors.Is(err, ErrBuild); tt.build != "" && got != (tt.build == "yes") {
				t.Errorf("errors.Is(err, ErrBuild) = %v, want %v: %v", got, tt.build == "yes", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

// outsideModule returns a directory with a Go package and no go.mod in it
// or above it.
func outsideModule(t *testing.T) string {
	t.Helper()
	dir := writeTree(t, map[string]string{"x/x.go": "package x\n\nfunc F() {}\n"})
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			t.Skipf("%s has a go.mod above the temporary directory", d)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return dir
}

func TestLoadOutsideModule(t *testing.T) {
	t.Setenv("GOWORK", "off")
	for _, mode := range []string{"on", "off", ""} {
		t.Run("GO111MODULE="+mode, func(t *testing.T) {
			t.Setenv("GO111MODULE", mode)
			dir := outsideModule(t)
			for _, c := range [][2]string{{dir, "./x"}, {filepath.Join(dir, "x"), "."}} {
				pkg, err := Load(c[0], c[1])
				if err == nil {
					t.Fatalf("Load(%s, %s) outside a module succeeded: %s", c[0], c[1], pkg.PkgPath)
				}
				if errors.Is(err, ErrBuild) {
					t.Errorf("a package outside any module is reported as not building: %v", err)
				}
				if !strings.Contains(err.Error(), "go.mod") {
					t.Errorf("error does not mention go.mod: %v", err)
				}
			}
		})
	}
}

func TestLoadGoVersion(t *testing.T) {
	tests := []struct {
		gomod   string
		version string
	}{
		{"module example.com/m\n\ngo 1.22\n", "1.22"},
		{"module example.com/m\n\ngo 1.23\n", "1.23"},
		{"module example.com/m\n", "1.16"},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			root := writeTree(t, map[string]string{"go.mod": tt.gomod, "p/p.go": "package p\n"})
			pkg, err := Load(root, "./p")
			if err != nil {
				t.Fatal(err)
			}
			if pkg.GoVersion != tt.version {
				t.Errorf("go %q, want %q", pkg.GoVersion, tt.version)
			}
		})
	}
}

// TestOwnModule checks which packages gocolic takes as targets: those of
// the main module and of modules replaced by a directory, not those the
// go command took from the module cache, whose refusal says what to do.
func TestOwnModule(t *testing.T) {
	tests := []struct {
		name string
		m    packages.Module
		ok   bool
	}{
		{"main module", packages.Module{Path: "example.com/m", Main: true}, true},
		{"replaced by a directory", packages.Module{Path: "example.com/dep", Version: "v1.0.0", Replace: &packages.Module{Path: "../dep"}}, true},
		{"replaced by another version", packages.Module{Path: "example.com/dep", Version: "v1.0.0", Replace: &packages.Module{Path: "example.com/fork", Version: "v1.1.0"}}, false},
		{"from the module cache", packages.Module{Path: "example.com/dep", Version: "v1.0.0"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ownModule(&packages.Package{PkgPath: tt.m.Path + "/sub", Module: &tt.m})
			if (err == nil) != tt.ok {
				t.Fatalf("ownModule: %v, want accepted: %v", err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "-instrument "+tt.m.Path+"/sub") {
				t.Errorf("refusal %q does not say what to do instead", err)
			}
		})
	}
}
