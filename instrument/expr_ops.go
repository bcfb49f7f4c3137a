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
	token.ADD: "Add", token.SUB: "Sub", token.MUL: "Mul",
	token.AND: "And", token.OR: "Or", token.XOR: "Xor", token.AND_NOT: "AndNot",
}

var intCmp = map[token.Token]string{
	token.EQL: "Eq", token.NEQ: "Ne", token.LSS: "Lt", token.LEQ: "Le", token.GTR: "Gt", token.GEQ: "Ge",
}

var floatArith = map[token.Token]string{
	token.ADD: "FAdd", token.SUB: "FSub", token.MUL: "FMul", token.QUO: "FQuo",
}

var floatCmp = map[token.Token]string{
	token.EQL: "FEq", token.NEQ: "FNe", token.LSS: "FLt", token.LEQ: "FLe", token.GTR: "FGt", token.GEQ: "FGe",
}

// ordArith and ordCmp name the operators of trackOrdered values; "/"
// takes a site, for the division-by-zero check of integer instantiations.
var ordArith = map[token.Token]string{
	token.ADD: "OAdd", token.SUB: "OSub", token.MUL: "OMul",
}

var ordCmp = map[token.Token]string{
	token.EQL: "OEq", token.NEQ: "ONe", token.LSS: "OLt", token.LEQ: "OLe", token.GTR: "OGt", token.GEQ: "OGe",
}

var strCmp = map[token.Token]string{
	token.EQL: "EqString", token.NEQ: "NeString", token.LSS: "LtString",
	token.LEQ: "LeString", token.GTR: "GtString", token.GEQ: "GeString",
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
		return ins.asType(rtCall("Mk", ins.cond(x), nilIdent()), x, "ConvBool")
	}
	if name, ops := ins.refCompared(x); name != "" {
		args := make([]ast.Expr, len(ops))
		for i, o := range ops {
			args[i] = ins.cx(o)
		}
		return ins.asType(rtCall(name, args...), x, "ConvBool")
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
				b, ok2 = call(rtInst("Mk", ast.NewIdent("uint")), x.Y, nilIdent()), true
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
			return pick("IfaceIsNil", "IfaceNotNil"), []ast.Expr{p}
		case elem(p) != nil:
			return pick("IsNil", "NotNil"), []ast.Expr{p}
		}
		return "", nil
	}
	if a, b := elem(x.X), elem(x.Y); a != nil && b != nil && types.Identical(a, b) {
		return pick("PtrEq", "PtrNe"), []ast.Expr{x.X, x.Y}
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
			return rtCall("Quo", siteLit(ins.newSite(sites.Implicit, at)), a, b), true
		case token.REM:
			return rtCall("Rem", siteLit(ins.newSite(sites.Implicit, at)), a, b), true
		case token.SHL:
			return rtCall("Shl", siteLit(ins.newSite(sites.Implicit, at)), a, b), true
		case token.SHR:
			return rtCall("Shr", siteLit(ins.newSite(sites.Implicit, at)), a, b), true
		}
		if name, ok := intCmp[op]; ok {
			return ins.asType(rtCall(name, a, b), at, "ConvBool")
		}
	case trackFloat:
		if name, ok := floatArith[op]; ok {
			return rtCall(name, a, b), true
		}
		if name, ok := floatCmp[op]; ok {
			return ins.asType(rtCall(name, a, b), at, "ConvBool")
		}
	case trackBool:
		switch op {
		case token.EQL:
			return ins.asType(rtCall("EqBool", a, b), at, "ConvBool")
		case token.NEQ:
			return ins.asType(rtCall("NeBool", a, b), at, "ConvBool")
		}
	case trackString:
		if op == token.ADD {
			return rtCall("Concat", a, b), true
		}
		if name, ok := strCmp[op]; ok {
			return ins.asType(rtCall(name, a, b), at, "ConvBool")
		}
	case trackOrdered:
		if name, ok := ordArith[op]; ok {
			return rtCall(name, a, b), true
		}
		if op == token.QUO {
			return rtCall("OQuo", siteLit(ins.newSite(sites.Implicit, at)), a, b), true
		}
		if name, ok := ordCmp[op]; ok {
			return ins.asType(rtCall(name, a, b), at, "ConvBool")
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
			name = "FNeg"
		case trackOrdered:
			name = "ONeg"
		default:
			name = "Neg"
		}
	case token.XOR:
		name = "Cpl"
	case token.NOT:
		name = "Not"
	default:
		return ins.mk(x), true
	}
	a, ok := ins.v(x.X)
	if !ok {
		return ins.mk(x), true
	}
	return rtCall(name, a), true
}
