package instrument

import (
	"bytes"
	"go/ast"
	"go/printer"
	"strings"
	"testing"
)

// orderedSrc has generic functions over type parameters of every tracked
// family: cmp.Ordered, a user union of integers and floats, float-only,
// string-only, and a union of integers and strings; and over constraints
// that stay concrete (comparable, a union with bool).
const orderedSrc = `package u

import "cmp"

type Number interface{ ~int32 | ~float32 }

type Float interface{ ~float32 | ~float64 }

type Str interface{ ~string }

type IntOrStr interface{ ~int | ~string }

type Boolish interface{ ~bool | ~int }

type Celsius float32

func Max[T cmp.Ordered](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func Min[T cmp.Ordered](a, b T) T {
	if a <= b {
		return a
	}
	return b
}

func Clamp[T cmp.Ordered](x, lo, hi T) T { return Max(lo, Min(x, hi)) }

func Arith[T Number](a, b T) T {
	c := a*b - a/b
	c++
	c -= 2
	return -c + 1
}

func Conv[T Number](a T) (int64, float64, T, uint8) {
	return int64(a), float64(a), T(int16(a)), uint8(a)
}

func FloatOnly[T Float](a, b T) bool { return a/b < 1.5 && -a != b }

func StrOnly[T Str](s T) (int, byte, T) { return len(s), s[0], s[1:] + "!" }

func Concat[T IntOrStr](a, b T) T { return a + b }

func Consts[T Number](a T) bool { return a > 1 && 2 < a }

type Box[T cmp.Ordered] struct {
	v  T
	xs []T
}

func (b *Box[T]) Put(v T) {
	b.v = v
	b.v += v
	b.xs = append(b.xs, v)
}

func (b *Box[T]) Get(i int) T { return b.xs[i] }

func Tagged[T cmp.Ordered](x, a, b T) int {
	switch x {
	case a:
		return 1
	case b:
		return 2
	}
	return 0
}

func Largest[T cmp.Ordered](xs []T) T {
	var m T
	xs = append(xs, []T{m, xs[0]}...)
	for _, x := range xs {
		if x > m {
			m = x
		}
	}
	return m
}

func Same[T comparable](a, b T) bool { return a == b }

func Truthy[T Boolish](a T) T { return a }

func F(n int, f float64, s string, c Celsius) (int, float64, string, Celsius, bool) {
	b := &Box[float64]{}
	b.Put(f)
	r := Max(n, 3) + Clamp(n, -4, 9) + Tagged(s, "a", "b") + Largest([]int{n, 2})
	r += int(Arith(int32(n), 3)) + int(Arith(c, 2))
	i, g, _, _ := Conv(c)
	l, _, t := StrOnly(s)
	_ = Concat(s, s) + Concat("x", s)
	return r + int(i) + l, Max(f, g) + b.Get(0), t, Clamp(c, 0, 100), FloatOnly(f, 2) && Consts(c) && Same(n, 2) && Truthy(n) == 1
}
`

