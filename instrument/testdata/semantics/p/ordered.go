//go:build go1.22

package p

import (
	"cmp"
	"fmt"
	"math"
	"strings"
)

// Generic functions over ordered type parameters (cmp.Ordered, a union
// of integer and float types, a union of integer and string types), run
// at every integer width and signedness, float32 and float64 (NaN, ±0,
// ±Inf included) and strings. The operands derive from the symbolic a, b,
// s and bs, mixed with pseudo-random constants, so that each function
// sees many values and, in a worker, records branches on their terms.

type OrdNum interface {
	~int32 | ~float32 | ~uint8 | ~int64 | ~float64 | ~int | ~uint64 | ~int8 | ~uint16 | ~int16 | ~uint32 | ~uintptr
}

type IntOrStr interface{ ~int16 | ~string }

type temp float32

type label string

func OMax[T cmp.Ordered](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func OMin[T cmp.Ordered](a, b T) T {
	if a <= b {
		return a
	}
	return b
}

func OClamp[T cmp.Ordered](x, lo, hi T) T { return OMax(lo, OMin(x, hi)) }

func OCompare[T cmp.Ordered](a, b T) (bool, bool, bool, bool, bool, bool, int) {
	r := 0
	switch a {
	case b:
		r = 1
	case OMax(a, b):
		r = 2
	}
	return a == b, a != b, a < b, a <= b, a > b, a >= b, r
}

func OArith[T OrdNum](a, b T) (T, T, T, T, T) {
	c := a*b - a
	c++
	c += b
	d := -c
	d--
	d *= 3
	return a + b, a - b, c, d, a / b
}

func OConv[T OrdNum](a T) (int8, uint16, int32, uint64, float32, float64, T, T) {
	return int8(a), uint16(a), int32(a), uint64(a), float32(a), float64(a), T(int8(a)), T(float32(a))
}

type obox[T cmp.Ordered] struct {
	v  T
	xs []T
}

func (b *obox[T]) put(v T) {
	b.v = v
	b.v += v
	b.xs = append(b.xs, v, b.v)
}

func (b *obox[T]) largest() (T, int) {
	m, at := b.xs[0], 0
	for i, x := range b.xs {
		if x > m {
			m, at = x, i
		}
	}
	return m, at
}

func OMem[T cmp.Ordered](a, b T, i int) (T, T, int, T) {
	var bx obox[T]
	bx.put(a)
	bx.put(b)
	m, at := bx.largest()
	return bx.v, bx.xs[i&3], at, m
}

func OConcat[T IntOrStr](a, b T) (T, bool) {
	c := a + b
	c += a
	return c, c < b
}

// ordTry runs f and returns its output, or the panic it raised.
func ordTry(f func() string) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = "panic: " + fmt.Sprint(r)
		}
	}()
	return f()
}

// ordBits shows floats by their bits too, so that -0 counts. A NaN is
// shown as NaN: which operand's NaN the sum of two NaNs returns depends
// on the operand order the compiler picks (the Go spec leaves NaN
// payloads open), and gc picks differently for the same a + b in the
// original and in the runtime's operator, generic or not.
func ordBits(vs ...any) string {
	parts := make([]string, 0, len(vs))
	for _, v := range vs {
		switch f := v.(type) {
		case float64, float32, temp:
			if fmt.Sprint(f) == "NaN" {
				parts = append(parts, "NaN")
				continue
			}
		}
		switch f := v.(type) {
		case float64:
			parts = append(parts, fmt.Sprintf("%v/%#x", f, math.Float64bits(f)))
		case float32:
			parts = append(parts, fmt.Sprintf("%v/%#x", f, math.Float32bits(f)))
		case temp:
			parts = append(parts, fmt.Sprintf("%v/%#x", f, math.Float32bits(float32(f))))
		default:
			parts = append(parts, fmt.Sprintf("%#v", v))
		}
	}
	return strings.Join(parts, " ")
}

