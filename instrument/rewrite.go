// This file rewrites files and function declarations, and prints them.

package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gocolic/gocolic/sites"
)

// rewriteFile rewrites one file of the package and prints it.
//
// Declarations are printed one by one, each after the //go: directives
// its original carried: placed by position among rewritten bodies, a
// directive could land inside another function. Ordinary comments are
// dropped, since they could land inside generated code.
func (ins *instrumenter) rewriteFile(f *ast.File) ([]byte, error) {
	ins.file = f
	ins.imports = fileImports(f, ins.info)
	ins.typeImports = nil
	ins.keepUsed = nil
	var imports []ast.Decl
	type outDecl struct {
		decl       ast.Decl
		directives []string
	}
	var decls []outDecl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			for i, nd := range ins.funcDecl(d) {
				od := outDecl{decl: nd}
				if i == 0 {
					od.directives = directives(d.Doc)
				}
				decls = append(decls, od)
			}
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				imports = append(imports, d)
				continue
			}
			decls = append(decls, outDecl{decl: ins.genDecl(d), directives: directives(d.Doc)})
		default:
			decls = append(decls, outDecl{decl: d})
		}
	}
	hdr := &ast.File{Package: f.Package, Name: f.Name, Decls: imports}
	// File-level directives (//go:build) come before the package clause.
	for _, cg := range f.Comments {
		if cg.Pos() < f.Package {
			if ds := directives(cg); len(ds) > 0 {
				hdr.Comments = append(hdr.Comments, &ast.CommentGroup{List: directiveComments(cg)})
			}
		}
	}
	var uses []ast.Decl
	for _, path := range slices.Sorted(maps.Keys(ins.typeImports)) {
		imp := ins.typeImports[path]
		hdr.Decls = append(hdr.Decls, &ast.GenDecl{Tok: token.IMPORT, Specs: []ast.Spec{&ast.ImportSpec{
			Name: ast.NewIdent(imp[0]), Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(path)}}}})
		// A type may be written only to see whether it can be: a use
		// keeps the import from being unused.
		uses = append(uses, &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{
			Names: []*ast.Ident{ast.NewIdent("_")},
			Type:  &ast.StarExpr{X: &ast.SelectorExpr{X: ast.NewIdent(imp[0]), Sel: ast.NewIdent(imp[1])}},
		}}})
	}
	addImport(hdr, ins.cfg.RuntimePath)
	hdr.Decls = append(hdr.Decls, uses...)
	var buf bytes.Buffer
	cfg := printer.Config{Mode: printer.SourcePos | printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&buf, ins.fset, hdr); err != nil {
		return nil, fmt.Errorf("printing: %w", err)
	}
	for _, od := range decls {
		buf.WriteString("\n")
		for _, d := range od.directives {
			buf.WriteString(d + "\n")
		}
		if err := cfg.Fprint(&buf, ins.fset, od.decl); err != nil {
			return nil, fmt.Errorf("printing: %w", err)
		}
		buf.WriteString("\n")
	}
	for _, name := range slices.Sorted(maps.Keys(ins.keepUsed)) {
		fmt.Fprintf(&buf, "\nvar _ = %s\n", name)
	}
	return buf.Bytes(), nil
}

// directives returns the //go: directive lines of a comment group.
func directives(cg *ast.CommentGroup) []string {
	var out []string
	for _, c := range directiveComments(cg) {
		out = append(out, c.Text)
	}
	return out
}

func directiveComments(cg *ast.CommentGroup) []*ast.Comment {
	if cg == nil {
		return nil
	}
	var out []*ast.Comment
	for _, c := range cg.List {
		if strings.HasPrefix(c.Text, "//go:") || strings.HasPrefix(c.Text, "// +build") {
			out = append(out, c)
		}
	}
	return out
}

// addImport adds the runtime import as the file's first declaration and a
// use of it, so that files without instrumented code still compile.
func addImport(f *ast.File, path string) {
	spec := &ast.ImportSpec{Name: ast.NewIdent(runtimeAlias), Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(path)}}
	imp := &ast.GenDecl{Tok: token.IMPORT, Specs: []ast.Spec{spec}}
	useRT := &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{
		Names: []*ast.Ident{ast.NewIdent("_")},
		Type:  &ast.StarExpr{X: rtSel(rtExpr)},
	}}}
	// Imports must precede other declarations; keep the file's own first.
	i := 0
	for i < len(f.Decls) {
		if gd, ok := f.Decls[i].(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			i++
			continue
		}
		break
	}
	decls := append([]ast.Decl{}, f.Decls[:i]...)
	decls = append(decls, imp)
	decls = append(decls, f.Decls[i:]...)
	f.Decls = append(decls, useRT)
}

