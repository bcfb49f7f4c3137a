package cfa

// This file finds dead code by syntax: go/ssa builds no block for the
// statements after a return, so their sites match no If, and the map
// alone cannot tell them from a gap of its own. The syntax can, for the
// plainest case, which is all that is claimed: in a statement list, a
// statement that follows one that always leaves the list, with no label
// at or between them, never runs (a goto may only jump to a label of an
// enclosing or the same list, and a label inside a later statement's
// block is reached only from inside that block).

import (
	"go/ast"
	"go/types"

	"github.com/gocolic/gocolic/sites"
)

// addDead notes the dead statements of n's statement list, if n has one.
func (s *syntax) addDead(n ast.Node, info *types.Info, sp func(ast.Node) span) {
	var list []ast.Stmt
	switch x := n.(type) {
	case *ast.BlockStmt:
		list = x.List
	case *ast.CaseClause:
		list = x.Body
	case *ast.CommClause:
		list = x.Body
	default:
		return
	}
	for i, st := range list {
		if !leaves(st, info) {
			continue
		}
		for _, after := range list[i+1:] {
			if _, ok := after.(*ast.LabeledStmt); ok {
				return // a goto may land here
			}
			s.dead[sp(after)] = true
		}
		return
	}
}

// leaves reports whether st always transfers control out of its
// statement list: a return, a branch statement (break, continue, goto,
// fallthrough), a call of the built-in panic, a block ending in one, an if
// whose both branches end in one. It is a part of the language's
// terminating statements, enough for the code it is asked about, and it
// errs towards false: a loop without condition, a call of os.Exit, a
// switch whose every case returns are not counted.
func leaves(st ast.Stmt, info *types.Info) bool {
	switch x := st.(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := ast.Unparen(x.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		b, ok := info.Uses[id].(*types.Builtin)
		return ok && b.Name() == "panic"
	case *ast.BlockStmt:
		return len(x.List) > 0 && leaves(x.List[len(x.List)-1], info)
	case *ast.IfStmt:
		return x.Else != nil && leaves(x.Body, info) && leaves(x.Else, info)
	}
	return false
}

// isDead reports whether site lies inside a dead statement.
func (s *syntax) isDead(site sites.Site) bool {
	for d := range s.dead {
		if d.file == site.Pos.Filename && d.start <= site.Pos.Offset && site.End.Offset <= d.end {
			return true
		}
	}
	return false
}
