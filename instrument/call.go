// This file rewrites calls. A call of a function with a twin (of this
// package, of an instrumented import, a model in the runtime, a function
// value (call_dyn.go), an interface method (call_imethod.go) or another
// package's method (call_xmethod.go)) goes to the twin with V arguments;
// any other call runs as written with its parts rewritten, the shadows of
// its tracked arguments dropped at a Concrete site, or becomes an opaque
// call (call_opaque.go). Struct and array arguments hand their cells to
// the callee (call_pass.go).

package instrument

import (
	"go/ast"
	"go/types"

	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/types/typeutil"
)

func (ins *instrumenter) vCall(x *ast.CallExpr) (ast.Expr, bool) {
	if tv, ok := ins.info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
		return ins.vConv(x, tv)
	}
	if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
		if b, ok := ins.info.Uses[id].(*types.Builtin); ok && b.Name() == "len" && len(x.Args) == 1 {
			return ins.vLen(x)
		}
		if c, ok := ins.vMinMax(x); ok {
			return c, true
		}
		if b, ok := ins.info.Uses[id].(*types.Builtin); ok && b.Name() == "cap" && len(x.Args) == 1 {
			return ins.vCap(x)
		}
	}
	if c, ok := ins.appendBytes(x); ok {
		return c, true
	}
	if c, ok := ins.unsafeView(x); ok {
		return c, true
	}
	if c, ok := ins.copyCall(x); ok {
		return c, true
	}
	if c, ok := ins.copyBytes(x); ok {
		return c, true
	}
	if c, ok := ins.makeBytes(x); ok {
		return c, true
	}
	if t := ins.twinCall(x); t != nil && len(t.results) == 1 && t.nShadow == 1 {
		if c, ok := ins.callTwin(x, t); ok {
			return rtCall(rtRet, c), true
		}
	}
	if c, ok := ins.opaqueCall(x); ok {
		return c, true
	}
	return ins.mk(x), true
}

// vMinMax builds the V of min or max over integers, folded left to right
// through rt.Min or rt.Max; it reports false for other calls and for
// min and max of floats and strings, which stay concrete (CauseCall).
func (ins *instrumenter) vMinMax(x *ast.CallExpr) (ast.Expr, bool) {
	name := ins.builtin(x)
	if name != "min" && name != "max" || ins.trackOfExpr(x) != trackInt {
		return nil, false
	}
	fn := rtMin
	if name == "max" {
		fn = rtMax
	}
	var acc ast.Expr
	for _, a := range x.Args {
		if ins.trackOfExpr(a) != trackInt {
			return nil, false
		}
		va, ok := ins.v(a)
		if !ok {
			return nil, false
		}
		if acc == nil {
			acc = va
		} else {
			acc = rtCall(fn, acc, va)
		}
	}
	return acc, acc != nil
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
				va = call(rtInst(rtMk, te), a, nilIdent())
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
	if t.lib {
		lib, ok := libFun(x.Fun)
		if !ok {
			return nil, false
		}
		args = append([]ast.Expr{lib}, args...)
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

// structuralCall rewrites a call whose value is used concretely: a twin
// without shadow results, one of the rewritten builtins, or else the
// call as written with its parts rewritten, its tracked arguments'
// shadows dropped at a Concrete site (dropCause) and struct arguments'
// cells passed (passArg).
func (ins *instrumenter) structuralCall(x *ast.CallExpr) ast.Expr {
	if c, ok := ins.poolGet(x); ok {
		return c
	}
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
					if cause == rtCauseCall {
						ins.sites[len(ins.sites)-1].Callee = ins.calleePkg(x)
					}
				}
				nc.Args[i] = rtCall(rtConcrete, siteLit(uint32(site)), rtSel(cause), va)
				continue
			}
		}
		nc.Args[i] = ins.cx(a)
		if callee != nil && !x.Ellipsis.IsValid() {
			nc.Args[i] = ins.passArg(a, nc.Args[i])
		}
	}
	return &nc
}

// calleePkg returns the import path of the package of the function x
// calls statically, "" for a dynamic call or a builtin: where a user
// could -instrument to keep the arguments symbolic. A function whose one
// result is an error (xerrors.Errorf, pkg/errors.Wrapf) is "" too: its
// arguments become an error's message, which no branch reads, and
// naming its package in the hint gains nothing.
func (ins *instrumenter) calleePkg(x *ast.CallExpr) string {
	fn := typeutil.StaticCallee(ins.info, x)
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	if res := fn.Type().(*types.Signature).Results(); res.Len() == 1 && types.Identical(res.At(0).Type(), types.Universe.Lookup("error").Type()) {
		return ""
	}
	return fn.Pkg().Path()
}

// dropCause returns the name of the runtime's cause (rt.Cause) under
// which the call x, rewritten structurally, drops the shadows of its
// tracked arguments: a conversion the runtime does not model, or a call
// that takes no shadows. It reports false for calls whose arguments go
// nowhere a value could come back from (panic, print, println), for cap
// (its argument's shadow is not its capacity's, which rt.CapSlice reads
// where make recorded one, so the argument drops nothing; a decoder asks
// for it on every refill of its buffer) and for constant
// calls (unsafe.Sizeof), and for the testing package's methods that log
// or stop a test (t.Log(string(b)) in a fuzz target), which return
// nothing and keep nothing the target could read back.
func (ins *instrumenter) dropCause(x *ast.CallExpr) (string, bool) {
	if ins.isConst(x) {
		return "", false
	}
	if ins.testingSink(x) {
		return "", false
	}
	if tv, ok := ins.info.Types[x.Fun]; ok && tv.IsType() {
		return rtCauseConv, true
	}
	if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
		if b, ok := ins.info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "panic", "print", "println", "cap":
				return "", false
			}
		}
	}
	return rtCauseCall, true
}

