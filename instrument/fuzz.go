// This file instruments a native fuzz target: the function given to
// f.Fuzz inside func FuzzXxx(f *testing.F) becomes the entry, with every
// argument after the *testing.T symbolic.

package instrument

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// fuzzTarget is the fuzz target being instrumented.
type fuzzTarget struct {
	decl *ast.FuncDecl
	stmt *ast.ExprStmt // the f.Fuzz(...) statement
	call *ast.CallExpr
	lit  *ast.FuncLit // the fuzz function
	sig  *types.Signature
	// seeds are the f.Add calls of the fuzz function, in source order.
	seeds []Seed
}

// Seed is one f.Add call of the fuzz target, or one run of an f.Add call
// in a loop over a table of constants (fuzzloop.go).
type Seed struct {
	// Pos is the position of the call, or for a seed of a loop the
	// table element it was read from.
	Pos token.Position
	// Values holds one constant per argument: the argument's own value,
	// or for a []byte argument a string constant of its bytes. It is nil
	// for an argument that cannot be read.
	Values []constant.Value
	// Problem says why the call cannot be used as a seed; "" if every
	// argument was read.
	Problem string
}

// findFuzz resolves FuzzXxx and its f.Fuzz call and checks the fuzz
// function's parameters.
func (ins *instrumenter) findFuzz(name string) error {
	obj, ok := ins.pkg.Types.Scope().Lookup(name).(*types.Func)
	if !ok {
		var names []string
		for _, n := range ins.pkg.Types.Scope().Names() {
			if strings.HasPrefix(n, "Fuzz") {
				if _, ok := ins.pkg.Types.Scope().Lookup(n).(*types.Func); ok {
					names = append(names, n)
				}
			}
		}
		if len(names) == 0 {
			return fmt.Errorf("package %s has no fuzz target %s, nor any other (func FuzzXxx(f *testing.F) in its _test.go files)", ins.pkg.PkgPath, name)
		}
		return fmt.Errorf("package %s has no fuzz target %s; fuzz targets: %s", ins.pkg.PkgPath, name, strings.Join(names, ", "))
	}
	var decl *ast.FuncDecl
	for _, f := range ins.pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && ins.info.Defs[fd.Name] == obj {
				decl = fd
			}
		}
	}
	sig := obj.Type().(*types.Signature)
	if decl == nil || decl.Body == nil || sig.Params().Len() != 1 || !isTestingType(sig.Params().At(0).Type(), "F") {
		return fmt.Errorf("%s is not a fuzz target: want func %s(f *testing.F)", name, name)
	}
	ft := &fuzzTarget{decl: decl}
	fParam := sig.Params().At(0)
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if rs, ok := n.(*ast.RangeStmt); ok && len(ins.addCalls(rs.Body, fParam)) > 0 {
			ft.seeds = append(ft.seeds, ins.loopSeeds(rs, fParam)...)
			return false
		}
		es, ok := n.(*ast.ExprStmt)
		if !ok {
			return true
		}
		c, ok := es.X.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); !ok || ins.info.Uses[id] != fParam {
			return true
		}
		switch sel.Sel.Name {
		case "Fuzz":
			if len(c.Args) == 1 {
				if lit, ok := c.Args[0].(*ast.FuncLit); ok && ft.lit == nil {
					ft.stmt, ft.call, ft.lit = es, c, lit
				}
			}
		case "Add":
			ft.seeds = append(ft.seeds, ins.seed(c))
		}
		return true
	})
	if ft.lit == nil {
		return fmt.Errorf("%s does not call f.Fuzz with a function literal, which gocolic fuzz needs", name)
	}
	ft.sig = ins.info.Types[ft.lit].Type.(*types.Signature)
	if ft.sig.Params().Len() == 0 || !isTestingType(ft.sig.Params().At(0).Type(), "T") {
		return fmt.Errorf("the function given to f.Fuzz in %s must take a *testing.T first", name)
	}
	for i := 1; i < ft.sig.Params().Len(); i++ {
		p := ft.sig.Params().At(i)
		if paramKind(p.Type()) == 0 {
			pname := p.Name()
			if pname == "" || pname == "_" {
				pname = fmt.Sprintf("#%d", i)
			}
			return fmt.Errorf("argument %s of the fuzz function of %s has type %s, which gocolic fuzz does not support yet (supported: integer and float types, bool, string, []byte)", pname, name, p.Type())
		}
	}
	ins.fuzz = ft
	return nil
}

