// This file rewrites loops: the condition of a for loop is a branch site,
// and a range over a tracked string or slice becomes a range over the
// runtime's iterator, which records the loop condition.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gocolic/gocolic/sites"
)

// forStmt rewrites a three-clause for loop; its condition is a branch
// site.
func (ins *instrumenter) forStmt(s *ast.ForStmt) *ast.ForStmt {
	init, defined := ins.simple(s.Init)
	post, _ := ins.simple(s.Post)
	n := &ast.ForStmt{For: s.For, Init: init, Post: post, Body: ins.block(s.Body)}
	if s.Cond != nil {
		n.Cond = ins.cond(s.Cond)
	}
	n.Body.List = append(uses(defined), n.Body.List...)
	return n
}

// rangeStmt rewrites for range loops over tracked strings and byte slices
// into range-over-func loops over the runtime's iterators.
func (ins *instrumenter) rangeStmt(s *ast.RangeStmt) ast.Stmt {
	k := ins.trackOfExpr(s.X)
	body := ins.block(s.Body)
	if st, ok := ins.rangeSlice(s, body); ok {
		return st
	}
	if !ins.cfg.RangeOverFunc || (k != trackString && k != trackBytes) || s.Tok == token.ASSIGN {
		return &ast.RangeStmt{For: s.For, Key: s.Key, Value: s.Value, Tok: s.Tok, Range: s.Range, X: ins.cx(s.X), Body: body}
	}
	if ins.trackOfExpr(s.X) != trackOf(ins.typeOf(s.X)) {
		return &ast.RangeStmt{For: s.For, Key: s.Key, Value: s.Value, Tok: s.Tok, Range: s.Range, X: ins.cx(s.X), Body: body}
	}
	vx, ok := ins.v(s.X)
	if !ok {
		return &ast.RangeStmt{For: s.For, Key: s.Key, Value: s.Value, Tok: s.Tok, Range: s.Range, X: ins.cx(s.X), Body: body}
	}
	var iter ast.Expr
	if k == trackBytes {
		iter = rtCall(rtRangeBytes, siteLit(ins.newSite(sites.Loop, s.X)), vx)
	} else {
		loop := ins.newSite(sites.Loop, s.X)
		iter = rtCall(rtRangeString, siteLit(loop), siteLit(ins.newSite(sites.Implicit, s.X)), vx)
	}
	return ins.rangeOver(s, iter, body, false, false)
}

// rangeSlice rewrites a range loop over a slice other than a byte slice
// into one over rt.RangeSlice (scalar elements, as V values) or
// rt.RangeSliceOf (other elements), which record the loop condition
// against the slice's length shadow.
func (ins *instrumenter) rangeSlice(s *ast.RangeStmt, body *ast.BlockStmt) (ast.Stmt, bool) {
	t := ins.typeOf(s.X)
	if !ins.cfg.RangeOverFunc || s.Tok == token.ASSIGN || t == nil || trackOf(t) == trackBytes {
		return nil, false
	}
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return nil, false
	}
	site := siteLit(ins.newSite(sites.Loop, s.X))
	if ins.scalarSlice(s.X) {
		name := rtRangeSlice
		switch trackOf(sl.Elem()) {
		case trackOrdered:
			name = rtRangeSliceOrd
		case trackString:
			name = rtRangeSliceString
		case trackBytes:
			name = rtRangeSliceBytes
		}
		return ins.rangeOver(s, rtCall(name, site, ins.cx(s.X)), body, false, false), true
	}
	return ins.rangeOver(s, rtCall(rtRangeSliceOf, site, ins.cx(s.X)), body, true, hasLeaves(sl.Elem(), 0)), true
}

// rangeOver builds the range-over-func loop over iter for s. The value
// variable is bound from the V the iterator yields, or, when the iterator
// yields plain values, directly, taking its shadows with rt.Take when
// take is set.
func (ins *instrumenter) rangeOver(s *ast.RangeStmt, iter ast.Expr, body *ast.BlockStmt, plain, take bool) ast.Stmt {
	n := &ast.RangeStmt{For: s.For, Key: s.Key, Tok: s.Tok, X: iter, Body: body}
	if s.Key == nil && s.Value == nil {
		n.Tok = token.ILLEGAL
		return n
	}
	if n.Key == nil {
		n.Key = ast.NewIdent("_")
	}
	if s.Value != nil {
		vid, _ := s.Value.(*ast.Ident)
		if vid == nil || vid.Name == "_" {
			return n
		}
		if plain {
			n.Value = vid
			if take {
				body.List = append([]ast.Stmt{&ast.ExprStmt{X: rtCall(rtTake, addrOf(ast.NewIdent(vid.Name)))}}, body.List...)
			}
			return n
		}
		tmp := ins.newTemp("v")
		n.Value = tmp
		var pre []ast.Stmt
		if obj := ins.info.Defs[vid]; obj != nil && ins.shadow[obj] {
			sh := ins.shadowName(obj)
			pre = []ast.Stmt{
				&ast.AssignStmt{Lhs: []ast.Expr{vid, ast.NewIdent(sh)}, Tok: token.DEFINE, Rhs: []ast.Expr{rtCall(rtUnpack, ast.NewIdent(tmp.Name))}},
				use(vid.Name), use(sh),
			}
		} else {
			pre = []ast.Stmt{
				&ast.AssignStmt{Lhs: []ast.Expr{vid}, Tok: token.DEFINE, Rhs: []ast.Expr{field(ast.NewIdent(tmp.Name), vConcrete)}},
				use(vid.Name),
			}
		}
		body.List = append(pre, body.List...)
	}
	return n
}