// testingSink reports whether x calls one of testingSinks, directly or
// through testing.TB.
func (ins *instrumenter) testingSink(x *ast.CallExpr) bool {
	sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := ins.info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "testing" && testingSinks[fn.Name()]
}

// testingSinks are the methods of testing.T, B, F and TB whose
// arguments only reach the test's log.
var testingSinks = map[string]bool{
	"Log": true, "Logf": true, "Error": true, "Errorf": true,
	"Fatal": true, "Fatalf": true, "Skip": true, "Skipf": true,
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

// structuralNoTwin rewrites the arguments of a call but keeps calling the
// original function.
func (ins *instrumenter) structuralNoTwin(c *ast.CallExpr) *ast.CallExpr {
	n := *c
	if fl, ok := c.Fun.(*ast.FuncLit); ok {
		n.Fun = ins.funcLit(fl)
	}
	n.Args = make([]ast.Expr, len(c.Args))
	for i, a := range c.Args {
		n.Args[i] = ins.cx(a)
	}
	return &n
}

// calledFunc returns the function expression of call without parentheses
// and without the instantiation of a generic function.
func calledFunc(call *ast.CallExpr) ast.Expr {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		return f.X
	case *ast.IndexListExpr:
		return f.X
	}
	return fun
}

// twinCall returns the twin called by e, if e is a static call of a
// function or method of this package that has a twin (also as a method
// expression T.M), a call of a function literal with a twin, or a call of
// a local variable bound to a twin (varTwins).
func (ins *instrumenter) twinCall(e ast.Expr) *twinInfo {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if id, isID := ast.Unparen(call.Fun).(*ast.Ident); !isID || ins.varTwins[ins.info.Uses[id]] == nil {
		if t := ins.dynTwin(call); t != nil {
			return ins.checkArgs(call, t)
		}
	}
	var obj types.Object
	var t *twinInfo
	switch f := calledFunc(call).(type) {
	case *ast.FuncLit:
		t = ins.litTwins[f]
	case *ast.Ident:
		obj = ins.info.Uses[f]
		t = ins.varTwins[obj]
	case *ast.SelectorExpr:
		sel, ok := ins.info.Selections[f]
		if !ok {
			// A qualified identifier: a function of an imported package,
			// which has a twin if that package is instrumented too.
			if id, isID := f.X.(*ast.Ident); isID {
				if _, isPkg := ins.info.Uses[id].(*types.PkgName); isPkg {
					obj = ins.info.Uses[f.Sel]
					break
				}
			}
			return nil
		}
		if sel.Kind() != types.MethodVal && sel.Kind() != types.MethodExpr {
			return nil
		}
		if ins.ifaceMethod(sel) {
			return ins.checkArgs(call, ins.ifaceTwin(f, sel))
		}
		obj = sel.Obj()
	default:
		return nil
	}
	if fn, ok := obj.(*types.Func); ok && t == nil {
		// A model comes before a twin, when the modelled package is
		// instrumented too (and inside that package): models stand where
		// the library's code ends in assembly (internal/bytealg) or
		// reaches the runtime's floor, and they call the library
		// function for the result, whose own branches then see no terms,
		// so nothing is counted twice.
		t = ins.modelTwin(fn)
		if t == nil {
			t = ins.twins[fn.Origin()]
		}
		if t == nil {
			t = ins.cfg.Imported.twins[fn.Origin()]
			if t != nil && ins.foreignMethod(t) && !ins.forwardable(call, t) {
				return nil
			}
		}
	}
	return ins.checkArgs(call, t)
}

// checkArgs returns t if call passes its arguments one by one, as a
// twin's V parameters need, nil otherwise.
func (ins *instrumenter) checkArgs(call *ast.CallExpr, t *twinInfo) *twinInfo {
	nargs := len(call.Args)
	if ins.methodExpr(call) {
		nargs-- // the receiver
		if t != nil && t.model {
			return nil
		}
	}
	if t == nil || nargs == 0 && len(t.params) > 0 {
		return nil
	}
	// A single multi-valued argument cannot be split into V parameters.
	// A single argument of a variadic function with nothing for its
	// variadic parameter is one value, and goes to the twin (go-version's
	// NewVersion(v string, opts ...Option) called NewVersion(s)).
	if nargs == 1 && len(t.params) > 1 && (t.model || ins.multiValued(call.Args[len(call.Args)-1])) {
		return nil
	}
	if call.Ellipsis.IsValid() {
		return nil
	}
	return t
}

// multiValued reports whether e is a call with several results (or of
// unknown type), which as the only argument of a call stands for them
// all.
func (ins *instrumenter) multiValued(e ast.Expr) bool {
	tup, ok := ins.typeOf(e).(*types.Tuple)
	return ins.typeOf(e) == nil || ok && tup.Len() != 1
}

// methodExpr reports whether call calls a method expression T.M, whose
// first argument is the receiver.
func (ins *instrumenter) methodExpr(call *ast.CallExpr) bool {
	sel, ok := calledFunc(call).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s, ok := ins.info.Selections[sel]
	return ok && s.Kind() == types.MethodExpr
}

// libFun returns a copy of fun, the function of a call of a modelled
// library function written pkg.F (or F in its own package), for the
// model's library argument.
func libFun(fun ast.Expr) (ast.Expr, bool) {
	if id, ok := ast.Unparen(fun).(*ast.Ident); ok {
		return ast.NewIdent(id.Name), true // inside the modelled package
	}
	sel, ok := ast.Unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil, false
	}
	return &ast.SelectorExpr{X: ast.NewIdent(id.Name), Sel: ast.NewIdent(sel.Sel.Name)}, true
}
