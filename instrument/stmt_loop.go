// This file rewrites loops: the condition of a for loop is a branch site,
// and a range over a tracked string or slice becomes a range over the
// runtime's iterator, which records the loop condition.

package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"

	"github.com/gocolic/gocolic/sites"
)

// forStmt rewrites a three-clause for loop; its condition is a branch
// site.
func (ins *instrumenter) forStmt(s *ast.ForStmt) *ast.ForStmt {
	init, defined := ins.simple(s.Init)
	post, _ := ins.simple(s.Post)
	n := &ast.ForStmt{For: s.For, Init: init, Post: post, Body: ins.block(s.Body)}
	if s.Cond != nil {
		n.Cond = ins.cond(s.Cond)
	}
	n.Body.List = append(uses(defined), n.Body.List...)
	return n
}

// rangeStmt rewrites a for range loop over a string, a byte slice, a
// slice or an integer into a three-clause loop over one of the runtime's
// cursors (rt/range.go), which records the loop condition and reads each
// element with its shadow:
//
//	for it, k, v, sv := rt.IterString(site, ascii, seq, x); it.Next(); {
//		k, v, sv = it.At()
//		body
//	}
//
// A byte slice's loop keeps its index in a variable of its own, stepped
// by the post statement (a continue steps it too), so that it stays in a
// register:
//
//	for it, k, v, sv, i := rt.IterBytes(site, x); it.More(i); i++ {
//		k, v, sv = it.At(i)
//		body
//	}
//
// A byte slice's loop whose body is small (copyable) is emitted twice,
// under an if on the slice's shadow: when it is nil, the same loop over
// rt.PlainBytes, whose cursor yields constant nil shadows (rt.PlainIter).
//
// The loop needs no range-over-func, so it compiles at every language
// version, and its variables, declared by the init and assigned before
// each body, are per-loop before go1.22 and per-iteration from go1.22 as
// the range loop's are: the two kinds of loop change at the same version
// of the file, which the rewrite never changes. Other range loops (arrays,
// maps, channels, functions) keep their form.
func (ins *instrumenter) rangeStmt(s *ast.RangeStmt) ast.Stmt {
	body := ins.block(s.Body)
	c, ok := ins.rangeCursor(s)
	if !ok {
		return ins.plainRange(s, body)
	}
	if c.x == nil || !copyable(s.Body) {
		return ins.cursorLoop(s, c, body)
	}
	// A byte slice's loop with a small body: the loop twice, its concrete
	// copy taken when the slice has no shadow (rt.PlainIter says why).
	r := ins.newTemp("r")
	c.start = rtCall(rtIterBytes, c.site, ast.NewIdent(r.Name))
	loop := ins.cursorLoop(s, c, body)
	plain := cloneNode(loop).(*ast.ForStmt)
	plain.Init.(*ast.AssignStmt).Rhs[0] = rtCall(rtPlainBytes, ast.NewIdent(r.Name))
	return &ast.IfStmt{
		If:   s.For,
		Init: &ast.AssignStmt{Lhs: []ast.Expr{r}, Tok: token.DEFINE, Rhs: []ast.Expr{c.x}},
		Cond: &ast.BinaryExpr{X: field(ast.NewIdent(r.Name), "S"), Op: token.EQL, Y: nilIdent()},
		Body: &ast.BlockStmt{List: []ast.Stmt{plain}},
		Else: &ast.BlockStmt{List: []ast.Stmt{loop}},
	}
}

// copyBudget is the largest loop body, in syntax nodes before the
// rewrite, that rangeStmt emits twice: the copy pays off in loops that
// do little per element, and a bound keeps the code from doubling.
const copyBudget = 200

// copyable reports whether a range loop with this body may be emitted
// twice: a small body with no labels (which a function may declare once),
// no branch to a label (a break or continue of the loop's own label would
// then name the if around the two loops; goto is left out with them) and
// no function literal or range loop of its own (whose twins or copies
// would double again).
func copyable(body *ast.BlockStmt) bool {
	n, ok := 0, true
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.LabeledStmt, *ast.FuncLit, *ast.RangeStmt:
			ok = false
		case *ast.BranchStmt:
			ok = ok && x.Label == nil
		}
		n++
		return ok && n <= copyBudget
	})
	return ok && n <= copyBudget
}

