// This file models internal/bytealg and internal/stringslite, where the
// search code of strings and bytes ends: bytealg's functions are
// assembly on most architectures, and both packages are below the
// runtime's import floor, so neither can be instrumented in place. No
// target calls them (they are internal); the calls are those of strings
// and bytes, instrumented in place, and each model is given the library
// function by its call site (instrument/models.go, libModels), since the
// runtime may not name these packages. The terms are exact on all
// inputs: a byte search is the string search of a one-byte aggregate.

package rt

import (
	"github.com/gocolic/gocolic/sym"
)

// byteAgg returns the one-byte aggregate of c.
func byteAgg(c V[byte]) *sym.Expr {
	x := c.S
	if x == nil {
		x = k8(c.C)
	}
	return st.b.String(k64(1), []*sym.Expr{x})
}

// byteSearch is a model of a search for a byte: result r, and the term
// f of the operands' aggregates when either is symbolic.
func byteSearch[T ~string | ~[]byte](r int, s V[T], c V[byte], f func(s, p *sym.Expr) *sym.Expr) (int, *sym.Expr) {
	if s.S == nil && c.S == nil || !tracking() {
		return r, nil
	}
	return r, f(agg(s), byteAgg(c))
}

// search is byteSearch for a search of a string or byte slice.
func search[T ~string | ~[]byte](r int, s, p V[T], f func(s, p *sym.Expr) *sym.Expr) (int, *sym.Expr) {
	if s.S == nil && p.S == nil || !tracking() {
		return r, nil
	}
	return r, f(agg(s), agg(p))
}

// lastIndex is the offset of the last occurrence of p in s, or -1, as an
// int.
func lastIndex(s, p *sym.Expr) *sym.Expr {
	b := st.b
	r := b.Const(^uint64(0), intSize) // -1
	for i := 0; i <= len(aggBytes(s)); i++ {
		r = b.Ite(occursAt(s, p, i), b.Const(uint64(i), intSize), r)
	}
	return r
}

// countByte is the number of bytes of s equal to the one-byte aggregate
// c, as an int.
func countByte(s, c *sym.Expr) *sym.Expr {
	b := st.b
	x := aggBytes(c)[0]
	r := b.Const(0, intSize)
	for i, y := range aggBytes(s) {
		hit := b.And(ult(k64(i), aggLen(s)), b.Eq(y, x))
		r = b.Add(r, b.Ite(hit, b.Const(1, intSize), b.Const(0, intSize)))
	}
	return r
}

// compare is -1, 0 or +1 as x sorts before, equal to or after y, as an
// int.
func compare(x, y *sym.Expr) *sym.Expr {
	b := st.b
	return b.Ite(aggLess(x, y), b.Const(^uint64(0), intSize),
		b.Ite(aggEq(x, y), b.Const(0, intSize), b.Const(1, intSize)))
}

// BytealgIndexByteString models internal/bytealg.IndexByteString.
func BytealgIndexByteString(lib func(string, byte) int, s V[string], c V[byte]) (int, *sym.Expr) {
	return byteSearch(lib(s.C, c.C), s, c, index)
}

// BytealgIndexByte models internal/bytealg.IndexByte.
func BytealgIndexByte(lib func([]byte, byte) int, s V[[]byte], c V[byte]) (int, *sym.Expr) {
	return byteSearch(lib(s.C, c.C), s, c, index)
}

// BytealgLastIndexByteString models internal/bytealg.LastIndexByteString.
func BytealgLastIndexByteString(lib func(string, byte) int, s V[string], c V[byte]) (int, *sym.Expr) {
	return byteSearch(lib(s.C, c.C), s, c, lastIndex)
}

// BytealgLastIndexByte models internal/bytealg.LastIndexByte.
func BytealgLastIndexByte(lib func([]byte, byte) int, s V[[]byte], c V[byte]) (int, *sym.Expr) {
	return byteSearch(lib(s.C, c.C), s, c, lastIndex)
}

// BytealgCountString models internal/bytealg.CountString.
func BytealgCountString(lib func(string, byte) int, s V[string], c V[byte]) (int, *sym.Expr) {
	return byteSearch(lib(s.C, c.C), s, c, countByte)
}

// BytealgCount models internal/bytealg.Count.
func BytealgCount(lib func([]byte, byte) int, s V[[]byte], c V[byte]) (int, *sym.Expr) {
	return byteSearch(lib(s.C, c.C), s, c, countByte)
}

// BytealgIndexString models internal/bytealg.IndexString, which its
// callers call only with a separator of 2 to bytealg.MaxLen bytes; the
// term is Index's on all inputs.
func BytealgIndexString(lib func(string, string) int, a, b V[string]) (int, *sym.Expr) {
	return search(lib(a.C, b.C), a, b, index)
}

// BytealgIndex models internal/bytealg.Index, as BytealgIndexString.
func BytealgIndex(lib func([]byte, []byte) int, a, b V[[]byte]) (int, *sym.Expr) {
	return search(lib(a.C, b.C), a, b, index)
}

// BytealgCompareString models internal/bytealg.CompareString.
func BytealgCompareString(lib func(string, string) int, a, b V[string]) (int, *sym.Expr) {
	return search(lib(a.C, b.C), a, b, compare)
}

// BytealgCompare models internal/bytealg.Compare.
func BytealgCompare(lib func([]byte, []byte) int, a, b V[[]byte]) (int, *sym.Expr) {
	return search(lib(a.C, b.C), a, b, compare)
}

