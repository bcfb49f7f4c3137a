// This file rewrites conversions between tracked types: the V of T(x)
// through the runtime's conversion between the two families.

package instrument

import (
	"go/ast"
	"go/types"
)

// vConv returns the V of the conversion x to the type tv, through the
// runtime's conversion between the two families; a conversion it does
// not model is concrete.
func (ins *instrumenter) vConv(x *ast.CallExpr, tv types.TypeAndValue) (ast.Expr, bool) {
	to, from := trackOf(tv.Type), ins.trackOfExpr(x.Args[0])
	var name string
	switch {
	case (to == trackOrdered || from == trackOrdered) && numericSet(tv.Type) && numericSet(ins.typeOf(x.Args[0])):
		// An ordered type parameter on either side: the runtime
		// picks the conversion by the kinds of both at run time.
		name = rtConvN
	case to == trackInt && from == trackInt:
		name = rtConv
	case to == trackFloat && from == trackFloat:
		name = rtConvFF
	case to == trackFloat && from == trackInt:
		name = rtConvIF
	case to == trackInt && from == trackFloat:
		name = rtConvFI
	case to == trackBool && from == trackBool:
		name = rtConvBool
	case to == trackString && from == trackString:
		name = rtConvString
	case to == trackString && from == trackBytes:
		name = rtStringOfBytes
	case to == trackString && from == trackInt:
		name = rtStringOfRune
	case to == trackBytes && from == trackString:
		name = rtBytesOfString
	case to == trackBytes && from == trackBytes:
		name = rtConvBytes
	default:
		return ins.mk(x), true
	}
	a, ok := ins.v(x.Args[0])
	if !ok {
		return ins.mk(x), true
	}
	return call(rtInst(name, x.Fun), a), true
}
