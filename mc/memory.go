package mc

// This file is the encoder's memory (stage 2 of issue 19): loads and
// stores of integers and booleans through pointers, struct fields and
// globals, with aliasing decided by type.
//
// An address is a number. A field of an address (&x.f) is the number of
// the pair (x's number, f), a global its own number, and any other
// pointer value a fresh number each time it is defined: two numbers may
// still name the same memory (two pointers to one variable), so a store
// of type T forgets every other cell whose type has T's underlying type,
// the only ones Go's conversions let alias it; it keeps the stored value
// for its own address. A load returns the cell's value, or a fresh
// (havoc) one that later loads of the address share. A store of a struct
// or an array, a call the encoder does not inline, a builtin that may
// write (copy, append, clear, ...) and every synchronising operation
// (channels, select, go, defer) forget all cells, since code the encoder
// does not see may write anything then.
//
// The length of a slice or string loaded from an address is a cell of
// its own beside the address's, of the slice's type, so that the stores
// and clobbers that may change the slice forget it too. A path starts
// with the fields of its function's pointer parameters (and the lengths
// of their slice fields) in their cells as variables (paramField): the
// abstraction's state speaks of them. Where an inlined callee's paths
// join, a cell they all hold keeps the value they agree on, or the
// if-then-else of their values over the edges they arrive by.
//
// The model assumes what Go's type rules give without unsafe: an encoder
// of a function in a package that imports unsafe keeps no cell (every
// load is havoc, as in stage 1), and no callee of such a package is
// inlined. A pointer converted through unsafe.Pointer elsewhere and
// passed in is outside the model.

