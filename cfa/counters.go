package cfa

// This file finds counter fields: unexported 64-bit integer fields that
// their package only sets to small constants and increases by one. Such
// a field never holds a negative value, and it stays far below its
// type's maximum in any execution that could run: from at most 2^32 it
// would need more than 2^62 increments, over a century at one a
// nanosecond. The model checker uses this to know that an increment of
// the field does not wrap (mc's field variables).
//
// The analysis is type-based, as the model checker's memory is: an
// unexported field can be named only by its own package, so the field
// addresses (FieldAddr) that package's functions take are every way to
// write it, as long as no address escapes (is used other than to load
// or store through it) and the package does not import unsafe or
// reflect. A whole struct stored at once copies fields that already
// hold such values (a composite literal is built field by field, a zero
// value holds 0). One more writer is outside the packages' code: the
// entry that gocolic generates sets the unexported fields of the
// target's parameters from the input (instrument's shapes), to any
// value. So no struct type the entries' parameters can hold is a
// counter's, and nothing is one until SetEntries has said what the
// entries are.

import (
	"go/constant"
	"go/token"
	"go/types"
	"runtime"

	"golang.org/x/tools/go/ssa"
)

// maxCounterStart bounds the constants a counter field may be set to.
const maxCounterStart = 1 << 32

// Sizes gives the basic types their sizes as the worker lays them out:
// it runs on the machine gocolic runs on.
var Sizes = sizesOf(runtime.GOARCH)

func sizesOf(arch string) types.Sizes {
	if s := types.SizesFor("gc", arch); s != nil {
		return s
	}
	return types.SizesFor("gc", "amd64")
}

// SetEntries says which functions executions start at (as for
// Unreachable: the function under test or the fuzz target first, then
// the other starts of a test binary), whose parameters gocolic's entry
// builds from inputs: Counter excludes the struct types those can hold.
// Until it is called, or with no entry (not known), Counter reports no
// counter.
func (g *Graph) SetEntries(entries ...*types.Func) {
	in := &inputTypes{any: len(entries) == 0}
	seen := map[types.Type]bool{}
	for _, f := range entries {
		sig, ok := f.Type().(*types.Signature)
		if !ok {
			in.any = true
			continue
		}
		if r := sig.Recv(); r != nil {
			in.walk(r.Type(), seen)
		}
		for i := 0; i < sig.Params().Len(); i++ {
			in.walk(sig.Params().At(i).Type(), seen)
		}
	}
	g.countersMu.Lock()
	defer g.countersMu.Unlock()
	g.inputs, g.counters = in, nil
}

// inputTypes are the struct types values built from inputs can hold; any
// when one may hold any type (an interface, a type parameter).
type inputTypes struct {
	structs []*types.Struct
	any     bool
}

// walk adds the struct types a value of type t can hold.
func (in *inputTypes) walk(t types.Type, seen map[types.Type]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		in.walk(u.Elem(), seen)
	case *types.Slice:
		in.walk(u.Elem(), seen)
	case *types.Array:
		in.walk(u.Elem(), seen)
	case *types.Chan:
		in.walk(u.Elem(), seen)
	case *types.Map:
		in.walk(u.Key(), seen)
		in.walk(u.Elem(), seen)
	case *types.Struct:
		in.structs = append(in.structs, u)
		for i := 0; i < u.NumFields(); i++ {
			in.walk(u.Field(i).Type(), seen)
		}
	case *types.Interface, *types.TypeParam:
		in.any = true
	}
}

// Counter reports whether field i of st is a counter (the file's
// comment): unexported, a 64-bit integer, of a package of the graph that
// imports neither unsafe nor reflect and has no generic function, every
// address of it taken in that package only loaded and stored through,
// and every value stored there a constant in [0, 2^32) or one plus a
// value loaded from the same field; and SetEntries was told the entries,
// whose parameters hold no struct of st's type.
func (g *Graph) Counter(st *types.Struct, i int) bool {
	if i < 0 || i >= st.NumFields() {
		return false
	}
	v := st.Field(i)
	g.countersMu.Lock()
	defer g.countersMu.Unlock()
	if ok, seen := g.counters[v]; seen {
		return ok
	}
	ok := g.counter(st, i)
	if g.counters == nil {
		g.counters = map[*types.Var]bool{}
	}
	g.counters[v] = ok
	return ok
}

