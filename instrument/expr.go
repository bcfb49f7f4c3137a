// This file rewrites expressions: v builds the V pair of a tracked
// expression, cx rewrites an expression whose value is used concretely,
// and cond turns a condition into branch sites.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/gocolic/gocolic/sites"
)

// rtName is the name under which rewritten files import the runtime.
const rtName = "_gcl"

func rtSel(name string) ast.Expr {
	return &ast.SelectorExpr{X: ast.NewIdent(rtName), Sel: ast.NewIdent(name)}
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
	n := "_gcl_s_" + obj.Name()
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
			return call(rtInst("Mk", te), ins.structural(e), nilIdent())
		}
	}
	return rtCall("Mk", ins.structural(e), nilIdent())
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
		return call(rtInst("Mk", te), e, nilIdent()), true
	}
	if tv.Value != nil {
		te, ok := ins.typeExpr(tv.Type)
		if !ok {
			return nil, false
		}
		return call(rtInst("Mk", te), e, nilIdent()), true
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return ins.v(x.X)
	case *ast.Ident:
		if obj, ok := ins.info.ObjectOf(x).(*types.Var); ok {
			return rtCall("Mk", x, ins.shadowRef(obj)), true
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
				name := "IndexString"
				if k == trackBytes {
					name = "IndexBytes"
				}
				return ins.asType(rtCall(name, siteLit(ins.newSite(sites.Implicit, x)), s, i), x, "Conv")
			}
		}
		if r, ok := ins.mapIndex(x, "MapIndex"); ok {
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

func (ins *instrumenter) vCall(x *ast.CallExpr) (ast.Expr, bool) {
	if tv, ok := ins.info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
		to, from := trackOf(tv.Type), ins.trackOfExpr(x.Args[0])
		var name string
		switch {
		case (to == trackOrdered || from == trackOrdered) && numericSet(tv.Type) && numericSet(ins.typeOf(x.Args[0])):
			// An ordered type parameter on either side: the runtime
			// picks the conversion by the kinds of both at run time.
			name = "ConvN"
		case to == trackInt && from == trackInt:
			name = "Conv"
		case to == trackFloat && from == trackFloat:
			name = "ConvFF"
		case to == trackFloat && from == trackInt:
			name = "ConvIF"
		case to == trackInt && from == trackFloat:
			name = "ConvFI"
		case to == trackBool && from == trackBool:
			name = "ConvBool"
		case to == trackString && from == trackString:
			name = "ConvString"
		case to == trackString && from == trackBytes:
			name = "StringOfBytes"
		case to == trackBytes && from == trackString:
			name = "BytesOfString"
		case to == trackBytes && from == trackBytes:
			name = "ConvBytes"
		default:
			return ins.mk(x), true
		}
		a, ok := ins.v(x.Args[0])
		if !ok {
			return ins.mk(x), true
		}
		return call(rtInst(name, x.Fun), a), true
	}
	if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
		if b, ok := ins.info.Uses[id].(*types.Builtin); ok && b.Name() == "len" && len(x.Args) == 1 {
			var name string
			switch ins.trackOfExpr(x.Args[0]) {
			case trackString:
				name = "LenString"
			case trackBytes:
				name = "LenBytes"
			default:
				if r, ok := ins.lenMap(x.Args[0]); ok {
					return r, true
				}
				if t := ins.typeOf(x.Args[0]); t != nil {
					if _, isSlice := t.Underlying().(*types.Slice); isSlice {
						return rtCall("LenSlice", siteLit(ins.newSite(sites.Concrete, x)), ins.cx(x.Args[0])), true
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
	}
	if c, ok := ins.appendBytes(x); ok {
		return c, true
	}
	if c, ok := ins.copyCall(x); ok {
		return c, true
	}
	if t := ins.twinCall(x); t != nil && len(t.results) == 1 && t.nShadow == 1 {
		if c, ok := ins.callTwin(x, t); ok {
			return rtCall("Ret", c), true
		}
	}
	if c, ok := ins.opaqueCall(x); ok {
		return c, true
	}
	return ins.mk(x), true
}

func (ins *instrumenter) vSlice(x *ast.SliceExpr) (ast.Expr, bool) {
	k := ins.trackOfExpr(x.X)
	if (k != trackString && k != trackBytes) || x.Slice3 {
		return ins.mk(x), true
	}
	// x[lo:hi] on an array pointer or with untracked bounds stays concrete.
	if tv := ins.typeOf(x.X); tv == nil || trackOf(tv) != k {
		return ins.mk(x), true
	}
	s, ok := ins.v(x.X)
	if !ok {
		return ins.mk(x), true
	}
	lo := ast.Expr(rtCall("Mk", &ast.BasicLit{Kind: token.INT, Value: "0"}, nilIdent()))
	if x.Low != nil {
		if lo, ok = ins.vIndex(x.Low); !ok {
			return ins.mk(x), true
		}
	}
	site := siteLit(ins.newSite(sites.Implicit, x))
	suffix := "String"
	if k == trackBytes {
		suffix = "Bytes"
	}
	if x.High == nil {
		return rtCall("Slice"+suffix+"From", site, s, lo), true
	}
	hi, ok := ins.vIndex(x.High)
	if !ok {
		return ins.mk(x), true
	}
	return rtCall("Slice"+suffix, site, s, lo, hi), true
}

// vIndex returns the V of an index or bound; untyped constants are ints.
func (ins *instrumenter) vIndex(e ast.Expr) (ast.Expr, bool) {
	if ins.isConst(e) {
		t := ins.typeOf(e)
		if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			return call(rtInst("Mk", ast.NewIdent("int")), e, nilIdent()), true
		}
	}
	if ins.trackOfExpr(e) != trackInt {
		return nil, false
	}
	return ins.v(e)
}

// callTwin builds the call of twin t for the original call x, with V
// arguments for tracked parameters. The arguments are rewritten before
// the function, so that a literal's twin is built only when the call
// goes to it.
func (ins *instrumenter) callTwin(x *ast.CallExpr, t *twinInfo) (ast.Expr, bool) {
	// The signature as called: instantiated, when the callee is generic,
	// and with the receiver first for a method expression T.M.
	ft := ins.typeOf(x.Fun)
	if ft == nil {
		return nil, false
	}
	sig, ok := ft.Underlying().(*types.Signature)
	if !ok {
		return nil, false
	}
	off := 0
	if ins.methodExpr(x) {
		off = 1
	}
	args := make([]ast.Expr, len(x.Args))
	for i, a := range x.Args {
		if j := i - off; j >= 0 && j < len(t.params) && t.params[j] != notTracked {
			pt := sig.Params().At(i).Type()
			untyped := ins.isConst(a) || isNil(a, ins)
			if !untyped && !types.Identical(ins.typeOf(a), pt) {
				// Assignable but not identical (a Buf for a []byte):
				// V[Buf] is not V[[]byte]; call the wrapper instead.
				return nil, false
			}
			va, ok := ins.v(a)
			if !ok || untyped {
				// An untyped constant or nil takes the parameter's type.
				te, tok := ins.typeExpr(pt)
				if !tok || !untyped {
					return nil, false
				}
				va = call(rtInst("Mk", te), a, nilIdent())
			}
			args[i] = va
			continue
		}
		args[i] = ins.cx(a)
		if !t.model {
			args[i] = ins.passArg(a, args[i])
		}
	}
	var nf ast.Expr
	if t.dyn {
		if nf, ok = ins.dynFun(x, t); !ok {
			return nil, false
		}
	} else if t.iface {
		var recv ast.Expr
		if nf, recv, ok = ins.ifaceFun(x, t); !ok {
			return nil, false
		}
		args = append([]ast.Expr{recv}, args...)
	} else if ins.foreignMethod(t) {
		var recv ast.Expr
		nf, recv = ins.forwarderCall(x, t)
		if recv != nil {
			args = append([]ast.Expr{recv}, args...)
		}
	} else if nf = ins.twinFun(ast.Unparen(x.Fun), t); nf == nil {
		return nil, false
	}
	if t.site {
		args = append([]ast.Expr{siteLit(ins.newSite(sites.Implicit, x))}, args...)
	}
	return &ast.CallExpr{Fun: nf, Args: args}, true
}

// twinFun returns the function expression that calls twin t in place of
// fun, the original's (instantiated, if generic); nil if there is none.
func (ins *instrumenter) twinFun(fun ast.Expr, t *twinInfo) ast.Expr {
	rename := func(e ast.Expr) ast.Expr {
		if t.model {
			ins.keepImportUsed(e)
			return rtSel(t.name)
		}
		switch f := e.(type) {
		case *ast.Ident:
			return ast.NewIdent(t.name)
		case *ast.FuncLit:
			return ins.twinLit(f, t)
		case *ast.SelectorExpr:
			sel, ok := ins.info.Selections[f]
			if ok && sel.Kind() == types.MethodExpr {
				return &ast.SelectorExpr{X: f.X, Sel: ast.NewIdent(t.name)}
			}
			x := ins.cx(f.X)
			if ok && sel.Kind() == types.MethodVal {
				// The method as selected: of the instantiated type, when
				// the receiver's type is generic.
				x = ins.passRecv(sel.Obj().(*types.Func), f.X, x)
			}
			return &ast.SelectorExpr{X: x, Sel: ast.NewIdent(t.name)}
		}
		return nil
	}
	switch f := fun.(type) {
	case *ast.IndexExpr:
		if inner := rename(ast.Unparen(f.X)); inner != nil {
			return &ast.IndexExpr{X: inner, Index: f.Index}
		}
		return nil
	case *ast.IndexListExpr:
		if inner := rename(ast.Unparen(f.X)); inner != nil {
			return &ast.IndexListExpr{X: inner, Indices: f.Indices}
		}
		return nil
	}
	return rename(fun)
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
			return field(ve, "C")
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
		if t := ins.twinCall(x); t != nil && t.nShadow == 0 {
			if c, ok := ins.callTwin(x, t); ok {
				return c
			}
		}
		if c, ok := ins.testingReport(x); ok {
			return c
		}
		if c, ok := ins.makeSlice(x); ok {
			return c
		}
		if c, ok := ins.builtinCall(x); ok {
			return c
		}
		nc := *x
		if tv, ok := ins.info.Types[x.Fun]; !ok || !tv.IsType() {
			nc.Fun = ins.cx(x.Fun)
		}
		callee := ins.localCallee(x)
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
			if nsel, ok := nc.Fun.(*ast.SelectorExpr); ok {
				rx := nsel.X
				if callee != nil {
					rx = ins.passRecv(callee, sel.X, rx)
				}
				nc.Fun = &ast.SelectorExpr{X: ins.passIface(sel, rx), Sel: nsel.Sel}
			}
		}
		nc.Args = make([]ast.Expr, len(x.Args))
		cause, counted := ins.dropCause(x)
		site := int64(-1)
		for i, a := range x.Args {
			if counted && ins.mayBeSymbolic(a) {
				if va, ok := ins.vArg(a); ok {
					if site < 0 {
						site = int64(ins.newSite(sites.Concrete, x))
					}
					nc.Args[i] = rtCall("Concrete", siteLit(uint32(site)), rtSel(cause), va)
					continue
				}
			}
			nc.Args[i] = ins.cx(a)
			if callee != nil && !x.Ellipsis.IsValid() {
				nc.Args[i] = ins.passArg(a, nc.Args[i])
			}
		}
		return &nc
	case *ast.IndexExpr:
		if tv, ok := ins.info.Types[x.Index]; ok && tv.IsType() {
			return x
		}
		return &ast.IndexExpr{X: ins.cxAddressable(x.X), Index: ins.cx(x.Index)}
	case *ast.SliceExpr:
		n := *x
		n.X = ins.cxAddressable(x.X)
		n.Low, n.High, n.Max = ins.cx(x.Low), ins.cx(x.High), ins.cx(x.Max)
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
		return ins.funcLit(x)
	}
	return e
}

