// This file rewrites statements.

package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gocolic/gocolic/sites"
)

func (ins *instrumenter) newTemp(prefix string) *ast.Ident {
	ins.tmp++
	return ast.NewIdent(fmt.Sprintf("_gcl_%s%d", prefix, ins.tmp))
}

// use returns the statement _ = name, which keeps a generated variable
// from being reported as unused.
func use(name string) ast.Stmt {
	return &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{ast.NewIdent(name)}}
}

func (ins *instrumenter) block(b *ast.BlockStmt) *ast.BlockStmt {
	if b == nil {
		return nil
	}
	return &ast.BlockStmt{Lbrace: b.Lbrace, List: ins.stmts(b.List), Rbrace: b.Rbrace}
}

func (ins *instrumenter) stmts(list []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for _, s := range list {
		out = append(out, ins.stmt(s, nil)...)
	}
	return out
}

// stmt rewrites a statement of a statement list into one or more. A label
// stays on the statement it named (the first of a simple statement's
// rewrite), so that goto, break and continue keep their targets.
func (ins *instrumenter) stmt(s ast.Stmt, label *ast.Ident) []ast.Stmt {
	switch s.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
	default:
		if label != nil {
			out := ins.stmt(s, nil)
			if len(out) == 0 {
				out = []ast.Stmt{&ast.EmptyStmt{Implicit: true}}
			}
			out[0] = &ast.LabeledStmt{Label: label, Stmt: out[0]}
			return out
		}
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		if out, ok := ins.boundStmt(s); ok {
			return out
		}
		out, defined := ins.assign(s, ctxBlock)
		for _, name := range defined {
			out = append(out, use(name))
		}
		return out
	case *ast.IncDecStmt:
		st := ins.incDec(s)
		if _, kept := st.(*ast.IncDecStmt); kept {
			return append([]ast.Stmt{st}, ins.invalidate(s.X, ctxBlock)...)
		}
		return []ast.Stmt{st}
	case *ast.ExprStmt:
		if ins.fuzz != nil && s == ins.fuzz.stmt {
			return ins.fuzzStmt(s)
		}
		if t := ins.twinCall(s.X); t != nil {
			if c, ok := ins.callTwin(ast.Unparen(s.X).(*ast.CallExpr), t); ok {
				return []ast.Stmt{&ast.ExprStmt{X: c}}
			}
		}
		// A call statement discards its results: rewrite its parts only,
		// since a V wrapper around it would be an unused value; so would
		// the concrete value of a builtin's V (copy's count).
		x := ins.structural(s.X)
		if sel, ok := x.(*ast.SelectorExpr); ok && sel.Sel.Name == "C" {
			if c, ok := sel.X.(*ast.CallExpr); ok {
				x = c
			}
		}
		return []ast.Stmt{&ast.ExprStmt{X: x}}
	case *ast.DeclStmt:
		return ins.declStmt(s)
	case *ast.ReturnStmt:
		return ins.returnStmt(s)
	case *ast.IfStmt:
		return []ast.Stmt{ins.ifStmt(s)}
	case *ast.ForStmt:
		init, defined := ins.simple(s.Init)
		post, _ := ins.simple(s.Post)
		n := &ast.ForStmt{For: s.For, Init: init, Post: post, Body: ins.block(s.Body)}
		if s.Cond != nil {
			n.Cond = ins.cond(s.Cond)
		}
		n.Body.List = append(uses(defined), n.Body.List...)
		return ins.labeled(label, n)
	case *ast.RangeStmt:
		return ins.labeled(label, ins.rangeStmt(s))
	case *ast.SwitchStmt:
		return ins.switchStmt(s, label)
	case *ast.TypeSwitchStmt:
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
		return ins.labeled(label, n)
	case *ast.SelectStmt:
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
		return ins.labeled(label, n)
	case *ast.LabeledStmt:
		return ins.stmt(s.Stmt, s.Label)
	case *ast.BlockStmt:
		return ins.labeled(label, ins.block(s))
	case *ast.GoStmt:
		// Goroutines run concretely: they call the original functions.
		c := ins.structuralNoTwin(s.Call)
		return []ast.Stmt{&ast.GoStmt{Go: s.Go, Call: c}}
	case *ast.DeferStmt:
		c, ok := ins.cx(s.Call).(*ast.CallExpr)
		if !ok {
			c = s.Call
		}
		return []ast.Stmt{&ast.DeferStmt{Defer: s.Defer, Call: c}}
	case *ast.SendStmt:
		return []ast.Stmt{&ast.SendStmt{Chan: ins.cx(s.Chan), Value: ins.cx(s.Value)}}
	}
	return ins.labeled(label, s)
}

