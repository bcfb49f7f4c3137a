// This file keeps the terms of bytes written into a byte slice's backing
// array where no variable's aggregate can hold them: bytes copied into a
// field, an element, a callee's result or the spare capacity of a slice,
// and bytes stored into such a slice's elements. Each such byte gets a
// cell of the shadow memory at its own address, as a scalar in memory
// does. Addresses travel with the slice: whichever slice of that array is
// read later — through a field, a callee's result, a reslice up to the
// capacity — finds the cells of its bytes. A cell is trusted only while
// memory still holds the byte it was stored with, as every cell.
//
// An aggregate carried by a value (a variable's shadow, or a byte-slice
// cell) still wins when it is there and matches memory: it knows the
// length's term, which bytes alone do not.

package rt

import (
	"sync/atomic"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// bytesUsed is set once the execution has recorded a cell for a byte of a
// byte slice, and cleared by reset: byte-slice reads look for such cells
// only then, so that executions without them pay one atomic load.
var bytesUsed atomic.Bool

// sliceCellsUsed is set once the execution has recorded a symbolic cell
// of a byte slice (a field, an element), and cleared by reset: a clear of
// bytes then gives them constant cells, since such a cell trusts a byte
// while it keeps its value (rt/clear.go).
var sliceCellsUsed atomic.Bool

// byteCells reports whether the calling goroutine may find cells of bytes.
func byteCells() bool { return bytesUsed.Load() && tracking() }

// setByteCells records term(k) as the cell of dst[k] for k < n, after the
// bytes were written, all with one new seq; a nil or constant term
// records the byte's value as a constant, which the old cells over it
// must no longer say otherwise. Nothing is recorded while no byte has a
// cell and none of these is symbolic. The caller has checked that the
// goroutine tracks.
func setByteCells(dst []byte, n int, term func(k int) *sym.Expr) {
	if n == 0 {
		return
	}
	ts := make([]*sym.Expr, n)
	symbolic := false
	for k := range ts {
		if t := term(k); t != nil && t.Kind != sym.KConst {
			ts[k] = t
			symbolic = true
		}
	}
	if !symbolic && !bytesUsed.Load() {
		// No load looks at bytes' cells yet; other cells here are stale
		// by value.
		return
	}
	writeByteCells(dst, ts)
}

// writeByteCells records ts[k] as the cell of dst[k], all with one new
// seq; a nil term records the byte's value as a constant.
func writeByteCells(dst []byte, ts []*sym.Expr) {
	st.byteSeq++
	for k, t := range ts {
		p := &dst[k]
		if t == nil {
			// A constant cell, newer than the byte-slice cells over it.
			t = st.b.Const(uint64(*p), 8)
		}
		setCell(addr(p), unsafe.Pointer(p), cell{bits: uint64(*p), s: t, seq: st.byteSeq})
	}
	if !bytesUsed.Load() {
		bytesUsed.Store(true)
	}
}

// byteTerm returns the term of the byte *p from its cell (a constant for
// a byte last written with a value), nil when it has none, memory no
// longer holds the byte it was stored with, or the cell is not newer than
// after (the seq of a byte-slice cell over it).
func byteTerm(p *byte, after uint64) *sym.Expr {
	if len(st.mem) == 0 {
		return nil
	}
	c, ok := st.mem[addr(p)]
	if !ok || c.bits != uint64(*p) || c.seq <= after {
		return nil
	}
	return c.s
}

// cellsAgg returns the aggregate of b built from the cells of its bytes
// newer than seq, with base (the aggregate of a cell stored with the
// bytes old at seq, nil when none) standing for each byte that has no
// such cell and still holds its old value, and constants for the rest; nil when no byte and no length is
// symbolic. lost reports a symbolic byte of base dropped because memory
// changed under it without a cell saying to what. The caller has checked
// byteCells() or that base is not nil, and that the goroutine tracks.
func cellsAgg(b []byte, base *sym.Expr, old string, seq uint64) (a *sym.Expr, lost bool) {
	if len(b) > maxAggSplit {
		return nil, base != nil
	}
	var ob []*sym.Expr
	if base != nil {
		ob = aggBytes(base)
	}
	bs := make([]*sym.Expr, len(b))
	symbolic := false
	for k := range b {
		var t *sym.Expr
		if bytesUsed.Load() {
			t = byteTerm(&b[k], seq)
		}
		if t == nil && k < len(ob) && k < len(old) {
			if old[k] == b[k] {
				t = ob[k]
			} else if ob[k].Kind != sym.KConst {
				lost = true
			}
		}
		if t == nil || t.Kind == sym.KConst {
			t = st.b.Const(uint64(b[k]), 8)
		} else {
			symbolic = true
		}
		bs[k] = t
	}
	n := st.b.Const(uint64(len(b)), 64)
	if base != nil && len(old) == len(b) {
		n = aggLen(base)
	}
	if !symbolic && n.Kind == sym.KConst {
		return nil, lost
	}
	return st.b.String(n, bs), lost
}

// bytesView returns the bytes of a string or byte slice without copying
// them, for reading their addresses: the two headers begin alike, with the
// data pointer and the length. A string has cells only when it shares a
// byte slice's array (unsafe.String, as strings.Builder makes them).
func bytesView[U ~string | ~[]byte](x U) []byte {
	s := *(*string)(unsafe.Pointer(&x))
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// cellsOf returns the aggregate the cells of x's bytes give, nil when
// none is symbolic. The caller has checked that the goroutine tracks.
func cellsOf[U ~string | ~[]byte](x U) *sym.Expr {
	if !bytesUsed.Load() {
		return nil
	}
	a, _ := cellsAgg(bytesView(x), nil, "", 0)
	return a
}

// withCells returns v with the shadow its bytes' cells give when it has
// none of its own.
func withCells[T ~string | ~[]byte](v V[T]) V[T] {
	if v.S != nil || !byteCells() {
		return v
	}
	return V[T]{C: v.C, S: cellsOf(v.C)}
}

// CopyBytesTo performs copy(dst, src) into a byte slice that is not a
// shadowed variable (a field, an element, a callee's result, a slice of
// them): the copied bytes' terms go into the cells of dst's bytes, where
// any later slice of that array finds them, and the count is
// min(len(dst), len(src)) with its term when src's length is symbolic.
func CopyBytesTo[T ~[]byte, U ~string | ~[]byte](site uint32, dst T, src V[U]) V[int] {
	if !tracking() {
		return V[int]{C: copy(dst, src.C)}
	}
	sa := src.S
	if sa == nil {
		sa = cellsOf(src.C) // before the copy, which may overwrite src's bytes
	}
	var cp copied
	if sa != nil {
		cp = copyPlan(sa, []byte(dst), func(k int) *sym.Expr { return oldByte(&dst[k]) })
	}
	n := copy(dst, src.C)
	if sa == nil {
		if bytesUsed.Load() {
			dropByteCells([]byte(dst[:n]))
		}
		return V[int]{C: n}
	}
	setByteCells([]byte(dst), max(n, len(cp.old)), func(k int) *sym.Expr { return cp.byte(sa, k, n) })
	ls := aggLen(sa)
	if ls.Kind == sym.KConst {
		return V[int]{C: n}
	}
	ld := st.b.Const(uint64(len(dst)), 64)
	return V[int]{C: n, S: st.b.Ite(st.b.Cmp(sym.KULt, ld, ls), ld, ls)}
}

// copied is what a copy into a byte slice needs to give each destination
// byte its term when the source's length is symbolic: a longer source
// copies more, so a byte k past those this execution copied is the
// source's byte k when k < len(src) and the old byte otherwise, for every
// k the source's aggregate knows a byte of (an input keeps -maxlen of
// them).
type copied struct {
	ls  *sym.Expr   // the source's length term; nil when it is a constant
	old []*sym.Expr // the terms of the destination's bytes before the copy
}

// copyPlan returns the copied of a copy from the aggregate sa into dst,
// before the copy overwrites dst; old(k) is the term of dst[k] then.
func copyPlan(sa *sym.Expr, dst []byte, old func(k int) *sym.Expr) copied {
	ls := aggLen(sa)
	if ls.Kind == sym.KConst {
		return copied{}
	}
	m := min(len(dst), len(aggBytes(sa)))
	cp := copied{ls: ls, old: make([]*sym.Expr, m)}
	for k := range cp.old {
		cp.old[k] = old(k)
	}
	return cp
}

// byte returns the term of destination byte k after n bytes were copied
// from the aggregate sa (nil: unknown).
func (cp copied) byte(sa *sym.Expr, k, n int) *sym.Expr {
	t := byteAt(sa, nil, k)
	if k < n {
		// Copied at this input: the source's byte, as before copies
		// past n were tracked (a shorter source there is left to the
		// branches on its length).
		return t
	}
	if cp.ls == nil || k >= len(cp.old) {
		return nil // not reached: a copy of a constant length sets n bytes
	}
	if t == nil {
		return cp.old[k]
	}
	return st.b.Ite(st.b.Cmp(sym.KULt, st.b.Const(uint64(k), 64), cp.ls), t, cp.old[k])
}

// oldByte returns the term of the byte *p from its cell, or its value as a
// constant.
func oldByte(p *byte) *sym.Expr {
	if t := byteTerm(p, 0); t != nil {
		return t
	}
	return st.b.Const(uint64(*p), 8)
}

// StoreByteAt performs b[i] = x on a byte slice that is not a shadowed
// variable: x's term goes into the cell of the byte. The bounds check is
// recorded at site when i is symbolic, against b's length as it is, and
// the store itself lands at the concrete index only (CauseIndex): the
// other bytes' terms may live in the cell of a slice over them, which
// this store does not know, so it cannot split itself over them as
// StoreBytes and StoreIndex do.
func StoreByteAt[T ~[]byte, I Integer](site uint32, b T, i V[I], x V[byte]) {
	if x.S == nil && i.S == nil && !bytesUsed.Load() || !tracking() {
		b[i.C] = x.C
		return
	}
	if idx := index64(i); idx != nil {
		in := i.C >= 0 && uint64(i.C) < uint64(len(b))
		boundsCheck(site, idx, st.b.Const(uint64(len(b)), 64), in)
		if in && len(b) > 1 {
			concretise(site, CauseIndex)
		}
	}
	b[i.C] = x.C // panics here when out of range, as the original does
	setByteCells([]byte(b[i.C:]), 1, func(int) *sym.Expr { return x.S })
}

// dropByteCells drops the cells of b's bytes, just overwritten with
// concrete values.
func dropByteCells(b []byte) {
	setByteCells(b, len(b), func(int) *sym.Expr { return nil })
}

// allConst reports whether an aggregate's length and bytes are constants.
func allConst(a *sym.Expr) bool {
	for _, x := range a.Args {
		if x.Kind != sym.KConst {
			return false
		}
	}
	return true
}

// symbolicOrNil returns t, or nil when t is a constant.
func symbolicOrNil(t *sym.Expr) *sym.Expr {
	if t == nil || t.Kind == sym.KConst {
		return nil
	}
	return t
}

// UnsafeString returns unsafe.String(unsafe.SliceData(b), n), the string
// over b's first n bytes (strings.Builder's String), with their terms and
// n's as its length. unsafe.String checks nothing, so nothing is recorded.
func UnsafeString[T ~[]byte, I Integer](b V[T], n V[I]) V[string] {
	r := unsafe.String(unsafe.SliceData(b.C), n.C)
	if b.S == nil && n.S == nil && !bytesUsed.Load() || !tracking() {
		return V[string]{C: r}
	}
	a := agg(V[[]byte]{C: unsafe.Slice(unsafe.SliceData(b.C), int(n.C)), S: b.S})
	if b.S == nil && n.S == nil && allConst(a) {
		return V[string]{C: r}
	}
	// Bytes past n stay in the aggregate when n is symbolic: a longer
	// input reads them, as an input's own aggregate keeps -maxlen bytes.
	bs := aggBytes(a)
	ln := index64(n)
	if ln == nil {
		ln = st.b.Const(uint64(n.C), 64)
		bs = bs[:min(int(n.C), len(bs))]
	}
	return V[string]{C: r, S: st.b.String(ln, bs)}
}

// UnsafeBytes returns unsafe.Slice(unsafe.StringData(s), n), the byte
// slice over s's first n bytes without a copy (the reverse of
// UnsafeString), with their terms and n's as its length: len(s) as n
// keeps s's own length term. unsafe.Slice checks only n >= 0, which a
// length never fails, so nothing is recorded.
func UnsafeBytes[T ~string, I Integer](s V[T], n V[I]) V[[]byte] {
	r := unsafe.Slice(unsafe.StringData(string(s.C)), n.C)
	if s.S == nil && n.S == nil && !bytesUsed.Load() || !tracking() {
		return V[[]byte]{C: r}
	}
	a := agg(s) // s's shadow, or the cells of its bytes
	if s.S == nil && n.S == nil && allConst(a) {
		return V[[]byte]{C: r}
	}
	// As in UnsafeString: bytes past n stay when n is symbolic.
	bs := aggBytes(a)
	ln := index64(n)
	if ln == nil {
		ln = st.b.Const(uint64(n.C), 64)
		bs = bs[:min(int(n.C), len(bs))]
	}
	return V[[]byte]{C: r, S: st.b.String(ln, bs)}
}

// maxFreshen bounds the bytes of a slice expression's result that fresh
// looks up: one cell lookup each, on every slicing.
const maxFreshen = 512

// fresh returns the aggregate a of the byte slice b with each constant
// byte that has a symbolic cell replaced by the cell's term. An aggregate
// is made when a slice is assigned and is not told of writes through other
// slices of the same array since: a reader filling the part of a buffer
// whose aggregate was taken while it was still empty (a tokenizer's
// buffer resliced to its capacity, then read into) writes cells, and the
// buffer's aggregate keeps the zero bytes. A symbolic cell holds the byte
// memory still holds (byteTerm checks), so, as a store of an equal
// constant keeps a cell's term, it stands for the constant. Results
// longer than maxFreshen are left as they are; IndexBytes looks at the
// one byte it reads.
func fresh(a *sym.Expr, b []byte) *sym.Expr {
	if a == nil || len(b) > maxFreshen || !byteCells() {
		return a
	}
	bs := aggBytes(a)
	var out []*sym.Expr
	for k := 0; k < min(len(bs), len(b)); k++ {
		if bs[k].Kind != sym.KConst {
			continue
		}
		t := symbolicOrNil(byteTerm(&b[k], 0))
		if t == nil {
			continue
		}
		if out == nil {
			out = append([]*sym.Expr(nil), bs...)
		}
		out[k] = t
	}
	if out == nil {
		return a
	}
	return st.b.String(aggLen(a), out)
}