// dropCause returns the name of the runtime's cause (rt.Cause) under
// which the call x, rewritten structurally, drops the shadows of its
// tracked arguments: a conversion the runtime does not model, or a call
// that takes no shadows. It reports false for calls whose arguments go
// nowhere a value could come back from (panic, print, println) and for
// constant calls (unsafe.Sizeof).
func (ins *instrumenter) dropCause(x *ast.CallExpr) (string, bool) {
	if ins.isConst(x) {
		return "", false
	}
	if tv, ok := ins.info.Types[x.Fun]; ok && tv.IsType() {
		return "CauseConv", true
	}
	if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
		if b, ok := ins.info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "panic", "print", "println":
				return "", false
			}
		}
	}
	return "CauseCall", true
}

// mayBeSymbolic reports whether e is a tracked value that may carry a
// shadow at run time: not a constant or nil, and not a variable without
// a shadow variable.
func (ins *instrumenter) mayBeSymbolic(e ast.Expr) bool {
	tv, ok := ins.info.Types[e]
	if !ok || tv.Value != nil || tv.IsNil() || tv.IsType() || ins.trackOfExpr(e) == notTracked {
		return false
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		obj := ins.info.ObjectOf(id)
		return obj != nil && ins.shadow[obj]
	}
	return true
}

// vArg returns the V of a call's argument whose shadow the call drops
// (rt.Concrete). A location of the shadow memory is read with its cell
// but without the bounds check or case split of rt.LoadIndex, which the
// original argument did not record either.
func (ins *instrumenter) vArg(a ast.Expr) (ast.Expr, bool) {
	if k, ok := ins.memLoc(a); ok {
		return rtCall(memOp[k].load, siteLit(ins.newSite(sites.Concrete, a)), addrOf(ins.lvalue(ast.Unparen(a)))), true
	}
	return ins.v(a)
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
		return &ast.IndexExpr{X: ins.lvalue(x.X), Index: ins.cx(x.Index)}
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
	return rtCall("Br", siteLit(site), ve)
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
			n.Elts[i] = &ast.KeyValueExpr{Key: key, Value: ins.cx(kv.Value)}
			continue
		}
		n.Elts[i] = ins.cx(el)
	}
	return &n
}
