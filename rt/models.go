// This file holds models of standard-library functions that real code
// branches on (strings, bytes, strconv, unicode, unicode/utf8, math/bits,
// encoding/binary, math). A model has the shape of a twin: tracked
// parameters as V values, the real function's results, then one shadow per
// tracked result. It calls the real function for the concrete results, so
// concrete behaviour is the library's by construction, and builds terms
// for the shadows.
//
// Each term is exact on the model's domain and elsewhere falls back to the
// concrete result of this execution (an if-then-else on the domain
// condition): exact where it matters, never wrong at the input that ran.
// Functions with an error result take a site and record the error check
// as a branch, so that "err != nil" can be flipped like any condition.

package rt

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gocolic/gocolic/sym"
)

func k64(n int) *sym.Expr          { return st.b.Const(uint64(n), 64) }
func k8(n byte) *sym.Expr          { return st.b.Const(uint64(n), 8) }
func ule(x, y *sym.Expr) *sym.Expr { return st.b.Cmp(sym.KULe, x, y) }
func ult(x, y *sym.Expr) *sym.Expr { return st.b.Cmp(sym.KULt, x, y) }

// inRange is lo <= x <= hi, unsigned.
func inRange(x *sym.Expr, lo, hi uint64) *sym.Expr {
	return st.b.And(ule(st.b.Const(lo, x.Width), x), ule(x, st.b.Const(hi, x.Width)))
}

// boolShadow returns the shadow of a boolean result: t on dom, the
// concrete result c elsewhere.
func boolShadow(dom, t *sym.Expr, c bool) *sym.Expr { return st.b.Ite(dom, t, st.b.Bool(c)) }

// intShadow is boolShadow for an integer result of width t.Width.
func intShadow(dom, t *sym.Expr, c uint64) *sym.Expr {
	return st.b.Ite(dom, t, st.b.Const(c, t.Width))
}

// occursAt is the condition that aggregate p occurs in s at byte offset i.
func occursAt(s, p *sym.Expr, i int) *sym.Expr {
	b := st.b
	ls, lp := aggLen(s), aggLen(p)
	bs, bp := aggBytes(s), aggBytes(p)
	c := ule(b.Add(k64(i), lp), ls)
	for k := range bp {
		past := ule(lp, k64(k)) // byte k is not part of p
		if i+k >= len(bs) {
			c = b.And(c, past)
			break
		}
		c = b.And(c, b.Or(past, b.Eq(bs[i+k], bp[k])))
	}
	return c
}

func hasPrefix(s, p *sym.Expr) *sym.Expr { return occursAt(s, p, 0) }

func hasSuffix(s, p *sym.Expr) *sym.Expr {
	b := st.b
	start := b.Sub(aggLen(s), aggLen(p))
	r := b.Bool(false)
	for i := 0; i <= len(aggBytes(s)); i++ {
		r = b.Or(r, b.And(b.Eq(start, k64(i)), occursAt(s, p, i)))
	}
	return r
}

// index is the offset of the first occurrence of p in s, or -1, as an int.
func index(s, p *sym.Expr) *sym.Expr {
	b := st.b
	r := b.Const(math.MaxUint64, intSize) // -1
	for i := len(aggBytes(s)); i >= 0; i-- {
		r = b.Ite(occursAt(s, p, i), b.Const(uint64(i), intSize), r)
	}
	return r
}

func contains(s, p *sym.Expr) *sym.Expr {
	b := st.b
	r := b.Bool(false)
	for i := 0; i <= len(aggBytes(s)); i++ {
		r = b.Or(r, occursAt(s, p, i))
	}
	return r
}

// ascii is the condition that every byte of aggregate a is below 0x80.
func ascii(a *sym.Expr) *sym.Expr {
	b := st.b
	c := b.Bool(true)
	for k, x := range aggBytes(a) {
		c = b.And(c, b.Or(ule(aggLen(a), k64(k)), ult(x, k8(0x80))))
	}
	return c
}

// lower maps an ASCII upper-case letter byte to lower case.
func lower(x *sym.Expr) *sym.Expr {
	return st.b.Ite(inRange(x, 'A', 'Z'), st.b.Add(x, k8('a'-'A')), x)
}

