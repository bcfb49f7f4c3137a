package explore

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/gocolic/gocolic/sites"
)

// Source is the typed syntax of the package whose branch sites
// SitePropsOf describes: the files the sites' positions point into.
type Source struct {
	Fset  *token.FileSet
	Files []*ast.File
	Info  *types.Info
	Pkg   *types.Package
}

// SitePropsOf returns the static properties of every branch site of
// table: entry names the function under test (a method by its name
// alone, as the sites name functions; a fuzz target's body is its
// FuzzXxx). A site is found in src by the extent of its condition; a
// site src does not hold (a support package's) gets only what its table
// entry says (entry function, range-loop guard).
func SitePropsOf(src Source, table []sites.Site, entry string) map[uint32]SiteProps {
	if i := strings.LastIndex(entry, "."); i >= 0 {
		entry = entry[i+1:]
	}
	type extent struct {
		file       string
		start, end int
	}
	out := make(map[uint32]SiteProps, len(table))
	at := make(map[extent][]uint32)
	for _, s := range table {
		if !s.IsBranch() {
			continue
		}
		var st SiteProps
		if s.Func == entry {
			st |= SEntry
		}
		if s.Kind == sites.Loop {
			st |= SLoopGuard | SInLoop
		}
		out[s.ID] = st
		at[extent{s.Pos.Filename, s.Pos.Offset, s.End.Offset}] = append(at[extent{s.Pos.Filename, s.Pos.Offset, s.End.Offset}], s.ID)
	}
	if src.Fset == nil || src.Info == nil {
		return out
	}
	a := analyser{src: src, fromExternal: map[types.Object]bool{}}
	for _, f := range src.Files {
		a.assignments(f)
	}
	for _, f := range src.Files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if e, ok := n.(ast.Expr); ok {
				p, q := src.Fset.Position(e.Pos()), src.Fset.Position(e.End())
				if ids := at[extent{p.Filename, p.Offset, q.Offset}]; len(ids) > 0 {
					st := a.site(e, stack)
					for _, id := range ids {
						out[id] |= st
					}
				}
			}
			stack = append(stack, n)
			return true
		})
	}
	return out
}

type analyser struct {
	src Source
	// fromExternal holds the variables assigned the result of a call of
	// another package's function somewhere.
	fromExternal map[types.Object]bool
}

// assignments marks the variables of f that a call of another package's
// function assigns: v, err := pkg.F().
func (a *analyser) assignments(f *ast.File) {
	mark := func(lhs []ast.Expr, rhs []ast.Expr) {
		if len(rhs) != 1 {
			return
		}
		call, ok := ast.Unparen(rhs[0]).(*ast.CallExpr)
		if !ok || !a.external(call) {
			return
		}
		for _, l := range lhs {
			if id, ok := l.(*ast.Ident); ok {
				if obj := a.object(id); obj != nil {
					a.fromExternal[obj] = true
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			mark(n.Lhs, n.Rhs)
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			mark(lhs, n.Values)
		}
		return true
	})
}

func (a *analyser) object(id *ast.Ident) types.Object {
	if obj := a.src.Info.Defs[id]; obj != nil {
		return obj
	}
	return a.src.Info.Uses[id]
}

// callee returns the function a call calls statically, nil for a call of
// a function value, a builtin or a conversion.
func (a *analyser) callee(call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch fn := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fn
	case *ast.SelectorExpr:
		id = fn.Sel
	case *ast.IndexExpr: // a generic function instantiated explicitly
		return a.callee(&ast.CallExpr{Fun: fn.X})
	default:
		return nil
	}
	f, _ := a.src.Info.Uses[id].(*types.Func)
	return f
}

// external reports whether call calls a function of another package.
func (a *analyser) external(call *ast.CallExpr) bool {
	f := a.callee(call)
	return f != nil && f.Pkg() != nil && f.Pkg() != a.src.Pkg
}

// isCall reports whether e calls a function (not a builtin, not a
// conversion).
func (a *analyser) isCall(e ast.Expr) (*ast.CallExpr, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	if tv, ok := a.src.Info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return call, false
	}
	return call, true
}

// site returns the properties of the site whose condition is e, stack
// holding e's ancestors, innermost last.
func (a *analyser) site(e ast.Expr, stack []ast.Node) SiteProps {
	var st SiteProps
	// Where it lies: walk out to the enclosing function.
	child := ast.Node(e)
walk:
	for i := len(stack) - 1; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			break walk
		case *ast.BinaryExpr:
			if p.Op == token.LAND && p.Y == child {
				st |= SNested
			}
		case *ast.IfStmt:
			if p.Body == child {
				st |= SNested
			}
		case *ast.ForStmt:
			st |= SInLoop
			if p.Cond == child {
				st |= SLoopGuard
			}
		case *ast.RangeStmt:
			st |= SInLoop
		}
		child = stack[i]
	}
	// What it compares.
	var operands []ast.Expr
	if len(stack) > 0 {
		if _, ok := stack[len(stack)-1].(*ast.CaseClause); ok {
			st |= SCase
			operands = append(operands, e)
			if len(stack) > 2 {
				if sw, ok := stack[len(stack)-3].(*ast.SwitchStmt); ok && sw.Tag != nil {
					operands = append(operands, sw.Tag)
				}
			}
		}
	}
	if operands == nil {
		if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && isComparison(b.Op) {
			operands = []ast.Expr{b.X, b.Y}
		} else {
			operands = []ast.Expr{e}
		}
	}
	for _, o := range operands {
		st |= a.operand(o)
	}
	return st
}

func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// operand returns the properties one operand of a condition gives it.
func (a *analyser) operand(o ast.Expr) SiteProps {
	o = ast.Unparen(o)
	var st SiteProps
	if tv, ok := a.src.Info.Types[o]; ok && tv.Value != nil {
		switch tv.Value.Kind() {
		case constant.Int:
			st |= SIntConst
			if v, ok := constant.Int64Val(tv.Value); ok && v >= 0 && v < 128 {
				st |= SCharConst
			}
		case constant.String:
			st |= SCharConst
		}
		return st
	}
	switch o := o.(type) {
	case *ast.Ident:
		if v, ok := a.src.Info.Uses[o].(*types.Var); ok {
			if v.Parent() != nil && (v.Pkg() == nil || v.Parent() != v.Pkg().Scope()) {
				st |= SLocal
			}
			if a.fromExternal[v] {
				st |= SExternalCall
			}
		}
	case *ast.CallExpr:
		call, isCall := a.isCall(o)
		if !isCall {
			// A conversion or a builtin (len(s)): what it reads.
			if len(call.Args) == 1 {
				return a.operand(call.Args[0])
			}
			return st
		}
		st |= SLocal
		if a.external(call) {
			st |= SExternalCall
		}
	case *ast.StarExpr:
		st |= SPointer
	case *ast.SelectorExpr:
		if sel := a.src.Info.Selections[o]; sel != nil && sel.Kind() == types.FieldVal && sel.Indirect() {
			st |= SPointer
		}
	case *ast.IndexExpr:
		if tv, ok := a.src.Info.Types[o.X]; ok && tv.Type != nil {
			switch tv.Type.Underlying().(type) {
			case *types.Slice, *types.Map, *types.Pointer:
				st |= SPointer
			}
		}
	case *ast.UnaryExpr:
		return a.operand(o.X)
	}
	return st
}
