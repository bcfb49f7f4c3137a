// This file models strconv: Atoi and ParseInt, which read a decimal
// number, and Itoa and its kin, which render one as a string aggregate.
// Each is given the library function it stands for (instrument/models.go,
// libModels); where the model would leave the result concrete (another
// base, a longer string) and the library is an instrumented copy
// (build/stdcopy.go), the copy's twin computes it instead.

package rt

import (
	"math"
	"math/bits"
	"strconv"

	"github.com/gocolic/gocolic/sym"
)

// digit is the condition that byte x is an ASCII digit.
func digit(x *sym.Expr) *sym.Expr { return inRange(x, '0', '9') }

// decimal returns the syntax condition and the value (64 bits) of
// aggregate a read as an optionally signed decimal number of at most
// maxLen bytes; the caller restricts the domain to len(a) <= maxLen, where
// no value overflows.
func decimal(a *sym.Expr, maxLen int) (ok, val *sym.Expr) {
	b := st.b
	la, bs := aggLen(a), aggBytes(a)
	ok, val = b.Bool(false), b.Const(0, 64)
	for n := min(maxLen, len(bs)); n >= 1; n-- {
		for _, signed := range []bool{false, true} {
			first := 0
			if signed {
				first = 1
			}
			if n-first < 1 {
				continue
			}
			c := b.Eq(la, k64(n))
			if signed {
				c = b.And(c, b.Or(b.Eq(bs[0], k8('+')), b.Eq(bs[0], k8('-'))))
			}
			// Each partial value is held in as few bits as its largest
			// value needs: wide products are what slows Z3 down here.
			v := b.Const(0, 8)
			pow := uint64(1)
			for k := first; k < n; k++ {
				c = b.And(c, digit(bs[k]))
				pow *= 10
				w := uint8(8)
				for int(w) < bits.Len64(pow-1) {
					w *= 2 // sym has widths 8, 16, 32 and 64
				}
				d := b.ZExt(b.Bin(sym.KAnd, b.Sub(bs[k], k8('0')), k8(0xF)), w)
				v = b.ZExt(v, w)
				v = b.Add(b.Bin(sym.KMul, v, b.Const(10, w)), d)
			}
			v = b.ZExt(v, 64)
			if signed {
				v = b.Ite(b.Eq(bs[0], k8('-')), b.Neg(v), v)
			}
			ok = b.Or(ok, c)
			val = b.Ite(c, v, val)
		}
	}
	return ok, val
}

// parseShadow records the error check of a parse at site and returns the
// shadow of its value.
func parseShadow(site uint32, a *sym.Expr, maxLen int, ok bool, val uint64, w uint8) *sym.Expr {
	b := st.b
	dom := ule(aggLen(a), k64(maxLen))
	okT, valT := decimal(a, maxLen)
	record(site, ok, boolShadow(dom, okT, ok))
	return intShadow(dom, b.Trunc(valT, w), val)
}

// maxParseLen bounds the strings the parse models are exact on. Longer
// strings keep the concrete result. Up to 18 bytes no int64 overflows,
// but Z3 took 1 to 7 s on "Atoi(s) == 4242" over 32-byte inputs with that
// bound, against 70 ms with 10 (numbers of up to ten digits).
const maxParseLen = 10

// StrconvAtoi models strconv.Atoi; site is its error check. The model is
// exact for strings of up to maxParseLen bytes.
func StrconvAtoi(site uint32, lib func(string) (int, error), s V[string]) (int, error, *sym.Expr) {
	if s.S != nil && len(s.C) > maxParseLen {
		if tw, ok := libTwin[func(V[string]) (int, error, *sym.Expr)](lib); ok {
			return tw(s)
		}
	}
	r, err := strconv.Atoi(s.C)
	if s.S == nil || !tracking() {
		return r, err, nil
	}
	return r, err, parseShadow(site, s.S, maxParseLen, err == nil, uint64(r), intSize)
}

