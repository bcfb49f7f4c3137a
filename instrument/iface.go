// This file makes interfaces inputs and their dynamic types symbolic. An
// interface parameter (or field, or element) is a choice among the types
// of the target package that implement it (candidates), each with the
// shape of its own value; the runtime keys the choice by the interface
// value it built (rt/iface.go). Type switches, type assertions and
// comparisons of interfaces with nil are rewritten into runtime calls
// that record their tests as branches on that choice.

package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gocolic/gocolic/sites"
)

// maxCands bounds the candidates of an interface input: an interface
// with few methods, above all the empty one, is implemented by many
// types, and every candidate is assembled on every execution.
const maxCands = 8

// candidates returns the dynamic types an input of the interface type t
// may have: the non-generic types declared at package level in the target
// package that implement it and can be inputs, each type T before *T and
// the types by name, at most maxCands. For an interface without methods
// (any) only the types themselves count, not pointers to them, which
// implement nothing more and would halve the types the bound lets in.
func (ins *instrumenter) candidates(t types.Type) []types.Type {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	scope := ins.pkg.Types.Scope()
	var out []types.Type
	for _, name := range scope.Names() { // sorted
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
			continue
		}
		kinds := []types.Type{named, types.NewPointer(named)}
		if iface.Empty() {
			kinds = kinds[:1]
		}
		for _, c := range kinds {
			if types.Implements(c, iface) && ins.unsupported(c) == "" {
				out = append(out, c)
				if len(out) == maxCands {
					return out
				}
			}
		}
	}
	return out
}

// iface fills sh, the shape of an interface value of type t at loc: the
// entry file switches on the choice input, builds the chosen candidate in a
// variable of its own (a pointer candidate points to a new object, never
// nil) and hands it to rt.InputIface, which boxes it and remembers the
// choice. A choice past the candidates leaves the interface nil.
func (s *shaper) iface(t types.Type, sh *Shape, loc, path string) *Shape {
	cands := s.ins.candidates(t)
	if len(cands) == 0 || s.onPath[t] >= maxUnfold {
		return nil
	}
	s.onPath[t]++
	defer func() { s.onPath[t]-- }()
	sh.Kind = ShapeIface
	sh.Leaf = s.bounded(path+".type", len(cands))
	var list bytes.Buffer
	list.WriteString(rtRef(rtTypes) + "{")
	for k, c := range cands {
		if k > 0 {
			list.WriteString(", ")
		}
		fmt.Fprintf(&list, "%s[%s]()", rtRef(rtTypeFor), s.name(c))
	}
	list.WriteString("}")
	s.printf("switch %s(in, %d).%s {\n", rtRef(rtInputLen), sh.Leaf, vConcrete)
	for k, c := range cands {
		s.tmp++
		v := fmt.Sprintf("%s%d", candPrefix, s.tmp)
		s.printf("case %d:\n", k)
		sh.Elems = append(sh.Elems, s.candidate(c, v, path+"("+types.TypeString(c, nameQualifier(s.ins.pkg.Types))+")"))
		s.printf("%s = %s[%s](in, %d, %s, &%s)\n", loc, rtRef(rtInputIface), s.name(t), sh.Leaf, list.String(), v)
	}
	s.printf("default:\n%s(in, %d)\n}\n", rtRef(rtInputIfaceNil), sh.Leaf)
	return sh
}

// candidate declares the variable v holding a value of candidate type c
// and returns its shape; a pointer's shape is never nil (Leaf -1).
func (s *shaper) candidate(c types.Type, v, path string) *Shape {
	p, ok := c.(*types.Pointer)
	if !ok {
		s.printf("var %s %s\n", v, s.name(c))
		return s.build(c, v, path)
	}
	s.printf("%s := new(%s)\n", v, s.name(p.Elem()))
	s.onPath[p.Elem()]++
	defer func() { s.onPath[p.Elem()]-- }()
	return &Shape{Kind: ShapePointer, Type: c, Leaf: -1,
		Elems: []*Shape{s.build(p.Elem(), "(*"+v+")", path)}}
}