// cloneNode returns a deep copy of the syntax tree n, so that a rewritten
// subtree can be emitted twice without sharing nodes. Objects and scopes
// (the parser's resolution, unused by the rewrite) stay shared.
func cloneNode(n ast.Node) ast.Node {
	return cloneValue(reflect.ValueOf(n)).Interface().(ast.Node)
}

// cloneValue is cloneNode for any value of a syntax tree.
func cloneValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == objectType || v.Type() == scopeType {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(cloneValue(v.Elem()))
		return c
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(cloneValue(v.Elem()))
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(cloneValue(v.Index(i)))
		}
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		for i := range v.NumField() {
			c.Field(i).Set(cloneValue(v.Field(i)))
		}
		return c
	}
	return v
}

var (
	objectType = reflect.TypeOf((*ast.Object)(nil))
	scopeType  = reflect.TypeOf((*ast.Scope)(nil))
)

// cursor is how a range loop reads its runtime cursor.
type cursor struct {
	start ast.Expr // the call that makes the cursor and the zero variables
	// vals is the number of values start returns after the cursor: 3 (key,
	// value, shadow), or 1 for an integer (key).
	vals int
	// at returns the call that yields key, value and, if shadowed, the
	// value's shadow, given the cursor's variable and the loop's index
	// (nil unless indexed); nil when the loop has no value.
	at       func(it, idx ast.Expr) ast.Expr
	shadowed bool // at yields the value's shadow
	take     bool // the value's cells are installed with rt.Take
	// indexed: start returns the loop's index last, the condition is
	// it.More(i), the post statement i++, and the key is i.
	indexed bool
	// x and site are a byte slice's value (rt.V) and loop site, from which
	// rangeStmt may make start again; x is nil for other loops.
	x, site ast.Expr
}

// rangeCursor returns the cursor of a range loop over a tracked string or
// byte slice, a slice or a typed integer; false for the other loops.
func (ins *instrumenter) rangeCursor(s *ast.RangeStmt) (cursor, bool) {
	t := ins.typeOf(s.X)
	if t == nil {
		return cursor{}, false
	}
	k := ins.trackOfExpr(s.X)
	method := func(name string) func(ast.Expr, ast.Expr) ast.Expr {
		return func(it, idx ast.Expr) ast.Expr {
			if idx != nil {
				return call(field(it, name), idx)
			}
			return call(field(it, name))
		}
	}
	switch {
	case (k == trackString || k == trackBytes) && k == trackOf(t):
		vx, ok := ins.v(s.X)
		if !ok {
			return cursor{}, false
		}
		c := cursor{vals: 3, at: method(iterAt), shadowed: true}
		loop := siteLit(ins.newSite(sites.Loop, s.X))
		if k == trackBytes {
			c.start, c.indexed, c.x, c.site = rtCall(rtIterBytes, loop, vx), true, vx, loop
		} else {
			ascii, seq := ins.newSite(sites.Implicit, s.X), ins.newSite(sites.Implicit, s.X)
			c.start = rtCall(rtIterString, loop, siteLit(ascii), siteLit(seq), vx)
		}
		return c, true
	case k == trackInt && !ins.isConst(s.X):
		if _, ok := t.Underlying().(*types.Basic); !ok {
			return cursor{}, false // a type parameter: its core type is not one integer type
		}
		vx, ok := ins.v(s.X)
		if !ok {
			return cursor{}, false
		}
		return cursor{start: rtCall(rtIterInt, siteLit(ins.newSite(sites.Loop, s.X)), vx), vals: 1}, true
	}
	sl, ok := t.Underlying().(*types.Slice)
	if !ok || trackOf(t) == trackBytes {
		return cursor{}, false
	}
	c := cursor{vals: 3, start: rtCall(rtIterSlice, siteLit(ins.newSite(sites.Loop, s.X)), ins.cx(s.X))}
	at := rtSliceAtOf
	if ins.scalarSlice(s.X) {
		c.shadowed = true
		switch trackOf(sl.Elem()) {
		case trackOrdered:
			at = rtSliceAtOrd
		case trackString:
			at = rtSliceAtString
		case trackBytes:
			at = rtSliceAtBytes
		default:
			at = rtSliceAt
		}
	} else {
		c.take = hasLeaves(sl.Elem(), 0)
	}
	c.at = func(it, _ ast.Expr) ast.Expr { return rtCall(at, addrOf(it)) }
	return c, true
}

