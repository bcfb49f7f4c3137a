package session

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/emit"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/packages"
)

// shapeDecls declares the named types of the shape tests, in a target
// package u.
const shapeDecls = `package u

type Point struct {
	X    int32
	Name string
}
type Empty struct{}
type Celsius float64
type Shape interface{}
type Circle struct{ R int64 }
type Square struct{ Side uint32 }
type Kind int8
type Unit struct{}
type Holder struct{ S Shape }
type List struct {
	Value int
	Next  *List
}
`

// shapeTypes returns the package of shapeDecls and a function returning
// the type that a Go type expression denotes in it.
func shapeTypes(t *testing.T) (*types.Package, func(expr string) types.Type) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "u.go", shapeDecls, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := new(types.Config).Check("example.com/u", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg, func(expr string) types.Type {
		t.Helper()
		tv, err := types.Eval(fset, pkg, token.NoPos, expr)
		if err != nil || !tv.IsType() {
			t.Fatalf("type %s: %v", expr, err)
		}
		return tv.Type
	}
}

// TestShapeArgs checks the Go literals written for composite parameters.
func TestShapeArgs(t *testing.T) {
	pkg, typ := shapeTypes(t)
	leaf := func(i int, expr string) *instrument.Shape {
		return &instrument.Shape{Kind: instrument.ShapeLeaf, Leaf: i, Type: typ(expr)}
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
	point := &instrument.Shape{Kind: instrument.ShapeStruct, Type: typ("Point"), Fields: []string{"X", "Name"}, Elems: []*instrument.Shape{leaf(0, "int32"), leaf(1, "string")}}
	slice := &instrument.Shape{Kind: instrument.ShapeSlice, Type: typ("[]uint8"), Leaf: 2, Elems: []*instrument.Shape{leaf(3, "uint8"), leaf(4, "uint8")}}
	ptr := &instrument.Shape{Kind: instrument.ShapePointer, Type: typ("*int"), Leaf: 5, Elems: []*instrument.Shape{leaf(6, "int")}}
	m := &instrument.Shape{Kind: instrument.ShapeMap, Type: typ("map[string]bool"), Leaf: 7, Elems: []*instrument.Shape{leaf(8, "string"), leaf(9, "bool"), leaf(10, "string"), leaf(11, "bool")}}
	tgt := &Entry{Func: "F", rt: ps, maxLen: 4, names: emit.NewTypeNames(pkg), Params: []instrument.Param{
		{Shape: point}, {Shape: slice}, {Shape: ptr}, {Shape: m},
		{Shape: &instrument.Shape{Kind: instrument.ShapePointer, Type: typ("*Point"), Leaf: 5, Elems: []*instrument.Shape{point}}},
		{Shape: &instrument.Shape{Kind: instrument.ShapeZero, Type: typ("Empty")}},
		{Leaf: 12, Type: typ("Celsius")},
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

// TestIfaceArgs checks the literals written for interface inputs: the
// candidate the choice selects (a value, a pointer, a scalar converted to
// its type, a zero value), and nil for the choice past the candidates,
// as a parameter and inside a struct.
func TestIfaceArgs(t *testing.T) {
	pkg, typ := shapeTypes(t)
	// Inputs: 0 the choice among 4 candidates, 1 Circle.R, 2 Square.Side,
	// 3 Kind, 4 a second choice, for the field of a Holder.
	ps := []rt.Param{
		{Kind: rt.ParamInt, Width: 64, Max: 4}, {Kind: rt.ParamInt, Width: 64, Signed: true},
		{Kind: rt.ParamInt, Width: 32}, {Kind: rt.ParamInt, Width: 8, Signed: true},
		{Kind: rt.ParamInt, Width: 64, Max: 4},
	}
	cands := func(choice int) *instrument.Shape {
		return &instrument.Shape{Kind: instrument.ShapeIface, Type: typ("Shape"), Leaf: choice, Elems: []*instrument.Shape{
			{Kind: instrument.ShapeStruct, Type: typ("Circle"), Fields: []string{"R"}, Elems: []*instrument.Shape{{Kind: instrument.ShapeLeaf, Type: typ("int64"), Leaf: 1}}},
			{Kind: instrument.ShapePointer, Type: typ("*Square"), Leaf: -1, Elems: []*instrument.Shape{
				{Kind: instrument.ShapeStruct, Type: typ("Square"), Fields: []string{"Side"}, Elems: []*instrument.Shape{{Kind: instrument.ShapeLeaf, Type: typ("uint32"), Leaf: 2}}}}},
			{Kind: instrument.ShapeLeaf, Type: typ("Kind"), Leaf: 3},
			{Kind: instrument.ShapeZero, Type: typ("Unit")},
		}}
	}
	holder := &instrument.Shape{Kind: instrument.ShapeStruct, Type: typ("Holder"), Fields: []string{"S"}, Elems: []*instrument.Shape{cands(4)}}
	tgt := &Entry{Func: "F", rt: ps, maxLen: 4, names: emit.NewTypeNames(pkg), Params: []instrument.Param{{Shape: cands(0)}, {Shape: holder}}}
	tests := []struct {
		name   string
		choice uint64
		want   string
	}{
		{"a value", 0, "Circle{R: -2}"},
		{"a pointer", 1, "&Square{Side: 7}"},
		{"a scalar, converted", 2, "Kind(-1)"},
		{"a zero value", 3, "*new(Unit)"},
		{"nil", 4, "nil"},
		{"a choice past the bound is nil", 9, "nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tgt.Args(sym.Env{0: tt.choice, 1: 0xfffffffffffffffe, 2: 7, 3: 0xff, 4: tt.choice})
			if got[0] != tt.want || got[1] != "Holder{S: "+tt.want+"}" {
				t.Errorf("Args = %q, want %s and Holder{S: %[2]s}", got, tt.want)
			}
		})
	}
}

// TestBuildLiteral checks the builders written for inputs whose pointers
// alias: none without an alias, a shared object across parameters, a
// cycle, and an alias of a nil input.
func TestBuildLiteral(t *testing.T) {
	pkg, typ := shapeTypes(t)
	leaf := func(i int, expr string) *instrument.Shape {
		return &instrument.Shape{Kind: instrument.ShapeLeaf, Leaf: i, Type: typ(expr)}
	}
	// Inputs: 0 l1's choice, 1 l1.Value, 2 l1.Next's choice (may alias l1),
	// 3 l1.Next.Value, 4 l2's choice (may alias l1 or l1.Next), 5 l2.Value.
	ps := []rt.Param{
		{Kind: rt.ParamInt, Width: 64, Max: 1, Ref: true}, {Kind: rt.ParamInt, Width: 64, Signed: true},
		{Kind: rt.ParamInt, Width: 64, Max: 2, Ref: true, Refs: []int{0}}, {Kind: rt.ParamInt, Width: 64, Signed: true},
		{Kind: rt.ParamInt, Width: 64, Max: 3, Ref: true, Refs: []int{0, 2}}, {Kind: rt.ParamInt, Width: 64, Signed: true},
	}
	node := func(choice, value int, next *instrument.Shape) *instrument.Shape {
		fields, elems := []string{"Value"}, []*instrument.Shape{leaf(value, "int")}
		if next != nil {
			fields, elems = append(fields, "Next"), append(elems, next)
		}
		return &instrument.Shape{Kind: instrument.ShapePointer, Type: typ("*List"), Leaf: choice, Elems: []*instrument.Shape{
			{Kind: instrument.ShapeStruct, Type: typ("List"), Fields: fields, Elems: elems}}}
	}
	tgt := &Entry{Func: "F", rt: ps, maxLen: 4, names: emit.NewTypeNames(pkg), Params: []instrument.Param{
		{Shape: node(0, 1, node(2, 3, nil)), Type: typ("*List")},
		{Shape: node(4, 5, nil), Type: typ("*List")},
	}}
	offs := rt.Layout(ps, 4)
	tests := []struct {
		name string
		env  sym.Env // by input
		want string
	}{
		{"no alias", sym.Env{1: 7}, ""},
		{"l2 is l1", sym.Env{4: 2, 1: 7}, "func() (a0 *List, a1 *List) {\np1 := new(List)\na0 = p1\n(*p1).Value = 7\np2 := new(List)\n(*p1).Next = p2\n(*p2).Value = 0\na1 = p1\nreturn\n}"},
		{"a cycle", sym.Env{2: 2, 4: 1}, "func() (a0 *List, a1 *List) {\np1 := new(List)\na0 = p1\n(*p1).Value = 0\n(*p1).Next = p1\nreturn\n}"},
		{"l2 is l1.Next, which is nil", sym.Env{2: 1, 4: 3}, "func() (a0 *List, a1 *List) {\np1 := new(List)\na0 = p1\n(*p1).Value = 0\nreturn\n}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := sym.Env{}
			for i, v := range tt.env {
				env[uint64(offs[i])] = v
			}
			if got := tgt.Build(env); got != tt.want {
				t.Errorf("builder\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestEntryTypes checks the types the generated test file writes for an
// entry and the names it imports their packages under: chosen in the
// order the receiver, each parameter and its shape (outermost first) and
// the results mention the packages, a variadic parameter written ...T.
func TestEntryTypes(t *testing.T) {
	pkg, typ := shapeTypes(t)
	named := func(path, name string) types.Type {
		p := types.NewPackage(path, path[strings.LastIndexByte(path, '/')+1:])
		return types.NewNamed(types.NewTypeName(token.NoPos, p, name, nil), types.Typ[types.Int], nil)
	}
	image := named("image", "Point")
	v1a, v1b := named("example.com/a/v1", "Level"), named("example.com/b/v1", "Level")
	leaf := func(tp types.Type) *instrument.Shape { return &instrument.Shape{Kind: instrument.ShapeLeaf, Type: tp} }
	ins := &instrument.Result{
		Recv:   &instrument.Param{Name: "receiver", Type: typ("Celsius")},
		Method: "Warm",
		Params: []instrument.Param{
			// v1b first mentioned inside the shape, before v1a in the results.
			{Name: "p", Type: typ("Holder"), Shape: &instrument.Shape{Kind: instrument.ShapeStruct, Type: typ("Holder"),
				Elems: []*instrument.Shape{{Kind: instrument.ShapeIface, Type: typ("Shape"), Elems: []*instrument.Shape{leaf(image), leaf(v1b)}}}}},
			{Name: "xs", Type: types.NewSlice(typ("Kind")), Variadic: true,
				Shape: &instrument.Shape{Kind: instrument.ShapeSlice, Type: types.NewSlice(typ("Kind")), Elems: []*instrument.Shape{leaf(typ("Kind"))}}},
		},
		Results:       []types.Type{v1a, types.NewSlice(v1b), types.Universe.Lookup("error").Type()},
		Pinnable:      []bool{true, true, true},
		ResultIsError: []bool{false, false, true},
	}
	lp := &load.Package{Package: &packages.Package{PkgPath: pkg.Path(), Name: pkg.Name(), Types: pkg, CompiledGoFiles: []string{filepath.Join("u", "u.go")}}}
	tgt := newEntry(lp, ins, Config{Func: "Celsius.Warm"})

	wantImports := map[string]string{"image": "image", "example.com/b/v1": "v1", "example.com/a/v1": "v1_2"}
	if !maps.Equal(tgt.Imports, wantImports) {
		t.Errorf("Imports %v, want %v", tgt.Imports, wantImports)
	}
	var params []string
	for i, p := range tgt.Params {
		params = append(params, p.Name+" "+tgt.paramType(i))
	}
	if want := []string{"receiver Celsius", "p Holder", "xs ...Kind"}; !slices.Equal(params, want) {
		t.Errorf("params %q, want %q", params, want)
	}
	if want := []string{"v1_2.Level", "[]v1.Level", "error"}; !slices.Equal(tgt.Results, want) {
		t.Errorf("results %q, want %q", tgt.Results, want)
	}
	if tgt.Func != "Celsius_Warm" || tgt.Method != "Warm" {
		t.Errorf("Func %s, Method %s, want Celsius_Warm and Warm", tgt.Func, tgt.Method)
	}
}