// genDecl rewrites package-level declarations: only the initialisers of
// variables, which run concretely at package initialisation. The copy it
// returns has no doc comment: rewriteFile writes the declaration's
// directives itself, and the printer would repeat them with the doc
// comment (a //go:linkname twice does not compile).
func (ins *instrumenter) genDecl(d *ast.GenDecl) ast.Decl {
	nd := *d
	nd.Doc = nil
	if d.Tok != token.VAR {
		return &nd
	}
	nd.Specs = nil
	ins.fn = &funcCtx{init: true}
	ins.fnName = "init"
	for _, sp := range d.Specs {
		vs := *sp.(*ast.ValueSpec)
		var vals []ast.Expr
		if len(vs.Values) > 0 {
			vals = make([]ast.Expr, len(vs.Values))
		}
		for i, v := range vs.Values {
			if len(vs.Values) == 1 && len(vs.Names) > 1 {
				vals[i] = ins.cxMulti(v)
			} else {
				vals[i] = ins.cx(v)
			}
		}
		vs.Values = vals
		// A spec in a var ( … ) block keeps its directives, which must
		// stand right above it (//go:embed) or name it (//go:linkname).
		vs.Doc, vs.Comment = nil, nil
		if ds := directiveComments(sp.(*ast.ValueSpec).Doc); len(ds) > 0 {
			vs.Doc = &ast.CommentGroup{List: ds}
		}
		nd.Specs = append(nd.Specs, &vs)
	}
	ins.fn = nil
	return &nd
}

// funcLit rewrites a function literal used as a value. One with tracked
// parameters or results becomes a wrapper around its twin (twinLit), so
// that its body sees its parameters as twins' bodies do; one without
// keeps its form, with its body rewritten.
func (ins *instrumenter) funcLit(fl *ast.FuncLit) *ast.FuncLit {
	if t := ins.litTwins[fl]; t != nil {
		return ins.wrapperLit(fl, t, ins.twinLit(fl, t))
	}
	saved := ins.fn
	ins.fn = &funcCtx{results: fl.Type.Results, parent: saved}
	body := withOwn(ins.fn, ins.block(fl.Body))
	ins.fn = saved
	body.List = append(ins.markers(fl), body.List...)
	return &ast.FuncLit{Type: fl.Type, Body: body}
}

// funcDecl rewrites a function declaration: in place when it has no twin,
// else into the twin and the wrapper.
func (ins *instrumenter) funcDecl(fd *ast.FuncDecl) []ast.Decl {
	if fd.Body == nil {
		return []ast.Decl{fd}
	}
	ins.fnName = fd.Name.Name
	fn, _ := ins.info.Defs[fd.Name].(*types.Func)
	t := ins.twins[fn]
	if t == nil {
		ins.fn = &funcCtx{results: fd.Type.Results}
		nd := *fd
		nd.Doc = nil
		nd.Body = ins.block(fd.Body)
		nd.Body.List = append(append(ins.markers(fd), ins.takes(fd)...), nd.Body.List...)
		withOwn(ins.fn, nd.Body)
		ins.fn = nil
		return []ast.Decl{&nd}
	}
	twin := ins.twinDecl(fd, t)
	decls := []ast.Decl{ins.wrapperDecl(fd, t), twin}
	if t.xname != "" {
		decls = append(decls, forwarderDecl(fd, twin, t))
	}
	if r := registerTwin(fd, t); r != nil {
		decls = append(decls, r)
	}
	if r := ins.registerMethod(fd, twin, t); r != nil {
		decls = append(decls, r)
	}
	return decls
}

// paramNames returns the parameters of a field list flattened, with the
// index of the signature parameter each stands for.
func flatten(fl *ast.FieldList) []*ast.Field {
	if fl == nil {
		return nil
	}
	var out []*ast.Field
	for _, f := range fl.List {
		if len(f.Names) == 0 {
			out = append(out, &ast.Field{Type: f.Type})
			continue
		}
		for _, n := range f.Names {
			out = append(out, &ast.Field{Names: []*ast.Ident{n}, Type: f.Type})
		}
	}
	return out
}

