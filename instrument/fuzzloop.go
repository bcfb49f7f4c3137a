// This file reads the f.Add calls a fuzz target makes in a loop over a
// table of constants, the form most real fuzz targets add their seeds in:
//
//	for _, s := range []string{"a", "b"} { f.Add(s) }
//	for _, tc := range tests { f.Add(tc.in, tc.n) }
//
// The loop is unrolled statically: every element of the table binds the
// loop variables, and each f.Add argument must be a constant, a loop
// variable, a field of one, or a []byte/string conversion of those.

package instrument

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// maxLoopSeeds bounds the seeds one loop (with its nested loops) yields:
// beyond it the table is not a list of seeds but data.
const maxLoopSeeds = 1 << 14

// seedVal is the value of a table element: a constant (a string constant
// for a []byte), or a struct literal's fields, or why it cannot be read.
type seedVal struct {
	c      constant.Value
	st     *types.Struct
	fields map[int]*seedVal // by field index; a missing field is zero
	why    string
}

// field returns field i of a struct value.
func (v *seedVal) field(i int) *seedVal {
	if f, ok := v.fields[i]; ok {
		return f
	}
	return zeroSeed(v.st.Field(i).Type())
}

// zeroSeed returns the zero value of t as a seed value.
func zeroSeed(t types.Type) *seedVal {
	switch trackOf(t) {
	case trackBool:
		return &seedVal{c: constant.MakeBool(false)}
	case trackString, trackBytes:
		return &seedVal{c: constant.MakeString("")}
	case trackInt, trackFloat:
		return &seedVal{c: constant.MakeInt64(0)}
	}
	if st, ok := t.Underlying().(*types.Struct); ok {
		return &seedVal{st: st}
	}
	return &seedVal{why: fmt.Sprintf("is the zero %s", t)}
}

// loopSeeds returns the seeds of the f.Add calls of f (fParam) inside the
// range loop rs. A loop of a form gocolic does not read yields its f.Add
// calls as they are, each read alone as before, and one whose arguments
// cannot be read says which form of the loop was not understood.
func (ins *instrumenter) loopSeeds(rs *ast.RangeStmt, fParam types.Object) []Seed {
	u := &unroll{ins: ins, fParam: fParam, bad: map[*ast.CallExpr]string{}}
	why := u.loop(rs, map[types.Object]*seedVal{}, token.NoPos)
	if why == "" && len(u.bad) == 0 {
		return u.seeds
	}
	var out []Seed
	if why == "" {
		out = u.seeds
	}
	for _, c := range ins.addCalls(rs.Body, fParam) {
		sd := ins.seed(c)
		switch {
		case why != "" && sd.Problem != "":
			sd.Problem += "; the loop around it is not read as a table of seeds: " + why
		case why == "" && u.bad[c] != "":
			sd.Problem = u.bad[c]
		case why == "":
			continue // read with the table
		}
		out = append(out, sd)
	}
	return out
}

// unroll is the state of reading one loop of seeds.
type unroll struct {
	ins    *instrumenter
	fParam types.Object
	seeds  []Seed
	// bad holds the f.Add calls of the loop whose arguments are of a
	// form not read, with the problem.
	bad map[*ast.CallExpr]string
}

