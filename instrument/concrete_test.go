package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/sites"
)

// TestConcreteCalls checks where the rewrite counts dropped shadows
// (rt.Concrete): each tracked argument that may be symbolic, of a call
// that takes no shadows or of a conversion the runtime does not model,
// under the call's sites.Concrete site; never constants, variables without
// shadows, or arguments of panic, print and cap, or of the testing
// package's logging methods.
func TestConcreteCalls(t *testing.T) {
	src := `package u

import (
	"crypto/sha256"
	"fmt"
	"testing"
)

type P struct{ X int }

func F(x int) int { return x }

func g(x int, s string, b []byte, p *P) int {
	h := sha256.Sum256(b)
	n := fmt.Sprint(x)
	r := []rune(s)
	z := 5
	_ = &z // no shadow
	fmt.Println(x, 3, z)
	m := min(x, 2) // integers: rt.Min, nothing dropped
	_ = min(s, "a")
	_ = fmt.Sprint(p.X)
	y := 4
	_ = fmt.Sprint(y)
	a := any(x)
	_ = a
	println(x)
	if x > 9 {
		panic(x)
	}
	c := cap(b) // a shadow has no capacity: nothing is dropped
	err := fmt.Errorf("bad %d", x) // an error's message: no package to name
	_ = err
	return len(n) + len(r) + m + int(h[0]) + c
}

func logs(t *testing.T, tb testing.TB, x int, s string) {
	t.Log(s) // the test's log only: nothing dropped
	t.Logf("%d", x)
	tb.Errorf("%s", s)
	t.Setenv("K", s) // os.Getenv reads it back
}
`
	_, res := rewrite(t, src, "F")
	rw := recheck(t, res)
	if len(rw.errs) > 0 {
		t.Fatalf("rewritten code does not type-check: %v", rw.errs)
	}
	checkSiteLines(t, rw, res)
	var got []string
	for _, f := range rw.files {
		ast.Inspect(f, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := c.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Concrete" || len(c.Args) != 3 {
				return true
			}
			site := res.Sites[siteOf(t, c.Args[0])]
			if site.Kind != sites.Concrete {
				t.Errorf("site %d of %s is a %v site", site.ID, site.Text, site.Kind)
			}
			cause := c.Args[1].(*ast.SelectorExpr).Sel.Name
			got = append(got, strings.TrimPrefix(cause, "Cause")+" "+site.Text+" ["+site.Callee+"] "+types.ExprString(c.Args[2]))
			return true
		})
	}
	slices.Sort(got)
	want := []string{
		"Call fmt.Println(x, 3, z) [fmt] _gcl.Mk(x, _gcl_s_x)",
		"Call fmt.Errorf(\"bad %d\", x) [] _gcl.Mk(x, _gcl_s_x)",
		"Call min(s, \"a\") [] _gcl.Mk(s, _gcl_s_s)",
		"Call sha256.Sum256(b) [crypto/sha256] _gcl.Mk(b, _gcl_s_b)",
		"Call fmt.Sprint(p.X) [fmt] _gcl.Load(" + siteNumber(res, "p.X") + ", &p.X)",
		"Call fmt.Sprint(x) [fmt] _gcl.Mk(x, _gcl_s_x)",
		"Call fmt.Sprint(y) [fmt] _gcl.Mk(y, _gcl_s_y)",
		"Conv []rune(s) [] _gcl.Mk(s, _gcl_s_s)",
		"Conv any(x) [] _gcl.Mk(x, _gcl_s_x)",
		"Call t.Setenv(\"K\", s) [testing] _gcl.Mk(s, _gcl_s_s)",
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("concrete uses\n got %q\nwant %q", got, want)
	}
}

// siteOf returns the site number of a site argument.
func siteOf(t *testing.T, e ast.Expr) int {
	t.Helper()
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		t.Fatalf("site argument %s is not a number", types.ExprString(e))
	}
	n, err := strconv.Atoi(lit.Value)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// siteNumber returns the number of the concrete site of the expression
// text, as the rewrite prints it.
func siteNumber(res *Result, text string) string {
	for _, s := range res.Sites {
		if s.Kind == sites.Concrete && s.Text == text {
			return strconv.Itoa(int(s.ID))
		}
	}
	return "none"
}
