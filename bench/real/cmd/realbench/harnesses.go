package main

import (
	"bytes"
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

	shared "github.com/gocolic/gocolic/bench/internal/harness"
)

// modulePath is the path of the benchmark module, whose root the runner
// looks for above the working directory.
const modulePath = "github.com/gocolic/gocolic/bench/real"

// toolModulePath is the path of gocolic's own module, two directories up.
const toolModulePath = "github.com/gocolic/gocolic"

// harness is one native fuzz target of the benchmark module.
type harness struct {
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

// gocolicEnv is the environment a gocolic run on h adds: its build tags,
// through GOFLAGS, which the go commands gocolic runs all read.
func (h harness) gocolicEnv() []string {
	if h.Tags == "" {
		return nil
	}
	return []string{"GOFLAGS=-tags=" + h.Tags}
}

func (h harness) Name() string { return h.Dir + "." + h.Fuzz }

// discover lists the harnesses of the module at root: every package
// directory (cmd and testdata excepted) whose non-test files declare a
// string constant Target, with every func FuzzXxx(*testing.F) of its test
// files.
func discover(root string) ([]harness, error) {
	var out []harness
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
func packageHarnesses(dir string) ([]harness, error) {
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
	var hs []harness
	for _, fz := range fuzz {
		h := harness{Fuzz: fz, Target: target, Tags: tags, Adds: adds[fz]}
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

// selectHarnesses keeps the harnesses that one of the comma-separated
// names of only matches: a package directory ("semver"), a fuzz target
// ("FuzzNewVersion") or both ("semver.FuzzNewVersion"). Every name must
// match something.
func selectHarnesses(all []harness, only string) ([]harness, error) {
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
			return nil, fmt.Errorf("-only: no harness %q (have: %s)", n, strings.Join(names, ", "))
		}
	}
	var out []harness
	for _, h := range all {
		if keep[h.Name()] {
			out = append(out, h)
		}
	}
	return out, nil
}

// copyModule copies the module at src (go.mod, go.sum and the Go files of
// every package but cmd/, leaving out testdata) to dst, so that no tool
// writes into the source tree.
func copyModule(src, dst string) error {
	return shared.CopyTree(src, dst,
		func(dir string) bool { return dir == "testdata" || dir == "cmd" || strings.HasPrefix(dir, ".") },
		func(file string) bool {
			return (strings.HasSuffix(file, ".go") || file == "go.mod" || file == "go.sum") && !strings.HasSuffix(file, "_gocolic_test.go")
		})
}

// goModLine returns the module's go line ("go 1.26.0"), for the report.
func goModLine(root string) string {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	for _, l := range bytes.Split(data, []byte("\n")) {
		if f := strings.Fields(string(l)); len(f) == 2 && f[0] == "go" {
			return f[1]
		}
	}
	return ""
}
