// This file rewrites the operations on maps of tracked keys and values
// (rt/map.go), the builtins append and copy on tracked slices
// (rt/append.go), and composite literals with tracked parts, so that
// their shadows survive.

package instrument

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/gocolic/gocolic/sites"
)

// mapOf returns the map type of t when the runtime tracks its entries:
// integer, boolean or string keys (not floats, whose map equality is not
// bit equality) and integer, boolean, float or string values.
func mapOf(t types.Type) (*types.Map, bool) {
	if t == nil {
		return nil, false
	}
	m, ok := t.Underlying().(*types.Map)
	if !ok {
		return nil, false
	}
	switch trackOf(m.Key()) {
	case trackInt, trackBool, trackString:
	default:
		return nil, false
	}
	switch trackOf(m.Elem()) {
	case trackInt, trackBool, trackFloat, trackString:
		return m, true
	}
	return nil, false
}

// trackedMap returns the map type of the index expression x, when x reads
// or writes an entry of a tracked map.
func (ins *instrumenter) trackedMap(x ast.Expr) (*ast.IndexExpr, *types.Map, bool) {
	ix, ok := ast.Unparen(x).(*ast.IndexExpr)
	if !ok {
		return nil, nil, false
	}
	m, ok := mapOf(ins.typeOf(ix.X))
	return ix, m, ok
}

// vAs returns the V of e as a value of type t: an untyped constant takes
// t, another expression must have type t.
func (ins *instrumenter) vAs(e ast.Expr, t types.Type) (ast.Expr, bool) {
	if ins.isConst(e) {
		te, ok := ins.typeExpr(t)
		if !ok {
			return nil, false
		}
		return call(rtInst(rtMk, te), e, nilIdent()), true
	}
	if !types.Identical(ins.typeOf(e), t) {
		return nil, false
	}
	return ins.v(e)
}

// mapIndex returns rt.MapIndex(site, m, k) for the read m[k] of a tracked
// map (name MapIndexOK for the comma-ok form).
func (ins *instrumenter) mapIndex(e ast.Expr, name string) (ast.Expr, bool) {
	ix, m, ok := ins.trackedMap(e)
	if !ok {
		return nil, false
	}
	k, ok := ins.vAs(ix.Index, m.Key())
	if !ok {
		return nil, false
	}
	return rtCall(name, siteLit(ins.newSite(sites.Concrete, ix)), ins.cx(ix.X), k), true
}

// mapStore rewrites m[k] = v into rt.MapStore(site, m, k, v).
func (ins *instrumenter) mapStore(lhs, rhs ast.Expr) (ast.Stmt, bool) {
	ix, m, ok := ins.trackedMap(lhs)
	if !ok {
		return nil, false
	}
	k, ok1 := ins.vAs(ix.Index, m.Key())
	v, ok2 := ins.vAs(rhs, m.Elem())
	if !ok1 || !ok2 {
		return nil, false
	}
	site := siteLit(ins.newSite(sites.Concrete, ix))
	return &ast.ExprStmt{X: call(rtSelAt(rtMapStore, lhs.Pos()), site, ins.cx(ix.X), k, v)}, true
}

// mapApply rewrites m[k] op= y and m[k]++ into rt.MapApply, which
// evaluates the map and the key once.
func (ins *instrumenter) mapApply(lhs ast.Expr, op token.Token, y ast.Expr) (ast.Stmt, bool) {
	ix, m, ok := ins.trackedMap(lhs)
	if !ok {
		return nil, false
	}
	name := applyOp(trackOf(m.Elem()), op)
	te, tok := ins.typeExpr(m.Elem())
	if name == "" || !tok {
		return nil, false
	}
	k, ok := ins.vAs(ix.Index, m.Key())
	if !ok {
		return nil, false
	}
	var v ast.Expr = call(rtInst(rtMk, te), &ast.BasicLit{Kind: token.INT, Value: "1"}, nilIdent())
	if y != nil {
		if v, ok = ins.vAs(y, m.Elem()); !ok {
			return nil, false
		}
	}
	site := siteLit(ins.newSite(sites.Concrete, ix))
	return &ast.ExprStmt{X: call(rtSelAt(rtMapApply, lhs.Pos()), site, ins.cx(ix.X), k, v, rtInst(name, te))}, true
}