// equalFold is EqualFold on ASCII strings.
func equalFold(x, y *sym.Expr) *sym.Expr {
	b := st.b
	lx, ly := aggLen(x), aggLen(y)
	bx, by := aggBytes(x), aggBytes(y)
	n := min(len(bx), len(by))
	c := b.And(b.Eq(lx, ly), ule(lx, k64(n)))
	for k := 0; k < n; k++ {
		c = b.And(c, b.Or(ule(lx, k64(k)), b.Eq(lower(bx[k]), lower(by[k]))))
	}
	return c
}

// The string and byte-slice predicates are exact on all inputs, except
// EqualFold, which is exact on ASCII (Unicode folding maps some letters to
// others of another length).

// pred is a two-operand predicate model: result r, term f of the operands'
// aggregates when either is symbolic.
func pred[T ~string | ~[]byte](r bool, s, p V[T], f func(s, p *sym.Expr) *sym.Expr) (bool, *sym.Expr) {
	if s.S == nil && p.S == nil || !tracking() {
		return r, nil
	}
	return r, f(agg(s), agg(p))
}

// indexOf is the Index model: result r, and the offset term when either
// operand is symbolic.
func indexOf[T ~string | ~[]byte](r int, s, p V[T]) (int, *sym.Expr) {
	if s.S == nil && p.S == nil || !tracking() {
		return r, nil
	}
	return r, index(agg(s), agg(p))
}

func foldTerm(x, y *sym.Expr, r bool) *sym.Expr {
	return boolShadow(st.b.And(ascii(x), ascii(y)), equalFold(x, y), r)
}

// StringsHasPrefix models strings.HasPrefix.
func StringsHasPrefix(s, prefix V[string]) (bool, *sym.Expr) {
	return pred(strings.HasPrefix(s.C, prefix.C), s, prefix, hasPrefix)
}

// StringsHasSuffix models strings.HasSuffix.
func StringsHasSuffix(s, suffix V[string]) (bool, *sym.Expr) {
	return pred(strings.HasSuffix(s.C, suffix.C), s, suffix, hasSuffix)
}

// StringsContains models strings.Contains.
func StringsContains(s, substr V[string]) (bool, *sym.Expr) {
	return pred(strings.Contains(s.C, substr.C), s, substr, contains)
}

// StringsEqualFold models strings.EqualFold.
func StringsEqualFold(s, t V[string]) (bool, *sym.Expr) {
	r := strings.EqualFold(s.C, t.C)
	return pred(r, s, t, func(x, y *sym.Expr) *sym.Expr { return foldTerm(x, y, r) })
}

// StringsIndex models strings.Index.
func StringsIndex(s, substr V[string]) (int, *sym.Expr) {
	return indexOf(strings.Index(s.C, substr.C), s, substr)
}

// BytesHasPrefix models bytes.HasPrefix.
func BytesHasPrefix(s, prefix V[[]byte]) (bool, *sym.Expr) {
	return pred(bytes.HasPrefix(s.C, prefix.C), s, prefix, hasPrefix)
}

// BytesHasSuffix models bytes.HasSuffix.
func BytesHasSuffix(s, suffix V[[]byte]) (bool, *sym.Expr) {
	return pred(bytes.HasSuffix(s.C, suffix.C), s, suffix, hasSuffix)
}

// BytesContains models bytes.Contains.
func BytesContains(s, sub V[[]byte]) (bool, *sym.Expr) {
	return pred(bytes.Contains(s.C, sub.C), s, sub, contains)
}

// BytesEqual models bytes.Equal.
func BytesEqual(a, b V[[]byte]) (bool, *sym.Expr) {
	return pred(bytes.Equal(a.C, b.C), a, b, aggEq)
}

// BytesEqualFold models bytes.EqualFold.
func BytesEqualFold(s, t V[[]byte]) (bool, *sym.Expr) {
	r := bytes.EqualFold(s.C, t.C)
	return pred(r, s, t, func(x, y *sym.Expr) *sym.Expr { return foldTerm(x, y, r) })
}

// BytesIndex models bytes.Index.
func BytesIndex(s, sep V[[]byte]) (int, *sym.Expr) {
	return indexOf(bytes.Index(s.C, sep.C), s, sep)
}

// asciiSpace is the condition that byte x is one of the ASCII bytes
// unicode.IsSpace accepts.
func asciiSpace(x *sym.Expr) *sym.Expr {
	return st.b.Or(inRange(x, '\t', '\r'), st.b.Eq(x, k8(' ')))
}

