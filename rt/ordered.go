// This file implements the operators of type parameters whose type set
// mixes integer, float and string types (cmp.Ordered, ~int32 | ~float32).
// One instrumented function serves every instantiation, so each operator
// computes the concrete result with Go's generic operator and, when an
// operand is symbolic, reads T's kind at run time and builds the term
// that the operator of that kind builds.
//
// The shadow of a V[T] is always the shadow a value of T's kind has
// outside generic code: a bit-vector of T's width for an integer, the
// IEEE-754 bits of T's width for a float (read as a number only by the
// float kinds of sym), a sym.KString aggregate for a string. Since T is
// fixed within one instantiation, every shadow a generic function sees
// has the sort its operators expect, and values pass between generic and
// non-generic code, and to and from the shadow memory, unchanged.

package rt

import (
	"reflect"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// Ordered is the set of types the ordered operators take: every integer,
// float and string type.
type Ordered interface {
	Integer | Float | ~string
}

// Number is the set of integer and float types, which the arithmetic
// operators of ordered type parameters take.
type Number interface {
	Integer | Float
}

// ordKind is the family of an Ordered type at run time.
type ordKind uint8

const (
	ordSigned ordKind = iota
	ordUnsigned
	ordFloat
	ordString
)

// ordInfo is the kind of an Ordered type and the width of its terms (0
// for strings).
type ordInfo struct {
	kind  ordKind
	width uint8
}

// ordOf returns the kind and width of T. It is called only when an
// operand is symbolic: reflect.TypeFor reads T's descriptor from the
// instantiation's dictionary and allocates nothing, so there is no cache.
func ordOf[T Ordered]() ordInfo {
	var z T
	w := uint8(unsafe.Sizeof(z) * 8)
	switch reflect.TypeFor[T]().Kind() {
	case reflect.String:
		return ordInfo{ordString, 0}
	case reflect.Float32, reflect.Float64:
		return ordInfo{ordFloat, w}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return ordInfo{ordSigned, w}
	}
	return ordInfo{ordUnsigned, w}
}

// ordBits returns the bits of an integer or float value of T, zero
// extended to 64 bits.
func ordBits[T Ordered](v T) uint64 { return bitsAt(unsafe.Pointer(&v), unsafe.Sizeof(v)) }

// ordStr returns the string value of v, for a T of kind ordString.
func ordStr[T Ordered](v T) string { return *(*string)(unsafe.Pointer(&v)) }

// oterm returns the term of v, of T's kind k: its shadow, or the constant
// of its value.
func oterm[T Ordered](k ordInfo, v V[T]) *sym.Expr {
	if v.S != nil {
		return v.S
	}
	if k.kind == ordString {
		return aggOf(ordStr(v.C))
	}
	return st.b.Const(ordBits(v.C), k.width)
}

// obin builds the result r of a binary arithmetic operator: ik is the
// integer kind, fk the float kind.
func obin[T Ordered](ik, fk sym.Kind, r T, a, b V[T]) V[T] {
	if a.S == nil && b.S == nil || !tracking() {
		return V[T]{C: r}
	}
	k := ordOf[T]()
	if k.kind == ordFloat {
		return V[T]{C: r, S: st.b.FBin(fk, oterm(k, a), oterm(k, b))}
	}
	return V[T]{C: r, S: st.b.Bin(ik, oterm(k, a), oterm(k, b))}
}

// OAdd returns a + b: an integer or float sum, or a concatenation.
func OAdd[T Ordered](a, b V[T]) V[T] {
	r := a.C + b.C
	if a.S == nil && b.S == nil || !tracking() {
		return V[T]{C: r}
	}
	if k := ordOf[T](); k.kind == ordString {
		return V[T]{C: r, S: concatAgg(oterm(k, a), oterm(k, b), len(ordStr(a.C)))}
	}
	return obin(sym.KAdd, sym.KFAdd, r, a, b)
}

// OSub returns a - b.
func OSub[T Number](a, b V[T]) V[T] { return obin(sym.KSub, sym.KFSub, a.C-b.C, a, b) }

// OMul returns a * b. The conversion rounds a float product, as FMul's
// does, so that the compiler does not fuse it into an FMA.
func OMul[T Number](a, b V[T]) V[T] { return obin(sym.KMul, sym.KFMul, T(a.C*b.C), a, b) }

// OQuo returns a / b; site is the implicit division-by-zero check of an
// integer T (a float division does not panic, and records nothing).
func OQuo[T Number](site uint32, a, b V[T]) V[T] {
	if a.S == nil && b.S == nil || !tracking() {
		return V[T]{C: a.C / b.C}
	}
	k := ordOf[T]()
	if k.kind == ordFloat {
		return V[T]{C: a.C / b.C, S: st.b.FBin(sym.KFDiv, oterm(k, a), oterm(k, b))}
	}
	if b.S != nil {
		record(site, b.C == 0, st.b.Eq(b.S, st.b.Const(0, k.width)))
	}
	r := a.C / b.C // panics on zero, as the original does
	div := sym.KUDiv
	if k.kind == ordSigned {
		div = sym.KSDiv
	}
	return V[T]{C: r, S: st.b.Bin(div, oterm(k, a), oterm(k, b))}
}

// ONeg returns -a.
func ONeg[T Number](a V[T]) V[T] {
	if a.S == nil || !tracking() {
		return V[T]{C: -a.C}
	}
	if ordOf[T]().kind == ordFloat {
		return V[T]{C: -a.C, S: st.b.FNeg(a.S)}
	}
	return V[T]{C: -a.C, S: st.b.Neg(a.S)}
}

// IncO returns x+1 and its shadow, for x++ on a shadowed variable.
func IncO[T Number](x T, s *sym.Expr) (T, *sym.Expr) {
	v := OAdd(V[T]{C: x, S: s}, V[T]{C: 1})
	return v.C, v.S
}

// DecO returns x-1 and its shadow, for x-- on a shadowed variable.
func DecO[T Number](x T, s *sym.Expr) (T, *sym.Expr) {
	v := OSub(V[T]{C: x, S: s}, V[T]{C: 1})
	return v.C, v.S
}

// ocmp builds the comparison result r: sk and uk are the signed and
// unsigned integer kinds, fk the float kind, str the string condition.
func ocmp[T Ordered](sk, uk, fk sym.Kind, str func(x, y *sym.Expr) *sym.Expr, r bool, a, b V[T]) V[bool] {
	if a.S == nil && b.S == nil || !tracking() {
		return V[bool]{C: r}
	}
	k := ordOf[T]()
	x, y := oterm(k, a), oterm(k, b)
	switch k.kind {
	case ordString:
		return V[bool]{C: r, S: str(x, y)}
	case ordFloat:
		return V[bool]{C: r, S: st.b.FCmp(fk, x, y)}
	case ordSigned:
		return V[bool]{C: r, S: st.b.Cmp(sk, x, y)}
	}
	return V[bool]{C: r, S: st.b.Cmp(uk, x, y)}
}

// OEq returns a == b: IEEE equality for floats (NaN is unequal to
// itself, -0 equals +0), byte-wise equality for strings.
func OEq[T Ordered](a, b V[T]) V[bool] {
	return ocmp(sym.KEq, sym.KEq, sym.KFEq, aggEq, a.C == b.C, a, b)
}

// ONe returns a != b.
func ONe[T Ordered](a, b V[T]) V[bool] { return Not(OEq(a, b)) }

// OLt returns a < b.
func OLt[T Ordered](a, b V[T]) V[bool] {
	return ocmp(sym.KSLt, sym.KULt, sym.KFLt, aggLess, a.C < b.C, a, b)
}

// OLe returns a <= b. For floats it is not !(b < a), which NaN falsifies.
func OLe[T Ordered](a, b V[T]) V[bool] {
	return ocmp(sym.KSLe, sym.KULe, sym.KFLe, func(x, y *sym.Expr) *sym.Expr { return st.b.Not(aggLess(y, x)) }, a.C <= b.C, a, b)
}

// OGt returns a > b.
func OGt[T Ordered](a, b V[T]) V[bool] { return OLt(b, a) }

// OGe returns a >= b.
func OGe[T Ordered](a, b V[T]) V[bool] { return OLe(b, a) }

// ConvN returns the Go conversion To(a) between integer and float types,
// for conversions where either side is an ordered type parameter: the
// term is that of Conv, ConvFF, ConvIF or ConvFI, by the kinds of To and
// From at run time.
func ConvN[To, From Number](a V[From]) V[To] {
	r := To(a.C)
	if a.S == nil || !tracking() {
		return V[To]{C: r}
	}
	to, from := ordOf[To](), ordOf[From]()
	switch {
	case to.kind == ordFloat && from.kind == ordFloat:
		if to.width == from.width {
			return V[To]{C: r, S: a.S}
		}
		return V[To]{C: r, S: st.b.FConv(a.S, to.width)}
	case to.kind == ordFloat:
		return V[To]{C: r, S: st.b.IntToF(a.S, to.width, from.kind == ordSigned)}
	case from.kind == ordFloat:
		return V[To]{C: r, S: st.b.FToInt(a.S, to.width, to.kind == ordSigned)}
	}
	return V[To]{C: r, S: st.b.Convert(a.S, to.width, from.kind == ordSigned)}
}

// LoadOrd returns *p with its shadow, for a location of an ordered type
// parameter: the cell is the one a value of T's kind has (Load's bits or
// LoadString's string), so generic and non-generic code share it.
func LoadOrd[T Ordered](site uint32, p *T) V[T] {
	if !memUsed.Load() {
		return V[T]{C: *p}
	}
	q := unsafe.Pointer(p)
	var s *sym.Expr
	if ordOf[T]().kind == ordString {
		s = LoadString(site, (*string)(q)).S
	} else {
		switch unsafe.Sizeof(*p) {
		case 1:
			s = loadCell(site, (*uint8)(q)).S
		case 2:
			s = loadCell(site, (*uint16)(q)).S
		case 4:
			s = loadCell(site, (*uint32)(q)).S
		default:
			s = loadCell(site, (*uint64)(q)).S
		}
	}
	return V[T]{C: *p, S: s}
}

// StoreOrd performs *p = v and records v's shadow at p.
func StoreOrd[T Ordered](v V[T], p *T) {
	*p = v.C
	if v.S == nil && !memUsed.Load() || !tracking() {
		return
	}
	if ordOf[T]().kind == ordString {
		setCell(addr(p), unsafe.Pointer(p), cell{str: ordStr(v.C), s: v.S})
		return
	}
	setCell(addr(p), unsafe.Pointer(p), cell{bits: ordBits(v.C), s: v.S})
}

// ApplyOrd performs *p = op(*p, y) for a location of an ordered type
// parameter.
func ApplyOrd[T Ordered](site uint32, p *T, y V[T], op func(V[T], V[T]) V[T]) {
	StoreOrd(op(LoadOrd(site, p), y), p)
}

// LoadIndexOrd returns s[i] with its shadow, as LoadIndex and
// LoadIndexString do for T's kind: the slice is read as a slice of the
// unsigned integers of T's size, or of strings, which have the same
// memory, the same cells and the same length shadow.
func LoadIndexOrd[T Ordered, I Integer](site uint32, s []T, i V[I]) V[T] {
	var r V[T]
	q := unsafe.Pointer(unsafe.SliceData(s))
	switch k := ordOf[T](); {
	case k.kind == ordString:
		r.S = LoadIndexString(site, unsafe.Slice((*string)(q), len(s)), i).S
	case k.width == 8:
		r.S = LoadIndex(site, unsafe.Slice((*uint8)(q), len(s)), i).S
	case k.width == 16:
		r.S = LoadIndex(site, unsafe.Slice((*uint16)(q), len(s)), i).S
	case k.width == 32:
		r.S = LoadIndex(site, unsafe.Slice((*uint32)(q), len(s)), i).S
	default:
		r.S = LoadIndex(site, unsafe.Slice((*uint64)(q), len(s)), i).S
	}
	r.C = s[i.C] // the index is in range: the load above would have panicked
	return r
}

// AppendOrd is Append for a slice of an ordered type parameter.
func AppendOrd[S ~[]T, T Ordered](site uint32, s S, xs ...V[T]) S {
	return appendEach(site, s, xs, StoreOrd[T])
}

// SliceOfOrd is SliceOf for a slice of an ordered type parameter.
func SliceOfOrd[S ~[]T, T Ordered](xs ...V[T]) S {
	return sliceOf[S](xs, StoreOrd[T])
}