func (ins *instrumenter) recvExpr(e ast.Expr) ast.Expr {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return &ast.UnaryExpr{Op: token.ARROW, X: ins.cx(u.X)}
	}
	return e
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

func (ins *instrumenter) labeled(label *ast.Ident, s ast.Stmt) []ast.Stmt {
	if label == nil {
		return []ast.Stmt{s}
	}
	return []ast.Stmt{&ast.LabeledStmt{Label: label, Stmt: s}}
}

func uses(names []string) []ast.Stmt {
	var out []ast.Stmt
	for _, n := range names {
		out = append(out, use(n))
	}
	return out
}

// simple rewrites an init or post statement, which must stay one
// statement; it returns the shadows the statement defines.
func (ins *instrumenter) simple(s ast.Stmt) (ast.Stmt, []string) {
	switch s := s.(type) {
	case nil:
		return nil, nil
	case *ast.AssignStmt:
		out, defined := ins.assign(s, ctxInit)
		if len(out) == 1 {
			return out[0], defined
		}
		return s, nil // cannot happen: analyse disqualified such variables
	case *ast.IncDecStmt:
		return ins.incDec(s), nil
	case *ast.ExprStmt:
		return &ast.ExprStmt{X: ins.cx(s.X)}, nil
	case *ast.SendStmt:
		return &ast.SendStmt{Chan: ins.cx(s.Chan), Value: ins.cx(s.Value)}, nil
	}
	return s, nil
}

func (ins *instrumenter) ifStmt(s *ast.IfStmt) *ast.IfStmt {
	init, defined := ins.simple(s.Init)
	n := &ast.IfStmt{If: s.If, Init: init, Cond: ins.unboxIfInit(s.Init, ins.cond(s.Cond)), Body: ins.block(s.Body)}
	n.Body.List = append(uses(defined), n.Body.List...)
	switch e := s.Else.(type) {
	case *ast.IfStmt:
		n.Else = ins.ifStmt(e)
	case *ast.BlockStmt:
		n.Else = ins.block(e)
	}
	return n
}

func (ins *instrumenter) incDec(s *ast.IncDecStmt) ast.Stmt {
	name := "Inc"
	op := token.ADD
	if s.Tok == token.DEC {
		name, op = "Dec", token.SUB
	}
	switch ins.trackOfExpr(s.X) {
	case trackFloat:
		name += "F"
	case trackOrdered:
		name += "O"
	}
	if id, obj := ins.shadowedIdent(s.X); id != nil {
		sh := ast.NewIdent(ins.shadowName(obj))
		return &ast.AssignStmt{
			Lhs: []ast.Expr{id, sh}, Tok: token.ASSIGN,
			Rhs: []ast.Expr{rtCall(name, id, ast.NewIdent(ins.shadowName(obj)))},
		}
	}
	if st, ok := ins.storeByte(s.X, func(old func() ast.Expr) (ast.Expr, bool) {
		o := old()
		if o == nil {
			return nil, false
		}
		return ins.binop(op, o, call(rtInst("Mk", ast.NewIdent("byte")), &ast.BasicLit{Kind: token.INT, Value: "1"}, nilIdent()), trackInt, s.X)
	}); ok {
		return st
	}
	if st, ok := ins.mapApply(s.X, op, nil); ok {
		return st
	}
	if st, ok := ins.applyMem(s.X, op, nil); ok {
		return st
	}
	return &ast.IncDecStmt{X: ins.lvalue(s.X), Tok: s.Tok}
}

