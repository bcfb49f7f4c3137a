// This file implements range loops. The rewrite turns
//
//	for k, v := range x { body }
//
// into a three-clause loop over a cursor that holds x, evaluated once:
//
//	for it, k, v, sv := rt.IterBytes(site, x); it.Next(); { k, v, sv = it.At(); body }
//
// The init declares the loop's variables with zero values and every
// iteration assigns them before the body, so they are per-loop before
// go1.22 and per-iteration from go1.22, exactly as the range loop's own:
// a three-clause loop and a range loop change their variables' semantics
// at the same language version. The loop needs no range-over-func, so it
// compiles at every language version a module may declare; break,
// continue, labels, goto, defer and return are the compiler's own. Next
// records the loop condition "index < length" against the length's
// shadow, so that the solver can lengthen or shorten what is ranged over.

package rt

import (
	"unicode/utf8"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// rangeCheck records the implicit loop branch "i < len" of a range loop
// over the aggregate a.
func rangeCheck(site uint32, a *sym.Expr, i int, more bool) {
	hit(site, more)
	record(site, more, st.b.Cmp(sym.KULt, st.b.Const(uint64(i), 64), aggLen(a)))
}

// BytesIter is the cursor of a range loop over a byte slice. Its loop
// keeps the index in a variable of its own, which the rewrite declares
// beside the cursor and steps in the loop's post statement:
//
//	for it, k, v, sv, i := rt.IterBytes(site, x); it.More(i); i++ { k, v, sv = it.At(i); body }
//
// so that the index lives in a register: a cursor that stepped an index
// of its own in memory put a store and a load on every iteration's chain
// (a loop summing 16 bytes took 42 ns with it, 30 ns without). The cursor
// is a value of at most four words, which the compiler keeps in registers
// too, and its methods' concrete paths inline to one comparison.
type BytesIter struct {
	fast []byte      // the slice when the loop is concrete; nil when sym is set
	sym  *bytesShade // nil when the slice has no aggregate or the goroutine does not track
}

// bytesShade is the symbolic part of a BytesIter.
type bytesShade struct {
	b []byte
	a *sym.Expr // the slice's aggregate
	// was holds the bytes the aggregate describes: an element the body
	// has changed since (b[i+1] = x, through any slice of the array) no
	// longer has the aggregate's term, and is read concretely.
	was  []byte
	site uint32
}

// IterBytes starts a range loop over b, whose loop condition is site; it
// returns the cursor, the zero key, value and value shadow that the
// loop's init declares, and the index's start.
func IterBytes[T ~[]byte](site uint32, b V[T]) (BytesIter, int, byte, *sym.Expr, int) {
	return iterBytes(site, b.C, b.S, shadeBytes)
}

// iterBytes is IterBytes for every T.
func iterBytes(site uint32, b []byte, a *sym.Expr, slow func(uint32, *sym.Expr, []byte) *bytesShade) (BytesIter, int, byte, *sym.Expr, int) {
	if a != nil {
		if sh := slow(site, a, b); sh != nil {
			return BytesIter{sym: sh}, 0, 0, nil, 0
		}
	}
	return BytesIter{fast: b}, 0, 0, nil, 0
}

// shadeBytes returns the symbolic part of a loop over b with aggregate
// a, nil off the tracking goroutine.
func shadeBytes(site uint32, a *sym.Expr, b []byte) *bytesShade {
	if !tracking() {
		return nil
	}
	return &bytesShade{b: b, a: a, was: append([]byte(nil), b...), site: site}
}

// More reports whether the loop has an element at index i.
func (it BytesIter) More(i int) bool {
	if i < len(it.fast) {
		return true
	}
	return it.more(i, bytesMore)
}

// more is More's rare half, passed as a parameter for the inliner
// (ops.go says why).
func (it BytesIter) more(i int, slow func(*bytesShade, int) bool) bool { return slow(it.sym, i) }

// bytesMore is More at the end of a concrete loop, and at every index of
// a symbolic one, whose loop condition it records.
func bytesMore(sh *bytesShade, i int) bool {
	if sh == nil {
		return false
	}
	more := i < len(sh.b)
	rangeCheck(sh.site, sh.a, i, more)
	return more
}

// At returns index i, the element there and the element's shadow.
func (it BytesIter) At(i int) (int, byte, *sym.Expr) {
	if i < len(it.fast) {
		return i, it.fast[i], nil
	}
	return it.at(i, shadeAt)
}

// at is At's rare half, as more is More's.
func (it BytesIter) at(i int, slow func(*bytesShade, int) (int, byte, *sym.Expr)) (int, byte, *sym.Expr) {
	return slow(it.sym, i)
}

// shadeAt returns element i of a symbolic loop's slice with its term.
func shadeAt(sh *bytesShade, i int) (int, byte, *sym.Expr) {
	c := sh.b[i]
	s := byteAt(sh.a, nil, i)
	if s == nil || s.Kind == sym.KConst {
		return i, c, nil
	}
	if c != sh.was[i] {
		concretise(sh.site, CauseStale)
		return i, c, nil
	}
	return i, c, s
}

// PlainIter is the cursor of the concrete copy of a range loop over a
// byte slice. The rewrite emits such a loop twice when its body is small
// (instrument's rangeStmt):
//
//	if r := x; r.S == nil {
//		for it, k, v, sv, i := rt.PlainBytes(r); it.More(i); i++ { k, v, sv = it.At(i); body }
//	} else {
//		for it, k, v, sv, i := rt.IterBytes(site, r); it.More(i); i++ { k, v, sv = it.At(i); body }
//	}
//
// The two loops differ only in their cursor's type. A slice without a
// shadow records nothing at any element, so the copy's cursor reads the
// element alone and gives a constant nil shadow; the compiler then drops
// the body's shadow tests on it and the cursor's rare halves, whose calls
// made the loop's values spill to memory on every iteration (rt
// BenchmarkConcreteRatio: 42 ns against 27 with the copy). One test per
// loop instead of two per element.
type PlainIter []byte

// PlainBytes starts the concrete copy of a range loop over b, whose
// shadow is nil; it returns what IterBytes returns, with PlainIter as the
// cursor.
func PlainBytes[T ~[]byte](b V[T]) (PlainIter, int, byte, *sym.Expr, int) {
	return PlainIter(b.C), 0, 0, nil, 0
}

// More reports whether the loop has an element at index i.
func (it PlainIter) More(i int) bool { return i < len(it) }

// At returns index i, the element there and its shadow, nil.
func (it PlainIter) At(i int) (int, byte, *sym.Expr) { return i, it[i], nil }

// StringIter is the cursor of a range loop over a string: it decodes the
// string rune by rune, as the range loop does. It is a pointer, as
// BytesIter is.
type StringIter struct {
	s                     string
	a                     *sym.Expr
	i, next               int // index of the current rune, and of the one after it
	r                     rune
	rs                    *sym.Expr // the current rune's term
	site, ascii, validSeq uint32
}

// IterString starts a range loop over s. The loop condition is site; at
// each rune whose first byte is symbolic, ascii records "the byte is
// ASCII" and, for the other bytes, validSeq records in turn "the bytes
// here are a valid UTF-8 sequence of two bytes", "of three", "of four",
// up to the first that holds. Under those branches the rune's term is
// exact: its decoding for a valid sequence, utf8.RuneError (one byte)
// for an invalid one.
func IterString[T ~string](site, ascii, validSeq uint32, s V[T]) (*StringIter, int, rune, *sym.Expr) {
	return iterString(site, ascii, validSeq, string(s.C), s.S, keep)
}

// iterString is IterString for every T; keep is passed for the inliner
// (BytesIter.more).
func iterString(site, ascii, validSeq uint32, s string, a *sym.Expr, keep func(*sym.Expr) *sym.Expr) (*StringIter, int, rune, *sym.Expr) {
	it := &StringIter{s: s, site: site, ascii: ascii, validSeq: validSeq}
	if a != nil {
		it.a = keep(a)
	}
	return it, 0, 0, nil
}

// Next moves to the next rune and reports whether there is one.
func (it *StringIter) Next() bool { return it.step(stringNext) }

// step is Next: an ASCII byte of a concrete string here, the rest in slow
// (as BytesIter.more).
func (it *StringIter) step(slow func(*StringIter) bool) bool {
	if i := it.next; it.a == nil && i < len(it.s) && it.s[i] < utf8.RuneSelf {
		it.i, it.r, it.next = i, rune(it.s[i]), i+1
		return true
	}
	return slow(it)
}

// stringNext is Next for a symbolic string, a rune of more than one byte,
// or the end.
func stringNext(it *StringIter) bool {
	it.i = it.next
	if it.i >= len(it.s) {
		if it.a != nil {
			rangeCheck(it.site, it.a, it.i, false)
		}
		return false
	}
	r, w := utf8.DecodeRuneInString(it.s[it.i:])
	it.r, it.rs, it.next = r, nil, it.i+w
	if it.a != nil {
		rangeCheck(it.site, it.a, it.i, true)
		it.rs = it.runeTerm(r, w)
	}
	return true
}

// Key returns the index of the current rune, for a loop that reads no
// rune.
func (it *StringIter) Key() int { return it.i }

// At returns the current index, the rune and the rune's shadow.
func (it *StringIter) At() (int, rune, *sym.Expr) { return it.i, it.r, it.rs }

// runeTerm records the branches that fix the decoding of the rune r of
// w bytes at it.i and returns the rune's term, nil when it is constant.
// A rune whose bytes have no terms runs concretely (CauseRune).
func (it *StringIter) runeTerm(r rune, w int) *sym.Expr {
	b := st.b
	b0 := byteAt(it.a, nil, it.i)
	if b0 == nil || b0.Kind == sym.KConst {
		return nil
	}
	isASCII := r < utf8.RuneSelf && w == 1
	hit(it.ascii, isASCII)
	record(it.ascii, isASCII, ult(b0, k8(utf8.RuneSelf)))
	if isASCII {
		return b.ZExt(b0, 32)
	}
	var bs [utf8.UTFMax]*sym.Expr
	bs[0] = b0
	for k := 1; k < utf8.UTFMax; k++ {
		bs[k] = byteAt(it.a, nil, it.i+k)
	}
	// The tests of a decoder, in order: a valid sequence of two bytes,
	// else of three, else of four, else an invalid byte (RuneError, one
	// byte). Each is a branch with one condition whatever the input, so
	// that the solver's negation of one leads to the next.
	for n := 2; n <= utf8.UTFMax; n++ {
		cond, term := utf8Seq(bs, n, it.i, aggLen(it.a))
		if cond == nil {
			if it.i+n <= len(it.s) {
				// A byte of the string has no term in the aggregate.
				concretise(it.ascii, CauseRune)
				return nil
			}
			// The sequence would pass the string's end, and the
			// aggregate has no terms there: "it fits" is false here,
			// and its negation implies the test's.
			cond = ule(k64(it.i+n), aggLen(it.a))
		}
		valid := n == w
		hit(it.validSeq, valid)
		record(it.validSeq, valid, cond)
		if valid {
			return term
		}
	}
	return nil
}

// utf8Seq returns the condition that bs[:n] is a valid UTF-8 sequence of
// n bytes (2 to 4) that lies within the aggregate of length l from index
// i, and the term of the rune it encodes; both are nil when a byte of the
// sequence has no term.
func utf8Seq(bs [utf8.UTFMax]*sym.Expr, n, i int, l *sym.Expr) (cond, r *sym.Expr) {
	b := st.b
	for k := 0; k < n; k++ {
		if bs[k] == nil {
			return nil, nil
		}
	}
	eq := func(x *sym.Expr, c byte) *sym.Expr { return b.Eq(x, k8(c)) }
	cont := func(x *sym.Expr) *sym.Expr { return inRange(x, 0x80, 0xBF) }
	// The second byte's range depends on the first (utf8's accept ranges):
	// it excludes overlong encodings, surrogates and runes past MaxRune.
	var first, second *sym.Expr
	lead := func(mask byte) *sym.Expr { return b.ZExt(b.Bin(sym.KAnd, bs[0], k8(mask)), 32) }
	switch n {
	case 2:
		first, second = inRange(bs[0], 0xC2, 0xDF), cont(bs[1])
	case 3:
		first = inRange(bs[0], 0xE0, 0xEF)
		second = b.Ite(eq(bs[0], 0xE0), inRange(bs[1], 0xA0, 0xBF),
			b.Ite(eq(bs[0], 0xED), inRange(bs[1], 0x80, 0x9F), cont(bs[1])))
	default:
		first = inRange(bs[0], 0xF0, 0xF4)
		second = b.Ite(eq(bs[0], 0xF0), inRange(bs[1], 0x90, 0xBF),
			b.Ite(eq(bs[0], 0xF4), inRange(bs[1], 0x80, 0x8F), cont(bs[1])))
	}
	cond = b.And(first, second)
	for k := 2; k < n; k++ {
		cond = b.And(cond, cont(bs[k]))
	}
	cond = b.And(cond, ule(k64(i+n), l))
	masks := [...]byte{2: 0x1F, 3: 0x0F, 4: 0x07}
	r = lead(masks[n])
	for k := 1; k < n; k++ {
		r = b.Bin(sym.KOr, b.Shift(sym.KShl, r, b.Const(6, 32)), b.ZExt(b.Bin(sym.KAnd, bs[k], k8(0x3F)), 32))
	}
	return cond, r
}

// SliceIter is the cursor of a range loop over a slice other than a byte
// slice; the element is read by SliceAt and its kin, by kind.
type SliceIter[T any] struct {
	s    []T
	n    *sym.Expr // the shadow of len(s), nil when it has none
	i    int
	site uint32
}

// IterSlice starts a range loop over s, recording the loop condition at
// site against the shadow of s's length.
func IterSlice[T any](site uint32, s []T) (SliceIter[T], int, T, *sym.Expr) {
	var z T
	return SliceIter[T]{s: s, n: lenShadow(site, s), i: -1, site: site}, 0, z, nil
}

// Next moves to the next element and reports whether there is one.
func (it *SliceIter[T]) Next() bool {
	it.i++
	more := it.i < len(it.s)
	if it.n != nil {
		sliceCheck(it.site, it.n, it.i, more)
	}
	return more
}

// Key returns the current index, for a loop that reads no element.
func (it *SliceIter[T]) Key() int { return it.i }

func sliceCheck(site uint32, n *sym.Expr, i int, more bool) {
	hit(site, more)
	record(site, more, st.b.Cmp(sym.KULt, st.b.Const(uint64(i), 64), n))
}

// SliceAt returns the current index and element of a slice of scalars,
// with the element's shadow.
func SliceAt[T Scalar](it *SliceIter[T]) (int, T, *sym.Expr) {
	v := Load(it.site, &it.s[it.i])
	return it.i, v.C, v.S
}

// SliceAtString is SliceAt for a slice of strings.
func SliceAtString[T ~string](it *SliceIter[T]) (int, T, *sym.Expr) {
	v := LoadString(it.site, &it.s[it.i])
	return it.i, v.C, v.S
}

// SliceAtBytes is SliceAt for a slice of byte slices.
func SliceAtBytes[T ~[]byte](it *SliceIter[T]) (int, T, *sym.Expr) {
	v := LoadByteSlice(it.site, &it.s[it.i])
	return it.i, v.C, v.S
}

// SliceAtOrd is SliceAt for a slice of an ordered type parameter.
func SliceAtOrd[T Ordered](it *SliceIter[T]) (int, T, *sym.Expr) {
	v := LoadOrd(it.site, &it.s[it.i])
	return it.i, v.C, v.S
}

// SliceAtOf is SliceAt for elements the shadow memory does not hold as
// values (structs, arrays, pointers): the element is a plain copy, whose
// cells the loop body installs in its variable with Take.
func SliceAtOf[T any](it *SliceIter[T]) (int, T) {
	p := &it.s[it.i]
	if cells() {
		passArg(unsafe.Pointer(p), unsafe.Sizeof(*p))
	}
	return it.i, *p
}

// IntIter is the cursor of a range loop over an integer n.
type IntIter[I Integer] struct {
	i, n    I
	ns      *sym.Expr // n's shadow
	site    uint32
	started bool // Next has been called: it steps i from the second call on
}

// IterInt starts a range loop over the integer n, recording the loop
// condition "i < n" at site against n's shadow.
func IterInt[I Integer](site uint32, n V[I]) (*IntIter[I], I) { return iterInt(site, n, keep) }

// iterInt is IterInt, as iterString is IterString.
func iterInt[I Integer](site uint32, n V[I], keep func(*sym.Expr) *sym.Expr) (*IntIter[I], I) {
	it := &IntIter[I]{n: n.C, site: site}
	if n.S != nil {
		it.ns = keep(n.S)
	}
	return it, 0
}

// Next moves to the next value and reports whether there is one.
func (it *IntIter[I]) Next() bool { return it.step(intNext[I]) }

// step is Next, with its rare half passed as BytesIter.more is.
func (it *IntIter[I]) step(slow func(*IntIter[I], bool)) bool {
	if it.started {
		it.i++
	}
	it.started = true
	more := it.i < it.n
	if it.ns != nil {
		slow(it, more)
	}
	return more
}

// intNext records the loop condition of a loop over a symbolic integer.
func intNext[I Integer](it *IntIter[I], more bool) {
	hit(it.site, more)
	op := sym.KULt
	if _, signed := widthOf[I](); signed {
		op = sym.KSLt
	}
	record(it.site, more, st.b.Cmp(op, st.b.Const(uint64(it.i), it.ns.Width), it.ns))
}

// Key returns the current value.
func (it *IntIter[I]) Key() I { return it.i }
