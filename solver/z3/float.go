package z3

/*
#include <stdlib.h>
#include <z3.h>

static Z3_ast gocolic_and2f(Z3_context c, Z3_ast a, Z3_ast b) {
	Z3_ast args[2] = {a, b};
	return Z3_mk_and(c, 2, args);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"math"

	"github.com/gocolic/gocolic/sym"
)

// This file translates sym's float kinds. A float is a bit-vector in sym
// (its IEEE-754 bits), and Z3 has a floating-point theory whose
// operations round as Go does; a term therefore has up to two
// translations:
//
//   - its bit-vector view (builder.memo), which every bit-vector and
//     boolean consumer uses, and
//   - its float view (builder.fmemo), which the float kinds use: for a
//     float kind, the Z3 floating-point operation on its operands' float
//     views; for any other term (a variable, a constant, an ite), the
//     reinterpretation of its bit-vector view (fp.to_fp of the bits).
//
// Each view is made when first needed. The bit-vector view of a float
// result is fp.to_ieee_bv of its float view, except where sym fixes bits
// that Z3's theory does not have: Z3 knows one NaN, without payload, and
// its fp.to_ieee_bv of NaN is unspecified. So the bit-vector view spells
// out sym's rules (sym/float.go): a NaN operand's bits with the quiet bit
// set, the first operand's if both are NaN; amd64's indefinite NaN for an
// invalid operation; the payload moved by a conversion; the sign flipped
// by a negation. The bits of every result, NaN or not, are thus exactly
// sym.Eval's, and a model may rely on a NaN's payload.
//
// Conversions to integers reproduce the code Go compiles for amd64
// (sym/float.go, floatToInt): fp.to_sbv, which SMT-LIB leaves unspecified
// out of range, is used only under a range check, and the x86 "integer
// indefinite" value is the result otherwise.

// isFloatBitsTest reports whether e compares the bits of a float result
// with a constant that is not a NaN, like math.Float64bits(x+y) == c. That
// holds exactly when the float is the number c encodes (no NaN rule of the
// bit-vector view can give a number), which floatBitsTest says on the
// float view: measured, Z3 answers such a query several times faster than
// through fp.to_ieee_bv. (Negation is left out: its bit-vector view is
// cheap already.)
func isFloatBitsTest(e *sym.Expr) bool {
	if e.Kind != sym.KEq || len(e.Args) != 2 {
		return false
	}
	x, c := e.Args[0], e.Args[1]
	if x.Kind == sym.KConst {
		x, c = c, x
	}
	if c.Kind != sym.KConst || !x.Kind.MakesFloat() || x.Kind == sym.KFNeg || x.Width != c.Width {
		return false
	}
	if c.Width == 32 {
		return c.Val&(1<<31-1) <= 0x7f800000
	}
	return c.Width == 64 && c.Val&(1<<63-1) <= 0x7ff0000000000000
}

// A scratch holds a reference to each intermediate Z3 term of one
// translation, so that Z3 cannot free a term before the one that uses it
// is made, and remembers the first failure. Once a call has failed, the
// following ones are not made: mk returns nil without calling Z3.
type scratch struct {
	ctx  C.Z3_context
	held []C.Z3_ast
	err  error
}

func (b *builder) scratch() *scratch { return &scratch{ctx: b.ctx} }

// mk makes a term with f, unless an earlier step failed, and keeps it.
func (s *scratch) mk(what string, f func() C.Z3_ast) C.Z3_ast {
	if s.err != nil {
		return nil
	}
	a := f()
	if a == nil {
		s.err = lastError(s.ctx, what)
		if s.err == nil {
			s.err = fmt.Errorf("%s: no term", what)
		}
		return nil
	}
	C.Z3_inc_ref(s.ctx, a)
	s.held = append(s.held, a)
	return a
}

// use takes the result of a translation (owned by the builder) into the
// scratch's error flow: nil, and the error remembered, if it failed.
func (s *scratch) use(a C.Z3_ast, err error) C.Z3_ast {
	if s.err != nil {
		return nil
	}
	if err != nil {
		s.err = err
		return nil
	}
	return a
}

// failure returns the first error, or a generic one.
func (s *scratch) failure(what string) error {
	if s.err != nil {
		return s.err
	}
	return errors.New(what + ": no term")
}

// release drops the references of the scratch.
func (s *scratch) release() {
	for _, a := range s.held {
		C.Z3_dec_ref(s.ctx, a)
	}
	s.held = nil
}

// fsort returns the float sort of width w, 32 or 64.
func (b *builder) fsort(w uint8) (C.Z3_sort, error) {
	if s, ok := b.fsorts[w]; ok {
		return s, nil
	}
	var s C.Z3_sort
	switch w {
	case 32:
		s = C.Z3_mk_fpa_sort_single(b.ctx)
	case 64:
		s = C.Z3_mk_fpa_sort_double(b.ctx)
	default:
		return nil, fmt.Errorf("bad float width %d", w)
	}
	if s == nil {
		return nil, b.lastError("making a float sort")
	}
	C.Z3_inc_ref(b.ctx, C.Z3_sort_to_ast(b.ctx, s))
	b.fsorts[w] = s
	return s, nil
}

// mode returns a rounding mode: "rne" (to nearest, ties to even: Go's
// arithmetic) or "rtz" (toward zero: Go's conversion to integers).
func (b *builder) mode(name string) (C.Z3_ast, error) {
	if a, ok := b.modes[name]; ok {
		return a, nil
	}
	var a C.Z3_ast
	switch name {
	case "rne":
		a = C.Z3_mk_fpa_rne(b.ctx)
	case "rtz":
		a = C.Z3_mk_fpa_rtz(b.ctx)
	default:
		return nil, fmt.Errorf("unknown rounding mode %s", name)
	}
	if a == nil {
		return nil, b.lastError("making a rounding mode")
	}
	C.Z3_inc_ref(b.ctx, a)
	b.modes[name] = a
	return a, nil
}

// fterm returns the float view of e, a term of width 32 or 64. The result
// is owned by b.
func (b *builder) fterm(e *sym.Expr) (C.Z3_ast, error) {
	if e == nil {
		return nil, errors.New("nil term")
	}
	if a, ok := b.fmemo[e]; ok {
		return a, nil
	}
	if err := checkShape(e); err != nil {
		return nil, err
	}
	if e.Width != 32 && e.Width != 64 {
		return nil, fmt.Errorf("%s node of width %d read as a float", e.Kind, e.Width)
	}
	s := b.scratch()
	defer s.release()
	var a C.Z3_ast
	if e.Kind.MakesFloat() {
		a = b.floatOp(e, s)
	} else {
		a = b.reinterpret(s.use(b.term(e)), e.Width, s)
	}
	if a == nil {
		return nil, s.failure("translating " + e.Kind.String() + " as a float")
	}
	C.Z3_inc_ref(b.ctx, a)
	b.fmemo[e] = a
	return a, nil
}

// reinterpret returns the float whose IEEE-754 bits are the bit-vector bv
// of width w.
func (b *builder) reinterpret(bv C.Z3_ast, w uint8, s *scratch) C.Z3_ast {
	fs, err := b.fsort(w)
	s.use(nil, err)
	return s.mk("reinterpreting bits as a float", func() C.Z3_ast {
		return C.Z3_mk_fpa_to_fp_bv(b.ctx, bv, fs)
	})
}

// floatOp returns the Z3 floating-point term of a float-result node.
func (b *builder) floatOp(e *sym.Expr, s *scratch) C.Z3_ast {
	c := b.ctx
	rne := s.use(b.mode("rne"))
	fs, err := b.fsort(e.Width)
	s.use(nil, err)
	switch k := e.Kind; {
	case k.IsFloatArith():
		x := s.use(b.fterm(e.Args[0]))
		y := s.use(b.fterm(e.Args[1]))
		return s.mk("float "+k.String(), func() C.Z3_ast {
			switch k {
			case sym.KFAdd:
				return C.Z3_mk_fpa_add(c, rne, x, y)
			case sym.KFSub:
				return C.Z3_mk_fpa_sub(c, rne, x, y)
			case sym.KFMul:
				return C.Z3_mk_fpa_mul(c, rne, x, y)
			}
			return C.Z3_mk_fpa_div(c, rne, x, y)
		})
	case k == sym.KFNeg:
		x := s.use(b.fterm(e.Args[0]))
		return s.mk("float negation", func() C.Z3_ast { return C.Z3_mk_fpa_neg(c, x) })
	case k == sym.KFConv:
		x := s.use(b.fterm(e.Args[0]))
		return s.mk("float conversion", func() C.Z3_ast { return C.Z3_mk_fpa_to_fp_float(c, rne, x, fs) })
	case k == sym.KSToF:
		x := s.use(b.term(e.Args[0]))
		return s.mk("signed to float", func() C.Z3_ast { return C.Z3_mk_fpa_to_fp_signed(c, rne, x, fs) })
	case k == sym.KUToF:
		x := s.use(b.term(e.Args[0]))
		return s.mk("unsigned to float", func() C.Z3_ast { return C.Z3_mk_fpa_to_fp_unsigned(c, rne, x, fs) })
	}
	s.use(nil, fmt.Errorf("cannot translate %s as a float", e.Kind))
	return nil
}

// floatTerm returns the bit-vector (or Bool) view of a node whose kind
// makes a float or converts one to an integer, or of a float bits test.
func (b *builder) floatTerm(e *sym.Expr, s *scratch) C.Z3_ast {
	c := b.ctx
	w := e.Width
	switch k := e.Kind; {
	case k == sym.KFNeg:
		// Go's -x flips the sign bit, NaN or not.
		x := s.use(b.term(e.Args[0]))
		sign := b.bvConst(1<<(w-1), w, s)
		return s.mk("float negation", func() C.Z3_ast { return C.Z3_mk_bvxor(c, x, sign) })
	case k == sym.KFToS || k == sym.KFToU:
		return b.floatToInt(e, s)
	case k == sym.KSToF || k == sym.KUToF:
		r := s.use(b.fterm(e)) // never NaN
		return s.mk("float bits", func() C.Z3_ast { return C.Z3_mk_fpa_to_ieee_bv(c, r) })
	case k == sym.KFConv:
		// A NaN keeps its payload, moved to the other format
		// (sym/float.go, floatConv); any other value is converted.
		x := s.use(b.fterm(e.Args[0]))
		xb := s.use(b.term(e.Args[0]))
		nan := b.nanConv(xb, e.Args[0].Width, w, s)
		return b.bitsUnlessNaN(s.use(b.fterm(e)), x, nan, s)
	case k == sym.KEq:
		return b.floatBitsTest(e, s)
	case k.IsFloatArith():
		// A NaN operand gives itself, made quiet, the first one if both
		// are NaN; numbers that make no number give amd64's NaN.
		x := s.use(b.fterm(e.Args[0]))
		y := s.use(b.fterm(e.Args[1]))
		xb := s.use(b.term(e.Args[0]))
		yb := s.use(b.term(e.Args[1]))
		quiet := b.bvConst(quietBit(w), w, s)
		qx := s.mk("quieting a NaN", func() C.Z3_ast { return C.Z3_mk_bvor(c, xb, quiet) })
		qy := s.mk("quieting a NaN", func() C.Z3_ast { return C.Z3_mk_bvor(c, yb, quiet) })
		r := s.use(b.fterm(e))
		bits := b.bitsUnlessNaN(r, r, b.bvConst(indefiniteNaN(w), w, s), s)
		bits = b.bitsUnlessNaN(nil, y, qy, s, bits)
		return b.bitsUnlessNaN(nil, x, qx, s, bits)
	}
	s.use(nil, fmt.Errorf("cannot translate %s", e.Kind))
	return nil
}

// floatBitsTest translates a node for which isFloatBitsTest holds: the
// float is the constant's number, IEEE equality but for the sign of zero,
// which a zero constant tests apart. (fp.eq is much faster in Z3 than the
// equality of the float sort, which would tell the zeros apart itself.)
func (b *builder) floatBitsTest(e *sym.Expr, s *scratch) C.Z3_ast {
	c := b.ctx
	x, k := e.Args[0], e.Args[1]
	if x.Kind == sym.KConst {
		x, k = k, x
	}
	fx := s.use(b.fterm(x))
	fk := s.use(b.fterm(k))
	eq := s.mk("comparing floats", func() C.Z3_ast { return C.Z3_mk_fpa_eq(c, fx, fk) })
	sign := uint64(1) << (k.Width - 1)
	if k.Val&^sign != 0 {
		return eq
	}
	signOK := s.mk("sign test", func() C.Z3_ast {
		if k.Val == sign {
			return C.Z3_mk_fpa_is_negative(c, fx)
		}
		return C.Z3_mk_fpa_is_positive(c, fx)
	})
	return s.mk("float bits test", func() C.Z3_ast { return C.gocolic_and2f(c, eq, signOK) })
}

// bitsUnlessNaN returns ite(isNaN(test), nan, other), where other is the
// first of rest if given, else fp.to_ieee_bv(r) (only ever read when r is
// not NaN, where it is specified).
func (b *builder) bitsUnlessNaN(r, test, nan C.Z3_ast, s *scratch, rest ...C.Z3_ast) C.Z3_ast {
	c := b.ctx
	var other C.Z3_ast
	if len(rest) > 0 {
		other = rest[0]
		if other == nil {
			return nil // an earlier step failed; s has the error
		}
	} else {
		other = s.mk("float bits", func() C.Z3_ast { return C.Z3_mk_fpa_to_ieee_bv(c, r) })
	}
	isNaN := s.mk("NaN test", func() C.Z3_ast { return C.Z3_mk_fpa_is_nan(c, test) })
	return s.mk("NaN case", func() C.Z3_ast { return C.Z3_mk_ite(c, isNaN, nan, other) })
}

// nanConv returns the bits of the NaN with bits x, of width from,
// converted to width to: the payload's top bits, made quiet.
func (b *builder) nanConv(x C.Z3_ast, from, to uint8, s *scratch) C.Z3_ast {
	c := b.ctx
	extract := func(hi, lo uint) C.Z3_ast {
		return s.mk("extracting bits", func() C.Z3_ast { return C.Z3_mk_extract(c, C.uint(hi), C.uint(lo), x) })
	}
	concat := func(x, y C.Z3_ast) C.Z3_ast {
		return s.mk("concatenating bits", func() C.Z3_ast { return C.Z3_mk_concat(c, x, y) })
	}
	if from == 32 {
		// sign, exponent all ones, quiet bit, 22 payload bits, 29 zeros
		head := concat(extract(31, 31), b.bvConst(0xfff, 12, s))
		return concat(concat(head, extract(21, 0)), b.bvConst(0, 29, s))
	}
	// sign, exponent all ones, quiet bit, the top 22 payload bits
	head := concat(extract(63, 63), b.bvConst(0x1ff, 9, s))
	return concat(head, extract(50, 29))
}

// floatToInt returns the bit-vector view of KFToS or KFToU: the code Go
// compiles for amd64 (sym/float.go, floatToInt) out of x86's truncating
// conversions.
func (b *builder) floatToInt(e *sym.Expr, s *scratch) C.Z3_ast {
	c := b.ctx
	fw, w := e.Args[0].Width, e.Width
	x := s.use(b.fterm(e.Args[0]))
	low := func(v C.Z3_ast, n uint8) C.Z3_ast {
		if n == w {
			return v
		}
		return s.mk("extracting bits", func() C.Z3_ast { return C.Z3_mk_extract(c, C.uint(w-1), 0, v) })
	}
	switch {
	case e.Kind == sym.KFToS && w == 64:
		return b.truncate(x, fw, 64, s)
	case e.Kind == sym.KFToU && w == 64:
		// x < 2^63 ? truncate(x) : truncate(x - 2^63) | 1<<63
		two63 := b.fpConst(math.Ldexp(1, 63), fw, s)
		rne := s.use(b.mode("rne"))
		small := s.mk("comparing floats", func() C.Z3_ast { return C.Z3_mk_fpa_lt(c, x, two63) })
		diff := s.mk("float subtraction", func() C.Z3_ast { return C.Z3_mk_fpa_sub(c, rne, x, two63) })
		top := b.bvConst(1<<63, 64, s)
		lowPart := b.truncate(x, fw, 64, s)
		high := b.truncate(diff, fw, 64, s)
		highPart := s.mk("setting the top bit", func() C.Z3_ast { return C.Z3_mk_bvor(c, high, top) })
		return s.mk("unsigned conversion", func() C.Z3_ast { return C.Z3_mk_ite(c, small, lowPart, highPart) })
	case e.Kind == sym.KFToU && w == 32:
		return low(b.truncate(x, fw, 64, s), 64)
	}
	// int32, and int8, int16, uint8, uint16 through int32
	return low(b.truncate(x, fw, 32, s), 32)
}

// truncate is the x86 truncating conversion of the float x, of width fw,
// to an n-bit signed destination: x rounded toward zero when in range,
// else (NaN included) the "integer indefinite" value 1<<(n-1).
func (b *builder) truncate(x C.Z3_ast, fw, n uint8, s *scratch) C.Z3_ast {
	c := b.ctx
	rtz := s.use(b.mode("rtz"))
	lo := b.reinterpret(b.bvConst(sym.FloatToIntBound(fw, n), fw, s), fw, s)
	hi := b.fpConst(math.Ldexp(1, int(n)-1), fw, s)
	geLo := s.mk("comparing floats", func() C.Z3_ast { return C.Z3_mk_fpa_leq(c, lo, x) })
	ltHi := s.mk("comparing floats", func() C.Z3_ast { return C.Z3_mk_fpa_lt(c, x, hi) })
	inRange := s.mk("range check", func() C.Z3_ast { return C.gocolic_and2f(c, geLo, ltHi) })
	conv := s.mk("float to integer", func() C.Z3_ast { return C.Z3_mk_fpa_to_sbv(c, rtz, x, C.uint(n)) })
	indefinite := b.bvConst(1<<(n-1), n, s)
	return s.mk("float to integer", func() C.Z3_ast { return C.Z3_mk_ite(c, inRange, conv, indefinite) })
}

// bvConst returns the bit-vector constant v of width w (any width from 1
// to 64: the pieces of a NaN's bits have odd sizes).
func (b *builder) bvConst(v uint64, w uint8, s *scratch) C.Z3_ast {
	srt, err := b.sort(w)
	if s.use(nil, err); s.err != nil {
		return nil
	}
	return s.mk("making a constant", func() C.Z3_ast { return C.Z3_mk_unsigned_int64(b.ctx, C.uint64_t(v), srt) })
}

// fpConst returns the float constant v, which must be exact in width w.
func (b *builder) fpConst(v float64, w uint8, s *scratch) C.Z3_ast {
	bits := math.Float64bits(v)
	if w == 32 {
		bits = uint64(math.Float32bits(float32(v)))
	}
	return b.reinterpret(b.bvConst(bits, w, s), w, s)
}

func quietBit(w uint8) uint64 {
	if w == 32 {
		return 1 << 22
	}
	return 1 << 51
}

// indefiniteNaN returns the NaN that SSE arithmetic makes from numbers
// (sym/float.go).
func indefiniteNaN(w uint8) uint64 {
	if w == 32 {
		return 0xffc00000
	}
	return 0xfff8000000000000
}
