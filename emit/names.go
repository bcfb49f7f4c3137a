// This file chooses the names the generated test file uses for the
// packages it imports: the standard packages the generated code and the
// suite's literals mention, and the packages the types of the function
// under test come from.

package emit

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// TypeNames writes types as the generated test file, an internal test of
// the target package, writes them: types of the target package
// unqualified, those of other packages qualified by the name the file
// imports their package under (Suite.Imports).
type TypeNames struct {
	pkg     *types.Package
	imports map[string]string // import path to name
}

// NewTypeNames returns the names of types in a test file of package pkg.
// It chooses the import names of the packages that the types ts mention,
// in the order ts mention them (see importName); the first package of a
// name keeps it. A nil element of ts is skipped.
func NewTypeNames(pkg *types.Package, ts ...types.Type) *TypeNames {
	n := &TypeNames{pkg: pkg, imports: map[string]string{}}
	choose := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return n.importName(p)
	}
	for _, t := range ts {
		if t != nil {
			types.TypeString(t, choose)
		}
	}
	return n
}

// Type returns t as the test file writes it; "" for nil. A package that
// none of the types given to NewTypeNames mentions is written by its own
// name, and so is every package when n is nil.
func (n *TypeNames) Type(t types.Type) string {
	if t == nil {
		return ""
	}
	return types.TypeString(t, func(p *types.Package) string {
		if n == nil {
			return p.Name()
		}
		if p == n.pkg {
			return ""
		}
		if name, ok := n.imports[p.Path()]; ok {
			return name
		}
		return p.Name()
	})
}

// Imports returns the import paths of the packages the types mention,
// beyond the target package, mapped to the names the test file imports
// them under, for Suite.Imports; nil when there are none.
func (n *TypeNames) Imports() map[string]string {
	if n == nil || len(n.imports) == 0 {
		return nil
	}
	return maps.Clone(n.imports)
}

// importName returns the name the test file imports p under, choosing it
// if p has none yet. It is p's own name unless that is taken: by another
// package already named, by a declaration of the target package
// (file-scope imports may not shadow them), or by a standard package the
// test file may itself import (StdImportPath). A number is then appended:
// json2, or v1_2 for a name that ends in a digit.
func (n *TypeNames) importName(p *types.Package) string {
	if name, ok := n.imports[p.Path()]; ok {
		return name
	}
	taken := func(name string) bool {
		if std, ok := StdImportPath(name); ok && std != p.Path() || n.pkg != nil && n.pkg.Scope().Lookup(name) != nil {
			return true
		}
		for _, used := range n.imports {
			if used == name {
				return true
			}
		}
		return false
	}
	base := p.Name()
	if last := base[len(base)-1]; last >= '0' && last <= '9' {
		base += "_"
	}
	name := p.Name()
	for i := 2; taken(name); i++ {
		name = base + strconv.Itoa(i)
	}
	n.imports[p.Path()] = name
	return name
}

// fileImport is a package the test file imports, and its name there.
type fileImport struct{ path, name string }

// lastElem returns the last element of an import path, the name a
// standard package is imported under.
func lastElem(path string) string { return path[strings.LastIndexByte(path, '/')+1:] }

// fileImports returns, sorted by path, the packages the test file of s
// with body imports: the standard packages the body refers to
// (usedImports) and those of s.Imports under their names. Each name must
// be an identifier, taken by one package only, and, for a package-level
// function, not be the function's name.
func fileImports(s Suite, body string) ([]fileImport, error) {
	std, err := usedImports(body)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, path := range std {
		names[path] = lastElem(path)
	}
	for path, name := range s.Imports {
		if !token.IsIdentifier(name) || path == "" {
			return nil, fmt.Errorf("invalid import %s %q", name, path)
		}
		names[path] = name
	}
	var imports []fileImport
	byName := map[string]string{}
	for _, path := range slices.Sorted(maps.Keys(names)) {
		name := names[path]
		// A package-level function cannot share its name with a package
		// imported by a file of the same package.
		if s.Method == "" && name == s.Func {
			return nil, fmt.Errorf("the generated test imports %q, whose name collides with the function", path)
		}
		if other, ok := byName[name]; ok {
			return nil, fmt.Errorf("the generated test imports %q and %q under one name, %s", other, path, name)
		}
		byName[name] = path
		imports = append(imports, fileImport{path: path, name: name})
	}
	return imports, nil
}

// usedImports returns, sorted, the import paths of the standard packages
// that the generated body refers to, whether through the generated code
// itself or through the types and literals of the suite.
func usedImports(body string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package p\n\n"+body, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parsing generated code: %w", err)
	}
	seen := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if path, ok := StdImportPath(id.Name); ok {
					seen[path] = true
				}
			}
		}
		return true
	})
	paths := make([]string, 0, len(seen))
	for path := range seen {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	return paths, nil
}

// StdImportPath maps the name of a standard package to its import path.
// It knows the packages the generated code uses and those whose names a
// type or literal of a suite may plausibly mention; it leaves out names
// that are ambiguous within the standard library (such as "rand"). None of
// the generated code's local variables uses one of these names. A name it
// knows always refers to that standard package in a test file, so a
// Suite's Imports must give any other package another name.
func StdImportPath(name string) (string, bool) {
	switch name {
	case "bytes", "context", "errors", "fmt", "io", "math", "net", "os", "path",
		"reflect", "regexp", "slices", "sort", "strconv", "strings", "sync",
		"testing", "time", "unicode", "unsafe", "maps", "cmp":
		return name, true
	case "exec":
		return "os/exec", true
	case "fs":
		return "io/fs", true
	case "big", "bits", "cmplx":
		return "math/" + name, true
	case "netip", "url":
		return "net/" + name, true
	case "filepath":
		return "path/filepath", true
	case "atomic":
		return "sync/atomic", true
	case "utf8", "utf16":
		return "unicode/" + name, true
	case "json", "hex", "base64", "binary":
		return "encoding/" + name, true
	}
	return "", false
}
