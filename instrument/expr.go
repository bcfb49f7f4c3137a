// This file rewrites expressions: v builds the V pair of a tracked
// expression, cx rewrites an expression whose value is used concretely,
// and cond turns a condition into branch sites. Operators
// (expr_ops.go), conversions (expr_conv.go), indexing and slicing
// (expr_index.go) and calls (call*.go) have files of their own.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/gocolic/gocolic/sites"
)

func rtSel(name string) ast.Expr {
	return &ast.SelectorExpr{X: ast.NewIdent(runtimeAlias), Sel: ast.NewIdent(name)}
}

func call(fun ast.Expr, args ...ast.Expr) *ast.CallExpr {
	return &ast.CallExpr{Fun: fun, Args: args}
}

func rtCall(name string, args ...ast.Expr) *ast.CallExpr { return call(rtSel(name), args...) }

// rtInst returns the runtime's generic name instantiated with types.
func rtInst(name string, targs ...ast.Expr) ast.Expr {
	if len(targs) == 1 {
		return &ast.IndexExpr{X: rtSel(name), Index: targs[0]}
	}
	return &ast.IndexListExpr{X: rtSel(name), Indices: targs}
}

func field(x ast.Expr, name string) ast.Expr {
	return &ast.SelectorExpr{X: x, Sel: ast.NewIdent(name)}
}

func nilIdent() ast.Expr { return ast.NewIdent("nil") }

func siteLit(id uint32) ast.Expr {
	return &ast.BasicLit{Kind: token.INT, Value: strconv.FormatUint(uint64(id), 10)}
}

// shadowName returns the name of obj's shadow variable.
func (ins *instrumenter) shadowName(obj types.Object) string {
	if n, ok := ins.objName[obj]; ok {
		return n
	}
	n := shadowPrefix + obj.Name()
	ins.objName[obj] = n
	return n
}

// shadowRef returns the expression of obj's shadow: the shadow variable,
// or nil for variables without one.
func (ins *instrumenter) shadowRef(obj types.Object) ast.Expr {
	if obj != nil && ins.shadow[obj] {
		return ast.NewIdent(ins.shadowName(obj))
	}
	return nilIdent()
}

// shadowedIdent returns the variable of e if e is an identifier of a
// shadowed variable.
func (ins *instrumenter) shadowedIdent(e ast.Expr) (*ast.Ident, types.Object) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil, nil
	}
	obj := ins.info.ObjectOf(id)
	if obj == nil || !ins.shadow[obj] {
		return nil, nil
	}
	return id, obj
}

func (ins *instrumenter) isConst(e ast.Expr) bool {
	tv, ok := ins.info.Types[e]
	return ok && tv.Value != nil
}

// mk wraps a concretely evaluated expression as a V without shadow. The
// V's type is normally inferred from the expression; an untyped
// comparison whose recorded type is a named boolean would be inferred as
// bool, so a named type is given explicitly.
func (ins *instrumenter) mk(e ast.Expr) ast.Expr {
	if _, named := types.Unalias(ins.typeOf(e)).(*types.Named); named {
		if te, ok := ins.typeExpr(ins.typeOf(e)); ok {
			return call(rtInst(rtMk, te), ins.structural(e), nilIdent())
		}
	}
	return rtCall(rtMk, ins.structural(e), nilIdent())
}

// v returns an expression of type rt.V[T] for the tracked expression e of
// type T. It reports false only when e is a constant whose type cannot be
// named in the file.
func (ins *instrumenter) v(e ast.Expr) (ast.Expr, bool) {
	tv := ins.info.Types[e]
	if tv.IsNil() {
		// nil for a byte slice: only a recorded slice type names it.
		te, ok := ins.typeExpr(tv.Type)
		if !ok || trackOf(tv.Type) != trackBytes {
			return nil, false
		}
		return call(rtInst(rtMk, te), e, nilIdent()), true
	}
	if tv.Value != nil {
		te, ok := ins.typeExpr(tv.Type)
		if !ok {
			return nil, false
		}
		return call(rtInst(rtMk, te), e, nilIdent()), true
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return ins.v(x.X)
	case *ast.Ident:
		if obj, ok := ins.info.ObjectOf(x).(*types.Var); ok {
			return rtCall(rtMk, x, ins.shadowRef(obj)), true
		}
	case *ast.BinaryExpr:
		return ins.vBinary(x)
	case *ast.UnaryExpr:
		return ins.vUnary(x)
	case *ast.CallExpr:
		return ins.vCall(x)
	case *ast.IndexExpr:
		k := ins.trackOfExpr(x.X)
		if (k == trackString || k == trackBytes) && ins.trackOfExpr(x.Index) == trackInt {
			s, ok1 := ins.v(x.X)
			i, ok2 := ins.v(x.Index)
			if ok1 && ok2 {
				name := rtIndexString
				if k == trackBytes {
					name = rtIndexBytes
				}
				return ins.asType(rtCall(name, siteLit(ins.newSite(sites.Implicit, x)), s, i), x, rtConv)
			}
		}
		if r, ok := ins.mapIndex(x, rtMapIndex); ok {
			return r, true
		}
		if k, ok := ins.memLoc(x); ok {
			return ins.vMem(x, k), true
		}
	case *ast.CompositeLit:
		if r, ok := ins.bytesLit(x); ok {
			return r, true
		}
	case *ast.SelectorExpr, *ast.StarExpr:
		if k, ok := ins.memLoc(x); ok {
			return ins.vMem(x, k), true
		}
		if r, ok := ins.resultField(x); ok {
			return r, true
		}
	case *ast.SliceExpr:
		return ins.vSlice(x)
	}
	return ins.mk(e), true
}

