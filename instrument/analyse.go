// This file implements the pass before the rewrite: which functions get
// twins, and which variables get shadows.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// twinInfo describes the twin of a function or method.
type twinInfo struct {
	decl *ast.FuncDecl
	fn   *types.Func
	// sig is the signature of a function literal's twin (lit), whose fn
	// is nil; signature() is the one to read.
	sig  *types.Signature
	lit  *ast.FuncLit
	name string
	// xname is the exported forwarder of a method twin in a Support
	// package, which other packages call (call_xmethod.go); "" if none.
	xname   string
	params  []track // per parameter of the signature; notTracked for the variadic one
	results []track // per result
	nShadow int     // number of tracked results, i.e. of shadow results
	// model: the twin is a library model in the runtime (models.go),
	// called as rt.name without the receiver; site: it takes a site first;
	// lib: it takes the library function next (libModels).
	model, site, lib bool
	// dyn: the call goes through a function value (call_dyn.go); sig is the
	// value's signature, and the twin is found at run time.
	dyn bool
	// iface: the call x.M(...) calls a method of an interface value
	// (call_imethod.go); sig is the method's signature, method the interface's
	// method, and the twin is found at run time from x's dynamic type.
	iface  bool
	method *types.Func
}

// signature returns the signature of the function t is the twin of.
func (t *twinInfo) signature() *types.Signature {
	if t.sig != nil {
		return t.sig
	}
	return t.fn.Type().(*types.Signature)
}

// setTracks fills t.params, t.results and t.nShadow from sig. A variadic
// parameter is not tracked.
func (t *twinInfo) setTracks(sig *types.Signature) {
	for i := 0; i < sig.Params().Len(); i++ {
		k := trackOf(sig.Params().At(i).Type())
		if sig.Variadic() && i == sig.Params().Len()-1 {
			k = notTracked
		}
		t.params = append(t.params, k)
	}
	for i := 0; i < sig.Results().Len(); i++ {
		k := trackOf(sig.Results().At(i).Type())
		if k != notTracked {
			t.nShadow++
		}
		t.results = append(t.results, k)
	}
}

// stmtCtx says where a statement stands, which decides how many
// statements its rewrite may become.
type stmtCtx uint8

const (
	ctxBlock stmtCtx = iota // in a statement list: may become several
	ctxInit                 // init or post statement: must stay one
	ctxComm                 // the communication of a select case
)

// analyse decides twins and shadows for the whole package.
func (ins *instrumenter) analyse() {
	// Twins first: parameter candidacy depends on them.
	for _, f := range ins.pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || (fd.Recv == nil && (fd.Name.Name == "init" || fd.Name.Name == "_")) {
				continue
			}
			fn, ok := ins.info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			sig := fn.Type().(*types.Signature)
			t := &twinInfo{decl: fd, fn: fn, name: genPrefix + fd.Name.Name}
			if ins.cfg.Support && fd.Recv == nil && fn.Exported() {
				// Callable from the other packages of the build.
				t.name = "Gcl_" + fd.Name.Name
			}
			if ins.cfg.Support {
				// Methods keep unexported twins, reached from other
				// packages through an exported forwarder (call_xmethod.go).
				t.xname = forwarderName(fn)
			}
			t.setTracks(sig)
			if t.any() {
				ins.twins[fn] = t
			}
		}
	}
	ins.analyseLits()

	cand := make(map[types.Object]bool)
	// Package-level variables.
	scope := ins.pkg.Types.Scope()
	for _, name := range scope.Names() {
		if v, ok := scope.Lookup(name).(*types.Var); ok && trackOf(v.Type()) != notTracked {
			cand[v] = true
		}
	}
	// Parameters and named results of twins, of functions and literals.
	for _, t := range ins.allTwins() {
		sig := t.signature()
		for i := 0; i < sig.Params().Len(); i++ {
			if t.params[i] != notTracked {
				cand[sig.Params().At(i)] = true
			}
		}
		for i := 0; i < sig.Results().Len(); i++ {
			if r := sig.Results().At(i); t.results[i] != notTracked && r.Name() != "" {
				cand[r] = true
			}
		}
	}
	// The arguments of a fuzz function, bound like a twin's parameters.
	for _, obj := range ins.fuzzParamObjects() {
		cand[obj] = true
	}
	// Local variables declared in function bodies (parameters of
	// function literals are a twin's or stay concrete).
	for _, f := range ins.pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				ast.Inspect(n.Body, func(m ast.Node) bool { ins.localCands(m, cand); return true })
				return false
			case *ast.BlockStmt:
				ast.Inspect(n, func(m ast.Node) bool { ins.localCands(m, cand); return true })
				return false
			}
			return true
		})
	}

	no := make(map[types.Object]bool)
	for _, f := range ins.pkg.Syntax {
		ins.disqualify(f, no)
	}
	for obj := range cand {
		if !no[obj] {
			ins.shadow[obj] = true
		}
	}
}

