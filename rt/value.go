// Package rt is the runtime that instrumented code calls. It is compiled
// into the target: gocolic copies its sources (and package sym) into the
// build overlay of the user's module, so it imports only the standard
// library and sym.
//
// Instrumented code carries every value of a tracked type (integers, bool,
// string, []byte) as a V: the concrete value, computed by the same Go
// operator the original code used, plus its symbolic shadow, nil while the
// value does not depend on the inputs. The operations here compute both; the
// concrete half is always exactly what the uninstrumented program computes.
package rt

import (
	"strconv"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// V is a value with its symbolic shadow. S is nil for a concrete value.
type V[T any] struct {
	C T
	S *sym.Expr
}

// Integer is the set of Go integer types.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Mk pairs a concrete value with its shadow.
func Mk[T any](c T, s *sym.Expr) V[T] { return V[T]{C: c, S: s} }

// Unpack splits v, for assignments of the form x, sx = Unpack(v).
func Unpack[T any](v V[T]) (T, *sym.Expr) { return v.C, v.S }

// Ret pairs the concrete result of an instrumented call with its shadow
// result, for calls used inside expressions: Ret(f(args)).
func Ret[T any](c T, s *sym.Expr) V[T] { return V[T]{C: c, S: s} }

// Lit returns the concrete value c of the type of like, for untyped
// constants that meet a tracked operand: the first argument only fixes T.
func Lit[T any](like V[T], c T) V[T] { return V[T]{C: c} }

// intSize is the width of int and uint, which len and indices use.
const intSize = uint8(strconv.IntSize)

// widthOf returns the bit width and signedness of an integer type.
func widthOf[T Integer]() (uint8, bool) {
	var z T
	return uint8(unsafe.Sizeof(z) * 8), ^z < 0
}

// term returns the symbolic term of an integer value, a constant when the
// value is concrete.
func term[T Integer](v V[T]) *sym.Expr {
	if v.S != nil {
		return v.S
	}
	w, _ := widthOf[T]()
	return st.b.Const(uint64(v.C), w)
}

// boolTerm returns the symbolic term of a boolean value.
func boolTerm[T ~bool](v V[T]) *sym.Expr {
	if v.S != nil {
		return v.S
	}
	return st.b.Bool(bool(v.C))
}

// Expr is the type of shadows, named here so that instrumented code needs
// only this package's import.
type Expr = sym.Expr

// Inc returns x+1 and its shadow, for x++ on a shadowed variable.
func Inc[T Integer](x T, s *sym.Expr) (T, *sym.Expr) {
	v := Add(V[T]{C: x, S: s}, V[T]{C: 1})
	return v.C, v.S
}

// Dec returns x-1 and its shadow, for x-- on a shadowed variable.
func Dec[T Integer](x T, s *sym.Expr) (T, *sym.Expr) {
	v := Sub(V[T]{C: x, S: s}, V[T]{C: 1})
	return v.C, v.S
}

// Unpack2 splits two values at once, for parallel assignments such as
// a, b = b, a: both right-hand sides are evaluated before either is stored.
func Unpack2[A, B any](a V[A], b V[B]) (A, B, *sym.Expr, *sym.Expr) {
	return a.C, b.C, a.S, b.S
}

// Unpack3 is Unpack2 for three values.
func Unpack3[A, B, C any](a V[A], b V[B], c V[C]) (A, B, C, *sym.Expr, *sym.Expr, *sym.Expr) {
	return a.C, b.C, c.C, a.S, b.S, c.S
}