// asType converts a V of a predeclared type (byte, int, bool) to the
// recorded type of e when e has a named type, with the runtime conversion
// conv; it keeps the value when the types agree.
func (ins *instrumenter) asType(ve ast.Expr, e ast.Expr, conv string) (ast.Expr, bool) {
	t := types.Unalias(ins.typeOf(e))
	if _, named := t.(*types.Named); !named {
		return ve, true
	}
	te, ok := ins.typeExpr(t)
	if !ok {
		return nil, false
	}
	return call(rtInst(conv, te), ve), true
}

// compound reports whether e is a tracked expression worth evaluating
// through v in a concrete context: one that computes something.
func (ins *instrumenter) compound(e ast.Expr) bool {
	if ins.isConst(e) || ins.trackOfExpr(e) == notTracked {
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		return true
	case *ast.UnaryExpr:
		return x.Op != token.AND && x.Op != token.ARROW
	case *ast.CallExpr:
		return true
	case *ast.IndexExpr:
		k := ins.trackOfExpr(x.X)
		return k == trackString || k == trackBytes
	case *ast.SliceExpr:
		return true
	}
	return false
}

// cx rewrites an expression whose value is used concretely. Its branches
// and implicit checks are still recorded.
func (ins *instrumenter) cx(e ast.Expr) ast.Expr {
	if e == nil {
		return nil
	}
	if tv, ok := ins.info.Types[e]; ok && tv.IsType() {
		return e
	}
	if ins.compound(e) {
		if t := ins.twinCall(e); t != nil && t.nShadow == 0 {
			if c, ok := ins.callTwin(ast.Unparen(e).(*ast.CallExpr), t); ok {
				return c
			}
		}
		if be, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && (be.Op == token.LAND || be.Op == token.LOR) {
			return ins.cond(be)
		}
		if ve, ok := ins.v(e); ok {
			return field(ve, vConcrete)
		}
	}
	return ins.structural(e)
}

// structural rewrites the parts of e, keeping e's own operation.
func (ins *instrumenter) structural(e ast.Expr) ast.Expr {
	if tv, ok := ins.info.Types[e]; ok && tv.IsType() {
		return e
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return &ast.ParenExpr{X: ins.cx(x.X)}
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			return ins.cond(x)
		}
		return &ast.BinaryExpr{X: ins.cx(x.X), Op: x.Op, Y: ins.cx(x.Y)}
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return &ast.UnaryExpr{Op: x.Op, X: ins.lvalue(x.X)}
		}
		return &ast.UnaryExpr{Op: x.Op, X: ins.cx(x.X)}
	case *ast.CallExpr:
		return ins.structuralCall(x)
	case *ast.IndexExpr:
		if tv, ok := ins.info.Types[x.Index]; ok && tv.IsType() {
			return x
		}
		return &ast.IndexExpr{X: ins.cxAddressable(x.X), Index: ins.cx(x.Index)}
	case *ast.SliceExpr:
		// A slice the runtime does not track (of an array, of a slice
		// other than a byte slice) takes its bounds at their values.
		n := *x
		n.X = ins.cxAddressable(x.X)
		n.Low, n.High, n.Max = ins.boundConcrete(x.Low), ins.boundConcrete(x.High), ins.boundConcrete(x.Max)
		return &n
	case *ast.SelectorExpr:
		if _, ok := ins.info.Selections[x]; !ok {
			return x // qualified identifier
		}
		return &ast.SelectorExpr{X: ins.cxAddressable(x.X), Sel: x.Sel}
	case *ast.StarExpr:
		return &ast.StarExpr{X: ins.cx(x.X)}
	case *ast.TypeAssertExpr:
		return ins.typeAssert(x, false)
	case *ast.CompositeLit:
		if c, ok := ins.compositeLit(x); ok {
			return c
		}
		return ins.plainLit(x)
	case *ast.FuncLit:
		return ins.funcLitValue(x)
	}
	return e
}

