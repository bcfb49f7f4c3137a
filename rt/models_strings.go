// This file holds the models of standard-library functions whose results
// are strings or slices of strings: strconv.Itoa and its kin, which render
// an integer, and strings.Split and its kin, which cut a string at a
// separator. Like the other models (models.go) they call the real function
// for the concrete result; their shadows are string aggregates, and the
// elements of a Split result get theirs in the shadow memory (mem.go), with
// the length of the result in the length shadows (slice.go), so that
// parts[1] and len(parts) read them as for any slice the program built.

package rt

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// maxDigits is the number of decimal digits of the largest uint64.
const maxDigits = 20

// pow10 returns 10^k for k < maxDigits.
func pow10(k int) uint64 {
	p := uint64(1)
	for range k {
		p *= 10
	}
	return p
}

// decimalDigits returns the decimal digits of the unsigned 64-bit term u,
// least significant first, as 8-bit values 0 to 9 (maxDigits of them,
// leading zeros included).
//
// The digits come from a cascade of comparisons with constants, most
// significant first: digit k of v is the largest c with v >= c*10^k, and
// the rest of v is v - c*10^k, held in the narrowest width 10^k fits.
// Divisions by powers of ten would be shorter to write, but Z3 bit-blasts
// a divider circuit for each: on thirteen branches "Itoa(x) == <number>",
// from 1 to 20 bytes, Z3 took 430 ms on average with divisions (worst
// 1.5 s) and 200 ms with the cascade (worst 0.5 s); comparisons with
// constants are what its propagation handles best.
func decimalDigits(u *sym.Expr) []*sym.Expr {
	b := st.b
	ds := make([]*sym.Expr, maxDigits)
	v := u
	for k := maxDigits - 1; k >= 0; k-- {
		p := pow10(k)
		d, sub := k8(0), b.Const(0, v.Width)
		for c := uint64(1); c <= 9 && c <= math.MaxUint64/p; c++ {
			ge := ule(b.Const(c*p, v.Width), v)
			d = b.Ite(ge, k8(byte(c)), d)
			sub = b.Ite(ge, b.Const(c*p, v.Width), sub)
		}
		ds[k] = d
		v = b.Sub(v, sub)
		if w := uintWidth(p - 1); w < v.Width {
			v = b.Trunc(v, w)
		}
	}
	return ds
}

// uintWidth is the narrowest width of sym that holds x.
func uintWidth(x uint64) uint8 {
	for _, w := range []uint8{8, 16, 32} {
		if x <= sym.Mask(w) {
			return w
		}
	}
	return 64
}

// formatDecimal returns the aggregate of the base-10 rendering of the
// 64-bit term x, read as signed if signed: an optional '-', then the
// digits without leading zeros. Exact for every value.
func formatDecimal(x *sym.Expr, signed bool) *sym.Expr {
	b := st.b
	neg := b.Bool(false)
	u := x
	// below[m]: u < 10^m, that is, the rendering has at most m digits.
	below := make([]*sym.Expr, maxDigits+1)
	for m := range below {
		below[m] = ult(u, b.Const(pow10(m), 64))
	}
	below[maxDigits] = b.Bool(true)
	if signed {
		neg = b.Cmp(sym.KSLt, x, b.Const(0, 64))
		u = b.Ite(neg, b.Neg(x), x) // -MinInt64 is 2^63 as an unsigned value
		// The bounds on |x| as bounds on x, which spares Z3 the negation.
		for m := range below[:maxDigits] {
			p := pow10(m)
			if p > math.MaxInt64 {
				below[m] = b.Bool(true)
				continue
			}
			below[m] = b.And(b.Cmp(sym.KSLt, x, b.Const(p, 64)), b.Cmp(sym.KSLt, b.Const(-p, 64), x))
		}
	}
	ds := decimalDigits(u)
	// Byte p of the unsigned rendering is digit n-1-p, for n digits: a
	// case split over n, each case a bound on u (n == m iff below[m] and
	// not below[m-1]), which Z3 propagates directly.
	digitAt := func(p int) *sym.Expr {
		r := b.Add(ds[maxDigits-1-p], k8('0'))
		for m := maxDigits - 1; m > p; m-- {
			r = b.Ite(below[m], b.Add(ds[m-1-p], k8('0')), r)
		}
		if p > 0 {
			r = b.Ite(below[p], k8(0), r)
		}
		return r
	}
	plain := make([]*sym.Expr, maxDigits)
	for p := range plain {
		plain[p] = digitAt(p)
	}
	length := k64(maxDigits)
	for m := maxDigits - 1; m >= 1; m-- {
		length = b.Ite(below[m], k64(m), length)
	}
	if !signed {
		return b.String(length, plain)
	}
	out := make([]*sym.Expr, maxDigits+1)
	for p := range out {
		shifted := k8('-')
		if p > 0 {
			shifted = plain[p-1]
		}
		unshifted := k8(0)
		if p < maxDigits {
			unshifted = plain[p]
		}
		out[p] = b.Ite(neg, shifted, unshifted)
	}
	length = b.Add(length, b.Ite(neg, k64(1), k64(0)))
	return b.String(length, out)
}

