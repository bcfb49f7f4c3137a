// This file models math/bits. The math/bits models are exact.

package rt

import (
	"math/bits"

	"github.com/gocolic/gocolic/sym"
)

// onesCount is the number of set bits of x, as an int.
func onesCount(x *sym.Expr) *sym.Expr {
	b := st.b
	r := b.Const(0, intSize)
	for i := 0; i < int(x.Width); i++ {
		bit := b.Bin(sym.KAnd, b.Shift(sym.KLShr, x, b.Const(uint64(i), x.Width)), b.Const(1, x.Width))
		r = b.Add(r, b.ZExt(bit, intSize))
	}
	return r
}

// bitLen is the number of bits needed to represent x, as an int.
func bitLen(x *sym.Expr) *sym.Expr {
	b := st.b
	r := b.Const(0, intSize)
	for i := 0; i < int(x.Width); i++ {
		r = b.Ite(ule(b.Const(uint64(1)<<i, x.Width), x), b.Const(uint64(i+1), intSize), r)
	}
	return r
}

// trailingZeros is the number of zero bits below the lowest set bit.
func trailingZeros(x *sym.Expr) *sym.Expr {
	b := st.b
	r := b.Const(uint64(x.Width), intSize)
	for i := int(x.Width) - 1; i >= 0; i-- {
		set := b.Not(b.Eq(b.Bin(sym.KAnd, x, b.Const(uint64(1)<<i, x.Width)), b.Const(0, x.Width)))
		r = b.Ite(set, b.Const(uint64(i), intSize), r)
	}
	return r
}

func bitsInt[T unsigned](r int, x V[T], f func(*sym.Expr) *sym.Expr) (int, *sym.Expr) {
	if x.S == nil || !tracking() {
		return r, nil
	}
	return r, f(x.S)
}

// BitsOnesCount models bits.OnesCount.
func BitsOnesCount(x V[uint]) (int, *sym.Expr) { return bitsInt(bits.OnesCount(x.C), x, onesCount) }

// BitsOnesCount8 models bits.OnesCount8.
func BitsOnesCount8(x V[uint8]) (int, *sym.Expr) { return bitsInt(bits.OnesCount8(x.C), x, onesCount) }

// BitsOnesCount16 models bits.OnesCount16.
func BitsOnesCount16(x V[uint16]) (int, *sym.Expr) {
	return bitsInt(bits.OnesCount16(x.C), x, onesCount)
}

// BitsOnesCount32 models bits.OnesCount32.
func BitsOnesCount32(x V[uint32]) (int, *sym.Expr) {
	return bitsInt(bits.OnesCount32(x.C), x, onesCount)
}

// BitsOnesCount64 models bits.OnesCount64.
func BitsOnesCount64(x V[uint64]) (int, *sym.Expr) {
	return bitsInt(bits.OnesCount64(x.C), x, onesCount)
}

// BitsLen models bits.Len.
func BitsLen(x V[uint]) (int, *sym.Expr) { return bitsInt(bits.Len(x.C), x, bitLen) }

// BitsLen8 models bits.Len8.
func BitsLen8(x V[uint8]) (int, *sym.Expr) { return bitsInt(bits.Len8(x.C), x, bitLen) }

// BitsLen16 models bits.Len16.
func BitsLen16(x V[uint16]) (int, *sym.Expr) { return bitsInt(bits.Len16(x.C), x, bitLen) }

// BitsLen32 models bits.Len32.
func BitsLen32(x V[uint32]) (int, *sym.Expr) { return bitsInt(bits.Len32(x.C), x, bitLen) }

// BitsLen64 models bits.Len64.
func BitsLen64(x V[uint64]) (int, *sym.Expr) { return bitsInt(bits.Len64(x.C), x, bitLen) }

func leadingZeros(x *sym.Expr) *sym.Expr {
	return st.b.Sub(st.b.Const(uint64(x.Width), intSize), bitLen(x))
}