// twinDecl builds the twin of fd: tracked parameters become V parameters
// bound to the original names (and shadows) on entry, and a shadow result
// follows the ordinary results for each tracked result.
func (ins *instrumenter) twinDecl(fd *ast.FuncDecl, t *twinInfo) *ast.FuncDecl {
	ft, prologue := ins.twinType(fd.Type, t)
	ins.fn = &funcCtx{twin: t, results: fd.Type.Results}
	body := ins.block(fd.Body)
	body.List = append(append(append(ins.markers(fd), prologue...), ins.takes(fd)...), body.List...)
	withOwn(ins.fn, body)
	ins.fn = nil
	return &ast.FuncDecl{Recv: fd.Recv, Name: ast.NewIdent(t.name), Type: ft, Body: body}
}

// markers returns the statements that mark a call of the function fn
// (a declaration or a literal) in a traced execution, when the build has
// markers: rt.Enter with the function's entry site, and rt.Leave deferred,
// which runs after the body's own deferred calls and also when a panic
// unwinds the function. The site is allocated after the body's: the
// other sites keep their order, and their numbers shift by the entry
// sites of the literals before them.
func (ins *instrumenter) markers(fn ast.Node) []ast.Stmt {
	if !ins.cfg.Markers {
		return nil
	}
	id := ins.newSite(sites.Func, fn)
	ins.sites[id-ins.cfg.SiteBase].Text = "func " + ins.fnName
	site := siteLit(id)
	return []ast.Stmt{
		&ast.ExprStmt{X: rtCall(rtEnter, site)},
		&ast.DeferStmt{Call: rtCall(rtLeave, site)},
	}
}

// twinType returns the type of the twin of a function of type ft, a
// declaration's or a literal's, and the prologue that binds its V
// parameters to the original names.
func (ins *instrumenter) twinType(ft *ast.FuncType, t *twinInfo) (*ast.FuncType, []ast.Stmt) {
	sig := t.signature()
	var params []*ast.Field
	var prologue []ast.Stmt
	for i, p := range flatten(ft.Params) {
		name := "_"
		if len(p.Names) > 0 {
			name = p.Names[0].Name
		}
		if t.params[i] == notTracked {
			if name == "_" && len(p.Names) == 0 {
				name = fmt.Sprintf("%s%d", paramPrefix, i)
			}
			params = append(params, &ast.Field{Names: []*ast.Ident{ast.NewIdent(name)}, Type: p.Type})
			continue
		}
		pname := fmt.Sprintf("%s%d", paramPrefix, i)
		params = append(params, &ast.Field{Names: []*ast.Ident{ast.NewIdent(pname)}, Type: &ast.IndexExpr{X: rtSel(rtV), Index: p.Type}})
		if name == "_" {
			continue
		}
		prologue = append(prologue, ins.bindParam(sig.Params().At(i), name, pname)...)
	}
	var results []*ast.Field
	if ft.Results != nil {
		results = append(results, ft.Results.List...)
		named := len(ft.Results.List) > 0 && len(ft.Results.List[0].Names) > 0
		for i, r := range flatten(ft.Results) {
			if t.results[i] == notTracked {
				continue
			}
			f := &ast.Field{Type: &ast.StarExpr{X: rtSel(rtExpr)}}
			if named {
				name := "_"
				if r.Names[0].Name != "_" {
					name = ins.shadowName(sig.Results().At(i))
				}
				f.Names = []*ast.Ident{ast.NewIdent(name)}
			}
			results = append(results, f)
		}
	}
	nt := &ast.FuncType{Func: ft.Func, TypeParams: ft.TypeParams, Params: &ast.FieldList{List: params}}
	if len(results) > 0 {
		nt.Results = &ast.FieldList{List: results}
	}
	return nt, prologue
}

