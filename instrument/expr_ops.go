// This file rewrites the operators: the V of a binary or unary expression
// through the runtime's operator of the operands' family (int, float,
// bool, string, ordered type parameter), and comparisons of references.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gocolic/gocolic/sites"
)

var arith = map[token.Token]string{
	token.ADD: rtAdd, token.SUB: rtSub, token.MUL: rtMul,
	token.AND: rtAnd, token.OR: rtOr, token.XOR: rtXor, token.AND_NOT: rtAndNot,
}

var intCmp = map[token.Token]string{
	token.EQL: rtEq, token.NEQ: rtNe, token.LSS: rtLt, token.LEQ: rtLe, token.GTR: rtGt, token.GEQ: rtGe,
}

var floatArith = map[token.Token]string{
	token.ADD: rtFAdd, token.SUB: rtFSub, token.MUL: rtFMul, token.QUO: rtFQuo,
}

var floatCmp = map[token.Token]string{
	token.EQL: rtFEq, token.NEQ: rtFNe, token.LSS: rtFLt, token.LEQ: rtFLe, token.GTR: rtFGt, token.GEQ: rtFGe,
}

// ordArith and ordCmp name the operators of trackOrdered values; "/"
// takes a site, for the division-by-zero check of integer instantiations.
var ordArith = map[token.Token]string{
	token.ADD: rtOAdd, token.SUB: rtOSub, token.MUL: rtOMul,
}

var ordCmp = map[token.Token]string{
	token.EQL: rtOEq, token.NEQ: rtONe, token.LSS: rtOLt, token.LEQ: rtOLe, token.GTR: rtOGt, token.GEQ: rtOGe,
}

var strCmp = map[token.Token]string{
	token.EQL: rtEqString, token.NEQ: rtNeString, token.LSS: rtLtString,
	token.LEQ: rtLeString, token.GTR: rtGtString, token.GEQ: rtGeString,
}

// opAssign maps an assignment operator to its binary operator.
var opAssign = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB, token.MUL_ASSIGN: token.MUL,
	token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM, token.AND_ASSIGN: token.AND,
	token.OR_ASSIGN: token.OR, token.XOR_ASSIGN: token.XOR, token.SHL_ASSIGN: token.SHL,
	token.SHR_ASSIGN: token.SHR, token.AND_NOT_ASSIGN: token.AND_NOT,
}

func (ins *instrumenter) vBinary(x *ast.BinaryExpr) (ast.Expr, bool) {
	if x.Op == token.LAND || x.Op == token.LOR {
		return ins.asType(rtCall(rtMk, ins.cond(x), nilIdent()), x, rtConvBool)
	}
	if name, ops := ins.refCompared(x); name != "" {
		args := make([]ast.Expr, len(ops))
		for i, o := range ops {
			args[i] = ins.cx(o)
		}
		return ins.asType(rtCall(name, args...), x, rtConvBool)
	}
	l, r := ins.trackOfExpr(x.X), ins.trackOfExpr(x.Y)
	if l == notTracked || (r == notTracked && x.Op != token.SHL && x.Op != token.SHR) {
		return ins.mk(x), true
	}
	if x.Op == token.SHL || x.Op == token.SHR {
		if r != trackInt {
			return ins.mk(x), true
		}
	}
	a, ok1 := ins.v(x.X)
	b, ok2 := ins.v(x.Y)
	if !ok1 || !ok2 {
		if x.Op == token.SHL || x.Op == token.SHR {
			// A constant shift count may be untyped; name it as uint.
			if ok1 && !ok2 && ins.isConst(x.Y) {
				b, ok2 = call(rtInst(rtMk, ast.NewIdent("uint")), x.Y, nilIdent()), true
			}
		}
		if !ok1 || !ok2 {
			return ins.mk(x), true
		}
	}
	return ins.binop(x.Op, a, b, l, x)
}