// loop binds the variables of rs to each element of its table in turn,
// with env the bindings of the loops around it and at the position of
// the element that bound them last, and reads the body. It returns why
// the loop cannot be read; "" if it can.
func (u *unroll) loop(rs *ast.RangeStmt, env map[types.Object]*seedVal, at token.Pos) string {
	ins := u.ins
	if rs.Tok != token.DEFINE && (rs.Key != nil || rs.Value != nil) {
		return "it assigns to variables declared outside it"
	}
	var lit *ast.CompositeLit
	var elem types.Type
	n := 0
	if tv := ins.info.Types[rs.X]; tv.Value != nil && tv.Value.Kind() == constant.Int {
		// for i := range 10: the key takes 0 … n-1.
		k, ok := constant.Int64Val(tv.Value)
		if !ok || k > maxLoopSeeds {
			return fmt.Sprintf("it ranges over %s, more than %d values", tv.Value, maxLoopSeeds)
		}
		n = max(int(k), 0)
	} else {
		var why string
		if lit, why = ins.seedTable(rs.X); why != "" {
			return why
		}
		n = len(lit.Elts)
		switch t := ins.info.Types[lit].Type.Underlying().(type) {
		case *types.Slice:
			elem = t.Elem()
		case *types.Array:
			elem, n = t.Elem(), int(t.Len())
		default:
			return fmt.Sprintf("it ranges over a literal of %s, not of a slice or array", ins.info.Types[lit].Type)
		}
		for _, el := range lit.Elts {
			if _, ok := el.(*ast.KeyValueExpr); ok {
				return "its table has indexed elements"
			}
		}
	}
	for _, st := range rs.Body.List {
		switch s := st.(type) {
		case *ast.ExprStmt:
			if c := ins.addCall(s, u.fParam); c != nil {
				continue
			}
		case *ast.RangeStmt:
			continue
		}
		return fmt.Sprintf("its body holds %s at line %d, not only f.Add calls and range loops", stmtKind(st), ins.fset.Position(st.Pos()).Line)
	}
	key, val := ins.loopVar(rs.Key), ins.loopVar(rs.Value)
	for i := range n {
		var v *seedVal
		pos := at
		switch {
		case lit == nil:
			pos = rs.X.Pos()
		case i < len(lit.Elts):
			v, pos = ins.tableValue(lit.Elts[i], elem), lit.Elts[i].Pos()
		default:
			v = zeroSeed(elem)
		}
		inner := make(map[types.Object]*seedVal, len(env)+2)
		for o, b := range env {
			inner[o] = b
		}
		if key != nil {
			inner[key] = &seedVal{c: constant.MakeInt64(int64(i))}
		}
		if val != nil {
			inner[val] = v
		}
		for _, st := range rs.Body.List {
			switch s := st.(type) {
			case *ast.ExprStmt:
				u.add(ins.addCall(s, u.fParam), inner, pos)
			case *ast.RangeStmt:
				if why := u.loop(s, inner, pos); why != "" {
					return why
				}
			}
			if len(u.seeds) > maxLoopSeeds {
				return fmt.Sprintf("it yields more than %d seeds", maxLoopSeeds)
			}
		}
	}
	return ""
}

// add reads one f.Add call c with the loop variables bound by env, from
// the table element at pos.
func (u *unroll) add(c *ast.CallExpr, env map[types.Object]*seedVal, pos token.Pos) {
	if _, done := u.bad[c]; done {
		return
	}
	if c.Ellipsis.IsValid() {
		u.bad[c] = "its arguments are a slice passed with ..., not constants"
		return
	}
	sd := Seed{Pos: u.ins.fset.Position(pos)}
	for i, a := range c.Args {
		v, why, form := u.ins.loopArg(a, env)
		if form != "" {
			u.bad[c] = fmt.Sprintf("argument %d (%s) %s", i+1, shortExpr(a), form)
			return
		}
		if v == nil && sd.Problem == "" {
			sd.Problem = fmt.Sprintf("argument %d (%s) %s", i+1, shortExpr(a), why)
		}
		sd.Values = append(sd.Values, v)
	}
	u.seeds = append(u.seeds, sd)
}

// loopArg returns the value of an f.Add argument a inside a loop whose
// variables env binds. why says why this element's value cannot be read;
// form says that a is of a form not read at all.
func (ins *instrumenter) loopArg(a ast.Expr, env map[types.Object]*seedVal) (v constant.Value, why, form string) {
	if tv, ok := ins.info.Types[a]; ok && tv.Value != nil {
		return tv.Value, "", ""
	}
	if sv, ok := ins.boundValue(a, env); ok {
		if sv.c == nil {
			if sv.why == "" {
				return nil, "is a struct, not a constant", ""
			}
			return nil, sv.why, ""
		}
		return sv.c, "", ""
	}
	x := ast.Unparen(a)
	if c, ok := x.(*ast.CallExpr); ok && len(c.Args) == 1 && ins.info.Types[c.Fun].IsType() {
		to := ins.info.Types[c.Fun].Type
		sv, ok := ins.boundValue(c.Args[0], env)
		switch k := trackOf(to); {
		case ok && (k == trackBytes || k == trackString):
			switch {
			case sv.c == nil:
				return nil, sv.why, ""
			case sv.c.Kind() == constant.String:
				return sv.c, "", ""
			}
		case ok && sv.c != nil && (k == trackInt || k == trackFloat) && (sv.c.Kind() == constant.Int || sv.c.Kind() == constant.Float):
			// byte(i), float64(i): the value as the conversion gives it.
			if b, isBasic := to.Underlying().(*types.Basic); isBasic && representable(sv.c, b) {
				if k == trackFloat {
					return constant.ToFloat(sv.c), "", ""
				}
				return sv.c, "", ""
			}
			return nil, fmt.Sprintf("is %s, not representable as %s", sv.c, to), ""
		}
	}
	if v, why := ins.seedArg(a); v != nil || !ins.mentions(a, env) {
		return v, why, ""
	}
	return nil, "", "is not a constant, a loop variable, a field of one, nor a []byte or string conversion of one"
}