// typeAssert rewrites x.(T). The runtime records the test of the dynamic
// type as a branch at a site of its own (rt.Assert): of kind sites.Cond
// in the comma-ok form (commaOK), where both outcomes are normal, and
// sites.Implicit in the form that panics when the test fails.
func (ins *instrumenter) typeAssert(x *ast.TypeAssertExpr, commaOK bool) ast.Expr {
	kind := sites.Implicit
	if commaOK {
		kind = sites.Cond
	}
	site := siteLit(ins.newSite(kind, x))
	return &ast.TypeAssertExpr{X: call(rtInst(rtAssert, x.Type), site, ins.cx(x.X)), Type: x.Type}
}

// typeSwitchX rewrites the operand x of the type switch s into a call of
// rt.TypeSwitch that records, in Go's order, each case type's test as a
// branch of its own (sites.Cond); nil when s has no case type.
func (ins *instrumenter) typeSwitchX(s *ast.TypeSwitchStmt, x ast.Expr) ast.Expr {
	args := []ast.Expr{ins.cx(x)}
	for _, c := range s.Body.List {
		for _, te := range c.(*ast.CaseClause).List {
			site := siteLit(ins.newSite(sites.Cond, te))
			if tv, ok := ins.info.Types[te]; ok && tv.IsNil() {
				args = append(args, rtCall(rtCaseNil, site))
				continue
			}
			args = append(args, call(rtInst(rtCaseOf, te), site))
		}
	}
	if len(args) == 1 {
		return args[0]
	}
	return rtCall(rtTypeSwitch, args...)
}

// unboxCase returns the statement that gives the variable a type switch
// binds in the clause cc the shadows of the value the interface holds
// (rt.Unbox), or nil when the clause's variable does not need them.
func (ins *instrumenter) unboxCase(s *ast.TypeSwitchStmt, cc *ast.CaseClause) ast.Stmt {
	a, ok := s.Assign.(*ast.AssignStmt)
	if !ok || len(cc.List) != 1 {
		return nil
	}
	id, ok := a.Lhs[0].(*ast.Ident)
	if !ok || id.Name == "_" || !ins.unboxes(ins.typeOf(cc.List[0])) {
		return nil
	}
	return &ast.ExprStmt{X: rtCall(rtUnbox, addrOf(ast.NewIdent(id.Name)))}
}

// unboxAssign returns rt.Unbox(&lhs) when lhs, of a struct or array type
// with leaves, was just assigned x.(T) (rhs), else nil: the copy the
// interface holds has the shadows the entry file stored.
func (ins *instrumenter) unboxAssign(lhs, rhs ast.Expr) ast.Expr {
	ta, ok := ast.Unparen(rhs).(*ast.TypeAssertExpr)
	if !ok || ta.Type == nil || !ins.unboxes(ins.typeOf(ta.Type)) {
		return nil
	}
	if id, ok := ast.Unparen(lhs).(*ast.Ident); (ok && id.Name == "_") || !ins.pure(lhs) {
		return nil
	}
	return rtCall(rtUnbox, addrOf(ins.lvalue(lhs)))
}

// unboxes reports whether a value of type t, bound from an interface,
// gets the shadows of the interface's box: a struct or array with leaves
// (a pointer reaches its object's shadows as it is).
func (ins *instrumenter) unboxes(t types.Type) bool {
	return t != nil && !types.IsInterface(t) && hasLeaves(t, 0)
}

// unboxIfInit wraps the condition of an if statement whose init assigns
// a type assertion, so that the variable it binds gets its shadows
// before the condition reads it: rt.Unboxed(&v) && cond.
func (ins *instrumenter) unboxIfInit(init ast.Stmt, cond ast.Expr) ast.Expr {
	a, ok := init.(*ast.AssignStmt)
	if !ok || len(a.Rhs) != 1 || len(a.Lhs) == 0 {
		return cond
	}
	u := ins.unboxAssign(a.Lhs[0], a.Rhs[0])
	if u == nil {
		return cond
	}
	u.(*ast.CallExpr).Fun = rtSel(rtUnboxed)
	return &ast.BinaryExpr{X: u, Op: token.LAND, Y: cond}
}

// passIface wraps the receiver rx of a call of a method of an interface
// (rt.PassIface), so that a value receiver gets the shadows of the box.
func (ins *instrumenter) passIface(sel *ast.SelectorExpr, rx ast.Expr) ast.Expr {
	s, ok := ins.info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal || !types.IsInterface(s.Recv()) {
		return rx
	}
	if _, isTypeParam := s.Recv().(*types.TypeParam); isTypeParam {
		return rx
	}
	return rtCall(rtPassIface, rx)
}
