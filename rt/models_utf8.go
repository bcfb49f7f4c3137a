// This file models unicode/utf8. The decoders are exact: the rune and
// size of utf8.DecodeRune are a function of the length and the first four
// bytes, which the model writes as one if-then-else chain over the tests
// of a decoder (rt/range.go's utf8Seq, shared with range loops). Where a
// byte that decoding may read has no term in the aggregate, the model
// hands the call to the instrumented copy of unicode/utf8 when there is
// one (instrument/models.go, libModels); otherwise, where the decoding
// of the current string reads such a byte, it runs concretely and counts
// a concretisation (CauseRune).

package rt

import (
	"math"
	"unicode/utf8"

	"github.com/gocolic/gocolic/sym"
)

// decodeRune returns the rune and size terms of the first rune of
// aggregate a and dom, the condition under which they are exact: every
// byte the decoding reads has a term. dom is nil when that holds
// everywhere, which is the case whenever a has four byte terms or more
// (an input has terms up to its maximum length).
func decodeRune(a *sym.Expr) (dom, r, n *sym.Expr) {
	b := st.b
	la := aggLen(a)
	var bs [utf8.UTFMax]*sym.Expr
	nb := copy(bs[:], aggBytes(a))
	rerr, one := b.Const(utf8.RuneError, 32), b.Const(1, intSize)
	if nb == 0 {
		return b.Eq(la, k64(0)), rerr, b.Const(0, intSize)
	}
	// The tests in the order of a decoder, built from the last: an
	// invalid or truncated sequence is (RuneError, 1).
	r, n = rerr, one
	known := b.Bool(false) // a valid sequence of at most nb bytes
	for size := utf8.UTFMax; size >= 2; size-- {
		if size > nb {
			continue // cannot hold under dom: la <= nb < size
		}
		c, t := utf8Seq(bs, size, 0, la)
		r, n = b.Ite(c, t, r), b.Ite(c, b.Const(uint64(size), intSize), n)
		known = b.Or(known, c)
	}
	ascii := ult(bs[0], k8(utf8.RuneSelf))
	r, n = b.Ite(ascii, b.ZExt(bs[0], 32), r), b.Ite(ascii, one, n)
	empty := b.Eq(la, k64(0))
	r, n = b.Ite(empty, rerr, r), b.Ite(empty, b.Const(0, intSize), n)
	if nb == utf8.UTFMax {
		return nil, r, n
	}
	// Short of terms: exact if the string ends within them, or the first
	// byte decides alone (ASCII, or no lead byte: RuneError, 1), or a
	// valid sequence within them was found.
	lead := inRange(bs[0], 0xC2, 0xF4)
	dom = b.Or(b.Or(ule(la, k64(nb)), b.Not(lead)), known)
	return dom, r, n
}

// decodeExact reports whether the decoding of the first rune of a
// concrete string of length l whose first byte is b0 (when l > 0) and
// whose rune has w bytes reads only the first nb bytes, those with
// terms: decodeRune's dom at that string.
func decodeExact(l int, b0 byte, w, nb int) bool {
	return l <= nb || nb >= utf8.UTFMax || nb > 0 && (b0 < 0xC2 || b0 > 0xF4 || w > 1 && w <= nb)
}

// decodeShadows returns the shadows of the rune and size (r, w) of the
// first rune of aggregate a, whose concrete string has length l and first
// byte b0; ok is false when the decoding reads a byte without a term.
func decodeShadows(a *sym.Expr, l int, b0 byte, r rune, w int) (rs, ws *sym.Expr, ok bool) {
	if !decodeExact(l, b0, w, len(aggBytes(a))) {
		return nil, nil, false
	}
	dom, rterm, nterm := decodeRune(a)
	if dom == nil {
		return rterm, nterm, true
	}
	// Another input may read past the terms; there the results keep
	// this run's values. Inputs have terms up to their maximum length,
	// so only strings derived from ones without terms get here.
	return intShadow(dom, rterm, uint64(uint32(r))), intShadow(dom, nterm, uint64(w)), true
}

// firstByte returns the first byte of s, 0 when s is empty.
func firstByte[T ~string | ~[]byte](s T) byte {
	if len(s) == 0 {
		return 0
	}
	return s[0]
}

// Utf8DecodeRuneInString models utf8.DecodeRuneInString, exactly where
// the bytes it reads have terms, which is everywhere when s's aggregate
// has four byte terms or more. Otherwise it calls lib's twin in the
// instrumented copy of unicode/utf8 when there is one; without a copy,
// where the decoding at s reads a byte without a term, it runs
// concretely, counting a concretisation at site.
func Utf8DecodeRuneInString(site uint32, lib func(string) (rune, int), s V[string]) (rune, int, *sym.Expr, *sym.Expr) {
	r, n := lib(s.C)
	if s.S == nil || !tracking() {
		return r, n, nil, nil
	}
	if len(aggBytes(s.S)) < utf8.UTFMax {
		// The terms may not hold for every input: the copy's do.
		if tw, ok := libTwin[func(V[string]) (rune, int, *sym.Expr, *sym.Expr)](lib); ok {
			return tw(s)
		}
	}
	rs, ns, ok := decodeShadows(s.S, len(s.C), firstByte(s.C), r, n)
	if !ok {
		concretise(site, CauseRune)
	}
	return r, n, rs, ns
}

// Utf8DecodeRune models utf8.DecodeRune like Utf8DecodeRuneInString.
func Utf8DecodeRune(site uint32, lib func([]byte) (rune, int), p V[[]byte]) (rune, int, *sym.Expr, *sym.Expr) {
	r, n := lib(p.C)
	if p.S == nil || !tracking() {
		return r, n, nil, nil
	}
	if len(aggBytes(p.S)) < utf8.UTFMax {
		// The terms may not hold for every input: the copy's do.
		if tw, ok := libTwin[func(V[[]byte]) (rune, int, *sym.Expr, *sym.Expr)](lib); ok {
			return tw(p)
		}
	}
	rs, ns, ok := decodeShadows(p.S, len(p.C), firstByte(p.C), r, n)
	if !ok {
		concretise(site, CauseRune)
	}
	return r, n, rs, ns
}

// Utf8RuneLen models utf8.RuneLen, exactly.
func Utf8RuneLen(lib func(rune) int, r V[rune]) (int, *sym.Expr) {
	n := lib(r.C)
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
