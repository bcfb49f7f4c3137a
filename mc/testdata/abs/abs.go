// Package abs holds the functions the model checker's tests run
// Algorithm 2 on: goals that are unreachable only by reasoning about
// values, reachable goals, loops and calls.
package abs

// Flagged sets b when x > 5; the goal b && x < 3 is unreachable, but
// only a predicate on b, learned from a spurious path, shows it.
func Flagged(x int) int {
	b := false
	if x > 5 {
		b = true
	}
	if b {
		if x < 3 {
			return 1
		}
	}
	return 0
}

// Nested is x > 5 then x < 3: the goal's own condition, a first
// predicate, proves it without refinement.
func Nested(x int) int {
	if x > 5 {
		if x < 3 {
			return 1
		}
	}
	return 0
}

// Both has reachable outcomes only.
func Both(x, y int8) int {
	s := x + y
	if s == 100 {
		if x < 0 {
			return 1
		}
		return 2
	}
	return 0
}

// Counted runs a loop three times; s != 3 after it is unreachable.
func Counted() int {
	s := 0
	for i := 0; i < 3; i++ {
		s++
	}
	if s != 3 {
		return 1
	}
	return 0
}

// Long runs a loop a thousand times: proving s != 1000 unreachable
// needs more refinements than a small budget allows.
func Long() int {
	s := 0
	for i := 0; i < 1000; i++ {
		s++
	}
	if s != 1000 {
		return 1
	}
	return 0
}

// LoopFlag clears ok when some step of a bounded loop sees x+i == 7;
// ok after the loop is reachable.
func LoopFlag(x int) int {
	ok := true
	for i := 0; i < 4; i++ {
		if x+i == 7 {
			ok = false
		}
	}
	if ok {
		return 1
	}
	return 0
}

//go:noinline
func double(x int) int { return 2 * x }

// Called tests a call's result: 2x == 7 never holds, but the call is
// havoc to the model checker, which must not claim it.
func Called(x int) int {
	y := double(x)
	if y == 7 {
		return 1
	}
	return 0
}

// Loaded tests a value read from memory: havoc too.
func Loaded(p *int) int {
	v := *p
	if v > 3 {
		if v < 2 {
			return 1
		}
	}
	return 0
}

// Simple is the seed's simple-while on three inputs: b is set when an
// input is not 10; the last branch's true side needs every input 10.
func Simple(x0, x1, x2 int) int {
	xs := [3]int{x0, x1, x2}
	b := false
	for i := 0; i < 3; i++ {
		if xs[i] != 10 {
			b = true
		}
	}
	if !b {
		return 1
	}
	return 0
}

// SimpleWhile is the seed's simple-while (its Figure 1): thirty inputs,
// b set when one is not 10; !b needs all thirty to be 10.
func SimpleWhile(in []byte) int {
	b := false
	for i := 0; i < 30; i++ {
		x := 0
		if i < len(in) {
			x = int(in[i])
		}
		if x != 10 {
			b = true
		}
	}
	if !b {
		return 1
	}
	return 0
}
