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
	variadic, last := false, ast.Expr(nil)
	for i, p := range flatten(twin.Type.Params) {
		a := fmt.Sprintf("%s%d", argPrefix, i)
		params = append(params, &ast.Field{Names: []*ast.Ident{ast.NewIdent(a)}, Type: p.Type})
		args = append(args, ast.NewIdent(a))
		_, variadic = p.Type.(*ast.Ellipsis)
		last = p.Type
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
			c.Ellipsis = variadicAt(last, twin.Pos())
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
// call can go through the forwarder: a method value x.M, selected on its
// type or promoted through embedded fields that this package can name
// (embedPath), or a method expression whose receiver type is the
// method's own; and with the method's package named by an import of the
// calling file that is not shadowed there.
func (ins *instrumenter) forwardable(call *ast.CallExpr, t *twinInfo) bool {
	f, ok := calledFunc(call).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	sel, ok := ins.info.Selections[f]
	if !ok {
		return false
	}
	switch sel.Kind() {
	case types.MethodExpr:
		recv := t.fn.Type().(*types.Signature).Recv().Type()
		if len(sel.Index()) != 1 || !types.Identical(sel.Recv(), recv) {
			return false
		}
	case types.MethodVal:
		if _, ok := ins.embedPath(sel); !ok {
			return false
		}
	default:
		return false
	}
	return ins.pkgNameAt(call.Pos(), t.fn.Pkg()) != ""
}

// embedPath returns the embedded fields through which the method value
// sel is promoted, outermost first (none for a method of the receiver's
// own type); false when a field on the path is unexported and declared
// in another package, so that this package cannot write x.f, or when
// the path does not run through structs.
func (ins *instrumenter) embedPath(sel *types.Selection) ([]*types.Var, bool) {
	idx := sel.Index()
	t := sel.Recv()
	var path []*types.Var
	for _, i := range idx[:len(idx)-1] {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return nil, false
		}
		fv := st.Field(i)
		if !fv.Embedded() || !fv.Exported() && fv.Pkg() != ins.pkg.Types {
			return nil, false
		}
		path = append(path, fv)
		t = fv.Type()
	}
	return path, true
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
// already the first argument. A promoted method's receiver is the
// embedded field, x.E1.E2, written out (forwardable checked that this
// package can name each).
func (ins *instrumenter) forwarderCall(call *ast.CallExpr, t *twinInfo) (ast.Expr, ast.Expr) {
	f := calledFunc(call).(*ast.SelectorExpr)
	fun := &ast.SelectorExpr{X: ast.NewIdent(ins.pkgNameAt(call.Pos(), t.fn.Pkg())), Sel: ast.NewIdent(t.xname)}
	if ins.methodExpr(call) {
		return fun, nil
	}
	path, _ := ins.embedPath(ins.info.Selections[f])
	if len(path) == 0 {
		return fun, ins.recvArg(t.fn, f.X, ins.cx(f.X))
	}
	field := func(base ast.Expr) ast.Expr {
		for _, fv := range path {
			base = &ast.SelectorExpr{X: base, Sel: ast.NewIdent(fv.Name())}
		}
		return base
	}
	var lx ast.Expr // the location, when it may be evaluated again
	if ins.pure(f.X) {
		lx = field(ins.lvalue(f.X))
	}
	return fun, promotedRecv(t.fn, path[len(path)-1].Type(), field(ins.cx(f.X)), lx)
}

// recvArg adjusts the receiver x (rewritten as rx) of a call of method fn
// to fn's receiver type as Go does for a method value (&x, *p), handing
// the shadows of a struct copied as a value receiver to the method.
func (ins *instrumenter) recvArg(fn *types.Func, x, rx ast.Expr) ast.Expr {
	_, wantPtr := fn.Type().(*types.Signature).Recv().Type().(*types.Pointer)
	_, isPtr := ins.typeOf(x).Underlying().(*types.Pointer)
	switch {
	case wantPtr && !isPtr:
		return addrOf(rx) // x is addressable: the original call took its address
	case !wantPtr && isPtr:
		if d, ok := ins.passDeref(x, rx); ok {
			return d
		}
		return &ast.StarExpr{X: rx}
	case !wantPtr:
		return ins.passRecv(fn, x, rx)
	}
	return rx
}

// promotedRecv is recvArg for the embedded field rx, of type ft, on
// which a promoted method fn is called. lx is the same field written as
// a location whose evaluation has no effect (its base is pure, and
// fields and embedded pointers add none), nil if there is none: only
// then are the shadows of a value receiver handed over, since that
// evaluates the field twice.
func promotedRecv(fn *types.Func, ft types.Type, rx, lx ast.Expr) ast.Expr {
	_, wantPtr := fn.Type().(*types.Signature).Recv().Type().(*types.Pointer)
	p, isPtr := ft.(*types.Pointer)
	switch {
	case wantPtr && !isPtr:
		// The original call took the field's address: it is
		// addressable, or reached through a pointer.
		return addrOf(rx)
	case !wantPtr && isPtr:
		if lx != nil && hasLeaves(p.Elem(), 0) {
			return rtCall(rtPass, rx, &ast.StarExpr{X: lx})
		}
		return &ast.StarExpr{X: rx}
	case !wantPtr && lx != nil && hasLeaves(ft, 0):
		return rtCall(rtPass, addrOf(lx), rx)
	}
	return rx
}
