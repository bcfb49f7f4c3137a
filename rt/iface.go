// This file makes interface inputs and the tests of their dynamic types
// symbolic. An interface input has a choice input: candidate k of its
// list of types (Types) for a value k below the number of candidates,
// nil for the number itself (Param.Max). The runtime remembers, for each
// interface value it built, the choice's term, keyed by the two words of
// the interface (its type and data words): every copy of the value, as
// a variable, argument or field of another interface type, carries the
// same words. A type switch case, a type assertion or a comparison with
// nil then records a branch on the choice, so the solver can pick the
// dynamic type a branch needs. A value the runtime did not build has no
// entry, and its tests stay concrete.

package rt

import (
	"reflect"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// Types lists the candidate dynamic types of an interface input, in the
// order of their choice values.
type Types []reflect.Type

// TypeFor returns the type T as an element of Types.
func TypeFor[T any]() reflect.Type { return reflect.TypeFor[T]() }

// ifaceState is what the runtime knows of the interface inputs of an
// execution.
type ifaceState struct {
	vals  map[ifaceKey]*ifaceInput // the values built from the input
	nils  *sym.Expr                // "some interface input is nil", nil when none is
	unbox *ifaceInput              // the value the last type test matched (Unbox)
}

// clearIfaces forgets the interface inputs of the last execution.
func clearIfaces() {
	clearMap(st.iface.vals)
	st.iface.nils, st.iface.unbox = nil, nil
}

// ifaceKey is the identity of an interface value: its type and data
// words.
type ifaceKey struct{ typ, data uintptr }

// ifaceInput is what the runtime knows of an interface value it built.
type ifaceInput struct {
	choice *sym.Expr // the choice input
	cands  Types
	// box is the address of the copy the interface holds of a value that
	// is not pointer-shaped (0 for pointers and other values the data
	// word holds directly), and size that value's size: its shadows are
	// there, for the variable a type switch or assertion binds (Unbox)
	// and for a value receiver (PassIface).
	box       unsafe.Pointer
	size      uintptr
	ambiguous bool // another input has the same key: no shadow
}

// words returns the key of the interface value x.
func words(x any) ifaceKey {
	w := (*[2]uintptr)(unsafe.Pointer(&x))
	return ifaceKey{typ: w[0], data: w[1]}
}

// dataWord returns the data word of x as a pointer.
func dataWord(x any) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1] }

// InputIface returns *p as a value of the interface type I, as chosen by
// parameter i, the interface's choice among cands, and remembers its
// choice. The value is boxed by reflect from an addressable copy, which
// always allocates a box of its own (a conversion may share one: small
// integers, zero values, constants), so that two inputs rarely have the
// same key. Zero-size values share one address; inputs of one such type
// (or pointers to one) get the same key and are marked ambiguous, their
// tests concrete. The shadows the entry file stored into *p are copied into
// the box.
func InputIface[I any, T any](in *Input, i int, cands Types, p *T) I {
	x := reflect.ValueOf(p).Elem().Interface()
	if tracking() {
		rememberIface(in, i, cands, x, unsafe.Pointer(p), unsafe.Sizeof(*p))
	}
	return x.(I)
}

// rememberIface records the choice of x, built from *p (size bytes) by
// parameter i.
func rememberIface(in *Input, i int, cands Types, x any, p unsafe.Pointer, size uintptr) {
	k := words(x)
	e := &ifaceInput{choice: inputVar(in.base(i), 64), cands: cands}
	// A pointer-shaped value is the data word itself; anything else is a
	// copy in a box (unless it has no size).
	data := dataWord(x)
	if size > 0 && !(size == unsafe.Sizeof(uintptr(0)) && *(*uintptr)(p) == k.data) {
		e.box, e.size = data, size
		if cells() {
			copyMem(data, uintptr(p), size)
		}
	}
	if data != nil {
		pin(data) // the address must not be reused while it keys
	}
	if st.iface.vals == nil {
		st.iface.vals = make(map[ifaceKey]*ifaceInput)
	}
	if old, ok := st.iface.vals[k]; ok {
		old.ambiguous = true
		e.ambiguous = true
	}
	st.iface.vals[k] = e
}

// InputIfaceNil records that parameter i, an interface's choice among n
// candidates, made it nil. As for pointers (IsNil), a nil interface has
// no data word to key its choice by; its shadow is "some interface input
// is nil".
func InputIfaceNil(in *Input, i int) {
	if !tracking() {
		return
	}
	isNil := st.b.Eq(inputVar(in.base(i), 64), st.b.Const(in.params[i].Max, 64))
	if st.iface.nils == nil {
		st.iface.nils = isNil
		return
	}
	st.iface.nils = st.b.Or(st.iface.nils, isNil)
}

// lookupIface returns the entry of the interface value x, or nil.
func lookupIface(x any) *ifaceInput {
	if len(st.iface.vals) == 0 {
		return nil
	}
	e := st.iface.vals[words(x)]
	if e == nil || e.ambiguous {
		return nil
	}
	return e
}

