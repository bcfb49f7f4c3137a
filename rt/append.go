// This file implements append and copy on tracked slices: the elements'
// cells follow the values into the result (or the destination), and the
// length of the result has a term when the operands' lengths have.

package rt

import (
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// Append returns append(s, xs...) for a slice of scalars, storing the
// shadows of the new elements in the result's cells.
func Append[S ~[]T, T Scalar](site uint32, s S, xs ...V[T]) S {
	return appendEach(site, s, xs, Store[T])
}

// AppendString is Append for a slice of strings.
func AppendString[S ~[]T, T ~string](site uint32, s S, xs ...V[T]) S {
	return appendEach(site, s, xs, StoreString[T])
}

// appendEach appends the concrete values of xs to s and stores each with
// store, which records its cell.
func appendEach[S ~[]T, T any](site uint32, s S, xs []V[T], store func(V[T], *T)) S {
	cs := make([]T, len(xs))
	for i, x := range xs {
		cs[i] = x.C
	}
	r := append(s, cs...)
	if !tracking() {
		return r
	}
	followCells(s, r)
	for i, x := range xs {
		if x.S != nil || memUsed.Load() {
			store(x, &r[len(s)+i])
		}
	}
	appendLen(site, s, r, nil, len(xs))
	return r
}

// AppendSlice returns append(s, t...): the cells of s's elements (when
// the result has a new backing array) and of t's follow them.
func AppendSlice[S ~[]T, T any](site uint32, s, t S) S {
	r := append(s, t...)
	if !tracking() {
		return r
	}
	followCells(s, r)
	if len(t) > 0 && cells() {
		var z T
		copyMem(unsafe.Pointer(&r[len(s)]), uintptr(unsafe.Pointer(&t[0])), uintptr(len(t))*unsafe.Sizeof(z))
	}
	appendLen(site, s, r, lenShadow(site, t), len(t))
	return r
}

// AppendValue returns append(s, x) for one value of any type (a struct
// or array literal, whose tracked parts the rewrite stores into the new
// element afterwards, at Last(result)): the cells of s's elements follow
// them when the array moved, and the length has a term when s's has.
func AppendValue[S ~[]T, T any](site uint32, s S, x T) S {
	r := append(s, x)
	if !tracking() {
		return r
	}
	followCells(s, r)
	if cells() {
		// The new element's old cells (spare capacity written before)
		// are stale: the value is a literal's.
		var z T
		dropCells(uintptr(unsafe.Pointer(&r[len(s)])), unsafe.Sizeof(z))
	}
	appendLen(site, s, r, nil, 1)
	return r
}

// Last returns the address of s's last element, where the rewrite stores
// the shadows of a literal just appended (AppendValue).
func Last[S ~[]T, T any](s S) *T { return &s[len(s)-1] }

// followCells copies the cells of s's elements to r when append moved
// them to a new backing array.
func followCells[S ~[]T, T any](s, r S) {
	if len(s) == 0 || !cells() || unsafe.SliceData(s) == unsafe.SliceData(r) {
		return
	}
	var z T
	copyMem(unsafe.Pointer(unsafe.SliceData(r)), uintptr(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s))*unsafe.Sizeof(z))
}

// appendLen records the length of r = append(s, n elements) as len(s) + n
// (or + nt, the term of n), when either term is symbolic.
func appendLen[S ~[]T, T any](site uint32, s, r S, nt *sym.Expr, n int) {
	ls := lenShadow(site, s)
	if ls == nil && nt == nil || cap(r) == 0 {
		return
	}
	if ls == nil {
		ls = st.b.Const(uint64(len(s)), 64)
	}
	if nt == nil {
		nt = st.b.Const(uint64(n), 64)
	}
	setLen(r, st.b.Add(ls, nt))
}

