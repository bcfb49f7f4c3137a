// This file rewrites assignments, increments and var declarations: a
// shadowed variable takes its value's shadow, and a store into a byte
// slice, a map or the shadow memory goes through the runtime.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gocolic/gocolic/sites"
)

func (ins *instrumenter) incDec(s *ast.IncDecStmt) ast.Stmt {
	names := [3]string{rtInc, rtIncF, rtIncO}
	op := token.ADD
	if s.Tok == token.DEC {
		names, op = [3]string{rtDec, rtDecF, rtDecO}, token.SUB
	}
	name := names[0]
	switch ins.trackOfExpr(s.X) {
	case trackFloat:
		name = names[1]
	case trackOrdered:
		name = names[2]
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
		return ins.binop(op, o, call(rtInst(rtMk, ast.NewIdent("byte")), &ast.BasicLit{Kind: token.INT, Value: "1"}, nilIdent()), trackInt, s.X)
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
		return rtCall(rtIndexBytes, siteLit(ins.newSite(sites.Implicit, ix)), rtCall(rtMk, id, ast.NewIdent(ins.shadowName(obj))), idx)
	}
	val, ok := value(old)
	if !ok {
		return nil, false
	}
	site := siteLit(ins.newSite(sites.Implicit, ix))
	// The call takes the statement's position, so that a panic in the
	// store is reported on the store's line.
	fun := &ast.SelectorExpr{X: &ast.Ident{Name: runtimeAlias, NamePos: lhs.Pos()}, Sel: ast.NewIdent(rtStoreBytes)}
	return &ast.ExprStmt{X: call(fun, site,
		&ast.UnaryExpr{Op: token.AND, X: id},
		&ast.UnaryExpr{Op: token.AND, X: ast.NewIdent(ins.shadowName(obj))},
		idx, val)}, true
}