// trimSpace returns the aggregate of TrimSpace of a, given that a is ASCII.
func trimSpace(a *sym.Expr) *sym.Expr {
	b := st.b
	la, bs := aggLen(a), aggBytes(a)
	n := len(bs)
	// lo: the first non-space byte, or len(a); hi: one past the last.
	lo, hi := la, b.Const(0, 64)
	for k := n - 1; k >= 0; k-- {
		keep := b.And(ult(k64(k), la), b.Not(asciiSpace(bs[k])))
		lo = b.Ite(keep, k64(k), lo)
	}
	for k := 0; k < n; k++ {
		keep := b.And(ult(k64(k), la), b.Not(asciiSpace(bs[k])))
		hi = b.Ite(keep, k64(k+1), hi)
	}
	empty := ule(hi, lo) // all spaces
	length := b.Ite(empty, k64(0), b.Sub(hi, lo))
	out := make([]*sym.Expr, n)
	for j := range out {
		idx := b.Add(lo, k64(j))
		k := -1
		if idx.Kind == sym.KConst {
			k = int(idx.Val)
		}
		out[j] = byteAt(a, idx, k)
		if out[j] == nil {
			out[j] = k8(0)
		}
	}
	return b.String(length, out)
}

// StringsTrimSpace models strings.TrimSpace, exactly on ASCII strings.
func StringsTrimSpace(s V[string]) (string, *sym.Expr) {
	r := strings.TrimSpace(s.C)
	if s.S == nil || !tracking() {
		return r, nil
	}
	b := st.b
	dom := ascii(s.S)
	t := trimSpace(s.S)
	c := aggOf(r)
	// An aggregate has no if-then-else: choose per component.
	tb, cb := aggBytes(t), aggBytes(c)
	out := make([]*sym.Expr, len(tb))
	for j := range out {
		cj := k8(0)
		if j < len(cb) {
			cj = cb[j]
		}
		out[j] = b.Ite(dom, tb[j], cj)
	}
	return r, b.String(b.Ite(dom, aggLen(t), aggLen(c)), out)
}

// digit is the condition that byte x is an ASCII digit.
func digit(x *sym.Expr) *sym.Expr { return inRange(x, '0', '9') }

// decimal returns the syntax condition and the value (64 bits) of
// aggregate a read as an optionally signed decimal number of at most
// maxLen bytes; the caller restricts the domain to len(a) <= maxLen, where
// no value overflows.
func decimal(a *sym.Expr, maxLen int) (ok, val *sym.Expr) {
	b := st.b
	la, bs := aggLen(a), aggBytes(a)
	ok, val = b.Bool(false), b.Const(0, 64)
	for n := min(maxLen, len(bs)); n >= 1; n-- {
		for _, signed := range []bool{false, true} {
			first := 0
			if signed {
				first = 1
			}
			if n-first < 1 {
				continue
			}
			c := b.Eq(la, k64(n))
			if signed {
				c = b.And(c, b.Or(b.Eq(bs[0], k8('+')), b.Eq(bs[0], k8('-'))))
			}
			// Each partial value is held in as few bits as its largest
			// value needs: wide products are what slows Z3 down here.
			v := b.Const(0, 8)
			pow := uint64(1)
			for k := first; k < n; k++ {
				c = b.And(c, digit(bs[k]))
				pow *= 10
				w := uint8(8)
				for int(w) < bits.Len64(pow-1) {
					w *= 2 // sym has widths 8, 16, 32 and 64
				}
				d := b.ZExt(b.Bin(sym.KAnd, b.Sub(bs[k], k8('0')), k8(0xF)), w)
				v = b.ZExt(v, w)
				v = b.Add(b.Bin(sym.KMul, v, b.Const(10, w)), d)
			}
			v = b.ZExt(v, 64)
			if signed {
				v = b.Ite(b.Eq(bs[0], k8('-')), b.Neg(v), v)
			}
			ok = b.Or(ok, c)
			val = b.Ite(c, v, val)
		}
	}
	return ok, val
}

// parseShadow records the error check of a parse at site and returns the
// shadow of its value.
func parseShadow(site uint32, a *sym.Expr, maxLen int, ok bool, val uint64, w uint8) *sym.Expr {
	b := st.b
	dom := ule(aggLen(a), k64(maxLen))
	okT, valT := decimal(a, maxLen)
	record(site, ok, boolShadow(dom, okT, ok))
	return intShadow(dom, b.Trunc(valT, w), val)
}