// wrapperDecl turns fd into a wrapper that calls the twin with concrete
// values, so that it keeps its signature for every other use.
func (ins *instrumenter) wrapperDecl(fd *ast.FuncDecl, t *twinInfo) *ast.FuncDecl {
	nd := *fd
	nd.Doc = nil
	var fun ast.Expr = ast.NewIdent(t.name)
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		recv := *fd.Recv.List[0]
		if len(recv.Names) == 0 || recv.Names[0].Name == "_" {
			recv.Names = []*ast.Ident{ast.NewIdent(recvName)}
		}
		nd.Recv = &ast.FieldList{List: []*ast.Field{&recv}}
		fun = &ast.SelectorExpr{X: ast.NewIdent(recv.Names[0].Name), Sel: ast.NewIdent(t.name)}
	}
	if tps := fd.Type.TypeParams; tps != nil && len(tps.List) > 0 {
		var targs []ast.Expr
		for _, f := range tps.List {
			for _, n := range f.Names {
				targs = append(targs, ast.NewIdent(n.Name))
			}
		}
		if len(targs) == 1 {
			fun = &ast.IndexExpr{X: fun, Index: targs[0]}
		} else {
			fun = &ast.IndexListExpr{X: fun, Indices: targs}
		}
	}
	// Name every parameter so the wrapper can pass it on.
	params, body := wrapperBody(flatten(fd.Type.Params), t, fun, func(i int, p *ast.Field) string {
		if len(p.Names) > 0 && p.Names[0].Name != "_" {
			return p.Names[0].Name
		}
		return fmt.Sprintf("%s%d", argPrefix, i)
	})
	nt := *fd.Type
	nt.Params = &ast.FieldList{List: params}
	nd.Type = &nt
	nd.Body = &ast.BlockStmt{List: body}
	return &nd
}

// variadicAt returns the position to give the Ellipsis of a call that
// passes a slice on to a variadic parameter of type t: the position of
// t's "...", else at, both in the file being rewritten, so that the
// //line comment the printer writes for it (printer.SourcePos) is the
// same in every run. token.Pos(1), used before, named whichever file the
// FileSet happened to hold first; the differing comments defeated Go's
// build cache (the same command built in 4 s or in 73 s). Only a node
// with neither position still gets 1.
func variadicAt(t ast.Expr, at token.Pos) token.Pos {
	if e, ok := t.(*ast.Ellipsis); ok && e.Ellipsis.IsValid() {
		return e.Ellipsis
	}
	if at.IsValid() {
		return at
	}
	return 1
}

// wrapperBody returns the parameters (ps, each named by name) and the
// body of a wrapper that calls fun, a twin described by t, with concrete
// values and returns its ordinary results.
func wrapperBody(ps []*ast.Field, t *twinInfo, fun ast.Expr, name func(int, *ast.Field) string) ([]*ast.Field, []ast.Stmt) {
	var params []*ast.Field
	var args []ast.Expr
	for i, p := range ps {
		n := name(i, p)
		params = append(params, &ast.Field{Names: []*ast.Ident{ast.NewIdent(n)}, Type: p.Type})
		var a ast.Expr = ast.NewIdent(n)
		if t.params[i] != notTracked {
			a = rtCall(rtMk, a, nilIdent())
		}
		args = append(args, a)
	}
	c := &ast.CallExpr{Fun: fun, Args: args}
	if len(ps) > 0 {
		if _, ok := ps[len(ps)-1].Type.(*ast.Ellipsis); ok {
			c.Ellipsis = variadicAt(ps[len(ps)-1].Type, token.NoPos)
		}
	}
	nres := len(t.results)
	if nres == 0 {
		return params, []ast.Stmt{&ast.ExprStmt{X: c}}
	}
	var lhs, rets []ast.Expr
	for i := 0; i < nres; i++ {
		n := fmt.Sprintf("%s%d", resultPrefix, i)
		lhs = append(lhs, ast.NewIdent(n))
		rets = append(rets, ast.NewIdent(n))
	}
	for i := 0; i < t.nShadow; i++ {
		lhs = append(lhs, ast.NewIdent("_"))
	}
	return params, []ast.Stmt{
		&ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: []ast.Expr{c}},
		&ast.ReturnStmt{Results: rets},
	}
}

// bindParam returns the statements that bind the V parameter pname to the
// original parameter name (and its shadow, if the variable has one) at the
// start of a twin or a fuzz function.
func (ins *instrumenter) bindParam(obj types.Object, name, pname string) []ast.Stmt {
	if ins.shadow[obj] {
		sh := ins.shadowName(obj)
		return []ast.Stmt{
			&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(name), ast.NewIdent(sh)}, Tok: token.DEFINE,
				Rhs: []ast.Expr{field(ast.NewIdent(pname), vConcrete), field(ast.NewIdent(pname), vShadow)}},
			use(name), use(sh),
		}
	}
	return []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(name)}, Tok: token.DEFINE, Rhs: []ast.Expr{field(ast.NewIdent(pname), vConcrete)}},
		use(name),
	}
}