// parseIntLen is the longest string, sign included, whose base-10 value
// fits in bitSize bits whatever its digits, at most maxParseLen.
func parseIntLen(bitSize int) int {
	switch bitSize {
	case 8:
		return 2
	case 16:
		return 4
	case 32:
		return 9
	}
	return maxParseLen
}

// StrconvParseInt models strconv.ParseInt for a concrete base 10 and bit
// size; site is its error check. Other bases run concretely, or in the
// instrumented copy.
func StrconvParseInt(site uint32, lib func(string, int, int) (int64, error), s V[string], base, bitSize V[int]) (int64, error, *sym.Expr) {
	exact := base.S == nil && bitSize.S == nil && base.C == 10 && len(s.C) <= parseIntLen(bitSize.C)
	switch bitSize.C {
	case 0, 8, 16, 32, 64:
	default:
		exact = false
	}
	if s.S != nil && !exact {
		if tw, ok := libTwin[func(V[string], V[int], V[int]) (int64, error, *sym.Expr)](lib); ok {
			return tw(s, base, bitSize)
		}
	}
	r, err := strconv.ParseInt(s.C, base.C, bitSize.C)
	if s.S == nil || base.S != nil || bitSize.S != nil || base.C != 10 || !tracking() {
		return r, err, nil
	}
	switch bitSize.C {
	case 0, 8, 16, 32, 64:
	default:
		return r, err, nil
	}
	return r, err, parseShadow(site, s.S, parseIntLen(bitSize.C), err == nil, uint64(r), 64)
}

// maxDigits is the number of decimal digits of the largest uint64.
const maxDigits = 20

// pow10 returns 10^k for k < maxDigits.
func pow10(k int) uint64 {
	p := uint64(1)
	for n := 0; n < k; n++ {
		p *= 10
	}
	return p
}

// decimalDigits returns the decimal digits of the unsigned 64-bit term u,
// least significant first, as 8-bit values 0 to 9 (maxDigits of them,
// leading zeros included).
//
// The digits come from a cascade of comparisons with constants, most
// significant first: digit k of v is the largest c with v >= c*10^k, and
// the rest of v is v - c*10^k, held in the narrowest width 10^k fits.
// Divisions by powers of ten would be shorter to write, but Z3 bit-blasts
// a divider circuit for each: on thirteen branches "Itoa(x) == <number>",
// from 1 to 20 bytes, Z3 took 430 ms on average with divisions (worst
// 1.5 s) and 200 ms with the cascade (worst 0.5 s); comparisons with
// constants are what its propagation handles best.
func decimalDigits(u *sym.Expr) []*sym.Expr {
	b := st.b
	ds := make([]*sym.Expr, maxDigits)
	v := u
	for k := maxDigits - 1; k >= 0; k-- {
		p := pow10(k)
		d, sub := k8(0), b.Const(0, v.Width)
		for c := uint64(1); c <= 9 && c <= math.MaxUint64/p; c++ {
			ge := ule(b.Const(c*p, v.Width), v)
			d = b.Ite(ge, k8(byte(c)), d)
			sub = b.Ite(ge, b.Const(c*p, v.Width), sub)
		}
		ds[k] = d
		v = b.Sub(v, sub)
		if w := uintWidth(p - 1); w < v.Width {
			v = b.Trunc(v, w)
		}
	}
	return ds
}

// uintWidth is the narrowest width of sym that holds x.
func uintWidth(x uint64) uint8 {
	for _, w := range []uint8{8, 16, 32} {
		if x <= sym.Mask(w) {
			return w
		}
	}
	return 64
}

