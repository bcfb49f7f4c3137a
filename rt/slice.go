// This file tracks the lengths of slices other than byte slices (whose
// aggregate shadow has its own length), builds slice inputs, and hands
// the shadows of struct and array arguments to the function called.

package rt

import (
	"sync/atomic"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// lenCell is the shadow of a slice's length, keyed by its backing array.
type lenCell struct {
	n int
	s *sym.Expr
}

// lensUsed is set once the execution has recorded a length shadow, and
// cleared by reset; like memUsed, it keeps goroutines that do not own the
// state, and executions without length shadows, off the map.
var lensUsed atomic.Bool

// setLen records the shadow of len(s), keyed by s's backing array, which
// it pins; the caller has checked that the goroutine tracks and that s
// has a backing array.
func setLen[T any](s []T, n *sym.Expr) {
	pin(unsafe.Pointer(unsafe.SliceData(s)))
	st.lens[dataOf(s)] = lenCell{n: len(s), s: n}
	if !lensUsed.Load() {
		lensUsed.Store(true)
	}
}

// setCap records the shadow of cap(s), made by make with a symbolic
// capacity, keyed by s's backing array, which it pins; the caller has
// checked that the goroutine tracks and that s has a backing array.
func setCap[T any](s []T, c *sym.Expr) {
	pin(unsafe.Pointer(unsafe.SliceData(s)))
	st.caps[dataOf(s)] = lenCell{n: cap(s), s: c}
	if !lensUsed.Load() {
		lensUsed.Store(true)
	}
}

// CapSlice returns cap(s) with its shadow: the one make recorded for s's
// backing array, while s starts there with that capacity (s[:k] keeps it;
// s[i:] starts elsewhere, and an append that moved the bytes made a new
// array, whose capacity is the runtime's choice, a constant).
func CapSlice[S ~[]T, T any](s S) V[int] {
	if !lensUsed.Load() || !tracking() {
		return V[int]{C: cap(s)}
	}
	c, ok := st.caps[dataOf(s)]
	if !ok || c.n != cap(s) {
		return V[int]{C: cap(s)}
	}
	return V[int]{C: cap(s), S: c.s}
}

// dataOf returns the address of s's backing array, 0 when it has none.
func dataOf[T any](s []T) uintptr {
	if cap(s) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(s)))
}

// lenShadow returns the shadow of len(s): the one recorded for s's
// backing array, if s still has that length. A slice of that array with
// another length (a reslice) is a concretisation at site (CauseStale).
func lenShadow[T any](site uint32, s []T) *sym.Expr {
	if !lensUsed.Load() || !tracking() {
		return nil
	}
	c, ok := st.lens[dataOf(s)]
	if !ok {
		return nil
	}
	if c.n != len(s) {
		concretise(site, CauseStale)
		return nil
	}
	return c.s
}

// lenTerm is the term of len(s), a constant when it has no shadow.
func lenTerm[T any](site uint32, s []T) *sym.Expr {
	if t := lenShadow(site, s); t != nil {
		return t
	}
	return st.b.Const(uint64(len(s)), 64)
}

// LenSlice returns len(s) with its shadow; site is where a stale length
// shadow is counted.
func LenSlice[T any](site uint32, s []T) V[int] {
	return V[int]{C: len(s), S: lenShadow(site, s)}
}

// MakeSlice returns make(S, n), and records n's shadow as the shadow of
// the slice's length. An empty slice has no backing array of its own to
// key the shadow by (every empty allocation shares one), so its length
// stays concrete.
func MakeSlice[S ~[]T, T any, I Integer](n V[I]) S {
	s := make(S, n.C)
	if n.S != nil && cap(s) > 0 && tracking() {
		_, signed := widthOf[I]()
		setLen(s, st.b.Convert(n.S, 64, signed))
	}
	return s
}

// MakeSliceCap returns make(S, n, c) for a slice other than a byte slice:
// n's term is the length's shadow, as for MakeSlice, and c's the
// capacity's, which CapSlice reads. A capacity of zero has no backing
// array to key the shadows by, so a symbolic n or c of value 0 is a
// concretisation (CauseCall at site).
func MakeSliceCap[S ~[]T, T any, I, J Integer](site uint32, n V[I], c V[J]) S {
	s := make(S, n.C, c.C)
	if n.S == nil && c.S == nil || !tracking() {
		return s
	}
	if cap(s) == 0 {
		concretise(site, CauseCall)
		return s
	}
	if c.S != nil {
		_, signed := widthOf[J]()
		setCap(s, st.b.Convert(c.S, 64, signed))
	}
	if n.S != nil {
		_, signed := widthOf[I]()
		setLen(s, st.b.Convert(n.S, 64, signed))
	}
	return s
}

