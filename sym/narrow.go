// This file implements value bounds and the rewrites they allow: signed
// division of non-negative values becomes unsigned, and arithmetic on small
// values is done at a narrower width. Go code computes with int (64 bits)
// even on bytes; bit-blasting a 64-bit remainder costs the solver sixteen
// times the gates of a 16-bit one, which is the difference between a
// checksum loop Z3 solves and one it times out on.

package sym

import mbits "math/bits"

// upperBound computes the upper bound of a new node from its arguments.
func upperBound(e *Expr) uint64 {
	if e.Width == 0 || e.Kind == KString {
		return 0
	}
	m := Mask(e.Width)
	arg := func(i int) uint64 { return e.Args[i].max }
	switch e.Kind {
	case KConst:
		return e.Val
	case KZExt:
		return arg(0)
	case KTrunc:
		return min(arg(0), m)
	case KAnd:
		return min(arg(0), arg(1))
	case KOr, KXor:
		return min(fill(max(arg(0), arg(1))), m)
	case KAdd:
		if s, c := mbits.Add64(arg(0), arg(1), 0); c == 0 && s <= m {
			return s
		}
	case KMul:
		if hi, lo := mbits.Mul64(arg(0), arg(1)); hi == 0 && lo <= m {
			return lo
		}
	case KLShr:
		return arg(0)
	case KUDiv:
		if nonZeroConst(e.Args[1]) {
			return arg(0)
		}
		// x /u 0 is all ones.
	case KURem:
		if y := e.Args[1]; y.Kind == KConst && y.Val > 0 {
			return min(arg(0), y.Val-1)
		}
		return arg(0)
	case KSRem:
		if nonNeg(e.Args[0]) && nonNeg(e.Args[1]) {
			if y := e.Args[1]; y.Kind == KConst && y.Val > 0 {
				return min(arg(0), y.Val-1)
			}
			return arg(0)
		}
	case KSDiv:
		if nonNeg(e.Args[0]) && nonNeg(e.Args[1]) && nonZeroConst(e.Args[1]) {
			return arg(0)
		}
	case KIte:
		return max(arg(1), arg(2))
	}
	return m
}

// fill returns the smallest all-ones value at least x.
func fill(x uint64) uint64 {
	if x == 0 {
		return 0
	}
	return 1<<mbits.Len64(x) - 1
}

// nonZeroConst reports whether x is a constant other than 0.
func nonZeroConst(x *Expr) bool { return x.Kind == KConst && x.Val != 0 }

// nonNeg reports whether x's sign bit is known to be 0.
func nonNeg(x *Expr) bool { return x.max < 1<<(x.Width-1) }

// narrowWidth returns the smallest width below x.Width that holds every
// value up to bound, or 0 if there is none.
func narrowWidth(w uint8, bound uint64) uint8 {
	for _, n := range [...]uint8{8, 16, 32} {
		if n < w && bound <= Mask(n) {
			return n
		}
	}
	return 0
}

// narrowBin rewrites a binary operation whose operands and result are
// known to fit in fewer bits as that operation at the narrower width,
// zero-extended; ok is false when no rewrite applies.
func (b *Builder) narrowBin(k Kind, x, y *Expr) (*Expr, bool) {
	w := x.Width
	switch k {
	case KSDiv, KSRem:
		// Division by zero is all ones at every width, which a narrower
		// division would not preserve; remainder by zero is the dividend.
		if !nonNeg(x) || !nonNeg(y) || (k == KSDiv && !nonZeroConst(y)) {
			return nil, false
		}
		// Non-negative operands: the unsigned operation is the same.
		if k == KSDiv {
			k = KUDiv
		} else {
			k = KURem
		}
		if n := narrowWidth(w, max(x.max, y.max)); n != 0 {
			return b.ZExt(b.Bin(k, b.Trunc(x, n), b.Trunc(y, n)), w), true
		}
		return b.Bin(k, x, y), true
	case KUDiv, KURem, KAnd, KOr, KXor:
		if k == KUDiv && !nonZeroConst(y) {
			return nil, false
		}
		if n := narrowWidth(w, max(x.max, y.max)); n != 0 {
			return b.ZExt(b.Bin(k, b.Trunc(x, n), b.Trunc(y, n)), w), true
		}
	case KAdd, KMul:
		// The exact result must fit too, so that no carry is lost.
		var r uint64
		var over bool
		if k == KAdd {
			s, c := mbits.Add64(x.max, y.max, 0)
			r, over = s, c != 0
		} else {
			hi, lo := mbits.Mul64(x.max, y.max)
			r, over = lo, hi != 0
		}
		if n := narrowWidth(w, r); !over && n != 0 {
			return b.ZExt(b.Bin(k, b.Trunc(x, n), b.Trunc(y, n)), w), true
		}
	}
	return nil, false
}

// narrowCmp rewrites a comparison of values that fit in fewer bits as an
// unsigned comparison at the narrower width.
func (b *Builder) narrowCmp(k Kind, x, y *Expr) (*Expr, bool) {
	if x.Width == 0 {
		return nil, false
	}
	n := narrowWidth(x.Width, max(x.max, y.max))
	if n == 0 {
		// Signed comparison of non-negative values is unsigned.
		if (k == KSLt || k == KSLe) && nonNeg(x) && nonNeg(y) {
			if k == KSLt {
				k = KULt
			} else {
				k = KULe
			}
			return b.Cmp(k, x, y), true
		}
		return nil, false
	}
	switch k {
	case KSLt:
		k = KULt
	case KSLe:
		k = KULe
	}
	return b.Cmp(k, b.Trunc(x, n), b.Trunc(y, n)), true
}
