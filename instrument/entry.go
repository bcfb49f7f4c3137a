// This file generates the entry file: the file added to the target
// package that declares the shadows of package-level variables and
// registers the function under test with the runtime (an rt.Entry). The
// file is built as a syntax tree, like the rewritten files, and printed;
// only the statements that assemble composite parameters come as source
// text from the shaper (shape.go), and are parsed into the tree.

package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/gocolic/gocolic/rt"
)

// EntryFile is the name of the generated entry file.
const EntryFile = "zz_gocolic_entry.go"

// XEntryFile is the name of the entry file of an external test package,
// which must end in _test.go to belong to it.
const XEntryFile = "zz_gocolic_entry_test.go"

// inputVar is the parameter of an entry's Run function: the input the
// runtime hands it. The shaper's statements (shape.go, iface.go) spell it
// as "in" too.
const inputVar = "in"

// entryFile generates the entry file of the function under test, entry:
// its rt.Entry describes the parameters, and its Run function assembles
// them from the input and calls entry's twin (or entry, when it has none).
func (ins *instrumenter) entryFile(entry *types.Func, res *Result) error {
	sig := entry.Type().(*types.Signature)
	e := ins.newEntryBuilder()
	var build bytes.Buffer // the shaper's statements, parsed into run
	var run []ast.Stmt
	flush := func() error {
		stmts, err := parseStmts(build.String())
		if err != nil {
			return err
		}
		build.Reset()
		run = append(run, stmts...)
		return nil
	}
	sh := ins.newShaper(res, e.typeName, &build)
	twin := ins.twins[entry]
	var recv ast.Expr
	if r := sig.Recv(); r != nil {
		res.Method = entry.Name()
		recv = ast.NewIdent(recvName)
		p := Param{Name: "receiver", Type: r.Type()}
		if ptr, ok := r.Type().(*types.Pointer); ok {
			// A method is tested on an object: the receiver is never nil.
			run = append(run, define(recvName, call(ast.NewIdent("new"), e.typeExpr(ptr.Elem()))))
			sh.onPath[ptr.Elem()]++ // the receiver is the first object of its type
			p.Shape = &Shape{Kind: ShapePointer, Type: r.Type(), Leaf: -1,
				Elems: []*Shape{sh.build(ptr.Elem(), "(*"+recvName+")", "receiver")}}
		} else {
			run = append(run, varDecl(recvName, e.typeExpr(r.Type())))
			p.Shape = sh.build(r.Type(), recvName, "receiver")
			if hasLeaves(r.Type(), 0) {
				// A value receiver's cells reach the method as an argument's do.
				recv = passCall(recvName)
			}
		}
		if err := flush(); err != nil {
			return err
		}
		res.Recv = &p
	}
	var args []ast.Expr
	var ellipsis token.Pos
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		prm := Param{Name: p.Name(), Type: p.Type()}
		if !composite(p.Type()) {
			prm.Leaf = len(res.RTParams)
			q := runtimeParam(p.Name(), p.Type())
			res.RTParams = append(res.RTParams, q)
			var a ast.Expr = call(rtInst(inputCtor[q.Kind], e.typeExpr(p.Type())), ast.NewIdent(inputVar), intLit(prm.Leaf))
			if twin == nil {
				a = field(a, vConcrete)
			}
			args = append(args, a)
			res.Params = append(res.Params, prm)
			continue
		}
		v := fmt.Sprintf("%s%d", argPrefix, i)
		run = append(run, varDecl(v, e.typeExpr(p.Type())))
		pname := p.Name()
		if pname == "" || pname == "_" {
			pname = fmt.Sprintf("#%d", i+1)
		}
		prm.Shape = sh.build(p.Type(), v, pname)
		if err := flush(); err != nil {
			return err
		}
		switch {
		case sig.Variadic() && i == sig.Params().Len()-1:
			prm.Variadic = true
			args = append(args, ast.NewIdent(v))
			ellipsis = 1 // any valid position: the call passes the slice as is
		case hasLeaves(p.Type(), 0):
			args = append(args, passCall(v))
		default:
			args = append(args, ast.NewIdent(v))
		}
		res.Params = append(res.Params, prm)
	}
	var fun ast.Expr = ast.NewIdent(entry.Name())
	if twin != nil {
		fun = ast.NewIdent(twin.name)
	}
	if recv != nil {
		fun = &ast.SelectorExpr{X: recv, Sel: fun.(*ast.Ident)}
	}
	var lhs, results []ast.Expr
	for i := 0; i < sig.Results().Len(); i++ {
		r := sig.Results().At(i)
		res.Results = append(res.Results, r.Type())
		isErr := types.Identical(r.Type(), types.Universe.Lookup("error").Type())
		res.ResultIsError = append(res.ResultIsError, isErr)
		res.Pinnable = append(res.Pinnable, isErr || trackOf(r.Type()) != notTracked || isFloat(r.Type()))
		n := fmt.Sprintf("r%d", i)
		lhs = append(lhs, ast.NewIdent(n))
		results = append(results, ast.NewIdent(n))
	}
	if twin != nil {
		for i := 0; i < twin.nShadow; i++ {
			lhs = append(lhs, ast.NewIdent("_"))
		}
	}
	callEntry := &ast.CallExpr{Fun: fun, Args: args, Ellipsis: ellipsis}
	if len(lhs) > 0 {
		run = append(run,
			&ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: []ast.Expr{callEntry}},
			&ast.ReturnStmt{Results: []ast.Expr{&ast.CompositeLit{Type: &ast.ArrayType{Elt: ast.NewIdent("any")}, Elts: results}}})
	} else {
		run = append(run, &ast.ExprStmt{X: callEntry}, &ast.ReturnStmt{Results: []ast.Expr{nilIdent()}})
	}
	for _, q := range res.RTParams {
		e.params = append(e.params, paramLit(q))
	}
	runFn := &ast.FuncLit{
		Type: &ast.FuncType{
			Params:  &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{ast.NewIdent(inputVar)}, Type: &ast.StarExpr{X: rtSel(rtInput)}}}},
			Results: &ast.FieldList{List: []*ast.Field{{Type: &ast.ArrayType{Elt: ast.NewIdent("any")}}}},
		},
		Body: &ast.BlockStmt{List: run},
	}
	init := ins.opaqueRegistrations(e.imports)
	init = append(init, &ast.ExprStmt{X: rtCall(rtMain, e.entryLit(&ast.KeyValueExpr{Key: ast.NewIdent("Run"), Value: runFn}))})
	return ins.finishEntry(res, e, init)
}

