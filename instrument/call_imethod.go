// This file rewrites calls of interface methods x.M(a) whose signature
// has tracked parameters or results. Which method such a call runs is
// known only from x's dynamic type at run time, so every instrumented
// package registers, for each method twin of its non-generic named
// types, an adapter keyed by the dynamic type and the method's name
// (rt.RegisterMethod), and the call becomes
//
//	rt.IMethod(x, "M", fallback)(rt.PassIface(x), V(a))
//
// rt.IMethod returns the adapter registered for x's dynamic type, which
// calls the twin; otherwise the fallback, which calls x.M with concrete
// arguments, counted as CauseCall. Adapter and fallback take the
// receiver as their first argument, of type any, so that their type
// depends only on the method's signature: the call site knows the
// interface, not the dynamic type, and neither captures anything, so
// that a call allocates nothing.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// ifaceMethod reports whether sel selects a method of an interface: on a
// value of interface type (also a method an interface embeds), or
// promoted to a struct from an embedded field of interface type. The
// method of a type parameter's constraint is left out: its dynamic
// types are the instantiations', and its calls stay as they are.
func (ins *instrumenter) ifaceMethod(sel *types.Selection) bool {
	if sel.Kind() != types.MethodVal {
		return false
	}
	if _, tp := sel.Recv().(*types.TypeParam); tp {
		return false
	}
	recv := sel.Obj().(*types.Func).Type().(*types.Signature).Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// ifaceTwin returns the twin signature of the call of the interface
// method selected by f (sel), nil when the call stays as it is: the
// signature tracks nothing, the receiver is not pure (a variable, a
// field path, an element at a constant or variable index: it is
// evaluated twice), or a type of the call cannot be named in this file.
func (ins *instrumenter) ifaceTwin(f *ast.SelectorExpr, sel *types.Selection) *twinInfo {
	if !ins.pure(f.X) {
		return nil
	}
	sig, ok := ins.typeOf(f).(*types.Signature)
	if !ok || sig.TypeParams().Len() > 0 {
		return nil
	}
	t := &twinInfo{sig: sig, iface: true, method: sel.Obj().(*types.Func)}
	t.setTracks(sig)
	if !t.any() {
		return nil
	}
	if _, ok := ins.typeExpr(sig); !ok {
		return nil
	}
	if _, _, ok := ins.ifaceRecv(sel); !ok {
		return nil
	}
	return t
}

// ifaceRecv returns the names of the fields that lead from the
// receiver expression of the interface method call selected by sel to
// the interface value, and that interface's type. They are none for a
// receiver of interface type; for a method promoted from an embedded
// field of interface type, the path of embedded fields. ok is false
// when a field on the path cannot be named here (an unexported field of
// another package) or the interface type cannot be.
func (ins *instrumenter) ifaceRecv(sel *types.Selection) (path []string, iface ast.Expr, ok bool) {
	t := sel.Recv()
	idx := sel.Index()
	for _, i := range idx[:len(idx)-1] {
		if p, isPtr := t.Underlying().(*types.Pointer); isPtr {
			t = p.Elem()
		}
		st, isStruct := t.Underlying().(*types.Struct)
		if !isStruct {
			return nil, nil, false
		}
		fld := st.Field(i)
		if !fld.Exported() && fld.Pkg() != ins.pkg.Types {
			return nil, nil, false
		}
		path = append(path, fld.Name())
		t = fld.Type()
	}
	if !types.IsInterface(t) {
		return nil, nil, false
	}
	iface, ok = ins.typeExpr(t)
	return path, iface, ok
}

// ifaceFun returns the function expression and the receiver argument of
// the call x of an interface method with twin signature t:
// rt.IMethod(recv, id, fallback) and rt.PassIface(recv). The receiver is
// evaluated twice, both times before the arguments (both are operands of
// calls, which Go evaluates from left to right), so both see the same
// value. It reports false when a type of the call cannot be named.
func (ins *instrumenter) ifaceFun(x *ast.CallExpr, t *twinInfo) (fun, recvArg ast.Expr, ok bool) {
	f := calledFunc(x).(*ast.SelectorExpr)
	path, iface, ok := ins.ifaceRecv(ins.info.Selections[f])
	if !ok {
		return nil, nil, false
	}
	recv := ins.cx(f.X)
	for _, name := range path {
		recv = &ast.SelectorExpr{X: recv, Sel: ast.NewIdent(name)}
	}
	const r, i = resultPrefix, ifaceRecv
	// The fallback: the call through the interface, with concrete
	// arguments and no shadows. The comma-ok assertion turns a nil
	// receiver into a nil interface without panicking, so that the call
	// panics as the original does.
	twinType, call, ok := ins.concreteTwin(x, t, &ast.SelectorExpr{X: ast.NewIdent(i), Sel: ast.NewIdent(f.Sel.Name)})
	if !ok {
		return nil, nil, false
	}
	twinType.Params.List = append([]*ast.Field{{Names: []*ast.Ident{ast.NewIdent(r)}, Type: anyType()}}, twinType.Params.List...)
	body := append([]ast.Stmt{&ast.AssignStmt{
		Lhs: []ast.Expr{ast.NewIdent(i), ast.NewIdent("_")}, Tok: token.DEFINE,
		Rhs: []ast.Expr{&ast.TypeAssertExpr{X: ast.NewIdent(r), Type: iface}},
	}}, call...)
	fallback := &ast.FuncLit{Type: twinType, Body: &ast.BlockStmt{List: body}}
	id := &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(methodID(t.method))}
	return rtCall(rtIMethod, recv, id, fallback), rtCall(rtPassIface, recv), true
}

