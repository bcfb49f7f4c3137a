// This file hands the shadows of struct and array arguments to the
// callee: the caller wraps such an argument in rt.Pass, and the callee's
// prologue installs them on its parameter with rt.Take.

package instrument

import (
	"go/ast"
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
