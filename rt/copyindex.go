// This file copies an element of an array or slice of structs read at a
// symbolic index (v := table[c]): each scalar field of the copy takes a
// case split over that field of every element, as LoadIndex does for an
// element that is itself a scalar, so that a lexer's table of structs
// read at an input byte stays solvable.

package rt

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// leaf is a scalar field of a struct (or an element of an array field),
// at an offset from the struct's start.
type leaf struct {
	off   uintptr
	size  uintptr
	width uint8 // of its terms: 0 for a bool, else size*8
}

// leafCache maps a reflect.Type to its leaves. Package-level and shared
// by goroutines because the leaves are a pure function of the type,
// computed once per type rather than once per copy.
var leafCache sync.Map

// maxLeaves bounds the scalar leaves of a type CopyIndex splits over.
const maxLeaves = 64

// leavesOf returns the scalar leaves of t, and false when t has more than
// maxLeaves of them.
func leavesOf(t reflect.Type) ([]leaf, bool) {
	if v, ok := leafCache.Load(t); ok {
		ls := v.([]leaf)
		return ls, ls != nil
	}
	var ls []leaf
	ok := appendLeaves(&ls, t, 0)
	if !ok {
		ls = nil
	}
	leafCache.Store(t, ls)
	return ls, ok
}

func appendLeaves(ls *[]leaf, t reflect.Type, off uintptr) bool {
	switch t.Kind() {
	case reflect.Bool:
		*ls = append(*ls, leaf{off: off, size: 1, width: 0})
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		*ls = append(*ls, leaf{off: off, size: t.Size(), width: uint8(t.Size() * 8)})
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !appendLeaves(ls, f.Type, off+f.Offset) {
				return false
			}
		}
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			if !appendLeaves(ls, t.Elem(), off+uintptr(i)*t.Elem().Size()) {
				return false
			}
		}
	}
	// Strings, slices, pointers and the rest keep no terms here.
	return len(*ls) <= maxLeaves
}

// CopyIndex follows dst = s[i] for an element type with scalar fields:
// the copy's fields take the shadows of s[i]'s (CopyMem) at a concrete
// index, and at a symbolic one each field a case split over that field of
// every element, with the bounds check recorded at site. Beyond
// maxIndexSplit elements, or more than maxLeaves fields, the index is
// taken at its concrete value (CauseIndex).
func CopyIndex[T any, I Integer](site uint32, dst *T, s []T, i V[I]) {
	if i.S == nil && !memUsed.Load() && !lensUsed.Load() || !tracking() {
		return
	}
	idx := checkIndex(site, s, i)
	src := &s[i.C] // the copy was made, so i is in range
	if idx == nil {
		CopyMem(dst, src)
		return
	}
	ls, ok := leavesOf(reflect.TypeFor[T]())
	if !ok || len(s) > maxIndexSplit {
		concretise(site, CauseIndex)
		CopyMem(dst, src)
		return
	}
	base := unsafe.Pointer(unsafe.SliceData(s))
	size := unsafe.Sizeof(*dst)
	d := unsafe.Pointer(dst)
	for _, l := range ls {
		var t *sym.Expr
		for k := len(s) - 1; k >= 0; k-- {
			e := fieldTerm(site, unsafe.Add(base, uintptr(k)*size+l.off), l)
			if t == nil {
				t = e
				continue
			}
			t = st.b.Ite(st.b.Eq(idx, st.b.Const(uint64(k), 64)), e, t)
		}
		// As Store records a one-byte value: a byte's cell, which reads
		// through a byte slice look for too.
		p, t := unsafe.Add(d, l.off), symbolicOrNil(t)
		if l.size == 1 && t != nil {
			writeByteCells(unsafe.Slice((*byte)(p), 1), []*sym.Expr{t})
			continue
		}
		setCell(uintptr(p), p, cell{bits: bitsAt(p, l.size), s: t})
	}
}

// fieldTerm returns the term of the scalar leaf l at address p: its
// cell's, if memory still holds the value the cell was made with, else
// its value as a constant (a stale cell counted at site).
func fieldTerm(site uint32, p unsafe.Pointer, l leaf) *sym.Expr {
	bits := bitsAt(p, l.size)
	if c, ok := st.mem[uintptr(p)]; ok {
		if c.bits == bits && c.s != nil {
			return c.s
		}
		concretise(site, CauseStale)
	}
	if l.width == 0 {
		return st.b.Bool(bits != 0)
	}
	return st.b.Const(bits, l.width)
}
