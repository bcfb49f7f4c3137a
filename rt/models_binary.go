// This file models encoding/binary: the byte orders' Uint16, Uint32 and
// Uint64, and Uvarint.

package rt

import (
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// readUint is the n-byte integer at the start of aggregate a, big-endian
// or little-endian, recording the length check at site; nil when the bytes
// are not all known.
func readUint(site uint32, a *sym.Expr, n int, big bool, ok bool) *sym.Expr {
	b := st.b
	boundsCheck(site, k64(n-1), aggLen(a), ok)
	bs := aggBytes(a)
	if !ok || len(bs) < n {
		return nil
	}
	w := uint8(8 * n)
	r := b.Const(0, w)
	for i := 0; i < n; i++ {
		shift := 8 * i // little-endian: byte i is bits 8i..8i+7
		if big {
			shift = 8 * (n - 1 - i)
		}
		r = b.Bin(sym.KOr, r, b.Shift(sym.KShl, b.ZExt(bs[i], w), b.Const(uint64(shift), w)))
	}
	return r
}

func byteOrder[T unsigned](site uint32, p V[[]byte], n int, big bool, read func([]byte) T) (T, *sym.Expr) {
	if p.S == nil || !tracking() {
		return read(p.C), nil
	}
	s := readUint(site, p.S, n, big, len(p.C) >= n)
	return read(p.C), s // panics like the library when p is short
}

// BinaryBigEndianUint16 models binary.BigEndian.Uint16; site is its length
// check.
func BinaryBigEndianUint16(site uint32, p V[[]byte]) (uint16, *sym.Expr) {
	return byteOrder(site, p, 2, true, readOrder[uint16](true))
}

// BinaryBigEndianUint32 models binary.BigEndian.Uint32.
func BinaryBigEndianUint32(site uint32, p V[[]byte]) (uint32, *sym.Expr) {
	return byteOrder(site, p, 4, true, readOrder[uint32](true))
}

// BinaryBigEndianUint64 models binary.BigEndian.Uint64.
func BinaryBigEndianUint64(site uint32, p V[[]byte]) (uint64, *sym.Expr) {
	return byteOrder(site, p, 8, true, readOrder[uint64](true))
}

// BinaryLittleEndianUint16 models binary.LittleEndian.Uint16.
func BinaryLittleEndianUint16(site uint32, p V[[]byte]) (uint16, *sym.Expr) {
	return byteOrder(site, p, 2, false, readOrder[uint16](false))
}

// BinaryLittleEndianUint32 models binary.LittleEndian.Uint32.
func BinaryLittleEndianUint32(site uint32, p V[[]byte]) (uint32, *sym.Expr) {
	return byteOrder(site, p, 4, false, readOrder[uint32](false))
}

// BinaryLittleEndianUint64 models binary.LittleEndian.Uint64.
func BinaryLittleEndianUint64(site uint32, p V[[]byte]) (uint64, *sym.Expr) {
	return byteOrder(site, p, 8, false, readOrder[uint64](false))
}

// BinaryUvarint models binary.Uvarint, exactly when the aggregate knows
// every byte the decoding may read (the first MaxVarintLen64+1, or all
// that the slice can hold). Each result is a case split on where the
// first byte without the continuation bit is, and on the slice's length.
func BinaryUvarint(b V[[]byte]) (uint64, int, *sym.Expr, *sym.Expr) {
	v, n := sym.Uvarint(b.C)
	if b.S == nil || !tracking() {
		return v, n, nil, nil
	}
	sv, sn := uvarintTerms(b.S)
	return v, n, sv, sn
}

// uvarintTerms returns the terms of binary.Uvarint's results for the
// bytes of aggregate a, nil when a does not know enough of its bytes.
func uvarintTerms(a *sym.Expr) (v, n *sym.Expr) {
	b := st.b
	bs, l := aggBytes(a), aggLen(a)
	const maxLen = 10 // encoding/binary.MaxVarintLen64
	if len(bs) <= maxLen && l.Max() > uint64(len(bs)) {
		return nil, nil
	}
	c64 := func(x int64) *sym.Expr { return b.Const(uint64(x), 64) }
	cInt := func(x int64) *sym.Expr { return b.Const(uint64(x), intSize) }
	longer := func(k int) *sym.Expr { return ult(c64(int64(k)), l) } // len > k
	// Past the last byte: (0, 0); an 11th byte: overflow (0, -11).
	v, n = c64(0), cInt(0)
	if len(bs) > maxLen {
		n = b.Ite(longer(maxLen), cInt(-(maxLen + 1)), n)
	}
	// The bits of the bytes before k, continuation bits cleared.
	lows := make([]*sym.Expr, maxLen)
	acc := c64(0)
	for k := 0; k < maxLen && k < len(bs); k++ {
		lows[k] = acc
		low := b.Bin(sym.KAnd, b.ZExt(bs[k], 64), c64(0x7f))
		acc = b.Bin(sym.KOr, acc, b.Shift(sym.KShl, low, c64(int64(7*k))))
	}
	for k := min(maxLen, len(bs)) - 1; k >= 0; k-- {
		bk := bs[k]
		stopV := b.Bin(sym.KOr, lows[k], b.Shift(sym.KShl, b.ZExt(bk, 64), c64(int64(7*k))))
		stopN := cInt(int64(k + 1))
		if k == maxLen-1 { // the tenth byte may hold one bit only
			over := ult(k8(1), bk)
			stopV = b.Ite(over, c64(0), stopV)
			stopN = b.Ite(over, cInt(-maxLen), stopN)
		}
		last := ult(bk, k8(0x80))
		v = b.Ite(longer(k), b.Ite(last, stopV, v), c64(0))
		n = b.Ite(longer(k), b.Ite(last, stopN, n), cInt(0))
	}
	return v, n
}

// readOrder returns the function that reads a T from the start of a byte
// slice in one byte order, as encoding/binary's byte orders do (which rt
// must not import, floor.go); it panics like them on a short slice.
func readOrder[T unsigned](big bool) func([]byte) T {
	return func(p []byte) T {
		n := int(unsafe.Sizeof(T(0)))
		_ = p[n-1]
		var v T
		for i := 0; i < n; i++ {
			shift := 8 * i
			if big {
				shift = 8 * (n - 1 - i)
			}
			v |= T(p[i]) << shift
		}
		return v
	}
}
