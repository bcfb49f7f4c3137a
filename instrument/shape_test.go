package instrument

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/rt"
)

// TestShapes checks how composite parameters are laid out as inputs: the
// shape of each parameter, the names and bounds of the runtime inputs,
// and the imports the written types need.
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
		imports          map[string]string
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
			inputs: []string{"n.nil<=1", "n.Val", "n.Next.nil<=1", "n.Next.Val", "n.Next.Next.nil<=1", "n.Next.Next.Val"},
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
			inputs: []string{"p.nil<=1"},
		},
		{
			name: "a type of another package",
			sig:  "func F(p image.Point) {}", entry: "F",
			shapes:  []string{"image.Point{X:#0 Y:#1}"},
			inputs:  []string{"p.X", "p.Y"},
			imports: map[string]string{"image": "image"},
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
			inputs: []string{"receiver.Val", "receiver.Next.nil<=1", "receiver.Next.Val", "receiver.Next.Next.nil<=1", "receiver.Next.Next.Val"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, res := rewrite(t, decls+tt.sig+"\nvar _ image.Point\n", tt.entry)
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
				shapes = append(shapes, p.Shape.String())
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
				inputs = append(inputs, s)
			}
			if strings.Join(inputs, " ") != strings.Join(tt.inputs, " ") {
				t.Errorf("inputs %q, want %q", inputs, tt.inputs)
			}
			if !maps.Equal(res.Imports, tt.imports) && len(res.Imports)+len(tt.imports) > 0 {
				t.Errorf("imports %v, want %v", res.Imports, tt.imports)
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