// storeByte rewrites a store b[i] = f(b[i]) into a byte slice b with a
// shadow; value builds the stored V, calling old for the V of the old
// element when it reads it (old returns nil when the index may not be
// evaluated twice).
func (ins *instrumenter) storeByte(lhs ast.Expr, value func(old func() ast.Expr) (ast.Expr, bool)) (ast.Stmt, bool) {
	ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
	if !ok {
		return nil, false
	}
	id, obj := ins.shadowedIdent(ix.X)
	if id == nil || ins.trackOfExpr(ix.X) != trackBytes || ins.trackOfExpr(ix.Index) != trackInt {
		return nil, false
	}
	idx, ok := ins.v(ix.Index)
	if !ok {
		return nil, false
	}
	old := func() ast.Expr {
		if _, simple := ast.Unparen(ix.Index).(*ast.Ident); !simple && !ins.isConst(ix.Index) {
			return nil
		}
		return rtCall("IndexBytes", siteLit(ins.newSite(sites.Implicit, ix)), rtCall("Mk", id, ast.NewIdent(ins.shadowName(obj))), idx)
	}
	val, ok := value(old)
	if !ok {
		return nil, false
	}
	site := siteLit(ins.newSite(sites.Implicit, ix))
	// The call takes the statement's position, so that a panic in the
	// store is reported on the store's line.
	fun := &ast.SelectorExpr{X: &ast.Ident{Name: rtName, NamePos: lhs.Pos()}, Sel: ast.NewIdent("StoreBytes")}
	return &ast.ExprStmt{X: call(fun, site,
		&ast.UnaryExpr{Op: token.AND, X: id},
		&ast.UnaryExpr{Op: token.AND, X: ast.NewIdent(ins.shadowName(obj))},
		idx, val)}, true
}

// assign rewrites an assignment; it returns the statements and the names
// of shadows that := defines (which the caller marks as used).
func (ins *instrumenter) assign(s *ast.AssignStmt, ctx stmtCtx) ([]ast.Stmt, []string) {
	if op, ok := opAssign[s.Tok]; ok {
		return ins.opAssignStmt(s, op), nil
	}
	switch {
	case len(s.Lhs) == 1 && len(s.Rhs) == 1:
		return ins.assign1(s, ctx)
	case len(s.Lhs) == len(s.Rhs):
		return ins.assignParallel(s, ctx)
	default:
		return ins.assignMulti(s, ctx)
	}
}

// newShadow reports whether the := statement s defines the variable of id
// (rather than assigning an existing one).
func (ins *instrumenter) defines(s *ast.AssignStmt, id *ast.Ident) bool {
	return s.Tok == token.DEFINE && ins.info.Defs[id] != nil
}

func (ins *instrumenter) assign1(s *ast.AssignStmt, ctx stmtCtx) ([]ast.Stmt, []string) {
	lhs, rhs := s.Lhs[0], s.Rhs[0]
	if id, obj := ins.shadowedIdent(lhs); id != nil {
		sh := ins.shadowName(obj)
		var defined []string
		if ins.defines(s, id) {
			defined = []string{sh}
		}
		ve, ok := ins.v(rhs)
		if !ok {
			var nilShadow ast.Expr = nilIdent()
			if s.Tok == token.DEFINE {
				nilShadow = call(&ast.ParenExpr{X: &ast.StarExpr{X: rtSel("Expr")}}, nilIdent())
			}
			return []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{id, ast.NewIdent(sh)}, Tok: s.Tok, Rhs: []ast.Expr{ins.cx(rhs), nilShadow}}}, defined
		}
		return []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{id, ast.NewIdent(sh)}, Tok: s.Tok, Rhs: []ast.Expr{rtCall("Unpack", ve)}}}, defined
	}
	if s.Tok == token.ASSIGN {
		if st, ok := ins.storeByte(lhs, func(func() ast.Expr) (ast.Expr, bool) {
			if ins.trackOfExpr(rhs) != trackInt {
				return nil, false
			}
			return ins.v(rhs)
		}); ok {
			return []ast.Stmt{st}, nil
		}
		if st, ok := ins.mapStore(lhs, rhs); ok {
			return []ast.Stmt{st}, nil
		}
		if st, ok := ins.storeMem(lhs, rhs); ok {
			return []ast.Stmt{st}, nil
		}
	}
	if ctx == ctxBlock {
		if out, ok := ins.litAssign(s); ok {
			return out, nil
		}
	}
	out := []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ins.lvalue(lhs)}, Tok: s.Tok, Rhs: []ast.Expr{ins.cx(rhs)}}}
	if ctx == ctxBlock {
		out = append(out, ins.copyMem(lhs, rhs)...)
		if u := ins.unboxAssign(lhs, rhs); u != nil {
			out = append(out, &ast.ExprStmt{X: u})
		}
	}
	return append(out, ins.invalidate(lhs, ctx)...), nil
}