// cursorLoop builds the three-clause loop of s over the cursor c.
func (ins *instrumenter) cursorLoop(s *ast.RangeStmt, c cursor, body *ast.BlockStmt) ast.Stmt {
	it := ins.newTemp("it")
	var idx *ast.Ident // the loop's own index, when the cursor has none
	if c.indexed {
		idx = ins.newTemp("i")
	}
	// idxExpr returns a use of idx, nil when there is none.
	idxExpr := func() ast.Expr {
		if idx == nil {
			return nil
		}
		return ast.NewIdent(idx.Name)
	}
	// keyOf returns the current key: the loop's index, or the cursor's.
	keyOf := func() ast.Expr {
		if idx != nil {
			return idxExpr()
		}
		return call(field(ast.NewIdent(it.Name), iterKey))
	}
	blank := func() ast.Expr { return ast.NewIdent("_") }
	isBlank := func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		return e == nil || ok && id.Name == "_"
	}
	define := s.Tok == token.DEFINE
	// The variables the init declares after the cursor: the loop's own
	// when it defines them, else blanks; a temporary for the shadow of a
	// value that has no shadow variable.
	vars := []ast.Expr{blank(), blank(), blank()}[:c.vals]
	var declared []string
	declare := func(slot int, e ast.Expr) ast.Expr {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" {
			return blank()
		}
		vars[slot] = ast.NewIdent(id.Name)
		declared = append(declared, id.Name)
		return ast.NewIdent(id.Name)
	}
	var pre []ast.Stmt
	key := ast.Expr(blank())
	if !isBlank(s.Key) {
		if define {
			key = declare(0, s.Key)
		} else {
			key = ins.lvalue(s.Key)
		}
	}
	switch {
	case c.at == nil || isBlank(s.Value):
		// No value to read: a key alone, or nothing.
		if !isBlank(s.Key) {
			pre = append(pre, &ast.AssignStmt{Lhs: []ast.Expr{key}, Tok: token.ASSIGN, Rhs: []ast.Expr{keyOf()}})
		}
	default:
		at := c.at(ast.NewIdent(it.Name), idxExpr())
		vid, isID := s.Value.(*ast.Ident)
		var obj types.Object
		if isID {
			obj = ins.info.Defs[vid]
			if obj == nil {
				obj = ins.info.Uses[vid]
			}
		}
		switch {
		case isID && !c.shadowed:
			val := ast.Expr(ast.NewIdent(vid.Name))
			if define {
				val = declare(1, s.Value)
			}
			pre = append(pre, &ast.AssignStmt{Lhs: []ast.Expr{key, val}, Tok: token.ASSIGN, Rhs: []ast.Expr{at}})
			if c.take {
				pre = append(pre, &ast.ExprStmt{X: rtCall(rtTake, addrOf(ast.NewIdent(vid.Name)))})
			}
		case isID && obj != nil && ins.shadow[obj]:
			val := ast.Expr(ast.NewIdent(vid.Name))
			if define {
				val = declare(1, s.Value)
			}
			sh := ins.shadowName(obj)
			if define {
				vars[2] = ast.NewIdent(sh)
				declared = append(declared, sh)
			}
			pre = append(pre, &ast.AssignStmt{Lhs: []ast.Expr{key, val, ast.NewIdent(sh)}, Tok: token.ASSIGN, Rhs: []ast.Expr{at}})
		case isID:
			// A variable without a shadow (its address is taken): the
			// element's term is dropped, and counted.
			val := ast.Expr(ast.NewIdent(vid.Name))
			if define {
				val = declare(1, s.Value)
			}
			tmp := ins.newTemp("s")
			vars[2] = tmp
			declared = append(declared, tmp.Name)
			pre = append(pre,
				&ast.AssignStmt{Lhs: []ast.Expr{key, val, ast.NewIdent(tmp.Name)}, Tok: token.ASSIGN, Rhs: []ast.Expr{at}},
				ins.lose(s.Value, vid.Name, tmp.Name))
		default:
			// An element or field as the value (for k, x.f = range s):
			// read into temporaries, assigned in one statement as the
			// range loop assigns, with the term dropped and counted.
			tv, ts := ins.newTemp("v"), ins.newTemp("s")
			vars[1], vars[2] = tv, ts
			declared = append(declared, tv.Name, ts.Name)
			var kget ast.Expr = blank()
			if !isBlank(s.Key) {
				kget = keyOf()
			}
			site := siteLit(ins.newSite(sites.Concrete, s.Value))
			lhs := []ast.Expr{ins.lvalue(s.Value)}
			rhs := []ast.Expr{rtCall(rtConcrete, site, rtSel(rtCauseAssign), call(rtSel(rtMk), ast.NewIdent(tv.Name), ast.NewIdent(ts.Name)))}
			if !isBlank(s.Key) {
				lhs = append([]ast.Expr{key}, lhs...)
				rhs = append([]ast.Expr{kget}, rhs...)
			}
			pre = append(pre,
				&ast.AssignStmt{Lhs: []ast.Expr{blank(), ast.NewIdent(tv.Name), ast.NewIdent(ts.Name)}, Tok: token.ASSIGN, Rhs: []ast.Expr{at}},
				&ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, Rhs: rhs})
		}
	}
	lhs := append([]ast.Expr{it}, vars...)
	cond := call(field(ast.NewIdent(it.Name), iterNext))
	var post ast.Stmt
	if idx != nil {
		lhs = append(lhs, idx)
		cond = call(field(ast.NewIdent(it.Name), iterMore), idxExpr())
		post = &ast.IncDecStmt{X: idxExpr(), Tok: token.INC}
	}
	init := &ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: []ast.Expr{c.start}}
	body.List = append(append(pre, uses(declared)...), body.List...)
	return &ast.ForStmt{
		For:  s.For,
		Init: init,
		Cond: cond,
		Post: post,
		Body: body,
	}
}

