// This file implements the builtin clear on tracked slices and maps.
//
// A cell is trusted while memory holds the bits it was stored with, so a
// clear the runtime did not see would leave the cell of an element that
// was already zero with its term (a condition the program no longer
// depends on, which the solver may flip: a divergence), and make the
// others stale. Here the shadows go with the values: the cells over the
// cleared elements are dropped, the bytes of a byte slice get constant
// cells newer than any byte-slice cell over them, a shadowed variable's
// aggregate gets constant zero bytes (its length is unchanged), and a
// map's log is dropped, so that the map is read as what it now is, empty.

package rt

import (
	"reflect"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// ClearSlice performs clear(s) for a slice whose elements are not bytes:
// the cells of the cleared elements (scalars, strings, byte-slice
// headers, the fields of struct elements) are dropped.
func ClearSlice[S ~[]T, T any](s S) {
	clear(s)
	if len(s) == 0 || !cells() {
		return
	}
	var z T
	dropCells(uintptr(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s))*unsafe.Sizeof(z))
}

// dropCells drops the cells of [a, a+size), walking whichever is smaller,
// the cells or the bytes.
func dropCells(a, size uintptr) {
	if uintptr(len(st.mem)) < size {
		for k := range st.mem {
			if k >= a && k < a+size {
				delete(st.mem, k)
			}
		}
		return
	}
	for off := uintptr(0); off < size; off++ {
		delete(st.mem, a+off)
	}
}

// ClearBytesTo performs clear(b) for a byte slice that is not a shadowed
// variable (a field, an element, a callee's result): its bytes get
// constant cells, which a later read through any slice of the array
// prefers to an older byte-slice cell that still matches memory.
func ClearBytesTo[T ~[]byte](b T) {
	clear(b)
	if tracking() {
		clearByteShadows([]byte(b))
	}
}

// ClearBytes performs clear(dst) where dst is the shadowed byte-slice
// variable x or a slice of it, *sp being x's shadow: the cleared bytes of
// x's aggregate become constant zeros, its length term stays, and the
// bytes' cells say zero too, for other slices of the array.
func ClearBytes[T ~[]byte](sp **sym.Expr, x, dst T) {
	clear(dst)
	if !tracking() {
		return
	}
	clearByteShadows([]byte(dst))
	if *sp == nil || len(dst) == 0 {
		return
	}
	off := uintptr(unsafe.Pointer(unsafe.SliceData(dst))) - uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	if len(x) == 0 || off >= uintptr(cap(x)) {
		return // not x's array: its aggregate is untouched
	}
	a := *sp
	bs := append([]*sym.Expr(nil), aggBytes(a)...)
	zero := st.b.Const(0, 8)
	for k := int(off); k < int(off)+len(dst) && k < len(bs); k++ {
		bs[k] = zero
	}
	*sp = st.b.String(aggLen(a), bs)
}

// clearByteShadows drops the shadows of b's bytes, just cleared: a
// byte's cell stored as a scalar (through a pointer to it) goes, and the
// bytes get constant cells where needed (zeroByteCells). The caller has
// checked that the goroutine tracks.
func clearByteShadows(b []byte) {
	if len(b) == 0 {
		return
	}
	if cells() {
		dropCells(uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	}
	zeroByteCells(b)
}

// zeroByteCells records constant cells for b's bytes, just cleared,
// whenever some cell could still claim a term for them: a byte's own cell
// (bytesUsed) or a byte-slice cell over its array (sliceCellsUsed), which
// trusts a byte while it keeps its value, and a symbolic byte that was
// zero keeps it. The caller has checked that the goroutine tracks.
func zeroByteCells(b []byte) {
	if len(b) == 0 || !bytesUsed.Load() && !sliceCellsUsed.Load() {
		return
	}
	writeByteCells(b, make([]*sym.Expr, len(b))) // nil: the value, a constant
}

// ClearMap performs clear(m) on a map and drops its log: a map without a
// log is read from its concrete entries, of which there are now none, so
// no write of the log (a guarded entry of a map input absent at this
// input, say) can still claim to be present.
func ClearMap[M ~map[K]E, K comparable, E any](m M) {
	clear(m)
	if mapsUsed.Load() && tracking() {
		delete(st.maps, uintptr(mapPtr(m)))
	}
}

// ClearOf performs clear(x) for x of a type parameter whose core type is
// a slice or a map, dropping the shadows of what it clears as ClearSlice,
// ClearBytesTo and ClearMap do; reflect finds the kind, since the
// constraint tells the rewrite nothing more.
func ClearOf[T any](x T) {
	v := reflect.ValueOf(&x).Elem()
	v.Clear()
	if !tracking() {
		return
	}
	switch v.Kind() {
	case reflect.Slice:
		if v.Len() == 0 {
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			clearByteShadows(unsafe.Slice((*byte)(v.UnsafePointer()), v.Len()))
			return
		}
		if cells() {
			dropCells(uintptr(v.UnsafePointer()), uintptr(v.Len())*v.Type().Elem().Size())
		}
	case reflect.Map:
		if mapsUsed.Load() {
			delete(st.maps, uintptr(v.UnsafePointer()))
		}
	}
}