// representable reports whether the numeric constant c is a value of
// type b: in range for an integer type (a float with a fraction is not),
// any number for a float type. int, uint and uintptr count as 64 bits,
// as on every platform gocolic runs on.
func representable(c constant.Value, b *types.Basic) bool {
	if b.Info()&types.IsFloat != 0 {
		return true
	}
	if b.Info()&types.IsInteger == 0 {
		return false
	}
	c = constant.ToInt(c)
	if c.Kind() != constant.Int {
		return false
	}
	bits := map[types.BasicKind]uint{
		types.Int8: 8, types.Int16: 16, types.Int32: 32, types.Uint8: 8, types.Uint16: 16, types.Uint32: 32,
	}[b.Kind()]
	if bits == 0 {
		bits = 64
	}
	lo, hi := constant.MakeInt64(0), constant.Shift(constant.MakeInt64(1), token.SHL, bits)
	if b.Info()&types.IsUnsigned == 0 {
		hi = constant.Shift(constant.MakeInt64(1), token.SHL, bits-1)
		lo = constant.UnaryOp(token.SUB, hi, 0)
	}
	return constant.Compare(c, token.GEQ, lo) && constant.Compare(c, token.LSS, hi)
}

// boundValue returns the value of e when e is a loop variable of env or
// a chain of field selections on one.
func (ins *instrumenter) boundValue(e ast.Expr, env map[types.Object]*seedVal) (*seedVal, bool) {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := env[ins.info.Uses[x]]
		return v, ok
	case *ast.SelectorExpr:
		sel, ok := ins.info.Selections[x]
		if !ok || sel.Kind() != types.FieldVal {
			return nil, false
		}
		v, ok := ins.boundValue(x.X, env)
		if !ok {
			return nil, false
		}
		for _, i := range sel.Index() {
			if v.st == nil {
				return &seedVal{why: v.why}, true
			}
			v = v.field(i)
		}
		return v, true
	}
	return nil, false
}

// mentions reports whether e uses a variable env binds.
func (ins *instrumenter) mentions(e ast.Expr, env map[types.Object]*seedVal) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if _, ok := env[ins.info.Uses[id]]; ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// tableValue reads element e of type t of a table.
func (ins *instrumenter) tableValue(e ast.Expr, t types.Type) *seedVal {
	if tv, ok := ins.info.Types[e]; ok && tv.Value != nil {
		return &seedVal{c: tv.Value}
	}
	e = ast.Unparen(e)
	if trackOf(t) == trackBytes {
		v, why := ins.seedArg(e)
		return &seedVal{c: v, why: why}
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	lit, isLit := e.(*ast.CompositeLit)
	if !ok || !isLit {
		return &seedVal{why: fmt.Sprintf("is %s in the table, not a constant", shortExpr(e))}
	}
	v := &seedVal{st: st, fields: map[int]*seedVal{}}
	for i, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			id, _ := kv.Key.(*ast.Ident)
			for j := range st.NumFields() {
				if id != nil && st.Field(j).Name() == id.Name {
					v.fields[j] = ins.tableValue(kv.Value, st.Field(j).Type())
				}
			}
			continue
		}
		if i < st.NumFields() {
			v.fields[i] = ins.tableValue(el, st.Field(i).Type())
		}
	}
	return v
}