// invalidate returns the statement that forgets the shadow of a byte
// slice written through an expression the rewrite does not track.
func (ins *instrumenter) invalidate(lhs ast.Expr, ctx stmtCtx) []ast.Stmt {
	if _, isIdent := ast.Unparen(lhs).(*ast.Ident); isIdent || ctx != ctxBlock {
		return nil
	}
	obj := ins.rootVar(lhs)
	if obj == nil || !ins.shadow[obj] {
		return nil
	}
	return []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(ins.shadowName(obj))}, Tok: token.ASSIGN, Rhs: []ast.Expr{nilIdent()}}}
}

func (ins *instrumenter) opAssignStmt(s *ast.AssignStmt, op token.Token) []ast.Stmt {
	lhs, rhs := s.Lhs[0], s.Rhs[0]
	k := ins.trackOfExpr(lhs)
	if id, obj := ins.shadowedIdent(lhs); id != nil {
		cur := rtCall("Mk", id, ast.NewIdent(ins.shadowName(obj)))
		var r ast.Expr
		ok := true
		if op == token.SHL || op == token.SHR {
			r, ok = ins.vIndex(rhs)
			if !ok && ins.isConst(rhs) {
				r, ok = call(rtInst("Mk", ast.NewIdent("uint")), rhs, nilIdent()), true
			}
		} else {
			r, ok = ins.v(rhs)
		}
		if ok {
			if ve, ok := ins.binop(op, cur, r, k, &ast.BinaryExpr{X: lhs, Op: op, Y: rhs, OpPos: s.TokPos}); ok {
				return []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{id, ast.NewIdent(ins.shadowName(obj))}, Tok: token.ASSIGN, Rhs: []ast.Expr{rtCall("Unpack", ve)}}}
			}
		}
		// Fall back to a concrete update that forgets the shadow.
		return []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{id, ast.NewIdent(ins.shadowName(obj))}, Tok: token.ASSIGN,
			Rhs: []ast.Expr{&ast.BinaryExpr{X: id, Op: op, Y: ins.cx(rhs)}, nilIdent()}}}
	}
	if k == trackInt {
		if st, ok := ins.storeByte(lhs, func(old func() ast.Expr) (ast.Expr, bool) {
			o := old()
			if o == nil {
				return nil, false
			}
			r, ok := ins.v(rhs)
			if !ok {
				return nil, false
			}
			return ins.binop(op, o, r, trackInt, lhs)
		}); ok {
			return []ast.Stmt{st}
		}
	}
	if st, ok := ins.mapApply(lhs, op, rhs); ok {
		return []ast.Stmt{st}
	}
	if st, ok := ins.applyMem(lhs, op, rhs); ok {
		return []ast.Stmt{st}
	}
	out := []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ins.lvalue(lhs)}, Tok: s.Tok, Rhs: []ast.Expr{ins.cx(rhs)}}}
	return append(out, ins.invalidate(lhs, ctxBlock)...)
}

// assignParallel rewrites a, b = x, y.
func (ins *instrumenter) assignParallel(s *ast.AssignStmt, ctx stmtCtx) ([]ast.Stmt, []string) {
	any := false
	for _, l := range s.Lhs {
		if id, _ := ins.shadowedIdent(l); id != nil {
			any = true
		}
	}
	if any && len(s.Lhs) <= 3 {
		var vals, shadows []ast.Expr
		var defined []string
		ok := true
		for i, l := range s.Lhs {
			ve, vok := ins.v(s.Rhs[i])
			ok = ok && vok
			vals = append(vals, ve)
			if id, obj := ins.shadowedIdent(l); id != nil {
				shadows = append(shadows, ast.NewIdent(ins.shadowName(obj)))
				if ins.defines(s, id) {
					defined = append(defined, ins.shadowName(obj))
				}
			} else {
				shadows = append(shadows, ast.NewIdent("_"))
			}
		}
		if ok {
			lhs := append(append([]ast.Expr{}, s.Lhs...), shadows...)
			return []ast.Stmt{&ast.AssignStmt{Lhs: lhs, Tok: s.Tok, Rhs: []ast.Expr{rtCall(fmt.Sprintf("Unpack%d", len(vals)), vals...)}}}, defined
		}
	}
	n := &ast.AssignStmt{Tok: s.Tok}
	for i := range s.Lhs {
		n.Lhs = append(n.Lhs, ins.lvalue(s.Lhs[i]))
		n.Rhs = append(n.Rhs, ins.cx(s.Rhs[i]))
	}
	out := []ast.Stmt{n}
	for _, l := range s.Lhs {
		out = append(out, ins.invalidate(l, ctx)...)
	}
	return out, nil
}

