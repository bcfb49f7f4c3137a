// This file models unicode/utf8.

package rt

import (
	"math"
	"unicode/utf8"

	"github.com/gocolic/gocolic/sym"
)

// decodeRune returns the domain, rune and size terms of the first rune of
// aggregate a: exact for an empty string, an ASCII byte and a well-formed
// two-byte sequence.
func decodeRune(a *sym.Expr) (dom, r, n *sym.Expr) {
	b := st.b
	la, bs := aggLen(a), aggBytes(a)
	empty := b.Eq(la, k64(0))
	if len(bs) == 0 {
		return empty, b.Const(utf8.RuneError, 32), b.Const(0, intSize)
	}
	one := ult(bs[0], k8(0x80))
	r = b.Ite(empty, b.Const(utf8.RuneError, 32), b.ZExt(bs[0], 32))
	n = b.Ite(empty, b.Const(0, intSize), b.Const(1, intSize))
	dom = b.Or(empty, one)
	if len(bs) >= 2 {
		two := b.And(b.And(inRange(bs[0], 0xC2, 0xDF), ule(k64(2), la)), inRange(bs[1], 0x80, 0xBF))
		r2 := b.Bin(sym.KOr, b.Shift(sym.KShl, b.ZExt(b.Bin(sym.KAnd, bs[0], k8(0x1F)), 32), b.Const(6, 32)), b.ZExt(b.Bin(sym.KAnd, bs[1], k8(0x3F)), 32))
		r = b.Ite(two, r2, r)
		n = b.Ite(two, b.Const(2, intSize), n)
		dom = b.Or(dom, two)
	}
	return dom, r, n
}

// Utf8DecodeRuneInString models utf8.DecodeRuneInString, exactly for
// ASCII and two-byte sequences.
func Utf8DecodeRuneInString(s V[string]) (rune, int, *sym.Expr, *sym.Expr) {
	r, n := utf8.DecodeRuneInString(s.C)
	if s.S == nil || !tracking() {
		return r, n, nil, nil
	}
	dom, rterm, nt := decodeRune(s.S)
	return r, n, intShadow(dom, rterm, uint64(uint32(r))), intShadow(dom, nt, uint64(n))
}

// Utf8DecodeRune models utf8.DecodeRune like Utf8DecodeRuneInString.
func Utf8DecodeRune(p V[[]byte]) (rune, int, *sym.Expr, *sym.Expr) {
	r, n := utf8.DecodeRune(p.C)
	if p.S == nil || !tracking() {
		return r, n, nil, nil
	}
	dom, rterm, nt := decodeRune(p.S)
	return r, n, intShadow(dom, rterm, uint64(uint32(r))), intShadow(dom, nt, uint64(n))
}

// Utf8RuneLen models utf8.RuneLen, exactly.
func Utf8RuneLen(r V[rune]) (int, *sym.Expr) {
	n := utf8.RuneLen(r.C)
	if r.S == nil || !tracking() {
		return n, nil
	}
	b := st.b
	x := r.S
	k32 := func(v uint64) *sym.Expr { return b.Const(v, 32) }
	neg := b.Cmp(sym.KSLt, x, k32(0))
	t := b.Const(math.MaxUint64, intSize) // -1 above MaxRune
	t = b.Ite(b.Cmp(sym.KSLe, x, k32(utf8.MaxRune)), b.Const(4, intSize), t)
	t = b.Ite(b.Cmp(sym.KSLt, x, k32(0x10000)), b.Const(3, intSize), t)
	t = b.Ite(b.And(b.Cmp(sym.KSLe, k32(0xD800), x), b.Cmp(sym.KSLe, x, k32(0xDFFF))), b.Const(math.MaxUint64, intSize), t)
	t = b.Ite(b.Cmp(sym.KSLt, x, k32(0x800)), b.Const(2, intSize), t)
	t = b.Ite(b.Cmp(sym.KSLt, x, k32(0x80)), b.Const(1, intSize), t)
	t = b.Ite(neg, b.Const(math.MaxUint64, intSize), t)
	return n, t
}