// maxParseLen bounds the strings the parse models are exact on. Longer
// strings keep the concrete result. Up to 18 bytes no int64 overflows,
// but Z3 took 1 to 7 s on "Atoi(s) == 4242" over 32-byte inputs with that
// bound, against 70 ms with 10 (numbers of up to ten digits).
const maxParseLen = 10

// StrconvAtoi models strconv.Atoi; site is its error check. The model is
// exact for strings of up to maxParseLen bytes.
func StrconvAtoi(site uint32, s V[string]) (int, error, *sym.Expr) {
	r, err := strconv.Atoi(s.C)
	if s.S == nil || !tracking() {
		return r, err, nil
	}
	return r, err, parseShadow(site, s.S, maxParseLen, err == nil, uint64(r), intSize)
}

// parseIntLen is the longest string, sign included, whose base-10 value
// fits in bitSize bits whatever its digits, at most maxParseLen.
func parseIntLen(bitSize int) int {
	switch bitSize {
	case 8:
		return 2
	case 16:
		return 4
	case 32:
		return 9
	}
	return maxParseLen
}

// StrconvParseInt models strconv.ParseInt for a concrete base 10 and bit
// size; site is its error check. Other bases run concretely.
func StrconvParseInt(site uint32, s V[string], base, bitSize V[int]) (int64, error, *sym.Expr) {
	r, err := strconv.ParseInt(s.C, base.C, bitSize.C)
	if s.S == nil || base.S != nil || bitSize.S != nil || base.C != 10 || !tracking() {
		return r, err, nil
	}
	switch bitSize.C {
	case 0, 8, 16, 32, 64:
	default:
		return r, err, nil
	}
	return r, err, parseShadow(site, s.S, parseIntLen(bitSize.C), err == nil, uint64(r), 64)
}

// runeASCII wraps an ASCII-exact rune predicate: the term t of r holds on
// 0 <= r < 0x80.
func runeASCII(res bool, r V[rune], t func(x *sym.Expr) *sym.Expr) (bool, *sym.Expr) {
	if r.S == nil || !tracking() {
		return res, nil
	}
	return res, boolShadow(ult(r.S, st.b.Const(0x80, 32)), t(r.S), res)
}

// UnicodeIsDigit models unicode.IsDigit, exactly on ASCII.
func UnicodeIsDigit(r V[rune]) (bool, *sym.Expr) {
	return runeASCII(unicode.IsDigit(r.C), r, func(x *sym.Expr) *sym.Expr { return inRange(x, '0', '9') })
}

// UnicodeIsLetter models unicode.IsLetter, exactly on ASCII.
func UnicodeIsLetter(r V[rune]) (bool, *sym.Expr) {
	return runeASCII(unicode.IsLetter(r.C), r, func(x *sym.Expr) *sym.Expr {
		return st.b.Or(inRange(x, 'a', 'z'), inRange(x, 'A', 'Z'))
	})
}

// UnicodeIsUpper models unicode.IsUpper, exactly on ASCII.
func UnicodeIsUpper(r V[rune]) (bool, *sym.Expr) {
	return runeASCII(unicode.IsUpper(r.C), r, func(x *sym.Expr) *sym.Expr { return inRange(x, 'A', 'Z') })
}

// UnicodeIsLower models unicode.IsLower, exactly on ASCII.
func UnicodeIsLower(r V[rune]) (bool, *sym.Expr) {
	return runeASCII(unicode.IsLower(r.C), r, func(x *sym.Expr) *sym.Expr { return inRange(x, 'a', 'z') })
}

// UnicodeIsSpace models unicode.IsSpace, exactly on ASCII.
func UnicodeIsSpace(r V[rune]) (bool, *sym.Expr) {
	return runeASCII(unicode.IsSpace(r.C), r, func(x *sym.Expr) *sym.Expr {
		return st.b.Or(inRange(x, '\t', '\r'), st.b.Eq(x, st.b.Const(' ', 32)))
	})
}

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

// The math/bits models are exact.

// unsigned are the types of the math/bits and encoding/binary results.
type unsigned interface {
	~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

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
	return byteOrder(site, p, 2, true, binary.BigEndian.Uint16)
}

