package instrument

import (
	"bytes"
	"go/ast"
	"go/printer"
	"regexp"
	"strings"
	"testing"
)

// TestByteRangeCopy checks which range loops over byte slices the rewrite
// emits twice, and how: a small body without labels, function literals
// or range loops of its own gets an if on the slice's shadow, with the
// concrete copy over rt.PlainBytes first and the cursor loop over
// rt.IterBytes after it, the two alike but for the cursor; every other
// loop keeps the cursor loop alone.
func TestByteRangeCopy(t *testing.T) {
	long := strings.Repeat("\t\tn += int(c) * 3\n", 60)
	tests := []struct {
		name string
		body string // F's body; F has parameters b []byte and s string
		// copies is the number of copied loops, cursors the number of
		// rt.IterBytes loops.
		copies, cursors int
	}{
		{"small", "n := 0\n\tfor i, c := range b {\n\t\tif c == 'x' {\n\t\t\tn += i\n\t\t}\n\t}\n\treturn n", 1, 1},
		{"assign form", "n, i, c := 0, 0, byte(0)\n\tfor i, c = range b {\n\t\tn += int(c) + i\n\t}\n\treturn n + i", 1, 1},
		{"key only", "n := 0\n\tfor i := range b {\n\t\tn += i\n\t}\n\treturn n", 1, 1},
		{"break and continue", "n := 0\n\tfor _, c := range b {\n\t\tif c == 0 {\n\t\t\tbreak\n\t\t}\n\t\tif c == 1 {\n\t\t\tcontinue\n\t\t}\n\t\tn++\n\t}\n\treturn n", 1, 1},
		{"labeled continue", "n := 0\nL:\n\tfor _, c := range b {\n\t\tfor n < 3 {\n\t\t\tn++\n\t\t\tif c == 0 {\n\t\t\t\tcontinue L\n\t\t\t}\n\t\t}\n\t}\n\treturn n", 0, 1},
		{"label in body", "n := 0\n\tfor _, c := range b {\n\t\tif c == 0 {\n\t\t\tgoto M\n\t\t}\n\t\tn++\n\tM:\n\t\tn++\n\t}\n\treturn n", 0, 1},
		{"function literal", "n := 0\n\tfor _, c := range b {\n\t\tf := func() int { return int(c) }\n\t\tn += f()\n\t}\n\treturn n", 0, 1},
		{"nested", "n := 0\n\tfor _, c := range b {\n\t\tfor _, d := range b {\n\t\t\tif c == d {\n\t\t\t\tn++\n\t\t\t}\n\t\t}\n\t}\n\treturn n", 1, 2},
		{"large body", "n := 0\n\tfor _, c := range b {\n" + long + "\t}\n\treturn n", 0, 1},
		{"string", "n := 0\n\tfor _, r := range s {\n\t\tn += int(r)\n\t}\n\treturn n", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package u\n\nfunc F(b []byte, s string) int {\n\t" + tt.body + "\n}\n"
			pkg, res := rewrite(t, src, "F")
			rw := recheck(t, res)
			if len(rw.errs) > 0 {
				t.Fatalf("rewritten package does not type-check: %v", rw.errs)
			}
			fset := rw.fset
			text := func(n ast.Node) string {
				var b bytes.Buffer
				if err := printer.Fprint(&b, fset, n); err != nil {
					t.Fatal(err)
				}
				return b.String()
			}
			copies, cursors := 0, 0
			plainCall := regexp.MustCompile(`_gcl\.PlainBytes\((\w+)\)`)
			var out strings.Builder
			for _, f := range rw.files {
				out.WriteString(text(f))
			}
			ast.Inspect(rw.files[pkg.CompiledGoFiles[0]], func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ForStmt:
					if n.Init != nil && strings.Contains(text(n.Init), "_gcl.IterBytes(") {
						cursors++
					}
				case *ast.IfStmt:
					if len(n.Body.List) != 1 || !strings.Contains(text(n.Body.List[0].(ast.Node)), "PlainBytes") {
						return true
					}
					copies++
					plain, ok1 := n.Body.List[0].(*ast.ForStmt)
					els, ok2 := n.Else.(*ast.BlockStmt)
					if !ok1 || !ok2 || len(els.List) != 1 {
						t.Fatalf("copied loop not of the form if r.S == nil { loop } else { loop }:\n%s", text(n))
					}
					r := n.Init.(*ast.AssignStmt).Lhs[0].(*ast.Ident).Name
					if got, want := text(n.Cond), r+".S == nil"; got != want {
						t.Errorf("condition %q, want %q", got, want)
					}
					cursor := text(els.List[0])
					m := plainCall.FindStringSubmatch(text(plain.Init))
					if m == nil || m[1] != r {
						t.Fatalf("concrete copy does not start from %s: %s", r, text(plain.Init))
					}
					// The two loops alike but for the cursor.
					same := regexp.MustCompile(`_gcl\.IterBytes\(\d+, `+r+`\)`).ReplaceAllString(cursor, "_gcl.PlainBytes("+r+")")
					if same != text(plain) {
						t.Errorf("the copies differ:\n%s\n---\n%s", text(plain), cursor)
					}
				}
				return true
			})
			if copies != tt.copies || cursors != tt.cursors {
				t.Errorf("%d copied loops and %d cursor loops, want %d and %d:\n%s", copies, cursors, tt.copies, tt.cursors, out.String())
			}
		})
	}
}