// localCands adds the variables defined at n to cand.
func (ins *instrumenter) localCands(n ast.Node, cand map[types.Object]bool) {
	var ids []*ast.Ident
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE {
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					ids = append(ids, id)
				}
			}
		}
	case *ast.ValueSpec:
		ids = n.Names
	case *ast.RangeStmt:
		if n.Tok == token.DEFINE {
			if id, ok := n.Value.(*ast.Ident); ok {
				ids = append(ids, id)
			}
		}
	}
	for _, id := range ids {
		if v, ok := ins.info.Defs[id].(*types.Var); ok && trackOf(v.Type()) != notTracked {
			cand[v] = true
		}
	}
}

// disqualify marks in no the variables whose shadows could go stale: their
// address is taken, or an assignment to them has a form the rewrite does
// not track.
func (ins *instrumenter) disqualify(f *ast.File, no map[types.Object]bool) {
	mark := func(e ast.Expr) {
		if obj := ins.rootVar(e); obj != nil {
			no[obj] = true
		}
	}
	var visitStmt func(s ast.Stmt, ctx stmtCtx)
	inspect := func(root ast.Node) {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					mark(n.X)
				}
			case *ast.SelectorExpr:
				if sel, ok := ins.info.Selections[n]; ok && sel.Kind() == types.MethodVal {
					if _, isPtr := sel.Recv().Underlying().(*types.Pointer); !isPtr {
						if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
							if _, ptrRecv := sig.Recv().Type().(*types.Pointer); ptrRecv {
								mark(n.X)
							}
						}
					}
				}
			case *ast.BlockStmt:
				for _, s := range n.List {
					visitStmt(s, ctxBlock)
				}
			case *ast.CaseClause:
				for _, s := range n.Body {
					visitStmt(s, ctxBlock)
				}
			case *ast.CommClause:
				if n.Comm != nil {
					visitStmt(n.Comm, ctxComm)
				}
				for _, s := range n.Body {
					visitStmt(s, ctxBlock)
				}
			case *ast.IfStmt:
				visitStmt(n.Init, ctxInit)
			case *ast.ForStmt:
				visitStmt(n.Init, ctxInit)
				visitStmt(n.Post, ctxInit)
			case *ast.SwitchStmt:
				visitStmt(n.Init, ctxInit)
			case *ast.TypeSwitchStmt:
				visitStmt(n.Init, ctxInit)
				visitStmt(n.Assign, ctxComm)
			case *ast.RangeStmt:
				if n.Key != nil {
					mark(n.Key)
				}
				if n.Value != nil {
					// The value of a range loop over a tracked string or
					// slice keeps its shadow when it is a variable; an
					// element or field as the value is assigned concretely.
					if _, ok := n.Value.(*ast.Ident); !ok || !ins.rangeTracked(n.X) {
						mark(n.Value)
					}
				}
			}
			return true
		})
	}
	visitStmt = func(s ast.Stmt, ctx stmtCtx) {
		if s == nil {
			return
		}
		if l, ok := s.(*ast.LabeledStmt); ok {
			visitStmt(l.Stmt, ctx)
			return
		}
		as, ok := s.(*ast.AssignStmt)
		if !ok {
			return
		}
		if !ins.assignTracked(as, ctx) {
			for _, l := range as.Lhs {
				mark(l)
			}
			return
		}
		// A twin gives no shadow for a result whose declared type is not
		// tracked, as a type parameter over []byte | string is not, though
		// the variable it is assigned to may be (time.parseSignedOffset).
		if len(as.Lhs) > 1 && len(as.Rhs) == 1 {
			if t := ins.twinCall(as.Rhs[0]); t != nil {
				for i, k := range t.results {
					if k == notTracked && i < len(as.Lhs) {
						mark(as.Lhs[i])
					}
				}
			}
		}
	}
	inspect(f)
}