// formatDecimal returns the aggregate of the base-10 rendering of the
// 64-bit term x, read as signed if signed: an optional '-', then the
// digits without leading zeros. Exact for every value.
func formatDecimal(x *sym.Expr, signed bool) *sym.Expr {
	b := st.b
	neg := b.Bool(false)
	u := x
	// below[m]: u < 10^m, that is, the rendering has at most m digits.
	below := make([]*sym.Expr, maxDigits+1)
	for m := range below {
		below[m] = ult(u, b.Const(pow10(m), 64))
	}
	below[maxDigits] = b.Bool(true)
	if signed {
		neg = b.Cmp(sym.KSLt, x, b.Const(0, 64))
		u = b.Ite(neg, b.Neg(x), x) // -MinInt64 is 2^63 as an unsigned value
		// The bounds on |x| as bounds on x, which spares Z3 the negation.
		for m := range below[:maxDigits] {
			p := pow10(m)
			if p > math.MaxInt64 {
				below[m] = b.Bool(true)
				continue
			}
			below[m] = b.And(b.Cmp(sym.KSLt, x, b.Const(p, 64)), b.Cmp(sym.KSLt, b.Const(-p, 64), x))
		}
	}
	ds := decimalDigits(u)
	// Byte p of the unsigned rendering is digit n-1-p, for n digits: a
	// case split over n, each case a bound on u (n == m iff below[m] and
	// not below[m-1]), which Z3 propagates directly.
	digitAt := func(p int) *sym.Expr {
		r := b.Add(ds[maxDigits-1-p], k8('0'))
		for m := maxDigits - 1; m > p; m-- {
			r = b.Ite(below[m], b.Add(ds[m-1-p], k8('0')), r)
		}
		if p > 0 {
			r = b.Ite(below[p], k8(0), r)
		}
		return r
	}
	plain := make([]*sym.Expr, maxDigits)
	for p := range plain {
		plain[p] = digitAt(p)
	}
	length := k64(maxDigits)
	for m := maxDigits - 1; m >= 1; m-- {
		length = b.Ite(below[m], k64(m), length)
	}
	if !signed {
		return b.String(length, plain)
	}
	out := make([]*sym.Expr, maxDigits+1)
	for p := range out {
		shifted := k8('-')
		if p > 0 {
			shifted = plain[p-1]
		}
		unshifted := k8(0)
		if p < maxDigits {
			unshifted = plain[p]
		}
		out[p] = b.Ite(neg, shifted, unshifted)
	}
	length = b.Add(length, b.Ite(neg, k64(1), k64(0)))
	return b.String(length, out)
}

// StrconvItoa models strconv.Itoa, exactly.
func StrconvItoa(lib func(int) string, i V[int]) (string, *sym.Expr) {
	r := strconv.Itoa(i.C)
	if i.S == nil || !tracking() {
		return r, nil
	}
	return r, formatDecimal(st.b.Convert(i.S, 64, true), true)
}

// StrconvFormatInt models strconv.FormatInt for a concrete base 10,
// exactly; other bases run concretely, or in the instrumented copy.
func StrconvFormatInt(lib func(int64, int) string, i V[int64], base V[int]) (string, *sym.Expr) {
	if (i.S != nil || base.S != nil) && (base.S != nil || base.C != 10) {
		if tw, ok := libTwin[func(V[int64], V[int]) (string, *sym.Expr)](lib); ok {
			return tw(i, base)
		}
	}
	r := strconv.FormatInt(i.C, base.C)
	if i.S == nil || base.S != nil || base.C != 10 || !tracking() {
		return r, nil
	}
	return r, formatDecimal(i.S, true)
}

// StrconvFormatUint models strconv.FormatUint for a concrete base 10,
// exactly; other bases run concretely, or in the instrumented copy.
func StrconvFormatUint(lib func(uint64, int) string, i V[uint64], base V[int]) (string, *sym.Expr) {
	if (i.S != nil || base.S != nil) && (base.S != nil || base.C != 10) {
		if tw, ok := libTwin[func(V[uint64], V[int]) (string, *sym.Expr)](lib); ok {
			return tw(i, base)
		}
	}
	r := strconv.FormatUint(i.C, base.C)
	if i.S == nil || base.S != nil || base.C != 10 || !tracking() {
		return r, nil
	}
	return r, formatDecimal(i.S, false)
}