// refCompared returns the runtime function that evaluates x, an == or !=
// of references whose shadows come from the inputs' choices, and the
// operands it takes: p == nil for a pointer p (rt.IsNil, either way
// round), x == nil for an interface x (rt.IfaceIsNil), and p == q for two
// pointers to one type (rt.PtrEq, through the pointer inputs'
// identities). The name is "" for any other x.
func (ins *instrumenter) refCompared(x *ast.BinaryExpr) (string, []ast.Expr) {
	if x.Op != token.EQL && x.Op != token.NEQ {
		return "", nil
	}
	pick := func(eq, ne string) string {
		if x.Op == token.NEQ {
			return ne
		}
		return eq
	}
	isNil := func(e ast.Expr) bool { return ins.info.Types[e].IsNil() }
	elem := func(e ast.Expr) types.Type {
		if t := ins.typeOf(e); t != nil && !isNil(e) {
			if p, ok := t.Underlying().(*types.Pointer); ok {
				return p.Elem()
			}
		}
		return nil
	}
	p, n := x.X, x.Y
	if isNil(p) {
		p, n = n, p
	}
	if isNil(n) {
		switch t := ins.typeOf(p); {
		case t == nil:
		case types.IsInterface(t):
			return pick(rtIfaceIsNil, rtIfaceNotNil), []ast.Expr{p}
		case elem(p) != nil:
			return pick(rtIsNil, rtNotNil), []ast.Expr{p}
		}
		return "", nil
	}
	if a, b := elem(x.X), elem(x.Y); a != nil && b != nil && types.Identical(a, b) {
		return pick(rtPtrEq, rtPtrNe), []ast.Expr{x.X, x.Y}
	}
	return "", nil
}

// binop builds the V expression of a op b for operands of family k; at is
// the node implicit sites are attributed to.
func (ins *instrumenter) binop(op token.Token, a, b ast.Expr, k track, at ast.Expr) (ast.Expr, bool) {
	switch k {
	case trackInt:
		if name, ok := arith[op]; ok {
			return rtCall(name, a, b), true
		}
		switch op {
		case token.QUO:
			return rtCall(rtQuo, siteLit(ins.newSite(sites.Implicit, at)), a, b), true
		case token.REM:
			return rtCall(rtRem, siteLit(ins.newSite(sites.Implicit, at)), a, b), true
		case token.SHL:
			return rtCall(rtShl, siteLit(ins.newSite(sites.Implicit, at)), a, b), true
		case token.SHR:
			return rtCall(rtShr, siteLit(ins.newSite(sites.Implicit, at)), a, b), true
		}
		if name, ok := intCmp[op]; ok {
			return ins.asType(rtCall(name, a, b), at, rtConvBool)
		}
	case trackFloat:
		if name, ok := floatArith[op]; ok {
			return rtCall(name, a, b), true
		}
		if name, ok := floatCmp[op]; ok {
			return ins.asType(rtCall(name, a, b), at, rtConvBool)
		}
	case trackBool:
		switch op {
		case token.EQL:
			return ins.asType(rtCall(rtEqBool, a, b), at, rtConvBool)
		case token.NEQ:
			return ins.asType(rtCall(rtNeBool, a, b), at, rtConvBool)
		}
	case trackString:
		if op == token.ADD {
			return rtCall(rtConcat, a, b), true
		}
		if name, ok := strCmp[op]; ok {
			return ins.asType(rtCall(name, a, b), at, rtConvBool)
		}
	case trackOrdered:
		if name, ok := ordArith[op]; ok {
			return rtCall(name, a, b), true
		}
		if op == token.QUO {
			return rtCall(rtOQuo, siteLit(ins.newSite(sites.Implicit, at)), a, b), true
		}
		if name, ok := ordCmp[op]; ok {
			return ins.asType(rtCall(name, a, b), at, rtConvBool)
		}
	}
	return ins.mk(at), true
}

func (ins *instrumenter) vUnary(x *ast.UnaryExpr) (ast.Expr, bool) {
	var name string
	switch x.Op {
	case token.ADD:
		return ins.v(x.X)
	case token.SUB:
		switch ins.trackOfExpr(x.X) {
		case trackFloat:
			name = rtFNeg
		case trackOrdered:
			name = rtONeg
		default:
			name = rtNeg
		}
	case token.XOR:
		name = rtCpl
	case token.NOT:
		name = rtNot
	default:
		return ins.mk(x), true
	}
	a, ok := ins.v(x.X)
	if !ok {
		return ins.mk(x), true
	}
	return rtCall(name, a), true
}