// assignMulti rewrites a, b = f() and the comma-ok forms.
func (ins *instrumenter) assignMulti(s *ast.AssignStmt, ctx stmtCtx) ([]ast.Stmt, []string) {
	rhs := s.Rhs[0]
	if st, defined, ok := ins.mapIndexOK(s); ok {
		return []ast.Stmt{st}, defined
	}
	var defined []string
	if t := ins.twinCall(rhs); t != nil {
		if c, ok := ins.callTwin(ast.Unparen(rhs).(*ast.CallExpr), t); ok {
			lhs := append([]ast.Expr{}, s.Lhs...)
			for i, k := range t.results {
				if k == notTracked {
					continue
				}
				if id, obj := ins.shadowedIdent(s.Lhs[i]); id != nil {
					lhs = append(lhs, ast.NewIdent(ins.shadowName(obj)))
					if ins.defines(s, id) {
						defined = append(defined, ins.shadowName(obj))
					}
				} else {
					lhs = append(lhs, ast.NewIdent("_"))
				}
			}
			return []ast.Stmt{&ast.AssignStmt{Lhs: lhs, Tok: s.Tok, Rhs: []ast.Expr{c}}}, defined
		}
	}
	n := &ast.AssignStmt{Tok: s.Tok, Rhs: []ast.Expr{ins.cxMulti(rhs)}}
	for _, l := range s.Lhs {
		n.Lhs = append(n.Lhs, ins.lvalue(l))
	}
	out := []ast.Stmt{n}
	if ctx != ctxBlock {
		return out, nil
	}
	if u := ins.unboxAssign(s.Lhs[0], rhs); u != nil {
		out = append(out, &ast.ExprStmt{X: u})
	}
	for _, l := range s.Lhs {
		id, obj := ins.shadowedIdent(l)
		if id == nil {
			out = append(out, ins.invalidate(l, ctx)...)
			continue
		}
		sh := ins.shadowName(obj)
		if ins.defines(s, id) {
			out = append(out, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{
				&ast.ValueSpec{Names: []*ast.Ident{ast.NewIdent(sh)}, Type: &ast.StarExpr{X: rtSel("Expr")}}}}})
			defined = append(defined, sh)
		} else {
			out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(sh)}, Tok: token.ASSIGN, Rhs: []ast.Expr{nilIdent()}})
		}
	}
	return out, defined
}

// cxMulti rewrites the multi-valued right side of a comma-ok or multi
// assignment, keeping its form (m[k], x.(T), <-c, f()).
func (ins *instrumenter) cxMulti(e ast.Expr) ast.Expr {
	switch x := ast.Unparen(e).(type) {
	case *ast.IndexExpr:
		return &ast.IndexExpr{X: ins.cx(x.X), Index: ins.cx(x.Index)}
	case *ast.TypeAssertExpr:
		return ins.typeAssert(x, true)
	case *ast.UnaryExpr:
		return ins.recvExpr(x)
	case *ast.CallExpr:
		return ins.structural(x)
	}
	return e
}

