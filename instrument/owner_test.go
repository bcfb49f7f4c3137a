package instrument

import (
	"go/ast"
	"go/token"
	"testing"
)

// TestOwnerPerActivation checks how branches learn whether their
// goroutine owns the symbolic state: each function body that has
// branches asks rt.Owner once, in its first statement, and its branches
// (if, for, switch cases, && and || operands) pass that answer to
// rt.BrOwn; a function literal asks for itself (it may run on another
// goroutine), and a package-level initialiser, which has no body, calls
// rt.Br.
func TestOwnerPerActivation(t *testing.T) {
	const src = `package u

var ready = len(names) > 0 && names[0] != ""

var names []string

func F(x int, s string) int {
	n := 0
	for i := 0; i < x; i++ {
		switch s {
		case "a", "b":
			n++
		}
	}
	g := func(y int) bool { return y > 3 || y < -3 }
	if g(x) && n > 2 {
		return 1
	}
	return 0
}

func (T) M(x int) int {
	if x > 1 {
		return 1
	}
	return 0
}

type T struct{}
`
	_, res := rewrite(t, src, "F")
	rw := recheck(t, res)
	if len(rw.errs) > 0 {
		t.Fatalf("rewritten code does not type-check: %v", rw.errs)
	}
	type body struct {
		own   string // the variable its first statement declares from rt.Owner, or ""
		uses  map[string]int
		plain int // rt.Br calls
	}
	var bodies []*body
	var stack []*body
	pkgLevel := &body{uses: map[string]int{}}
	isRT := func(e ast.Expr, name string) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x, ok := sel.X.(*ast.Ident)
		return ok && x.Name == runtimeAlias && sel.Sel.Name == name
	}
	ownerOf := func(b *ast.BlockStmt) string {
		if len(b.List) == 0 {
			return ""
		}
		as, ok := b.List[0].(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return ""
		}
		c, ok := as.Rhs[0].(*ast.CallExpr)
		if !ok || !isRT(c.Fun, rtOwner) {
			return ""
		}
		return as.Lhs[0].(*ast.Ident).Name
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		var fb *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			fb = n.Body
		case *ast.FuncLit:
			fb = n.Body
		case *ast.CallExpr:
			cur := pkgLevel
			if len(stack) > 0 {
				cur = stack[len(stack)-1]
			}
			switch {
			case isRT(n.Fun, rtBrOwn):
				id, _ := n.Args[0].(*ast.Ident)
				if id != nil {
					cur.uses[id.Name]++
				} else {
					cur.uses["?"]++
				}
			case isRT(n.Fun, rtBr):
				cur.plain++
			}
		}
		if fb == nil {
			return true
		}
		b := &body{own: ownerOf(fb), uses: map[string]int{}}
		bodies = append(bodies, b)
		stack = append(stack, b)
		ast.Inspect(fb, func(m ast.Node) bool {
			if m == fb {
				return true
			}
			return visit(m)
		})
		stack = stack[:len(stack)-1]
		return false
	}
	for _, f := range rw.files {
		ast.Inspect(f, visit)
	}
	withBranches := 0
	for _, b := range bodies {
		total := b.plain
		for _, k := range b.uses {
			total += k
		}
		if total == 0 {
			if b.own != "" {
				t.Errorf("a body without branches asks rt.Owner (%s)", b.own)
			}
			continue
		}
		withBranches++
		if b.plain > 0 {
			t.Errorf("a function body has %d rt.Br calls; want rt.BrOwn", b.plain)
		}
		if b.own == "" {
			t.Errorf("a body with branches %v does not ask rt.Owner first", b.uses)
			continue
		}
		if len(b.uses) != 1 || b.uses[b.own] == 0 {
			t.Errorf("branches pass %v, want only the body's own %s", b.uses, b.own)
		}
	}
	// F (or its twin), the literal g (or its twin) and M.
	if withBranches < 3 {
		t.Errorf("%d bodies with branches, want at least 3", withBranches)
	}
	if pkgLevel.plain != 2 || len(pkgLevel.uses) != 0 {
		t.Errorf("package level: %d rt.Br and BrOwn %v; want the 2 operands of && through rt.Br", pkgLevel.plain, pkgLevel.uses)
	}
}
