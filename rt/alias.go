// This file builds pointer inputs and gives comparisons of pointers their
// shadows: a pointer input's choice (Param.Ref) makes it a new object, nil,
// or the same pointer as an earlier input of its type, and the identity
// term of the input (Idents) is what == and != on pointers compare.

package rt

import (
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// Idents builds the identity terms of pointer inputs: ident(j) is j+1 when
// input j's choice makes a new object, 0 when it makes nil, and
// ident(Refs[k]) when it is 2+k, an alias of an earlier input:
//
//	ident(j) = ite(c==0, j+1, ite(c==1, 0, ite(c==2, ident(Refs[0]), ... ident(Refs[last]))))
//
// where c is j's choice variable; the last alias is the else branch, as a
// choice above Max reads as Max. Two pointer inputs are the same pointer
// iff their identities are equal, and one is nil iff its identity is 0.
// The worker and the coordinator build the terms with the same calls, so
// that a term of a path condition is, node for node, the coordinator's
// term (coordinator/alias.go recognises reference constraints by identity).
type Idents struct {
	b    *sym.Builder
	ps   []Param
	offs []int
	v    func(n uint64) *sym.Expr // the 64-bit input variable n
	memo []*sym.Expr
}

// NewIdents returns the identity terms of the pointer inputs of ps, laid
// out at offs (Layout), built with b.
func NewIdents(b *sym.Builder, ps []Param, offs []int) *Idents {
	return &Idents{b: b, ps: ps, offs: offs, v: func(n uint64) *sym.Expr { return b.Var(n, 64) }}
}

// Term returns ident(j) of pointer input j (a Ref parameter). Terms are
// memoised: an input's term is shared by every later input that may alias
// it, so building them all takes time linear in the number of Refs.
func (id *Idents) Term(j int) *sym.Expr {
	if id.memo == nil {
		id.memo = make([]*sym.Expr, len(id.ps))
	}
	if e := id.memo[j]; e != nil {
		return e
	}
	b, refs := id.b, id.ps[j].Refs
	c := id.v(uint64(id.offs[j]))
	is := func(k int) *sym.Expr { return b.Eq(c, b.Const(uint64(k), 64)) }
	e := b.Const(0, 64)
	for k := len(refs) - 1; k >= 0; k-- {
		if k == len(refs)-1 {
			e = id.Term(refs[k])
		} else {
			e = b.Ite(is(2+k), id.Term(refs[k]), e)
		}
	}
	e = b.Ite(is(1), b.Const(0, 64), e)
	e = b.Ite(is(0), b.Const(uint64(j)+1, 64), e)
	id.memo[j] = e
	return e
}

// madePtr is what a pointer input made in this execution.
type madePtr struct {
	p    unsafe.Pointer
	made bool // the entry file has assembled the input
}

// ident returns the identity term of pointer input i, for this execution.
func (in *Input) ident(i int) *sym.Expr {
	if in.ids == nil {
		in.ids = &Idents{b: st.b, ps: in.params, offs: in.offs, v: func(n uint64) *sym.Expr { return inputVar(n, 64) }}
	}
	return in.ids.Term(i)
}

// made registers p as the pointer input i made, for later aliases.
func (in *Input) made(i int, p unsafe.Pointer) {
	if len(in.ptrs) < len(in.params) {
		in.ptrs = make([]madePtr, len(in.params))
	}
	in.ptrs[i] = madePtr{p: p, made: true}
}

// InputPtr returns pointer input i, a Ref parameter, when its choice
// makes it nil or an alias of an earlier input, or reports that the
// caller must make a new object for it (then registered with InputObject
// before it is filled). An alias of an input this execution did not
// assemble (an element past a slice's length, a field under a nil
// pointer) makes a new object instead: the path condition then speaks of
// a pointer that is not there, and the run may diverge.
func InputPtr[T any](in *Input, i int) (p *T, isNew bool) {
	c := in.params[i].bits(in.val(in.base(i)))
	switch {
	case c == 0:
		return nil, true
	case c == 1:
		InputNil(in, i)
		return nil, false
	}
	r := in.params[i].Refs[c-2]
	if r >= len(in.ptrs) || !in.ptrs[r].made {
		return nil, true
	}
	q := in.ptrs[r].p
	in.made(i, q)
	if !tracking() {
		return (*T)(q), false
	}
	if q == nil {
		addNil(in, i)
	} else if o, ok := st.objs[uintptr(q)]; ok {
		o.last = in.ident(i)
		st.objs[uintptr(q)] = o
	}
	return (*T)(q), false
}

// ptrObj is an object a pointer input made: the identity of the input
// that made it, and of the last input that aliases it (first when none).
type ptrObj struct {
	first, last *sym.Expr
}

// InputObject records p as the object pointer input i made. A comparison
// of p with nil (IsNil) or another pointer (PtrEq) then has i's identity
// in its shadow, so that the solver can make the pointer nil or an alias.
func InputObject[T any](in *Input, i int, p *T) {
	in.made(i, unsafe.Pointer(p))
	if !tracking() {
		return
	}
	pin(unsafe.Pointer(p))
	id := in.ident(i)
	st.objs[uintptr(unsafe.Pointer(p))] = ptrObj{first: id, last: id}
}

// InputNil records that pointer input i is nil.
func InputNil(in *Input, i int) {
	in.made(i, nil)
	if tracking() {
		addNil(in, i)
	}
}

// addNil adds "input i is nil" to the disjunction of the nil inputs.
func addNil(in *Input, i int) {
	isNil := st.b.Eq(in.ident(i), st.b.Const(0, 64))
	if st.nils == nil {
		st.nils = isNil
		return
	}
	st.nils = st.b.Or(st.nils, isNil)
}

// IsNil returns p == nil, with the shadow "the input that made p's object
// is nil". A nil pointer has no address to key its input by; its shadow
// says that some pointer input is nil, true now and false once every one
// is an object, which is what makes a pointer input that was nil an
// object again (a nil the code made, not an input, then diverges).
func IsNil[T any](p *T) V[bool] {
	if !tracking() {
		return V[bool]{C: p == nil}
	}
	if p == nil {
		return V[bool]{C: true, S: st.nils}
	}
	o, ok := st.objs[uintptr(unsafe.Pointer(p))]
	if !ok {
		return V[bool]{}
	}
	return V[bool]{S: st.b.Eq(o.first, st.b.Const(0, 64))}
}

// NotNil returns p != nil, with the shadow of IsNil negated.
func NotNil[T any](p *T) V[bool] { return not(IsNil(p)) }

// PtrEq returns p == q for two pointers of one type. Objects of two pointer
// inputs are equal iff the inputs' identities are: the solver can make one
// an alias of the other. One object reached through two inputs is equal
// through the identities of the input that made it and the last that
// aliases it: negated, that alias becomes an object of its own. A nil
// pointer compares as IsNil of the other; a pointer no input made is
// compared concretely.
func PtrEq[T any](p, q *T) V[bool] {
	eq := p == q
	if !tracking() {
		return V[bool]{C: eq}
	}
	switch {
	case p == nil:
		return IsNil(q)
	case q == nil:
		return IsNil(p)
	}
	a, okA := st.objs[uintptr(unsafe.Pointer(p))]
	b, okB := st.objs[uintptr(unsafe.Pointer(q))]
	switch {
	case !okA || !okB:
		return V[bool]{C: eq}
	case !eq:
		return V[bool]{C: false, S: st.b.Eq(a.first, b.first)}
	case a.first == a.last:
		return V[bool]{C: true}
	}
	return V[bool]{C: true, S: st.b.Eq(a.first, a.last)}
}

// PtrNe returns p != q for two pointers of one type (PtrEq).
func PtrNe[T any](p, q *T) V[bool] { return not(PtrEq(p, q)) }

// not negates a boolean and its shadow.
func not(v V[bool]) V[bool] {
	v.C = !v.C
	if v.S != nil {
		v.S = st.b.Not(v.S)
	}
	return v
}