// lose returns the statement that counts the drop of the shadow sh of the
// range value name, which has no shadow variable (CauseAssign).
func (ins *instrumenter) lose(at ast.Node, name, sh string) ast.Stmt {
	site := siteLit(ins.newSite(sites.Concrete, at))
	return &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{
		rtCall(rtConcrete, site, rtSel(rtCauseAssign), call(rtSel(rtMk), ast.NewIdent(name), ast.NewIdent(sh))),
	}}
}

// plainRange keeps a range loop the runtime has no cursor for; a value
// variable that analyse gave a shadow gets a nil one.
func (ins *instrumenter) plainRange(s *ast.RangeStmt, body *ast.BlockStmt) ast.Stmt {
	n := &ast.RangeStmt{For: s.For, Key: s.Key, Value: s.Value, Tok: s.Tok, Range: s.Range, X: ins.cx(s.X), Body: body}
	vid, ok := s.Value.(*ast.Ident)
	if !ok {
		return n
	}
	obj := ins.info.Defs[vid]
	if obj == nil {
		obj = ins.info.Uses[vid]
	}
	if obj == nil || !ins.shadow[obj] {
		return n
	}
	sh := ins.shadowName(obj)
	var st ast.Stmt = &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(sh)}, Tok: token.ASSIGN, Rhs: []ast.Expr{nilIdent()}}
	if s.Tok == token.DEFINE {
		st = &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{
			Names: []*ast.Ident{ast.NewIdent(sh)}, Type: &ast.StarExpr{X: rtSel(rtExpr)},
		}}}}
	}
	body.List = append([]ast.Stmt{st, use(sh)}, body.List...)
	return n
}