// storeByteAt rewrites a store e[i] = x into a byte slice e that is not a
// shadowed variable (a field, an element, a callee's result): rt.StoreByteAt
// writes x's term into the cell of the byte. Its arguments are evaluated
// in the original's order (e, i, x), and the store, with its bounds
// check, comes last.
func (ins *instrumenter) storeByteAt(lhs, rhs ast.Expr) (ast.Stmt, bool) {
	ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
	if !ok || ins.trackOfExpr(ix.X) != trackBytes || ins.trackOfExpr(ix.Index) != trackInt {
		return nil, false
	}
	if tv, ok := ins.info.Types[ix.Index]; ok && tv.IsType() {
		return nil, false
	}
	if id, _ := ins.shadowedIdent(ix.X); id != nil {
		return nil, false
	}
	idx, ok := ins.v(ix.Index)
	if !ok {
		return nil, false
	}
	val, ok := ins.vAs(rhs, types.Typ[types.Byte])
	if !ok {
		return nil, false
	}
	site := siteLit(ins.newSite(sites.Implicit, ix))
	return &ast.ExprStmt{X: call(rtSelAt(rtStoreByteAt, lhs.Pos()), site, ins.cx(ix.X), idx, val)}, true
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
				nilShadow = call(&ast.ParenExpr{X: &ast.StarExpr{X: rtSel(rtExpr)}}, nilIdent())
			}
			return []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{id, ast.NewIdent(sh)}, Tok: s.Tok, Rhs: []ast.Expr{ins.cx(rhs), nilShadow}}}, defined
		}
		return []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{id, ast.NewIdent(sh)}, Tok: s.Tok, Rhs: []ast.Expr{rtCall(rtUnpack, ve)}}}, defined
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
		if st, ok := ins.storeByteAt(lhs, rhs); ok {
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
		if out, ok := ins.appendLitAssign(s); ok {
			return out, nil
		}
		if out, ok := ins.indexCopy(s); ok {
			return out, nil
		}
	}
	nrhs := ins.cx(rhs)
	if ctx != ctxBlock {
		nrhs = ins.dropResults(lhs, rhs, nrhs)
	}
	out := []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ins.lvalue(lhs)}, Tok: s.Tok, Rhs: []ast.Expr{nrhs}}}
	if ctx == ctxBlock {
		out = append(out, ins.copyMem(lhs, rhs)...)
		out = append(out, ins.takeResults(s.Lhs, rhs)...)
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
		cur := rtCall(rtMk, id, ast.NewIdent(ins.shadowName(obj)))
		var r ast.Expr
		ok := true
		if op == token.SHL || op == token.SHR {
			r, ok = ins.vIndex(rhs)
			if !ok && ins.isConst(rhs) {
				r, ok = call(rtInst(rtMk, ast.NewIdent("uint")), rhs, nilIdent()), true
			}
		} else {
			r, ok = ins.v(rhs)
		}
		if ok {
			if ve, ok := ins.binop(op, cur, r, k, &ast.BinaryExpr{X: lhs, Op: op, Y: rhs, OpPos: s.TokPos}); ok {
				return []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{id, ast.NewIdent(ins.shadowName(obj))}, Tok: token.ASSIGN, Rhs: []ast.Expr{rtCall(rtUnpack, ve)}}}
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
		} else if ins.memResult(l, ctx) {
			any = true
		}
	}
	if any && len(s.Lhs) > len(rtUnpackN)-1 && ctx == ctxBlock {
		if out, defined, ok := ins.assignWide(s); ok {
			return out, defined
		}
	}
	if any && len(s.Lhs) < len(rtUnpackN) {
		var vals, shadows []ast.Expr
		var defined []string
		var pre, post []ast.Stmt
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
			} else if ins.memResult(l, ctx) {
				// A field or element (p.a, p.b = b[0], b[1]): its shadow
				// goes through a temporary into the shadow memory after
				// the assignment, as for a call's results.
				tmp := ins.newTemp("s")
				pre = append(pre, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{
					&ast.ValueSpec{Names: []*ast.Ident{tmp}, Type: &ast.StarExpr{X: rtSel(rtExpr)}}}}})
				shadows = append(shadows, ast.NewIdent(tmp.Name))
				post = append(post, ins.storeResult(s, i, tmp.Name))
			} else {
				shadows = append(shadows, ast.NewIdent("_"))
			}
		}
		if ok {
			lhs := append(append([]ast.Expr{}, s.Lhs...), shadows...)
			out := append(pre, &ast.AssignStmt{Lhs: lhs, Tok: s.Tok, Rhs: []ast.Expr{rtCall(rtUnpackN[len(vals)], vals...)}})
			return append(out, post...), defined
		}
	}
	n := &ast.AssignStmt{Tok: s.Tok}
	for i := range s.Lhs {
		n.Lhs = append(n.Lhs, ins.lvalue(s.Lhs[i]))
		n.Rhs = append(n.Rhs, ins.dropped(s.Lhs[i], s.Rhs[i]))
	}
	out := []ast.Stmt{n}
	for _, l := range s.Lhs {
		out = append(out, ins.invalidate(l, ctx)...)
	}
	return out, nil
}

// dropped returns the concrete value of rhs, assigned to l by a parallel
// assignment that keeps no shadows: when l is a place in memory of a
// tracked type (a field of a wide or init statement's assignment), rhs
// goes through rt.Concrete, which counts its shadow as dropped
// (CauseAssign), rather than being lost without a count.
func (ins *instrumenter) dropped(l, rhs ast.Expr) ast.Expr {
	if _, mem := ins.memLoc(l); !mem || isBlank(l) || !ins.mayBeSymbolic(rhs) {
		return ins.cx(rhs)
	}
	ve, ok := ins.v(rhs)
	if !ok {
		return ins.cx(rhs)
	}
	return rtCall(rtConcrete, siteLit(ins.newSite(sites.Concrete, l)), rtSel(rtCauseAssign), ve)
}

// memResult reports whether l, assigned in a statement list, is a place
// in memory of a tracked type (a field, an element, a pointee) whose
// shadow can be stored after the assignment (storeResult).
func (ins *instrumenter) memResult(l ast.Expr, ctx stmtCtx) bool {
	if ctx != ctxBlock || isBlank(l) {
		return false
	}
	_, ok := ins.memLoc(l)
	return ok
}