func (g *Graph) counter(st *types.Struct, i int) bool {
	if g.inputs == nil || g.inputs.any {
		return false
	}
	for _, s := range g.inputs.structs {
		if types.IdenticalIgnoreTags(s, st) {
			return false // the entry may set it to any value
		}
	}
	v := st.Field(i)
	b, isBasic := v.Type().Underlying().(*types.Basic)
	if v.Exported() || v.Pkg() == nil || !isBasic || b.Info()&types.IsInteger == 0 || b.Info()&types.IsUntyped != 0 {
		return false
	}
	if Sizes.Sizeof(b) != 8 {
		return false
	}
	own := false
	for _, p := range g.pkgs {
		if p.Types == v.Pkg() {
			_, unsafe := p.Imports["unsafe"]
			_, refl := p.Imports["reflect"]
			own = !unsafe && !refl
		}
	}
	if !own {
		return false // not all of its package's code is seen, or it may be written around the types
	}
	g.fieldsOnce.Do(g.indexFields)
	if g.generic[v.Pkg()] || declaresGeneric(v.Pkg()) {
		return false
	}
	for _, fa := range g.fieldAddrs {
		if !sameField(fa, st, i) {
			continue
		}
		for _, r := range *fa.Referrers() {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return false
				}
			case *ssa.Store:
				if r.Addr != fa || r.Val == fa || !g.counterValue(r.Val, st, i) {
					return false
				}
			default:
				return false // the address escapes
			}
		}
	}
	return true
}

// counterValue reports whether x, stored in field i of st, keeps it a
// counter: a constant in [0, 2^32), or the field (of any struct of the
// type, loaded or extracted) plus one.
func (g *Graph) counterValue(x ssa.Value, st *types.Struct, i int) bool {
	if n, ok := intConst(x); ok {
		return n >= 0 && n < maxCounterStart
	}
	add, ok := x.(*ssa.BinOp)
	if !ok || add.Op != token.ADD {
		return false
	}
	one := func(v ssa.Value) bool {
		n, ok := intConst(v)
		return ok && n == 1
	}
	loaded := func(v ssa.Value) bool {
		switch v := v.(type) {
		case *ssa.UnOp: // through the field's address
			fa, ok := v.X.(*ssa.FieldAddr)
			return v.Op == token.MUL && ok && sameField(fa, st, i)
		case *ssa.Field: // of a struct value
			s, ok := v.X.Type().Underlying().(*types.Struct)
			return ok && v.Field == i && types.IdenticalIgnoreTags(s, st)
		}
		return false
	}
	return one(add.Y) && loaded(add.X) || one(add.X) && loaded(add.Y)
}

// intConst returns the value of x if it is an integer constant that
// fits an int64 (0 for a zero value).
func intConst(x ssa.Value) (int64, bool) {
	c, ok := x.(*ssa.Const)
	if !ok {
		return 0, false
	}
	if c.Value == nil {
		return 0, true
	}
	return constant.Int64Val(constant.ToInt(c.Value))
}

// sameField reports whether fa is the address of field i of a struct of
// type st (tags aside, as conversions ignore them).
func sameField(fa *ssa.FieldAddr, st *types.Struct, i int) bool {
	if fa.Field != i {
		return false
	}
	p, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	s, ok := p.Elem().Underlying().(*types.Struct)
	return ok && types.IdenticalIgnoreTags(s, st)
}

// indexFields finds, once, the field addresses the graph's functions
// take, and the packages with generic functions (whose instances may
// take addresses the graph's functions do not show).
func (g *Graph) indexFields() {
	g.generic = map[*types.Package]bool{}
	for _, fn := range g.funcs {
		if fn.TypeParams().Len() > 0 || len(fn.TypeArgs()) > 0 {
			if fn.Pkg != nil {
				g.generic[fn.Pkg.Pkg] = true
			}
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if fa, ok := in.(*ssa.FieldAddr); ok {
					g.fieldAddrs = append(g.fieldAddrs, fa)
				}
			}
		}
	}
}

// declaresGeneric reports whether pkg declares a generic type or
// function at package level, the only place Go allows one.
func declaresGeneric(pkg *types.Package) bool {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		switch o := scope.Lookup(name).(type) {
		case *types.TypeName:
			if n, ok := o.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
				return true
			}
		case *types.Func:
			if sig, ok := o.Type().(*types.Signature); ok && sig.TypeParams().Len() > 0 {
				return true
			}
		}
	}
	return false
}
