// This file turns the rewrite of a floor package into an instrumented
// copy under another import path. A floor package (floor.go) cannot be
// instrumented in place: the instrumented package would import the
// runtime, which imports it. Its copy, laid at $GOROOT/src/CopyPrefix/<path>,
// is a standard package the runtime never imports, so it may import both
// the runtime and Go's internal packages; every other instrumented file
// imports the copy wherever it imported the original (Redirect), and
// uninstrumented code, the runtime among it, keeps the original.
//
// Type identity: the copy declares the original's exported types and
// variables as aliases of the original's (type NumError =
// strconv.NumError, var ErrRange = strconv.ErrRange) wherever its own code
// can use them so (Aliases), so that errors.Is, errors.As and type
// assertions treat values of the copy and of the original alike. The
// methods of an aliased type are the original's, uninstrumented.

package build

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// CopyPrefix is the import path under which the instrumented copies of
// floor packages are laid: strconv's copy is CopyPrefix+"/strconv".
const CopyPrefix = "gocolicstd"

// copyable lists the floor packages gocolic instruments as copies, with
// why each is worth one: the functions real parsers call on their input
// first. Each must be pure Go (no assembly, no //go:linkname; math/bits
// has a linkname to the runtime's errors, and its models are exact).
var copyable = map[string]string{
	"strconv":          "Parse*, Format*, Quote, Unquote, Atoi, Itoa",
	"internal/strconv": "strconv's parsers and formatters from go1.26 on",
	"unicode":          "the classes and case mappings beyond ASCII, which the models leave concrete",
	"unicode/utf8":     "decoding and validation of strings and byte slices",
	"path":             "Match, Clean, Split of paths",
	"slices":           "searches and sorts over instrumented callbacks and values",
	"cmp":              "Compare, Less, Or, which slices calls",
}

// Copyable reports whether the standard package path is a floor package
// gocolic may instrument as a copy.
func Copyable(path string) bool {
	_, ok := copyable[path]
	return ok
}

// CopyPath returns the import path of the copy of the standard package
// path.
func CopyPath(path string) string { return CopyPrefix + "/" + path }

// origName is the name under which a copy's files import the original.
const origName = "_gcl_orig"

// Aliases returns the exported names of pkg (the original of a copy,
// with the type information of its files) that the copy can declare as
// aliases of the original's: non-generic types whose fields are all
// exported, which mention no type of pkg that is not aliased, and whose
// methods the package's own code does not call (the copy's calls go to
// twins, which an alias cannot have); and variables of types the copy
// shares with the original.
func Aliases(pkg *types.Package, info *types.Info) map[string]bool {
	called := map[*types.TypeName]bool{}
	for _, sel := range info.Selections {
		if sel.Kind() == types.FieldVal {
			continue
		}
		if n := namedOf(sel.Recv()); n != nil {
			called[n.Obj()] = true
		}
	}
	scope := pkg.Scope()
	ok := map[string]bool{}
	for _, name := range scope.Names() {
		tn, isType := scope.Lookup(name).(*types.TypeName)
		if !isType || !tn.Exported() || tn.IsAlias() || called[tn] {
			continue
		}
		n, isNamed := tn.Type().(*types.Named)
		if !isNamed || n.TypeParams().Len() > 0 || unexportedMethods(n) {
			continue
		}
		ok[name] = true
	}
	// Drop types that mention a type of pkg the copy does not share,
	// until none does.
	for changed := true; changed; {
		changed = false
		for name := range ok {
			if !shared(scope.Lookup(name).Type().Underlying(), pkg, ok, map[types.Type]bool{}) {
				delete(ok, name)
				changed = true
			}
		}
	}
	for _, name := range scope.Names() {
		if v, isVar := scope.Lookup(name).(*types.Var); isVar && v.Exported() && shared(v.Type(), pkg, ok, map[types.Type]bool{}) {
			ok[name] = true
		}
	}
	return ok
}

