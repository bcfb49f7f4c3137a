package instrument

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/sites"
)

// TestIfaceShapes checks how interface parameters are laid out: a choice
// bounded by the number of candidates (the package's types that
// implement the interface, T before *T, by name), then each candidate's
// own inputs; the empty interface takes types only, at most maxCands.
func TestIfaceShapes(t *testing.T) {
	const decls = `package u

type Shape interface{ Area() int }
type Circle struct{ R int64 }
func (c Circle) Area() int { return int(c.R) }
type Square struct{ Side uint32 }
func (s *Square) Area() int { return int(s.Side) }
type Holder struct {
	S Shape
	N int8
}
type Expr interface{ eval() int }
type Lit int16
func (l Lit) eval() int { return int(l) }
type Neg struct{ X Expr }
func (n Neg) eval() int { return -n.X.eval() }
`
	tests := []struct {
		name, src, entry string
		shape            string
		inputs           []string // name, or name<=max
	}{
		{
			name: "values and pointers by name",
			src:  decls + "func F(s Shape) {}", entry: "F",
			shape:  "Shape#0(Circle{R:#1} *#-1Circle{R:#2} *#-1Square{Side:#3})",
			inputs: []string{"s.type<=3", "s(Circle).R", "s(*Circle).R", "s(*Square).Side"},
		},
		{
			name: "a field and slice elements",
			src:  decls + "func F(h Holder, xs []Expr) {}", entry: "F",
			shape: "Holder{S:Shape#0(Circle{R:#1} *#-1Circle{R:#2} *#-1Square{Side:#3}) N:#4}",
		},
		{
			name: "the empty interface takes types only, and at most eight",
			src: "package u\ntype A int8\ntype B int8\ntype C int8\ntype D int8\ntype E int8\n" +
				"type G int8\ntype H int8\ntype I int8\ntype J int8\nfunc F(v any) {}", entry: "F",
			shape:  "any#0(#1 #2 #3 #4 #5 #6 #7 #8)",
			inputs: []string{"v.type<=8", "v(A)", "v(B)", "v(C)", "v(D)", "v(E)", "v(G)", "v(H)", "v(I)"},
		},
		{
			name: "a recursive interface is unfolded three times",
			src:  decls + "func F(e Expr) {}", entry: "F",
			// At the third level a Neg has nothing of its own left: zero.
			shape: "Expr#0(#1 *#-1#2 Neg{X:Expr#3(#4 *#-1#5 Neg{X:Expr#6(#7 *#-1#8 0 *#-10)} *#-1Neg{X:Expr#9(#10 *#-1#11 0 *#-10)})} " +
				"*#-1Neg{X:Expr#12(#13 *#-1#14 Neg{X:Expr#15(#16 *#-1#17 0 *#-10)} *#-1Neg{X:Expr#18(#19 *#-1#20 0 *#-10)})})",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkg, res := rewrite(t, tt.src, tt.entry)
			if got := res.Params[0].Shape.format(nameQualifier(pkg.Types)); got != tt.shape {
				t.Errorf("shape\n %s\nwant\n %s", got, tt.shape)
			}
			if tt.inputs != nil {
				var inputs []string
				for _, q := range res.RTParams {
					s := q.Name
					if q.Max != 0 {
						s += fmt.Sprintf("<=%d", q.Max)
					}
					inputs = append(inputs, s)
				}
				if strings.Join(inputs, " ") != strings.Join(tt.inputs, " ") {
					t.Errorf("inputs %q, want %q", inputs, tt.inputs)
				}
			}
			if errs := recheck(t, res).errs; len(errs) > 0 {
				t.Errorf("rewritten package does not type-check: %v", errs)
			}
		})
	}
}

// TestIfaceRewrite checks that type switches, type assertions, nil
// comparisons and method calls on interfaces are rewritten into the
// runtime calls that record them, and that the result type-checks in
// every form: binding or not, several types per case, nil, an interface
// case type, a local type, comma-ok in an if, a panicking assertion.
func TestIfaceRewrite(t *testing.T) {
	src := `package u

type Shape interface{ Area() int }
type Circle struct{ R int64 }
func (c Circle) Area() int { return int(c.R) }
type Square struct{ Side uint32 }
func (s *Square) Area() int { return int(s.Side) }

func F(s Shape, x any) int {
	type local struct{ n int }
	switch v := s.(type) {
	case Circle:
		if v.R == 3 {
			return 1
		}
	case *Square, nil:
		_ = v
	case interface{ Area() int }:
		return v.Area()
	}
	switch x.(type) {
	case local, int:
		return 2
	}
	if c, ok := s.(Circle); ok && c.R == 4 {
		return 3
	}
	c, ok := s.(Circle)
	if s != nil && ok {
		return int(c.R) + s.(Circle).Area()
	}
	return s.Area()
}
`
	out, res := rewrittenSource(t, src, "F")
	for _, want := range []string{
		"_gcl.TypeSwitch(s, _gcl.CaseOf[Circle](", "_gcl.CaseOf[*Square](", "_gcl.CaseNil(", "_gcl.CaseOf[interface{ Area() int }](",
		"_gcl.TypeSwitch(x, _gcl.CaseOf[local](", "_gcl.Unbox(&v)",
		"_gcl.Assert[Circle](", "_gcl.Unboxed(&c) && ", "_gcl.Unbox(&c)", "_gcl.IfaceNotNil(s)",
		// A call through Shape asks for the dynamic type's twin; one
		// through an interface literal, which cannot be named, stays.
		`_gcl.IMethod(s, "Area", `, "})(_gcl.PassIface(s))", "_gcl.PassIface(v).Area()",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rewritten code lacks %q:\n%s", want, out)
		}
	}
	kinds := map[sites.Kind]int{}
	for _, s := range res.Sites {
		if strings.Contains(s.Text, "Circle") || strings.Contains(s.Text, "Square") {
			kinds[s.Kind]++
		}
	}
	// Cases Circle and *Square, two comma-ok assertions: conditions; the
	// panicking s.(Circle): implicit.
	if kinds[sites.Cond] != 4 || kinds[sites.Implicit] != 1 {
		t.Errorf("sites by kind %v, want 4 cond and 1 implicit", kinds)
	}
}
