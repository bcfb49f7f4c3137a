package explore

import "github.com/gocolic/gocolic/sym"

// byteSet is a set of the 256 values of an 8-bit term.
type byteSet [4]uint64

// span returns the set of the values lo..hi (empty when lo > hi).
func span(lo, hi int) byteSet {
	var s byteSet
	for w := range 4 {
		a, b := max(lo, 64*w), min(hi, 64*w+63)
		if a > b {
			continue
		}
		n := b - a + 1
		bits := ^uint64(0)
		if n < 64 {
			bits = (uint64(1) << n) - 1
		}
		s[w] = bits << (a - 64*w)
	}
	return s
}

func (s byteSet) and(t byteSet) byteSet {
	return byteSet{s[0] & t[0], s[1] & t[1], s[2] & t[2], s[3] & t[3]}
}

func (s byteSet) not() byteSet { return byteSet{^s[0], ^s[1], ^s[2], ^s[3]} }

func (s byteSet) empty() bool { return s == byteSet{} }

func (s byteSet) or(t byteSet) byteSet {
	return byteSet{s[0] | t[0], s[1] | t[1], s[2] | t[2], s[3] | t[3]}
}

// has reports whether x is in s.
func (s byteSet) has(x uint64) bool { return s[x/64]>>(x%64)&1 == 1 }

// byteCompare returns the 8-bit term a comparison c of it with a constant
// is about, and the set of the term's values for which c holds. It returns
// nil for any other condition.
func byteCompare(c *sym.Expr) (*sym.Expr, byteSet) {
	t, vals := constCompare(c)
	if t == nil || t.Width != 8 {
		return nil, byteSet{}
	}
	return t, rangeFact(t, vals).bytes
}

// constCompare returns the bit-vector term a comparison c of it with a
// constant is about, and the set of the term's values for which c holds.
// It returns nil for any other condition.
func constCompare(c *sym.Expr) (*sym.Expr, ranges) {
	if !c.Kind.IsCompare() || len(c.Args) != 2 {
		return nil, nil
	}
	x, y := c.Args[0], c.Args[1]
	constLeft := x.Kind == sym.KConst
	if constLeft == (y.Kind == sym.KConst) {
		return nil, nil
	}
	t, k := x, y.Val
	if constLeft {
		t, k = y, x.Val
	}
	w := t.Width
	if w == 0 {
		return nil, nil
	}
	m := sym.Mask(w)
	if c.Kind == sym.KEq {
		return t, ranges{{k, k}}
	}
	// Compare in the unsigned order; a signed comparison is the unsigned
	// one of the values with their sign bit flipped.
	signed := c.Kind == sym.KSLt || c.Kind == sym.KSLe
	flip := uint64(0)
	if signed {
		flip = 1 << (w - 1)
		k ^= flip
	}
	strict := c.Kind == sym.KULt || c.Kind == sym.KSLt
	var lo, hi uint64 = 0, m // the (flipped) values of t for which c holds
	switch {
	case !constLeft && strict: // t < k
		if k == 0 {
			return t, nil
		}
		hi = k - 1
	case !constLeft: // t <= k
		hi = k
	case strict: // k < t
		if k == m {
			return t, nil
		}
		lo = k + 1
	default: // k <= t
		lo = k
	}
	if !signed {
		return t, ranges{{lo, hi}}
	}
	// Flip the sign bit back: the range may then cross the wrap-around.
	return t, ranges{{lo ^ flip, hi ^ flip}}.normal(m)
}
