// This file implements strings and byte slices. Their shadow is a
// sym.KString aggregate: a 64-bit length term and one 8-bit term per known
// byte. An input has as many byte terms as its maximum length, so indexing
// past the current length stays exact; a symbolic index becomes an
// if-then-else chain over the known bytes (a case split rather than an
// array theory: bytes are few, and the solver sees plain bit-vectors).

package rt

import (
	"github.com/gocolic/gocolic/sym"
)

// aggOf returns the constant aggregate of the bytes of s.
func aggOf(s string) *sym.Expr {
	bs := make([]*sym.Expr, len(s))
	for i := 0; i < len(s); i++ {
		bs[i] = st.b.Const(uint64(s[i]), 8)
	}
	return st.b.String(st.b.Const(uint64(len(s)), 64), bs)
}

// agg returns the aggregate of a string or byte slice: its shadow, or the
// constant aggregate of its bytes when it is concrete.
func agg[T ~string | ~[]byte](v V[T]) *sym.Expr {
	if v.S != nil {
		return v.S
	}
	if a := cellsOf(v.C); a != nil {
		return a
	}
	return aggOf(string(v.C))
}

func aggLen(a *sym.Expr) *sym.Expr     { return a.Args[0] }
func aggBytes(a *sym.Expr) []*sym.Expr { return a.Args[1:] }

// byteAt returns byte idx of the aggregate a, where the concrete index is
// k. A symbolic index selects among the known bytes; nil means unknown.
func byteAt(a, idx *sym.Expr, k int) *sym.Expr {
	bs := aggBytes(a)
	if idx == nil || idx.Kind == sym.KConst {
		if k >= 0 && k < len(bs) {
			return bs[k]
		}
		return nil
	}
	if len(bs) == 0 {
		return nil
	}
	r := bs[len(bs)-1]
	for i := len(bs) - 2; i >= 0; i-- {
		r = st.b.Ite(st.b.Eq(idx, st.b.Const(uint64(i), 64)), bs[i], r)
	}
	return r
}

// index64 converts an index value to a 64-bit term, or nil when concrete.
func index64[I Integer](i V[I]) *sym.Expr {
	if i.S == nil {
		return nil
	}
	_, signed := widthOf[I]()
	return st.b.Convert(i.S, 64, signed)
}

// boundsCheck records the implicit branch "0 <= i < n" at site, as one
// unsigned comparison; its false side panics.
func boundsCheck(site uint32, i, n *sym.Expr, ok bool) {
	record(site, ok, st.b.Cmp(sym.KULt, i, n))
}

func indexAgg[I Integer](site uint32, a *sym.Expr, i V[I], n int, c byte, symbolic bool) V[byte] {
	idx := index64(i)
	if !symbolic && idx == nil {
		return V[byte]{C: c}
	}
	k := int(i.C)
	in := uint64(i.C) < uint64(n)
	if _, signed := widthOf[I](); signed && i.C < 0 {
		in = false
	}
	iterm := idx
	if iterm == nil {
		iterm = st.b.Const(uint64(int64(i.C)), 64)
	}
	boundsCheck(site, iterm, aggLen(a), in)
	if !in {
		return V[byte]{} // unreachable: the caller's index expression panics
	}
	s := byteAt(a, idx, k)
	if s == nil || s.Kind == sym.KConst {
		return V[byte]{C: c}
	}
	return V[byte]{C: c, S: s}
}

// LenString returns len(s).
func LenString[T ~string](s V[T]) V[int] {
	if s.S == nil || !tracking() {
		return V[int]{C: len(s.C)}
	}
	return V[int]{C: len(s.C), S: aggLen(s.S)}
}

// LenBytes returns len(b).
func LenBytes[T ~[]byte](b V[T]) V[int] {
	if b.S == nil || !tracking() {
		return V[int]{C: len(b.C)}
	}
	return V[int]{C: len(b.C), S: aggLen(b.S)}
}

// IndexString returns s[i]; site is the implicit bounds check.
func IndexString[T ~string, I Integer](site uint32, s V[T], i V[I]) V[byte] {
	if s.S == nil && i.S == nil || !tracking() {
		return V[byte]{C: s.C[i.C]}
	}
	var c byte
	if i.C >= 0 && uint64(i.C) < uint64(len(s.C)) {
		c = s.C[i.C]
	}
	r := indexAgg(site, agg(s), i, len(s.C), c, s.S != nil)
	_ = s.C[i.C] // the original's panic, after the branch is recorded
	return r
}

