package instrument

import (
	"go/types"
	"regexp"
	"testing"

	"github.com/gocolic/gocolic/sites"
)

// TestValuesThroughFunctions rewrites calls of closures, method values,
// method expressions and generic functions, and checks which of them keep
// the shadows of their arguments: a call that drops them has a site of
// kind sites.Concrete (rt.Concrete), and a bound variable gets a twin
// local whose signature takes V values.
func TestValuesThroughFunctions(t *testing.T) {
	src := `package u

import "sort"

type Integer interface{ ~int | ~int32 | ~uint8 }

type C struct{ k int }

func (c C) Check(x int) bool { return x^c.k == 7 }

func (c *C) Scale(x int) int { return x * c.k }

func Max[T Integer](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func Pick[E any](xs []E, e E) E { return xs[0] }

type Acc[T Integer] struct{ sum T }

func (a *Acc[T]) Add(v T) T {
	a.sum += v
	return a.sum
}

func Bound(x int) int {
	f := func(y int) int { return y*7 + 1 }
	return f(x)
}

func Now(x int) bool {
	return func(y int) bool { return y > 3 }(x)
}

func Results(s string, n int32) (string, int32) {
	join := func(a string, k int32) (string, int32) { return a + "!", k * 3 }
	return join(s, n)
}

func MethodValue(x int) (bool, int) {
	c := C{k: 5}
	m := c.Check
	g := c.Scale
	return m(x), g(x)
}

func MethodExpr(x int) (bool, int) {
	c := C{k: 9}
	return C.Check(c, x), (*C).Scale(&c, x)
}

func Generic(x int, y int32) (int, int32, uint8) {
	var a Acc[uint8]
	return Max(x, 3), Max[int32](y, -5), a.Add(uint8(x))
}

func Escaping(x int) int {
	xs := []int{3, x, 2}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	return xs[0]
}

func Reassigned(x int) int {
	f := func(y int) int { return y + 1 }
	f = func(y int) int { return y + 2 }
	return f(x)
}

func Redeclared(x int) (int, int) {
	h := func(y int) int { return y + 1 }
	h, n := func(y int) int { return y + 2 }, 3
	return h(x), n
}

func Any(x int) int {
	return Pick([]int{1}, x)
}
`
	pkg, res := rewrite(t, src, "Bound")
	rw := recheck(t, res)
	for _, err := range rw.errs {
		t.Fatalf("rewritten package does not type-check: %v\n%s", rw.describe(err), res.Files[pkg.CompiledGoFiles[0]])
	}
	// Twin locals by name (unique in src), with their signatures.
	locals := make(map[string]string)
	for id, obj := range rw.info.Defs {
		if v, ok := obj.(*types.Var); ok {
			if sig, ok := v.Type().(*types.Signature); ok && len(id.Name) > 7 && id.Name[:7] == "_gcl_l_" {
				locals[id.Name] = shape(sig)
			}
		}
	}
	tests := []struct {
		fn       string
		concrete bool              // the function drops a shadow at a call
		locals   map[string]string // twin locals it defines
	}{
		{fn: "Bound", locals: map[string]string{"_gcl_l_f": "func(rt.V[int]) (int, *rt.Expr)"}},
		{fn: "Now"},
		{fn: "Results", locals: map[string]string{"_gcl_l_join": "func(rt.V[string], rt.V[int32]) (string, int32, *rt.Expr, *rt.Expr)"}},
		{fn: "MethodValue", locals: map[string]string{
			"_gcl_l_m": "func(rt.V[int]) (bool, *rt.Expr)",
			"_gcl_l_g": "func(rt.V[int]) (int, *rt.Expr)",
		}},
		{fn: "MethodExpr"},
		{fn: "Generic"},
		{fn: "Escaping"},
		{fn: "Reassigned", concrete: true},
		{fn: "Redeclared", concrete: true},
		{fn: "Any", concrete: true},
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			concrete := false
			for _, s := range res.Sites {
				if s.Func == tt.fn && s.Kind == sites.Concrete {
					concrete = true
				}
			}
			if concrete != tt.concrete {
				t.Errorf("a call drops a shadow: %v, want %v\n%s", concrete, tt.concrete, res.Files[pkg.CompiledGoFiles[0]])
			}
			for name, want := range tt.locals {
				if got := locals[name]; got != want {
					t.Errorf("twin local %s has signature %q, want %q", name, got, want)
				}
			}
		})
	}
	if got, want := shape(lookup(rw.pkg, "", "_gcl_Max")), "func[T Integer](rt.V[T], rt.V[T]) (T, *rt.Expr)"; got != want {
		t.Errorf("twin of Max has signature %q, want %q", got, want)
	}
	if got := shape(lookup(rw.pkg, "", "_gcl_Pick")); got != "" {
		t.Errorf("Pick, over any, has a twin %q", got)
	}
}

// TestLiteralValues checks that a function literal with tracked
// parameters or results used as a value — passed on, stored, returned —
// becomes rt.Closure of its twin and its wrapper, which registers the
// twin for rt.Dyn, and that the package type-checks.
func TestLiteralValues(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"passed to a function that calls it", `return indexFunc(s, func(r rune) bool { return r == ',' || r > k })`},
		{"stored in a field", `h := &holder{pred: func(r rune) bool { return r == 'x' }}
	return indexFunc(s, h.pred)`},
		{"returned", `return indexFunc(s, pick(k))`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `package u

type holder struct{ pred func(rune) bool }

func indexFunc(s string, f func(rune) bool) int {
	for i, r := range s {
		if f(r) {
			return i
		}
	}
	return -1
}

func pick(k rune) func(rune) bool { return func(r rune) bool { return r < k } }

func F(s string, k rune) int {
	` + tt.body + `
}
`
			pkg, res := rewrite(t, src, "F")
			rw := recheck(t, res)
			for _, err := range rw.errs {
				t.Errorf("rewritten package: %v", err)
			}
			out := string(res.Files[pkg.CompiledGoFiles[0]])
			want := regexp.MustCompile(`_gcl\.Closure\(func\(_gcl_p\d+ _gcl\.V\[rune\]\) \(bool, \*_gcl\.Expr\) \{`)
			if !want.MatchString(out) {
				t.Errorf("rewritten file does not match %s:\n%s", want, out)
			}
		})
	}
}