// BitsLeadingZeros models bits.LeadingZeros.
func BitsLeadingZeros(x V[uint]) (int, *sym.Expr) {
	return bitsInt(bits.LeadingZeros(x.C), x, leadingZeros)
}

// BitsLeadingZeros8 models bits.LeadingZeros8.
func BitsLeadingZeros8(x V[uint8]) (int, *sym.Expr) {
	return bitsInt(bits.LeadingZeros8(x.C), x, leadingZeros)
}

// BitsLeadingZeros16 models bits.LeadingZeros16.
func BitsLeadingZeros16(x V[uint16]) (int, *sym.Expr) {
	return bitsInt(bits.LeadingZeros16(x.C), x, leadingZeros)
}

// BitsLeadingZeros32 models bits.LeadingZeros32.
func BitsLeadingZeros32(x V[uint32]) (int, *sym.Expr) {
	return bitsInt(bits.LeadingZeros32(x.C), x, leadingZeros)
}

// BitsLeadingZeros64 models bits.LeadingZeros64.
func BitsLeadingZeros64(x V[uint64]) (int, *sym.Expr) {
	return bitsInt(bits.LeadingZeros64(x.C), x, leadingZeros)
}

// BitsTrailingZeros models bits.TrailingZeros.
func BitsTrailingZeros(x V[uint]) (int, *sym.Expr) {
	return bitsInt(bits.TrailingZeros(x.C), x, trailingZeros)
}

// BitsTrailingZeros8 models bits.TrailingZeros8.
func BitsTrailingZeros8(x V[uint8]) (int, *sym.Expr) {
	return bitsInt(bits.TrailingZeros8(x.C), x, trailingZeros)
}

// BitsTrailingZeros16 models bits.TrailingZeros16.
func BitsTrailingZeros16(x V[uint16]) (int, *sym.Expr) {
	return bitsInt(bits.TrailingZeros16(x.C), x, trailingZeros)
}

// BitsTrailingZeros32 models bits.TrailingZeros32.
func BitsTrailingZeros32(x V[uint32]) (int, *sym.Expr) {
	return bitsInt(bits.TrailingZeros32(x.C), x, trailingZeros)
}

// BitsTrailingZeros64 models bits.TrailingZeros64.
func BitsTrailingZeros64(x V[uint64]) (int, *sym.Expr) {
	return bitsInt(bits.TrailingZeros64(x.C), x, trailingZeros)
}

// rotateLeft rotates x left by k mod its width, k signed and concrete
// (negative k rotates right).
func rotateLeft(x *sym.Expr, k int) *sym.Expr {
	b := st.b
	w := int(x.Width)
	s := ((k % w) + w) % w
	if s == 0 {
		return x
	}
	return b.Bin(sym.KOr, b.Shift(sym.KShl, x, b.Const(uint64(s), x.Width)), b.Shift(sym.KLShr, x, b.Const(uint64(w-s), x.Width)))
}

func bitsRotate[T unsigned](r T, x V[T], k V[int]) (T, *sym.Expr) {
	if x.S == nil || k.S != nil || !tracking() {
		// A symbolic count runs concretely: rotation by a variable amount
		// is rare in code that branches on the result.
		return r, nil
	}
	return r, rotateLeft(x.S, k.C)
}

// BitsRotateLeft models bits.RotateLeft for a concrete count.
func BitsRotateLeft(x V[uint], k V[int]) (uint, *sym.Expr) {
	return bitsRotate(bits.RotateLeft(x.C, k.C), x, k)
}

// BitsRotateLeft8 models bits.RotateLeft8 for a concrete count.
func BitsRotateLeft8(x V[uint8], k V[int]) (uint8, *sym.Expr) {
	return bitsRotate(bits.RotateLeft8(x.C, k.C), x, k)
}

// BitsRotateLeft16 models bits.RotateLeft16 for a concrete count.
func BitsRotateLeft16(x V[uint16], k V[int]) (uint16, *sym.Expr) {
	return bitsRotate(bits.RotateLeft16(x.C, k.C), x, k)
}

