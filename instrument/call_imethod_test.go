package instrument

import (
	"strings"
	"testing"
)

// TestIfaceMethodCalls rewrites calls of interface methods and the
// declarations of methods with twins, and checks which calls ask the
// runtime for the dynamic type's twin (rt.IMethod) and which methods
// register adapters (rt.RegisterMethod): value receivers for T and *T,
// pointer receivers for *T only, nothing for generic types; calls on a
// variable, a field, a method an interface embeds and one promoted from
// an embedded interface field, with one or two results; not calls whose
// receiver has effects, whose signature tracks nothing, or on a type
// parameter.
func TestIfaceMethodCalls(t *testing.T) {
	src := `package u

type Shape interface{ Scale(k int) int }

type Named interface {
	Shape
	Name() string
	Split(k int) (int, bool)
	Tag(t *int)
}

type Circle struct{ R int }

func (c Circle) Scale(k int) int { return c.R * k }

type Square struct{ S int }

func (s *Square) Scale(k int) int { return s.S * k }

type Box[T any] struct{ v T }

func (b Box[T]) Scale(k int) int { return k }

type Holder struct {
	Shape
	n Named
}

func pick(s Shape) Shape { return s }

func Var(s Shape, k int) int { return s.Scale(k) }

func Field(h *Holder, k int) (int, string) {
	a, ok := h.n.Split(k)
	_ = ok
	h.n.Tag(nil)
	return h.n.Scale(k) + a + h.Scale(k), h.n.Name()
}

func Effects(s Shape, k int) int { return pick(s).Scale(k) }

func Generic[S Shape](s S, k int) int { return s.Scale(k) }
`
	out, _ := rewrittenSource(t, src, "Var")
	tests := []struct {
		name, code string
		want       bool
	}{
		{"value receiver registered for T and *T", `_gcl.RegisterMethod[Circle]("Scale", func(_gcl_r _gcl.Any, _gcl_a0 _gcl.V[int]) (int, *_gcl.Expr) {`, true},
		{"value receiver adapter of *T", `return _gcl_r.(*Circle)._gcl_Scale(_gcl_a0)`, true},
		{"pointer receiver registered for *T only", `_gcl.RegisterMethod[Square]("Scale", nil, func(`, true},
		{"generic type not registered", `RegisterMethod[Box`, false},
		{"call on a variable", `_gcl.IMethod(s, "Scale", func(_gcl_r _gcl.Any, _gcl_a0 _gcl.V[int]) (int, *_gcl.Expr) {`, true},
		{"receiver handed to the method", `(_gcl.PassIface(s), _gcl.Mk(k, _gcl_s_k))`, true},
		{"fallback drops the shadows", `_gcl_i, _ := _gcl_r.(Shape)`, true},
		{"call on a field, method of an embedded interface", `_gcl.IMethod(h.n, "Scale", `, true},
		{"two results", `_gcl.IMethod(h.n, "Split", `, true},
		{"string result", `_gcl.IMethod(h.n, "Name", `, true},
		{"nothing tracked", `_gcl.IMethod(h.n, "Tag"`, false},
		{"promoted from an embedded interface field", `_gcl.IMethod(h.Shape, "Scale", `, true},
		{"receiver with effects", `_gcl.IMethod(pick(`, false},
		{"type parameter", `_gcl.IMethod(s, "Scale", func(_gcl_r _gcl.Any, _gcl_a0 _gcl.V[int]) (int, *_gcl.Expr) {
		_gcl_i, _ := _gcl_r.(S)`, false},
	}
	for _, tt := range tests {
		if got := strings.Contains(out, tt.code); got != tt.want {
			t.Errorf("%s: contains %q = %v, want %v", tt.name, tt.code, got, tt.want)
		}
	}
	if t.Failed() {
		t.Logf("rewritten:\n%s", out)
	}
}