// fuzzEntryFile generates the entry file of a fuzz target: the shadows of
// package-level variables and the target's description. The function
// itself is handed to the runtime by the rewritten f.Fuzz call.
func (ins *instrumenter) fuzzEntryFile(res *Result) error {
	ft := ins.fuzz
	e := ins.newEntryBuilder()
	for i := 1; i < ft.sig.Params().Len(); i++ {
		p := ft.sig.Params().At(i)
		name := p.Name()
		q := runtimeParam(name, p.Type())
		res.RTParams = append(res.RTParams, q)
		res.Params = append(res.Params, Param{Name: name, Type: p.Type()})
		e.params = append(e.params, paramLit(q))
	}
	res.Seeds = ft.seeds
	init := ins.opaqueRegistrations(e.imports)
	init = append(init, &ast.ExprStmt{X: rtCall(rtRegister, e.entryLit())}, &ast.ExprStmt{X: rtCall(rtEvalMain)})
	return ins.finishEntry(res, e, init)
}

// supportEntryFile generates the entry file of a Support package: the
// shadows of its package-level variables, cleared before each execution
// through the runtime's list of resets.
func (ins *instrumenter) supportEntryFile(res *Result) error {
	e := ins.newEntryBuilder()
	init := ins.opaqueRegistrations(e.imports)
	init = append(init, &ast.ExprStmt{X: rtCall(rtAddReset, e.resetFunc())})
	if err := ins.finishEntry(res, e, init); err != nil {
		return err
	}
	res.Exports = Exports{twins: map[*types.Func]*twinInfo{}}
	for fn, t := range ins.twins {
		if t.decl.Recv == nil && fn.Exported() || t.xname != "" {
			res.Exports.twins[fn] = t
		}
	}
	return nil
}

