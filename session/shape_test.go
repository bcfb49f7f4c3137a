package session

import (
	"testing"

	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// TestShapeArgs checks the Go literals written for composite parameters.
func TestShapeArgs(t *testing.T) {
	leaf := func(i int, typ string) *instrument.Shape {
		return &instrument.Shape{Kind: instrument.ShapeLeaf, Leaf: i, Type: typ}
	}
	// Inputs: 0 x int32, 1 s string, 2 slice length, 3..4 elements,
	// 5 pointer choice, 6 pointee, 7 map length, 8..11 keys and values,
	// 12 a float.
	ps := []rt.Param{
		{Kind: rt.ParamInt, Width: 32, Signed: true}, {Kind: rt.ParamString},
		{Kind: rt.ParamInt, Width: 64, Max: 2}, {Kind: rt.ParamInt, Width: 8}, {Kind: rt.ParamInt, Width: 8},
		{Kind: rt.ParamInt, Width: 64, Max: 1}, {Kind: rt.ParamInt, Width: 64, Signed: true},
		{Kind: rt.ParamInt, Width: 64, Max: 2}, {Kind: rt.ParamString}, {Kind: rt.ParamBool}, {Kind: rt.ParamString}, {Kind: rt.ParamBool},
		{Kind: rt.ParamFloat, Width: 64},
	}
	point := &instrument.Shape{Kind: instrument.ShapeStruct, Type: "Point", Fields: []string{"X", "Name"}, Elems: []*instrument.Shape{leaf(0, "int32"), leaf(1, "string")}}
	slice := &instrument.Shape{Kind: instrument.ShapeSlice, Type: "[]uint8", Leaf: 2, Elems: []*instrument.Shape{leaf(3, "uint8"), leaf(4, "uint8")}}
	ptr := &instrument.Shape{Kind: instrument.ShapePointer, Type: "*int", Leaf: 5, Elems: []*instrument.Shape{leaf(6, "int")}}
	m := &instrument.Shape{Kind: instrument.ShapeMap, Type: "map[string]bool", Leaf: 7, Elems: []*instrument.Shape{leaf(8, "string"), leaf(9, "bool"), leaf(10, "string"), leaf(11, "bool")}}
	tgt := &Target{Func: "F", rt: ps, maxLen: 4, Params: []instrument.Param{
		{Shape: point}, {Shape: slice}, {Shape: ptr}, {Shape: m},
		{Shape: &instrument.Shape{Kind: instrument.ShapePointer, Type: "*Point", Leaf: 5, Elems: []*instrument.Shape{point}}},
		{Shape: &instrument.Shape{Kind: instrument.ShapeZero, Type: "Empty"}},
		{Leaf: 12, TypeString: "Celsius"},
	}}
	offs := rt.Layout(ps, 4)
	at := func(i int) uint64 { return uint64(offs[i]) }
	tests := []struct {
		name string
		env  sym.Env
		want []string
	}{
		{
			name: "zero input",
			env:  sym.Env{},
			want: []string{`Point{X: 0, Name: ""}`, "[]uint8{}", "func() *int { v := int(0); return &v }()", "map[string]bool{}", `&Point{X: 0, Name: ""}`, "*new(Empty)", "0"},
		},
		{
			name: "elements up to the length, nil pointers, repeated keys once",
			env:  str(str(str(sym.Env{at(0): 0xffffffff, at(2): 9, at(3): 7, at(4): 8, at(5): 1, at(7): 2, at(9): 1, at(11): 0, at(12): 0x7ff0000000000000}, at(1), "hi"), at(8), "k"), at(10), "k"),
			want: []string{`Point{X: -1, Name: "hi"}`, "[]uint8{7, 8}", "nil", `map[string]bool{"k": false}`, "nil", "*new(Empty)", "Celsius(math.Inf(1))"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tgt.Args(tt.env)
			if len(got) != len(tt.want) {
				t.Fatalf("Args = %q", got)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("arg %d = %s, want %s", i, got[i], tt.want[i])
				}
			}
		})
	}
}
