// This file rewrites loads and stores of values that live in memory —
// struct fields, array and slice elements, values behind pointers — to go
// through the runtime's shadow memory (rt/mem.go), and copies of structs
// and arrays to carry their fields' shadows.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gocolic/gocolic/sites"
)

// memLoc reports whether e is a location of the shadow memory: an
// addressable field, element or indirection (not a variable, which has a
// shadow variable instead) of a scalar, string or byte-slice type. String
// and byte-slice indexing keep their own aggregate shadows and are not
// locations.
func (ins *instrumenter) memLoc(e ast.Expr) (track, bool) {
	e = ast.Unparen(e)
	tv, ok := ins.info.Types[e]
	if !ok || !tv.Addressable() {
		return notTracked, false
	}
	k := trackOf(tv.Type)
	if k == notTracked {
		return notTracked, false
	}
	switch x := e.(type) {
	case *ast.SelectorExpr:
		sel, ok := ins.info.Selections[x]
		return k, ok && sel.Kind() == types.FieldVal
	case *ast.StarExpr:
		return k, true
	case *ast.IndexExpr:
		_, ok := ins.indexed(x)
		return k, ok
	}
	return notTracked, false
}

// indexed returns the array or slice type that the index expression x
// indexes (through a pointer to an array), or false for maps, strings,
// byte slices and generic instantiations.
func (ins *instrumenter) indexed(x *ast.IndexExpr) (types.Type, bool) {
	if tv, ok := ins.info.Types[x.Index]; ok && tv.IsType() {
		return nil, false
	}
	t := ins.typeOf(x.X)
	if t == nil {
		return nil, false
	}
	u := t.Underlying()
	if p, ok := u.(*types.Pointer); ok {
		u = p.Elem().Underlying()
	}
	switch u.(type) {
	case *types.Array:
		return u, true
	case *types.Slice:
		return u, trackOf(t) != trackBytes
	}
	return nil, false
}

func addrOf(e ast.Expr) ast.Expr { return &ast.UnaryExpr{Op: token.AND, X: e} }

// vMem returns the V of the memory location e (memLoc), read with its
// shadow. An element read at a tracked, non-constant index becomes a case
// split over the elements (rt.LoadIndex), with its bounds check a site.
func (ins *instrumenter) vMem(e ast.Expr, k track) ast.Expr {
	e = ast.Unparen(e)
	op := memOp[k]
	if x, ok := e.(*ast.IndexExpr); ok {
		// An element of a slice is read with its bounds check even at a
		// constant index, since the slice's length may be symbolic; an
		// array's length is not, so only an input index needs the split.
		u, _ := ins.indexed(x)
		_, isArray := u.(*types.Array)
		if !isArray || !ins.isConst(x.Index) && ins.trackOfExpr(x.Index) == trackInt {
			if i, ok := ins.vIndex(x.Index); ok {
				s := ins.lvalue(x.X)
				if isArray {
					s = &ast.SliceExpr{X: s}
				}
				return rtCall(op.loadIndex, siteLit(ins.newSite(sites.Implicit, x)), s, i)
			}
		}
	}
	return rtCall(op.load, siteLit(ins.newSite(sites.Concrete, e)), addrOf(ins.lvalue(e)))
}

// storeMem rewrites lhs = rhs for a location lhs into rt.Store(v, &lhs).
// A constant stays a plain store: the cell it leaves behind is caught by
// the concrete check of the next load, unless the constant equals the old
// value, where the stale term still gives the value at this input.
//
// A scalar element at a tracked, non-constant index becomes
// rt.StoreIndex(v, site, s, i), which writes every element's cell when
// the index is symbolic (a constant value included).
func (ins *instrumenter) storeMem(lhs, rhs ast.Expr) (ast.Stmt, bool) {
	k, ok := ins.memLoc(lhs)
	if !ok || !types.Identical(ins.typeOf(lhs), ins.typeOf(rhs)) && !ins.isConst(rhs) {
		return nil, false
	}
	if s, i, site, ok := ins.symbolicIndex(lhs, k); ok {
		ve, ok := ins.vAs(rhs, ins.typeOf(lhs))
		if !ok {
			return nil, false
		}
		return &ast.ExprStmt{X: call(rtSelAt(rtStoreIndex, lhs.Pos()), ve, site, s, i)}, true
	}
	if ins.isConst(rhs) {
		return nil, false
	}
	ve, ok := ins.v(rhs)
	if !ok {
		return nil, false
	}
	return &ast.ExprStmt{X: call(rtSelAt(memOp[k].store, lhs.Pos()), ve, addrOf(ins.lvalue(lhs)))}, true
}

