// This file models strings. The term builders of the string predicates and
// of Split and Replace serve the bytes models too (models_bytes.go).
//
// The string and byte-slice predicates are exact on all inputs, except
// EqualFold, which is exact on ASCII (Unicode folding maps some letters to
// others of another length). The Split models call the real function for
// the concrete result; their shadows are string aggregates, and the
// elements of a Split result get theirs in the shadow memory (mem.go),
// with the length of the result in the length shadows (slice.go), so that
// parts[1] and len(parts) read them as for any slice the program built.

package rt

import (
	"math"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

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
func StringsHasPrefix(lib func(string, string) bool, s, prefix V[string]) (bool, *sym.Expr) {
	return pred(lib(s.C, prefix.C), s, prefix, hasPrefix)
}

// StringsHasSuffix models strings.HasSuffix.
func StringsHasSuffix(lib func(string, string) bool, s, suffix V[string]) (bool, *sym.Expr) {
	return pred(lib(s.C, suffix.C), s, suffix, hasSuffix)
}

// StringsContains models strings.Contains.
func StringsContains(lib func(string, string) bool, s, substr V[string]) (bool, *sym.Expr) {
	return pred(lib(s.C, substr.C), s, substr, contains)
}

// StringsEqualFold models strings.EqualFold.
func StringsEqualFold(lib func(string, string) bool, s, t V[string]) (bool, *sym.Expr) {
	r := lib(s.C, t.C)
	return pred(r, s, t, func(x, y *sym.Expr) *sym.Expr { return foldTerm(x, y, r) })
}

// StringsIndex models strings.Index.
func StringsIndex(lib func(string, string) int, s, substr V[string]) (int, *sym.Expr) {
	return indexOf(lib(s.C, substr.C), s, substr)
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
func StringsTrimSpace(lib func(string) string, s V[string]) (string, *sym.Expr) {
	r := lib(s.C)
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

// The Split models are exact for a separator of one byte that does not
// depend on the inputs, on strings of at most maxSplitLen bytes; the
// first maxSplitParts elements of the result get shadows. Other
// separators (empty, longer, symbolic) and symbolic limits go to the
// library's twin when strings or bytes is instrumented in place (its code
// then searches through the Index and bytealg models), and run
// concretely otherwise: cutting at a separator of symbolic length in one
// term would make every boundary a case split over both the string and
// the separator.

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
	for i := 0; i < m; i++ {
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
	for j := 0; j < parts; j++ {
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
	for j := 0; j < parts; j++ {
		set(&r[j], aggIte(dom, elems[j], aggOf(str(j))))
	}
}

// oneByteSep reports whether sep is a separator the Split models handle:
// one byte that does not depend on the inputs.
func oneByteSep[T ~string | ~[]byte](sep V[T]) bool { return sep.S == nil && len(sep.C) == 1 }

// StringsSplit models strings.Split for a one-byte separator.
func StringsSplit(lib func(string, string) []string, s, sep V[string]) []string {
	if tw, ok := splitTwin[func(V[string], V[string]) []string](lib, s, sep, V[int]{}); ok {
		return tw(s, sep)
	}
	return stringsSplit(lib(s.C, sep.C), s, sep, V[int]{C: -1})
}

// StringsSplitN models strings.SplitN for a one-byte separator and a
// concrete limit.
func StringsSplitN(lib func(string, string, int) []string, s, sep V[string], n V[int]) []string {
	if tw, ok := splitTwin[func(V[string], V[string], V[int]) []string](lib, s, sep, n); ok {
		return tw(s, sep, n)
	}
	return stringsSplit(lib(s.C, sep.C, n.C), s, sep, n)
}

// splitTwin returns the instrumented library's twin of the Split function
// lib, of type T, when a call with these operands is one the model leaves
// concrete (a separator that is symbolic or not one byte, a symbolic
// limit) and the library is instrumented: its code then keeps the terms.
func splitTwin[T any, F any, S ~string | ~[]byte](lib F, s, sep V[S], n V[int]) (T, bool) {
	var zero T
	if s.S == nil && sep.S == nil && n.S == nil || oneByteSep(sep) && n.S == nil || !tracking() {
		return zero, false
	}
	tw, ok := twinsByPC[funcPC(lib)].(T)
	return tw, ok
}

// stringsSplit gives r, the result of splitting s at sep at most n times,
// its shadows.
func stringsSplit(r []string, s, sep V[string], n V[int]) []string {
	if s.S == nil || !oneByteSep(sep) || n.S != nil || n.C == 0 || !tracking() {
		return r
	}
	splitShadows(r, s.S, sep.C[0], n.C, func(j int) string { return r[j] }, func(p *string, s *sym.Expr) {
		setCell(addr(p), unsafe.Pointer(p), cell{str: *p, s: s})
	})
	return r
}

// StringsReplaceAll models strings.ReplaceAll on the path where s does
// not contain old, the common one when a parser normalises a rare
// spelling (decimal replaces U+2212 with '-'): the result is then s, with
// its shadow. Whether s contains old is a branch at site, so the search
// also tries inputs that do; on those the result is concrete, counted as
// call.
func StringsReplaceAll(site uint32, lib func(string, string, string) string, s, old, new V[string]) (string, *sym.Expr) {
	return replaceModel(site, lib(s.C, old.C, new.C), s, old)
}

// StringsReplace models strings.Replace as StringsReplaceAll. A constant
// n of 0 replaces nothing: the result is s, with no branch.
func StringsReplace(site uint32, lib func(string, string, string, int) string, s, old, new V[string], n V[int]) (string, *sym.Expr) {
	r := lib(s.C, old.C, new.C, n.C)
	if n.C == 0 && n.S == nil {
		return r, s.S
	}
	return replaceModel(site, r, s, old)
}

// replaceModel returns the result r of a replacement of old in s, with
// s's shadow when s does not contain old (r is then s), after recording
// that condition at site.
func replaceModel[T ~string | ~[]byte](site uint32, r T, s, old V[T]) (T, *sym.Expr) {
	if s.S == nil && old.S == nil || !tracking() {
		return r, nil
	}
	has := containsStr(string(s.C), string(old.C))
	record(site, has, contains(agg(s), agg(old)))
	if has {
		if s.S != nil {
			concretise(site, CauseCall)
		}
		return r, nil
	}
	return r, s.S
}

// StringsNewReader models strings.NewReader: the reader remembers the
// shadow of s for io.ReadAll.
func StringsNewReader[R any](lib func(string) *R, s V[string]) *R {
	r := newReader(lib, s)
	if s.S != nil && tracking() {
		remember(r, s.C, s.S)
	}
	return r
}

// StringsTrimPrefix models strings.TrimPrefix, as StringsliteTrimPrefix.
func StringsTrimPrefix(lib func(string, string) string, s, prefix V[string]) (string, *sym.Expr) {
	return StringsliteTrimPrefix(lib, s, prefix)
}

// StringsTrimSuffix models strings.TrimSuffix, as StringsliteTrimSuffix.
func StringsTrimSuffix(lib func(string, string) string, s, suffix V[string]) (string, *sym.Expr) {
	return StringsliteTrimSuffix(lib, s, suffix)
}

// StringsCutPrefix models strings.CutPrefix, as StringsliteCutPrefix.
func StringsCutPrefix(lib func(string, string) (string, bool), s, prefix V[string]) (after string, found bool, sa, sf *sym.Expr) {
	return StringsliteCutPrefix(lib, s, prefix)
}

// StringsCutSuffix models strings.CutSuffix, as StringsliteCutSuffix.
func StringsCutSuffix(lib func(string, string) (string, bool), s, suffix V[string]) (before string, found bool, sb, sf *sym.Expr) {
	return StringsliteCutSuffix(lib, s, suffix)
}
