// This file gives function literals and local function variables twins,
// so that closures take and return shadows like the package's functions.

package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// litTwinName is the name of the variable that holds the twin of the
// local function variable named name.
func litTwinName(name string) string { return litTwinPrefix + name }

// analyseLits gives a twin to every function literal with tracked
// parameters or results (but the fuzz function, which fuzz.go rewrites),
// and binds to a twin each local variable that is defined in a statement
// list by f := literal or f := x.Method (a method of the package with a
// twin, on a receiver that can be evaluated twice) and never assigned
// again: calls f(...) then call the twin with V arguments.
func (ins *instrumenter) analyseLits() {
	for _, f := range ins.pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			fl, ok := n.(*ast.FuncLit)
			if !ok || (ins.fuzz != nil && fl == ins.fuzz.lit) {
				return true
			}
			sig, ok := ins.typeOf(fl).(*types.Signature)
			if !ok {
				return true
			}
			t := &twinInfo{sig: sig, lit: fl}
			t.setTracks(sig)
			if t.any() {
				ins.litTwins[fl] = t
			}
			return true
		})
	}
	assigned := ins.assignedVars()
	for _, f := range ins.pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			var list []ast.Stmt
			switch n := n.(type) {
			case *ast.BlockStmt:
				list = n.List
			case *ast.CaseClause:
				list = n.Body
			case *ast.CommClause:
				list = n.Body
			}
			for _, s := range list {
				if obj, t := ins.boundDef(s); t != nil && !assigned[obj] {
					bt := *t
					bt.name = litTwinName(obj.Name())
					ins.varTwins[obj] = &bt
				}
			}
			return true
		})
	}
}

// any reports whether t has a tracked parameter or result, i.e. whether
// the function needs a twin at all.
func (t *twinInfo) any() bool {
	if t.nShadow > 0 {
		return true
	}
	for _, k := range t.params {
		if k != notTracked {
			return true
		}
	}
	return false
}

// assignedVars returns the variables that are assigned after their
// definition or whose address is taken: a twin bound at the definition
// could then call a function the variable no longer holds.
func (ins *instrumenter) assignedVars() map[types.Object]bool {
	out := make(map[types.Object]bool)
	mark := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if obj := ins.info.Uses[id]; obj != nil {
				out[obj] = true
			}
		}
	}
	for _, f := range ins.pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					mark(l) // a redefinition in := is a use
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					mark(n.X)
				}
			case *ast.RangeStmt:
				if n.Tok == token.ASSIGN {
					mark(n.Key)
					mark(n.Value)
				}
			}
			return true
		})
	}
	return out
}

// boundDef returns the variable that the statement s defines as a
// function with a twin, f := literal or f := x.Method, and that twin.
func (ins *instrumenter) boundDef(s ast.Stmt) (types.Object, *twinInfo) {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, nil
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil, nil
	}
	obj, ok := ins.info.Defs[id].(*types.Var)
	if !ok {
		return nil, nil
	}
	switch r := ast.Unparen(as.Rhs[0]).(type) {
	case *ast.FuncLit:
		if t := ins.litTwins[r]; t != nil {
			return obj, t
		}
	case *ast.SelectorExpr:
		if t := ins.methodValueTwin(r); t != nil {
			return obj, t
		}
	}
	return nil, nil
}

