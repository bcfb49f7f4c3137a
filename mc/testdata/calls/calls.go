// Package calls holds the callees of the monitor product's tests: each
// helper's guard is decided by its caller's context, inlined or not.
package calls

// at is byte i of in, 0 past its end.
func at(in []byte, i int) byte {
	if i < len(in) {
		return in[i]
	}
	return 0
}

// Pair reads two bytes through at: once in has two, i < len(in) holds
// in both calls.
func Pair(in []byte) int {
	if len(in) < 2 {
		return int(at(in, 0))
	}
	if at(in, 0) == at(in, 1) {
		return 1
	}
	return 2
}

// down counts the bytes of in from i on, recursively: a call of down in
// down is not inlined.
func down(in []byte, i int) int {
	if i >= len(in) {
		return 0
	}
	return 1 + down(in, i+1)
}

// Rec calls down from 0 once in has two bytes.
func Rec(in []byte) int {
	if len(in) < 2 {
		return 0
	}
	return down(in, 0)
}

// first has a loop, so it is never inlined.
func first(in []byte) byte {
	n := 0
	for i := 0; i < 2; i++ {
		n += i
	}
	if n < len(in) {
		return in[0]
	}
	return 0
}

// Loopy calls first once in has two bytes.
func Loopy(in []byte) int {
	if len(in) < 2 {
		return 0
	}
	return int(first(in))
}

// peek is at, also started by a go statement.
func peek(in []byte, i int) byte {
	if i < len(in) {
		return in[i]
	}
	return 0
}

// Spawn calls peek once in has two bytes, and starts it in a goroutine.
func Spawn(in []byte) int {
	if len(in) < 2 {
		return 0
	}
	go peek(in, 5)
	return int(peek(in, 0))
}

// Tail compares the lengths of in, of a slice of it, and of s: only the
// parameters' are known to the encoder.
func Tail(in []byte, s string) int {
	t := in[1:]
	if len(t) == len(in) {
		return 1
	}
	if len(s) == 4 {
		return 2
	}
	return 0
}

// charAt is byte i of s, 0 past its end.
func charAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// Word reads a constant string through charAt: the length the callee
// sees is the constant's.
func Word(i int) int {
	return int(charAt("four", i))
}

// Loop reads three bytes through at: once a read is past the end of
// in, so is every later one.
func Loop(in []byte) int {
	n := 0
	for i := 0; i < 3; i++ {
		if at(in, i) == 7 {
			n++
		}
	}
	return n
}

// bytes carries Pair's at as a method, mget, which only static calls
// start.
type bytes []byte

func (b bytes) mget(i int) byte {
	if i < len(b) {
		return b[i]
	}
	return 0
}

// ByMethod is Pair through the method mget.
func ByMethod(in bytes) int {
	if len(in) < 2 {
		return int(in.mget(0))
	}
	if in.mget(0) == in.mget(1) {
		return 1
	}
	return 2
}

// shown carries the same method, sget, but is converted to an interface
// that calls it.
type shown []byte

func (b shown) sget(i int) byte {
	if i < len(b) {
		return b[i]
	}
	return 0
}

type sgetter interface{ sget(i int) byte }

// Boxed calls sget once in has two bytes, and through an interface.
func Boxed(in shown) int {
	if len(in) < 2 {
		return 0
	}
	var s sgetter = in
	return int(in.sget(0)) + int(s.sget(5))
}