// entryBuilder collects the parts of an entry file.
type entryBuilder struct {
	ins     *instrumenter
	imports map[string]string // path -> name, for the types and functions the file names
	shadows []string          // the shadows of package-level variables
	params  []ast.Expr        // the rt.Param literals of the entry
	err     error             // the first type that did not parse, reported by finishEntry
}

// newEntryBuilder starts the entry file of the package.
func (ins *instrumenter) newEntryBuilder() *entryBuilder {
	return &entryBuilder{ins: ins, imports: map[string]string{}, shadows: ins.packageShadows()}
}

// typeName writes t as the entry file names it, importing the packages
// of other types.
func (e *entryBuilder) typeName(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == e.ins.pkg.Types {
			return ""
		}
		return importName(e.imports, p.Path())
	})
}

// typeExpr returns the expression of type t in the entry file.
func (e *entryBuilder) typeExpr(t types.Type) ast.Expr {
	x, err := parser.ParseExpr(e.typeName(t))
	if err != nil {
		if e.err == nil {
			e.err = fmt.Errorf("type %s of the entry file does not parse: %w", t, err)
		}
		return ast.NewIdent("_")
	}
	clearPos(x)
	return x
}

// resetFunc returns the function that clears the shadows of the package's
// variables.
func (e *entryBuilder) resetFunc() *ast.FuncLit {
	var body []ast.Stmt
	for _, s := range e.shadows {
		body = append(body, &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(s)}, Tok: token.ASSIGN, Rhs: []ast.Expr{nilIdent()}})
	}
	return &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{}}, Body: &ast.BlockStmt{List: body}}
}

// entryLit returns the rt.Entry literal with the Params, Sites and Reset
// fields, and then the fields more.
func (e *entryBuilder) entryLit(more ...ast.Expr) ast.Expr {
	elts := []ast.Expr{
		&ast.KeyValueExpr{Key: ast.NewIdent("Params"), Value: &ast.CompositeLit{Type: &ast.ArrayType{Elt: rtSel(rtParam)}, Elts: e.params}},
		&ast.KeyValueExpr{Key: ast.NewIdent("Sites"), Value: intLit(int(e.ins.cfg.SiteBase) + len(e.ins.sites))},
		&ast.KeyValueExpr{Key: ast.NewIdent("Reset"), Value: e.resetFunc()},
	}
	return &ast.CompositeLit{Type: rtSel(rtEntry), Elts: append(elts, more...)}
}