// symbolicIndex returns, for an element lhs of a scalar array or slice at
// a tracked, non-constant index, the slice (an array's as a slice
// expression), the index's V and a site for the bounds check and the case
// split: what rt.StoreIndex and rt.ApplyIndex take.
func (ins *instrumenter) symbolicIndex(lhs ast.Expr, k track) (s, i, site ast.Expr, ok bool) {
	x, isIndex := ast.Unparen(lhs).(*ast.IndexExpr)
	if !isIndex || k != trackInt && k != trackBool && k != trackFloat || ins.isConst(x.Index) || ins.trackOfExpr(x.Index) != trackInt {
		return nil, nil, nil, false
	}
	u, _ := ins.indexed(x)
	if u == nil {
		return nil, nil, nil, false
	}
	if i, ok = ins.vIndex(x.Index); !ok {
		return nil, nil, nil, false
	}
	s = ins.lvalue(x.X)
	if _, isArray := u.(*types.Array); isArray {
		s = &ast.SliceExpr{X: s}
	}
	return s, i, siteLit(ins.newSite(sites.Implicit, x)), true
}

// memOp names the runtime's load, store and load at an index of a memory
// location by the family of its type. Strings and byte slices have cells
// of their own, holding the aggregate shadow that a variable of their type
// has.
var memOp = map[track]struct{ load, store, loadIndex string }{
	trackInt:    {rtLoad, rtStore, rtLoadIndex},
	trackBool:   {rtLoad, rtStore, rtLoadIndex},
	trackFloat:  {rtLoad, rtStore, rtLoadIndex},
	trackString: {rtLoadString, rtStoreString, rtLoadIndexString},
	trackBytes:  {rtLoadByteSlice, rtStoreByteSlice, rtLoadIndexBytes},
	// An ordered type parameter's cell is the one of T's kind at run time.
	trackOrdered: {rtLoadOrd, rtStoreOrd, rtLoadIndexOrd},
}

// rtSelAt is rtSel placed at pos: a store's call takes the statement's
// position, so that a panic in it is reported on the store's line.
func rtSelAt(name string, pos token.Pos) ast.Expr {
	return &ast.SelectorExpr{X: &ast.Ident{Name: runtimeAlias, NamePos: pos}, Sel: ast.NewIdent(name)}
}

// applyOp names the runtime operator of x op= y for a value of family k,
// "" when there is none.
func applyOp(k track, op token.Token) string {
	switch k {
	case trackInt:
		return arith[op]
	case trackFloat:
		return floatArith[op]
	case trackString:
		if op == token.ADD {
			return rtConcat
		}
	case trackOrdered:
		return ordArith[op]
	}
	return ""
}

// applyMem rewrites lhs op= rhs (and lhs++) for a location lhs into
// rt.Apply(site, &lhs, v, rt.Op[T]), which evaluates the address once.
func (ins *instrumenter) applyMem(lhs ast.Expr, op token.Token, y ast.Expr) (ast.Stmt, bool) {
	k, ok := ins.memLoc(lhs)
	if !ok {
		return nil, false
	}
	name := applyOp(k, op)
	te, tok := ins.typeExpr(ins.typeOf(lhs))
	if name == "" || !tok {
		return nil, false
	}
	var ve ast.Expr
	if y == nil || ins.isConst(y) {
		one := ast.Expr(&ast.BasicLit{Kind: token.INT, Value: "1"})
		if y != nil {
			one = y
		}
		ve = call(rtInst(rtMk, te), one, nilIdent())
	} else {
		if !types.Identical(ins.typeOf(lhs), ins.typeOf(y)) {
			return nil, false
		}
		if ve, ok = ins.v(y); !ok {
			return nil, false
		}
	}
	if s, i, site, ok := ins.symbolicIndex(lhs, k); ok {
		return &ast.ExprStmt{X: call(rtSelAt(rtApplyIndex, lhs.Pos()), site, s, i, ve, rtInst(name, te))}, true
	}
	apply := rtApply
	switch k {
	case trackString:
		apply = rtApplyString
	case trackOrdered:
		apply = rtApplyOrd
	}
	site := siteLit(ins.newSite(sites.Concrete, lhs))
	return &ast.ExprStmt{X: call(rtSelAt(apply, lhs.Pos()), site, addrOf(ins.lvalue(lhs)), ve, rtInst(name, te))}, true
}

