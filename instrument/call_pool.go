package instrument

import (
	"go/ast"
	"go/types"
)

// poolGet rewrites x.Get() for a sync.Pool x into rt.PoolGet(&x), which
// gives an execution on symbolic inputs a fresh value instead of one an
// earlier execution left, so that paths do not depend on the worker's
// history.
func (ins *instrumenter) poolGet(x *ast.CallExpr) (ast.Expr, bool) {
	sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
	if !ok || len(x.Args) != 0 {
		return nil, false
	}
	s, ok := ins.info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return nil, false
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok || fn.FullName() != "(*sync.Pool).Get" {
		return nil, false
	}
	recv := ins.cx(sel.X)
	if _, isPtr := types.Unalias(ins.typeOf(sel.X)).Underlying().(*types.Pointer); !isPtr {
		recv = addrOf(ins.lvalue(sel.X))
	}
	return rtCall(rtPoolGet, recv), true
}