// finishEntry builds the entry file whose init function runs init, and
// formats it into res. An external test package's entry file is a
// _test.go file, as it must be to belong to that package.
func (ins *instrumenter) finishEntry(res *Result, e *entryBuilder, init []ast.Stmt) error {
	if e.err != nil {
		return e.err
	}
	initFn := &ast.FuncDecl{Name: ast.NewIdent("init"), Type: &ast.FuncType{Params: &ast.FieldList{}}, Body: &ast.BlockStmt{List: init}}
	// Naming a type whose value the shaper then left zero registers an
	// import that nothing uses.
	used := map[string]bool{}
	ast.Inspect(initFn, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	imports := &ast.GenDecl{Tok: token.IMPORT, Lparen: 1, Specs: []ast.Spec{
		&ast.ImportSpec{Name: ast.NewIdent(runtimeAlias), Path: strLit(ins.cfg.RuntimePath)},
	}}
	paths := make([]string, 0, len(e.imports))
	for p, n := range e.imports {
		if used[n] {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		imports.Specs = append(imports.Specs, &ast.ImportSpec{Name: ast.NewIdent(e.imports[p]), Path: strLit(p)})
	}
	if len(imports.Specs) == 1 {
		imports.Lparen = token.NoPos
	}
	f := &ast.File{Name: ast.NewIdent(ins.pkg.Name), Decls: []ast.Decl{imports}}
	for _, s := range e.shadows {
		f.Decls = append(f.Decls, &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{
			&ast.ValueSpec{Names: []*ast.Ident{ast.NewIdent(s)}, Type: &ast.StarExpr{X: rtSel(rtExpr)}}}})
	}
	aliases := make([]string, 0, len(ins.typeAliases))
	for name := range ins.typeAliases {
		aliases = append(aliases, name)
	}
	sort.Strings(aliases)
	for _, name := range aliases {
		f.Decls = append(f.Decls, &ast.GenDecl{Tok: token.TYPE, Specs: []ast.Spec{
			&ast.TypeSpec{Name: ast.NewIdent(typeAlias + name), Assign: 1, Type: ast.NewIdent(name)}}})
	}
	f.Decls = append(f.Decls, initFn)
	out, err := printEntry(f)
	if err != nil {
		return err
	}
	if len(ins.pkg.CompiledGoFiles) == 0 {
		return fmt.Errorf("package %s has no Go files", ins.pkg.PkgPath)
	}
	name := EntryFile
	if strings.HasSuffix(ins.pkg.Name, "_test") {
		name = XEntryFile
	}
	dir := filepath.Dir(ins.pkg.CompiledGoFiles[0])
	res.EntrySource = out
	res.EntryPath = filepath.Join(dir, name)
	if !strings.HasSuffix(ins.pkg.Name, "_test") {
		// An external test package cannot have assembly; the package
		// under test, in the same directory, is instrumented too.
		return ins.goroutineID(res, dir)
	}
	return nil
}

// printEntry prints the entry file f with its generated-code header.
// Nodes built here have no positions; the printer would put a composite
// literal's elements on one line, so each element of a literal that
// spans lines (the Entry, its Params) is given a line of its own first.
func printEntry(f *ast.File) ([]byte, error) {
	fset := token.NewFileSet()
	breakLines(fset, f)
	var buf bytes.Buffer
	buf.WriteString("// Code generated by gocolic. DO NOT EDIT.\n\n")
	if err := (&printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}).Fprint(&buf, fset, f); err != nil {
		return nil, fmt.Errorf("printing the entry file: %w", err)
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("generated entry file does not parse: %w\n%s", err, buf.Bytes())
	}
	return out, nil
}

// breakLines gives the composite literals of f with key-value elements
// (the Entry and its fields, the Params) one line per element, through
// positions in a file of fset made for the purpose.
func breakLines(fset *token.FileSet, f *ast.File) {
	var lits []*ast.CompositeLit
	n := 2
	ast.Inspect(f, func(x ast.Node) bool {
		if cl, ok := x.(*ast.CompositeLit); ok && len(cl.Elts) > 0 {
			if _, kv := cl.Elts[0].(*ast.KeyValueExpr); kv && isRTSel(cl.Type, rtEntry) {
				lits = append(lits, cl)
				n += len(cl.Elts) + 2
			}
			if at, ok := cl.Type.(*ast.ArrayType); ok && isRTSel(at.Elt, rtParam) {
				lits = append(lits, cl)
				n += len(cl.Elts) + 2
			}
		}
		return true
	})
	tf := fset.AddFile("entry.go", -1, n)
	lines := make([]int, n)
	for i := range lines {
		lines[i] = i
	}
	tf.SetLines(lines)
	line := 1
	next := func() token.Pos { line++; return tf.LineStart(line) }
	// The literals are in source order, nested ones after their parent's
	// start: positions must grow through the file, so a literal's lines
	// are handed out as its elements are reached.
	var assign func(cl *ast.CompositeLit)
	assign = func(cl *ast.CompositeLit) {
		cl.Lbrace = next()
		for _, el := range cl.Elts {
			setPos(el, next())
			ast.Inspect(el, func(x ast.Node) bool {
				if inner, ok := x.(*ast.CompositeLit); ok && inner != cl && containsLit(lits, inner) {
					assign(inner)
					return false
				}
				return true
			})
		}
		cl.Rbrace = next()
	}
	if len(lits) > 0 {
		assign(lits[0])
	}
}

// containsLit reports whether lits holds cl.
func containsLit(lits []*ast.CompositeLit, cl *ast.CompositeLit) bool {
	for _, l := range lits {
		if l == cl {
			return true
		}
	}
	return false
}

