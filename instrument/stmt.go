// This file rewrites statement lists and dispatches each statement to its
// rewrite; if, return, go, defer and labels are rewritten here, and
// assignments (stmt_assign.go), loops (stmt_loop.go) and switches
// (stmt_switch.go) in files of their own.

package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
)

func (ins *instrumenter) newTemp(prefix string) *ast.Ident {
	ins.tmp++
	return ast.NewIdent(fmt.Sprintf("%s%s%d", genPrefix, prefix, ins.tmp))
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
		if pre, ns, ok := ins.litArgsAssign(s); ok {
			return append(ins.stmts(pre), ins.stmt(ns, nil)...)
		}
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
		if c, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
			if pre, nc, ok := ins.litArgs(c); ok {
				return append(ins.stmts(pre), ins.stmt(&ast.ExprStmt{X: nc}, nil)...)
			}
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
		if sel, ok := x.(*ast.SelectorExpr); ok && sel.Sel.Name == vConcrete {
			if c, ok := sel.X.(*ast.CallExpr); ok {
				x = c
			}
		}
		return []ast.Stmt{&ast.ExprStmt{X: x}}
	case *ast.DeclStmt:
		return ins.declStmt(s)
	case *ast.ReturnStmt:
		if c, ok := singleCall(s.Results); ok {
			if pre, nc, ok := ins.litArgs(c); ok {
				return append(ins.stmts(pre), ins.returnStmt(&ast.ReturnStmt{Return: s.Return, Results: []ast.Expr{nc}})...)
			}
		}
		return ins.returnStmt(s)
	case *ast.IfStmt:
		if ins.hoistInit(s) {
			return []ast.Stmt{ins.hoistedIf(s)}
		}
		return []ast.Stmt{ins.ifStmt(s)}
	case *ast.ForStmt:
		return ins.labeled(label, ins.forStmt(s))
	case *ast.RangeStmt:
		return ins.labeled(label, ins.rangeStmt(s))
	case *ast.SwitchStmt:
		return ins.switchStmt(s, label)
	case *ast.TypeSwitchStmt:
		return ins.labeled(label, ins.typeSwitchStmt(s))
	case *ast.SelectStmt:
		return ins.labeled(label, ins.selectStmt(s))
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
		if ins.hoistInit(e) {
			n.Else = ins.hoistedIf(e)
			break
		}
		n.Else = ins.ifStmt(e)
	case *ast.BlockStmt:
		n.Else = ins.block(e)
	}
	return n
}

// hoistInit reports whether the init statement of s is a multi-value
// assignment from a call with a twin that assigns a tracked result to
// something other than a shadowed variable (a field: if u.Scheme, rest,
// err = getScheme(raw); err != nil), or stores a struct result of a call
// of this package (if h := parse(b); ...): its shadow needs statements
// after the assignment, which an init statement cannot have.
func (ins *instrumenter) hoistInit(s *ast.IfStmt) bool {
	a, ok := s.Init.(*ast.AssignStmt)
	if !ok || len(a.Rhs) != 1 {
		return false
	}
	if _, op := opAssign[a.Tok]; !op && len(ins.takeResults(a.Lhs, a.Rhs[0])) > 0 {
		return true // if h := parse(b); h.kind == 'k': rt.TakeResult follows
	}
	if len(a.Lhs) < 2 {
		return false
	}
	t := ins.twinCall(a.Rhs[0])
	if t == nil || len(t.results) != len(a.Lhs) {
		return false
	}
	for i, k := range t.results {
		if k == notTracked || isBlank(a.Lhs[i]) {
			continue
		}
		if id, _ := ins.shadowedIdent(a.Lhs[i]); id == nil {
			return true
		}
	}
	return false
}

// hoistedIf rewrites if init; cond {...} as the block { init; if cond
// {...} }, the init then being rewritten as a statement of a list. The
// block holds the if alone, so the init's variables have the scope they
// had.
func (ins *instrumenter) hoistedIf(s *ast.IfStmt) *ast.BlockStmt {
	out, defined := ins.assign(s.Init.(*ast.AssignStmt), ctxBlock)
	out = append(out, uses(defined)...)
	n := *s
	n.Init = nil
	return &ast.BlockStmt{Lbrace: s.If, List: append(out, ins.ifStmt(&n)), Rbrace: s.End()}
}