// BitsRotateLeft32 models bits.RotateLeft32 for a concrete count.
func BitsRotateLeft32(x V[uint32], k V[int]) (uint32, *sym.Expr) {
	return bitsRotate(bits.RotateLeft32(x.C, k.C), x, k)
}

// BitsRotateLeft64 models bits.RotateLeft64 for a concrete count.
func BitsRotateLeft64(x V[uint64], k V[int]) (uint64, *sym.Expr) {
	return bitsRotate(bits.RotateLeft64(x.C, k.C), x, k)
}

// reverseBytes swaps the byte order of x.
func reverseBytes(x *sym.Expr) *sym.Expr {
	b := st.b
	n := int(x.Width) / 8
	r := b.Const(0, x.Width)
	for i := 0; i < n; i++ {
		byteI := b.Bin(sym.KAnd, b.Shift(sym.KLShr, x, b.Const(uint64(8*i), x.Width)), b.Const(0xFF, x.Width))
		r = b.Bin(sym.KOr, r, b.Shift(sym.KShl, byteI, b.Const(uint64(8*(n-1-i)), x.Width)))
	}
	return r
}

func bitsSame[T unsigned](r T, x V[T], f func(*sym.Expr) *sym.Expr) (T, *sym.Expr) {
	if x.S == nil || !tracking() {
		return r, nil
	}
	return r, f(x.S)
}

// BitsReverseBytes16 models bits.ReverseBytes16.
func BitsReverseBytes16(x V[uint16]) (uint16, *sym.Expr) {
	return bitsSame(bits.ReverseBytes16(x.C), x, reverseBytes)
}

// BitsReverseBytes32 models bits.ReverseBytes32.
func BitsReverseBytes32(x V[uint32]) (uint32, *sym.Expr) {
	return bitsSame(bits.ReverseBytes32(x.C), x, reverseBytes)
}

// BitsReverseBytes64 models bits.ReverseBytes64.
func BitsReverseBytes64(x V[uint64]) (uint64, *sym.Expr) {
	return bitsSame(bits.ReverseBytes64(x.C), x, reverseBytes)
}

// mulHi is the high word of the 128-bit product of the 64-bit terms x
// and y, over their 32-bit halves as bits.Mul64's Go code computes it:
// exact, in 64-bit operations only.
func mulHi(x, y *sym.Expr) *sym.Expr {
	b := st.b
	k := func(v uint64) *sym.Expr { return b.Const(v, 64) }
	mul := func(p, q *sym.Expr) *sym.Expr { return b.Bin(sym.KMul, p, q) }
	lo32 := func(p *sym.Expr) *sym.Expr { return b.Bin(sym.KAnd, p, k(1<<32-1)) }
	hi32 := func(p *sym.Expr) *sym.Expr { return b.Shift(sym.KLShr, p, k(32)) }
	x0, x1, y0, y1 := lo32(x), hi32(x), lo32(y), hi32(y)
	t := b.Add(mul(x1, y0), hi32(mul(x0, y0)))
	w1 := b.Add(lo32(t), mul(x0, y1))
	return b.Add(b.Add(mul(x1, y1), hi32(t)), hi32(w1))
}

// BitsMul64 models bits.Mul64, which strconv's float parsing calls on the
// mantissa: both words of the product, exactly.
func BitsMul64(x, y V[uint64]) (hi, lo uint64, shi, slo *sym.Expr) {
	hi, lo = bits.Mul64(x.C, y.C)
	if x.S == nil && y.S == nil || !tracking() {
		return hi, lo, nil, nil
	}
	xs, ys := x.S, y.S
	if xs == nil {
		xs = st.b.Const(x.C, 64)
	}
	if ys == nil {
		ys = st.b.Const(y.C, 64)
	}
	return hi, lo, mulHi(xs, ys), st.b.Bin(sym.KMul, xs, ys)
}