// seed reads the arguments of an f.Add call.
func (ins *instrumenter) seed(c *ast.CallExpr) Seed {
	sd := Seed{Pos: ins.fset.Position(c.Pos())}
	if c.Ellipsis.IsValid() {
		sd.Problem = "its arguments are a slice passed with ..., not constants"
		return sd
	}
	for i, a := range c.Args {
		v, why := ins.seedArg(a)
		if v == nil && sd.Problem == "" {
			sd.Problem = fmt.Sprintf("argument %d (%s) %s", i+1, shortExpr(a), why)
		}
		sd.Values = append(sd.Values, v)
	}
	return sd
}

// maxSeedLiteral bounds the length of a []byte composite literal read as
// a seed: an index key can make a literal of any length.
const maxSeedLiteral = 1 << 20

// seedArg returns the value of an f.Add argument, or why it has none.
// Constants of every kind are what the type checker computed (literals,
// named constants, constant expressions, conversions such as uint16(3)).
// A []byte argument is read as a string constant of its bytes when it is
// a conversion of a constant string or of nil ([]byte("a\x00"),
// []byte(name)) or a composite literal of constant elements, keyed or
// not ([]byte{0x01, 'a', k, 7: 0}).
func (ins *instrumenter) seedArg(e ast.Expr) (constant.Value, string) {
	if tv, ok := ins.info.Types[e]; ok && tv.Value != nil {
		return tv.Value, ""
	}
	e = ast.Unparen(e)
	if trackOf(ins.info.Types[e].Type) != trackBytes {
		return nil, "is not a constant"
	}
	const bytesForms = `[]byte("...") of a constant string or []byte{...} of constant elements`
	switch x := e.(type) {
	case *ast.CallExpr:
		if tv := ins.info.Types[x.Fun]; !tv.IsType() || len(x.Args) != 1 {
			break
		}
		switch av := ins.info.Types[x.Args[0]]; {
		case av.Value != nil && av.Value.Kind() == constant.String:
			return av.Value, ""
		case av.IsNil():
			return constant.MakeString(""), ""
		}
	case *ast.CompositeLit:
		var b []byte
		next := 0
		for _, el := range x.Elts {
			idx := next
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				// The type checker has checked that the key is a
				// constant index.
				k, _ := constant.Int64Val(constant.ToInt(ins.info.Types[kv.Key].Value))
				if k >= maxSeedLiteral {
					return nil, fmt.Sprintf("has index %d, too long for a seed", k)
				}
				idx, el = int(k), kv.Value
			}
			v := ins.info.Types[el].Value
			if v == nil {
				return nil, fmt.Sprintf("has element %s, which is not a constant (a []byte seed is read from %s)", shortExpr(el), bytesForms)
			}
			n, _ := constant.Uint64Val(constant.ToInt(v))
			for len(b) <= idx {
				b = append(b, 0)
			}
			b[idx] = byte(n)
			next = idx + 1
		}
		return constant.MakeString(string(b)), ""
	}
	return nil, "is not a constant (a []byte seed is read from " + bytesForms + ")"
}

// shortExpr returns the source of e, shortened for a message.
func shortExpr(e ast.Expr) string {
	s := types.ExprString(e)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// isTestingType reports whether t is *testing.<name>.
func isTestingType(t types.Type, name string) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" && n.Obj().Name() == name
}

// fuzzParamObjects returns the variables of the fuzz function's arguments
// after the *testing.T, which get shadows like a twin's parameters.
func (ins *instrumenter) fuzzParamObjects() []types.Object {
	if ins.fuzz == nil {
		return nil
	}
	var out []types.Object
	for i := 1; i < ins.fuzz.sig.Params().Len(); i++ {
		out = append(out, ins.fuzz.sig.Params().At(i))
	}
	return out
}

