package state

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// TestCondHasher checks that a condition's hash depends on its term's
// structure only: the same term built in two builders, or reached from
// conditions hashed before, hashes alike; another term hashes differently.
func TestCondHasher(t *testing.T) {
	b1, b2 := sym.NewBuilder(), sym.NewBuilder()
	lt := func(b *sym.Builder, off uint64) *sym.Expr {
		return b.Cmp(sym.KSLt, b.Var(0, 64), b.Var(off, 64))
	}
	sum := func(b *sym.Builder, n int) *sym.Expr {
		s := b.Var(0, 64)
		for i := 1; i <= n; i++ {
			s = b.Add(s, b.Var(uint64(i), 64))
		}
		return b.Eq(s, b.Const(7, 64))
	}
	var h1, h2 CondHasher
	cases := []struct {
		name       string
		a, b       *sym.Expr
		sameHasher bool
		alike      bool
	}{
		{"same term, two builders", lt(b1, 8), lt(b2, 8), false, true},
		{"other offset", lt(b1, 8), lt(b1, 16), false, false},
		{"shared nodes hashed before", sum(b1, 3), sum(b2, 3), true, true},
		{"longer sum after a shorter one", sum(b1, 3), sum(b1, 4), true, false},
		{"operands swapped", b1.Cmp(sym.KSLt, b1.Var(1, 64), b1.Var(2, 64)), b1.Cmp(sym.KSLt, b1.Var(2, 64), b1.Var(1, 64)), false, false},
	}
	for _, c := range cases {
		other := &h2
		if c.sameHasher {
			other = &h1
		}
		if got := h1.Cond(c.a) == other.Cond(c.b); got != c.alike {
			t.Errorf("%s: hashes alike = %v, want %v", c.name, got, c.alike)
		}
	}
}

// BenchmarkCondHasherPath hashes the conditions of one path of 2 000
// branches whose terms share their nodes: each node hashed once, the cost
// is linear in the path; each condition's term whole, it was quadratic.
func BenchmarkCondHasherPath(b *testing.B) {
	bld := sym.NewBuilder()
	s := bld.Var(0, 64)
	conds := make([]*sym.Expr, 2000)
	for i := range conds {
		s = bld.Add(s, bld.Var(uint64(i+1), 64))
		conds[i] = bld.Eq(s, bld.Const(uint64(1000+i), 64))
	}
	for b.Loop() {
		var h CondHasher
		for _, c := range conds {
			h.Cond(c)
		}
	}
}

func TestJudge(t *testing.T) {
	// Saved: x<y (T) then y<z (T); x<y (T) then y<z (F).
	saved := [][]Step{
		{{"F#0", true, "c0"}, {"F#1", true, "c1"}},
		{{"F#0", true, "c0"}, {"F#1", false, "c1"}},
	}
	m := SavedSides(saved)
	root := Prefix{}.Node("F#0", "c0")
	under := Prefix{}.Then(Step{"F#0", true, "c0"})
	for _, tc := range []struct {
		name  string
		key   Key
		taken bool
		want  Verdict
	}{
		{"root's untaken side", root, false, Untaken},
		{"root's taken side", root, true, Changed},
		{"second node, both taken", under.Node("F#1", "c1"), false, Changed},
		{"second node with another condition", under.Node("F#1", "c9"), false, Changed},
		{"second node at another site", under.Node("F#2", "c1"), true, Changed},
		{"root with another condition", Prefix{}.Node("F#0", "cX"), false, Changed},
	} {
		if got := m.Judge(tc.key, tc.taken); got != tc.want {
			t.Errorf("%s: Judge = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func parseFunc(t *testing.T, src string) *ast.FuncDecl {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package p\n"+src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return f.Decls[0].(*ast.FuncDecl)
}

func TestFingerprint(t *testing.T) {
	base := "func Mid(x, y, z int) int {\n\tif x < y {\n\t\treturn y\n\t}\n\treturn x\n}\n"
	for _, tc := range []struct {
		name string
		src  string
		same bool
	}{
		{"comments", "// Mid is doc.\nfunc Mid(x, y, z int) int {\n\t// why\n\tif x < y { // here\n\t\treturn y\n\t}\n\treturn x\n}\n", true},
		{"formatting", "\n\nfunc Mid(x,y,z int)int{\n\n if x<y {return y}\n\n\n return x}\n", true},
		{"operator", "func Mid(x, y, z int) int {\n\tif x <= y {\n\t\treturn y\n\t}\n\treturn x\n}\n", false},
		{"identifier", "func Mid(x, y, z int) int {\n\tif x < y {\n\t\treturn z\n\t}\n\treturn x\n}\n", false},
		{"literal", "func Mid(x, y, z int) int {\n\tif x < 1 {\n\t\treturn y\n\t}\n\treturn x\n}\n", false},
		{"statement", "func Mid(x, y, z int) int {\n\tif x < y {\n\t\treturn y\n\t}\n\tx++\n\treturn x\n}\n", false},
	} {
		got := Fingerprint(parseFunc(t, tc.src)) == Fingerprint(parseFunc(t, base))
		if got != tc.same {
			t.Errorf("%s: same fingerprint = %t, want %t", tc.name, got, tc.same)
		}
	}
}

func TestFuncName(t *testing.T) {
	for src, want := range map[string]string{
		"func F() {}":             "F",
		"func (t *T) M() {}":      "T.M",
		"func (t T) M() {}":       "T.M",
		"func (t *G[K]) M() {}":   "G.M",
		"func (t G[K, V]) M() {}": "G.M",
	} {
		if got := FuncName(parseFunc(t, src)); got != want {
			t.Errorf("%s: FuncName = %q, want %q", src, got, want)
		}
	}
}