// copyMem returns rt.CopyMem(&lhs, &rhs), to follow lhs = rhs for a struct
// or array with tracked leaves, when both sides can be evaluated again
// without effects.
func (ins *instrumenter) copyMem(lhs, rhs ast.Expr) []ast.Stmt {
	t := ins.typeOf(lhs)
	if t == nil || !hasLeaves(t, 0) || !ins.pure(lhs) || !ins.pure(rhs) {
		return nil
	}
	if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && id.Name == "_" {
		return nil
	}
	return []ast.Stmt{&ast.ExprStmt{X: rtCall(rtCopyMem, addrOf(ins.lvalue(lhs)), addrOf(ins.lvalue(rhs)))}}
}

// hasLeaves reports whether values of type t hold scalars, strings or byte
// slices the shadow memory tracks, in fields or elements (not behind
// pointers).
func hasLeaves(t types.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if trackOf(u.Field(i).Type()) != notTracked || hasLeaves(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	case *types.Array:
		return trackOf(u.Elem()) != notTracked || hasLeaves(u.Elem(), depth+1)
	}
	return false
}

// pure reports whether e is addressable and evaluating it has no effect
// and gives the same location twice: variables (also another package's,
// pkg.V), fields of pure operands, and elements at constant or variable
// indices.
func (ins *instrumenter) pure(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := ins.info.ObjectOf(x).(*types.Var)
		return ok
	case *ast.SelectorExpr:
		sel, ok := ins.info.Selections[x]
		if !ok {
			_, isVar := ins.info.Uses[x.Sel].(*types.Var) // pkg.V
			return isVar
		}
		return sel.Kind() == types.FieldVal && ins.pure(x.X)
	case *ast.StarExpr:
		return ins.pure(x.X)
	case *ast.IndexExpr:
		if _, ok := ins.indexed(x); !ok {
			return false
		}
		_, isId := ast.Unparen(x.Index).(*ast.Ident)
		return (isId || ins.isConst(x.Index)) && ins.pure(x.X)
	}
	return false
}

// makeSlice rewrites make(S, n) with a tracked length n into
// rt.MakeSlice[S](n), which keeps n's shadow as the length's, so that
// loops over the slice and len(s) stay symbolic, and make(S, n, c) with
// a tracked length or capacity into rt.MakeSliceCap[S](site, n, c)
// (regexp's backtracker sizes its bit set by the input's length under a
// constant capacity). Byte slices, whose aggregate shadows carry their
// own length, are rewritten elsewhere (makeBytes).
func (ins *instrumenter) makeSlice(x *ast.CallExpr) (ast.Expr, bool) {
	id, ok := ast.Unparen(x.Fun).(*ast.Ident)
	if !ok || len(x.Args) != 2 && len(x.Args) != 3 {
		return nil, false
	}
	if b, ok := ins.info.Uses[id].(*types.Builtin); !ok || b.Name() != "make" {
		return nil, false
	}
	t := ins.typeOf(x.Args[0])
	if t == nil || trackOf(t) == trackBytes {
		return nil, false
	}
	if _, ok := t.Underlying().(*types.Slice); !ok {
		return nil, false
	}
	tracked := func(e ast.Expr) bool { return !ins.isConst(e) && ins.trackOfExpr(e) == trackInt }
	if len(x.Args) == 2 {
		if !tracked(x.Args[1]) {
			return nil, false
		}
		n, ok := ins.v(x.Args[1])
		if !ok {
			return nil, false
		}
		return call(rtInst(rtMakeSlice, x.Args[0]), n), true
	}
	if !tracked(x.Args[1]) && !tracked(x.Args[2]) {
		return nil, false
	}
	n, ok := ins.vIndex(x.Args[1])
	if !ok {
		return nil, false
	}
	c, ok := ins.vIndex(x.Args[2])
	if !ok {
		return nil, false
	}
	site := siteLit(ins.newSite(sites.Concrete, x))
	return call(rtInst(rtMakeSliceCap, x.Args[0]), site, n, c), true
}
