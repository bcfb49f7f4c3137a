package harness

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// toolModulePath is the path of gocolic's own module, which the bench/real
// module requires through a replace.
const toolModulePath = "github.com/gocolic/gocolic"

// RealHarness is one native fuzz target of the bench/real module: a
// package of a real module from the Go module proxy under a fuzz target
// of ours (bench/real/README.md).
type RealHarness struct {
	Dir    string // package directory, relative to the module root ("semver")
	Fuzz   string // FuzzXxx
	Target string // import path of the package under test (its Target constant)
	// Tags are the build tags gocolic builds with (the package's
	// GocolicTags constant): "noasm" where the package under test has a
	// pure-Go version of what it otherwise does in assembly, which the
	// instrumenter cannot see into.
	Tags string
	// Adds counts the f.Add calls of the fuzz target: the seeds a replay
	// of its corpus runs before the entries (see entries.go).
	Adds int
	// Check is CheckXxx for FuzzXxx, when the package's non-test files
	// declare that function: what the fuzz target runs on one input,
	// which gocolic test explores from zero values. "" if not declared.
	Check string
}

// GocolicEnv is the environment a gocolic run on h adds: its build tags,
// through GOFLAGS, which the go commands gocolic runs all read.
func (h RealHarness) GocolicEnv() []string {
	if h.Tags == "" {
		return nil
	}
	return []string{"GOFLAGS=-tags=" + h.Tags}
}

// Name names h as DIR.FuzzXxx ("semver.FuzzNewVersion").
func (h RealHarness) Name() string { return h.Dir + "." + h.Fuzz }

// DiscoverReal lists the harnesses of the module at root: every package
// directory (cmd and testdata excepted) whose non-test files declare a
// string constant Target, with every func FuzzXxx(*testing.F) of its test
// files.
func DiscoverReal(root string) ([]RealHarness, error) {
	var out []RealHarness
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if rel != "." && (d.Name() == "testdata" || d.Name() == "cmd" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		hs, err := packageHarnesses(path)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		for i := range hs {
			hs[i].Dir = filepath.ToSlash(rel)
		}
		out = append(out, hs...)
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, err
}

// packageHarnesses reads the Target constant and the fuzz targets of the
// package in dir, each with its Check function if the non-test files
// declare it; none if it has no Target.
func packageHarnesses(dir string) ([]RealHarness, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	target, tags := "", ""
	var fuzz []string
	funcs := map[string]bool{} // exported functions of the non-test files
	adds := map[string]int{}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if !strings.HasSuffix(n, "_test.go") {
			if t := stringConst(f, "Target"); t != "" {
				target = t
			}
			if t := stringConst(f, "GocolicTags"); t != "" {
				tags = t
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() && fd.Type.TypeParams == nil {
					funcs[fd.Name.Name] = true
				}
			}
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && isFuzzTarget(fd) {
				fuzz = append(fuzz, fd.Name.Name)
				adds[fd.Name.Name] = countAdds(fd)
			}
		}
	}
	if target == "" {
		return nil, nil
	}
	if len(fuzz) == 0 {
		return nil, errors.New("declares a Target but has no fuzz target")
	}
	var hs []RealHarness
	for _, fz := range fuzz {
		h := RealHarness{Fuzz: fz, Target: target, Tags: tags, Adds: adds[fz]}
		if check := "Check" + strings.TrimPrefix(fz, "Fuzz"); funcs[check] {
			h.Check = check
		}
		hs = append(hs, h)
	}
	return hs, nil
}

// stringConst returns the value of the package-level string constant
// named want of f (`const Target = "..."`), or "".
func stringConst(f *ast.File, want string) string {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if name.Name != want || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if v, err := strconv.Unquote(lit.Value); err == nil {
						return v
					}
				}
			}
		}
	}
	return ""
}

// isFuzzTarget reports whether fd is func FuzzXxx(f *testing.F).
func isFuzzTarget(fd *ast.FuncDecl) bool {
	name := fd.Name.Name
	if !strings.HasPrefix(name, "Fuzz") || fd.Type.Params == nil || len(fd.Type.Params.List) != 1 {
		return false
	}
	if len(name) > 4 {
		c := name[4]
		if c >= 'a' && c <= 'z' {
			return false
		}
	}
	star, ok := fd.Type.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "F"
}

// countAdds counts the calls f.Add(...) in the body of the fuzz target
// fd, f being its *testing.F parameter.
func countAdds(fd *ast.FuncDecl) int {
	names := fd.Type.Params.List[0].Names
	if len(names) != 1 || fd.Body == nil {
		return 0
	}
	f := names[0].Name
	n := 0
	ast.Inspect(fd.Body, func(node ast.Node) bool {
		call, ok := node.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Add" {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == f {
				n++
			}
		}
		return true
	})
	return n
}

// SelectReal keeps the harnesses that one of the comma-separated
// names of only matches: a package directory ("semver"), a fuzz target
// ("FuzzNewVersion") or both ("semver.FuzzNewVersion"). Every name must
// match something.
func SelectReal(all []RealHarness, only string) ([]RealHarness, error) {
	if strings.TrimSpace(only) == "" {
		return all, nil
	}
	keep := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		matched := false
		for _, h := range all {
			if n == h.Dir || n == h.Fuzz || n == h.Name() {
				keep[h.Name()] = true
				matched = true
			}
		}
		if !matched {
			var names []string
			for _, h := range all {
				names = append(names, h.Name())
			}
			return nil, fmt.Errorf("no harness %q (have: %s)", n, strings.Join(names, ", "))
		}
	}
	var out []RealHarness
	for _, h := range all {
		if keep[h.Name()] {
			out = append(out, h)
		}
	}
	return out, nil
}

// CopyRealModule copies the bench/real module at src (go.mod, go.sum and
// the Go files of every package but cmd/, leaving out testdata) to dst, so
// that no tool writes into the source tree, and points the copy's replace
// of gocolic's module at repo, the repository's root: the module's own
// replace is relative to its source directory.
func CopyRealModule(ctx context.Context, src, dst, repo string) error {
	err := CopyTree(src, dst,
		func(dir string) bool { return dir == "testdata" || dir == "cmd" || strings.HasPrefix(dir, ".") },
		func(file string) bool {
			return (strings.HasSuffix(file, ".go") || file == "go.mod" || file == "go.sum") && !strings.HasSuffix(file, "_gocolic_test.go")
		})
	if err != nil {
		return fmt.Errorf("copying the module: %w", err)
	}
	if r := Run(ctx, time.Minute, dst, "", "go", "mod", "edit", "-replace", toolModulePath+"="+repo); r.Err != nil {
		return fmt.Errorf("pointing the copy at gocolic: %w\n%s", r.Err, Tail(r.Output, 5))
	}
	return nil
}