// mapOKTracked reports whether mapIndexOK rewrites the comma-ok read s,
// which the pre-pass asks before it gives its variables shadows.
func (ins *instrumenter) mapOKTracked(s *ast.AssignStmt) bool {
	if len(s.Lhs) != 2 || len(s.Rhs) != 1 {
		return false
	}
	ix, m, ok := ins.trackedMap(s.Rhs[0])
	if !ok {
		return false
	}
	if ins.isConst(ix.Index) {
		if _, ok := ins.typeExpr(m.Key()); !ok {
			return false
		}
	} else if !types.Identical(ins.typeOf(ix.Index), m.Key()) {
		return false
	}
	want := []types.Type{m.Elem(), types.Typ[types.Bool]}
	for i, l := range s.Lhs {
		id, isId := ast.Unparen(l).(*ast.Ident)
		if !isId || id.Name != "_" && !types.Identical(ins.typeOf(id), want[i]) {
			return false
		}
	}
	return true
}

// mapIndexOK rewrites v, ok := m[k] (and =) on a tracked map into
// v, ok, sv, sok := rt.MapIndexOK(...), one statement, so that it serves
// as the init statement of an if.
func (ins *instrumenter) mapIndexOK(s *ast.AssignStmt) (ast.Stmt, []string, bool) {
	if !ins.mapOKTracked(s) {
		return nil, nil, false
	}
	lhs := append([]ast.Expr{}, s.Lhs...)
	var defined []string
	for _, l := range s.Lhs {
		id, obj := ins.shadowedIdent(l)
		if id == nil {
			lhs = append(lhs, ast.NewIdent("_"))
			continue
		}
		lhs = append(lhs, ast.NewIdent(ins.shadowName(obj)))
		if ins.defines(s, id) {
			defined = append(defined, ins.shadowName(obj))
		}
	}
	r, ok := ins.mapIndex(s.Rhs[0], rtMapIndexOK)
	if !ok {
		return nil, nil, false
	}
	return &ast.AssignStmt{Lhs: lhs, Tok: s.Tok, Rhs: []ast.Expr{r}}, defined, true
}

// builtin returns the name of the builtin function x calls, if any.
func (ins *instrumenter) builtin(x *ast.CallExpr) string {
	id, ok := ast.Unparen(x.Fun).(*ast.Ident)
	if !ok {
		return ""
	}
	if b, ok := ins.info.Uses[id].(*types.Builtin); ok {
		return b.Name()
	}
	return ""
}

// unsafeBuiltin returns the name of the function of package unsafe that
// x calls, "" when it calls something else.
func (ins *instrumenter) unsafeBuiltin(x *ast.CallExpr) string {
	sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if b, ok := ins.info.Uses[sel.Sel].(*types.Builtin); ok {
		return b.Name()
	}
	return ""
}

// unsafeView is a view without a copy that unsafe spells outer(inner(x),
// n): the string or byte slice over x's first n bytes, which rt gives
// x's terms.
type unsafeView struct {
	outer, inner string // the builtins
	from         track  // x's family
	rt           string // the runtime's function
}

var unsafeViews = []unsafeView{
	{"String", "SliceData", trackBytes, rtUnsafeString}, // strings.Builder's String
	{"Slice", "StringData", trackString, rtUnsafeBytes}, // a string's bytes, read without a copy
}

// unsafeView returns the V of x when x is one of unsafeViews over a
// tracked value and a tracked length.
func (ins *instrumenter) unsafeView(x *ast.CallExpr) (ast.Expr, bool) {
	if len(x.Args) != 2 || ins.trackOfExpr(x.Args[1]) != trackInt {
		return nil, false
	}
	data, ok := ast.Unparen(x.Args[0]).(*ast.CallExpr)
	if !ok || len(data.Args) != 1 {
		return nil, false
	}
	outer, inner := ins.unsafeBuiltin(x), ins.unsafeBuiltin(data)
	for _, uv := range unsafeViews {
		if outer != uv.outer || inner != uv.inner || trackOf(ins.typeOf(data.Args[0])) != uv.from {
			continue
		}
		v, ok := ins.v(data.Args[0])
		if !ok {
			return nil, false
		}
		n, ok := ins.v(x.Args[1])
		if !ok {
			return nil, false
		}
		ins.keepUnsafe(x)
		return rtCall(uv.rt, v, n), true
	}
	return nil, false
}

