// This file hands the shadows of struct and array arguments to the
// callee: the caller wraps such an argument in rt.Pass, and the callee's
// prologue installs them on its parameter with rt.Take.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// localCallee returns the function or method of this package that the
// call x calls statically, or nil.
func (ins *instrumenter) localCallee(x *ast.CallExpr) *types.Func {
	var obj types.Object
	switch f := calledFunc(x).(type) {
	case *ast.Ident:
		obj = ins.info.Uses[f]
	case *ast.SelectorExpr:
		if sel, ok := ins.info.Selections[f]; ok && sel.Kind() == types.MethodVal {
			obj = sel.Obj()
		}
	}
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() != ins.pkg.Types {
		return nil
	}
	return fn
}

// passArg wraps the argument a (already rewritten as ra) of a call of a
// function of this package in rt.Pass, which hands the shadows of a
// struct or array argument to the callee's parameter (rt.Take).
func (ins *instrumenter) passArg(a, ra ast.Expr) ast.Expr {
	t := ins.typeOf(a)
	if t == nil || !hasLeaves(t, 0) || !ins.pure(a) {
		return ra
	}
	return rtCall(rtPass, addrOf(ins.lvalue(a)), ra)
}

// passRecv is passArg for the receiver x of a call of method fn: a value
// receiver is a copy too. When x is a pointer that the call dereferences
// (p.M() for a method of T), the copy is of *p, and the result is
// rt.Pass(p, *p) for a call on the value.
func (ins *instrumenter) passRecv(fn *types.Func, x, rx ast.Expr) ast.Expr {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return rx
	}
	if _, isPtr := recv.Type().(*types.Pointer); isPtr {
		return rx
	}
	t := ins.typeOf(x)
	if t == nil {
		return rx
	}
	if p, ok := t.Underlying().(*types.Pointer); ok && types.Identical(p.Elem(), recv.Type()) {
		if d, ok := ins.passDeref(x, rx); ok {
			return d
		}
		return rx
	}
	if !types.Identical(t, recv.Type()) {
		return rx // an embedded field
	}
	return ins.passArg(x, rx)
}

// passDeref returns rt.Pass(p, *p) for the pointer x = p (rewritten as
// rx) to a struct or array with leaves, which a call copies as a value
// receiver; false when there is nothing to hand over or x has effects
// (rx is evaluated twice). A nil p panics at *p, as the call would.
func (ins *instrumenter) passDeref(x, rx ast.Expr) (ast.Expr, bool) {
	p, ok := ins.typeOf(x).Underlying().(*types.Pointer)
	if !ok || !hasLeaves(p.Elem(), 0) || !ins.pure(x) {
		return nil, false
	}
	return rtCall(rtPass, rx, &ast.StarExpr{X: rx}), true
}

// takes returns the prologue that installs the shadows handed over with
// the struct and array arguments (rt.Take), for the receiver and the
// parameters of fd.
func (ins *instrumenter) takes(fd *ast.FuncDecl) []ast.Stmt {
	var out []ast.Stmt
	for _, fl := range []*ast.FieldList{fd.Recv, fd.Type.Params} {
		for _, f := range flatten(fl) {
			if len(f.Names) == 0 || f.Names[0].Name == "_" {
				continue
			}
			obj := ins.info.Defs[f.Names[0]]
			if obj == nil || !hasLeaves(obj.Type(), 0) {
				continue
			}
			if _, variadic := f.Type.(*ast.Ellipsis); variadic {
				continue
			}
			out = append(out, &ast.ExprStmt{X: rtCall(rtTake, addrOf(ast.NewIdent(f.Names[0].Name)))})
		}
	}
	return out
}