// cxAddressable rewrites an operand that may have to stay addressable
// (the array of a[i], the struct of s.f): only its parts are rewritten.
func (ins *instrumenter) cxAddressable(e ast.Expr) ast.Expr {
	switch ast.Unparen(e).(type) {
	case *ast.Ident, *ast.IndexExpr, *ast.SelectorExpr, *ast.StarExpr:
		return ins.lvalue(e)
	}
	return ins.cx(e)
}

// lvalue rewrites the parts of an addressable expression without changing
// what it denotes.
func (ins *instrumenter) lvalue(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return &ast.ParenExpr{X: ins.lvalue(x.X)}
	case *ast.IndexExpr:
		if tv, ok := ins.info.Types[x.Index]; ok && tv.IsType() {
			return x
		}
		return &ast.IndexExpr{X: ins.lvalue(x.X), Index: ins.locIndex(x)}
	case *ast.SelectorExpr:
		if _, ok := ins.info.Selections[x]; !ok {
			return x
		}
		return &ast.SelectorExpr{X: ins.lvalue(x.X), Sel: x.Sel}
	case *ast.StarExpr:
		return &ast.StarExpr{X: ins.cx(x.X)}
	case *ast.CompositeLit:
		return ins.plainLit(x)
	case *ast.CallExpr:
		// The slice or pointer a call returns: f()[i] and f().x are
		// locations, and the call itself is rewritten like any other.
		return ins.cx(x)
	}
	return e
}

// locIndex rewrites the index of the location x, an element of an array
// or slice that the runtime reads or writes at its concrete index (a
// field of an element, a string element, a struct element copied): a
// tracked index is counted when symbolic (CauseIndex), since the location
// it picks depends on the input and no term says so.
func (ins *instrumenter) locIndex(x *ast.IndexExpr) ast.Expr {
	if ins.isConst(x.Index) || ins.trackOfExpr(x.Index) != trackInt {
		return ins.cx(x.Index)
	}
	t := ins.typeOf(x.X)
	if t == nil {
		return ins.cx(x.Index)
	}
	u := t.Underlying()
	if p, ok := u.(*types.Pointer); ok {
		u = p.Elem().Underlying()
	}
	switch u.(type) {
	case *types.Array, *types.Slice:
	default:
		return ins.cx(x.Index) // a map's key has its own log (rt/map.go)
	}
	vi, ok := ins.v(x.Index)
	if !ok {
		return ins.cx(x.Index)
	}
	return rtCall(rtConcrete, siteLit(ins.newSite(sites.Concrete, x)), rtSel(rtCauseIndex), vi)
}

// cond rewrites a condition: each atom becomes a branch site.
func (ins *instrumenter) cond(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return &ast.ParenExpr{X: ins.cond(x.X)}
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			return &ast.BinaryExpr{X: ins.cond(x.X), Op: x.Op, Y: ins.cond(x.Y)}
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return &ast.UnaryExpr{Op: token.NOT, X: ins.cond(x.X)}
		}
	}
	if ins.isConst(e) {
		return e
	}
	site := ins.newSite(sites.Cond, e)
	ve, ok := ins.v(e)
	if !ok {
		ve = ins.mk(e)
	}
	return ins.branchCall(site, ve)
}

// plainLit rewrites the parts of a composite literal, keeping it a
// literal (addressable with &).
func (ins *instrumenter) plainLit(x *ast.CompositeLit) ast.Expr {
	n := *x
	n.Elts = make([]ast.Expr, len(x.Elts))
	_, isStruct := types.Unalias(ins.typeOf(x)).Underlying().(*types.Struct)
	if p, ok := types.Unalias(ins.typeOf(x)).Underlying().(*types.Pointer); ok {
		_, isStruct = p.Elem().Underlying().(*types.Struct)
	}
	for i, el := range x.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			key := kv.Key
			if !isStruct {
				key = ins.cx(key)
			}
			n.Elts[i] = &ast.KeyValueExpr{Key: key, Value: ins.cxElem(kv.Value)}
			continue
		}
		n.Elts[i] = ins.cxElem(el)
	}
	return &n
}

// cxElem rewrites an element of a literal that keeps no shadows (a
// literal that is not assigned to a place, or not one the rewrite
// builds): a value that may be symbolic goes through rt.Concrete, which
// counts its shadow as dropped (CauseAssign), rather than being lost
// without a count.
func (ins *instrumenter) cxElem(e ast.Expr) ast.Expr {
	if _, nested := ast.Unparen(e).(*ast.CompositeLit); nested || !ins.mayBeSymbolic(e) {
		return ins.cx(e)
	}
	ve, ok := ins.vArg(e)
	if !ok {
		return ins.cx(e)
	}
	return rtCall(rtConcrete, siteLit(ins.newSite(sites.Concrete, e)), rtSel(rtCauseAssign), ve)
}