// keepUnsafe keeps the import of unsafe used, which x, a call of one of
// its builtins that the rewrite replaces, may have been the only use of:
// a builtin is no value, so a constant call uses it.
func (ins *instrumenter) keepUnsafe(x *ast.CallExpr) {
	if id, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr).X.(*ast.Ident); ok {
		if ins.keepUsed == nil {
			ins.keepUsed = make(map[string]bool)
		}
		ins.keepUsed[id.Name+".Sizeof(0)"] = true
	}
}

// builtinCall rewrites the calls of delete, clear, append and copy that
// the runtime tracks; it reports false for the others.
func (ins *instrumenter) builtinCall(x *ast.CallExpr) (ast.Expr, bool) {
	switch ins.builtin(x) {
	case "clear":
		return ins.clearCall(x)
	case "delete":
		m, ok := mapOf(ins.typeOf(x.Args[0]))
		if !ok {
			return nil, false
		}
		k, ok := ins.vAs(x.Args[1], m.Key())
		if !ok {
			return nil, false
		}
		return call(rtSelAt(rtMapDelete, x.Pos()), siteLit(ins.newSite(sites.Concrete, x)), ins.cx(x.Args[0]), k), true
	case "append":
		return ins.appendCall(x)
	case "copy":
		if c, ok := ins.copyCall(x); ok {
			return field(c, vConcrete), true
		}
		if c, ok := ins.copyBytes(x); ok {
			return field(c, vConcrete), true
		}
	}
	return nil, false
}

// clearCall rewrites clear(x), so that the shadows of what it zeroes go
// with the values (rt/clear.go): a slice drops its elements' cells, a
// byte slice's bytes get constant cells (and a shadowed variable's
// aggregate constant zero bytes), a map its log. Any slice or map is
// rewritten, whatever its elements: a struct element's fields have cells
// too. A type parameter goes to rt.ClearOf, which finds the kind at run
// time.
func (ins *instrumenter) clearCall(x *ast.CallExpr) (ast.Expr, bool) {
	if len(x.Args) != 1 {
		return nil, false
	}
	arg := x.Args[0]
	t := ins.typeOf(arg)
	if t == nil {
		return nil, false
	}
	at := func(name string, args ...ast.Expr) ast.Expr { return call(rtSelAt(name, x.Pos()), args...) }
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return at(rtClearOf, ins.cx(arg)), true
	}
	switch t.Underlying().(type) {
	case *types.Map:
		return at(rtClearMap, ins.cx(arg)), true
	case *types.Slice:
		if trackOf(t) != trackBytes {
			return at(rtClearSlice, ins.cx(arg)), true
		}
		if id, obj := ins.copyRoot(arg); id != nil {
			return at(rtClearBytes, addrOf(ast.NewIdent(ins.shadowName(obj))), ast.NewIdent(id.Name), ins.cx(arg)), true
		}
		return at(rtClearBytesTo, ins.cx(arg)), true
	}
	return nil, false
}

// elemSlice returns the element type of the slice type of e, when the
// shadow memory holds its elements as values (not a byte slice, whose
// aggregate shadow is the variable's).
func (ins *instrumenter) elemSlice(e ast.Expr) (types.Type, bool) {
	t := ins.typeOf(e)
	if t == nil || trackOf(t) == trackBytes {
		return nil, false
	}
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return nil, false
	}
	return s.Elem(), true
}

// appendCall rewrites append on a slice other than a byte slice: each
// appended scalar or string is stored with its shadow (rt.Append), and a
// slice appended with ... brings its elements' cells (rt.AppendSlice).
func (ins *instrumenter) appendCall(x *ast.CallExpr) (ast.Expr, bool) {
	elem, ok := ins.elemSlice(x)
	if !ok || len(x.Args) == 0 || !types.Identical(ins.typeOf(x.Args[0]), ins.typeOf(x)) {
		return nil, false
	}
	site := siteLit(ins.newSite(sites.Concrete, x))
	if x.Ellipsis.IsValid() {
		if !types.Identical(ins.typeOf(x.Args[1]), ins.typeOf(x)) {
			return nil, false
		}
		return rtCall(rtAppendSlice, site, ins.cx(x.Args[0]), ins.cx(x.Args[1])), true
	}
	name, ok := elemOp(appendOps, elem)
	if !ok {
		return nil, false
	}
	args := []ast.Expr{site, ins.cx(x.Args[0])}
	for _, a := range x.Args[1:] {
		va, ok := ins.vAs(a, elem)
		if !ok {
			return nil, false
		}
		args = append(args, va)
	}
	return rtCall(name, args...), true
}