// TestOrderedTypeParams checks that generic functions over type
// parameters whose type sets hold integers, floats and strings get twins
// that type-check, whose operators are the ones of the type set's family
// (rt.OLt and kin for mixed sets, which dispatch on T's kind at run
// time), and that keep their shadows (no rt.Concrete in them). Type
// parameters over comparable or a set with bool get no twin.
func TestOrderedTypeParams(t *testing.T) {
	pkg, res := rewrite(t, orderedSrc, "F")
	rw := recheck(t, res)
	for _, err := range rw.errs {
		t.Fatalf("rewritten package does not type-check: %v\n%s", rw.describe(err), res.Files[pkg.CompiledGoFiles[0]])
	}
	file := rw.files[pkg.CompiledGoFiles[0]]
	twins := make(map[string]string) // by recv.name, the source of the twin
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !strings.HasPrefix(fd.Name.Name, "_gcl_") {
			continue
		}
		var b bytes.Buffer
		if err := printer.Fprint(&b, rw.fset, fd); err != nil {
			t.Fatal(err)
		}
		twins[strings.TrimPrefix(fd.Name.Name, "_gcl_")] = b.String()
	}
	tests := []struct {
		fn    string
		sig   string   // the twin's signature; "" for no twin
		calls []string // runtime functions its body calls
	}{
		{fn: "Max", sig: "func[T cmp.Ordered](rt.V[T], rt.V[T]) (T, *rt.Expr)", calls: []string{"OGt("}},
		{fn: "Min", sig: "func[T cmp.Ordered](rt.V[T], rt.V[T]) (T, *rt.Expr)", calls: []string{"OLe("}},
		{fn: "Clamp", sig: "func[T cmp.Ordered](rt.V[T], rt.V[T], rt.V[T]) (T, *rt.Expr)", calls: []string{"_gcl_Max(", "_gcl_Min("}},
		{fn: "Arith", sig: "func[T Number](rt.V[T], rt.V[T]) (T, *rt.Expr)", calls: []string{"OMul(", "OQuo(", "OSub(", "IncO(", "ONeg(", "OAdd("}},
		{fn: "Conv", sig: "func[T Number](rt.V[T]) (int64, float64, T, uint8, *rt.Expr, *rt.Expr, *rt.Expr, *rt.Expr)", calls: []string{"ConvN[int64](", "ConvN[float64](", "ConvN[T](", "ConvN[uint8]("}},
		{fn: "FloatOnly", sig: "func[T Float](rt.V[T], rt.V[T]) (bool, *rt.Expr)", calls: []string{"FQuo(", "FLt(", "FNeg(", "FNe("}},
		{fn: "StrOnly", sig: "func[T Str](rt.V[T]) (int, byte, T, *rt.Expr, *rt.Expr, *rt.Expr)", calls: []string{"LenString(", "IndexString(", "SliceStringFrom(", "Concat("}},
		{fn: "Concat", sig: "func[T IntOrStr](rt.V[T], rt.V[T]) (T, *rt.Expr)", calls: []string{"OAdd("}},
		{fn: "Consts", sig: "func[T Number](rt.V[T]) (bool, *rt.Expr)", calls: []string{"OGt(", "OLt("}},
		{fn: "Put", sig: "", calls: []string{"StoreOrd(", "ApplyOrd(", "OAdd[", "AppendOrd("}},
		{fn: "Get", sig: "", calls: []string{"LoadIndexOrd("}},
		{fn: "Tagged", sig: "func[T cmp.Ordered](rt.V[T], rt.V[T], rt.V[T]) (int, *rt.Expr)", calls: []string{"OEq("}},
		{fn: "Largest", sig: "func[T cmp.Ordered]([]T) (T, *rt.Expr)", calls: []string{"SliceAtOrd(", "OGt("}},
		{fn: "Same", sig: "func[T comparable](T, T) (bool, *rt.Expr)", calls: []string{"Mk(a == b"}},
		{fn: "Truthy", sig: ""},
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			if tt.sig != "" {
				if got := shape(lookup(rw.pkg, "", "_gcl_"+tt.fn)); got != tt.sig {
					t.Errorf("twin has signature %q, want %q", got, tt.sig)
				}
			} else if len(tt.calls) == 0 {
				if _, ok := twins[tt.fn]; ok {
					t.Errorf("has a twin:\n%s", twins[tt.fn])
				}
				return
			}
			body, ok := twins[tt.fn]
			if !ok {
				t.Fatalf("no twin _gcl_%s", tt.fn)
			}
			for _, c := range tt.calls {
				if !strings.Contains(body, c) {
					t.Errorf("twin does not call %s:\n%s", c, body)
				}
			}
			if strings.Contains(body, "Concrete(") {
				t.Errorf("twin drops a shadow:\n%s", body)
			}
		})
	}
}
