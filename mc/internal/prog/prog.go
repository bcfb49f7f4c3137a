// Package prog holds small functions that the encoder's tests run both
// natively and through their SSA form, so that the two can be compared.
package prog

// Wrap overflows int8: x+100 is negative for x >= 28.
func Wrap(x int8) int8 {
	y := x + 100
	if y < 0 {
		return y - 1
	}
	return y * 3
}

// Max127 tests x+1 after x == 127, which wraps to -128.
func Max127(x int8) int {
	y := x + 1
	if x == 127 {
		if y > 0 {
			return 1
		}
		return 2
	}
	return 0
}

// Signs compares the same bits as signed and unsigned.
func Signs(u uint8, b uint32) int {
	if int8(u) < 0 {
		if u < 128 {
			return 1
		}
		if uint32(int8(u)) > b {
			return 2
		}
		return 3
	}
	return int(u)
}

// Div mixes signed quotient, remainder and floor division.
func Div(x, y int16) int16 {
	if y == 0 {
		return 0
	}
	q, r := x/y, x%y
	if r != 0 && (r < 0) != (y < 0) {
		q--
	}
	return q
}

// UDiv divides unsigned values with a non-constant divisor.
func UDiv(x, y uint32) uint32 {
	if y > 1000 {
		return x % y
	}
	return x / (y + 1)
}

// NoZero divides by y where y is in [0, 0]: the division panics.
func NoZero(x, y int) int {
	if y > -1 {
		if y < 1 {
			return x / y
		}
	}
	return 0
}

// Shifts shifts by counts beyond the width, arithmetic and logical.
func Shifts(x int64, n uint8) int64 {
	s := x >> n
	u := uint64(x) >> n
	l := int8(x) << n
	if s != int64(u) {
		return s ^ int64(l)
	}
	return int64(l) + int64(u)
}

// ShiftOut checks that a count of at least the width leaves no bit.
func ShiftOut(x uint8, n uint) int {
	r := x << n
	if n >= 8 {
		if r != 0 {
			return 1
		}
	}
	return 0
}

// NegShift shifts by a signed count and then asks whether it was negative.
func NegShift(x, n int) int {
	r := x << n
	if n < 0 {
		return r
	}
	return 0
}

// Sum loops with phis for the counter and the sum.
func Sum(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i * i
	}
	return s
}

// Three counts to three.
func Three() int {
	s := 0
	for i := 0; i < 3; i++ {
		s++
	}
	if s != 3 {
		return 1
	}
	return 0
}

// Collatz counts steps, at most 20, with a phi updated in both arms.
func Collatz(x uint16) int {
	steps := 0
	for x != 1 && steps < 20 {
		if x%2 == 0 {
			x /= 2
		} else {
			x = 3*x + 1
		}
		steps++
	}
	return steps
}

// Widen converts between widths and signedness.
func Widen(x int8, y uint8) int32 {
	a := int32(x)
	b := int32(y)
	c := uint16(x)
	return a + b + int32(c) + int32(^y) - int32(-x) + int32(c&^0x0ff0)
}

// Bools compares booleans and negates them.
func Bools(a, b bool, x int) int {
	c := a != !b
	if c == (x > 3) {
		return 1
	}
	return 0
}

// Range is x > 5 then x < 3 on the same x.
func Range(x int) int {
	if x > 5 {
		if x < 3 {
			return 1
		}
		return 2
	}
	return 0
}

// Wide shifts by a count wider than the value: 256 must not wrap to 0.
func Wide(x int8, n uint64) int8 {
	return x >> n
}

// Clamp uses the builtin min and max on signed and unsigned values.
func Clamp(x int16, lo, hi uint8) int16 {
	u := max(uint8(x), lo, hi/2)
	return min(x, int16(hi), -3) + int16(min(u, 200))
}

// clampTo is a helper with several returns.
func clampTo(x, lo, hi int16) int16 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// divmod is a helper with two results that panics on a zero divisor.
func divmod(x, y int16) (int16, int16) { return x / y, x % y }

// abs8 is a helper whose result is a phi.
func abs8(x int8) int8 {
	r := x
	if x < 0 {
		r = -x
	}
	return r
}

// both calls clampTo twice from a helper: two levels deep.
func both(x int16) int16 { return clampTo(x, 0, 10) + clampTo(x, -10, 0) }

// Calls goes through the helpers, which the model checker inlines.
func Calls(x, y int16) int {
	c := clampTo(x, -100, 100)
	q, r := divmod(c, y)
	a := abs8(int8(q))
	if int16(a)+r+both(x) > 50 {
		return 1
	}
	return 0
}