// StrconvItoa models strconv.Itoa, exactly.
func StrconvItoa(i V[int]) (string, *sym.Expr) {
	r := strconv.Itoa(i.C)
	if i.S == nil || !tracking() {
		return r, nil
	}
	return r, formatDecimal(st.b.Convert(i.S, 64, true), true)
}

// StrconvFormatInt models strconv.FormatInt for a concrete base 10,
// exactly; other bases run concretely.
func StrconvFormatInt(i V[int64], base V[int]) (string, *sym.Expr) {
	r := strconv.FormatInt(i.C, base.C)
	if i.S == nil || base.S != nil || base.C != 10 || !tracking() {
		return r, nil
	}
	return r, formatDecimal(i.S, true)
}

// StrconvFormatUint models strconv.FormatUint for a concrete base 10,
// exactly; other bases run concretely.
func StrconvFormatUint(i V[uint64], base V[int]) (string, *sym.Expr) {
	r := strconv.FormatUint(i.C, base.C)
	if i.S == nil || base.S != nil || base.C != 10 || !tracking() {
		return r, nil
	}
	return r, formatDecimal(i.S, false)
}

// The Split models are exact for a separator of one byte that does not
// depend on the inputs, on strings of at most maxSplitLen bytes; the
// first maxSplitParts elements of the result get shadows. Other
// separators (empty, longer, symbolic) run concretely: cutting at a
// separator of symbolic length would make every boundary a case split
// over both the string and the separator.

// maxSplitLen bounds the strings the Split models are exact on; longer
// strings keep the concrete result. The terms grow with the square of the
// length (each element's bytes are a case split over where it starts).
const maxSplitLen = 64

// maxSplitParts bounds the elements of a Split result that get shadows;
// the others stay concrete.
const maxSplitParts = 16