import (
	"go/types"

	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// objKey is an address derived from another: a field of base, or a
// global (base -1).
type objKey struct {
	base, field int
	g           *ssa.Global
}

// cell is what memory holds at an address: a value and the type it was
// stored or loaded as.
type cell struct {
	val *sym.Expr
	typ types.Type // underlying
}

// importsUnsafe reports whether fn's package imports unsafe.
func importsUnsafe(fn *ssa.Function) bool {
	if fn.Pkg == nil || fn.Pkg.Pkg == nil {
		return true
	}
	for _, im := range fn.Pkg.Pkg.Imports() {
		if im.Path() == "unsafe" {
			return true
		}
	}
	return false
}

// addr returns the number of the address held by v, a pointer value.
func (p *Path) addr(v ssa.Value) int {
	if n, ok := p.ptr[v]; ok {
		return n
	}
	var n int
	switch v := v.(type) {
	case *ssa.FieldAddr:
		n = p.derived(objKey{base: p.addr(v.X), field: v.Field})
	case *ssa.Global:
		n = p.derived(objKey{base: -1, g: v})
	default:
		p.nobj++
		n = p.nobj
	}
	if p.ptr == nil {
		p.ptr = map[ssa.Value]int{}
	}
	p.ptr[v] = n
	return n
}

func (p *Path) derived(k objKey) int {
	if n, ok := p.objs[k]; ok {
		return n
	}
	p.nobj++
	p.objs[k] = p.nobj
	return p.nobj
}

// redefined forgets v's address, results and length: an instruction
// encoded again (a loop's next turn) defines a new value.
func (p *Path) redefined(v ssa.Value) {
	delete(p.ptr, v)
	delete(p.tup, v)
	delete(p.lens, v)
}

// lenCell returns the address of the length of the slice or string held
// at address a: a cell of the slice's own type, so that whatever may
// store a slice of that type there (a store of the type anywhere, a
// clobber) forgets it as it forgets the slice.
func (p *Path) lenCell(a int) int { return p.derived(objKey{base: a, field: -1}) }

// startFields puts the encoder's field variables in their cells: at the
// start of a path, field f of pointer parameter q holds its variable
// (and the length of a slice field its length's), which the path's
// first load of it reads instead of a havoc value; a counter field's
// range is assumed (Path.Assume).
func (p *Path) startFields() {
	if !p.enc.memory {
		return
	}
	for _, pf := range p.enc.fields {
		a := p.derived(objKey{base: p.addr(p.enc.Fn.Params[pf.param]), field: pf.field})
		if pf.length {
			a = p.lenCell(a)
		}
		p.fieldAt = append(p.fieldAt, a)
		p.mem[a] = cell{pf.v, pf.typ}
	}
	for k := range p.enc.fields {
		if p.enc.isCounter(k) {
			p.Assume = append(p.Assume, counterRange(p.enc.B, p.enc.fields[k].v))
		}
	}
}

// counterBound is the bound a counter field stays under (cfa's
// counters.go): 2^62, far above any count an execution reaches and far
// below the type's maximum, so that an increment of it does not wrap.
const counterBound = 1 << 62

// counterRange is what every value of a counter field meets: 0 <= v <
// counterBound, signed or not alike.
func counterRange(b *sym.Builder, v *sym.Expr) *sym.Expr {
	return b.Cmp(sym.KULt, v, b.Const(counterBound, v.Width))
}

// isCounter reports whether field variable k is a 64-bit counter field
// (Encoder.Counter), asking once.
func (e *Encoder) isCounter(k int) bool {
	pf := &e.fields[k]
	if pf.counter == 0 {
		pf.counter = -1
		if e.Counter != nil && !pf.length && pf.v.Width == 64 && e.Counter(pf.st, pf.field) {
			pf.counter = 1
		}
	}
	return pf.counter == 1
}

// fieldOut returns the term of the encoder's field k at the end of the
// path: what its cell holds, or a fresh (havoc) value when the path
// forgot it (a store that may alias it, a call not inlined). Asked
// again, it gives the same term.
func (p *Path) fieldOut(k int) *sym.Expr {
	if t, ok := p.fieldEnd[k]; ok {
		return t
	}
	pf := p.enc.fields[k]
	var t *sym.Expr
	if k < len(p.fieldAt) {
		if c, ok := p.mem[p.fieldAt[k]]; ok && c.val.Width == pf.v.Width && types.Identical(c.typ, pf.typ) {
			t = c.val
		}
	}
	if t == nil {
		t = p.fresh(pf.v.Width)
	}
	if p.fieldEnd == nil {
		p.fieldEnd = map[int]*sym.Expr{}
	}
	p.fieldEnd[k] = t
	return t
}

// fresh returns a new havoc variable of width w.
func (p *Path) fresh(w uint8) *sym.Expr {
	t := p.enc.B.Var(p.enc.next, w)
	p.enc.next++
	p.Havoc = append(p.Havoc, t)
	return t
}

// loadLen records the length of the slice or string u loads: the length
// its address holds, or a fresh value that later loads of the address
// share until something may store there.
func (p *Path) loadLen(u *ssa.UnOp) {
	if !p.enc.memory {
		return
	}
	a := p.lenCell(p.addr(u.X))
	typ := u.Type().Underlying()
	c, ok := p.mem[a]
	if !ok || !types.Identical(c.typ, typ) || c.val.Width != intWidth() {
		c = cell{p.fresh(intWidth()), typ}
		p.mem[a] = c
	}
	if p.lens == nil {
		p.lens = map[ssa.Value]*sym.Expr{}
	}
	p.lens[u] = c.val
}

// clobber forgets every cell.
func (p *Path) clobber() {
	if len(p.mem) > 0 {
		p.mem = map[int]cell{}
	}
}

// load returns the term of the load u (*x), nil when memory is not
// modelled or u is not an integer or a boolean.
func (p *Path) load(u *ssa.UnOp) *sym.Expr {
	w, _, ok := scalar(u.Type())
	if !ok || !p.enc.memory {
		return nil
	}
	a := p.addr(u.X)
	typ := u.Type().Underlying()
	if c, ok := p.mem[a]; ok && c.val.Width == w && types.Identical(c.typ, typ) {
		return c.val
	}
	t := p.havoc(u)
	p.mem[a] = cell{t, typ}
	return t
}

// store encodes s: the stored value at its address, every cell that may
// alias it forgotten.
func (p *Path) store(s *ssa.Store) {
	if !p.enc.memory {
		return
	}
	ptr, ok := s.Addr.Type().Underlying().(*types.Pointer)
	if !ok {
		p.clobber()
		return
	}
	typ := ptr.Elem().Underlying()
	switch typ.(type) {
	case *types.Struct, *types.Array:
		p.clobber() // its fields and elements change with it
		return
	}
	a := p.addr(s.Addr)
	for k, c := range p.mem {
		if k != a && types.Identical(c.typ, typ) {
			delete(p.mem, k)
		}
	}
	delete(p.mem, a)
	if _, _, ok := scalar(typ); ok {
		if v := p.Value(s.Val); v != nil {
			p.mem[a] = cell{v, typ}
		}
	}
}

// merge returns what memory holds where the paths of ms join, conds[i]
// the condition of arriving from ms[i] (at most one holds): the cells
// every memory holds with the same type, with the value they agree on or
// else the if-then-else of the values over conds.
func merge(b *sym.Builder, ms []map[int]cell, conds []*sym.Expr) map[int]cell {
	out := map[int]cell{}
	if len(ms) == 0 {
		return out
	}
	for k, c := range ms[0] {
		same, all := true, true
		for _, m := range ms[1:] {
			d, ok := m[k]
			if !ok || d.val.Width != c.val.Width || !types.Identical(d.typ, c.typ) {
				all = false
				break
			}
			same = same && d.val == c.val
		}
		switch {
		case same:
			out[k] = c
		case all:
			acc := ms[len(ms)-1][k].val
			for i := len(ms) - 2; i >= 0; i-- {
				acc = b.Ite(conds[i], ms[i][k].val, acc)
			}
			out[k] = cell{acc, c.typ}
		}
	}
	return out
}

// isPointer reports whether t is a pointer type.
func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}
