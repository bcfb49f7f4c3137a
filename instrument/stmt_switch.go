// This file rewrites switches, type switches and selects: a tagged switch
// over a tracked value compares the tag with each case as a branch site.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gocolic/gocolic/sites"
)

// switchStmt rewrites a switch. A tagged switch over a tracked value
// becomes a tagless one whose cases compare the tag, each comparison a
// branch site; the tag is evaluated once, before the cases, as in Go.
func (ins *instrumenter) switchStmt(s *ast.SwitchStmt, label *ast.Ident) []ast.Stmt {
	init, defined := ins.simple(s.Init)
	n := &ast.SwitchStmt{Switch: s.Switch, Init: init, Body: &ast.BlockStmt{}}
	var tag *ast.Ident
	var tagKind track
	hasCases := false
	for _, c := range s.Body.List {
		hasCases = hasCases || c.(*ast.CaseClause).List != nil
	}
	if s.Tag != nil {
		tagKind = ins.trackOfExpr(s.Tag)
		if hasCases && (tagKind == trackInt || tagKind == trackBool || tagKind == trackString || tagKind == trackOrdered) {
			if vt, ok := ins.v(s.Tag); ok {
				tag = ins.newTemp("tag")
				// The tag lives in the switch's own init, so that the
				// switch stays one statement and keeps its label.
				n.Init = &ast.AssignStmt{Lhs: []ast.Expr{tag}, Tok: token.DEFINE, Rhs: []ast.Expr{vt}}
				if init != nil {
					// switch init; tag {...} becomes
					// switch init; { default: switch t := v(tag); {...} }
					inner := &ast.SwitchStmt{Init: n.Init, Body: &ast.BlockStmt{}}
					outer := &ast.SwitchStmt{Switch: s.Switch, Init: init, Body: &ast.BlockStmt{List: []ast.Stmt{
						&ast.CaseClause{Body: append(uses(defined), inner)},
					}}}
					defined = nil
					ins.switchCases(s, inner, tag, tagKind, nil)
					return ins.labeled(label, outer)
				}
			}
		}
		if tag == nil {
			n.Tag = ins.cx(s.Tag)
		}
	}
	ins.switchCases(s, n, tag, tagKind, defined)
	return ins.labeled(label, n)
}

// switchCases rewrites the clauses of s into n. With a tag temporary,
// each case value is compared with it as a branch site of its own.
func (ins *instrumenter) switchCases(s, n *ast.SwitchStmt, tag *ast.Ident, tagKind track, defined []string) {
	for i, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		nc := &ast.CaseClause{Case: cc.Case, Colon: cc.Colon, Body: ins.stmts(cc.Body)}
		if i == 0 {
			nc.Body = append(uses(defined), nc.Body...)
		}
		switch {
		case cc.List == nil:
		case tag != nil:
			var e ast.Expr
			for _, ce := range cc.List {
				var atom ast.Expr
				if vc, ok := ins.v(ce); ok {
					atom = ins.branchCall(ins.caseSite(s.Tag, ce), eqCall(tagKind, ast.NewIdent(tag.Name), vc))
				} else {
					atom = &ast.BinaryExpr{X: field(ast.NewIdent(tag.Name), vConcrete), Op: token.EQL, Y: ins.cx(ce)}
				}
				if e == nil {
					e = atom
				} else {
					e = &ast.BinaryExpr{X: e, Op: token.LOR, Y: atom}
				}
			}
			nc.List = []ast.Expr{e}
		case s.Tag == nil:
			for _, ce := range cc.List {
				nc.List = append(nc.List, ins.cond(ce))
			}
		default:
			for _, ce := range cc.List {
				nc.List = append(nc.List, ins.cx(ce))
			}
		}
		n.Body.List = append(n.Body.List, nc)
	}
}

// caseSite makes the branch site of case value ce of a switch on tag,
// named by the comparison it stands for ("wantScale == 0", not "0"),
// which reports and case names show.
func (ins *instrumenter) caseSite(tag, ce ast.Expr) uint32 {
	id := ins.newSite(sites.Cond, ce)
	text := types.ExprString(tag) + " == " + types.ExprString(ce)
	if len(text) > 60 {
		text = text[:57] + "..."
	}
	ins.sites[id-ins.cfg.SiteBase].Text = text
	return id
}

// eqCall is the runtime equality of two V values of family k; its result
// is a V[bool] whatever the operands' type.
func eqCall(k track, a, b ast.Expr) ast.Expr {
	switch k {
	case trackBool:
		return rtCall(rtEqBool, a, b)
	case trackString:
		return rtCall(rtEqString, a, b)
	case trackOrdered:
		return rtCall(rtOEq, a, b)
	}
	return rtCall(rtEq, a, b)
}

// typeSwitchStmt rewrites a type switch: the switched value goes through
// the runtime's choice of dynamic type (typeSwitchX), and a case that
// binds a tracked value unboxes its shadow.
func (ins *instrumenter) typeSwitchStmt(s *ast.TypeSwitchStmt) *ast.TypeSwitchStmt {
	init, defined := ins.simple(s.Init)
	assign := s.Assign
	switch a := s.Assign.(type) {
	case *ast.AssignStmt:
		ta := a.Rhs[0].(*ast.TypeAssertExpr)
		assign = &ast.AssignStmt{Lhs: a.Lhs, Tok: a.Tok, Rhs: []ast.Expr{&ast.TypeAssertExpr{X: ins.typeSwitchX(s, ta.X)}}}
	case *ast.ExprStmt:
		ta := a.X.(*ast.TypeAssertExpr)
		assign = &ast.ExprStmt{X: &ast.TypeAssertExpr{X: ins.typeSwitchX(s, ta.X)}}
	}
	n := &ast.TypeSwitchStmt{Switch: s.Switch, Init: init, Assign: assign, Body: &ast.BlockStmt{}}
	for i, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		body := ins.stmts(cc.Body)
		if u := ins.unboxCase(s, cc); u != nil {
			body = append([]ast.Stmt{u}, body...)
		}
		if i == 0 {
			body = append(uses(defined), body...)
		}
		n.Body.List = append(n.Body.List, &ast.CaseClause{List: cc.List, Body: body})
	}
	return n
}

// selectStmt rewrites the communications and bodies of a select.
func (ins *instrumenter) selectStmt(s *ast.SelectStmt) *ast.SelectStmt {
	n := &ast.SelectStmt{Select: s.Select, Body: &ast.BlockStmt{}}
	for _, c := range s.Body.List {
		cc := c.(*ast.CommClause)
		comm := cc.Comm
		switch cm := cc.Comm.(type) {
		case *ast.SendStmt:
			comm = &ast.SendStmt{Chan: ins.cx(cm.Chan), Value: ins.cx(cm.Value)}
		case *ast.ExprStmt:
			comm = &ast.ExprStmt{X: ins.recvExpr(cm.X)}
		case *ast.AssignStmt:
			comm = &ast.AssignStmt{Lhs: cm.Lhs, Tok: cm.Tok, Rhs: []ast.Expr{ins.recvExpr(cm.Rhs[0])}}
		}
		n.Body.List = append(n.Body.List, &ast.CommClause{Comm: comm, Body: ins.stmts(cc.Body)})
	}
	return n
}
