// Package local holds functions for ProveLocal's tests: goals that the
// straight code before them rules out, and goals that only look so.
package local

import "strings"

// Net fires a transition each round, as nsichneu's do: the inner test
// contradicts the guard the tokens passed just before.
func Net(m, v int8, rounds int) int {
	fired := 0
	for r := 0; r < rounds; r++ {
		if m >= 3 {
			if v > 0 {
				m -= 3
				fired++
				if m < -4 { // dead
					fired += 100
				}
			}
		}
		m++
	}
	return fired
}

// Wrapped looks like Net, but the subtraction wraps.
func Wrapped(m int8) int {
	if m <= -126 {
		m -= 3
		if m > 100 { // reachable: -126 - 3 wraps to 127
			return 1
		}
	}
	return 0
}

// Joined's dead goal follows a join: its reason is not in the straight
// code before it.
func Joined(x int) int {
	y := 1
	if x > 0 {
		y = 2
	}
	if y == 0 { // dead, but not by the straight code
		return 1
	}
	return 0
}

// Counter's goal depends on the loop: i is any value below 10 at the
// loop head as far as the straight code knows, and only induction shows
// it even.
func Counter() int {
	n := 0
	for i := 0; i < 10; i += 2 {
		if i == 5 { // dead, but not by the straight code
			n++
		}
	}
	return n
}

// T holds a count.
type T struct{ N int }

// Field tests a field it just decremented.
func Field(p *T) int {
	if p.N >= 3 && p.N < 100 {
		p.N -= 3
		if p.N < -4 { // dead
			return 1
		}
	}
	return 0
}

// Touched lets an unknown function change the field in between.
func Touched(p *T, touch func(*T)) int {
	if p.N >= 3 && p.N < 100 {
		p.N -= 3
		touch(p)
		if p.N < -4 { // reachable: touch may set anything
			return 1
		}
	}
	return 0
}

// Fields counts the words of s up to an "x": a range loop over a
// call's result, whose length the runtime sees as concrete, so a trace
// may lack the loop's outcomes (cfa.Branch.Optional).
func Fields(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		if w == "x" {
			return -1
		}
		n++
	}
	return n
}
