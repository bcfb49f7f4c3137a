// This file is the shadow memory: the shadows of values that live in
// memory rather than in shadowed variables — struct fields, array and
// slice elements, values behind pointers. A cell is keyed by the address
// of the value and holds the concrete value it shadows beside the term.
//
// A load trusts a cell only when the memory still holds that concrete
// value. Code the rewrite does not see (another package, reflection, a
// store through unsafe) may overwrite a value without updating its cell;
// the check turns such a stale shadow into a concrete value instead of a
// wrong term. That is what lets the rewrite track only what it can, and
// leave every other write alone.
//
// Cells pin what they shadow (see pin), so a heap object with a cell is
// not freed, and its address not reused, before the execution ends. A
// stack variable never gets a cell without going through a function that
// makes it escape, so no cell names a stack slot that may move.

package rt

import (
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// Scalar is the set of types whose values a cell holds by their bits.
type Scalar interface {
	Integer | ~float32 | ~float64 | ~bool
}

// cell is the shadow of one value in memory.
type cell struct {
	bits uint64 // the concrete value of a Scalar
	str  string // the concrete value of a string
	s    *sym.Expr
	// seq orders a byte's cell against the cells of byte slices over its
	// array: st.byteSeq when the cell was stored (bytemem.go).
	seq uint64
}

// maxIndexSplit bounds the case split of a load at a symbolic index: a
// longer array or slice is read at the concrete index only.
const maxIndexSplit = 256

// maxStoreSplit bounds the split of a store at a symbolic index, lower
// than a load's: a store makes every element symbolic, and each later
// read of one (a scan of the whole array, say) a symbolic branch. A
// [256]bool set written at an input byte made btree's harness run 30
// times fewer executions for the same coverage; regexp's visited bits
// on short inputs, the case that needs the split, take a few dozen words.
const maxStoreSplit = 64

// scalarBits returns the bits of a scalar value.
func scalarBits[T Scalar](v T) uint64 { return bitsAt(unsafe.Pointer(&v), unsafe.Sizeof(v)) }

// bitsAt returns the size bytes at p (1, 2, 4 or 8), zero extended.
func bitsAt(p unsafe.Pointer, size uintptr) uint64 {
	switch size {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

func addr[T any](p *T) uintptr { return uintptr(unsafe.Pointer(p)) }

// memUsed is set once the execution has made a cell, and cleared by
// reset: the loads' fast path. It stands in for len(st.mem) there because
// goroutines that do not own the state read it too (and then do not look
// further), which must not race with the owner's map writes.
var memUsed atomic.Bool

// cells reports whether the calling goroutine may have cells to read: the
// execution made some, and the goroutine owns the state.
func cells() bool { return memUsed.Load() && tracking() }

// pin keeps the object p points into alive until the execution ends.
func pin(p unsafe.Pointer) { st.pins = append(st.pins, p) }

// shadowAt returns the shadow of the scalar *p, nil when it has none or
// the memory no longer holds the value the shadow was stored with; stale
// reports the latter, a concretisation the caller counts. The caller has
// checked cells(). It makes no call, so that it stays inlined into the
// loads.
func shadowAt[T Scalar](p *T) (s *sym.Expr, stale bool) {
	if len(st.mem) == 0 {
		return nil, false
	}
	c, ok := st.mem[addr(p)]
	if !ok || c.bits != scalarBits(*p) {
		return nil, ok // stale when there is a cell
	}
	return c.s, false
}

// Load returns *p with its shadow; site is where a stale shadow is
// counted (CauseStale). The test for an empty shadow memory, the common
// case, is small enough to be inlined at every load.
func Load[T Scalar](site uint32, p *T) V[T] {
	if !memUsed.Load() {
		return V[T]{C: *p}
	}
	return loadCell(site, p)
}

// loadCell is Load when the execution has cells.
func loadCell[T Scalar](site uint32, p *T) V[T] {
	if !tracking() {
		return V[T]{C: *p}
	}
	s, stale := shadowAt(p)
	if stale {
		concretise(site, CauseStale)
	}
	return V[T]{C: *p, S: s}
}

// Store performs *p = v and records v's shadow at p. The value comes first
// so that it is evaluated before the address, as the compiler orders the
// original assignment (a bounds or nil check of the left side fails after
// the right side ran).
func Store[T Scalar](v V[T], p *T) {
	*p = v.C
	if v.S == nil && !memUsed.Load() || !tracking() {
		return
	}
	if unsafe.Sizeof(v.C) == 1 && v.S != nil {
		// A byte's cell, which reads through a byte slice over it look
		// for too: an element of a [N]byte variable, read through a
		// slice of the array (strconv's formatBits builds its result
		// so), lost its term without it.
		writeByteCells(unsafe.Slice((*byte)(unsafe.Pointer(p)), 1), []*sym.Expr{v.S})
		return
	}
	setCell(addr(p), unsafe.Pointer(p), cell{bits: scalarBits(v.C), s: v.S})
}

// LoadString returns the string *p with its shadow; site is where a stale
// shadow is counted.
func LoadString[T ~string](site uint32, p *T) V[T] {
	if c, ok := cellAt(addr(p)); ok {
		return V[T]{C: *p, S: c.shadowIf(site, c.str == string(*p))}
	}
	return V[T]{C: *p}
}

// cellAt returns the cell at address a, if there is one and the calling
// goroutine owns the state.
func cellAt(a uintptr) (cell, bool) {
	if !cells() {
		return cell{}, false
	}
	c, ok := st.mem[a]
	return c, ok
}

// shadowIf returns the shadow of a string or byte-slice cell if memory
// still holds the value it was stored with (same), else nil, counted as
// stale at site. The caller compares, so that string(b) of a byte slice
// is a comparison, which does not copy the bytes.
func (c cell) shadowIf(site uint32, same bool) *sym.Expr {
	if !same {
		concretise(site, CauseStale)
		return nil
	}
	return c.s
}

// StoreString performs *p = v and records v's shadow at p.
func StoreString[T ~string](v V[T], p *T) {
	*p = v.C
	if v.S == nil && !memUsed.Load() || !tracking() {
		return
	}
	setCell(addr(p), unsafe.Pointer(p), cell{str: string(v.C), s: v.S})
}

// LoadByteSlice returns the byte slice *p with its shadow. The cell keeps a
// copy of the bytes it was stored with: when bytes were written since (a
// copy into the array, a store to an element), each byte takes the term
// of its own cell if that is newer (rt/bytemem.go), else the old term if
// it still holds the old value, else its value; an old symbolic byte lost
// that way is a stale shadow. Without a cell for *p the bytes' cells give
// the shadow.
func LoadByteSlice[T ~[]byte](site uint32, p *T) V[T] {
	c, ok := cellAt(addr(p))
	if ok && c.seq == st.byteSeq && c.str == string(*p) {
		return V[T]{C: *p, S: c.s} // no byte's cell is newer
	}
	if !ok && !byteCells() {
		return V[T]{C: *p}
	}
	a, lost := cellsAgg([]byte(*p), c.s, c.str, c.seq)
	if lost {
		concretise(site, CauseStale)
	}
	if ok {
		// The merged shadow is now the slice's, so that the next load
		// of an unchanged slice takes the fast path again.
		setBytesCell((*[]byte)(unsafe.Pointer(p)), a)
	}
	return V[T]{C: *p, S: a}
}

// StoreByteSlice performs *p = v and records v's shadow at p.
func StoreByteSlice[T ~[]byte](v V[T], p *T) {
	*p = v.C
	if v.S == nil && !memUsed.Load() || !tracking() {
		return
	}
	setBytesCell((*[]byte)(unsafe.Pointer(p)), v.S)
}

// setCell records c as the cell at a, which p points to; the caller has
// checked that the goroutine tracks.
func setCell(a uintptr, p unsafe.Pointer, c cell) {
	if c.s == nil {
		if len(st.mem) != 0 {
			delete(st.mem, a)
		}
		return
	}
	if _, had := st.mem[a]; !had {
		pin(p)
	}
	st.mem[a] = c
	if !memUsed.Load() {
		memUsed.Store(true)
	}
}

// LoadIndex returns s[i] with its shadow, recording the bounds check at
// site. At a symbolic index the shadow is a case split over the elements
// (their shadows, or their values as constants), so a lookup table or an
// input slice read at an input index stays symbolic; beyond maxIndexSplit
// elements the index is taken as the concrete one (CauseIndex at site).
func LoadIndex[T Scalar, I Integer](site uint32, s []T, i V[I]) V[T] {
	return loadIndexChecked(site, s, i, checkIndex(site, s, i))
}

// loadIndexChecked is LoadIndex after the bounds check; idx is i's term,
// nil at a concrete index.
func loadIndexChecked[T Scalar, I Integer](site uint32, s []T, i V[I], idx *sym.Expr) V[T] {
	n := len(s)
	v := Load(site, &s[i.C]) // panics when out of range, as the original does
	if idx == nil {
		return v
	}
	if n > maxIndexSplit {
		concretise(site, CauseIndex)
		return v
	}
	// Constant elements are part of the split too: that is what makes a
	// table lookup at an input index solvable.
	w := scalarWidth[T]()
	var t *sym.Expr
	for k := n - 1; k >= 0; k-- {
		e, stale := shadowAt(&s[k])
		if stale {
			concretise(site, CauseStale)
		}
		if e == nil {
			e = constTerm(scalarBits(s[k]), w)
		}
		if t == nil {
			t = e
			continue
		}
		t = st.b.Ite(st.b.Eq(idx, st.b.Const(uint64(k), 64)), e, t)
	}
	return V[T]{C: v.C, S: t}
}

// StoreIndex performs s[i] = v on a slice of scalars (an array goes as
// its slice), recording the bounds check at site. At a symbolic index it
// is the store of a theory of arrays, spelt out as a case split: every
// element k takes ite(i == k, v, its old shadow or value), so that a later
// load of any element, at any index, sees that the write may have landed
// there. Beyond maxStoreSplit elements the index is taken at its concrete
// value (CauseIndex at site).
//
// The value comes first, as in Store.
func StoreIndex[T Scalar, I Integer](v V[T], site uint32, s []T, i V[I]) {
	if i.S == nil && v.S == nil && !memUsed.Load() && !lensUsed.Load() || !tracking() {
		s[i.C] = v.C
		return
	}
	storeIndex(site, s, i, checkIndex(site, s, i), v)
}

// ApplyIndex performs s[i] = op(s[i], y), for s[i] op= y and s[i]++ at an
// index that may be symbolic: a load and a store at that index (LoadIndex,
// StoreIndex) with one bounds check.
func ApplyIndex[T Scalar, I Integer](site uint32, s []T, i V[I], y V[T], op func(V[T], V[T]) V[T]) {
	if i.S == nil && y.S == nil && !memUsed.Load() && !lensUsed.Load() || !tracking() {
		old := V[T]{C: s[i.C]}
		s[i.C] = op(old, y).C
		return
	}
	idx := checkIndex(site, s, i)
	old := loadIndexChecked(site, s, i, idx)
	storeIndex(site, s, i, idx, op(old, y))
}

// storeIndex is StoreIndex after the bounds check; idx is i's term, nil
// at a concrete index.
func storeIndex[T Scalar, I Integer](site uint32, s []T, i V[I], idx *sym.Expr, v V[T]) {
	if idx == nil || len(s) > maxStoreSplit {
		if idx != nil {
			concretise(site, CauseIndex)
		}
		Store(v, &s[i.C]) // panics when out of range, as the original does
		return
	}
	_ = s[i.C] // panics when out of range, before any cell changes
	w := scalarWidth[T]()
	vt := v.S
	if vt == nil {
		vt = constTerm(scalarBits(v.C), w)
	}
	for k := range s {
		old, stale := shadowAt(&s[k])
		if stale {
			concretise(site, CauseStale)
		}
		if old == nil {
			old = constTerm(scalarBits(s[k]), w)
		}
		c := s[k]
		if k == int(i.C) {
			c = v.C
		}
		Store(V[T]{C: c, S: symbolicOrNil(st.b.Ite(st.b.Eq(idx, st.b.Const(uint64(k), 64)), vt, old))}, &s[k])
	}
}

// checkIndex records the bounds check of s[i] at site: against the
// shadow of len(s) at the concrete index, or, when i is symbolic (and the
// goroutine tracks), at i's term, which it returns for the case split of
// the load; nil otherwise.
func checkIndex[T any, I Integer](site uint32, s []T, i V[I]) *sym.Expr {
	in := i.C >= 0 && uint64(i.C) < uint64(len(s))
	if i.S == nil || !tracking() {
		if ls := lenShadow(site, s); ls != nil {
			boundsCheck(site, st.b.Const(uint64(int64(i.C)), 64), ls, in)
		}
		return nil
	}
	idx := index64(i)
	boundsCheck(site, idx, lenTerm(site, s), in)
	return idx
}

// scalarWidth returns the width of T's terms: 0 for a boolean type, else
// its size in bits.
func scalarWidth[T Scalar]() uint8 {
	if reflect.TypeFor[T]().Kind() == reflect.Bool {
		return 0
	}
	var z T
	return uint8(unsafe.Sizeof(z) * 8)
}

// constTerm is the constant term of the given bits and width (0: bool).
func constTerm(bits uint64, w uint8) *sym.Expr {
	if w == 0 {
		return st.b.Bool(bits != 0)
	}
	return st.b.Const(bits, w)
}

// CopyMem copies the shadows of *src to *dst, after a copy of the value
// itself (q = p for a struct or an array).
func CopyMem[T any](dst, src *T) {
	if !cells() {
		return
	}
	copyMem(unsafe.Pointer(dst), uintptr(unsafe.Pointer(src)), unsafe.Sizeof(*src))
}

// Apply performs *p = op(*p, y), for x op= y and x++ on a location in
// memory: the address is evaluated once, as the original statement does.
// site is where a stale shadow of *p is counted.
func Apply[T Scalar](site uint32, p *T, y V[T], op func(V[T], V[T]) V[T]) {
	Store(op(Load(site, p), y), p)
}

// ApplyString performs *p = op(*p, y) for a string location.
func ApplyString[T ~string](site uint32, p *T, y V[T], op func(V[T], V[T]) V[T]) {
	StoreString(op(LoadString(site, p), y), p)
}

// copyMem copies the cells of [s, s+size) to dst. The source is a uintptr
// because a source with cells is pinned, and one without has none to copy.
func copyMem(dst unsafe.Pointer, s, size uintptr) {
	d := uintptr(dst)
	if d == s {
		return
	}
	// One pass over whichever is smaller, the cells or the bytes: collect
	// the source's cells, and drop the destination's, which are stale
	// after the copy (the concrete check would miss an equal value).
	var moved []uintptr
	var cells []cell
	if uintptr(len(st.mem)) < size {
		for a, c := range st.mem {
			switch {
			case a >= s && a < s+size:
				moved = append(moved, a-s)
				cells = append(cells, c)
			case a >= d && a < d+size:
				delete(st.mem, a)
			}
		}
	} else {
		for off := uintptr(0); off < size; off++ {
			if c, ok := st.mem[s+off]; ok {
				moved = append(moved, off)
				cells = append(cells, c)
			}
			delete(st.mem, d+off)
		}
	}
	if len(moved) == 0 {
		return
	}
	pin(dst)
	for k, off := range moved {
		st.mem[d+off] = cells[k]
	}
}

// setBytesCell records s as the shadow of the byte slice *p.
func setBytesCell(p *[]byte, s *sym.Expr) {
	c := cell{s: s, seq: st.byteSeq}
	if s != nil {
		c.str = string(*p)
		if !sliceCellsUsed.Load() {
			sliceCellsUsed.Store(true)
		}
	}
	setCell(addr(p), unsafe.Pointer(p), c)
}

// maxAggSplit bounds the bytes of the elements a load at a symbolic index
// splits over for slices of strings or byte slices, on top of
// maxIndexSplit elements: each byte of the result is a case split.
const maxAggSplit = 4096

// LoadIndexString returns s[i] with its shadow for a slice of strings,
// recording the bounds check at site, as LoadIndex does for scalars; at a
// symbolic index the shadow is a case split over the elements'
// aggregates, component by component.
func LoadIndexString[T ~string, I Integer](site uint32, s []T, i V[I]) V[T] {
	return loadIndexAgg(site, s, i, LoadString[T], func(x T) string { return string(x) })
}

// LoadIndexBytes is LoadIndexString for a slice of byte slices.
func LoadIndexBytes[T ~[]byte, I Integer](site uint32, s []T, i V[I]) V[T] {
	return loadIndexAgg(site, s, i, LoadByteSlice[T], func(x T) string { return string(x) })
}

func loadIndexAgg[T any, I Integer](site uint32, s []T, i V[I], load func(uint32, *T) V[T], str func(T) string) V[T] {
	n := len(s)
	idx := checkIndex(site, s, i)
	v := load(site, &s[i.C]) // panics when out of range, as the original does
	if idx == nil {
		return v
	}
	if n > maxIndexSplit {
		concretise(site, CauseIndex)
		return v
	}
	total := 0
	for k := range s {
		total += len(str(s[k]))
	}
	if total > maxAggSplit {
		concretise(site, CauseIndex)
		return v
	}
	var t *sym.Expr
	for k := n - 1; k >= 0; k-- {
		e := load(site, &s[k]).S
		if e == nil {
			e = aggOf(str(s[k]))
		}
		if t == nil {
			t = e
			continue
		}
		t = aggIte(st.b.Eq(idx, st.b.Const(uint64(k), 64)), e, t)
	}
	return V[T]{C: v.C, S: t}
}