// ordNum runs the number functions at T on x and y.
func ordNum[T OrdNum](x, y T, i int) string {
	return ordTry(func() string {
		a1, a2, a3, a4, a5, a6, a7 := OCompare(x, y)
		return ordBits(OMax(x, y), OMin(x, y), OClamp(x, y, OMax(x, y)), a1, a2, a3, a4, a5, a6, a7)
	}) + "; " + ordTry(func() string {
		m1, m2, m3, m4 := OMem(x, y, i)
		return ordBits(m1, m2, m3, m4)
	}) + "; " + ordTry(func() string {
		c1, c2, c3, c4, c5, c6, c7, c8 := OConv(x)
		return ordBits(c1, c2, c3, c4, c5, c6, c7, c8)
	}) + "; " + ordTry(func() string {
		r1, r2, r3, r4, r5 := OArith(x, y)
		return ordBits(r1, r2, r3, r4, r5)
	})
}

// ordMix is a step of a pseudo-random sequence (splitmix64's finaliser).
func ordMix(k uint64) uint64 {
	k += 0x9e3779b97f4a7c15
	k = (k ^ k>>30) * 0xbf58476d1ce4e5b9
	k = (k ^ k>>27) * 0x94d049bb133111eb
	return k ^ k>>31
}

// OrderedInts runs the generic functions at every integer type.
func OrderedInts(a, b int64) string {
	var out []string
	for k := range uint64(4) {
		r := ordMix(k)
		x, y := a^int64(r&0xff>>uint(k)), b+int64(r>>(k*8))
		if k == 0 {
			x, y = a, b
		}
		i := int(x)
		out = append(out,
			ordNum(int8(x), int8(y), i), ordNum(int16(x), int16(y), i), ordNum(int32(x), int32(y), i),
			ordNum(x, y, i), ordNum(int(x), int(y), i), ordNum(uint8(x), uint8(y), i),
			ordNum(uint16(x), uint16(y), i), ordNum(uint32(x), uint32(y), i), ordNum(uint64(x), uint64(y), i),
			ordNum(uintptr(x), uintptr(y), i), ordTry(func() string { return ordBits(OConcat(int16(x), int16(y))) }))
	}
	return strings.Join(out, "\n")
}

// OrderedFloats runs the generic functions at float32, float64 and a
// named float32, on quotients (NaN, ±Inf, -0 at the edge rows) and on
// floats made of random bits.
func OrderedFloats(a, b int64) string {
	var out []string
	for k := range uint64(4) {
		r := ordMix(k)
		x, y := float64(a)/float64(b), float64(b)/3
		switch k {
		case 1:
			x, y = math.Float64frombits(uint64(a)^r), float64(a)*0.5
		case 2:
			x, y = float64(a)/float64(b-b), -x
		case 3:
			x, y = float64(b)-float64(a), math.Float64frombits(uint64(b)^r>>12)
		}
		i := int(a)
		out = append(out, ordNum(x, y, i), ordNum(float32(x), float32(y), i), ordNum(temp(x), temp(y), i),
			ordNum(float32(x), float32(x), i), ordNum(x, x, i))
	}
	return strings.Join(out, "\n")
}

// OrderedStrings runs the generic functions at strings and a named
// string.
func OrderedStrings(s, bs string, a int64) string {
	var out []string
	pairs := [][2]string{{s, bs}, {s, s}, {bs + s, s}, {"", s}}
	for _, p := range pairs {
		x, y := p[0], p[1]
		out = append(out, ordTry(func() string {
			a1, a2, a3, a4, a5, a6, a7 := OCompare(x, y)
			m1, m2, m3, m4 := OMem(label(x), label(y), int(a))
			c1, c2 := OConcat(x, y)
			return ordBits(OMax(x, y), OMin(label(x), label(y)), OClamp(x, "b", "x"), a1, a2, a3, a4, a5, a6, a7, m1, m2, m3, m4, c1, c2)
		}))
	}
	return strings.Join(out, "\n")
}
