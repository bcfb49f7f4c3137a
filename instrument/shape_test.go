package instrument

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/rt"
)

// TestShapes checks how composite parameters are laid out as inputs: the
// shape of each parameter, the names, bounds and alias candidates (Refs)
// of the runtime inputs. (The names the generated test file imports the
// types' packages under are emit's: session's TestEntryTypes.)
func TestShapes(t *testing.T) {
	const decls = `package u

import "image"

type inner struct{ code uint32; tag string }
type Rec struct {
	ID    int32
	in    inner
	Data  []byte
	flags [2]bool
	fn    func()
	_     int
}
type Node struct {
	Val  int8
	Next *Node
}
type Empty struct{ f func() }
type Celsius float32
func (c Celsius) Warm(d Celsius) bool { return c > d }
func (n *Node) Len() int { return 0 }
`
	tests := []struct {
		name, sig, entry string
		shapes           []string // Params' shapes; "-" for a plain input
		inputs           []string // RTParams: name, or name<=max
	}{
		{
			name: "struct with unexported, nested and skipped fields",
			sig:  "func F(r Rec) {}", entry: "F",
			shapes: []string{"Rec{ID:#0 in:inner{code:#1 tag:#2} Data:#3 flags:[#4 #5]}"},
			inputs: []string{"r.ID", "r.in.code", "r.in.tag", "r.Data", "r.flags[0]", "r.flags[1]"},
		},
		{
			name: "slice with a length and its first elements",
			sig:  "func F(n int, xs []uint16) {}", entry: "F",
			shapes: []string{"-", "[#1:#2 #3 #4 #5]"},
			inputs: []string{"n", "xs.len<=4", "xs[0]", "xs[1]", "xs[2]", "xs[3]"},
		},
		{
			name: "variadic parameter",
			sig:  "func F(xs ...string) {}", entry: "F",
			shapes: []string{"[#0:#1 #2 #3 #4]"},
			inputs: []string{"xs.len<=4", "xs[0]", "xs[1]", "xs[2]", "xs[3]"},
		},
		{
			name: "recursive pointer unfolded three times",
			sig:  "func F(n *Node) {}", entry: "F",
			shapes: []string{"*#0Node{Val:#1 Next:*#2Node{Val:#3 Next:*#4Node{Val:#5}}}"},
			inputs: []string{"n.nil<=1[]", "n.Val", "n.Next.nil<=2[0]", "n.Next.Val", "n.Next.Next.nil<=3[0 2]", "n.Next.Next.Val"},
		},
		{
			name: "pointers may alias earlier pointers to the same type",
			sig:  "func F(l1 *Node, x *int, l2 *Node) {}", entry: "F",
			shapes: []string{"*#0Node{Val:#1 Next:*#2Node{Val:#3 Next:*#4Node{Val:#5}}}", "*#6#7",
				"*#8Node{Val:#9 Next:*#10Node{Val:#11 Next:*#12Node{Val:#13}}}"},
			inputs: []string{"l1.nil<=1[]", "l1.Val", "l1.Next.nil<=2[0]", "l1.Next.Val", "l1.Next.Next.nil<=3[0 2]", "l1.Next.Next.Val",
				"x.nil<=1[]", "x", "l2.nil<=4[0 2 4]", "l2.Val", "l2.Next.nil<=5[0 2 4 8]", "l2.Next.Val",
				"l2.Next.Next.nil<=6[0 2 4 8 10]", "l2.Next.Next.Val"},
		},
		{
			name: "map entries alternate keys and values",
			sig:  "func F(m map[string]bool) {}", entry: "F",
			shapes: []string{"map#0[#1 #2 #3 #4 #5 #6 #7 #8]"},
			inputs: []string{"m.len<=4", "m.key0", "m.value0", "m.key1", "m.value1", "m.key2", "m.value2", "m.key3", "m.value3"},
		},
		{
			name: "nothing to fill is the zero value",
			sig:  "func F(e Empty, p *Empty) {}", entry: "F",
			shapes: []string{"0", "*#0" + "0"},
			inputs: []string{"p.nil<=1[]"},
		},
		{
			name: "a type of another package",
			sig:  "func F(p image.Point) {}", entry: "F",
			shapes: []string{"image.Point{X:#0 Y:#1}"},
			inputs: []string{"p.X", "p.Y"},
		},
		{
			name: "value receiver comes first",
			sig:  "", entry: "Celsius.Warm",
			shapes: []string{"#0", "-"},
			inputs: []string{"receiver", "d"},
		},
		{
			name: "pointer receiver is never nil",
			sig:  "", entry: "(*Node).Len",
			shapes: []string{"*#-1Node{Val:#0 Next:*#1Node{Val:#2 Next:*#3Node{Val:#4}}}"},
			inputs: []string{"receiver.Val", "receiver.Next.nil<=1[]", "receiver.Next.Val", "receiver.Next.Next.nil<=2[1]", "receiver.Next.Next.Val"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkg, res := rewrite(t, decls+tt.sig+"\nvar _ image.Point\n", tt.entry)
			params := res.Params
			if res.Recv != nil {
				params = append([]Param{*res.Recv}, params...)
			}
			var shapes []string
			for _, p := range params {
				if p.Shape == nil {
					shapes = append(shapes, "-")
					continue
				}
				shapes = append(shapes, p.Shape.format(nameQualifier(pkg.Types)))
			}
			if strings.Join(shapes, " | ") != strings.Join(tt.shapes, " | ") {
				t.Errorf("shapes\n %s\nwant\n %s", strings.Join(shapes, " | "), strings.Join(tt.shapes, " | "))
			}
			var inputs []string
			for _, q := range res.RTParams {
				s := q.Name
				if q.Max != 0 {
					s += fmt.Sprintf("<=%d", q.Max)
				}
				if q.Ref {
					s += fmt.Sprint(q.Refs)
				}
				inputs = append(inputs, s)
			}
			if strings.Join(inputs, " ") != strings.Join(tt.inputs, " ") {
				t.Errorf("inputs %q, want %q", inputs, tt.inputs)
			}
		})
	}
}