// rangeTracked reports whether a range loop over x gets symbolic elements.
func (ins *instrumenter) rangeTracked(x ast.Expr) bool {
	k := ins.trackOfExpr(x)
	return k == trackString || k == trackBytes || ins.scalarSlice(x)
}

// scalarSlice reports whether x is a slice (not a byte slice) whose
// elements the shadow memory holds (scalars, strings, byte slices):
// RangeSlice and its kin yield them as V values.
func (ins *instrumenter) scalarSlice(x ast.Expr) bool {
	t := ins.typeOf(x)
	if t == nil || trackOf(t) == trackBytes {
		return false
	}
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	return trackOf(sl.Elem()) != notTracked
}

// rootVar returns the variable at the root of an addressable expression
// (x in x, x[i], x.f, (x)), when x is a variable; for a slice the root is
// the slice variable whose backing array the expression reaches.
func (ins *instrumenter) rootVar(e ast.Expr) types.Object {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.SelectorExpr:
			if _, ok := ins.info.Selections[x]; !ok {
				return nil // qualified identifier
			}
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		case *ast.Ident:
			if v, ok := ins.info.ObjectOf(x).(*types.Var); ok {
				return v
			}
			return nil
		default:
			return nil
		}
	}
}

// assignTracked reports whether the rewrite keeps the shadows of the
// left-hand variables of as exact, in context ctx.
func (ins *instrumenter) assignTracked(as *ast.AssignStmt, ctx stmtCtx) bool {
	if ctx == ctxComm {
		return false
	}
	switch {
	case len(as.Lhs) == 1 && len(as.Rhs) == 1:
		return true
	case len(as.Lhs) == len(as.Rhs):
		if len(as.Lhs) >= len(rtUnpackN) && ctx != ctxBlock {
			// Only a statement list has room for assignWide's two
			// statements.
			return false
		}
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || ins.trackOfExpr(as.Rhs[i]) == notTracked {
				return false
			}
			if id.Name != "_" && trackOf(ins.typeOf(id)) == notTracked {
				return false
			}
		}
		return true
	case len(as.Rhs) == 1:
		if ins.twinCall(as.Rhs[0]) != nil {
			// The twin hands each result's shadow to its variable;
			// fields and elements among them take theirs through the
			// shadow memory (assignMulti) and do not stop that.
			return true
		}
		for _, l := range as.Lhs {
			if _, ok := l.(*ast.Ident); !ok {
				return false
			}
		}
		if ins.mapOKTracked(as) {
			return true
		}
		return ctx == ctxBlock
	}
	return false
}

// allTwins returns the twins of the package's functions and of its
// function literals.
func (ins *instrumenter) allTwins() []*twinInfo {
	var out []*twinInfo
	for _, t := range ins.twins {
		out = append(out, t)
	}
	for _, t := range ins.litTwins {
		out = append(out, t)
	}
	return out
}
