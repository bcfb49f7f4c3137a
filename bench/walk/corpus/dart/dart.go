// Package dart is a target of the concolic-walk benchmark (bench/walk) for
// the constraint class "integer polynomials whose solutions need int32
// wraparound", in the spirit of the examples of DART: every condition
// below holds only for inputs whose arithmetic overflows 32 bits, so a
// solver that reasons over the mathematical integers finds none of them.
package dart

// Check tests overflow-dependent conditions on x and y and returns a bit
// mask with one bit set per condition that held.
func Check(x, y int32) int {
	mask := 0
	// Two positive factors with a negative product.
	if x > 0 && y > 0 && x*y < 0 {
		mask |= 1 << 0
	}
	// A square that wraps to zero: x a multiple of 65536.
	if x > 65536 && x*x == 0 {
		mask |= 1 << 1
	}
	// A cubic whose value is reached only by wrapping (x = 123457 is one
	// solution).
	if x > 100000 && 3*x*x*x-7*x+11 == -2142415737 {
		mask |= 1 << 2
	}
	// A sum smaller than one of its positive parts.
	if y > 0 && x+y < x {
		mask |= 1 << 3
	}
	// The square of a negative number that comes out negative.
	if x < 0 && x*x < 0 && y == x/2 {
		mask |= 1 << 4
	}
	// A product with an odd constant that lands on a small value; the
	// constant is invertible modulo 2^32, so there is exactly one x.
	if x*1000003 == 17 {
		mask |= 1 << 5
	}
	// A quadratic in both inputs that must wrap past the int32 range.
	if x > 50000 && y > 50000 && x*y+x == y {
		mask |= 1 << 6
	}
	return mask
}