// Copy performs copy(dst, src) for slices other than byte slices: the
// cells of the copied elements follow them, and the count is the term
// min(len(dst), len(src)) when a length is symbolic.
func Copy[S ~[]T, T any](site uint32, dst, src S) V[int] {
	n := copy(dst, src)
	if !tracking() {
		return V[int]{C: n}
	}
	if n > 0 && cells() {
		var z T
		copyMem(unsafe.Pointer(&dst[0]), uintptr(unsafe.Pointer(&src[0])), uintptr(n)*unsafe.Sizeof(z))
	}
	ld, ls := lenShadow(site, dst), lenShadow(site, src)
	if ld == nil && ls == nil {
		return V[int]{C: n}
	}
	a, b := lenTerm(site, dst), lenTerm(site, src)
	return V[int]{C: n, S: st.b.Ite(st.b.Cmp(sym.KULt, a, b), a, b)}
}

// AppendBytes returns append(b, xs...) for a byte slice: the aggregate of
// b followed by the bytes' terms.
func AppendBytes[T ~[]byte](b V[T], xs ...V[byte]) V[T] {
	cs := make([]byte, len(xs))
	sym := false
	for i, x := range xs {
		cs[i] = x.C
		sym = sym || x.S != nil
	}
	r := append(b.C, cs...)
	if b.S == nil && !sym || !tracking() {
		if bytesUsed.Load() && tracking() {
			dropByteCells(r[len(b.C):])
		}
		return V[T]{C: r}
	}
	ts := make([]*Expr, len(xs))
	for i, x := range xs {
		ts[i] = termOf(kind{w: 8, size: 1}, x)
	}
	setByteCells([]byte(r[len(b.C):]), len(xs), func(k int) *Expr { return ts[k] })
	tail := st.b.String(st.b.Const(uint64(len(xs)), 64), ts)
	return V[T]{C: r, S: concatAgg(agg(b), tail, len(b.C))}
}

// AppendBytesOf returns append(b, t...) for a byte slice b and a string or
// byte slice t: the concatenation of their aggregates.
func AppendBytesOf[T ~[]byte, U ~string | ~[]byte](b V[T], t V[U]) V[T] {
	if b.S == nil && t.S == nil && !bytesUsed.Load() || !tracking() {
		return V[T]{C: append(b.C, t.C...)}
	}
	ta := agg(t) // before the append, which may overwrite t's bytes
	r := append(b.C, t.C...)
	setByteCells([]byte(r[len(b.C):]), len(t.C), func(k int) *Expr { return byteAt(ta, nil, k) })
	ba := agg(b)
	if b.S == nil && t.S == nil && ba.Kind == sym.KString && ta.Kind == sym.KString && allConst(ba) && allConst(ta) {
		return V[T]{C: r}
	}
	return V[T]{C: r, S: concatAgg(ba, ta, len(b.C))}
}

// SliceOf returns the slice literal S{xs...} of scalars, with the
// elements' shadows in its cells (its length is a constant).
func SliceOf[S ~[]T, T Scalar](xs ...V[T]) S {
	return sliceOf[S](xs, Store[T])
}

// SliceOfString is SliceOf for a slice of strings.
func SliceOfString[S ~[]T, T ~string](xs ...V[T]) S {
	return sliceOf[S](xs, StoreString[T])
}

func sliceOf[S ~[]T, T any](xs []V[T], store func(V[T], *T)) S {
	s := make(S, len(xs))
	for i, x := range xs {
		store(x, &s[i])
	}
	return s
}

// BytesOf returns the byte-slice literal T{xs...} with the aggregate of
// the bytes' terms.
func BytesOf[T ~[]byte](xs ...V[byte]) V[T] {
	return AppendBytes(V[T]{C: T{}}, xs...)
}

// MakeBytes returns make(T, n) for a byte slice: n zero bytes under an
// aggregate whose length is n's term.
func MakeBytes[T ~[]byte, I Integer](n V[I]) V[T] {
	b := make(T, n.C)
	if n.S == nil || !tracking() {
		return V[T]{C: b}
	}
	return zeroBytes(b, n)
}

// zeroBytes returns b, n zero bytes made by make, under an aggregate whose
// length is n's term, which is not nil.
func zeroBytes[T ~[]byte, I Integer](b T, n V[I]) V[T] {
	_, signed := widthOf[I]()
	zs := make([]*Expr, len(b))
	for i := range zs {
		zs[i] = st.b.Const(0, 8)
	}
	return V[T]{C: b, S: st.b.String(st.b.Convert(n.S, 64, signed), zs)}
}

