// This file lets other instrumented packages call the twins of a
// package's exported methods. A method's twin keeps an unexported name
// (an exported one would change the type's method set, which reflection,
// net/rpc and text/template see), so a Support package also declares,
// for each, an exported function that takes the receiver first and
// forwards to the twin. A call x.M(a) of another package then becomes
// pkg.Gclm<n>_T_M(x, V(a)).

package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// forwarderName returns the name of the exported function that forwards
// to the twin of method fn, "" when fn gets none: unexported methods,
// which no other package calls, and methods of generic types, whose
// forwarder would need the type's parameters written out. The length of
// the type's name keeps T_M of type A_B apart from method B_M of A.
func forwarderName(fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !fn.Exported() {
		return ""
	}
	rt := sig.Recv().Type()
	if p, ok := rt.(*types.Pointer); ok {
		rt = p.Elem()
	}
	named, ok := types.Unalias(rt).(*types.Named)
	if !ok || named.TypeParams().Len() > 0 {
		return ""
	}
	tn := named.Obj().Name()
	return fmt.Sprintf("Gclm%d_%s_%s", len(tn), tn, fn.Name())
}

// forwarderDecl builds the forwarder of the method twin twin (declared
// from fd): a function with the receiver as its first parameter and the
// twin's parameters and results after it.
func forwarderDecl(fd *ast.FuncDecl, twin *ast.FuncDecl, t *twinInfo) *ast.FuncDecl {
	ft, body := forwarding(twin, fd.Recv.List[0].Type, t.name)
	return &ast.FuncDecl{
		Name: ast.NewIdent(t.xname),
		Type: ft,
		Body: &ast.BlockStmt{List: []ast.Stmt{body(ast.NewIdent(forwardRecv))}},
	}
}

// forwarding returns the type of a function that takes a receiver
// forwardRecv of type recvType, then the parameters of the method twin
// twin (_gcl_a<i>), and returns its results; and, for a receiver
// expression x, the statement that calls the twin, named name, on x with
// those parameters and returns what it returns.
func forwarding(twin *ast.FuncDecl, recvType ast.Expr, name string) (*ast.FuncType, func(x ast.Expr) ast.Stmt) {
	params := []*ast.Field{{Names: []*ast.Ident{ast.NewIdent(forwardRecv)}, Type: recvType}}
	var args []ast.Expr
	variadic := false
	for i, p := range flatten(twin.Type.Params) {
		a := fmt.Sprintf("%s%d", argPrefix, i)
		params = append(params, &ast.Field{Names: []*ast.Ident{ast.NewIdent(a)}, Type: p.Type})
		args = append(args, ast.NewIdent(a))
		_, variadic = p.Type.(*ast.Ellipsis)
	}
	var results *ast.FieldList
	for _, r := range flatten(twin.Type.Results) {
		if results == nil {
			results = &ast.FieldList{}
		}
		results.List = append(results.List, &ast.Field{Type: r.Type})
	}
	body := func(x ast.Expr) ast.Stmt {
		c := &ast.CallExpr{Fun: &ast.SelectorExpr{X: x, Sel: ast.NewIdent(name)}, Args: args}
		if variadic {
			c.Ellipsis = token.Pos(1)
		}
		if results == nil {
			return &ast.ExprStmt{X: c}
		}
		return &ast.ReturnStmt{Results: []ast.Expr{c}}
	}
	return &ast.FuncType{Params: &ast.FieldList{List: params}, Results: results}, body
}

// foreignMethod reports whether t is the twin of a method of another
// package, which this package reaches through its forwarder.
func (ins *instrumenter) foreignMethod(t *twinInfo) bool {
	return t.xname != "" && t.fn != nil && t.fn.Pkg() != ins.pkg.Types
}

// forwardable reports whether the call of the foreign method twin t by
// call can go through the forwarder: a method selected directly on its
// type (not promoted from an embedded field, whose path may run through
// unexported fields), as a method value x.M or as a method expression
// whose receiver type is the method's own, and with the method's package
// named by an import of the calling file that is not shadowed there.
func (ins *instrumenter) forwardable(call *ast.CallExpr, t *twinInfo) bool {
	f, ok := calledFunc(call).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	sel, ok := ins.info.Selections[f]
	if !ok || len(sel.Index()) != 1 {
		return false
	}
	if sel.Kind() == types.MethodExpr {
		recv := t.fn.Type().(*types.Signature).Recv().Type()
		if !types.Identical(sel.Recv(), recv) {
			return false
		}
	}
	return ins.pkgNameAt(call.Pos(), t.fn.Pkg()) != ""
}

// pkgNameAt returns the name under which the file around pos imports
// pkg, if that name denotes pkg at pos; "" otherwise.
func (ins *instrumenter) pkgNameAt(pos token.Pos, pkg *types.Package) string {
	inner := ins.pkg.Types.Scope().Innermost(pos)
	file := inner
	for file != nil && file.Parent() != ins.pkg.Types.Scope() {
		file = file.Parent()
	}
	if file == nil {
		return ""
	}
	for _, name := range file.Names() {
		pn, ok := file.Lookup(name).(*types.PkgName)
		if !ok || pn.Imported() != pkg {
			continue
		}
		if _, obj := inner.LookupParent(name, pos); obj == pn {
			return name
		}
	}
	return ""
}

// forwarderCall returns the function and the receiver argument of the
// call of the foreign method twin t for the call x.M(...) or T.M(x, ...):
// the receiver adjusted to the method's receiver type as Go does for a
// method value (&x, *p), nil for a method expression, whose receiver is
// already the first argument.
func (ins *instrumenter) forwarderCall(call *ast.CallExpr, t *twinInfo) (ast.Expr, ast.Expr) {
	f := calledFunc(call).(*ast.SelectorExpr)
	fun := &ast.SelectorExpr{X: ast.NewIdent(ins.pkgNameAt(call.Pos(), t.fn.Pkg())), Sel: ast.NewIdent(t.xname)}
	if ins.methodExpr(call) {
		return fun, nil
	}
	_, wantPtr := t.fn.Type().(*types.Signature).Recv().Type().(*types.Pointer)
	_, isPtr := ins.typeOf(f.X).Underlying().(*types.Pointer)
	x := ins.cx(f.X)
	switch {
	case wantPtr && !isPtr:
		x = addrOf(x) // x is addressable: the original call took its address
	case !wantPtr && isPtr:
		if d, ok := ins.passDeref(f.X, x); ok {
			x = d
		} else {
			x = &ast.StarExpr{X: x}
		}
	case !wantPtr:
		x = ins.passRecv(t.fn, f.X, x)
	}
	return fun, x
}