// seedTable returns the literal a loop of seeds ranges over: x itself, or
// the literal that initialises the variable x when nothing else assigns
// to it or can change its elements; or why there is none.
func (ins *instrumenter) seedTable(x ast.Expr) (*ast.CompositeLit, string) {
	x = ast.Unparen(x)
	if lit, ok := x.(*ast.CompositeLit); ok {
		return lit, ""
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return nil, fmt.Sprintf("it ranges over %s, not a literal nor a variable", shortExpr(x))
	}
	obj, ok := ins.info.Uses[id].(*types.Var)
	if !ok {
		return nil, fmt.Sprintf("it ranges over %s, not a literal nor a variable", id.Name)
	}
	var init ast.Expr
	changed := token.NoPos
	for _, f := range ins.pkg.Syntax {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if id, ok := n.(*ast.Ident); ok && len(stack) > 0 {
				switch {
				case ins.info.Defs[id] == obj:
					init = initOf(stack[len(stack)-1], id)
				case ins.info.Uses[id] == obj && !readOnlyUse(ins.info, stack[len(stack)-1], id) && !changed.IsValid():
					changed = id.Pos()
				}
			}
			stack = append(stack, n)
			return true
		})
	}
	if changed.IsValid() {
		return nil, fmt.Sprintf("%s is used at line %d other than by range or len, which could change it", id.Name, ins.fset.Position(changed).Line)
	}
	lit, ok := ast.Unparen(init).(*ast.CompositeLit)
	if init == nil || !ok {
		return nil, fmt.Sprintf("%s is not initialised by a literal", id.Name)
	}
	return lit, ""
}

// initOf returns the expression parent gives id, which it declares, or
// nil.
func initOf(parent ast.Node, id *ast.Ident) ast.Expr {
	switch p := parent.(type) {
	case *ast.ValueSpec:
		for i, n := range p.Names {
			if n == id && len(p.Values) == len(p.Names) {
				return p.Values[i]
			}
		}
	case *ast.AssignStmt:
		for i, n := range p.Lhs {
			if n == id && len(p.Rhs) == len(p.Lhs) {
				return p.Rhs[i]
			}
		}
	}
	return nil
}

// readOnlyUse reports whether the use id of a table variable, whose
// syntactic parent is parent, only reads it: ranged over, or the
// argument of len or cap.
func readOnlyUse(info *types.Info, parent ast.Node, id *ast.Ident) bool {
	switch p := parent.(type) {
	case *ast.RangeStmt:
		return p.X == id
	case *ast.CallExpr:
		if fn, ok := ast.Unparen(p.Fun).(*ast.Ident); ok {
			if b, ok := info.Uses[fn].(*types.Builtin); ok {
				return b.Name() == "len" || b.Name() == "cap"
			}
		}
	}
	return false
}

// loopVar returns the variable a range loop declares in e, or nil.
func (ins *instrumenter) loopVar(e ast.Expr) types.Object {
	if id, ok := e.(*ast.Ident); ok {
		return ins.info.Defs[id]
	}
	return nil
}

// addCall returns the f.Add call of the statement s, or nil.
func (ins *instrumenter) addCall(s *ast.ExprStmt, fParam types.Object) *ast.CallExpr {
	c, ok := s.X.(*ast.CallExpr)
	if !ok {
		return nil
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Add" {
		return nil
	}
	if id, ok := sel.X.(*ast.Ident); !ok || ins.info.Uses[id] != fParam {
		return nil
	}
	return c
}

// addCalls returns the f.Add calls inside n, in source order.
func (ins *instrumenter) addCalls(n ast.Node, fParam types.Object) []*ast.CallExpr {
	var out []*ast.CallExpr
	ast.Inspect(n, func(n ast.Node) bool {
		if s, ok := n.(*ast.ExprStmt); ok {
			if c := ins.addCall(s, fParam); c != nil {
				out = append(out, c)
			}
		}
		return true
	})
	return out
}

// stmtKind names the kind of a statement for a message.
func stmtKind(s ast.Stmt) string {
	switch s.(type) {
	case *ast.IfStmt:
		return "an if statement"
	case *ast.AssignStmt, *ast.DeclStmt:
		return "a declaration or assignment"
	case *ast.ForStmt:
		return "a for loop"
	case *ast.BranchStmt:
		return "a break, continue or goto"
	case *ast.ExprStmt:
		return "a call other than f.Add"
	}
	return "a statement"
}