// IndexBytes returns b[i]; site is the implicit bounds check.
func IndexBytes[T ~[]byte, I Integer](site uint32, b V[T], i V[I]) V[byte] {
	if b.S == nil && i.S == nil || !tracking() {
		if b.S == nil && i.S == nil && byteCells() {
			return V[byte]{C: b.C[i.C], S: symbolicOrNil(byteTerm(&b.C[i.C], 0))}
		}
		return V[byte]{C: b.C[i.C]}
	}
	var c byte
	if i.C >= 0 && uint64(i.C) < uint64(len(b.C)) {
		c = b.C[i.C]
	}
	r := indexAgg(site, agg(b), i, len(b.C), c, b.S != nil)
	_ = b.C[i.C]
	if r.S == nil && i.S == nil && byteCells() {
		// The slice's aggregate may be older than a write through
		// another slice of its array (fresh).
		r.S = symbolicOrNil(byteTerm(&b.C[i.C], 0))
	}
	return r
}

// StoreBytes performs (*p)[i] = x and updates the shadow *sp of the slice
// variable; site is the implicit bounds check. Other slices sharing the
// backing array do not see the new shadow byte (a known limitation). On a
// goroutine that does not track, the slice becomes concrete.
func StoreBytes[T ~[]byte, I Integer](site uint32, p *T, sp **sym.Expr, i V[I], x V[byte]) {
	b := *p
	if *sp == nil && i.S == nil && x.S == nil && !bytesUsed.Load() {
		b[i.C] = x.C
		return
	}
	if !tracking() {
		b[i.C] = x.C
		*sp = nil
		return
	}
	a := agg(V[T]{C: b, S: *sp})
	in := i.C >= 0 && uint64(i.C) < uint64(len(b))
	idx := index64(i)
	iterm := idx
	if iterm == nil {
		iterm = st.b.Const(uint64(int64(i.C)), 64)
	}
	boundsCheck(site, iterm, aggLen(a), in)
	b[i.C] = x.C // panics here when out of range, as the original does
	setByteCells([]byte(b[i.C:]), 1, func(int) *sym.Expr { return x.S })
	xs := x.S
	if xs == nil {
		xs = st.b.Const(uint64(x.C), 8)
	}
	bs := append([]*sym.Expr(nil), aggBytes(a)...)
	if idx == nil {
		if int(i.C) < len(bs) {
			bs[i.C] = xs
		}
	} else {
		for k := range bs {
			bs[k] = st.b.Ite(st.b.Eq(idx, st.b.Const(uint64(k), 64)), xs, bs[k])
		}
	}
	*sp = st.b.String(aggLen(a), bs)
}

// sliceAgg returns the aggregate of a[lo:hi] where the concrete bounds are
// clo and chi, recording the implicit bounds checks at site.
func sliceAgg(site uint32, a, lo, hi *sym.Expr, clo, chi, n int) *sym.Expr {
	if lo == nil {
		lo = st.b.Const(uint64(clo), 64)
	}
	if hi == nil {
		hi = st.b.Const(uint64(chi), 64)
	}
	okHi := chi >= 0 && chi <= n
	record(site, okHi, st.b.Cmp(sym.KULe, hi, aggLen(a)))
	if !okHi {
		return nil
	}
	okLo := clo >= 0 && clo <= chi
	record(site, okLo, st.b.Cmp(sym.KULe, lo, hi))
	if !okLo {
		return nil
	}
	bs := aggBytes(a)
	if lo.Kind != sym.KConst {
		// Each byte at a symbolic offset is a case split over all of a.
		if cost := (len(bs) - min(clo, len(bs))) * len(bs); st.splits+cost <= maxSplitTerms {
			st.splits += cost
			var out []*sym.Expr
			for k := 0; clo+k < len(bs); k++ {
				out = append(out, byteAt(a, st.b.Add(lo, st.b.Const(uint64(k), 64)), clo+k))
			}
			return st.b.String(st.b.Sub(hi, lo), out)
		}
		concretise(site, CauseIndex)
		lo = st.b.Const(uint64(clo), 64)
	}
	var out []*sym.Expr
	if clo <= len(bs) {
		out = bs[clo:]
	}
	return st.b.String(st.b.Sub(hi, lo), out)
}

// maxSplitTerms bounds the terms that slicing at symbolic offsets may make
// in one execution (sliceAgg). Every byte of s[lo:hi] at a symbolic lo is
// a case split over the bytes of s, so one slice costs the square of s's
// length; a lexer that takes input[pos:] at every character, pos being
// symbolic after a decoded rune's width, costs its cube: 0.8 s per
// execution on a 65-byte TOML document. Past the bound an offset is
// taken at its concrete value (CauseIndex); the bytes keep their terms.
const maxSplitTerms = 1 << 15