// litArgs moves each struct or array literal argument with symbolic
// parts of the call x (l.tokens.push(Token{Kind, string(r)})) into a
// temporary of its own, built as lhs = T{...} is (litAssign), so that its
// tracked parts reach the callee's parameter through rt.Pass rather than
// being dropped at a Concrete site. It returns the temporaries'
// definitions, in the original syntax, and x with the temporaries in the
// literals' places; false when there is nothing to move.
//
// A literal moves only when nothing before it in the call has an effect
// (the callee, the receiver and the earlier arguments are names, fields
// or constants): its elements are then evaluated as early as before
// relative to every call. The temporaries get objects of their own in the
// package's type information, so the rest of the rewrite sees ordinary
// local variables.
func (ins *instrumenter) litArgs(x *ast.CallExpr) ([]ast.Stmt, *ast.CallExpr, bool) {
	if x.Ellipsis.IsValid() || ins.methodExpr(x) || !ins.passesCells(x) || !ins.noEffect(x.Fun) {
		return nil, nil, false
	}
	sig, ok := types.Unalias(ins.typeOf(x.Fun)).Underlying().(*types.Signature)
	if !ok {
		return nil, nil, false
	}
	var pre []ast.Stmt
	var args []ast.Expr
	for i, a := range x.Args {
		lit, isLit := ast.Unparen(a).(*ast.CompositeLit)
		if !isLit || (sig.Variadic() && i >= sig.Params().Len()-1) || i >= sig.Params().Len() ||
			!ins.movableLit(lit, sig.Params().At(i).Type()) {
			if !ins.noEffect(a) {
				break
			}
			continue
		}
		if args == nil {
			args = append([]ast.Expr(nil), x.Args...)
		}
		name := ins.newTemp("l").Name
		v := types.NewVar(lit.Pos(), ins.pkg.Types, name, ins.typeOf(lit))
		def, use := &ast.Ident{NamePos: lit.Pos(), Name: name}, &ast.Ident{NamePos: lit.Pos(), Name: name}
		ins.info.Defs[def], ins.info.Uses[use] = v, v
		pre = append(pre, &ast.AssignStmt{Lhs: []ast.Expr{def}, TokPos: lit.Pos(), Tok: token.DEFINE, Rhs: []ast.Expr{lit}})
		args[i] = use
	}
	if len(pre) == 0 {
		return nil, nil, false
	}
	n := *x
	n.Args = args
	return pre, &n, true
}

// movableLit reports whether lit, an argument for a parameter of type pt,
// is a struct or array literal of exactly that type with symbolic parts.
func (ins *instrumenter) movableLit(lit *ast.CompositeLit, pt types.Type) bool {
	t := ins.typeOf(lit)
	if t == nil || !types.Identical(t, pt) || !hasLeaves(t, 0) || !ins.symbolicParts(lit) {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return true
	}
	return false
}

// passesCells reports whether the rewrite hands the cells of x's struct
// and array arguments to the callee (passArg): for a function or method
// of this package, and for a twin that is not a model.
func (ins *instrumenter) passesCells(x *ast.CallExpr) bool {
	if ins.localCallee(x) != nil {
		return true
	}
	t := ins.twinCall(x)
	return t != nil && !t.model
}

// noEffect reports whether evaluating e has no effect, so that what
// follows it may be evaluated before it: constants, variables and their
// fields (pure), and the names of functions and methods on such operands.
func (ins *instrumenter) noEffect(e ast.Expr) bool {
	e = ast.Unparen(e)
	if ins.isConst(e) || isNil(e, ins) || ins.pure(e) {
		return true
	}
	switch x := e.(type) {
	case *ast.Ident:
		_, isFunc := ins.info.Uses[x].(*types.Func)
		return isFunc
	case *ast.SelectorExpr:
		if sel, ok := ins.info.Selections[x]; ok {
			return sel.Kind() == types.MethodVal && ins.noEffect(x.X)
		}
		_, isFunc := ins.info.Uses[x.Sel].(*types.Func)
		return isFunc
	}
	return false
}

// litArgsAssign is litArgs for lhs = f(T{...}) (also :=): the left side
// must have no effect, since its index operands are evaluated before the
// call.
func (ins *instrumenter) litArgsAssign(s *ast.AssignStmt) ([]ast.Stmt, *ast.AssignStmt, bool) {
	c, ok := singleCall(s.Rhs)
	if !ok || s.Tok != token.ASSIGN && s.Tok != token.DEFINE {
		return nil, nil, false
	}
	for _, l := range s.Lhs {
		if id, isID := ast.Unparen(l).(*ast.Ident); !(isID && (id.Name == "_" || s.Tok == token.DEFINE)) && !ins.noEffect(l) {
			return nil, nil, false
		}
	}
	pre, nc, ok := ins.litArgs(c)
	if !ok {
		return nil, nil, false
	}
	n := *s
	n.Rhs = []ast.Expr{nc}
	return pre, &n, true
}

// singleCall returns the call that is the only expression of es.
func singleCall(es []ast.Expr) (*ast.CallExpr, bool) {
	if len(es) != 1 {
		return nil, false
	}
	c, ok := ast.Unparen(es[0]).(*ast.CallExpr)
	return c, ok
}
