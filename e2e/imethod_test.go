package e2e

import "testing"

// imethodTargets panic behind an equality on 32 bits or more of input
// that flows through a call of an interface method: into the method's
// body (the panic is there) or back out as its result. The calls go
// through a local interface variable with value and pointer receivers,
// a struct field, an interface parameter built from the input (its
// candidates are the package's types that implement Shape), an
// interface that embeds Shape, a struct that embeds Shape, a method with
// two results, a slice element and one with a string parameter. Z3 reaches each panic
// only if the call goes to the twin of the dynamic type's method, which
// the runtime finds from the type (rt.IMethod).
const imethodTargets = `package ish

type Shape interface {
	Scale(k uint32) uint32
}

type Named interface {
	Shape
	Split(k uint32) (uint32, uint32)
	Check(s string) bool
}

type Circle struct{ R uint32 }

func (c Circle) Scale(k uint32) uint32 { return (k^0x5a5a5a5a)*0x9e3779b1 + c.R }

func (c Circle) Split(k uint32) (uint32, uint32) { return k >> 16, k & 0xffff }

func (c Circle) Check(s string) bool {
	if s == "open sesame" {
		panic("found")
	}
	return false
}

type Square struct{ Side uint32 }

func (q *Square) Scale(k uint32) uint32 {
	if k*q.Side == 0x2468ace0 {
		panic("found")
	}
	return k
}

func ValueRecv(x uint32) {
	var s Shape = Circle{R: 7}
	if s.Scale(x) == 0x1234abcd {
		panic("found")
	}
}

func PointerRecv(x uint32) uint32 {
	var s Shape = &Square{Side: 3}
	return s.Scale(x)
}

type holder struct {
	s Shape
	n int
}

func Field(x uint32) {
	h := &holder{s: Circle{R: 1}}
	if h.s.Scale(x) == 0x0badf00d {
		panic("found")
	}
}

func Param(s Shape, x uint32) {
	if s == nil {
		return
	}
	if s.Scale(x) == 0x2345bcde {
		panic("found")
	}
}

func Embedded(x uint32) {
	var n Named = Circle{R: 5}
	if n.Scale(x) == 0x3456cdef {
		panic("found")
	}
}

type wrapped struct{ Shape }

func EmbeddedField(x uint32) {
	w := wrapped{Circle{R: 9}}
	if w.Scale(x) == 0x456789ab {
		panic("found")
	}
}

func TwoResults(x uint32) {
	var n Named = Circle{}
	hi, lo := n.Split(x)
	if hi == 0x1234 && lo == 0xabcd {
		panic("found")
	}
}

func Element(x uint32, i uint8) {
	shapes := []Shape{&Square{Side: 5}, Circle{R: 3}}
	if i < 2 && shapes[i].Scale(x) == 0x5678def0 {
		panic("found")
	}
}

func StringArg(s string) bool {
	var n Named = Circle{}
	return n.Check(s)
}
`

// TestIfaceMethods checks that a call of an interface method keeps its
// arguments' and results' terms: it reaches the twin of the method of
// the value's dynamic type.
func TestIfaceMethods(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"ish/ish.go": imethodTargets})
	expectPanics(t, dir, "./ish", []string{"ValueRecv", "PointerRecv", "Field", "Param", "Embedded", "EmbeddedField", "TwoResults", "Element", "StringArg"})
}