// appendBytes returns the V of append on a byte slice: the aggregate of
// the slice followed by the bytes, or by the string or slice after ....
func (ins *instrumenter) appendBytes(x *ast.CallExpr) (ast.Expr, bool) {
	if ins.builtin(x) != "append" || len(x.Args) == 0 || trackOf(ins.typeOf(x)) != trackBytes {
		return nil, false
	}
	b, ok := ins.v(x.Args[0])
	if !ok || !types.Identical(ins.typeOf(x.Args[0]), ins.typeOf(x)) {
		return nil, false
	}
	if x.Ellipsis.IsValid() {
		k := ins.trackOfExpr(x.Args[1])
		if k != trackString && k != trackBytes {
			return nil, false
		}
		// A constant string too (append(buf, `\x`...)): the bytes
		// before it keep their terms.
		t, ok := ins.v(x.Args[1])
		if !ok {
			return nil, false
		}
		return rtCall(rtAppendBytesOf, b, t), true
	}
	args := []ast.Expr{b}
	for _, a := range x.Args[1:] {
		va, ok := ins.vAs(a, types.Typ[types.Byte])
		if !ok {
			return nil, false
		}
		args = append(args, va)
	}
	return rtCall(rtAppendBytes, args...), true
}

// copyCall returns the V of copy(dst, src) on slices other than byte
// slices: rt.Copy moves the cells and gives the count's term.
func (ins *instrumenter) copyCall(x *ast.CallExpr) (ast.Expr, bool) {
	if ins.builtin(x) != "copy" {
		return nil, false
	}
	if _, ok := ins.elemSlice(x.Args[0]); !ok || !types.Identical(ins.typeOf(x.Args[0]), ins.typeOf(x.Args[1])) {
		return nil, false
	}
	// Placed at the call, so that a panic in its arguments is reported on
	// the call's line.
	return call(rtSelAt(rtCopy, x.Pos()), siteLit(ins.newSite(sites.Concrete, x)), ins.cx(x.Args[0]), ins.cx(x.Args[1])), true
}

// copyBytes returns the V of copy(dst, src) into a byte slice dst from a
// string or byte slice. Into a shadowed variable x or a slice x[lo:hi] of
// it with pure bounds, rt.CopyBytes writes the copied bytes' terms into
// x's shadow (and into the bytes' cells); into any other byte slice (a
// field, an element, a callee's result, a slice of them),
// rt.CopyBytesTo writes them into the cells of the bytes, where later
// reads of that array find them (rt/bytemem.go).
func (ins *instrumenter) copyBytes(x *ast.CallExpr) (ast.Expr, bool) {
	if ins.builtin(x) != "copy" || len(x.Args) != 2 || trackOf(ins.typeOf(x.Args[0])) != trackBytes {
		return nil, false
	}
	if k := ins.trackOfExpr(x.Args[1]); k != trackString && k != trackBytes {
		return nil, false
	}
	site := siteLit(ins.newSite(sites.Concrete, x))
	id, obj := ins.copyRoot(x.Args[0])
	if id == nil {
		src, ok := ins.v(x.Args[1])
		if !ok {
			return nil, false
		}
		return call(rtSelAt(rtCopyBytesTo, x.Pos()), site, ins.cx(x.Args[0]), src), true
	}
	src, ok := ins.v(x.Args[1])
	if !ok {
		return nil, false
	}
	return call(rtSelAt(rtCopyBytes, x.Pos()), site, addrOf(ast.NewIdent(ins.shadowName(obj))), ast.NewIdent(id.Name), ins.cx(x.Args[0]), src), true
}