// Case is one type of a case clause of a type switch: a branch site and
// the type, or nil (CaseNil).
type Case struct {
	site  uint32
	t     reflect.Type
	isNil bool
}

// CaseOf is the case type T of a type switch, a branch at site.
func CaseOf[T any](site uint32) Case { return Case{site: site, t: reflect.TypeFor[T]()} }

// CaseNil is the case nil of a type switch, a branch at site.
func CaseNil(site uint32) Case { return Case{site: site, isNil: true} }

// TypeSwitch records the tests a type switch on x makes, in the order Go
// makes them — each case type its own branch, up to the first that
// matches — and returns x for the switch.
func TypeSwitch[I any](x I, cases ...Case) I {
	if !tracking() {
		return x
	}
	a := any(x)
	e := lookupIface(a)
	st.iface.unbox = nil
	for _, c := range cases {
		if typeTest(a, e, c) {
			if !c.isNil && c.t.Kind() != reflect.Interface {
				st.iface.unbox = e
			}
			break
		}
	}
	return x
}

// Assert records the test of the type assertion x.(T) at site, a branch,
// and returns x for the assertion.
func Assert[T any, I any](site uint32, x I) I {
	if !tracking() {
		return x
	}
	a := any(x)
	e := lookupIface(a)
	st.iface.unbox = nil
	c := CaseOf[T](site)
	if typeTest(a, e, c) && c.t.Kind() != reflect.Interface {
		st.iface.unbox = e
	}
	return x
}

// typeTest returns whether x matches the case c, recording the branch
// with the choice of its entry e (nil for a value not built from the
// input).
func typeTest(x any, e *ifaceInput, c Case) bool {
	dt := reflect.TypeOf(x)
	var match bool
	switch {
	case c.isNil:
		match = dt == nil
	case dt != nil:
		match = typeMatches(dt, c.t)
	}
	hit(c.site, match)
	var cond *sym.Expr
	switch {
	case dt == nil && c.isNil:
		cond = st.iface.nils
	case e != nil && c.isNil:
		cond = st.b.Eq(e.choice, st.b.Const(uint64(len(e.cands)), 64))
	case e != nil:
		cond = e.caseTerm(c.t)
	}
	if cond != nil {
		record(c.site, match, cond)
	}
	return match
}

// typeMatches reports whether a value of dynamic type dt matches the case
// type t: the same type, or one that implements the interface t.
func typeMatches(dt, t reflect.Type) bool {
	if t.Kind() == reflect.Interface {
		return dt.Implements(t)
	}
	return dt == t
}

// caseTerm is "the dynamic type matches t": the disjunction of the
// choices of the candidates that do (false when none does).
func (e *ifaceInput) caseTerm(t reflect.Type) *sym.Expr {
	var cond *sym.Expr
	for k, ct := range e.cands {
		if !typeMatches(ct, t) {
			continue
		}
		is := st.b.Eq(e.choice, st.b.Const(uint64(k), 64))
		if cond == nil {
			cond = is
		} else {
			cond = st.b.Or(cond, is)
		}
	}
	if cond == nil {
		return st.b.Bool(false)
	}
	return cond
}

// Unbox installs at p, the variable a type switch case or a type
// assertion just bound to a value that is not a pointer, the shadows of
// the box the interface holds, when the runtime built that interface.
func Unbox[T any](p *T) {
	if !cells() {
		return
	}
	e := st.iface.unbox
	st.iface.unbox = nil
	if e == nil || e.box == nil || e.size != unsafe.Sizeof(*p) {
		return
	}
	copyMem(unsafe.Pointer(p), uintptr(e.box), e.size)
}

// PassIface hands the box of x, an interface the runtime built around a
// value that is not a pointer, to the method x's call runs: a method of
// such a type has a value receiver, which takes the shadows (Take) as
// from a struct argument. It returns x for the call.
func PassIface[I any](x I) I {
	if !cells() {
		return x
	}
	if e := lookupIface(any(x)); e != nil && e.box != nil {
		passArg(e.box, e.size)
	}
	return x
}

// IfaceIsNil returns x == nil for an interface value x, with the shadow
// of its choice when the runtime built it, and, for a nil x, "some
// interface input is nil" (see InputIfaceNil).
func IfaceIsNil[I any](x I) V[bool] {
	a := any(x)
	if !tracking() {
		return V[bool]{C: a == nil}
	}
	if a == nil {
		return V[bool]{C: true, S: st.iface.nils}
	}
	if e := lookupIface(a); e != nil {
		return V[bool]{S: st.b.Eq(e.choice, st.b.Const(uint64(len(e.cands)), 64))}
	}
	return V[bool]{}
}

// IfaceNotNil returns x != nil with the shadow of IfaceIsNil.
func IfaceNotNil[I any](x I) V[bool] {
	v := IfaceIsNil(x)
	v.C = !v.C
	if v.S != nil {
		v.S = st.b.Not(v.S)
	}
	return v
}

// Unboxed is Unbox in a condition: it returns true.
func Unboxed[T any](p *T) bool {
	Unbox(p)
	return true
}
