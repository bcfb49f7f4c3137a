package cfa

// This file maps the implicit checks (sites.Implicit) to the SSA
// instructions that make them: an index or slice bound, a division by
// zero, a negative shift count, a type assertion without comma-ok.
// go/ssa does not branch on them: the instruction panics. Such a site is
// a point of its block, like a comma-ok assertion, except that one
// outcome (Branch.Panics) leaves the function.

import (
	"fmt"
	"go/ast"
	"go/token"

	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/ssa"
)

// A check is an expression that makes an implicit check: where go/ssa
// puts the instruction that makes it (the position of its [, operator
// or ( ), and which instructions may.
type check struct {
	at   token.Pos
	kind checkKind
}

type checkKind uint8

const (
	checkIndex  checkKind = iota + 1 // x[i], x[i:j]: the false outcome panics
	checkDivide                      // x / y, x % y, x << n, x >> n: the true outcome panics
	checkAssert                      // x.(T): the false outcome panics
)

// addCheck notes n, found by syntax.add, if it is an expression that
// makes an implicit check.
func (s *syntax) addCheck(n ast.Node, sp func(ast.Node) span) {
	switch x := n.(type) {
	case *ast.IndexExpr:
		s.checks[sp(x)] = check{x.Lbrack, checkIndex}
	case *ast.SliceExpr:
		s.checks[sp(x)] = check{x.Lbrack, checkIndex}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.QUO, token.REM, token.SHL, token.SHR:
			s.checks[sp(x)] = check{x.OpPos, checkDivide}
		}
	case *ast.TypeAssertExpr:
		if x.Type != nil {
			s.checks[sp(x)] = check{x.Lparen, checkAssert}
		}
	case *ast.AssignStmt:
		// go/ssa puts the operation of x op= y at the statement's start.
		switch x.Tok {
		case token.QUO_ASSIGN, token.REM_ASSIGN, token.SHL_ASSIGN, token.SHR_ASSIGN:
			s.checks[sp(x)] = check{x.Pos(), checkDivide}
		}
	}
}

// makesCheck reports whether in is an instruction that makes a check of
// kind k.
func makesCheck(in ssa.Instruction, k checkKind) bool {
	switch in := in.(type) {
	case *ssa.IndexAddr, *ssa.Index, *ssa.Slice:
		return k == checkIndex
	case *ssa.BinOp:
		switch in.Op {
		case token.QUO, token.REM, token.SHL, token.SHR:
			return k == checkDivide
		}
	case *ssa.TypeAssert:
		return k == checkAssert && !in.CommaOk
	}
	return false
}

// mapChecks maps the implicit sites of table: a site maps when it is the
// only implicit site of its expression, the expression makes a check,
// and exactly one instruction of that kind sits at the check's position.
// Anything else stays unmapped with the reason: an operand of &&/||
// compiled twice, a compound assignment b[i] += x (one IndexAddr, two
// sites), a range over a string (two sites on one expression), a call
// of a modelled library function (its site is no check of the
// language), an index of a map.
func (g *Graph) mapChecks(table []sites.Site, syn *syntax, at map[token.Pos][]*Branch) {
	n := map[span]int{}
	for _, s := range table {
		if s.Kind == sites.Implicit {
			n[span{s.Pos.Filename, s.Pos.Offset, s.End.Offset}]++
		}
	}
	for _, s := range table {
		if s.Kind != sites.Implicit || s.Std {
			continue
		}
		sp := span{s.Pos.Filename, s.Pos.Offset, s.End.Offset}
		c, ok := syn.checks[sp]
		var why string
		var bs []*Branch
		switch {
		case n[sp] > 1:
			why = fmt.Sprintf("implicit check: %d sites on one expression", n[sp])
		case !ok:
			why = "implicit check of no index, slice, division, shift or assertion: SSA form does not branch on it"
		default:
			for _, b := range at[c.at] {
				if makesCheck(b.Block.Instrs[b.index], c.kind) {
					bs = append(bs, b)
				}
			}
			switch len(bs) {
			case 0:
				why = "implicit check: no SSA instruction makes it (code go/ssa found unreachable, or a map index)"
			case 1:
			default:
				why = fmt.Sprintf("implicit check: %d SSA instructions make it", len(bs))
			}
		}
		if why != "" {
			g.unmapped = append(g.unmapped, Unmapped{Site: s.ID, Why: why})
			continue
		}
		br := *bs[0]
		br.Site, br.Check, br.Panics = s.ID, true, c.kind == checkDivide
		g.branches[s.ID] = &br
		g.mapped = append(g.mapped, s.ID)
	}
}

// instrAt indexes the instructions of the graph's functions that may make
// a check by their position.
func (g *Graph) instrAt() map[token.Pos][]*Branch {
	at := map[token.Pos][]*Branch{}
	for _, f := range g.funcs {
		for _, b := range f.Blocks {
			for i, in := range b.Instrs {
				for _, k := range []checkKind{checkIndex, checkDivide, checkAssert} {
					if makesCheck(in, k) && in.Pos().IsValid() {
						at[in.Pos()] = append(at[in.Pos()], &Branch{Func: f, Block: b, index: i})
						break
					}
				}
			}
		}
	}
	return at
}