// BinaryBigEndianUint32 models binary.BigEndian.Uint32.
func BinaryBigEndianUint32(site uint32, p V[[]byte]) (uint32, *sym.Expr) {
	return byteOrder(site, p, 4, true, binary.BigEndian.Uint32)
}

// BinaryBigEndianUint64 models binary.BigEndian.Uint64.
func BinaryBigEndianUint64(site uint32, p V[[]byte]) (uint64, *sym.Expr) {
	return byteOrder(site, p, 8, true, binary.BigEndian.Uint64)
}

// BinaryLittleEndianUint16 models binary.LittleEndian.Uint16.
func BinaryLittleEndianUint16(site uint32, p V[[]byte]) (uint16, *sym.Expr) {
	return byteOrder(site, p, 2, false, binary.LittleEndian.Uint16)
}

// BinaryLittleEndianUint32 models binary.LittleEndian.Uint32.
func BinaryLittleEndianUint32(site uint32, p V[[]byte]) (uint32, *sym.Expr) {
	return byteOrder(site, p, 4, false, binary.LittleEndian.Uint32)
}

// BinaryLittleEndianUint64 models binary.LittleEndian.Uint64.
func BinaryLittleEndianUint64(site uint32, p V[[]byte]) (uint64, *sym.Expr) {
	return byteOrder(site, p, 8, false, binary.LittleEndian.Uint64)
}

// The math models work on the IEEE-754 bits that hold a float, exactly.

const signBit = uint64(1) << 63

// MathFloat64bits models math.Float64bits: a float is held as its bits,
// so the result shares the argument's shadow. So do its three kin.
func MathFloat64bits(f V[float64]) (uint64, *sym.Expr) { return math.Float64bits(f.C), keep(f.S) }

// MathFloat64frombits models math.Float64frombits.
func MathFloat64frombits(b V[uint64]) (float64, *sym.Expr) {
	return math.Float64frombits(b.C), keep(b.S)
}

// MathFloat32bits models math.Float32bits.
func MathFloat32bits(f V[float32]) (uint32, *sym.Expr) { return math.Float32bits(f.C), keep(f.S) }

// MathFloat32frombits models math.Float32frombits.
func MathFloat32frombits(b V[uint32]) (float32, *sym.Expr) {
	return math.Float32frombits(b.C), keep(b.S)
}

// MathAbs models math.Abs: the sign bit cleared.
func MathAbs(x V[float64]) (float64, *sym.Expr) {
	r := math.Abs(x.C)
	if x.S == nil || !tracking() {
		return r, nil
	}
	return r, st.b.Bin(sym.KAnd, x.S, st.b.Const(^signBit, 64))
}

// MathSignbit models math.Signbit.
func MathSignbit(x V[float64]) (bool, *sym.Expr) {
	r := math.Signbit(x.C)
	if x.S == nil || !tracking() {
		return r, nil
	}
	return r, ule(st.b.Const(signBit, 64), x.S)
}

// MathIsNaN models math.IsNaN.
func MathIsNaN(x V[float64]) (bool, *sym.Expr) {
	r := math.IsNaN(x.C)
	if x.S == nil || !tracking() {
		return r, nil
	}
	return r, st.b.Not(st.b.FCmp(sym.KFEq, x.S, x.S))
}

// MathIsInf models math.IsInf.
func MathIsInf(x V[float64], sign V[int]) (bool, *sym.Expr) {
	r := math.IsInf(x.C, sign.C)
	if x.S == nil || sign.S != nil || !tracking() {
		return r, nil
	}
	b := st.b
	pos := b.Eq(x.S, b.Const(math.Float64bits(math.Inf(1)), 64))
	neg := b.Eq(x.S, b.Const(math.Float64bits(math.Inf(-1)), 64))
	switch {
	case sign.C > 0:
		return r, pos
	case sign.C < 0:
		return r, neg
	}
	return r, b.Or(pos, neg)
}

// BinaryUvarint models binary.Uvarint, exactly when the aggregate knows
// every byte the decoding may read (the first MaxVarintLen64+1, or all
// that the slice can hold). Each result is a case split on where the
// first byte without the continuation bit is, and on the slice's length.
func BinaryUvarint(b V[[]byte]) (uint64, int, *sym.Expr, *sym.Expr) {
	v, n := binary.Uvarint(b.C)
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
	const maxLen = binary.MaxVarintLen64
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
