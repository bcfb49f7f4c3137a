package sym

import (
	"fmt"
	"math"
	"testing"
)

// The expected values in this file are computed by compiled Go arithmetic
// on typed, non-constant operands, so that they carry Go's run-time
// semantics (wraparound, truncated division, shift rules) rather than the
// exact arithmetic of constant expressions.

// integer is the set of Go integer types a bit-vector can stand for.
type integer interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64
}

type signedInt interface{ int8 | int16 | int32 | int64 }

type unsignedInt interface {
	uint8 | uint16 | uint32 | uint64
}

// widthOf returns the size of T in bits.
func widthOf[T integer]() uint8 {
	var z T
	switch any(z).(type) {
	case int8, uint8:
		return 8
	case int16, uint16:
		return 16
	case int32, uint32:
		return 32
	}
	return 64
}

// isSigned reports whether T is a signed type.
func isSigned[T integer]() bool {
	var z T
	return z-1 < 0
}

// bits returns the two's-complement bits of v, as an Env or Eval holds them.
func bits[T integer](v T) uint64 { return uint64(v) & Mask(widthOf[T]()) }

// The identity functions keep their operands out of constant expressions.
func i8(v int8) int8      { return v }
func i16(v int16) int16   { return v }
func i32(v int32) int32   { return v }
func i64(v int64) int64   { return v }
func u8(v uint8) uint8    { return v }
func u16(v uint16) uint16 { return v }
func u32(v uint32) uint32 { return v }
func u64(v uint64) uint64 { return v }

// boolBits returns the value Eval gives a boolean.
func boolBits(c bool) uint64 {
	if c {
		return 1
	}
	return 0
}

// minOf and maxOf return the least and greatest values of T.
func minOf[T integer]() T {
	if isSigned[T]() {
		return T(1) << (widthOf[T]() - 1)
	}
	return 0
}

func maxOf[T integer]() T { return ^minOf[T]() }

// edgeValues returns values of T around the interesting boundaries.
func edgeValues[T integer]() []T {
	lo, hi := minOf[T](), maxOf[T]()
	vs := []T{0, 1, 2, 3, 7, lo, lo + 1, lo + 2, hi, hi - 1, hi - 2, hi / 2, hi/2 + 1}
	var pattern T
	for i := uint8(0); i < widthOf[T](); i += 2 {
		pattern |= 1 << i // 0x55...
	}
	vs = append(vs, pattern, ^pattern)
	if isSigned[T]() {
		one := T(1)
		vs = append(vs, -one, -(2 * one), -(3 * one), -(7 * one))
	}
	return vs
}

