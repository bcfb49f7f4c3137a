package p

import (
	"fmt"
	"sort"
)

// Function literals with twins: called directly, bound to variables,
// used as values (wrappers), deferred, started by go, called with an
// argument of a named type (which falls back to the wrapper).

func LitCalls(x int, s string) (int, string, bool, int) {
	f := func(y int) int { return y*7 + 1 }
	g := func(a string, k int) (string, int) { return a + "!", k * 3 }
	t, m := g(s, x)
	now := func(y int) bool { return y > 3 }(x)
	named := func(y int) (r int) {
		defer func() { r++ }()
		r = y
		return r * 2
	}
	xs := []int{3, x, 2}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	h := f // f as a value: its wrapper
	return f(x) + h(2) + named(x), t, now, m + xs[0]
}

type litBuf []byte

func LitFallback(s string) (int, string) {
	b := litBuf(s)
	n := func(p []byte) int { return len(p) * 2 }(b)
	var up func(string) string
	up = func(v string) string { // assigned after its definition: no twin binding
		if len(v) > 1 {
			return v[1:]
		}
		return v
	}
	return n, up(s)
}

func LitGoDefer(x int) (r int) {
	done := make(chan int)
	go func(v int) { done <- v * 2 }(x)
	r = <-done
	defer func(v int) { r += v }(x)
	return r
}

func LitPanic(x, y int) (r int, msg string) {
	div := func(a, b int) int { return a / b }
	defer func() {
		if e := recover(); e != nil {
			msg = fmt.Sprint(e)
			r = x * 3
		}
	}()
	return div(x, y) + func(v int) int { return 10 / v }(y-1), "ok"
}

func LitPanicLine(x int) int {
	at := func(i int) int {
		s := []int{1, 2, 3}
		return s[i]
	}
	return at(x)
}

// Method values and method expressions of methods with twins.

type litAcc struct{ k int }

func (a litAcc) Mul(x int) int { return a.k * x }

func (a *litAcc) Add(x int) int {
	a.k += x
	return a.k
}

func MethodVals(x int) (int, int, int, int, int) {
	a := litAcc{k: 3}
	m := a.Mul  // a copy of a, made here
	ad := a.Add // &a
	r1 := ad(x)
	r2 := m(x)
	r3 := litAcc.Mul(a, 2)
	r4 := (*litAcc).Add(&a, 1)
	var p *litAcc
	defer func() { recover() }()
	pm := p.Mul // nil dereference: panics here, as the original does
	return r1, r2, r3, r4, pm(x)
}

// Generic functions with literals inside and calls of their instances.

func litApply[T ~int | ~int32](x T, f func(T) T) T { return f(x) + 1 }

func LitGeneric(x int) (int, int32) {
	g := func(y int) int { return y * 5 }
	return litApply(x, g), litApply(int32(x), func(v int32) int32 { return -v })
}

type litAcc2[T ~int8 | ~uint16 | ~int] struct{ sum T }

func (a *litAcc2[T]) Add(v T) T {
	a.sum += v
	return a.sum / v // panics on a zero v, as the original does
}

func (a litAcc2[T]) Get() T { return a.sum }

func LitGenericType(x, y int) (int8, uint16, int) {
	var a litAcc2[int8]
	var b litAcc2[uint16]
	c := litAcc2[int]{sum: y}
	a.Add(int8(x))
	b.Add(uint16(x) + 1)
	return a.Get() >> 1, b.Get() * 3, c.Add(x) + litMin(x, y)
}

func litMin[T ~int | ~int64](a, b T) T {
	if a < b {
		return a
	}
	return b
}
