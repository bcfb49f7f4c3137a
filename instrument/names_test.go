package instrument

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/rt"
)

// rtFiles parses the runtime's non-test sources that match pattern
// (rt.Sources, the files instrumented packages are built with).
func rtFiles(t *testing.T, pattern string) []*ast.File {
	t.Helper()
	names, err := fs.Glob(rt.Sources, pattern)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := rt.Sources.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// rtDecls returns the package-level names the runtime's sources declare.
func rtDecls(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for _, f := range rtFiles(t, "*.go") {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return names
}

// runtimeNameConsts returns the constants rt<Name> of names.go with their
// values, read from its source so that a constant added there is checked
// without a list to keep in step.
func runtimeNameConsts(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "names.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]string{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if len(n.Name) < 3 || !strings.HasPrefix(n.Name, "rt") || !ast.IsExported(n.Name[2:]) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Fatalf("%s is not a string literal", n.Name)
				}
				v, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				consts[n.Name] = v
			}
		}
	}
	return consts
}

// TestRuntimeNames checks that every runtime name the rewrite writes into
// generated code (a constant rt<Name> of names.go) is declared in package
// rt under that name, so that a rename in rt fails here.
func TestRuntimeNames(t *testing.T) {
	decls := rtDecls(t)
	consts := runtimeNameConsts(t)
	if len(consts) < 100 {
		t.Fatalf("found %d runtime name constants in names.go, want all of them", len(consts))
	}
	for c, name := range consts {
		if c != "rt"+name {
			t.Errorf("constant %s names rt.%s; the constant is rt<Name>", c, name)
		}
		if !decls[name] {
			t.Errorf("%s: rt declares no %s", c, name)
		}
	}
	for _, n := range [][]string{rtUnpackN[:], rtOpaqueN[:], rtFuncN[:]} {
		for _, name := range n {
			if name != "" && !decls[name] {
				t.Errorf("rt declares no %s", name)
			}
		}
	}
	v := reflect.TypeOf(rt.V[int]{})
	for _, f := range []string{vConcrete, vShadow} {
		if _, ok := v.FieldByName(f); !ok {
			t.Errorf("rt.V has no field %s", f)
		}
	}
}