func TestTestHelpers(t *testing.T) {
	tests := []struct {
		name      string
		got, want any
	}{
		{"widthOf[int8]", widthOf[int8](), uint8(8)},
		{"widthOf[uint16]", widthOf[uint16](), uint8(16)},
		{"widthOf[int32]", widthOf[int32](), uint8(32)},
		{"widthOf[uint64]", widthOf[uint64](), uint8(64)},
		{"isSigned[int16]", isSigned[int16](), true},
		{"isSigned[uint32]", isSigned[uint32](), false},
		{"minOf[int8]", minOf[int8](), int8(math.MinInt8)},
		{"maxOf[int8]", maxOf[int8](), int8(math.MaxInt8)},
		{"minOf[int64]", minOf[int64](), int64(math.MinInt64)},
		{"maxOf[uint16]", maxOf[uint16](), uint16(math.MaxUint16)},
		{"minOf[uint32]", minOf[uint32](), uint32(0)},
		{"bits(int8(-1))", bits(int8(-1)), uint64(0xff)},
		{"bits(int32(-2))", bits(int32(-2)), uint64(0xfffffffe)},
		{"bits(int64(-1))", bits(int64(-1)), uint64(math.MaxUint64)},
		{"len(edgeValues[int8])", len(edgeValues[int8]()), 19},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

// opCase is a binary operation on x (width w) and y (width yw).
type opCase struct {
	name    string
	k       Kind
	w, yw   uint8
	x, y    uint64
	want    uint64
	wantErr bool
}

func op[T, A integer](name string, k Kind, x T, y A, want T) opCase {
	return opCase{name: name, k: k, w: widthOf[T](), yw: widthOf[A](), x: bits(x), y: bits(y), want: bits(want)}
}

// binForms returns k applied to x and y in every form the Builder
// distinguishes: both variables (no folding), both constants (folding) and
// the two mixed forms (simplification against a constant).
func binForms(b *Builder, mk func(x, y *Expr) *Expr, w, yw uint8, x, y uint64) (Env, map[string]*Expr) {
	vx, vy := b.Var(0, w), b.Var(1, yw)
	cx, cy := b.Const(x, w), b.Const(y, yw)
	return Env{0: x, 1: y}, map[string]*Expr{
		"var,var":     mk(vx, vy),
		"const,const": mk(cx, cy),
		"var,const":   mk(vx, cy),
		"const,var":   mk(cx, vy),
	}
}

func checkBin(t *testing.T, b *Builder, name string, mk func(x, y *Expr) *Expr, w, yw uint8, x, y, want uint64) {
	t.Helper()
	env, forms := binForms(b, mk, w, yw, x, y)
	for form, e := range forms {
		if got := Eval(e, env); got != want {
			t.Errorf("%s [%s] x=%#x y=%#x: %v evaluates to %#x, want %#x", name, form, x, y, e, got, want)
		}
		if form == "const,const" && !e.IsConst() {
			t.Errorf("%s: constant operands did not fold: %v", name, e)
		}
	}
}

func TestEvalBinary(t *testing.T) {
	const (
		min8  = math.MinInt8
		min16 = math.MinInt16
		min32 = math.MinInt32
		min64 = math.MinInt64
	)
	tests := []opCase{
		// Wraparound.
		op("add8 unsigned wrap", KAdd, u8(200), u8(100), u8(200)+u8(100)),
		op("add8 signed wrap", KAdd, i8(127), i8(1), i8(127)+i8(1)),
		op("add16 wrap", KAdd, u16(0xffff), u16(2), u16(0xffff)+u16(2)),
		op("add32 wrap", KAdd, i32(math.MaxInt32), i32(math.MaxInt32), i32(math.MaxInt32)+i32(math.MaxInt32)),
		op("add64 wrap", KAdd, u64(math.MaxUint64), u64(math.MaxUint64), u64(math.MaxUint64)+u64(math.MaxUint64)),
		op("sub8 below zero", KSub, u8(0), u8(1), u8(0)-u8(1)),
		op("sub16 signed wrap", KSub, i16(min16), i16(1), i16(min16)-i16(1)),
		op("sub32", KSub, i32(-5), i32(7), i32(-5)-i32(7)),
		op("sub64 wrap", KSub, i64(min64), i64(1), i64(min64)-i64(1)),
		op("mul8 wrap", KMul, u8(16), u8(17), u8(16)*u8(17)),
		op("mul8 signed", KMul, i8(-3), i8(43), i8(-3)*i8(43)),
		op("mul16", KMul, u16(0x1234), u16(0x5678), u16(0x1234)*u16(0x5678)),
		op("mul32 wrap", KMul, u32(0x10001), u32(0x10001), u32(0x10001)*u32(0x10001)),
		op("mul64 min*-1", KMul, i64(min64), i64(-1), i64(min64)*i64(-1)),
		op("mul64 wrap", KMul, u64(0xdeadbeefcafe), u64(0x123456789), u64(0xdeadbeefcafe)*u64(0x123456789)),

		// Unsigned division and remainder, including operands with the
		// top bit set.
		op("udiv8", KUDiv, u8(255), u8(2), u8(255)/u8(2)),
		op("udiv8 top bits", KUDiv, u8(0x80), u8(0xff), u8(0x80)/u8(0xff)),
		op("udiv8 by 1", KUDiv, u8(0xab), u8(1), u8(0xab)/u8(1)),
		op("udiv16", KUDiv, u16(0xfff0), u16(0x10), u16(0xfff0)/u16(0x10)),
		op("udiv32", KUDiv, u32(0xffffffff), u32(3), u32(0xffffffff)/u32(3)),
		op("udiv64", KUDiv, u64(math.MaxUint64), u64(10), u64(math.MaxUint64)/u64(10)),
		op("udiv64 top bit divisor", KUDiv, u64(math.MaxUint64), u64(1<<63), u64(math.MaxUint64)/u64(1<<63)),
		op("urem8", KURem, u8(255), u8(7), u8(255)%u8(7)),
		op("urem16", KURem, u16(0x8001), u16(0x100), u16(0x8001)%u16(0x100)),
		op("urem32", KURem, u32(0xfffffffe), u32(0xffffffff), u32(0xfffffffe)%u32(0xffffffff)),
		op("urem64", KURem, u64(1<<63+5), u64(1<<62), u64(1<<63+5)%u64(1<<62)),

		// Signed division truncates toward zero; MinInt / -1 wraps.
		op("sdiv8 neg/pos", KSDiv, i8(-7), i8(2), i8(-7)/i8(2)),
		op("sdiv8 pos/neg", KSDiv, i8(7), i8(-2), i8(7)/i8(-2)),
		op("sdiv8 neg/neg", KSDiv, i8(-7), i8(-2), i8(-7)/i8(-2)),
		op("sdiv8 min/-1", KSDiv, i8(min8), i8(-1), i8(min8)/i8(-1)),
		op("sdiv8 min/1", KSDiv, i8(min8), i8(1), i8(min8)/i8(1)),
		op("sdiv8 min/2", KSDiv, i8(min8), i8(2), i8(min8)/i8(2)),
		op("sdiv8 -1/min", KSDiv, i8(-1), i8(min8), i8(-1)/i8(min8)),
		op("sdiv16 min/-1", KSDiv, i16(min16), i16(-1), i16(min16)/i16(-1)),
		op("sdiv16", KSDiv, i16(-30000), i16(7), i16(-30000)/i16(7)),
		op("sdiv32 min/-1", KSDiv, i32(min32), i32(-1), i32(min32)/i32(-1)),
		op("sdiv32", KSDiv, i32(math.MaxInt32), i32(-3), i32(math.MaxInt32)/i32(-3)),
		op("sdiv64 min/-1", KSDiv, i64(min64), i64(-1), i64(min64)/i64(-1)),
		op("sdiv64", KSDiv, i64(min64), i64(3), i64(min64)/i64(3)),

		// Signed remainder takes the sign of the dividend; MinInt % -1 == 0.
		op("srem8 neg/pos", KSRem, i8(-7), i8(2), i8(-7)%i8(2)),
		op("srem8 pos/neg", KSRem, i8(7), i8(-2), i8(7)%i8(-2)),
		op("srem8 neg/neg", KSRem, i8(-7), i8(-2), i8(-7)%i8(-2)),
		op("srem8 min/-1", KSRem, i8(min8), i8(-1), i8(min8)%i8(-1)),
		op("srem8 min/3", KSRem, i8(min8), i8(3), i8(min8)%i8(3)),
		op("srem16 min/-1", KSRem, i16(min16), i16(-1), i16(min16)%i16(-1)),
		op("srem16", KSRem, i16(min16), i16(7), i16(min16)%i16(7)),
		op("srem32 min/-1", KSRem, i32(min32), i32(-1), i32(min32)%i32(-1)),
		op("srem32", KSRem, i32(-1000000007), i32(-10), i32(-1000000007)%i32(-10)),
		op("srem64 min/-1", KSRem, i64(min64), i64(-1), i64(min64)%i64(-1)),
		op("srem64", KSRem, i64(-9), i64(min64), i64(-9)%i64(min64)),

		// Bitwise operations.
		op("and8", KAnd, u8(0xf0), u8(0x3c), u8(0xf0)&u8(0x3c)),
		op("or16", KOr, u16(0xf000), u16(0x00ff), u16(0xf000)|u16(0x00ff)),
		op("xor32", KXor, u32(0xffff0000), u32(0x0ff00ff0), u32(0xffff0000)^u32(0x0ff00ff0)),
		op("and64 signed", KAnd, i64(-2), i64(math.MaxInt64), i64(-2)&i64(math.MaxInt64)),

		// Shifts by 0, 1, width-1, width, more than width and the
		// largest amount.
		op("shl8 by 0", KShl, u8(0x81), u8(0), u8(0x81)<<u8(0)),
		op("shl8 by 1", KShl, u8(0x81), u8(1), u8(0x81)<<u8(1)),
		op("shl8 by 7", KShl, u8(0x81), u8(7), u8(0x81)<<u8(7)),
		op("shl8 by 8", KShl, u8(0x81), u8(8), u8(0x81)<<u8(8)),
		op("shl8 by 9", KShl, u8(0x81), u8(9), u8(0x81)<<u8(9)),
		op("shl8 by 255", KShl, u8(0xff), u8(255), u8(0xff)<<u8(255)),
		op("shl8 signed", KShl, i8(-1), u8(7), i8(-1)<<u8(7)),
		op("shl16 by 15", KShl, u16(3), u16(15), u16(3)<<u16(15)),
		op("shl16 by 16", KShl, u16(3), u16(16), u16(3)<<u16(16)),
		op("shl32 by 31", KShl, u32(3), u32(31), u32(3)<<u32(31)),
		op("shl32 by 32", KShl, u32(3), u32(32), u32(3)<<u32(32)),
		op("shl64 by 63", KShl, u64(3), u64(63), u64(3)<<u64(63)),
		op("shl64 by 64", KShl, u64(3), u64(64), u64(3)<<u64(64)),
		op("shl64 by max", KShl, u64(3), u64(math.MaxUint64), u64(3)<<u64(math.MaxUint64)),
		op("lshr8 by 0", KLShr, u8(0x80), u8(0), u8(0x80)>>u8(0)),
		op("lshr8 by 7", KLShr, u8(0x80), u8(7), u8(0x80)>>u8(7)),
		op("lshr8 by 8", KLShr, u8(0x80), u8(8), u8(0x80)>>u8(8)),
		op("lshr8 by 200", KLShr, u8(0x80), u8(200), u8(0x80)>>u8(200)),
		op("lshr16 by 15", KLShr, u16(0x8000), u16(15), u16(0x8000)>>u16(15)),
		op("lshr32 by 32", KLShr, u32(0x80000000), u32(32), u32(0x80000000)>>u32(32)),
		op("lshr64 by 63", KLShr, u64(1<<63), u64(63), u64(1<<63)>>u64(63)),
		op("lshr64 by 64", KLShr, u64(1<<63), u64(64), u64(1<<63)>>u64(64)),
		op("ashr8 neg by 0", KAShr, i8(min8), u8(0), i8(min8)>>u8(0)),
		op("ashr8 neg by 1", KAShr, i8(-127), u8(1), i8(-127)>>u8(1)),
		op("ashr8 neg by 7", KAShr, i8(min8), u8(7), i8(min8)>>u8(7)),
		op("ashr8 neg by 8", KAShr, i8(min8), u8(8), i8(min8)>>u8(8)),
		op("ashr8 neg by 255", KAShr, i8(-2), u8(255), i8(-2)>>u8(255)),
		op("ashr8 pos by 8", KAShr, i8(64), u8(8), i8(64)>>u8(8)),
		op("ashr8 pos by 6", KAShr, i8(127), u8(6), i8(127)>>u8(6)),
		op("ashr16 neg by 3", KAShr, i16(-1000), u16(3), i16(-1000)>>u16(3)),
		op("ashr16 neg by 16", KAShr, i16(-1000), u16(16), i16(-1000)>>u16(16)),
		op("ashr32 neg by 31", KAShr, i32(min32), u32(31), i32(min32)>>u32(31)),
		op("ashr32 neg by 40", KAShr, i32(-5), u32(40), i32(-5)>>u32(40)),
		op("ashr64 neg by 63", KAShr, i64(min64), u64(63), i64(min64)>>u64(63)),
		op("ashr64 neg by 64", KAShr, i64(min64), u64(64), i64(min64)>>u64(64)),
		op("ashr64 neg by 2^63", KAShr, i64(-3), u64(1<<63), i64(-3)>>u64(1<<63)),
		op("ashr64 pos by 62", KAShr, i64(math.MaxInt64), u64(62), i64(math.MaxInt64)>>u64(62)),
	}
	b := NewBuilder()
	for _, tt := range tests {
		if tt.w != tt.yw {
			t.Fatalf("%s: table error: widths %d and %d", tt.name, tt.w, tt.yw)
		}
		mk := func(x, y *Expr) *Expr { return b.Bin(tt.k, x, y) }
		checkBin(t, b, tt.name, mk, tt.w, tt.yw, tt.x, tt.y, tt.want)
	}
}

// TestEvalDivideByZero checks SMT-LIB's total definition of division:
// x/u 0 is all ones, x%u 0 is x, x/s 0 is -1 for x >= 0 and 1 for x < 0,
// x%s 0 is x.
func TestEvalDivideByZero(t *testing.T) {
	b := NewBuilder()
	for _, w := range []uint8{8, 16, 32, 64} {
		for _, x := range []uint64{0, 1, 5, Mask(w) >> 1, Mask(w)>>1 + 1, Mask(w)} {
			neg := SignExtend(x, w) < 0
			sdiv := Mask(w) // -1
			if neg {
				sdiv = 1
			}
			tests := []struct {
				k    Kind
				want uint64
			}{
				{KUDiv, Mask(w)},
				{KURem, x},
				{KSDiv, sdiv},
				{KSRem, x},
			}
			for _, tt := range tests {
				name := fmt.Sprintf("%d-bit %#x %s 0", w, x, tt.k)
				mk := func(x, y *Expr) *Expr { return b.Bin(tt.k, x, y) }
				checkBin(t, b, name, mk, w, w, x, 0, tt.want)
			}
		}
	}
}

// goBin applies k to x and y with the Go operator of type T. The caller
// picks T's signedness to suit k.
func goBin[T integer](k Kind, x, y T) T {
	switch k {
	case KAdd:
		return x + y
	case KSub:
		return x - y
	case KMul:
		return x * y
	case KUDiv, KSDiv:
		return x / y
	case KURem, KSRem:
		return x % y
	case KAnd:
		return x & y
	case KOr:
		return x | y
	case KXor:
		return x ^ y
	case KShl:
		return x << bits(y) // the amount is unsigned
	case KLShr, KAShr:
		return x >> bits(y)
	}
	panic("goBin of " + k.String())
}

// testBinaryAgainstGo compares every binary kind on all pairs of edge
// values of one width with the Go operators of the signed type S and the
// unsigned type U of that width.
func testBinaryAgainstGo[S signedInt, U unsignedInt](t *testing.T) {
	w := widthOf[S]()
	b := NewBuilder()
	vals := edgeValues[S]()
	for _, x := range vals {
		for _, y := range vals {
			for k := KAdd; k <= KAShr; k++ {
				if y == 0 && (k == KUDiv || k == KSDiv || k == KURem || k == KSRem) {
					continue // Go panics; see TestEvalDivideByZero
				}
				var wants []uint64
				switch k {
				case KSDiv, KSRem, KAShr:
					wants = []uint64{bits(goBin(k, x, y))}
				case KUDiv, KURem, KLShr:
					wants = []uint64{bits(goBin(k, U(x), U(y)))}
				default: // the same bits either way
					wants = []uint64{bits(goBin(k, x, y)), bits(goBin(k, U(x), U(y)))}
				}
				for _, want := range wants {
					name := fmt.Sprintf("%d-bit %s", w, k)
					mk := func(x, y *Expr) *Expr { return b.Bin(k, x, y) }
					checkBin(t, b, name, mk, w, w, bits(x), bits(y), want)
				}
			}
		}
	}
}

func TestEvalBinaryAgainstGo(t *testing.T) {
	t.Run("8", testBinaryAgainstGo[int8, uint8])
	t.Run("16", testBinaryAgainstGo[int16, uint16])
	t.Run("32", testBinaryAgainstGo[int32, uint32])
	t.Run("64", testBinaryAgainstGo[int64, uint64])
}

// testShift checks Builder.Shift with an amount of type A on a value of
// the signed type S and the unsigned type U of one width.
func testShift[S signedInt, U unsignedInt, A unsignedInt](t *testing.T) {
	w, aw := widthOf[S](), widthOf[A]()
	var amounts []A
	for _, n := range []uint64{0, 1, 2, uint64(w) - 1, uint64(w), uint64(w) + 1, 2 * uint64(w), 255, 256, 256 + uint64(w) - 1, 1 << 16, 1<<16 + 3, 1 << 32, 1<<32 + 1} {
		amounts = append(amounts, A(n)) // A(n) wraps wide amounts, as a Go conversion does
	}
	amounts = append(amounts, maxOf[A](), maxOf[A]()-1, A(1)<<(aw-1))
	b := NewBuilder()
	for _, x := range edgeValues[S]() {
		for _, a := range amounts {
			tests := []struct {
				k    Kind
				want uint64
			}{
				{KShl, bits(U(x) << a)},
				{KShl, bits(x << a)},
				{KLShr, bits(U(x) >> a)},
				{KAShr, bits(x >> a)},
			}
			for _, tt := range tests {
				name := fmt.Sprintf("%d-bit %s by %d-bit %d", w, tt.k, aw, a)
				mk := func(x, y *Expr) *Expr { return b.Shift(tt.k, x, y) }
				checkBin(t, b, name, mk, w, aw, bits(x), bits(a), tt.want)
			}
		}
	}
}

func TestEvalShiftAnyAmountWidth(t *testing.T) {
	tests := []struct {
		name string
		f    func(*testing.T)
	}{
		{"8 by 8", testShift[int8, uint8, uint8]},
		{"8 by 16", testShift[int8, uint8, uint16]},
		{"8 by 32", testShift[int8, uint8, uint32]},
		{"8 by 64", testShift[int8, uint8, uint64]},
		{"16 by 8", testShift[int16, uint16, uint8]},
		{"16 by 16", testShift[int16, uint16, uint16]},
		{"16 by 32", testShift[int16, uint16, uint32]},
		{"16 by 64", testShift[int16, uint16, uint64]},
		{"32 by 8", testShift[int32, uint32, uint8]},
		{"32 by 16", testShift[int32, uint32, uint16]},
		{"32 by 32", testShift[int32, uint32, uint32]},
		{"32 by 64", testShift[int32, uint32, uint64]},
		{"64 by 8", testShift[int64, uint64, uint8]},
		{"64 by 16", testShift[int64, uint64, uint16]},
		{"64 by 32", testShift[int64, uint64, uint32]},
		{"64 by 64", testShift[int64, uint64, uint64]},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.f)
	}
}

func TestEvalShiftWideAmountExamples(t *testing.T) {
	tests := []opCase{
		op("8-bit shl by 64-bit 8", KShl, u8(1), u64(8), u8(1)<<u64(8)),
		op("8-bit shl by 64-bit 256", KShl, u8(1), u64(256), u8(1)<<u64(256)),
		op("8-bit shl by 64-bit 257", KShl, u8(1), u64(257), u8(1)<<u64(257)),
		op("8-bit shl by 64-bit 2^63", KShl, u8(1), u64(1<<63), u8(1)<<u64(1<<63)),
		op("8-bit lshr by 16-bit 0x107", KLShr, u8(0x80), u16(0x107), u8(0x80)>>u16(0x107)),
		op("8-bit ashr by 64-bit 2^32+1", KAShr, i8(-128), u64(1<<32+1), i8(-128)>>u64(1<<32+1)),
		op("8-bit ashr by 32-bit 7", KAShr, i8(-128), u32(7), i8(-128)>>u32(7)),
		op("16-bit ashr by 8-bit 255", KAShr, i16(-2), u8(255), i16(-2)>>u8(255)),
		op("32-bit shl by 64-bit 32", KShl, u32(1), u64(32), u32(1)<<u64(32)),
		op("32-bit shl by 8-bit 31", KShl, u32(1), u8(31), u32(1)<<u8(31)),
		op("64-bit lshr by 8-bit 63", KLShr, u64(1<<63), u8(63), u64(1<<63)>>u8(63)),
	}
	b := NewBuilder()
	for _, tt := range tests {
		mk := func(x, y *Expr) *Expr { return b.Shift(tt.k, x, y) }
		checkBin(t, b, tt.name, mk, tt.w, tt.yw, tt.x, tt.y, tt.want)
	}
}

// testUnary checks negation and complement against Go on one width.
func testUnary[S signedInt, U unsignedInt](t *testing.T) {
	w := widthOf[S]()
	b := NewBuilder()
	v := b.Var(0, w)
	for _, x := range edgeValues[S]() {
		tests := []struct {
			name string
			mk   func(*Expr) *Expr
			want []uint64
		}{
			{"neg", b.Neg, []uint64{bits(-x), bits(-U(x))}},
			{"cpl", b.Cpl, []uint64{bits(^x), bits(^U(x))}},
		}
		for _, tt := range tests {
			for _, want := range tt.want {
				env := Env{0: bits(x)}
				if got := Eval(tt.mk(v), env); got != want {
					t.Errorf("%d-bit %s %#x = %#x, want %#x", w, tt.name, bits(x), got, want)
				}
				c := tt.mk(b.Const(bits(x), w))
				if c.Kind != KConst || c.Val != want {
					t.Errorf("%d-bit %s of constant %#x folds to %v, want %#x", w, tt.name, bits(x), c, want)
				}
			}
		}
	}
}

func TestEvalUnary(t *testing.T) {
	t.Run("8", testUnary[int8, uint8])
	t.Run("16", testUnary[int16, uint16])
	t.Run("32", testUnary[int32, uint32])
	t.Run("64", testUnary[int64, uint64])
}

// testConvert checks Builder.Convert from F to every integer type against
// Go's conversions.
func testConvert[F integer](t *testing.T) {
	from, signed := widthOf[F](), isSigned[F]()
	b := NewBuilder()
	v := b.Var(0, from)
	for _, x := range edgeValues[F]() {
		tests := []struct {
			to   string
			w    uint8
			want uint64
		}{
			{"int8", 8, bits(int8(x))},
			{"uint8", 8, bits(uint8(x))},
			{"int16", 16, bits(int16(x))},
			{"uint16", 16, bits(uint16(x))},
			{"int32", 32, bits(int32(x))},
			{"uint32", 32, bits(uint32(x))},
			{"int64", 64, bits(int64(x))},
			{"uint64", 64, bits(uint64(x))},
		}
		for _, tt := range tests {
			e := b.Convert(v, tt.w, signed)
			if e.Width != tt.w {
				t.Errorf("%s(%T %d): width %d", tt.to, x, x, e.Width)
			}
			if got := Eval(e, Env{0: bits(x)}); got != tt.want {
				t.Errorf("%s(%T %d): %v = %#x, want %#x", tt.to, x, x, e, got, tt.want)
			}
			c := b.Convert(b.Const(bits(x), from), tt.w, signed)
			if c.Kind != KConst || c.Val != tt.want {
				t.Errorf("%s(%T %d) of a constant folds to %v, want %#x", tt.to, x, x, c, tt.want)
			}
		}
	}
}

func TestEvalConvert(t *testing.T) {
	t.Run("int8", testConvert[int8])
	t.Run("uint8", testConvert[uint8])
	t.Run("int16", testConvert[int16])
	t.Run("uint16", testConvert[uint16])
	t.Run("int32", testConvert[int32])
	t.Run("uint32", testConvert[uint32])
	t.Run("int64", testConvert[int64])
	t.Run("uint64", testConvert[uint64])
}

func TestEvalResize(t *testing.T) {
	tests := []struct {
		name     string
		k        Kind
		from, to uint8
		x, want  uint64
	}{
		{"zext8to16", KZExt, 8, 16, bits(i8(-1)), bits(uint16(u8(0xff)))},
		{"zext8to64", KZExt, 8, 64, bits(i8(-128)), bits(uint64(u8(0x80)))},
		{"zext32to64", KZExt, 32, 64, bits(i32(-2)), bits(uint64(uint32(i32(-2))))},
		{"sext8to16", KSExt, 8, 16, bits(i8(-1)), bits(int16(i8(-1)))},
		{"sext8to32 positive", KSExt, 8, 32, bits(i8(127)), bits(int32(i8(127)))},
		{"sext16to64", KSExt, 16, 64, bits(i16(math.MinInt16)), bits(int64(i16(math.MinInt16)))},
		{"sext32to64", KSExt, 32, 64, bits(i32(-7)), bits(int64(i32(-7)))},
		{"trunc16to8", KTrunc, 16, 8, bits(u16(0x1ff)), bits(uint8(u16(0x1ff)))},
		{"trunc64to8 negative", KTrunc, 64, 8, bits(i64(-129)), bits(int8(i64(-129)))},
		{"trunc64to32", KTrunc, 64, 32, bits(u64(0x123456789abcdef0)), bits(uint32(u64(0x123456789abcdef0)))},
		{"trunc32to16 sign", KTrunc, 32, 16, bits(i32(0x18000)), bits(int16(i32(0x18000)))},
	}
	b := NewBuilder()
	for _, tt := range tests {
		mk := map[Kind]func(*Expr, uint8) *Expr{KZExt: b.ZExt, KSExt: b.SExt, KTrunc: b.Trunc}[tt.k]
		e := mk(b.Var(0, tt.from), tt.to)
		if e.Kind != tt.k || e.Width != tt.to {
			t.Errorf("%s: built %v", tt.name, e)
		}
		if got := Eval(e, Env{0: tt.x}); got != tt.want {
			t.Errorf("%s: %v with %#x = %#x, want %#x", tt.name, e, tt.x, got, tt.want)
		}
		if c := mk(b.Const(tt.x, tt.from), tt.to); c.Kind != KConst || c.Val != tt.want {
			t.Errorf("%s: constant folds to %v, want %#x", tt.name, c, tt.want)
		}
	}
}

// testCompare checks the comparisons against Go's signed and unsigned
// operators on one width, including operands with the top bit set.
func testCompare[S signedInt, U unsignedInt](t *testing.T) {
	w := widthOf[S]()
	b := NewBuilder()
	vals := edgeValues[S]()
	for _, x := range vals {
		for _, y := range vals {
			tests := []struct {
				name string
				mk   func(x, y *Expr) *Expr
				want bool
			}{
				{"==", b.Eq, x == y},
				{"== unsigned", b.Eq, U(x) == U(y)},
				{"<u", func(x, y *Expr) *Expr { return b.Cmp(KULt, x, y) }, U(x) < U(y)},
				{"<=u", func(x, y *Expr) *Expr { return b.Cmp(KULe, x, y) }, U(x) <= U(y)},
				{">u", func(x, y *Expr) *Expr { return b.Cmp(KULt, y, x) }, U(x) > U(y)},
				{">=u", func(x, y *Expr) *Expr { return b.Cmp(KULe, y, x) }, U(x) >= U(y)},
				{"<s", func(x, y *Expr) *Expr { return b.Cmp(KSLt, x, y) }, x < y},
				{"<=s", func(x, y *Expr) *Expr { return b.Cmp(KSLe, x, y) }, x <= y},
				{">s", func(x, y *Expr) *Expr { return b.Cmp(KSLt, y, x) }, x > y},
				{">=s", func(x, y *Expr) *Expr { return b.Cmp(KSLe, y, x) }, x >= y},
				{"!=", func(x, y *Expr) *Expr { return b.Not(b.Eq(x, y)) }, x != y},
			}
			for _, tt := range tests {
				name := fmt.Sprintf("%d-bit %d %s %d", w, x, tt.name, y)
				checkBin(t, b, name, tt.mk, w, w, bits(x), bits(y), boolBits(tt.want))
			}
		}
	}
}

func TestEvalCompare(t *testing.T) {
	t.Run("8", testCompare[int8, uint8])
	t.Run("16", testCompare[int16, uint16])
	t.Run("32", testCompare[int32, uint32])
	t.Run("64", testCompare[int64, uint64])
}

func TestEvalCompareTopBit(t *testing.T) {
	tests := []struct {
		name string
		k    Kind
		w    uint8
		x, y uint64
		want bool
	}{
		{"8: -1 <s 1", KSLt, 8, bits(i8(-1)), 1, i8(-1) < i8(1)},
		{"8: 0xff <u 1", KULt, 8, 0xff, 1, u8(0xff) < u8(1)},
		{"8: min <s max", KSLt, 8, 0x80, 0x7f, i8(math.MinInt8) < i8(math.MaxInt8)},
		{"8: 0x80 <u 0x7f", KULt, 8, 0x80, 0x7f, u8(0x80) < u8(0x7f)},
		{"16: -1 <=s 0", KSLe, 16, bits(i16(-1)), 0, i16(-1) <= i16(0)},
		{"16: 0xffff <=u 0", KULe, 16, 0xffff, 0, u16(0xffff) <= u16(0)},
		{"32: min <s -1", KSLt, 32, bits(i32(math.MinInt32)), bits(i32(-1)), i32(math.MinInt32) < i32(-1)},
		{"32: 0x80000000 <u 0xffffffff", KULt, 32, 0x80000000, 0xffffffff, u32(0x80000000) < u32(0xffffffff)},
		{"64: min <s 0", KSLt, 64, 1 << 63, 0, i64(math.MinInt64) < i64(0)},
		{"64: 2^63 <u 0", KULt, 64, 1 << 63, 0, u64(1<<63) < u64(0)},
		{"64: 0 <=s min", KSLe, 64, 0, 1 << 63, i64(0) <= i64(math.MinInt64)},
		{"64: 0 <=u 2^63", KULe, 64, 0, 1 << 63, u64(0) <= u64(1<<63)},
	}
	b := NewBuilder()
	for _, tt := range tests {
		mk := func(x, y *Expr) *Expr { return b.Cmp(tt.k, x, y) }
		checkBin(t, b, tt.name, mk, tt.w, tt.w, tt.x, tt.y, boolBits(tt.want))
	}
}

func TestEvalBoolean(t *testing.T) {
	b := NewBuilder()
	p, q := b.Var(0, 0), b.Var(1, 0)
	for _, pv := range []bool{false, true} {
		for _, qv := range []bool{false, true} {
			env := Env{0: boolBits(pv), 1: boolBits(qv)}
			tests := []struct {
				name string
				e    *Expr
				want bool
			}{
				{"p", p, pv},
				{"!p", b.Not(p), !pv},
				{"p && q", b.And(p, q), pv && qv},
				{"p || q", b.Or(p, q), pv || qv},
				{"p == q", b.Eq(p, q), pv == qv},
				{"!(p == q)", b.Not(b.Eq(p, q)), pv != qv},
				{"p && !q", b.And(p, b.Not(q)), pv && !qv},
				{"!p || q", b.Or(b.Not(p), q), !pv || qv},
				{"p == true", b.Eq(p, b.Bool(true)), pv == true},
				{"false == q", b.Eq(b.Bool(false), q), false == qv},
				{"ite(p, q, !q)", b.Ite(p, q, b.Not(q)), pv == qv},
				{"ite(p, true, false)", b.Ite(p, b.Bool(true), b.Bool(false)), pv},
			}
			for _, tt := range tests {
				if got := Holds(tt.e, env); got != tt.want {
					t.Errorf("p=%v q=%v: %s (%v) = %v, want %v", pv, qv, tt.name, tt.e, got, tt.want)
				}
			}
		}
	}
}

func TestEvalIte(t *testing.T) {
	b := NewBuilder()
	for _, w := range []uint8{8, 16, 32, 64} {
		c := b.Cmp(KSLt, b.Var(0, w), b.Const(0, w))
		e := b.Ite(c, b.Neg(b.Var(0, w)), b.Var(0, w)) // |v0|
		for _, x := range []uint64{0, 1, Mask(w), Mask(w) >> 1, Mask(w)>>1 + 1} {
			want := x
			if SignExtend(x, w) < 0 {
				want = -x & Mask(w)
			}
			if got := Eval(e, Env{0: x}); got != want {
				t.Errorf("%d-bit %v with %#x = %#x, want %#x", w, e, x, got, want)
			}
		}
	}
}

func TestEvalVariables(t *testing.T) {
	b := NewBuilder()
	tests := []struct {
		name string
		e    *Expr
		env  Env
		want uint64
	}{
		{"8-bit var masks its value", b.Var(0, 8), Env{0: 0x1ff}, 0xff},
		{"16-bit var masks its value", b.Var(0, 16), Env{0: 0x12345}, 0x2345},
		{"32-bit var masks its value", b.Var(0, 32), Env{0: 1<<32 | 7}, 7},
		{"64-bit var", b.Var(0, 64), Env{0: math.MaxUint64}, math.MaxUint64},
		{"missing var is 0", b.Var(3, 32), Env{0: 9}, 0},
		{"missing bool is false", b.Var(3, 0), Env{}, 0},
		{"bool var", b.Var(1, 0), Env{1: 1}, 1},
		{"masked before use", b.Add(b.Var(0, 8), b.Var(1, 8)), Env{0: 0x1ff, 1: 0x101}, 0},
	}
	for _, tt := range tests {
		if got := Eval(tt.e, tt.env); got != tt.want {
			t.Errorf("%s: %v = %#x, want %#x", tt.name, tt.e, got, tt.want)
		}
	}
}

func TestVars(t *testing.T) {
	b := NewBuilder()
	x, y, z := b.Var(0, 8), b.Var(1, 8), b.Var(2, 16)
	e1 := b.Add(b.Bin(KMul, y, x), y)
	e2 := b.Eq(b.ZExt(x, 16), z)
	got := Vars(nil, e1, e2)
	want := []*Expr{y, x, z}
	if len(got) != len(want) {
		t.Fatalf("Vars = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Vars[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}
