package p

import (
	"errors"
	"fmt"
	"strings"
)

// Calls of interface methods, which go to the twin of the dynamic type's
// method: value and pointer receivers, a receiver in a field and in an
// embedded field, an interface that embeds another, several and string
// results, variadic and unexported methods, errors, defer, go, a pointer
// receiver that accepts nil, and the panics of a nil interface, a value
// method through a nil pointer and a method's own.

type imShape interface{ Scale(k int) int }

type imNamed interface {
	imShape
	Name(prefix string) string
	Split(k int) (int, bool)
	sum(ks ...int) int
}

type imCircle struct{ r int }

func (c imCircle) Scale(k int) int { return c.r * k }

func (c imCircle) Name(prefix string) string { return prefix + "circle" }

func (c imCircle) Split(k int) (int, bool) { return k / 2, k%2 == 0 }

func (c imCircle) sum(ks ...int) int {
	t := c.r
	for _, k := range ks {
		t += k
	}
	return t
}

type imSquare struct{ side, calls int }

func (s *imSquare) Scale(k int) int {
	s.calls++
	return s.side*k + s.calls
}

func (s *imSquare) Name(prefix string) string { return strings.ToUpper(prefix) + "square" }

func (s *imSquare) Split(k int) (int, bool) {
	if s == nil {
		return -k, false // a pointer receiver may be nil
	}
	return k * s.side, true
}

func (s *imSquare) sum(ks ...int) int { return len(ks) * s.side }

type imHolder struct {
	imShape
	n   imNamed
	err error
}

type imErr struct{ code int }

func (e imErr) Error() string { return fmt.Sprintf("code %d", e.code) }

func IfaceCalls(a, b int, s string) (int, int, string, string, int, bool, int, int, string, int) {
	var c imShape = imCircle{r: a}
	sq := &imSquare{side: b}
	var n imNamed = sq
	var e error = imErr{code: a}
	h := imHolder{imShape: c, n: n, err: e}
	x := c.Scale(b) + n.Scale(a)
	y := h.Scale(2) + h.n.Scale(3) // the second call sees the first's count
	q, even := n.Split(a)
	var nilSq *imSquare
	var ns imNamed = nilSq
	r, _ := ns.Split(b) // nil receiver, pointer method: runs
	var cn imNamed = imCircle{r: a}
	sums := r + cn.sum(a, b, 3) + n.sum(1, 2)
	dg := ifaceDeferGo(n, a)
	calls := sq.calls // after the calls: a field read in the return list would be made before them
	return x, y, c.(imNamed).Name(s), h.n.Name(s), q, even, sums, calls, h.err.Error(), dg
}

func ifaceDeferGo(n imNamed, k int) (r int) {
	done := make(chan int)
	go func() { done <- n.Scale(k) }()
	r = <-done
	defer func() { r += n.Scale(1) }()
	defer n.Scale(k) // evaluated now, called at the end
	return r
}

var imNilCircle imShape = (*imCircle)(nil)

// IfaceNil calls a method through a nil interface, a value method
// through a nil pointer and a method that panics, by x.
func IfaceNil(x int) int {
	switch x & 3 {
	case 0:
		var s imShape
		return s.Scale(x) // panics here, with a nil dereference
	case 1:
		// A value method through a nil pointer. From a variable the
		// compiler may call the method directly (a nil dereference
		// rather than the message of a call through the interface).
		return imNilCircle.Scale(x)
	case 2:
		var s imShape = imCircle{r: 7}
		return s.Scale(x) / (x - 2) // the division panics
	}
	var s imShape = &imSquare{side: x}
	return 100 / s.Scale(-1) // panics when the scale is 0
}

// IfaceErr returns an error through error's Error method and wraps it.
func IfaceErr(x int) (string, bool) {
	var err error = imErr{code: x}
	if x < 0 {
		err = fmt.Errorf("wrapped: %w", err)
	}
	var target imErr
	return err.Error(), errors.As(err, &target) && target.code == x
}