// copyRoot returns the shadowed byte-slice variable x when dst is x or a
// slice x[lo:hi] of it with pure or constant bounds, nil otherwise.
func (ins *instrumenter) copyRoot(dst ast.Expr) (*ast.Ident, types.Object) {
	root := ast.Unparen(dst)
	if sl, ok := root.(*ast.SliceExpr); ok {
		bound := func(e ast.Expr) bool { return e == nil || ins.pure(e) || ins.isConst(e) }
		if sl.Slice3 || !ins.pure(sl.X) || !bound(sl.Low) || !bound(sl.High) {
			return nil, nil
		}
		root = ast.Unparen(sl.X)
	}
	id, ok := root.(*ast.Ident)
	if !ok {
		return nil, nil
	}
	obj := ins.info.Uses[id]
	if obj == nil || !ins.shadow[obj] || !types.Identical(ins.typeOf(id), ins.typeOf(dst)) {
		return nil, nil
	}
	return id, obj
}

// makeBytes returns the V of make(T, n) or make(T, n, c) for a
// byte-slice type T and a tracked length n or capacity c: rt.MakeBytes
// gives the aggregate n's term as its length; rt.MakeBytesCap also keeps
// c's term as the capacity's shadow (rt.CapSlice), which grow-if-short
// code compares (strconv's appendQuotedWith: cap(buf)-len(buf) < len(s)).
func (ins *instrumenter) makeBytes(x *ast.CallExpr) (ast.Expr, bool) {
	if ins.builtin(x) != "make" || len(x.Args) < 2 || trackOf(ins.typeOf(x.Args[0])) != trackBytes {
		return nil, false
	}
	symbolic := func(e ast.Expr) bool { return !ins.isConst(e) && ins.trackOfExpr(e) == trackInt }
	if !symbolic(x.Args[1]) && (len(x.Args) < 3 || !symbolic(x.Args[2])) {
		return nil, false
	}
	if ins.trackOfExpr(x.Args[1]) != trackInt && !ins.isConst(x.Args[1]) {
		return nil, false
	}
	n, ok := ins.v(x.Args[1])
	if !ok {
		return nil, false
	}
	if len(x.Args) == 3 {
		if ins.trackOfExpr(x.Args[2]) != trackInt && !ins.isConst(x.Args[2]) {
			return nil, false
		}
		c, ok := ins.v(x.Args[2])
		if !ok {
			return nil, false
		}
		site := siteLit(ins.newSite(sites.Concrete, x))
		return call(rtInst(rtMakeBytesCap, x.Args[0]), site, n, c), true
	}
	return call(rtInst(rtMakeBytes, x.Args[0]), n), true
}

// lenMap returns rt.LenMap(site, m) for len of a tracked map.
func (ins *instrumenter) lenMap(e ast.Expr) (ast.Expr, bool) {
	if _, ok := mapOf(ins.typeOf(e)); !ok {
		return nil, false
	}
	return rtCall(rtLenMap, siteLit(ins.newSite(sites.Concrete, e)), ins.cx(e)), true
}

// symbolicParts reports whether a composite literal has an element (or
// key) that may carry a shadow, directly or in a nested literal.
func (ins *instrumenter) symbolicParts(x *ast.CompositeLit) bool {
	for _, el := range x.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if ins.mayBeSymbolic(kv.Key) {
				return true
			}
			el = kv.Value
		}
		if lit, ok := ast.Unparen(el).(*ast.CompositeLit); ok && ins.symbolicParts(lit) {
			return true
		}
		if ins.mayBeSymbolic(el) {
			return true
		}
	}
	return false
}

// litType returns the type expression of a composite literal (elided
// inside an outer literal).
func (ins *instrumenter) litType(x *ast.CompositeLit) (ast.Expr, bool) {
	if x.Type != nil {
		return x.Type, true
	}
	if _, ptr := ins.typeOf(x).(*types.Pointer); ptr {
		return nil, false // an elided &T{...}: its type is *T, not T
	}
	return ins.typeExpr(ins.typeOf(x))
}