// TestShapeLeavesBounded checks that a parameter too large to lay out
// whole keeps its first maxLeaves inputs and leaves the rest zero.
func TestShapeLeavesBounded(t *testing.T) {
	_, res := rewrite(t, "package u\nfunc F(a [300][2]int8) {}\n", "F")
	if n := len(res.RTParams); n > maxLeaves {
		t.Errorf("%d inputs, more than %d", n, maxLeaves)
	}
	sh := res.Params[0].Shape
	if sh == nil || sh.Kind != ShapeArray || len(sh.Elems) != 300 {
		t.Fatalf("shape %v, want an array of 300", sh)
	}
	if sh.Elems[0].Kind != ShapeArray || sh.Elems[299].Kind != ShapeZero {
		t.Errorf("first element %v, last %v: want the first laid out and the last zero", sh.Elems[0], sh.Elems[299])
	}
	for _, q := range res.RTParams {
		if q.Kind != rt.ParamInt || q.Width != 8 {
			t.Errorf("input %+v, want int8", q)
		}
	}
}

// TestPtrCompared checks which comparisons become rt.PtrEq and rt.PtrNe:
// two pointers to one type, either way round, but not a comparison with
// nil (IsNil) nor one of other types; and that the rewrite type-checks,
// entry file included (its Refs literals).
func TestPtrCompared(t *testing.T) {
	const src = `package u

type List struct {
	Value int
	Next  *List
}
type P *List

func F(l1, l2 *List, p P, a, b *int) int {
	n := 0
	if l1 == l2 {
		n++
	}
	if l1.Next != l2 {
		n++
	}
	if l1 == nil || nil != l2 {
		n++
	}
	if p == l1 {
		n++
	}
	if a == b {
		n++
	}
	if any(l1) == any(l2) {
		n++
	}
	return n
}
`
	pkg, res := rewrite(t, src, "F")
	out := string(res.Files[pkg.CompiledGoFiles[0]])
	for name, want := range map[string]int{"PtrEq(": 3, "PtrNe(": 1, "IsNil(": 1, "NotNil(": 1} {
		if got := strings.Count(out, "_gcl."+name); got != want {
			t.Errorf("%d calls of _gcl.%s, want %d", got, name, want)
		}
	}
	rw := recheck(t, res)
	for _, err := range rw.errs {
		t.Errorf("rewritten code does not type-check: %s", rw.describe(err))
	}
}