// SliceString returns s[lo:hi]; site is the implicit bounds check.
func SliceString[T ~string, I, J Integer](site uint32, s V[T], lo V[I], hi V[J]) V[T] {
	if s.S == nil && lo.S == nil && hi.S == nil || !tracking() {
		return V[T]{C: s.C[lo.C:hi.C]}
	}
	a := sliceAgg(site, agg(s), index64(lo), index64(hi), int(lo.C), int(hi.C), len(s.C))
	return V[T]{C: s.C[lo.C:hi.C], S: a}
}

// SliceStringFrom returns s[lo:].
func SliceStringFrom[T ~string, I Integer](site uint32, s V[T], lo V[I]) V[T] {
	return SliceString(site, s, lo, LenString(s))
}

// SliceBytes returns b[lo:hi]; site is the implicit bounds check, against
// len(b)'s term when b has no spare capacity, else against cap(b), which
// has no term (sliceCap).
func SliceBytes[T ~[]byte, I, J Integer](site uint32, b V[T], lo V[I], hi V[J]) V[T] {
	if b.S == nil && lo.S == nil && hi.S == nil || !tracking() {
		return V[T]{C: b.C[lo.C:hi.C]}
	}
	r := b.C[lo.C:hi.C]
	if cap(b.C) > len(b.C) {
		// The bound is the capacity, and bytes past the length may have
		// cells (a copy into the spare capacity).
		return V[T]{C: r, S: fresh(sliceCap(site, b, index64(lo), index64(hi), int(lo.C), int(hi.C)), []byte(r))}
	}
	a := sliceAgg(site, agg(b), index64(lo), index64(hi), int(lo.C), int(hi.C), len(b.C))
	return V[T]{C: r, S: fresh(a, []byte(r))}
}

// sliceCap returns the aggregate of r = b[lo:hi] when cap(b) > len(b): the
// bytes up to len(b) from b's aggregate, the rest from their cells (the
// spare capacity a copy filled) or their values, its length hi - lo. The
// bounds check is against the capacity, which has no term. A byte past
// len(b) without a cell was written by nothing that had a term for it (a
// write that dropped one counted it there), so its value is its term.
func sliceCap[T ~[]byte](site uint32, b V[T], lo, hi *sym.Expr, clo, chi int) *sym.Expr {
	return sliceAgg(site, capAgg(b, chi), lo, hi, clo, chi, cap(b.C))
}

// capAgg returns the aggregate of b's first n bytes up to its capacity
// (n <= cap(b)), as sliceCap reads them, with cap(b) as its length.
func capAgg[T ~[]byte](b V[T], n int) *sym.Expr {
	a := agg(b)
	full := b.C[:n]
	bs := make([]*sym.Expr, 0, n)
	ab := aggBytes(a)
	for k := 0; k < n; k++ {
		if k < len(b.C) && k < len(ab) {
			bs = append(bs, ab[k])
			continue
		}
		var t *sym.Expr
		if byteCells() {
			t = byteTerm(&full[k], 0)
		}
		if t == nil {
			t = st.b.Const(uint64(full[k]), 8)
		}
		bs = append(bs, t)
	}
	return st.b.String(st.b.Const(uint64(cap(b.C)), 64), bs)
}

// SliceBytes3 returns b[lo:hi:mx]; site is the implicit bounds check
// 0 <= lo <= hi <= mx <= cap(b), recorded in the order Go checks it:
// mx against cap(b) (len(b)'s term when b has no spare capacity, else
// the capacity, which has no term, as in SliceBytes), then hi against mx
// and lo against hi. The result keeps the bytes' terms and hi - lo as its
// length; its capacity, mx - lo, has no term (a three-index slice does
// not record one, like an append that moved the bytes).
func SliceBytes3[T ~[]byte, I, J, K Integer](site uint32, b V[T], lo V[I], hi V[J], mx V[K]) V[T] {
	if b.S == nil && lo.S == nil && hi.S == nil && mx.S == nil || !tracking() {
		return V[T]{C: b.C[lo.C:hi.C:mx.C]}
	}
	cm := int(mx.C)
	in := uint64(mx.C) <= uint64(cap(b.C)) // a negative mx is past it too
	// b's aggregate up to mx, whose length is the term of cap(b).
	a := agg(b)
	if cap(b.C) > len(b.C) {
		a = capAgg(b, min(max(cm, 0), cap(b.C)))
	}
	mt := index64(mx)
	if mt == nil {
		mt = st.b.Const(uint64(int64(mx.C)), 64)
	}
	record(site, in, st.b.Cmp(sym.KULe, mt, aggLen(a)))
	if !in {
		return V[T]{C: b.C[lo.C:hi.C:mx.C]} // panics, as the original does
	}
	s := sliceAgg(site, st.b.String(mt, aggBytes(a)), index64(lo), index64(hi), int(lo.C), int(hi.C), cm)
	r := b.C[lo.C:hi.C:mx.C]
	return V[T]{C: r, S: fresh(s, []byte(r))}
}