// compositeLit rewrites a literal of a tracked map (rt.MapLit), of a
// slice of scalars or strings (rt.SliceOf) or of a byte slice's elements
// when one of its parts may be symbolic. Struct and array literals are
// values without a location: assignments fill them with litStores.
func (ins *instrumenter) compositeLit(x *ast.CompositeLit) (ast.Expr, bool) {
	if !ins.symbolicParts(x) {
		return nil, false
	}
	te, ok := ins.litType(x)
	if !ok {
		return nil, false
	}
	t := ins.typeOf(x)
	if m, ok := mapOf(t); ok {
		// gc inserts the entries whose key and value are constants first,
		// then the others in order; with equal keys the order decides.
		var consts, others []ast.Expr
		for _, el := range x.Elts {
			kv := el.(*ast.KeyValueExpr)
			k, ok1 := ins.vAs(kv.Key, m.Key())
			v, ok2 := ins.vAs(kv.Value, m.Elem())
			if !ok1 || !ok2 {
				return nil, false
			}
			if ins.isConst(kv.Key) && ins.isConst(kv.Value) {
				consts = append(consts, rtCall(rtMkKV, k, v))
			} else {
				others = append(others, rtCall(rtMkKV, k, v))
			}
		}
		args := append([]ast.Expr{siteLit(ins.newSite(sites.Concrete, x)), &ast.CompositeLit{Type: te}}, consts...)
		return rtCall(rtMapLit, append(args, others...)...), true
	}
	elem, ok := ins.elemSlice(x)
	if !ok {
		return nil, false
	}
	name, ok := elemOp(sliceOfOps, elem)
	if !ok {
		return nil, false
	}
	args := []ast.Expr{}
	for _, el := range x.Elts {
		if _, keyed := el.(*ast.KeyValueExpr); keyed {
			return nil, false
		}
		v, ok := ins.vAs(el, elem)
		if !ok {
			return nil, false
		}
		args = append(args, v)
	}
	return call(rtInst(name, te), args...), true
}

// bytesLit returns the V of a []byte literal with symbolic elements: the
// aggregate of their terms (rt.BytesOf).
func (ins *instrumenter) bytesLit(x *ast.CompositeLit) (ast.Expr, bool) {
	if trackOf(ins.typeOf(x)) != trackBytes || !ins.symbolicParts(x) {
		return nil, false
	}
	te, ok := ins.litType(x)
	if !ok {
		return nil, false
	}
	var args []ast.Expr
	for _, el := range x.Elts {
		if _, keyed := el.(*ast.KeyValueExpr); keyed {
			return nil, false
		}
		v, ok := ins.vAs(el, types.Typ[types.Byte])
		if !ok {
			return nil, false
		}
		args = append(args, v)
	}
	return call(rtInst(rtBytesOf, te), args...), true
}

// litAssign rewrites lhs = T{...} and lhs = &T{...} (also :=) in a block,
// for a struct or array literal with symbolic parts: each non-constant
// element is evaluated first, in order, into a temporary, the literal is
// built from the temporaries, and the tracked ones are then stored with
// their shadows at their places in lhs. Elements that are not constants
// all become temporaries, so the order of evaluation stays the literal's.
func (ins *instrumenter) litAssign(s *ast.AssignStmt) ([]ast.Stmt, bool) {
	if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
		return nil, false
	}
	rhs := ast.Unparen(s.Rhs[0])
	ptr := false
	if u, ok := rhs.(*ast.UnaryExpr); ok && u.Op == token.AND {
		rhs, ptr = ast.Unparen(u.X), true
	}
	lit, ok := rhs.(*ast.CompositeLit)
	if !ok || !ins.symbolicParts(lit) || !ins.pure(s.Lhs[0]) {
		return nil, false
	}
	// The stores go to lhs's fields and elements: lhs must have the
	// literal's type, not an interface type the literal converts to.
	want := ins.typeOf(lit)
	if ptr {
		want = types.NewPointer(want)
	}
	if lt := ins.typeOf(s.Lhs[0]); lt == nil || want == nil || !types.Identical(lt, want) {
		return nil, false
	}
	if id, ok := s.Lhs[0].(*ast.Ident); ok && id.Name == "_" {
		return nil, false
	}
	var pre, post []ast.Stmt
	nlit, ok := ins.litParts(lit, ins.lvalue(s.Lhs[0]), &pre, &post)
	if !ok {
		return nil, false
	}
	var r ast.Expr = nlit
	if ptr {
		r = &ast.UnaryExpr{Op: token.AND, X: nlit}
	}
	out := append(pre, &ast.AssignStmt{Lhs: []ast.Expr{ins.lvalue(s.Lhs[0])}, Tok: s.Tok, Rhs: []ast.Expr{r}})
	return append(out, post...), true
}