// methodValueTwin returns the twin of the method of the method value
// x.M, if M is a concrete method of the package with a twin and x can be
// evaluated a second time without effects (the twin is bound as x._gcl_M
// beside the original method value).
func (ins *instrumenter) methodValueTwin(sel *ast.SelectorExpr) *twinInfo {
	s, ok := ins.info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal || types.IsInterface(s.Recv()) || !ins.pure(sel.X) {
		return nil
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok {
		return nil
	}
	return ins.twins[fn.Origin()]
}

// boundStmt rewrites f := literal or f := x.Method for a variable bound
// to a twin (varTwins) into the twin's definition and f's: f is then the
// wrapper of the twin literal, or the method value as written, for every
// use other than a direct call.
func (ins *instrumenter) boundStmt(s *ast.AssignStmt) ([]ast.Stmt, bool) {
	obj, _ := ins.boundDef(s)
	t := ins.varTwins[obj]
	if t == nil {
		return nil, false
	}
	id := s.Lhs[0].(*ast.Ident)
	var twin, val ast.Expr
	switch r := ast.Unparen(s.Rhs[0]).(type) {
	case *ast.FuncLit:
		lt := ins.litTwins[r]
		twin = ins.twinLit(r, lt)
		val = ins.wrapperLit(r, lt, ast.NewIdent(t.name))
	case *ast.SelectorExpr:
		twin = &ast.SelectorExpr{X: ins.lvalue(r.X), Sel: ast.NewIdent(ins.methodValueTwin(r).name)}
		val = ins.structural(r)
	}
	return []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(t.name)}, Tok: token.DEFINE, Rhs: []ast.Expr{twin}},
		&ast.AssignStmt{Lhs: []ast.Expr{id}, Tok: token.DEFINE, Rhs: []ast.Expr{val}},
		use(t.name), use(id.Name),
	}, true
}

// twinLit builds the twin of the function literal fl: the literal with V
// parameters and shadow results, as twinDecl does for declarations.
func (ins *instrumenter) twinLit(fl *ast.FuncLit, t *twinInfo) *ast.FuncLit {
	ft, prologue := ins.twinType(fl.Type, t)
	saved := ins.fn
	ctx := &funcCtx{twin: t, results: fl.Type.Results, parent: saved}
	ins.fn = ctx
	body := ins.block(fl.Body)
	ins.fn = saved
	// A literal has no receiver: a declaration of its type alone gives
	// takes the parameters whose shadows callers hand over (rt.Pass).
	body.List = append(append(append(ins.markers(fl), prologue...), ins.takes(&ast.FuncDecl{Type: fl.Type})...), body.List...)
	withOwn(ctx, body)
	return &ast.FuncLit{Type: ft, Body: body}
}

// funcLitValue rewrites a function literal used as a value (passed on,
// stored, returned). One with tracked parameters or results becomes
// rt.Closure(twin, func(f twinType) litType { return wrapper of f }): the
// wrapper has the literal's type, and the runtime registers the twin
// under it, so that instrumented code that calls the value
// (strings.IndexFunc, sort.Search, a callback in a field) calls the twin
// through rt.Dyn instead of dropping the shadows of its arguments.
func (ins *instrumenter) funcLitValue(fl *ast.FuncLit) ast.Expr {
	t := ins.litTwins[fl]
	if t == nil {
		return ins.funcLit(fl)
	}
	twin := ins.twinLit(fl, t)
	f := ast.NewIdent(funName)
	wrap := &ast.FuncLit{
		Type: &ast.FuncType{
			Params:  &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{f}, Type: twin.Type}}},
			Results: &ast.FieldList{List: []*ast.Field{{Type: fl.Type}}},
		},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ReturnStmt{Results: []ast.Expr{ins.wrapperLit(fl, t, ast.NewIdent(funName))}}}},
	}
	return rtCall(rtClosure, twin, wrap)
}

// wrapperLit builds a literal of fl's type that calls twin, the twin of
// fl, with concrete values: the value of fl wherever it is not called
// directly (passed to sort.Slice, stored, started by go).
func (ins *instrumenter) wrapperLit(fl *ast.FuncLit, t *twinInfo, twin ast.Expr) *ast.FuncLit {
	params, body := wrapperBody(flatten(fl.Type.Params), t, twin, func(i int, _ *ast.Field) string {
		return fmt.Sprintf("%s%d", argPrefix, i)
	})
	return &ast.FuncLit{
		Type: &ast.FuncType{Func: fl.Type.Func, Params: &ast.FieldList{List: params}, Results: fl.Type.Results},
		Body: &ast.BlockStmt{List: body},
	}
}