// fuzzStmt rewrites f.Fuzz(func(t *testing.T, a A, ...) {...}) into
//
//	_gcl_fz := func(t *testing.T, _gcl_p1 _gcl.V[A], ...) {...instrumented...}
//	_gcl.FuzzRun(f, func(t *testing.T, a A, ...) { _gcl_fz(t, _gcl.Mk(a, nil), ...) },
//		func(t any, in *_gcl.Input) { _gcl_fz(t.(*testing.T), _gcl.InputX[A](in, 0), ...) })
//
// so that plain runs fuzz as before and a worker runs the symbolic body.
func (ins *instrumenter) fuzzStmt(s *ast.ExprStmt) []ast.Stmt {
	ft := ins.fuzz
	lit := ft.lit
	flat := flatten(lit.Type.Params)
	tType := flat[0].Type
	tName := "_"
	if len(flat[0].Names) > 0 {
		tName = flat[0].Names[0].Name
	}
	symParams := []*ast.Field{{Names: []*ast.Ident{ast.NewIdent(tName)}, Type: tType}}
	var prologue []ast.Stmt
	var concParams []*ast.Field
	var concArgs, inputArgs []ast.Expr
	concParams = append(concParams, &ast.Field{Names: []*ast.Ident{ast.NewIdent(fuzzT)}, Type: tType})
	concArgs = append(concArgs, ast.NewIdent(fuzzT))
	inputArgs = append(inputArgs, &ast.TypeAssertExpr{X: ast.NewIdent(fuzzT), Type: tType})
	for i := 1; i < len(flat); i++ {
		p := flat[i]
		obj := ft.sig.Params().At(i)
		pname := fmt.Sprintf("%s%d", paramPrefix, i)
		symParams = append(symParams, &ast.Field{Names: []*ast.Ident{ast.NewIdent(pname)}, Type: &ast.IndexExpr{X: rtSel(rtV), Index: p.Type}})
		if name := obj.Name(); name != "" && name != "_" {
			prologue = append(prologue, ins.bindParam(obj, name, pname)...)
		}
		an := fmt.Sprintf("%s%d", argPrefix, i)
		concParams = append(concParams, &ast.Field{Names: []*ast.Ident{ast.NewIdent(an)}, Type: p.Type})
		concArgs = append(concArgs, rtCall(rtMk, ast.NewIdent(an), nilIdent()))
		ctor := inputCtor[paramKind(obj.Type())]
		inputArgs = append(inputArgs, call(&ast.IndexExpr{X: rtSel(ctor), Index: p.Type}, ast.NewIdent(fuzzIn), &ast.BasicLit{Kind: token.INT, Value: fmt.Sprint(i - 1)}))
	}
	saved := ins.fn
	ctx := &funcCtx{parent: saved}
	ins.fn = ctx
	body := ins.block(lit.Body)
	ins.fn = saved
	body.List = append(prologue, body.List...)
	withOwn(ctx, body)
	symLit := &ast.FuncLit{Type: &ast.FuncType{Params: &ast.FieldList{List: symParams}}, Body: body}
	fz := ast.NewIdent(fuzzFn)
	concLit := &ast.FuncLit{
		Type: &ast.FuncType{Params: &ast.FieldList{List: concParams}},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: call(ast.NewIdent(fz.Name), concArgs...)}}},
	}
	runLit := &ast.FuncLit{
		Type: &ast.FuncType{Params: &ast.FieldList{List: []*ast.Field{
			{Names: []*ast.Ident{ast.NewIdent(fuzzT)}, Type: ast.NewIdent("any")},
			{Names: []*ast.Ident{ast.NewIdent(fuzzIn)}, Type: &ast.StarExpr{X: rtSel(rtInput)}},
		}}},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: call(ast.NewIdent(fz.Name), inputArgs...)}}},
	}
	f := ins.cx(ft.call.Fun.(*ast.SelectorExpr).X)
	return []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{fz}, Tok: token.DEFINE, Rhs: []ast.Expr{symLit}},
		&ast.ExprStmt{X: rtCall(rtFuzzRun, f, concLit, runLit)},
	}
}

// testingReport rewrites t.Error(...), t.Errorf(...), t.Fatal(...) and
// t.Fatalf(...) on the testing package's types so that the runtime
// records the message of a failure before the method runs.
func (ins *instrumenter) testingReport(c *ast.CallExpr) (ast.Expr, bool) {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	s, ok := ins.info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return nil, false
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "testing" {
		return nil, false
	}
	var wrap string
	switch fn.Name() {
	case "Error", "Fatal":
		wrap = rtReport
	case "Errorf", "Fatalf":
		wrap = rtReportf
	default:
		return nil, false
	}
	m := &ast.SelectorExpr{X: ins.cxAddressable(sel.X), Sel: sel.Sel}
	args := []ast.Expr{m}
	for _, a := range c.Args {
		args = append(args, ins.cx(a))
	}
	return &ast.CallExpr{Fun: rtSel(wrap), Args: args, Ellipsis: c.Ellipsis}, true
}