// assignWide rewrites a parallel assignment of more values than an
// rt.UnpackN takes, in a statement list, as two statements: the values
// into temporaries, then the variables and their shadows from them. Go
// evaluates every right-hand side before it assigns, and so do these.
// Only identifiers may be assigned: the operands of an index expression
// on the left are evaluated before the right-hand sides, which the
// temporaries would reorder. An assignment (=) is wrapped in a block so
// that the temporaries declare nothing a goto could jump over.
func (ins *instrumenter) assignWide(s *ast.AssignStmt) ([]ast.Stmt, []string, bool) {
	tmps := &ast.AssignStmt{Tok: token.DEFINE}
	set := &ast.AssignStmt{Tok: s.Tok}
	var shadowLhs, shadowRhs []ast.Expr
	var defined []string
	for i, l := range s.Lhs {
		if _, ok := l.(*ast.Ident); !ok {
			return nil, nil, false
		}
		ve, ok := ins.v(s.Rhs[i])
		if !ok {
			return nil, nil, false
		}
		tmp := ins.newTemp("p")
		tmps.Lhs = append(tmps.Lhs, tmp)
		tmps.Rhs = append(tmps.Rhs, ve)
		set.Lhs = append(set.Lhs, l)
		set.Rhs = append(set.Rhs, field(ast.NewIdent(tmp.Name), "C"))
		if id, obj := ins.shadowedIdent(l); id != nil {
			shadowLhs = append(shadowLhs, ast.NewIdent(ins.shadowName(obj)))
			shadowRhs = append(shadowRhs, field(ast.NewIdent(tmp.Name), "S"))
			if ins.defines(s, id) {
				defined = append(defined, ins.shadowName(obj))
			}
		}
	}
	set.Lhs = append(set.Lhs, shadowLhs...)
	set.Rhs = append(set.Rhs, shadowRhs...)
	if s.Tok == token.DEFINE {
		return []ast.Stmt{tmps, set}, defined, true
	}
	return []ast.Stmt{&ast.BlockStmt{List: []ast.Stmt{tmps, set}}}, defined, true
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
			var pre, post []ast.Stmt
			for i, k := range t.results {
				if k == notTracked {
					continue
				}
				if id, obj := ins.shadowedIdent(s.Lhs[i]); id != nil {
					lhs = append(lhs, ast.NewIdent(ins.shadowName(obj)))
					if ins.defines(s, id) {
						defined = append(defined, ins.shadowName(obj))
					}
					continue
				}
				if ctx != ctxBlock || isBlank(s.Lhs[i]) {
					lhs = append(lhs, ast.NewIdent("_"))
					continue
				}
				// A field, element or pointee (url.Scheme, rest, err =
				// getScheme(raw)): its shadow goes through a temporary
				// into the shadow memory after the assignment, or, where
				// the place cannot be written again, is counted.
				tmp := ins.newTemp("s")
				pre = append(pre, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{
					&ast.ValueSpec{Names: []*ast.Ident{tmp}, Type: &ast.StarExpr{X: rtSel(rtExpr)}}}}})
				lhs = append(lhs, ast.NewIdent(tmp.Name))
				post = append(post, ins.storeResult(s, i, tmp.Name))
			}
			out := append(pre, &ast.AssignStmt{Lhs: lhs, Tok: s.Tok, Rhs: []ast.Expr{c}})
			out = append(out, post...)
			if ctx == ctxBlock {
				out = append(out, ins.takeResults(s.Lhs, rhs)...)
			}
			return out, defined
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
	out = append(out, ins.takeResults(s.Lhs, rhs)...)
	for _, l := range s.Lhs {
		id, obj := ins.shadowedIdent(l)
		if id == nil {
			out = append(out, ins.invalidate(l, ctx)...)
			continue
		}
		sh := ins.shadowName(obj)
		if ins.defines(s, id) {
			out = append(out, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{
				&ast.ValueSpec{Names: []*ast.Ident{ast.NewIdent(sh)}, Type: &ast.StarExpr{X: rtSel(rtExpr)}}}}})
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
			// var p = &T{f: x}, var v T = T{f: x}: a literal with
			// symbolic parts keeps them as p := &T{f: x} does, which
			// declares the same variable when the literal's type is the
			// declared one (litAssign checks it).
			if len(vs.Names) == 1 && len(vs.Values) == 1 {
				as := &ast.AssignStmt{Lhs: []ast.Expr{vs.Names[0]}, Tok: token.DEFINE, Rhs: vs.Values}
				if st, ok := ins.litAssign(as); ok {
					out = append(out, st...)
					continue
				}
			}
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
			// var h = parse(b), var h, err = parse(b).
			if len(vs.Values) == 1 {
				var lhs []ast.Expr
				for _, name := range vs.Names {
					lhs = append(lhs, name)
				}
				out = append(out, ins.takeResults(lhs, vs.Values[0])...)
			} else {
				for i, v := range vs.Values {
					out = append(out, ins.takeResults([]ast.Expr{vs.Names[i]}, v)...)
				}
			}
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
				out = append(out, single(&ast.ValueSpec{Names: []*ast.Ident{ast.NewIdent(sh)}, Type: &ast.StarExpr{X: rtSel(rtExpr)}}), use(sh))
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