// namedOf returns the named type of a receiver, through one pointer.
func namedOf(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// unexportedMethods reports whether n has a method the copy could not
// reach on the original's type.
func unexportedMethods(n *types.Named) bool {
	for i := 0; i < n.NumMethods(); i++ {
		if !n.Method(i).Exported() {
			return true
		}
	}
	return false
}

// shared reports whether t is the same type in the copy as in the
// original: it mentions no named type of pkg but the aliased ones in ok,
// and no struct with an unexported field of pkg.
func shared(t types.Type, pkg *types.Package, ok map[string]bool, seen map[types.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if t.Obj().Pkg() == pkg {
			return ok[t.Obj().Name()]
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			if !shared(t.TypeArgs().At(i), pkg, ok, seen) {
				return false
			}
		}
		return true
	case *types.Basic:
		return true
	case *types.Pointer:
		return shared(t.Elem(), pkg, ok, seen)
	case *types.Slice:
		return shared(t.Elem(), pkg, ok, seen)
	case *types.Array:
		return shared(t.Elem(), pkg, ok, seen)
	case *types.Chan:
		return shared(t.Elem(), pkg, ok, seen)
	case *types.Map:
		return shared(t.Key(), pkg, ok, seen) && shared(t.Elem(), pkg, ok, seen)
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			if !f.Exported() && f.Pkg() == pkg || !shared(f.Type(), pkg, ok, seen) {
				return false
			}
		}
		return true
	case *types.Signature:
		return shared(t.Params(), pkg, ok, seen) && shared(t.Results(), pkg, ok, seen)
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			if !shared(t.At(i).Type(), pkg, ok, seen) {
				return false
			}
		}
		return true
	case *types.Interface:
		for i := 0; i < t.NumMethods(); i++ {
			if !t.Method(i).Exported() || !shared(t.Method(i).Type(), pkg, ok, seen) {
				return false
			}
		}
		for i := 0; i < t.NumEmbeddeds(); i++ {
			if !shared(t.EmbeddedType(i), pkg, ok, seen) {
				return false
			}
		}
		return true
	}
	return false // type parameters, unions: not aliased
}

// A Copy is a floor package to lay as an instrumented copy.
type Copy struct {
	// Path is the original's import path; Dir its directory under
	// $GOROOT/src.
	Path string
	Dir  string
	// Aliases are the exported names the copy declares as aliases of
	// the original's (Aliases).
	Aliases map[string]bool
}

// AsCopy turns files, the rewritten files of c (the package's and its
// entry file, by their paths in c.Dir), into the files of its copy, by
// their paths in the copy's directory: imports of copied packages
// (copies, by original path) go to their copies; aliased types and
// variables name the original's; the methods of aliased types, their
// exported forwarders and their registrations are dropped.
func AsCopy(c Copy, files map[string][]byte, copies map[string]bool) (map[string][]byte, error) {
	srcRoot := strings.TrimSuffix(c.Dir, filepath.FromSlash(c.Path))
	if srcRoot == c.Dir {
		return nil, fmt.Errorf("copy of %s: directory %s does not end in its path", c.Path, c.Dir)
	}
	dir := filepath.Join(srcRoot, filepath.FromSlash(CopyPath(c.Path)))
	out := make(map[string][]byte, len(files))
	for p, src := range files {
		rel, ok := within(c.Dir, p)
		if !ok || strings.Contains(rel, string(filepath.Separator)) {
			return nil, fmt.Errorf("copy of %s: file %s is not in %s", c.Path, p, c.Dir)
		}
		b, err := copyFile(c, src, copies)
		if err != nil {
			return nil, fmt.Errorf("copy of %s: %s: %w", c.Path, rel, err)
		}
		out[filepath.Join(dir, rel)] = b
	}
	return out, nil
}

// copyFile is AsCopy for one file.
func copyFile(c Copy, src []byte, copies map[string]bool) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	redirect(f, copies)
	origUsed := false
	orig := func(name string) ast.Expr {
		origUsed = true
		return &ast.SelectorExpr{X: ast.NewIdent(origName), Sel: ast.NewIdent(name)}
	}
	drops := func(recv ast.Expr) bool {
		if s, ok := recv.(*ast.StarExpr); ok {
			recv = s.X
		}
		id, ok := recv.(*ast.Ident)
		return ok && c.Aliases[id.Name]
	}
	var decls []ast.Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 && drops(d.Recv.List[0].Type) || forwarderOfAliased(d, c.Aliases) {
				continue
			}
		case *ast.GenDecl:
			switch d.Tok {
			case token.TYPE:
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					if c.Aliases[ts.Name.Name] && ts.TypeParams == nil {
						ts.Assign, ts.Type = ts.Name.End(), orig(ts.Name.Name)
					}
				}
			case token.VAR:
				if registersAliased(d, c.Aliases) {
					continue
				}
				d.Specs = aliasVars(d.Specs, c.Aliases, orig)
			}
		}
		decls = append(decls, d)
	}
	f.Decls = decls
	if origUsed {
		addImport(f, origName, c.Path)
	}
	dropUnused(f)
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// aliasVars returns specs with every aliased variable declared as the
// original's: var X = orig.X, one spec per name where a spec declared
// several.
func aliasVars(specs []ast.Spec, aliases map[string]bool, orig func(string) ast.Expr) []ast.Spec {
	var out []ast.Spec
	for _, s := range specs {
		vs := s.(*ast.ValueSpec)
		has := false
		for _, n := range vs.Names {
			has = has || aliases[n.Name]
		}
		// A tuple assignment (var a, B = f()) stays as it is.
		if !has || len(vs.Values) != 0 && len(vs.Values) != len(vs.Names) {
			out = append(out, vs)
			continue
		}
		for i, n := range vs.Names {
			one := &ast.ValueSpec{Names: []*ast.Ident{n}, Type: vs.Type}
			if len(vs.Values) > 0 {
				one.Values = []ast.Expr{vs.Values[i]}
			}
			if aliases[n.Name] {
				one.Type, one.Values = nil, []ast.Expr{orig(n.Name)}
			}
			if i == 0 {
				one.Doc = vs.Doc
			}
			out = append(out, one)
		}
	}
	return out
}