// setPos sets the position of the element el of a composite literal: of
// its key, or of the element itself.
func setPos(el ast.Expr, pos token.Pos) {
	switch x := el.(type) {
	case *ast.KeyValueExpr:
		if id, ok := x.Key.(*ast.Ident); ok {
			id.NamePos = pos
		}
	case *ast.CompositeLit:
		x.Lbrace = pos
	}
}

// isRTSel reports whether x is the runtime's name name.
func isRTSel(x ast.Expr, name string) bool {
	sel, ok := x.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == runtimeAlias && sel.Sel.Name == name
}

// parseStmts parses src, statements of a function body (the shaper's
// output), into statements without positions.
func parseStmts(src string) ([]ast.Stmt, error) {
	if strings.TrimSpace(src) == "" {
		return nil, nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n\nfunc _() {\n"+src+"\n}\n", parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("generated parameter assembly does not parse: %w\n%s", err, src)
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	clearPos(body)
	return body.List, nil
}

// clearPos sets every position in the tree of n to token.NoPos, so that
// parsed nodes print among built ones without positions of another file.
func clearPos(n ast.Node) {
	posType := reflect.TypeFor[token.Pos]()
	ast.Inspect(n, func(x ast.Node) bool {
		if x == nil {
			return false
		}
		v := reflect.ValueOf(x)
		if v.Kind() != reflect.Pointer || v.IsNil() {
			return true
		}
		v = v.Elem()
		if v.Kind() != reflect.Struct {
			return true
		}
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.Type() == posType && f.CanSet() {
				f.SetInt(int64(token.NoPos))
			}
		}
		return true
	})
}

// define returns the statement name := x.
func define(name string, x ast.Expr) ast.Stmt {
	return &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(name)}, Tok: token.DEFINE, Rhs: []ast.Expr{x}}
}

// varDecl returns the statement var name t.
func varDecl(name string, t ast.Expr) ast.Stmt {
	return &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{ast.NewIdent(name)}, Type: t}}}}
}

// passCall returns rt.Pass(&v, v), which hands the cells of v's leaves to
// the called function's parameter.
func passCall(v string) ast.Expr {
	return rtCall(rtPass, addrOf(ast.NewIdent(v)), ast.NewIdent(v))
}

// intLit returns the literal of n.
func intLit(n int) ast.Expr { return &ast.BasicLit{Kind: token.INT, Value: strconv.Itoa(n)} }

// strLit returns the literal of s.
func strLit(s string) *ast.BasicLit {
	return &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(s)}
}

// paramLit is the rt.Param literal of q, an element of the entry's Params.
func paramLit(q rt.Param) ast.Expr {
	kv := func(k string, v ast.Expr) ast.Expr { return &ast.KeyValueExpr{Key: ast.NewIdent(k), Value: v} }
	elts := []ast.Expr{
		kv("Name", strLit(q.Name)),
		kv("Kind", rtSel(paramKindName[q.Kind])),
		kv("Width", intLit(int(q.Width))),
		kv("Signed", ast.NewIdent(strconv.FormatBool(q.Signed))),
		kv("Max", &ast.BasicLit{Kind: token.INT, Value: strconv.FormatUint(q.Max, 10)}),
	}
	if q.Ref {
		refs := &ast.CompositeLit{Type: &ast.ArrayType{Elt: ast.NewIdent("int")}}
		for _, r := range q.Refs {
			refs.Elts = append(refs.Elts, intLit(r))
		}
		var v ast.Expr = refs
		if q.Refs == nil {
			v = call(&ast.ArrayType{Elt: ast.NewIdent("int")}, nilIdent())
		}
		elts = append(elts, kv("Ref", ast.NewIdent("true")), kv("Refs", v))
	}
	return &ast.CompositeLit{Elts: elts}
}

// paramKindName names the runtime's parameter kinds in generated code.
var paramKindName = map[rt.ParamKind]string{
	rt.ParamInt: rtParamInt, rt.ParamBool: rtParamBool, rt.ParamString: rtParamString,
	rt.ParamBytes: rtParamBytes, rt.ParamFloat: rtParamFloat,
}