// MakeBytesCap returns make(T, n, c) for a byte slice: n zero bytes under
// an aggregate whose length is n's term, and c's term as the capacity's
// shadow, which CapSlice reads. A capacity of zero has no backing array to
// key it by, so a symbolic c of value 0 is a concretisation (CauseCall at
// site).
func MakeBytesCap[T ~[]byte, I, J Integer](site uint32, n V[I], c V[J]) V[T] {
	b := make(T, n.C, c.C)
	if n.S == nil && c.S == nil || !tracking() {
		return V[T]{C: b}
	}
	if c.S != nil {
		if cap(b) == 0 {
			concretise(site, CauseCall)
		} else {
			_, signed := widthOf[J]()
			setCap(b, st.b.Convert(c.S, 64, signed))
		}
	}
	if n.S == nil {
		return V[T]{C: b}
	}
	return zeroBytes(b, n)
}

// CopyBytes performs copy(dst, src) into a byte slice dst that is x or a
// slice of x's bytes, where *sp is the shadow of the variable x: the
// copied bytes' terms replace those of x's aggregate at dst's offset, and
// the count is min(len(dst), len(src)) with its term. The bytes' cells get
// the terms too, for other slices of the array and for bytes past len(x)
// (rt/bytemem.go).
func CopyBytes[T ~[]byte, U ~string | ~[]byte](site uint32, sp **Expr, x T, dst T, src V[U]) V[int] {
	if *sp == nil && src.S == nil && !bytesUsed.Load() || !tracking() {
		return V[int]{C: copy(dst, src.C)}
	}
	if *sp == nil && src.S == nil {
		// Concrete bytes over bytes that may have cells.
		return CopyBytesTo(site, dst, src)
	}
	sa := agg(src) // before the copy, which may overwrite src's bytes
	off := -1
	if len(dst) > 0 && len(x) > 0 {
		d := uintptr(unsafe.Pointer(unsafe.SliceData(dst))) - uintptr(unsafe.Pointer(unsafe.SliceData(x)))
		if d < uintptr(cap(x)) {
			off = int(d)
		}
	}
	if *sp == nil && off >= 0 && cap(x) > 0 {
		// Before the copy: the bytes it may write are rewritten below,
		// and copyPlan reads the old ones.
		*sp = agg(V[T]{C: x})
	}
	cp := copyPlan(sa, []byte(dst), func(k int) *sym.Expr {
		if *sp != nil && off >= 0 && off+k < len(x) && off+k < len(aggBytes(*sp)) {
			return aggBytes(*sp)[off+k]
		}
		return oldByte(&dst[k])
	})
	n := copy(dst, src.C)
	m := max(n, len(cp.old))
	// The bytes' own cells, for other slices of the array (a field the
	// variable was taken from, the caller's buffer).
	setByteCells([]byte(dst), m, func(k int) *sym.Expr { return cp.byte(sa, k, n) })
	if *sp == nil && len(x) > 0 && cap(x) > 0 {
		*sp = agg(V[T]{C: x})
	}
	var ls, ld *Expr
	if src.S != nil {
		ls = aggLen(src.S)
	}
	if *sp != nil && off == 0 && len(dst) == len(x) {
		ld = aggLen(*sp)
	}
	if m > 0 && *sp != nil {
		// Bytes past len(x) are in their cells only, where a reslice of
		// x up to its capacity finds them (sliceCap).
		if off >= 0 {
			a := *sp
			bs := append([]*Expr(nil), aggBytes(a)...)
			for k := 0; k < m && off+k < len(x) && off+k < len(bs); k++ {
				t := cp.byte(sa, k, n)
				if t == nil {
					t = st.b.Const(uint64(dst[k]), 8)
				}
				bs[off+k] = t
			}
			*sp = st.b.String(aggLen(a), bs)
		}
	}
	if ls == nil && ld == nil {
		return V[int]{C: n}
	}
	if ls == nil {
		ls = st.b.Const(uint64(len(src.C)), 64)
	}
	if ld == nil {
		ld = st.b.Const(uint64(len(dst)), 64)
	}
	return V[int]{C: n, S: st.b.Ite(st.b.Cmp(sym.KULt, ld, ls), ld, ls)}
}