// splitTerms returns the term of the number of elements of Split(a, sep)
// (SplitN with limit when limit > 0) as an int, and the aggregates of its
// first parts elements, for the aggregate a and a one-byte separator sep.
// The terms are exact on dom, where len(a) fits the bytes the terms read.
//
// With at_j(i) "the j-th separator (from 0) is at byte i", element j
// starts after separator j-1 (at 0 for j = 0) and ends at separator j, or
// at the end of the string when there is none or j is the last element
// SplitN may return. Byte k of element j is a case split over where
// separator j-1 is: conditions on the input's bytes, no index arithmetic.
func splitTerms(a *sym.Expr, sep byte, limit, parts int) (dom, count *sym.Expr, elems []*sym.Expr) {
	b := st.b
	la, bs := aggLen(a), aggBytes(a)
	m := min(len(bs), maxSplitLen)
	dom = ule(la, k64(m))
	// isSep[i]: byte i is a separator. exactly[j][i]: exactly j of the
	// bytes before byte i are separators, a propositional recurrence
	// rather than a running sum, so that Z3 decides "the second comma is
	// at byte 5" by propagation instead of through a chain of adders. On
	// len(parts) == 3 && parts[1] == "magic" Z3 took 27 ms with it, 2.3 s
	// with 16-bit sums, over 32-byte inputs (over 64 bytes: 0.12 s, and
	// no answer within 10 s).
	isSep := make([]*sym.Expr, m)
	for i := range m {
		isSep[i] = b.And(ult(k64(i), la), b.Eq(bs[i], k8(sep)))
	}
	exactly := make([][]*sym.Expr, m+1)
	for j := range exactly {
		exactly[j] = make([]*sym.Expr, m+1)
		for i := range exactly[j] {
			switch {
			case j > i:
				exactly[j][i] = b.Bool(false)
			case i == 0:
				exactly[j][i] = b.Bool(true)
			case j == 0:
				exactly[j][i] = b.And(exactly[j][i-1], b.Not(isSep[i-1]))
			default:
				exactly[j][i] = b.Or(b.And(exactly[j][i-1], b.Not(isSep[i-1])), b.And(exactly[j-1][i-1], isSep[i-1]))
			}
		}
	}
	at := func(j, i int) *sym.Expr { return b.And(isSep[i], exactly[j][i]) }
	// count: one more than the separators, at most limit.
	count = b.Const(uint64(m+1), intSize)
	if limit > 0 {
		count = b.Const(uint64(min(m+1, limit)), intSize)
	}
	for j := m - 1; j >= 0; j-- {
		c := j + 1
		if limit > 0 {
			c = min(c, limit)
		}
		count = b.Ite(exactly[j][m], b.Const(uint64(c), intSize), count)
	}
	for j := range parts {
		// start and end of element j, and its bytes.
		start := k64(0)
		if j > 0 {
			start = la // no separator j-1: the element does not exist
			for i := m - 1; i >= j-1; i-- {
				start = b.Ite(at(j-1, i), k64(i+1), start)
			}
		}
		end := la
		if limit <= 0 || j < limit-1 {
			for i := m - 1; i >= j; i-- {
				end = b.Ite(at(j, i), k64(i), end)
			}
		}
		out := make([]*sym.Expr, 0, m-j)
		for k := 0; j+k < m; k++ {
			if j == 0 {
				out = append(out, bs[k])
				continue
			}
			r := k8(0)
			for i := m - 1 - k - 1; i >= j-1; i-- {
				r = b.Ite(at(j-1, i), bs[i+1+k], r)
			}
			out = append(out, r)
		}
		elems = append(elems, b.String(b.Sub(end, start), out))
	}
	return dom, count, elems
}

// aggIte is ite(c, x, y) on aggregates, component by component; missing
// bytes are zeros.
func aggIte(c, x, y *sym.Expr) *sym.Expr {
	b := st.b
	bx, by := aggBytes(x), aggBytes(y)
	out := make([]*sym.Expr, max(len(bx), len(by)))
	for k := range out {
		xk, yk := k8(0), k8(0)
		if k < len(bx) {
			xk = bx[k]
		}
		if k < len(by) {
			yk = by[k]
		}
		out[k] = b.Ite(c, xk, yk)
	}
	return b.String(b.Ite(c, aggLen(x), aggLen(y)), out)
}

// splitShadows gives the result r of a Split model of the aggregate a its
// shadows: the length shadow of r and the cells of its first elements.
// str is the concrete string of element j, for the cells' checks.
func splitShadows[E any](r []E, a *sym.Expr, sep byte, limit int, str func(j int) string, set func(p *E, s *sym.Expr)) {
	if len(r) == 0 {
		return
	}
	parts := min(len(r), maxSplitParts)
	dom, count, elems := splitTerms(a, sep, limit, parts)
	b := st.b
	setLen(r, b.Convert(intShadow(dom, count, uint64(len(r))), 64, true))
	for j := range parts {
		set(&r[j], aggIte(dom, elems[j], aggOf(str(j))))
	}
}

