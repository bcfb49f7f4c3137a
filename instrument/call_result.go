// This file hands the shadows of struct and array results to the caller:
// each return of such a result wraps it in rt.PassResult (the callee's
// place of the value) or rt.NoResult, and a statement that stores the
// result of a call of a function of this package into a place follows
// with rt.TakeResult there, as rt.Pass and rt.Take do for arguments.

package instrument

import (
	"go/ast"
	"go/types"

	"github.com/gocolic/gocolic/sites"
)

// passResults completes out, the rewrite of the return s, so that each
// struct or array result with tracked leaves hands its shadows over: a
// result that is a place (h, p.hdr) by rt.PassResult(i, &place, value);
// a call of a function of this package that returns its results as they
// are (return parse(b)) leaves the slots its callee set; any other
// result clears its slot with rt.NoResult. A bare return hands over its
// named results before it.
func (ins *instrumenter) passResults(s *ast.ReturnStmt, out []ast.Stmt) []ast.Stmt {
	if len(s.Results) == 1 {
		if c, ok := ast.Unparen(s.Results[0]).(*ast.CallExpr); ok && ins.localCallee(c) != nil {
			return out // its callee's returns set the slots
		}
	}
	if len(s.Results) == 0 {
		var pre []ast.Stmt
		i := 0
		for _, f := range flatten(ins.fn.results) {
			for _, name := range f.Names {
				if name.Name != "_" && ins.info.Defs[name] != nil && hasLeaves(ins.info.Defs[name].Type(), 0) {
					pre = append(pre, &ast.ExprStmt{X: rtCall(rtPassResult, intLit(i), addrOf(ast.NewIdent(name.Name)), ast.NewIdent(name.Name))})
				}
				i++
			}
		}
		return append(pre, out...)
	}
	ret := lastReturn(out)
	if ret == nil {
		return out
	}
	for i, r := range s.Results {
		if i >= len(ret.Results) || !hasLeaves(ins.typeOf(r), 0) {
			continue
		}
		if ins.pure(r) && !isBlank(r) {
			ret.Results[i] = rtCall(rtPassResult, intLit(i), addrOf(ins.lvalue(r)), ret.Results[i])
			continue
		}
		ret.Results[i] = rtCall(rtNoResult, intLit(i), ret.Results[i])
	}
	return out
}

// lastReturn returns the return statement that ends out, the rewrite of a
// return: the last statement, or the last of the block it is.
func lastReturn(out []ast.Stmt) *ast.ReturnStmt {
	if len(out) == 0 {
		return nil
	}
	switch s := out[len(out)-1].(type) {
	case *ast.ReturnStmt:
		return s
	case *ast.BlockStmt:
		return lastReturn(s.List)
	}
	return nil
}

// takeResults returns the statements that install, after the assignment
// s of the results of the call rhs, the shadows its callee handed over
// for each struct or array result stored in a place: rt.TakeResult(i,
// &lhs). Only calls of this package's functions hand results over, and
// only places that can be written again without effects take them.
func (ins *instrumenter) takeResults(lhs []ast.Expr, rhs ast.Expr) []ast.Stmt {
	c, ok := ast.Unparen(rhs).(*ast.CallExpr)
	if !ok || ins.localCallee(c) == nil {
		return nil
	}
	var out []ast.Stmt
	for i, l := range lhs {
		if isBlank(l) || !hasLeaves(ins.typeOf(l), 0) || !ins.pure(l) {
			continue
		}
		out = append(out, &ast.ExprStmt{X: rtCall(rtTakeResult, intLit(i), addrOf(ins.lvalue(l)))})
	}
	return out
}

// resultField returns the V of f(x).field, a tracked field of the struct
// result of a call of this package, which has no place of its own: the
// load reads it from rt.Took(0, f(x)), a new place holding the result
// with the shadows its callee handed over.
func (ins *instrumenter) resultField(e ast.Expr) (ast.Expr, bool) {
	x, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	sel, ok := ins.info.Selections[x]
	if !ok || sel.Kind() != types.FieldVal || sel.Indirect() {
		return nil, false
	}
	k := trackOf(ins.typeOf(x))
	c, ok := ast.Unparen(x.X).(*ast.CallExpr)
	if k == notTracked || !ok || ins.localCallee(c) == nil || !hasLeaves(ins.typeOf(c), 0) {
		return nil, false
	}
	place := &ast.SelectorExpr{X: rtCall(rtTook, intLit(0), ins.cx(c)), Sel: ast.NewIdent(x.Sel.Name)}
	return rtCall(memOp[k].load, siteLit(ins.newSite(sites.Concrete, e)), addrOf(place)), true
}

// dropResults wraps rhs, the rewrite of the call r stored by an init
// statement of a for or switch (which no statement can follow to take
// its result's shadows), in rt.DropResult, which counts them as dropped
// (CauseAssign). Only a single struct result of a call of this package
// is handed over, so only that is wrapped.
func (ins *instrumenter) dropResults(lhs, r, rhs ast.Expr) ast.Expr {
	if len(ins.takeResults([]ast.Expr{lhs}, r)) == 0 {
		return rhs
	}
	return rtCall(rtDropResult, siteLit(ins.newSite(sites.Concrete, r)), intLit(0), rhs)
}

// returnStructLit rewrites return T{...} of a struct or array literal with
// symbolic parts, beside results that are constants (return T{...}, nil):
// the literal is built into a temporary first, its tracked parts stored
// at their places there (litParts, as for an assignment), and the
// temporary returned with rt.PassResult, so that the caller takes them.
// The other results are constants, so the order of evaluation is kept.
func (ins *instrumenter) returnStructLit(s *ast.ReturnStmt) ([]ast.Stmt, bool) {
	at, lit := ins.constReturn(s, func(r ast.Expr) *ast.CompositeLit {
		if l, ok := ast.Unparen(r).(*ast.CompositeLit); ok && hasLeaves(ins.typeOf(r), 0) && ins.symbolicParts(l) {
			return l
		}
		return nil
	})
	t := ins.fn.twin
	if lit == nil || t != nil && len(t.results) != len(s.Results) {
		return nil, false
	}
	tmp, out, ok := ins.litTemp(lit, false)
	if !ok {
		return nil, false
	}
	n := &ast.ReturnStmt{Return: s.Return}
	for i, r := range s.Results {
		if i == at {
			n.Results = append(n.Results, rtCall(rtPassResult, intLit(i), addrOf(ast.NewIdent(tmp.Name)), tmp))
			continue
		}
		n.Results = append(n.Results, r)
	}
	if t != nil {
		for _, k := range t.results {
			if k != notTracked {
				n.Results = append(n.Results, nilIdent()) // constants
			}
		}
	}
	return []ast.Stmt{&ast.BlockStmt{List: append(out, n)}}, true
}
