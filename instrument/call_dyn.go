// This file rewrites calls through function values (a parameter, a
// field, a variable, an element) whose signature has tracked parameters
// or results. Which function such a call reaches is known only at run
// time, so the call asks the runtime (rt.Dyn) for the twin of the value
// it holds: every package-level function with a twin is registered under
// its code pointer (rt.RegisterTwin). A value that is not registered is
// called through an adapter with the twin's signature, which drops the
// arguments' shadows, counted as CauseCall.

package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/types/typeutil"
)

// dynTwin returns the twin signature of the call through a function
// value call, nil when call is a static call (a function, a method, a
// function literal, a builtin, a conversion), a call of an interface
// method, or its signature tracks nothing.
func (ins *instrumenter) dynTwin(call *ast.CallExpr) *twinInfo {
	fun := ast.Unparen(call.Fun)
	if _, lit := fun.(*ast.FuncLit); lit {
		return nil
	}
	if tv, ok := ins.info.Types[fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return nil
	}
	switch ins.callee(call).(type) {
	case nil, *types.Var:
	default:
		return nil
	}
	sig, ok := ins.typeOf(fun).Underlying().(*types.Signature)
	if !ok || sig.TypeParams().Len() > 0 {
		return nil
	}
	t := &twinInfo{sig: sig, dyn: true}
	t.setTracks(sig)
	if !t.any() {
		return nil
	}
	return t
}

// callee returns the function or variable call names, nil for any other
// function expression.
func (ins *instrumenter) callee(call *ast.CallExpr) types.Object {
	return typeutil.Callee(ins.info, call)
}

// dynFun returns rt.Dyn(f, adapter), the function expression that calls
// the twin of the function value f = x.Fun: f's registered twin, or f
// through an adapter of the twin's type. It reports false when a type of
// the signature cannot be named in this file.
func (ins *instrumenter) dynFun(x *ast.CallExpr, t *twinInfo) (ast.Expr, bool) {
	ftype, ok := ins.typeExpr(ins.typeOf(x.Fun))
	if !ok {
		return nil, false
	}
	twinType, body, ok := ins.concreteTwin(x, t, ast.NewIdent(funName))
	if !ok {
		return nil, false
	}
	adapter := &ast.FuncLit{
		Type: &ast.FuncType{
			Params:  &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{ast.NewIdent(funName)}, Type: ftype}}},
			Results: &ast.FieldList{List: []*ast.Field{{Type: twinType}}},
		},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ReturnStmt{Results: []ast.Expr{
			&ast.FuncLit{Type: twinType, Body: &ast.BlockStmt{List: body}},
		}}}},
	}
	return rtCall(rtDyn, ins.cx(x.Fun), adapter), true
}

// concreteTwin returns the twin type of the call x with twin signature
// t.sig, func(<V for tracked parameters>) (<results>, <a shadow per
// tracked result>), and the body of a function of that type that calls
// fun with concrete arguments (each tracked one made concrete at one
// site of x, counted as CauseCall) and returns nil shadows: the adapter
// of a call that reaches no twin. Its parameters are _gcl_a<i>. It
// reports false when a type of the signature cannot be named here.
func (ins *instrumenter) concreteTwin(x *ast.CallExpr, t *twinInfo, fun ast.Expr) (*ast.FuncType, []ast.Stmt, bool) {
	te, ok := ins.typeExpr(t.sig)
	if !ok {
		return nil, nil, false
	}
	twinType := te.(*ast.FuncType)
	var args []ast.Expr
	site := int64(-1)
	sink := ins.testingSink(x) // nothing to count
	for i, f := range twinType.Params.List {
		name := fmt.Sprintf("%s%d", argPrefix, i)
		f.Names = []*ast.Ident{ast.NewIdent(name)}
		var arg ast.Expr = ast.NewIdent(name)
		if _, variadic := f.Type.(*ast.Ellipsis); !variadic && t.params[i] != notTracked {
			f.Type = &ast.IndexExpr{X: rtSel(rtV), Index: f.Type}
			if sink {
				arg = &ast.SelectorExpr{X: arg, Sel: ast.NewIdent("C")}
				args = append(args, arg)
				continue
			}
			if site < 0 {
				site = int64(ins.newSite(sites.Concrete, x))
			}
			arg = rtCall(rtConcrete, siteLit(uint32(site)), rtSel(rtCauseCall), arg)
		}
		args = append(args, arg)
	}
	var results, shadows []ast.Expr
	if twinType.Results != nil {
		for i := range twinType.Results.List {
			results = append(results, ast.NewIdent(fmt.Sprintf("%s%d", resultPrefix, i)))
			if t.results[i] != notTracked {
				shadows = append(shadows, nilIdent())
				twinType.Results.List = append(twinType.Results.List, &ast.Field{Type: &ast.StarExpr{X: rtSel(rtExpr)}})
			}
		}
	}
	c := &ast.CallExpr{Fun: fun, Args: args}
	if t.sig.Variadic() {
		c.Ellipsis = variadicAt(twinType.Params.List[len(twinType.Params.List)-1].Type, x.Lparen)
	}
	var body []ast.Stmt
	switch {
	case len(results) == 0:
		body = []ast.Stmt{&ast.ExprStmt{X: c}}
	case len(shadows) == 0:
		body = []ast.Stmt{&ast.ReturnStmt{Results: []ast.Expr{c}}}
	default:
		body = []ast.Stmt{
			&ast.AssignStmt{Lhs: results, Tok: token.DEFINE, Rhs: []ast.Expr{c}},
			&ast.ReturnStmt{Results: append(append([]ast.Expr{}, results...), shadows...)},
		}
	}
	return twinType, body, true
}

// registerTwin returns the declaration that registers the twin of the
// package-level function fd for calls through function values (rt.Dyn);
// nil for a method or a generic function, which no function value holds
// as such.
func registerTwin(fd *ast.FuncDecl, t *twinInfo) ast.Decl {
	if fd.Recv != nil || fd.Type.TypeParams != nil && len(fd.Type.TypeParams.List) > 0 {
		return nil
	}
	return &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{
		Names:  []*ast.Ident{ast.NewIdent("_")},
		Values: []ast.Expr{rtCall(rtRegisterTwin, ast.NewIdent(fd.Name.Name), ast.NewIdent(t.name))},
	}}}
}
