// Package blind is a target of the concolic-walk benchmark (bench/walk) for
// the constraint class "non-linear integer arithmetic". Its first condition
// is the first example of Figure 1 of Dinges and Agha (FSE 2014): z := x*x
// and then z == y+3 under x > 2. A solver that simplifies the square to the
// value it had in the last run (x*x = 0 for x = 0) fixes y to 3 - 0 and
// walks into the x > 2 guard blindly; the others are multinomials of two
// and three inputs.
package blind

// Solve tests non-linear integer conditions on its inputs and returns a
// bit mask with one bit set per condition that held.
func Solve(x, y, a, b int) int {
	mask := 0
	z := x * x
	if x > 2 {
		if z == y+3 {
			mask |= 1 << 0
		}
	}
	// A cubic multinomial: a = 7, b = 11 is a solution.
	if a*a*a-2*a*b+b*b == 310 && a > 0 {
		mask |= 1 << 1
	}
	// A product of three inputs: 11·12·35 is an ordered factorisation.
	if a*b*x == 4620 && a > 10 && b > a && x > b {
		mask |= 1 << 2
	}
	// A Pythagorean triple with consecutive y and a: (11, 60, 61).
	if x*x+y*y == a*a && x > 10 && y > 0 && a-y == 1 {
		mask |= 1 << 3
	}
	// A product with a given remainder.
	if (a*b)%97 == 13 && b > 1000 && a > 1 {
		mask |= 1 << 4
	}
	// A quadratic form that vanishes away from the origin: a = 2b, b != 0.
	if a*a-4*a*b+4*b*b == 0 && b != 0 && y == b {
		mask |= 1 << 5
	}
	return mask
}