// inputCtor names the runtime function that makes a parameter's V from
// the input, by kind.
var inputCtor = map[rt.ParamKind]string{
	rt.ParamInt: rtInputInt, rt.ParamBool: rtInputBool, rt.ParamString: rtInputString,
	rt.ParamBytes: rtInputBytes, rt.ParamFloat: rtInputFloat,
}

// runtimeParam describes a parameter of type t to the runtime.
func runtimeParam(name string, t types.Type) rt.Param {
	q := rt.Param{Name: name, Kind: paramKind(t)}
	switch q.Kind {
	case rt.ParamInt:
		q.Width, q.Signed = intInfo(t)
	case rt.ParamFloat:
		q.Width = floatWidth(t)
	}
	return q
}

// isFloat reports whether t is a floating-point type.
func isFloat(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// packageShadows returns the shadow names of package-level variables.
func (ins *instrumenter) packageShadows() []string {
	var shadows []string
	for obj := range ins.shadow {
		if obj.Parent() == ins.pkg.Types.Scope() {
			shadows = append(shadows, ins.shadowName(obj))
		}
	}
	sort.Strings(shadows)
	return shadows
}

// GFile is the base name of the files that give the runtime the identity
// of goroutines: GFile+".go" declares the function, GFile+"_<arch>.s"
// defines it.
const GFile = "zz_gocolic_g"

// goroutineID adds to the package, in dir, the assembly function that
// returns the calling goroutine's runtime descriptor, and hands it to the
// runtime (rt.UseG). The runtime's copy in the overlay cannot carry it
// (the go command assembles in the package's directory, which exists on
// disk only for the user's packages), and without it the runtime tells
// goroutines apart the slow way.
func (ins *instrumenter) goroutineID(res *Result, dir string) error {
	asm, err := gAssembly(gFuncName)
	if err != nil {
		return err
	}
	if res.Extra == nil {
		res.Extra = make(map[string][]byte)
	}
	for suffix, src := range asm {
		res.Extra[filepath.Join(dir, GFile+suffix)] = src
	}
	// The declaration of an assembly function carries a build constraint
	// and a doc comment, which a syntax tree holds awkwardly: it is
	// written as text.
	src := fmt.Sprintf("// Code generated by gocolic. DO NOT EDIT.\n\n//go:build %s\n\npackage %s\n\n"+
		"import %s %q\n\n// %s returns the address of the calling goroutine's runtime descriptor.\nfunc %s() uintptr\n\n"+
		"var _ = %s(%s)\n",
		strings.Join(rt.GArchs, " || "), ins.pkg.Name, runtimeAlias, ins.cfg.RuntimePath, gFuncName, gFuncName, rtRef(rtUseG), gFuncName)
	out, err := format.Source([]byte(src))
	if err != nil {
		return fmt.Errorf("generated declaration does not parse: %w\n%s", err, src)
	}
	res.Extra[filepath.Join(dir, GFile+".go")] = out
	return nil
}

// gAssembly returns the assembly of a function named name, of type
// func() uintptr, that returns the calling goroutine's runtime descriptor
// as rt.UseG wants it, for the package it is added to: one file per
// architecture of rt.GArchs, by file name suffix ("_amd64.s"), made from
// the runtime's own (rt/g_<arch>.s).
func gAssembly(name string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(rt.GArchs))
	for _, arch := range rt.GArchs {
		src, err := rt.Sources.ReadFile("g_" + arch + ".s")
		if err != nil {
			return nil, fmt.Errorf("reading the runtime's assembly: %w", err)
		}
		const sym = "·asmG(SB)"
		if bytes.Count(src, []byte(sym)) != 1 {
			return nil, fmt.Errorf("g_%s.s does not define asmG once", arch)
		}
		src = bytes.ReplaceAll(src, []byte(sym), []byte("·"+name+"(SB)"))
		src = bytes.ReplaceAll(src, []byte("func asmG()"), []byte("func "+name+"()"))
		out["_"+arch+".s"] = src
	}
	return out, nil
}