// methodID returns the name under which the runtime keys method fn:
// types.Id, which qualifies an unexported name by its package's path.
func methodID(fn *types.Func) string { return types.Id(fn.Pkg(), fn.Name()) }

// anyType returns the type expression rt.Any, the alias of any that no
// declaration of the package can shadow (and which, unlike a literal
// interface{} without positions, prints on one line).
func anyType() ast.Expr { return rtSel(rtAny) }

// registerMethod returns the declaration that registers the adapters of
// the twin (declared as twin) of the method fd for calls through
// interfaces (rt.IMethod):
//
//	var _ = rt.RegisterMethod[T]("M", onValue, onPtr)
//
// where onValue calls the twin on a receiver of dynamic type T (nil for
// a method with a pointer receiver, which a T lacks) and onPtr on one of
// type *T. nil for a function, a method of a generic type, whose
// instantiations would need adapters of their own, and a method named _.
func (ins *instrumenter) registerMethod(fd, twin *ast.FuncDecl, t *twinInfo) ast.Decl {
	if fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Name.Name == "_" || t.fn == nil {
		return nil
	}
	recvType := ast.Unparen(fd.Recv.List[0].Type)
	star, ptr := recvType.(*ast.StarExpr)
	if ptr {
		recvType = ast.Unparen(star.X)
	}
	name, ok := recvType.(*ast.Ident)
	if !ok {
		return nil // a generic type's receiver, T[P]
	}
	if named, ok := types.Unalias(ins.info.TypeOf(name)).(*types.Named); !ok || named.TypeParams().Len() > 0 {
		return nil
	}
	// The adapter: the twin's type after a receiver of type any, which it
	// asserts to the dynamic type.
	ft, body := forwarding(twin, anyType(), t.name)
	adapter := func(recv ast.Expr) ast.Expr {
		x := &ast.TypeAssertExpr{X: ast.NewIdent(forwardRecv), Type: recv}
		return &ast.FuncLit{Type: ft, Body: &ast.BlockStmt{List: []ast.Stmt{body(x)}}}
	}
	onValue := nilIdent()
	if !ptr {
		onValue = adapter(ast.NewIdent(name.Name))
	}
	onPtr := adapter(&ast.StarExpr{X: ast.NewIdent(name.Name)})
	id := &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(methodID(t.fn))}
	return &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{
		Names:  []*ast.Ident{ast.NewIdent("_")},
		Values: []ast.Expr{call(rtInst(rtRegisterMethod, ast.NewIdent(name.Name)), id, onValue, onPtr)},
	}}}
}