// appendLitAssign rewrites lhs = append(s, T{...}) in a block, for a
// struct or array literal with symbolic parts (a backtracker's job
// stack, a span list): the literal's non-constant elements go first, in
// order, into temporaries as in litAssign, the value is appended by
// rt.AppendValue (which moves the old elements' cells when the array
// moved), and the tracked elements are then stored with their shadows
// into the new last element of lhs. Without it the parts went through
// rt.Concrete (assign), and the old elements lost their cells on growth.
func (ins *instrumenter) appendLitAssign(s *ast.AssignStmt) ([]ast.Stmt, bool) {
	if len(s.Lhs) != 1 || len(s.Rhs) != 1 || !ins.pure(s.Lhs[0]) {
		return nil, false
	}
	if id, ok := s.Lhs[0].(*ast.Ident); ok && id.Name == "_" {
		return nil, false
	}
	x, ok := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
	if !ok || ins.builtin(x) != "append" || len(x.Args) != 2 || x.Ellipsis.IsValid() {
		return nil, false
	}
	elem, ok := ins.elemSlice(x)
	st := ins.typeOf(x)
	if !ok || !types.Identical(ins.typeOf(x.Args[0]), st) || !types.Identical(ins.typeOf(s.Lhs[0]), st) || !types.Identical(ins.typeOf(x.Args[1]), elem) {
		return nil, false
	}
	switch elem.Underlying().(type) {
	case *types.Struct, *types.Array:
	default:
		return nil, false
	}
	lit, ok := ast.Unparen(x.Args[1]).(*ast.CompositeLit)
	if !ok {
		return ins.appendValueAssign(s, x, elem)
	}
	if !ins.symbolicParts(lit) {
		return nil, false
	}
	last := ins.newTemp("e")
	var pre, post []ast.Stmt
	nlit, ok := ins.litParts(lit, last, &pre, &post)
	if !ok {
		return nil, false
	}
	site := siteLit(ins.newSite(sites.Concrete, x))
	out := append(pre, &ast.AssignStmt{Lhs: []ast.Expr{ins.lvalue(s.Lhs[0])}, Tok: s.Tok,
		Rhs: []ast.Expr{call(rtSelAt(rtAppendValue, x.Pos()), site, ins.cx(x.Args[0]), nlit)}})
	if len(post) == 0 {
		return out, true
	}
	out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{last}, Tok: token.DEFINE, Rhs: []ast.Expr{rtCall(rtLast, ins.cx(s.Lhs[0]))}})
	return append(out, post...), true
}

// appendValueAssign rewrites lhs = append(s, v) for a struct or array
// variable v with tracked leaves (a token pushed onto a lexer's queue):
// the cells of v follow it into the new last element, as CopyMem follows
// lhs = v. v's address is taken before the append, so that the copy reads
// v's cells even when v is an element of the array the append moved.
func (ins *instrumenter) appendValueAssign(s *ast.AssignStmt, x *ast.CallExpr, elem types.Type) ([]ast.Stmt, bool) {
	v := x.Args[1]
	if !hasLeaves(elem, 0) || !ins.pure(v) {
		return nil, false
	}
	from := ins.newTemp("a")
	site := siteLit(ins.newSite(sites.Concrete, x))
	return []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{from}, Tok: token.DEFINE, Rhs: []ast.Expr{addrOf(ins.lvalue(v))}},
		&ast.AssignStmt{Lhs: []ast.Expr{ins.lvalue(s.Lhs[0])}, Tok: s.Tok,
			Rhs: []ast.Expr{call(rtSelAt(rtAppendValue, x.Pos()), site, ins.cx(x.Args[0]), &ast.StarExpr{X: ast.NewIdent(from.Name)})}},
		&ast.ExprStmt{X: rtCall(rtCopyMem, rtCall(rtLast, ins.cx(s.Lhs[0])), ast.NewIdent(from.Name))},
	}, true
}