// SliceBytesFrom returns b[lo:].
func SliceBytesFrom[T ~[]byte, I Integer](site uint32, b V[T], lo V[I]) V[T] {
	return SliceBytes(site, b, lo, LenBytes(b))
}

// Concat returns a + b on strings.
func Concat[T ~string](a, b V[T]) V[T] {
	r := a.C + b.C
	if a.S == nil && b.S == nil || !tracking() {
		return V[T]{C: r}
	}
	return V[T]{C: r, S: concatAgg(agg(a), agg(b), len(a.C))}
}

// concatAgg returns the aggregate of x followed by y, where x is ca bytes
// long at this input.
func concatAgg(x, y *sym.Expr, ca int) *sym.Expr {
	lx, ly := aggLen(x), aggLen(y)
	var out []*sym.Expr
	if lx.Kind == sym.KConst {
		out = append(append(out, aggBytes(x)[:min(int(lx.Val), len(aggBytes(x)))]...), aggBytes(y)...)
	} else {
		n := len(aggBytes(x)) + len(aggBytes(y))
		for k := 0; k < n; k++ {
			kk := st.b.Const(uint64(k), 64)
			fromY := byteAt(y, st.b.Sub(kk, lx), k-ca)
			fromX := byteAt(x, kk, k)
			switch {
			case fromX == nil && fromY == nil:
				out = append(out, st.b.Const(0, 8))
			case fromX == nil:
				out = append(out, fromY)
			case fromY == nil:
				out = append(out, fromX)
			default:
				out = append(out, st.b.Ite(st.b.Cmp(sym.KULt, kk, lx), fromX, fromY))
			}
		}
	}
	return st.b.String(st.b.Add(lx, ly), out)
}

// aggEq returns the condition that two aggregates hold equal strings.
func aggEq(x, y *sym.Expr) *sym.Expr {
	lx, ly := aggLen(x), aggLen(y)
	c := st.b.Eq(lx, ly)
	bx, by := aggBytes(x), aggBytes(y)
	n := min(len(bx), len(by))
	if lx.Kind == sym.KConst {
		n = min(n, int(lx.Val))
	} else if ly.Kind == sym.KConst {
		n = min(n, int(ly.Val))
	}
	for k := 0; k < n; k++ {
		eq := st.b.Eq(bx[k], by[k])
		if lx.Kind != sym.KConst && ly.Kind != sym.KConst {
			eq = st.b.Or(st.b.Cmp(sym.KULe, lx, st.b.Const(uint64(k), 64)), eq)
		}
		c = st.b.And(c, eq)
	}
	return c
}

// aggLess returns the condition that x sorts before y, byte-wise.
func aggLess(x, y *sym.Expr) *sym.Expr {
	lx, ly := aggLen(x), aggLen(y)
	bx, by := aggBytes(x), aggBytes(y)
	n := min(len(bx), len(by))
	// Past the known bytes, only a shorter x can still be less.
	nn := st.b.Const(uint64(n), 64)
	r := st.b.And(st.b.Eq(lx, nn), st.b.Cmp(sym.KULt, nn, ly))
	for k := n - 1; k >= 0; k-- {
		kk := st.b.Const(uint64(k), 64)
		more := st.b.Or(
			st.b.Cmp(sym.KULt, bx[k], by[k]),
			st.b.And(st.b.Eq(bx[k], by[k]), r))
		r = st.b.And(st.b.Cmp(sym.KULt, kk, ly),
			st.b.Or(st.b.Eq(lx, kk), st.b.And(st.b.Cmp(sym.KULt, kk, lx), more)))
	}
	return r
}

func strCmp[T ~string](r bool, a, b V[T], f func(x, y *sym.Expr) *sym.Expr) V[bool] {
	if a.S == nil && b.S == nil || !tracking() {
		return V[bool]{C: r}
	}
	return V[bool]{C: r, S: f(agg(a), agg(b))}
}

// EqString returns a == b.
func EqString[T ~string](a, b V[T]) V[bool] { return strCmp(a.C == b.C, a, b, aggEq) }

// NeString returns a != b.
func NeString[T ~string](a, b V[T]) V[bool] { return Not(EqString(a, b)) }

