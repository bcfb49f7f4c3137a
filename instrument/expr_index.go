// This file rewrites indexing, slicing and len of tracked strings, byte
// slices and slices: each with an implicit site for its bounds check.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gocolic/gocolic/sites"
)

// vLen returns the V of len(a): of a string or byte slice's length, a
// map's length, or a slice's (rt.LenSlice); other lengths are concrete.
func (ins *instrumenter) vLen(x *ast.CallExpr) (ast.Expr, bool) {
	var name string
	switch ins.trackOfExpr(x.Args[0]) {
	case trackString:
		name = rtLenString
	case trackBytes:
		name = rtLenBytes
	default:
		if r, ok := ins.lenMap(x.Args[0]); ok {
			return r, true
		}
		if t := ins.typeOf(x.Args[0]); t != nil {
			if _, isSlice := t.Underlying().(*types.Slice); isSlice {
				return rtCall(rtLenSlice, siteLit(ins.newSite(sites.Concrete, x)), ins.cx(x.Args[0])), true
			}
		}
		return ins.mk(x), true
	}
	a, ok := ins.v(x.Args[0])
	if !ok {
		return ins.mk(x), true
	}
	return rtCall(name, a), true
}

// vCap returns the V of cap(a): of a slice, rt.CapSlice, whose shadow is
// the capacity make was given; other capacities are concrete.
func (ins *instrumenter) vCap(x *ast.CallExpr) (ast.Expr, bool) {
	if t := ins.typeOf(x.Args[0]); t != nil {
		if _, isSlice := t.Underlying().(*types.Slice); isSlice {
			return rtCall(rtCapSlice, ins.cx(x.Args[0])), true
		}
	}
	return ins.mk(x), true
}

// vSlice returns the V of a slice expression on a tracked string or byte
// slice: s[lo:hi], s[lo:] and b[lo:hi:max], each with an implicit site
// for its bounds check. A form it cannot track (an array operand, a bound
// of an untracked type) is evaluated concretely and counts its symbolic
// bounds (structural, boundConcrete).
func (ins *instrumenter) vSlice(x *ast.SliceExpr) (ast.Expr, bool) {
	k := ins.trackOfExpr(x.X)
	if k != trackString && k != trackBytes {
		return ins.mk(x), true
	}
	for _, b := range []ast.Expr{x.Low, x.High, x.Max} {
		if b != nil && !ins.boundTracked(b) {
			return ins.mk(x), true
		}
	}
	s, ok := ins.v(x.X)
	if !ok {
		return ins.mk(x), true
	}
	lo := ast.Expr(rtCall(rtMk, &ast.BasicLit{Kind: token.INT, Value: "0"}, nilIdent()))
	if x.Low != nil {
		if lo, ok = ins.vIndex(x.Low); !ok {
			return ins.mk(x), true
		}
	}
	site := siteLit(ins.newSite(sites.Implicit, x))
	from, slice := rtSliceStringFrom, rtSliceString
	if k == trackBytes {
		from, slice = rtSliceBytesFrom, rtSliceBytes
	}
	if x.High == nil {
		return rtCall(from, site, s, lo), true
	}
	hi, ok := ins.vIndex(x.High)
	if !ok {
		return ins.mk(x), true
	}
	if x.Slice3 {
		mx, ok := ins.vIndex(x.Max)
		if !ok {
			return ins.mk(x), true
		}
		return rtCall(rtSliceBytes3, site, s, lo, hi, mx), true
	}
	return rtCall(slice, site, s, lo, hi), true
}

// boundTracked reports whether vIndex takes the slice bound e: an untyped
// constant or a tracked integer.
func (ins *instrumenter) boundTracked(e ast.Expr) bool {
	if ins.isConst(e) {
		if b, ok := ins.typeOf(e).(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			return true
		}
	}
	return ins.trackOfExpr(e) == trackInt
}

// boundConcrete rewrites a slice bound used at its concrete value: a
// tracked one through rt.Concrete, which counts its term (CauseIndex).
func (ins *instrumenter) boundConcrete(e ast.Expr) ast.Expr {
	if e == nil || ins.isConst(e) || ins.trackOfExpr(e) != trackInt {
		return ins.cx(e)
	}
	ve, ok := ins.v(e)
	if !ok {
		return ins.cx(e)
	}
	return rtCall(rtConcrete, siteLit(ins.newSite(sites.Concrete, e)), rtSel(rtCauseIndex), ve)
}

// vIndex returns the V of an index or bound; untyped constants are ints.
func (ins *instrumenter) vIndex(e ast.Expr) (ast.Expr, bool) {
	if ins.isConst(e) {
		t := ins.typeOf(e)
		if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			return call(rtInst(rtMk, ast.NewIdent("int")), e, nilIdent()), true
		}
	}
	if ins.trackOfExpr(e) != trackInt {
		return nil, false
	}
	return ins.v(e)
}
