package state

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

func TestCondHash(t *testing.T) {
	b1, b2 := sym.NewBuilder(), sym.NewBuilder()
	lt := func(b *sym.Builder, off uint64) *sym.Expr {
		return b.Cmp(sym.KSLt, b.Var(0, 64), b.Var(off, 64))
	}
	if CondHash(lt(b1, 8)) != CondHash(lt(b2, 8)) {
		t.Error("the same term in two builders hashes differently")
	}
	if CondHash(lt(b1, 8)) == CondHash(lt(b1, 16)) {
		t.Error("different terms hash alike")
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