// isBlank reports whether e is the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "_"
}

// storeResult returns the statement that, after the multi-value
// assignment s, stores the shadow in the variable sh of the value it
// assigned to s.Lhs[i], a memory location: rt.Store (or its kind's store)
// of the value read again, when the location has no effects and does not
// depend on what s assigns; otherwise a count of the dropped shadow
// (CauseAssign).
func (ins *instrumenter) storeResult(s *ast.AssignStmt, i int, sh string) ast.Stmt {
	l := s.Lhs[i]
	if k, ok := ins.memLoc(l); ok && ins.pure(l) && !ins.usesAssigned(l, s) {
		val := rtCall(rtMk, ins.lvalue(l), ast.NewIdent(sh))
		return &ast.ExprStmt{X: call(rtSelAt(memOp[k].store, l.Pos()), val, addrOf(ins.lvalue(l)))}
	}
	site := siteLit(ins.newSite(sites.Concrete, l))
	return &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{
		rtCall(rtConcrete, site, rtSel(rtCauseAssign), rtCall(rtMk, &ast.BasicLit{Kind: token.INT, Value: "0"}, ast.NewIdent(sh)))}}
}

// usesAssigned reports whether e reads a variable that the assignment s
// assigns, which would make e name another place once s has run.
func (ins *instrumenter) usesAssigned(e ast.Expr, s *ast.AssignStmt) bool {
	assigned := make(map[types.Object]bool)
	for _, l := range s.Lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok {
			if obj := ins.info.ObjectOf(id); obj != nil {
				assigned[obj] = true
			}
		}
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && assigned[ins.info.ObjectOf(id)] {
			found = true
		}
		return !found
	})
	return found
}

// indexCopy rewrites v := s[i] (or v = s[i]) for an element of an array
// or slice of structs or arrays with scalar leaves, read at a tracked,
// non-constant index, into
//
//	_gcl_iN := V(i)
//	v := s[_gcl_iN.C]
//	rt.CopyIndex(site, &v, s, _gcl_iN)
//
// so that each field of the copy is a case split over that field of the
// elements (utf8's accept := acceptRanges[x>>4]). s is evaluated twice,
// so it must be pure; the index once.
func (ins *instrumenter) indexCopy(s *ast.AssignStmt) ([]ast.Stmt, bool) {
	lhs := s.Lhs[0]
	x, ok := ast.Unparen(s.Rhs[0]).(*ast.IndexExpr)
	if !ok || ins.isConst(x.Index) || ins.trackOfExpr(x.Index) != trackInt || !ins.pure(x.X) {
		return nil, false
	}
	if id, isId := ast.Unparen(lhs).(*ast.Ident); isId && id.Name == "_" || !isId && !ins.pure(lhs) {
		return nil, false
	}
	u, ok := ins.indexed(x)
	if !ok {
		return nil, false
	}
	elem := ins.typeOf(x)
	switch elem.Underlying().(type) {
	case *types.Struct, *types.Array:
	default:
		return nil, false
	}
	if !hasLeaves(elem, 0) || !types.Identical(ins.typeOf(lhs), elem) {
		return nil, false
	}
	vi, ok := ins.vIndex(x.Index)
	if !ok {
		return nil, false
	}
	tmp := ins.newTemp("i")
	sl := ins.lvalue(x.X)
	if _, isArray := u.(*types.Array); isArray {
		sl = &ast.SliceExpr{X: ins.lvalue(x.X)}
	}
	site := siteLit(ins.newSite(sites.Implicit, x))
	return []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{tmp}, Tok: token.DEFINE, Rhs: []ast.Expr{vi}},
		&ast.AssignStmt{Lhs: []ast.Expr{ins.lvalue(lhs)}, Tok: s.Tok, Rhs: []ast.Expr{&ast.IndexExpr{X: ins.lvalue(x.X), Index: field(ast.NewIdent(tmp.Name), vConcrete)}}},
		&ast.ExprStmt{X: rtCall(rtCopyIndex, site, addrOf(ins.lvalue(lhs)), sl, ast.NewIdent(tmp.Name))},
	}, true
}