// LtString returns a < b.
func LtString[T ~string](a, b V[T]) V[bool] { return strCmp(a.C < b.C, a, b, aggLess) }

// GtString returns a > b.
func GtString[T ~string](a, b V[T]) V[bool] { return LtString(b, a) }

// LeString returns a <= b.
func LeString[T ~string](a, b V[T]) V[bool] { return Not(LtString(b, a)) }

// GeString returns a >= b.
func GeString[T ~string](a, b V[T]) V[bool] { return Not(LtString(a, b)) }

// StringOfBytes returns the conversion To(b) of a byte slice to a string.
func StringOfBytes[To ~string, From ~[]byte](b V[From]) V[To] {
	if b.S == nil && byteCells() {
		return V[To]{C: To(b.C), S: cellsOf(b.C)}
	}
	return V[To]{C: To(b.C), S: keep(b.S)}
}

// BytesOfString returns the conversion To(s) of a string to a byte slice.
func BytesOfString[To ~[]byte, From ~string](s V[From]) V[To] {
	return V[To]{C: To(s.C), S: keep(s.S)}
}

// ConvString returns the conversion To(s) between string types.
func ConvString[To, From ~string](s V[From]) V[To] { return V[To]{C: To(s.C), S: keep(s.S)} }

// ConvBytes returns the conversion To(b) between byte-slice types.
func ConvBytes[To, From ~[]byte](b V[From]) V[To] { return V[To]{C: To(b.C), S: keep(b.S)} }

// The code points of string(r) (StringOfRune).
const (
	maxRune   = 0x10FFFF // unicode.MaxRune
	runeError = 0xFFFD   // utf8.RuneError
)

// StringOfRune returns the conversion To(r) of an integer to a string:
// the UTF-8 encoding of r as a code point, "\uFFFD" when r is none
// (negative, a surrogate half, past U+10FFFF). The term has a symbolic
// length, 1 to 4 bytes, so that a lexer's string(r) keeps r (gobwas/glob's
// lexer made each pattern concrete there).
func StringOfRune[To ~string, From Integer](r V[From]) V[To] {
	_, signed := widthOf[From]()
	c := To(string(runeValue(r.C, signed)))
	if r.S == nil || !tracking() {
		return V[To]{C: c}
	}
	return V[To]{C: c, S: runeString(st.b.Convert(r.S, 64, signed))}
}

// runeValue is the code point that string(x) encodes: x, or runeError
// when x is none. Surrogate halves are left to the conversion of the
// rune, which encodes them as runeError.
func runeValue[I Integer](x I, signed bool) rune {
	if signed {
		if v := int64(x); v >= 0 && v <= maxRune {
			return rune(v)
		}
		return runeError
	}
	if v := uint64(x); v <= maxRune {
		return rune(v)
	}
	return runeError
}

// runeString is the aggregate of string(r) for the 64-bit term v of r,
// sign- or zero-extended: a negative value is past maxRune unsigned.
func runeString(v *sym.Expr) *sym.Expr {
	b := st.b
	surrogate := b.And(ule(k64(0xD800), v), ule(v, k64(0xDFFF)))
	valid := b.And(ule(v, k64(maxRune)), b.Not(surrogate))
	cp := b.Trunc(b.Ite(valid, v, k64(runeError)), 32)
	k32 := func(n uint32) *sym.Expr { return b.Const(uint64(n), 32) }
	below := func(n uint32) *sym.Expr { return b.Cmp(sym.KULt, cp, k32(n)) }
	// bits is the byte mark | (cp >> shift) & mask.
	bits := func(mark uint8, shift, mask uint32) *sym.Expr {
		x := b.Bin(sym.KAnd, b.Bin(sym.KLShr, cp, k32(shift)), k32(mask))
		return b.Bin(sym.KOr, b.Trunc(x, 8), k8(mark))
	}
	one, two, three := below(0x80), below(0x800), below(0x10000)
	bytes := []*sym.Expr{
		b.Ite(one, b.Trunc(cp, 8), b.Ite(two, bits(0xC0, 6, 0x1F), b.Ite(three, bits(0xE0, 12, 0x0F), bits(0xF0, 18, 0x07)))),
		b.Ite(two, bits(0x80, 0, 0x3F), b.Ite(three, bits(0x80, 6, 0x3F), bits(0x80, 12, 0x3F))),
		b.Ite(three, bits(0x80, 0, 0x3F), bits(0x80, 6, 0x3F)),
		bits(0x80, 0, 0x3F),
	}
	n := b.Ite(one, k64(1), b.Ite(two, k64(2), b.Ite(three, k64(3), k64(4))))
	return b.String(n, bytes)
}