// declStmt rewrites var declarations inside functions.
func (ins *instrumenter) declStmt(s *ast.DeclStmt) []ast.Stmt {
	gd, ok := s.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR {
		return []ast.Stmt{s}
	}
	var out []ast.Stmt
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		var shadowed []types.Object
		for _, n := range vs.Names {
			if obj := ins.info.Defs[n]; obj != nil && ins.shadow[obj] {
				shadowed = append(shadowed, obj)
			}
		}
		single := func(spec *ast.ValueSpec) ast.Stmt {
			return &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{spec}}}
		}
		if len(shadowed) == 0 {
			n := *vs
			n.Values = nil
			for _, v := range vs.Values {
				if len(vs.Values) == 1 && len(vs.Names) > 1 {
					n.Values = append(n.Values, ins.cxMulti(v))
				} else {
					n.Values = append(n.Values, ins.cx(v))
				}
			}
			out = append(out, single(&n))
			continue
		}
		// var x T = e becomes var x T; var shadow; x, shadow = Unpack(v(e)).
		// Without a type, the variable's type is the value's: name it from
		// the recorded type when needed.
		for i, name := range vs.Names {
			obj := ins.info.Defs[name]
			typ := vs.Type
			if typ == nil {
				te, ok := ins.typeExpr(obj.Type())
				if !ok {
					// Unnameable: keep the declaration, with a nil shadow.
					te = nil
				}
				typ = te
			}
			if typ == nil {
				out = append(out, single(&ast.ValueSpec{Names: []*ast.Ident{name}, Values: valuesFor(vs, i, ins)}))
			} else {
				out = append(out, single(&ast.ValueSpec{Names: []*ast.Ident{name}, Type: typ}))
			}
			if ins.shadow[obj] {
				sh := ins.shadowName(obj)
				out = append(out, single(&ast.ValueSpec{Names: []*ast.Ident{ast.NewIdent(sh)}, Type: &ast.StarExpr{X: rtSel("Expr")}}), use(sh))
				if typ != nil && len(vs.Values) == len(vs.Names) {
					as := &ast.AssignStmt{Lhs: []ast.Expr{name}, Tok: token.ASSIGN, Rhs: []ast.Expr{vs.Values[i]}}
					st, _ := ins.assign1(as, ctxBlock)
					out = append(out, st...)
				}
			} else if typ != nil && len(vs.Values) == len(vs.Names) {
				out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{name}, Tok: token.ASSIGN, Rhs: []ast.Expr{ins.cx(vs.Values[i])}})
			}
			out = append(out, use(name.Name))
		}
		if len(vs.Values) == 1 && len(vs.Names) > 1 {
			// var a, b = f(): assign after the declarations.
			var lhs []ast.Expr
			for _, n := range vs.Names {
				lhs = append(lhs, ast.NewIdent(n.Name))
			}
			out = append(out, &ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, Rhs: []ast.Expr{ins.cxMulti(vs.Values[0])}})
			for _, obj := range shadowed {
				out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(ins.shadowName(obj))}, Tok: token.ASSIGN, Rhs: []ast.Expr{nilIdent()}})
			}
		}
	}
	return out
}

func valuesFor(vs *ast.ValueSpec, i int, ins *instrumenter) []ast.Expr {
	if len(vs.Values) == len(vs.Names) {
		return []ast.Expr{ins.cx(vs.Values[i])}
	}
	return nil
}

