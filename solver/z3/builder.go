package z3

/*
#include <stdlib.h>
#include <z3.h>

static Z3_ast gocolic_and2(Z3_context c, Z3_ast a, Z3_ast b) {
	Z3_ast args[2] = {a, b};
	return Z3_mk_and(c, 2, args);
}

static Z3_ast gocolic_or2(Z3_context c, Z3_ast a, Z3_ast b) {
	Z3_ast args[2] = {a, b};
	return Z3_mk_or(c, 2, args);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// builder translates sym terms into Z3 terms of one context. It holds one
// reference to every term and sort it made, in memo, fmemo, sorts, fsorts
// and modes, so that callers may use them freely until reset or release
// without counting references themselves.
//
// A 32-bit or 64-bit term that a float kind reads has a second
// translation, its float view, in fmemo (float.go); memo always holds the
// bit-vector (or Bool) view.
type builder struct {
	ctx    C.Z3_context
	memo   map[*sym.Expr]C.Z3_ast
	fmemo  map[*sym.Expr]C.Z3_ast // float views
	sorts  map[uint8]C.Z3_sort    // by width; 0 is Bool
	fsorts map[uint8]C.Z3_sort    // float sorts by width, 32 or 64
	modes  map[string]C.Z3_ast    // rounding modes: "rne", "rtz"
}

func newBuilder(ctx C.Z3_context) *builder {
	return &builder{
		ctx:    ctx,
		memo:   make(map[*sym.Expr]C.Z3_ast),
		fmemo:  make(map[*sym.Expr]C.Z3_ast),
		sorts:  make(map[uint8]C.Z3_sort),
		fsorts: make(map[uint8]C.Z3_sort),
		modes:  make(map[string]C.Z3_ast),
	}
}

// size returns the number of translations held.
func (b *builder) size() int { return len(b.memo) + len(b.fmemo) }

// reset drops the translations (but not the sorts and rounding modes),
// letting Z3 free terms no assertion uses any more.
func (b *builder) reset() {
	for _, m := range []map[*sym.Expr]C.Z3_ast{b.memo, b.fmemo} {
		for _, a := range m {
			C.Z3_dec_ref(b.ctx, a)
		}
		clear(m)
	}
}

// release drops everything; b must not be used afterwards.
func (b *builder) release() {
	b.reset()
	for _, m := range []map[uint8]C.Z3_sort{b.sorts, b.fsorts} {
		for _, s := range m {
			C.Z3_dec_ref(b.ctx, C.Z3_sort_to_ast(b.ctx, s))
		}
		clear(m)
	}
	for _, a := range b.modes {
		C.Z3_dec_ref(b.ctx, a)
	}
	clear(b.modes)
}

// lastError returns Z3's error for the last call, which failed doing what.
func (b *builder) lastError(what string) error {
	return lastError(b.ctx, what)
}

func (b *builder) sort(w uint8) (C.Z3_sort, error) {
	if s, ok := b.sorts[w]; ok {
		return s, nil
	}
	var s C.Z3_sort
	switch {
	case w == 0:
		s = C.Z3_mk_bool_sort(b.ctx)
	case w <= 64: // sym's widths, and pieces of floats (float.go)
		s = C.Z3_mk_bv_sort(b.ctx, C.uint(w))
	default:
		return nil, fmt.Errorf("bad bit-vector width %d", w)
	}
	if s == nil {
		return nil, b.lastError("making a sort")
	}
	C.Z3_inc_ref(b.ctx, C.Z3_sort_to_ast(b.ctx, s))
	b.sorts[w] = s
	return s, nil
}

// term returns the Z3 term for e, which must be well-sorted. The result is
// owned by b.
func (b *builder) term(e *sym.Expr) (C.Z3_ast, error) {
	if e == nil {
		return nil, errors.New("nil term")
	}
	if a, ok := b.memo[e]; ok {
		return a, nil
	}
	if err := checkShape(e); err != nil {
		return nil, err
	}
	if e.Kind.MakesFloat() || e.Kind == sym.KFToS || e.Kind == sym.KFToU || isFloatBitsTest(e) {
		// Made of several Z3 terms (float.go).
		s := b.scratch()
		defer s.release()
		a := b.floatTerm(e, s)
		if a == nil {
			return nil, s.failure("translating " + e.Kind.String())
		}
		C.Z3_inc_ref(b.ctx, a)
		b.memo[e] = a
		return a, nil
	}
	args := make([]C.Z3_ast, len(e.Args))
	for i, x := range e.Args {
		var a C.Z3_ast
		var err error
		if e.Kind.ReadsFloat() {
			a, err = b.fterm(x)
		} else {
			a, err = b.term(x)
		}
		if err != nil {
			return nil, err
		}
		args[i] = a
	}
	a, err := b.make(e, args)
	if err != nil {
		return nil, err
	}
	if a == nil {
		return nil, b.lastError("translating " + e.Kind.String())
	}
	C.Z3_inc_ref(b.ctx, a)
	b.memo[e] = a
	return a, nil
}

// make creates the Z3 term of e's kind from the terms of its arguments. A
// nil result without error means Z3 refused; its error code says why.
func (b *builder) make(e *sym.Expr, x []C.Z3_ast) (C.Z3_ast, error) {
	c := b.ctx
	switch e.Kind {
	case sym.KTrue:
		return C.Z3_mk_true(c), nil
	case sym.KFalse:
		return C.Z3_mk_false(c), nil
	case sym.KConst:
		s, err := b.sort(e.Width)
		if err != nil {
			return nil, err
		}
		return C.Z3_mk_unsigned_int64(c, C.uint64_t(e.Val), s), nil
	case sym.KVar:
		s, err := b.sort(e.Width)
		if err != nil {
			return nil, err
		}
		name := C.CString(varName(e.Val))
		defer C.free(unsafe.Pointer(name))
		return C.Z3_mk_const(c, C.Z3_mk_string_symbol(c, name), s), nil
	case sym.KAdd:
		return C.Z3_mk_bvadd(c, x[0], x[1]), nil
	case sym.KSub:
		return C.Z3_mk_bvsub(c, x[0], x[1]), nil
	case sym.KMul:
		return C.Z3_mk_bvmul(c, x[0], x[1]), nil
	case sym.KUDiv:
		return C.Z3_mk_bvudiv(c, x[0], x[1]), nil
	case sym.KSDiv:
		return C.Z3_mk_bvsdiv(c, x[0], x[1]), nil
	case sym.KURem:
		return C.Z3_mk_bvurem(c, x[0], x[1]), nil
	case sym.KSRem:
		return C.Z3_mk_bvsrem(c, x[0], x[1]), nil // sign of the dividend, as Go's %
	case sym.KAnd:
		return C.Z3_mk_bvand(c, x[0], x[1]), nil
	case sym.KOr:
		return C.Z3_mk_bvor(c, x[0], x[1]), nil
	case sym.KXor:
		return C.Z3_mk_bvxor(c, x[0], x[1]), nil
	case sym.KShl:
		return C.Z3_mk_bvshl(c, x[0], x[1]), nil
	case sym.KLShr:
		return C.Z3_mk_bvlshr(c, x[0], x[1]), nil
	case sym.KAShr:
		return C.Z3_mk_bvashr(c, x[0], x[1]), nil
	case sym.KNeg:
		return C.Z3_mk_bvneg(c, x[0]), nil
	case sym.KCpl:
		return C.Z3_mk_bvnot(c, x[0]), nil
	case sym.KZExt:
		return C.Z3_mk_zero_ext(c, C.uint(e.Width-e.Args[0].Width), x[0]), nil
	case sym.KSExt:
		return C.Z3_mk_sign_ext(c, C.uint(e.Width-e.Args[0].Width), x[0]), nil
	case sym.KTrunc:
		return C.Z3_mk_extract(c, C.uint(e.Width-1), 0, x[0]), nil
	case sym.KIte:
		return C.Z3_mk_ite(c, x[0], x[1], x[2]), nil
	case sym.KEq:
		return C.Z3_mk_eq(c, x[0], x[1]), nil
	case sym.KULt:
		return C.Z3_mk_bvult(c, x[0], x[1]), nil
	case sym.KULe:
		return C.Z3_mk_bvule(c, x[0], x[1]), nil
	case sym.KSLt:
		return C.Z3_mk_bvslt(c, x[0], x[1]), nil
	case sym.KSLe:
		return C.Z3_mk_bvsle(c, x[0], x[1]), nil
	case sym.KNot:
		return C.Z3_mk_not(c, x[0]), nil
	case sym.KLAnd:
		return C.gocolic_and2(c, x[0], x[1]), nil
	case sym.KLOr:
		return C.gocolic_or2(c, x[0], x[1]), nil
	case sym.KFEq: // x are float views
		return C.Z3_mk_fpa_eq(c, x[0], x[1]), nil
	case sym.KFLt:
		return C.Z3_mk_fpa_lt(c, x[0], x[1]), nil
	case sym.KFLe:
		return C.Z3_mk_fpa_leq(c, x[0], x[1]), nil
	}
	return nil, fmt.Errorf("cannot translate %s", e.Kind)
}

// varName returns the Z3 name of input variable n.
func varName(n uint64) string { return fmt.Sprintf("v%d", n) }

// checkShape reports a node that Z3 would reject or misread: the wrong
// number or sorts of arguments, a bad width, or a runtime-only kind. Z3
// would catch most of these itself, but its messages do not name the node.
func checkShape(e *sym.Expr) error {
	bad := func(why string) error {
		return fmt.Errorf("ill-formed %s node of width %d: %s", e.Kind, e.Width, why)
	}
	args := func(n int) bool { return len(e.Args) == n }
	isBV := func(w uint8) bool { return w == 8 || w == 16 || w == 32 || w == 64 }
	isBool := func(x *sym.Expr) bool { return x.Width == 0 && x.Kind != sym.KString }
	isBVOf := func(x *sym.Expr, w uint8) bool { return x.Width == w && x.Kind != sym.KString }
	isFloat := func(w uint8) bool { return w == 32 || w == 64 }

	k := e.Kind
	switch {
	case k == sym.KString:
		return errors.New("a string aggregate reached the solver")
	case k == sym.KTrue || k == sym.KFalse:
		if !args(0) || e.Width != 0 {
			return bad("want a boolean leaf")
		}
	case k == sym.KConst:
		if !args(0) || !isBV(e.Width) {
			return bad("want a bit-vector leaf")
		}
	case k == sym.KVar:
		if !args(0) || (e.Width != 0 && !isBV(e.Width)) {
			return bad("want a leaf of a valid sort")
		}
	case k.IsBinaryBV():
		if !args(2) || !isBV(e.Width) || !isBVOf(e.Args[0], e.Width) || !isBVOf(e.Args[1], e.Width) {
			return bad("want two bit-vectors of the node's width")
		}
	case k == sym.KNeg || k == sym.KCpl:
		if !args(1) || !isBV(e.Width) || !isBVOf(e.Args[0], e.Width) {
			return bad("want one bit-vector of the node's width")
		}
	case k == sym.KZExt || k == sym.KSExt || k == sym.KTrunc:
		if !args(1) || !isBV(e.Width) || !isBV(e.Args[0].Width) || e.Args[0].Kind == sym.KString {
			return bad("want one bit-vector")
		}
		if (k == sym.KTrunc && e.Args[0].Width < e.Width) || (k != sym.KTrunc && e.Args[0].Width > e.Width) {
			return bad(fmt.Sprintf("argument of width %d", e.Args[0].Width))
		}
	case k == sym.KIte:
		if !args(3) || !isBool(e.Args[0]) || !isBVOf(e.Args[1], e.Width) || !isBVOf(e.Args[2], e.Width) {
			return bad("want a boolean and two terms of the node's sort")
		}
	case k.IsCompare():
		if !args(2) || e.Width != 0 || e.Args[0].Width != e.Args[1].Width ||
			(e.Args[0].Width == 0 && k != sym.KEq) ||
			e.Args[0].Kind == sym.KString || e.Args[1].Kind == sym.KString {
			return bad("want two terms of one sort")
		}
	case k == sym.KNot:
		if !args(1) || e.Width != 0 || !isBool(e.Args[0]) {
			return bad("want one boolean")
		}
	case k == sym.KLAnd || k == sym.KLOr:
		if !args(2) || e.Width != 0 || !isBool(e.Args[0]) || !isBool(e.Args[1]) {
			return bad("want two booleans")
		}
	case k.IsFloatArith():
		if !args(2) || !isFloat(e.Width) || !isBVOf(e.Args[0], e.Width) || !isBVOf(e.Args[1], e.Width) {
			return bad("want two floats of the node's width")
		}
	case k == sym.KFNeg:
		if !args(1) || !isFloat(e.Width) || !isBVOf(e.Args[0], e.Width) {
			return bad("want one float of the node's width")
		}
	case k.IsFloatCompare():
		if !args(2) || e.Width != 0 || !isFloat(e.Args[0].Width) || !isBVOf(e.Args[0], e.Args[1].Width) ||
			e.Args[1].Kind == sym.KString {
			return bad("want two floats of one width")
		}
	case k == sym.KFToS || k == sym.KFToU:
		if !args(1) || !isBV(e.Width) || !isFloat(e.Args[0].Width) || e.Args[0].Kind == sym.KString {
			return bad("want one float")
		}
	case k == sym.KSToF || k == sym.KUToF:
		if !args(1) || !isFloat(e.Width) || !isBV(e.Args[0].Width) || e.Args[0].Kind == sym.KString {
			return bad("want one bit-vector")
		}
	case k == sym.KFConv:
		if !args(1) || !isFloat(e.Width) || !isFloat(e.Args[0].Width) || e.Args[0].Width == e.Width ||
			e.Args[0].Kind == sym.KString {
			return bad("want one float of the other width")
		}
	default:
		return fmt.Errorf("cannot translate %s", k)
	}
	return nil
}
