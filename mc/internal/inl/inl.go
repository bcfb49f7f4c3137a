// Package inl holds small functions for the tests of the model checker's
// inlining and memory (stage 2): each returns 1 exactly when it takes
// the outcome a test asks about, so that the tests can run them natively
// too.
package inl

// Box is memory reached through pointers.
type Box struct {
	V int
	W int8
}

// sign is started only by Pos, which never passes a negative.
func sign(x int) int {
	if x < 0 {
		return 1
	}
	return 0
}

// Pos calls sign with a non-negative value.
func Pos(x uint8) int { return sign(int(x)) }

// half is called twice by Two, once with a negative value.
func half(x int) int {
	if x < 0 {
		return 1
	}
	return 0
}

// Two reaches both sides of half.
func Two(x uint8) int { return half(int(x)) + 2*half(-1) }

// neg is called like sign, but its value escapes too.
func neg(x int) int {
	if x < 0 {
		return 1
	}
	return 0
}

// Neg is neg as a value: any code may call it with anything.
var Neg = neg

// ViaValue calls neg with a non-negative value.
func ViaValue(x uint8) int { return neg(int(x)) }

// StoreLoad reads back what it wrote through a pointer.
func StoreLoad(b *Box, x int) int {
	b.V = x
	if b.V != x {
		return 1
	}
	return 0
}

// Aliased writes through a second pointer that may be the first.
func Aliased(a, b *Box, x int) int {
	a.V = x
	b.V = x + 1
	if a.V != x {
		return 1
	}
	return 0
}

// Typed writes a field of another type in between.
func Typed(a, c *Box, x int) int {
	a.V = x
	c.W = 3
	if a.V != x {
		return 1
	}
	return 0
}

// PtrAlias writes through an *int that may point at a.V.
func PtrAlias(a *Box, p *int, x int) int {
	a.V = x
	*p = x + 1
	if a.V != x {
		return 1
	}
	return 0
}

// inc writes through its parameter.
func inc(b *Box) { b.V++ }

// Bumped reads what the inlined inc wrote.
func Bumped(b *Box) int {
	b.V = 0
	inc(b)
	if b.V != 1 {
		return 1
	}
	return 0
}

// counter is a global.
var counter int

// Global reads back a global it wrote.
func Global(x int) int {
	counter = x
	if counter != x {
		return 1
	}
	return 0
}

// meter's below is sign as a method: only static calls start it.
type meter struct{ n int }

func (m *meter) below(x int) int {
	if x < 0 {
		return 1
	}
	return m.n
}

// MeterPos calls below with a non-negative value.
func MeterPos(x uint8) int {
	m := &meter{}
	return m.below(int(x))
}

// shown's below is called like meter's, but shown is converted to an
// interface that has it, which Via calls with anything.
type shown struct{}

func (shown) sbelow(x int) int {
	if x < 0 {
		return 1
	}
	return 0
}

type sbelower interface{ sbelow(int) int }

// ShownPos calls sbelow with a non-negative value.
func ShownPos(x uint8) int { return shown{}.sbelow(int(x)) }

// Via calls sbelow through an interface.
func Via(x int) int {
	var b sbelower = shown{}
	return b.sbelow(x)
}

// bound's vbelow is called like meter's, but its method value escapes.
type bound struct{}

func (bound) vbelow(x int) int {
	if x < 0 {
		return 1
	}
	return 0
}

// BoundPos calls vbelow with a non-negative value.
func BoundPos(x uint8) int { return bound{}.vbelow(int(x)) }

// VBelow is vbelow as a value: any code may call it with anything.
var VBelow = bound{}.vbelow
