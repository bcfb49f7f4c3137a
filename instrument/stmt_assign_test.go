package instrument

import (
	"regexp"
	"strings"
	"testing"
)

// TestWideParallelAssign checks that a parallel assignment of more values
// than rt.UnpackN takes keeps the shadows of its variables in a statement
// list, whether it declares (:=) or assigns (=), and that the rewrite
// type-checks. In an if's init statement, which must stay one statement,
// the variables are refused their shadows instead.
func TestWideParallelAssign(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		tracked []string // variables that must have a shadow
		refused []string // variables that must not
	}{
		{"define", `p0, p1, p2, p3, p4 := a, b, a+b, a-b, b*2
	if p4 > p3 { return p0 + p1 + p2 }
	return p4`, []string{"p0", "p1", "p2", "p3", "p4"}, nil},
		{"assign", `var p0, p1, p2, p3 int
	p0, p1, p2, p3 = b, a, a^b, 7
	if p2 > p3 { return p0 + p1 }
	return p3`, []string{"p0", "p1", "p2", "p3"}, nil},
		{"swap", `p0, p1, p2, p3 := a, b, a+1, b+1
	p0, p1, p2, p3 = p3, p2, p1, p0
	if p0 == p3 { return 1 }
	return p1 - p2`, []string{"p0", "p1", "p2", "p3"}, nil},
		{"blank", `p0, _, p2, p3 := a, b, a+b, a-b
	if p2 > p3 { return p0 }
	return 0`, []string{"p0", "p2", "p3"}, nil},
		{"if init", `if q0, q1, q2, q3 := a, b, a+b, a-b; q0+q1 > q2+q3 { return 1 }
	return 0`, nil, []string{"q0", "q1", "q2", "q3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "package u\n\nfunc F(a, b int) int {\n\t" + tt.body + "\n}\n"
			pkg, res := rewrite(t, src, "F")
			rw := recheck(t, res)
			for _, err := range rw.errs {
				t.Errorf("rewritten package: %v", err)
			}
			out := string(res.Files[pkg.CompiledGoFiles[0]])
			for _, v := range tt.tracked {
				if !regexp.MustCompile(`\b` + shadowPrefix + v + `\b`).MatchString(out) {
					t.Errorf("%s has no shadow:\n%s", v, out)
				}
			}
			for _, v := range tt.refused {
				if strings.Contains(out, shadowPrefix+v) {
					t.Errorf("%s has a shadow in a statement that must stay one:\n%s", v, out)
				}
			}
		})
	}
}

// TestMultiAssignMemory checks a multi-value assignment from a call with
// a twin to places that are not shadowed variables: a field's shadow is
// stored after the assignment (in an if's init too, which becomes a
// block), a place that depends on what the statement assigns is counted
// instead, and the variables beside them keep their shadows.
func TestMultiAssignMemory(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string // regular expressions the rewritten file matches
	}{
		{"field in a block", `var rest string
	u.s, rest = two(s)
	return len(rest)`, []string{
			`u\.s, rest, _gcl_s\d+, _gcl_s_rest = _gcl_two\(`,
			`_gcl\.StoreString\(_gcl\.Mk\(u\.s, _gcl_s\d+\), &u\.s\)`}},
		{"field in an if's init", `var rest string
	if u.s, rest = two(s); rest == "" {
		return 1
	}
	return len(rest)`, []string{
			`\{\s+(//line .*\s+)?var _gcl_s\d+ \*_gcl\.Expr`,
			`_gcl\.StoreString\(_gcl\.Mk\(u\.s, _gcl_s\d+\), &u\.s\)`,
			`if _gcl\.BrOwn\(_gcl_own\d+, `}},
		{"element at an index the statement assigns", `i := 0
	var rest string
	i, u.a[i] = pair(s)
	_ = rest
	return i`, []string{
			`_gcl\.Concrete\(\d+, _gcl\.CauseAssign, _gcl\.Mk\(0, _gcl_s\d+\)\)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `package u

type U struct {
	s string
	a [2]int
}

func two(s string) (string, string) { return s[:1], s[1:] }

func pair(s string) (int, int) { return len(s), len(s) + 1 }

func F(u *U, s string) int {
	` + tt.body + `
}
`
			pkg, res := rewrite(t, src, "F")
			rw := recheck(t, res)
			for _, err := range rw.errs {
				t.Errorf("rewritten package: %v", err)
			}
			out := string(res.Files[pkg.CompiledGoFiles[0]])
			for _, w := range tt.want {
				if !regexp.MustCompile(w).MatchString(out) {
					t.Errorf("rewritten file does not match %s:\n%s", w, out)
				}
			}
		})
	}
}
