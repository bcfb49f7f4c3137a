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

// byteCompare returns the 8-bit term a comparison c of it with a constant
// is about, and the set of the term's values for which c holds. It returns
// nil for any other condition.
func byteCompare(c *sym.Expr) (*sym.Expr, byteSet) {
	if !c.Kind.IsCompare() || len(c.Args) != 2 || c.Args[0].Width != 8 {
		return nil, byteSet{}
	}
	x, y := c.Args[0], c.Args[1]
	constLeft := x.Kind == sym.KConst
	if constLeft == (y.Kind == sym.KConst) {
		return nil, byteSet{}
	}
	t, k := x, int(y.Val&0xff)
	if constLeft {
		t, k = y, int(x.Val&0xff)
	}
	signed := c.Kind == sym.KSLt || c.Kind == sym.KSLe
	if signed {
		k = int(int8(k))
	}
	// The values of t for which c holds, as a range of t's (signed or
	// unsigned) values.
	lo, hi := 0, 255
	if signed {
		lo, hi = -128, 127
	}
	switch {
	case c.Kind == sym.KEq:
		lo, hi = k, k
	case (c.Kind == sym.KULt || c.Kind == sym.KSLt) && !constLeft: // t < k
		hi = k - 1
	case c.Kind == sym.KULe || c.Kind == sym.KSLe:
		if constLeft { // k <= t
			lo = k
		} else { // t <= k
			hi = k
		}
	default: // k < t
		lo = k + 1
	}
	if !signed || lo >= 0 {
		return t, span(lo, hi)
	}
	// Negative values are the unsigned 128..255.
	if hi < 0 {
		return t, span(lo+256, hi+256)
	}
	return t, span(lo+256, 255).or(span(0, hi))
}

func (s byteSet) or(t byteSet) byteSet {
	return byteSet{s[0] | t[0], s[1] | t[1], s[2] | t[2], s[3] | t[3]}
}