// forwarderOfAliased reports whether d is the exported forwarder of a
// method of an aliased type (Gclm<n>_T_M, instrument/call_xmethod.go).
func forwarderOfAliased(d *ast.FuncDecl, aliases map[string]bool) bool {
	if d.Recv != nil || !strings.HasPrefix(d.Name.Name, "Gclm") {
		return false
	}
	for name := range aliases {
		if strings.HasPrefix(d.Name.Name, fmt.Sprintf("Gclm%d_%s_", len(name), name)) {
			return true
		}
	}
	return false
}

// registersAliased reports whether d is var _ = rt.RegisterMethod[T](...)
// for an aliased T (instrument/call_imethod.go).
func registersAliased(d *ast.GenDecl, aliases map[string]bool) bool {
	if len(d.Specs) != 1 {
		return false
	}
	vs := d.Specs[0].(*ast.ValueSpec)
	if len(vs.Names) != 1 || vs.Names[0].Name != "_" || len(vs.Values) != 1 {
		return false
	}
	call, ok := vs.Values[0].(*ast.CallExpr)
	if !ok {
		return false
	}
	ix, ok := call.Fun.(*ast.IndexExpr)
	if !ok {
		return false
	}
	sel, ok := ix.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "RegisterMethod" {
		return false
	}
	id, ok := ix.Index.(*ast.Ident)
	return ok && aliases[id.Name]
}

// Redirect returns src, a rewritten Go file outside the copies, with its
// imports of the packages in copies (original paths) pointing at their
// copies under the same names. The copies declare every exported name of
// their originals, so nothing else in the file changes.
func Redirect(src []byte, copies map[string]bool) ([]byte, error) {
	if !importsAny(src, copies) {
		return src, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	if !redirect(f, copies) {
		return src, nil
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// importsAny reports whether src may import one of copies: a cheap test
// before parsing.
func importsAny(src []byte, copies map[string]bool) bool {
	for p := range copies {
		if bytes.Contains(src, []byte(strconv.Quote(p))) {
			return true
		}
	}
	return false
}

// redirect points f's imports of copied packages at their copies, and
// reports whether it changed any.
func redirect(f *ast.File, copies map[string]bool) bool {
	changed := false
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil || !copies[p] {
			continue
		}
		if is.Name == nil {
			// A standard package's name is its path's last element.
			is.Name = ast.NewIdent(path.Base(p))
		}
		is.Path.Value = strconv.Quote(CopyPath(p))
		changed = true
	}
	return changed
}

// dropUnused removes the imports f no longer uses once variables name the
// original's (path's errors, for ErrBadPattern). A package name is used
// only as the left of a selector, so an import no selector names is
// unused.
func dropUnused(f *ast.File) {
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	unused := func(is *ast.ImportSpec) bool {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			return false
		}
		name := path.Base(p)
		if is.Name != nil {
			name = is.Name.Name
		}
		return name != "_" && name != "." && !used[name]
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			gd.Specs = slices.DeleteFunc(gd.Specs, func(s ast.Spec) bool { return unused(s.(*ast.ImportSpec)) })
		}
	}
	f.Decls = slices.DeleteFunc(f.Decls, func(d ast.Decl) bool {
		gd, ok := d.(*ast.GenDecl)
		return ok && gd.Tok == token.IMPORT && len(gd.Specs) == 0
	})
	f.Imports = slices.DeleteFunc(f.Imports, unused)
}

// addImport adds import name "path" to f.
func addImport(f *ast.File, name, p string) {
	spec := &ast.ImportSpec{Name: ast.NewIdent(name), Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(p)}}
	f.Imports = append(f.Imports, spec)
	f.Decls = append([]ast.Decl{&ast.GenDecl{Tok: token.IMPORT, Specs: []ast.Spec{spec}}}, f.Decls...)
}