// litParts returns the struct or array literal x with its non-constant
// elements replaced by temporaries, adding their definitions to pre and
// the stores of the tracked ones at their places in loc to post. Nested
// struct and array literals are filled the same way.
func (ins *instrumenter) litParts(x *ast.CompositeLit, loc ast.Expr, pre, post *[]ast.Stmt) (*ast.CompositeLit, bool) {
	t := ins.typeOf(x)
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	var st *types.Struct
	var elem types.Type
	switch u := t.Underlying().(type) {
	case *types.Struct:
		st = u
	case *types.Array:
		elem = u.Elem()
	default:
		return nil, false
	}
	n := *x
	n.Elts = make([]ast.Expr, len(x.Elts))
	idx := int64(0)
	for i, el := range x.Elts {
		var key ast.Expr
		val := el
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			key, val = kv.Key, kv.Value
		}
		// The place of the element in loc.
		var place ast.Expr
		if st != nil {
			name := ""
			if key != nil {
				name = key.(*ast.Ident).Name
			} else if i < st.NumFields() {
				name = st.Field(i).Name()
			}
			if name == "" || name == "_" {
				return nil, false
			}
			elem = fieldType(st, name)
			place = &ast.SelectorExpr{X: loc, Sel: ast.NewIdent(name)}
		} else {
			if key != nil {
				c := ins.info.Types[key].Value
				if c == nil {
					return nil, false
				}
				idx, _ = constant.Int64Val(constant.ToInt(c))
			}
			place = &ast.IndexExpr{X: loc, Index: &ast.BasicLit{Kind: token.INT, Value: constant.MakeInt64(idx).String()}}
			idx++
		}
		nv, ok := ins.litElem(val, elem, place, pre, post)
		if !ok {
			return nil, false
		}
		if key != nil {
			n.Elts[i] = &ast.KeyValueExpr{Key: key, Value: nv}
		} else {
			n.Elts[i] = nv
		}
	}
	return &n, true
}

// litElem returns the expression that stands for the element val of a
// literal, at place: a constant stays, a nested struct or array literal
// is filled in turn, a tracked value becomes a V temporary stored at
// place afterwards, and anything else a plain temporary.
func (ins *instrumenter) litElem(val ast.Expr, elem types.Type, place ast.Expr, pre, post *[]ast.Stmt) (ast.Expr, bool) {
	if ins.isConst(val) || isNil(val, ins) {
		return val, true
	}
	// A nested literal is filled in place only where the place has its
	// type: one assigned to an interface field or element is boxed, and
	// its fields are not the place's.
	if lit, ok := ast.Unparen(val).(*ast.CompositeLit); ok && elem != nil && types.Identical(ins.typeOf(lit), elem) {
		if _, isPtr := ins.typeOf(lit).Underlying().(*types.Pointer); !isPtr {
			switch ins.typeOf(lit).Underlying().(type) {
			case *types.Struct, *types.Array:
				return ins.litParts(lit, place, pre, post)
			}
		}
	}
	if _, isFunc := ast.Unparen(val).(*ast.FuncLit); isFunc {
		return ins.cx(val), true
	}
	tmp := ins.newTemp("t")
	k := ins.trackOfExpr(val)
	if op, ok := memOp[k]; ok && ins.mayBeSymbolic(val) && elem != nil && types.Identical(ins.typeOf(val), elem) {
		v, ok := ins.v(val)
		if !ok {
			return nil, false
		}
		*pre = append(*pre, &ast.AssignStmt{Lhs: []ast.Expr{tmp}, Tok: token.DEFINE, Rhs: []ast.Expr{v}})
		*post = append(*post, &ast.ExprStmt{X: rtCall(op.store, tmp, addrOf(place))})
		return field(tmp, vConcrete), true
	}
	*pre = append(*pre, &ast.AssignStmt{Lhs: []ast.Expr{tmp}, Tok: token.DEFINE, Rhs: []ast.Expr{ins.cx(val)}})
	return tmp, true
}

// fieldType returns the type of st's field name, nil if it has none.
func fieldType(st *types.Struct, name string) types.Type {
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == name {
			return st.Field(i).Type()
		}
	}
	return nil
}

// elemOps names the runtime's variants of a slice operation: for
// scalars, for strings, and for a type parameter over mixed ordered
// types.
type elemOps struct{ scalar, str, ord string }

// The variants of rt.Append and rt.SliceOf.
var (
	appendOps  = elemOps{rtAppend, rtAppendString, rtAppendOrd}
	sliceOfOps = elemOps{rtSliceOf, rtSliceOfString, rtSliceOfOrd}
)

// elemOp names the runtime's variant of the slice operation ops for
// elements of type elem; false for elements it does not track.
func elemOp(ops elemOps, elem types.Type) (string, bool) {
	switch trackOf(elem) {
	case trackInt, trackBool, trackFloat:
		return ops.scalar, true
	case trackString:
		return ops.str, true
	case trackOrdered:
		return ops.ord, true
	}
	return "", false
}