// returnStmt rewrites a return; in a twin it adds the shadow results.
func (ins *instrumenter) returnStmt(s *ast.ReturnStmt) []ast.Stmt {
	t := ins.fn.twin
	if t == nil || t.nShadow == 0 || len(s.Results) == 0 {
		n := &ast.ReturnStmt{Return: s.Return}
		if len(s.Results) == 1 && t == nil {
			n.Results = []ast.Expr{ins.cxMulti(s.Results[0])}
			if _, isCall := ast.Unparen(s.Results[0]).(*ast.CallExpr); !isCall {
				n.Results = []ast.Expr{ins.cx(s.Results[0])}
			}
			return []ast.Stmt{n}
		}
		for _, r := range s.Results {
			n.Results = append(n.Results, ins.cx(r))
		}
		return []ast.Stmt{n}
	}
	var pre []ast.Stmt
	var vals, shadows []ast.Expr
	if len(s.Results) == 1 && len(t.results) > 1 {
		// return f() with a multi-valued f.
		rhs := s.Results[0]
		var lhs []ast.Expr
		for range t.results {
			tmp := ins.newTemp("r")
			lhs = append(lhs, tmp)
			vals = append(vals, ast.NewIdent(tmp.Name))
		}
		callee := ins.twinCall(rhs)
		var c ast.Expr
		if callee != nil && len(callee.results) == len(t.results) {
			c, _ = ins.callTwin(ast.Unparen(rhs).(*ast.CallExpr), callee)
		}
		if c != nil {
			var calleeShadows []ast.Expr
			for _, k := range callee.results {
				if k != notTracked {
					tmp := ins.newTemp("s")
					lhs = append(lhs, tmp)
					calleeShadows = append(calleeShadows, ast.NewIdent(tmp.Name))
				}
			}
			j := 0
			for i, k := range t.results {
				var sh ast.Expr = nilIdent()
				if callee.results[i] != notTracked {
					if k != notTracked {
						sh = calleeShadows[j]
					}
					j++
				}
				if k != notTracked {
					shadows = append(shadows, sh)
				}
			}
			pre = append(pre, &ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: []ast.Expr{c}})
		} else {
			pre = append(pre, &ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: []ast.Expr{ins.cxMulti(rhs)}})
			for _, k := range t.results {
				if k != notTracked {
					shadows = append(shadows, nilIdent())
				}
			}
		}
	} else {
		if len(s.Results) == 1 {
			if ve, ok := ins.v(s.Results[0]); ok {
				return []ast.Stmt{&ast.ReturnStmt{Return: s.Return, Results: []ast.Expr{rtCall("Unpack", ve)}}}
			}
		}
		for i, r := range s.Results {
			if t.results[i] != notTracked {
				ve, ok := ins.v(r)
				if !ok {
					vals = append(vals, ins.cx(r))
					shadows = append(shadows, nilIdent())
					continue
				}
				tmp := ins.newTemp("r")
				pre = append(pre, &ast.AssignStmt{Lhs: []ast.Expr{tmp}, Tok: token.DEFINE, Rhs: []ast.Expr{ve}})
				vals = append(vals, field(ast.NewIdent(tmp.Name), "C"))
				shadows = append(shadows, field(ast.NewIdent(tmp.Name), "S"))
				continue
			}
			if ins.isConst(r) || isNil(r, ins) || isIdent(r) {
				vals = append(vals, r)
				continue
			}
			tmp := ins.newTemp("r")
			pre = append(pre, &ast.AssignStmt{Lhs: []ast.Expr{tmp}, Tok: token.DEFINE, Rhs: []ast.Expr{ins.cx(r)}})
			vals = append(vals, ast.NewIdent(tmp.Name))
		}
	}
	ret := &ast.ReturnStmt{Return: s.Return, Results: append(vals, shadows...)}
	return []ast.Stmt{&ast.BlockStmt{List: append(pre, ret)}}
}

func isIdent(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.Ident)
	return ok
}

func isNil(e ast.Expr, ins *instrumenter) bool {
	tv, ok := ins.info.Types[e]
	return ok && tv.IsNil()
}

// rangeStmt rewrites for range loops over tracked strings and byte slices
// into range-over-func loops over the runtime's iterators.
func (ins *instrumenter) rangeStmt(s *ast.RangeStmt) ast.Stmt {
	k := ins.trackOfExpr(s.X)
	body := ins.block(s.Body)
	if st, ok := ins.rangeSlice(s, body); ok {
		return st
	}
	if !ins.cfg.RangeOverFunc || (k != trackString && k != trackBytes) || s.Tok == token.ASSIGN {
		return &ast.RangeStmt{For: s.For, Key: s.Key, Value: s.Value, Tok: s.Tok, Range: s.Range, X: ins.cx(s.X), Body: body}
	}
	if ins.trackOfExpr(s.X) != trackOf(ins.typeOf(s.X)) {
		return &ast.RangeStmt{For: s.For, Key: s.Key, Value: s.Value, Tok: s.Tok, Range: s.Range, X: ins.cx(s.X), Body: body}
	}
	vx, ok := ins.v(s.X)
	if !ok {
		return &ast.RangeStmt{For: s.For, Key: s.Key, Value: s.Value, Tok: s.Tok, Range: s.Range, X: ins.cx(s.X), Body: body}
	}
	var iter ast.Expr
	if k == trackBytes {
		iter = rtCall("RangeBytes", siteLit(ins.newSite(sites.Loop, s.X)), vx)
	} else {
		loop := ins.newSite(sites.Loop, s.X)
		iter = rtCall("RangeString", siteLit(loop), siteLit(ins.newSite(sites.Implicit, s.X)), vx)
	}
	return ins.rangeOver(s, iter, body, false, false)
}