// StringsliteIndex models internal/stringslite.Index, which strings.Index
// and strings.Cut call.
func StringsliteIndex(lib func(string, string) int, s, substr V[string]) (int, *sym.Expr) {
	return search(lib(s.C, substr.C), s, substr, index)
}

// StringsliteIndexByte models internal/stringslite.IndexByte, which
// strings.IndexByte calls.
func StringsliteIndexByte(lib func(string, byte) int, s V[string], c V[byte]) (int, *sym.Expr) {
	return byteSearch(lib(s.C, c.C), s, c, index)
}

// StringsliteHasPrefix models internal/stringslite.HasPrefix.
func StringsliteHasPrefix(lib func(string, string) bool, s, prefix V[string]) (bool, *sym.Expr) {
	return pred(lib(s.C, prefix.C), s, prefix, hasPrefix)
}

// StringsliteHasSuffix models internal/stringslite.HasSuffix.
func StringsliteHasSuffix(lib func(string, string) bool, s, suffix V[string]) (bool, *sym.Expr) {
	return pred(lib(s.C, suffix.C), s, suffix, hasSuffix)
}

// StringsliteCut models internal/stringslite.Cut, which strings.Cut
// calls: before and after are s cut around the first occurrence of sep,
// whose offset is Index's term.
func StringsliteCut(lib func(string, string) (string, string, bool), s, sep V[string]) (before, after string, found bool, sb, sa, sf *sym.Expr) {
	before, after, found = lib(s.C, sep.C)
	if s.S == nil && sep.S == nil || !tracking() {
		return before, after, found, nil, nil, nil
	}
	b := st.b
	as, ap := agg(s), agg(sep)
	i := b.Convert(index(as, ap), 64, true)
	sf = b.Not(b.Eq(i, b.Const(^uint64(0), 64)))
	ls := aggLen(as)
	sb = b.String(b.Ite(sf, i, ls), aggBytes(as))
	lo := b.Ite(sf, b.Add(i, aggLen(ap)), ls)
	var out []*sym.Expr
	for k := range aggBytes(as) {
		out = append(out, byteAt(as, b.Add(lo, k64(k)), -1))
	}
	sa = b.String(b.Sub(ls, lo), out)
	return before, after, found, sb, sa, sf
}

// trimPrefix returns the terms of s with p cut from its front when s
// starts with p (has), and of has.
func trimPrefix(as, ap *sym.Expr) (rest, has *sym.Expr) {
	b := st.b
	has = hasPrefix(as, ap)
	lo := b.Ite(has, aggLen(ap), k64(0))
	var out []*sym.Expr
	for k := range aggBytes(as) {
		out = append(out, byteAt(as, b.Add(lo, k64(k)), -1))
	}
	return b.String(b.Sub(aggLen(as), lo), out), has
}

// trimSuffix returns the terms of s with p cut from its end when s ends
// with p (has), and of has. The bytes stay s's: only the length shrinks.
func trimSuffix(as, ap *sym.Expr) (rest, has *sym.Expr) {
	b := st.b
	has = hasSuffix(as, ap)
	ls := aggLen(as)
	return b.String(b.Ite(has, b.Sub(ls, aggLen(ap)), ls), aggBytes(as)), has
}

// cutModel is the shape of the four models below: lib's results and, when
// either operand is symbolic, the terms cut builds.
func cutModel(lib func(string, string) (string, bool), s, p V[string], cut func(as, ap *sym.Expr) (rest, has *sym.Expr)) (string, bool, *sym.Expr, *sym.Expr) {
	rest, found := lib(s.C, p.C)
	if s.S == nil && p.S == nil || !tracking() {
		return rest, found, nil, nil
	}
	sr, sf := cut(agg(s), agg(p))
	return rest, found, sr, sf
}

// StringsliteClone models internal/stringslite.Clone, which strings.Clone
// and strconv's errors call: the copy is the same string, so it keeps
// s's term (the library copies through unsafe, which would drop it).
func StringsliteClone(lib func(string) string, s V[string]) (string, *sym.Expr) {
	return lib(s.C), s.S
}

// StringsliteTrimPrefix models internal/stringslite.TrimPrefix, which
// strings.TrimPrefix calls.
func StringsliteTrimPrefix(lib func(string, string) string, s, prefix V[string]) (string, *sym.Expr) {
	r, _, sr, _ := cutModel(func(s, p string) (string, bool) { return lib(s, p), false }, s, prefix, trimPrefix)
	return r, sr
}

// StringsliteTrimSuffix models internal/stringslite.TrimSuffix, which
// strings.TrimSuffix calls.
func StringsliteTrimSuffix(lib func(string, string) string, s, suffix V[string]) (string, *sym.Expr) {
	r, _, sr, _ := cutModel(func(s, p string) (string, bool) { return lib(s, p), false }, s, suffix, trimSuffix)
	return r, sr
}

// StringsliteCutPrefix models internal/stringslite.CutPrefix, which
// strings.CutPrefix calls.
func StringsliteCutPrefix(lib func(string, string) (string, bool), s, prefix V[string]) (after string, found bool, sa, sf *sym.Expr) {
	return cutModel(lib, s, prefix, trimPrefix)
}

// StringsliteCutSuffix models internal/stringslite.CutSuffix, which
// strings.CutSuffix calls.
func StringsliteCutSuffix(lib func(string, string) (string, bool), s, suffix V[string]) (before string, found bool, sb, sf *sym.Expr) {
	return cutModel(lib, s, suffix, trimSuffix)
}