// oneByteSep reports whether sep is a separator the Split models handle:
// one byte that does not depend on the inputs.
func oneByteSep[T ~string | ~[]byte](sep V[T]) bool { return sep.S == nil && len(sep.C) == 1 }

// StringsSplit models strings.Split for a one-byte separator.
func StringsSplit(s, sep V[string]) []string { return StringsSplitN(s, sep, V[int]{C: -1}) }

// StringsSplitN models strings.SplitN for a one-byte separator and a
// concrete limit.
func StringsSplitN(s, sep V[string], n V[int]) []string {
	r := strings.SplitN(s.C, sep.C, n.C)
	if s.S == nil || !oneByteSep(sep) || n.S != nil || n.C == 0 || !tracking() {
		return r
	}
	splitShadows(r, s.S, sep.C[0], n.C, func(j int) string { return r[j] }, func(p *string, s *sym.Expr) {
		setCell(addr(p), unsafe.Pointer(p), cell{str: *p, s: s})
	})
	return r
}

// BytesSplit models bytes.Split for a one-byte separator.
func BytesSplit(s, sep V[[]byte]) [][]byte { return BytesSplitN(s, sep, V[int]{C: -1}) }

// BytesSplitN models bytes.SplitN for a one-byte separator and a
// concrete limit.
func BytesSplitN(s, sep V[[]byte], n V[int]) [][]byte {
	r := bytes.SplitN(s.C, sep.C, n.C)
	if s.S == nil || !oneByteSep(sep) || n.S != nil || n.C == 0 || !tracking() {
		return r
	}
	splitShadows(r, s.S, sep.C[0], n.C, func(j int) string { return string(r[j]) }, func(p *[]byte, s *sym.Expr) {
		setBytesCell(p, s)
	})
	return r
}

// StringsReplaceAll models strings.ReplaceAll on the path where s does
// not contain old, the common one when a parser normalises a rare
// spelling (decimal replaces U+2212 with '-'): the result is then s, with
// its shadow. Whether s contains old is a branch at site, so the search
// also tries inputs that do; on those the result is concrete, counted as
// call.
func StringsReplaceAll(site uint32, s, old, new V[string]) (string, *sym.Expr) {
	return replaceModel(site, strings.ReplaceAll(s.C, old.C, new.C), s, old)
}

// StringsReplace models strings.Replace as StringsReplaceAll. A constant
// n of 0 replaces nothing: the result is s, with no branch.
func StringsReplace(site uint32, s, old, new V[string], n V[int]) (string, *sym.Expr) {
	r := strings.Replace(s.C, old.C, new.C, n.C)
	if n.C == 0 && n.S == nil {
		return r, s.S
	}
	return replaceModel(site, r, s, old)
}

// BytesReplaceAll models bytes.ReplaceAll as StringsReplaceAll. The
// result is a copy even when nothing is replaced, which the shadow, a
// value, does not need to know.
func BytesReplaceAll(site uint32, s, old, new V[[]byte]) ([]byte, *sym.Expr) {
	return replaceModel(site, bytes.ReplaceAll(s.C, old.C, new.C), s, old)
}

// replaceModel returns the result r of a replacement of old in s, with
// s's shadow when s does not contain old (r is then s), after recording
// that condition at site.
func replaceModel[T ~string | ~[]byte](site uint32, r T, s, old V[T]) (T, *sym.Expr) {
	if s.S == nil && old.S == nil || !tracking() {
		return r, nil
	}
	has := strings.Contains(string(s.C), string(old.C))
	record(site, has, contains(agg(s), agg(old)))
	if has {
		if s.S != nil {
			concretise(site, CauseCall)
		}
		return r, nil
	}
	return r, s.S
}