// rangeSlice rewrites a range loop over a slice other than a byte slice
// into one over rt.RangeSlice (scalar elements, as V values) or
// rt.RangeSliceOf (other elements), which record the loop condition
// against the slice's length shadow.
func (ins *instrumenter) rangeSlice(s *ast.RangeStmt, body *ast.BlockStmt) (ast.Stmt, bool) {
	t := ins.typeOf(s.X)
	if !ins.cfg.RangeOverFunc || s.Tok == token.ASSIGN || t == nil || trackOf(t) == trackBytes {
		return nil, false
	}
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return nil, false
	}
	site := siteLit(ins.newSite(sites.Loop, s.X))
	if ins.scalarSlice(s.X) {
		name := "RangeSlice"
		switch trackOf(sl.Elem()) {
		case trackOrdered:
			name = "RangeSliceOrd"
		case trackString:
			name = "RangeSliceString"
		case trackBytes:
			name = "RangeSliceBytes"
		}
		return ins.rangeOver(s, rtCall(name, site, ins.cx(s.X)), body, false, false), true
	}
	return ins.rangeOver(s, rtCall("RangeSliceOf", site, ins.cx(s.X)), body, true, hasLeaves(sl.Elem(), 0)), true
}

// rangeOver builds the range-over-func loop over iter for s. The value
// variable is bound from the V the iterator yields, or, when the iterator
// yields plain values, directly, taking its shadows with rt.Take when
// take is set.
func (ins *instrumenter) rangeOver(s *ast.RangeStmt, iter ast.Expr, body *ast.BlockStmt, plain, take bool) ast.Stmt {
	n := &ast.RangeStmt{For: s.For, Key: s.Key, Tok: s.Tok, X: iter, Body: body}
	if s.Key == nil && s.Value == nil {
		n.Tok = token.ILLEGAL
		return n
	}
	if n.Key == nil {
		n.Key = ast.NewIdent("_")
	}
	if s.Value != nil {
		vid, _ := s.Value.(*ast.Ident)
		if vid == nil || vid.Name == "_" {
			return n
		}
		if plain {
			n.Value = vid
			if take {
				body.List = append([]ast.Stmt{&ast.ExprStmt{X: rtCall("Take", addrOf(ast.NewIdent(vid.Name)))}}, body.List...)
			}
			return n
		}
		tmp := ins.newTemp("v")
		n.Value = tmp
		var pre []ast.Stmt
		if obj := ins.info.Defs[vid]; obj != nil && ins.shadow[obj] {
			sh := ins.shadowName(obj)
			pre = []ast.Stmt{
				&ast.AssignStmt{Lhs: []ast.Expr{vid, ast.NewIdent(sh)}, Tok: token.DEFINE, Rhs: []ast.Expr{rtCall("Unpack", ast.NewIdent(tmp.Name))}},
				use(vid.Name), use(sh),
			}
		} else {
			pre = []ast.Stmt{
				&ast.AssignStmt{Lhs: []ast.Expr{vid}, Tok: token.DEFINE, Rhs: []ast.Expr{field(ast.NewIdent(tmp.Name), "C")}},
				use(vid.Name),
			}
		}
		body.List = append(pre, body.List...)
	}
	return n
}

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
					atom = rtCall("Br", siteLit(ins.newSite(sites.Cond, ce)), eqCall(tagKind, ast.NewIdent(tag.Name), vc))
				} else {
					atom = &ast.BinaryExpr{X: field(ast.NewIdent(tag.Name), "C"), Op: token.EQL, Y: ins.cx(ce)}
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

// eqCall is the runtime equality of two V values of family k; its result
// is a V[bool] whatever the operands' type.
func eqCall(k track, a, b ast.Expr) ast.Expr {
	switch k {
	case trackBool:
		return rtCall("EqBool", a, b)
	case trackString:
		return rtCall("EqString", a, b)
	case trackOrdered:
		return rtCall("OEq", a, b)
	}
	return rtCall("Eq", a, b)
}