// returnStmt rewrites a return; in a twin it adds the shadow results. A
// struct or array result hands its place's shadows to the caller
// (passResults).
func (ins *instrumenter) returnStmt(s *ast.ReturnStmt) []ast.Stmt {
	if out, ok := ins.returnStructLit(s); ok {
		return out
	}
	return ins.passResults(s, ins.returnStmt1(s))
}

func (ins *instrumenter) returnStmt1(s *ast.ReturnStmt) []ast.Stmt {
	t := ins.fn.twin
	if out, ok := ins.returnLit(s); ok {
		return out
	}
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
				return []ast.Stmt{&ast.ReturnStmt{Return: s.Return, Results: []ast.Expr{rtCall(rtUnpack, ve)}}}
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
				vals = append(vals, field(ast.NewIdent(tmp.Name), vConcrete))
				shadows = append(shadows, field(ast.NewIdent(tmp.Name), vShadow))
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

// returnLit rewrites return &T{...} of a struct or array literal with
// symbolic parts, beside results that are constants (return &T{...}, nil),
// in a function without tracked results: the literal is built into a
// temporary first, its tracked parts stored at their places in the new
// object (litParts, as for an assignment), and the temporary returned.
// The other results are constants, so the order of evaluation is kept.
func (ins *instrumenter) returnLit(s *ast.ReturnStmt) ([]ast.Stmt, bool) {
	if t := ins.fn.twin; t != nil && t.nShadow != 0 {
		return nil, false
	}
	at, lit := ins.constReturn(s, func(r ast.Expr) *ast.CompositeLit {
		if u, ok := ast.Unparen(r).(*ast.UnaryExpr); ok && u.Op == token.AND {
			if l, ok := ast.Unparen(u.X).(*ast.CompositeLit); ok && ins.symbolicParts(l) {
				return l
			}
		}
		return nil
	})
	if lit == nil {
		return nil, false
	}
	tmp, out, ok := ins.litTemp(lit, true)
	if !ok {
		return nil, false
	}
	n := &ast.ReturnStmt{Return: s.Return}
	for i, r := range s.Results {
		if i == at {
			n.Results = append(n.Results, tmp)
			continue
		}
		n.Results = append(n.Results, r)
	}
	return append(out, n), true
}

// constReturn returns the result of s that match accepts, and its index,
// when it is the first such and every other result is a constant or nil;
// a nil literal otherwise.
func (ins *instrumenter) constReturn(s *ast.ReturnStmt, match func(ast.Expr) *ast.CompositeLit) (int, *ast.CompositeLit) {
	at := -1
	var lit *ast.CompositeLit
	for i, r := range s.Results {
		if at < 0 {
			if l := match(r); l != nil {
				at, lit = i, l
				continue
			}
		}
		if !ins.isConst(r) && !ins.info.Types[r].IsNil() {
			return -1, nil
		}
	}
	return at, lit
}

// litTemp builds lit into a new temporary, its tracked parts stored at
// their places there (litParts, as for an assignment), and returns the
// temporary and the statements that build it; with addr the temporary
// holds &lit.
func (ins *instrumenter) litTemp(lit *ast.CompositeLit, addr bool) (*ast.Ident, []ast.Stmt, bool) {
	tmp := ins.newTemp("l")
	var pre, post []ast.Stmt
	nlit, ok := ins.litParts(lit, ast.NewIdent(tmp.Name), &pre, &post)
	if !ok {
		return nil, nil, false
	}
	var v ast.Expr = nlit
	if addr {
		v = &ast.UnaryExpr{Op: token.AND, X: nlit}
	}
	out := append(pre, &ast.AssignStmt{Lhs: []ast.Expr{tmp}, Tok: token.DEFINE, Rhs: []ast.Expr{v}})
	return ast.NewIdent(tmp.Name), append(out, post...), true
}