// passed is an argument a caller handed over with Pass.
type passed struct {
	src  uintptr
	size uintptr
}

// maxPassed bounds the handed-over arguments no callee took.
const maxPassed = 8

// Pass returns v, the value of *p, and hands p's shadows to the function
// about to be called with it: a struct or array is copied into the
// callee's parameter, so its cells must follow it there (Take). The
// handover is by position in a short queue rather than by an explicit
// parameter, because the callee may be a wrapper, a method value or
// another package's function; a wrong match only copies cells whose
// concrete check then fails at the first load.
func Pass[T any](p *T, v T) T {
	if cells() {
		passArg(unsafe.Pointer(p), unsafe.Sizeof(v))
	}
	return v
}

func passArg(p unsafe.Pointer, size uintptr) {
	if len(st.passed) == maxPassed {
		st.passed = append(st.passed[:0], st.passed[1:]...)
	}
	// A uintptr does not keep the source alive: a source with cells was
	// pinned when they were made, and one without has nothing to copy.
	st.passed = append(st.passed, passed{src: uintptr(p), size: size})
}

// Take installs, at the parameter p, the shadows of the argument its
// caller handed over with Pass: the oldest one of the same size.
func Take[T any](p *T) {
	if !cells() || len(st.passed) == 0 {
		return
	}
	size := unsafe.Sizeof(*p)
	for k, a := range st.passed {
		if a.size == size {
			st.passed = append(st.passed[:0], st.passed[k+1:]...)
			copyMem(unsafe.Pointer(p), a.src, size)
			return
		}
	}
}

// maxResults bounds the result positions whose shadows a callee hands to
// its caller.
const maxResults = 4

// PassResult returns v, the value of *p, which the function is about to
// return as its result i, and hands p's shadows to the caller, whose
// statement copies the struct or array into its own place (TakeResult):
// h := parse(b) with parse returning a struct whose fields carry terms.
// One slot per result position rather than a queue, since the caller
// takes it right after the call returns; every return of a function of
// an instrumented package sets or clears the slot (NoResult), so a slot
// left by an earlier call is never taken for this one, except after a
// panic its callee recovered from, where a wrong match only copies cells
// whose concrete check then fails at the first load.
func PassResult[T any](i int, p *T, v T) T {
	if i < maxResults && cells() {
		st.results[i] = passed{src: uintptr(unsafe.Pointer(p)), size: unsafe.Sizeof(v)}
	}
	return v
}

// NoResult returns v, a result i whose shadows the function cannot hand
// over (it has no place the caller could copy them from), and clears the
// slot an earlier call left.
func NoResult[T any](i int, v T) T {
	if i < maxResults && cells() {
		st.results[i] = passed{}
	}
	return v
}

// TakeResult installs at p, the place a call's result i was just stored
// in, the shadows its callee handed over with PassResult.
func TakeResult[T any](i int, p *T) {
	if i >= maxResults || !cells() {
		return
	}
	r := st.results[i]
	st.results[i] = passed{}
	if r.src != 0 && r.size == unsafe.Sizeof(*p) {
		copyMem(unsafe.Pointer(p), r.src, r.size)
	}
}

// Took returns a new place holding v, result i of the call that just
// returned, with the shadows its callee handed over: f(x).field is read
// there, since a call's result has no place of its own.
func Took[T any](i int, v T) *T {
	p := new(T)
	*p = v
	TakeResult(i, p)
	return p
}

// DropResult returns v, result i of the call that just returned, stored
// where no statement can follow to take its shadows (an init statement of
// a for or switch), and counts them as dropped at site (CauseAssign) when
// the callee handed over a place with cells.
func DropResult[T any](site uint32, i int, v T) T {
	if i >= maxResults || !cells() {
		return v
	}
	r := st.results[i]
	st.results[i] = passed{}
	if r.src != 0 && hasCells(r.src, r.size) {
		concretise(site, CauseAssign)
	}
	return v
}

// hasCells reports whether a cell lies in [s, s+size), looking at
// whichever is smaller, the cells or the addresses.
func hasCells(s, size uintptr) bool {
	if uintptr(len(st.mem)) < size {
		for a := range st.mem {
			if a >= s && a < s+size {
				return true
			}
		}
		return false
	}
	for a := s; a < s+size; a++ {
		if _, ok := st.mem[a]; ok {
			return true
		}
	}
	return false
}
