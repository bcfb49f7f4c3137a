package explore

import (
	"slices"

	"github.com/gocolic/gocolic/sym"
)

// valueRange is the values lo..hi of a term, in the unsigned order; lo > hi
// means the values from lo up to the term's largest and from 0 to hi (a
// range across the wrap-around), and is only an input of normal.
type valueRange struct{ lo, hi uint64 }

// ranges is a set of values of a term, as sorted disjoint ranges with
// lo <= hi; nil is the empty set.
type ranges []valueRange

// normal returns rs with the ranges across the wrap-around of a term whose
// largest value is m split, sorted and merged.
func (rs ranges) normal(m uint64) ranges {
	var out ranges
	for _, r := range rs {
		if r.lo > r.hi {
			out = append(out, valueRange{r.lo, m}, valueRange{0, r.hi})
		} else {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b valueRange) int {
		switch {
		case a.lo < b.lo:
			return -1
		case a.lo > b.lo:
			return 1
		}
		return 0
	})
	merged := out[:0]
	for _, r := range out {
		if n := len(merged); n > 0 && (merged[n-1].hi == m || r.lo <= merged[n-1].hi+1) {
			merged[n-1].hi = max(merged[n-1].hi, r.hi)
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// and returns the intersection of rs and ss.
func (rs ranges) and(ss ranges) ranges {
	var out ranges
	for i, j := 0, 0; i < len(rs) && j < len(ss); {
		lo, hi := max(rs[i].lo, ss[j].lo), min(rs[i].hi, ss[j].hi)
		if lo <= hi {
			out = append(out, valueRange{lo, hi})
		}
		if rs[i].hi < ss[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// not returns the complement of rs among the values 0..m.
func (rs ranges) not(m uint64) ranges {
	var out ranges
	next, done := uint64(0), false // the least value not yet placed
	for _, r := range rs {
		if r.lo > next {
			out = append(out, valueRange{next, r.lo - 1})
		}
		if r.hi == m {
			done = true
			break
		}
		next = r.hi + 1
	}
	if !done {
		out = append(out, valueRange{next, m})
	}
	return out
}

// shift returns the set of the values x with x+k (modulo m+1) in rs.
func (rs ranges) shift(k, m uint64) ranges {
	out := make(ranges, len(rs))
	for i, r := range rs {
		out[i] = valueRange{(r.lo - k) & m, (r.hi - k) & m}
	}
	return out.normal(m)
}

// maxEvalBytes bounds the size of a condition over one byte that factOf
// evaluates at all 256 values of the byte: a lookup in a 256-entry table,
// an ite chain, has about 770 terms.
const maxEvalBytes = 1024

// maxFactMemo bounds the number of conditions whose facts a Tree keeps.
const maxFactMemo = 1 << 16

// termFact is what a branch condition says about one term: the values of
// the term for which the condition holds.
type termFact struct {
	t *sym.Expr // nil: the condition says nothing usable
	// bytes holds the values of an 8-bit term, vals those of a wider one.
	bytes byteSet
	vals  ranges
	// only is the one variable of the condition when it is wider than a
	// byte, and size the condition's number of terms: evalExcludes
	// evaluates the condition at the values the prefix leaves only.
	only *sym.Expr
	size int
	// within holds every value the term can take at all, by its shape
	// (extent); both the condition's values and its negation's lie in it
	// (nil: any value, for facts evaluated over one byte).
	within ranges
}

// not returns the fact of the condition's negation.
func (f termFact) not() termFact {
	if f.t.Width == 8 {
		f.bytes = f.bytes.not()
		if f.within != nil {
			f.bytes = f.bytes.and(bytesOf(f.within))
		}
	} else {
		f.vals = f.vals.not(sym.Mask(f.t.Width))
		if f.within != nil {
			f.vals = f.vals.and(f.within)
		}
	}
	return f
}

// factOf returns what the condition c (no negation on top) says about one
// term: for a comparison of a byte term with a constant, the byte term's
// values; for a comparison of a wider term t or t+k with a constant, or of
// t+a with t+b, t's values (an input length bounded by one check and then
// by another, off by one; a length computed from the input, such as a
// reader's count, bounded by a loop guard and then by an index check; an
// end len(b)-3 checked against len(b)); for any other condition over one
// input byte alone (a table lookup compiled to a chain of ite), the byte's
// values, by evaluation. Terms are hash-consed, so the facts on one value
// meet on one node whatever its shape.
func (t *Tree) factOf(c *sym.Expr) termFact {
	if f, ok := t.facts[c]; ok {
		return f
	}
	v, n := soleVar(c)
	f := analyse(c, v)
	if v != nil && v.Width != 8 {
		f.only, f.size = v, n
	}
	if t.facts == nil || len(t.facts) > maxFactMemo {
		t.facts = make(map[*sym.Expr]termFact)
	}
	t.facts[c] = f
	return f
}

// analyse computes factOf's answer; v is c's one variable (soleVar), nil
// when it has none or several.
func analyse(c, v *sym.Expr) termFact {
	byteVar := v != nil && v.Width == 8
	if term, vals := offsetCompare(c); term != nil {
		return rangeFact(term, vals)
	}
	if term, vals := constCompare(c); term != nil {
		// x's values are those of x + k shifted by k.
		x, k := splitOffset(term)
		if x.Kind == sym.KVar {
			return rangeFact(x, vals.shift(k, sym.Mask(term.Width)))
		}
		if byteVar {
			return evalByte(c, v)
		}
		if term.Width == 8 {
			return rangeFact(term, vals)
		}
		return rangeFact(x, vals.shift(k, sym.Mask(term.Width)))
	}
	if byteVar {
		return evalByte(c, v)
	}
	return termFact{}
}

// rangeFact returns the fact that term t takes the values vals.
func rangeFact(t *sym.Expr, vals ranges) termFact {
	lo, hi := extent(t, maxExtentDepth)
	within := ranges{{lo, hi}}
	if t.Width != 8 {
		return termFact{t: t, vals: vals.and(within), within: within}
	}
	return termFact{t: t, bytes: bytesOf(vals.and(within)), within: within}
}

// bytesOf returns the set of the values of rs, all below 256.
func bytesOf(rs ranges) byteSet {
	var s byteSet
	for _, r := range rs {
		s = s.or(span(int(r.lo), int(r.hi)))
	}
	return s
}

// soleVar returns the one variable of c and c's number of terms, when c
// holds no opaque call nor string and has at most maxEvalBytes terms; nil
// otherwise.
func soleVar(c *sym.Expr) (*sym.Expr, int) {
	var v *sym.Expr
	seen := make(map[*sym.Expr]bool)
	ok := true
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if !ok || seen[e] {
			return
		}
		seen[e] = true
		switch {
		case len(seen) > maxEvalBytes, e.Kind == sym.KCall, e.Kind == sym.KString:
			ok = false
			return
		case e.Kind == sym.KVar:
			if v != nil && v != e {
				ok = false
			}
			v = e
			return
		}
		for _, a := range e.Args {
			walk(a)
		}
	}
	walk(c)
	if !ok {
		return nil, 0
	}
	return v, len(seen)
}

// evalByte returns the fact of c over its one byte variable v, by
// evaluating c at every value of v.
func evalByte(c, v *sym.Expr) termFact {
	var s byteSet
	for x := range uint64(256) {
		if sym.Holds(c, sym.Env{v.Val: x}) {
			s[x/64] |= 1 << (x % 64)
		}
	}
	return termFact{t: v, bytes: s}
}

// offsetCompare returns the term t a comparison of t+a with t+b is about
// (a and b constants, either of them 0), and the values of t for which the
// comparison holds; nil for any other condition. Between the values of t
// where either side wraps around (or, compared signed, crosses the sign
// boundary) both sides grow with t and their difference stays the same,
// so the comparison has one value on each of those at most three
// intervals.
func offsetCompare(c *sym.Expr) (*sym.Expr, ranges) {
	if !c.Kind.IsCompare() || len(c.Args) != 2 {
		return nil, nil
	}
	t, a := splitOffset(c.Args[0])
	u, b := splitOffset(c.Args[1])
	if t != u || t.Kind == sym.KConst || t.Width == 0 {
		return nil, nil
	}
	m := sym.Mask(t.Width)
	flip := uint64(0)
	if c.Kind == sym.KSLt || c.Kind == sym.KSLe {
		flip = 1 << (t.Width - 1)
	}
	holds := func(x uint64) bool {
		l, r := ((x+a)&m)^flip, ((x+b)&m)^flip
		switch c.Kind {
		case sym.KEq:
			return l == r
		case sym.KULt, sym.KSLt:
			return l < r
		}
		return l <= r
	}
	// t+k, its sign bit flipped, wraps around to 0 at t = -(k+flip).
	starts := []uint64{0, -(a + flip) & m, -(b + flip) & m}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	var out ranges
	for i, lo := range starts {
		hi := m
		if i+1 < len(starts) {
			hi = starts[i+1] - 1
		}
		if holds(lo) {
			out = append(out, valueRange{lo, hi})
		}
	}
	return t, out.normal(m)
}

// splitOffset returns e as x + k: the builder keeps a constant offset as
// the right operand of an addition (x - k as x + -k).
func splitOffset(e *sym.Expr) (*sym.Expr, uint64) {
	if e.Kind == sym.KAdd && e.Args[1].Kind == sym.KConst {
		return e.Args[0], e.Args[1].Val
	}
	return e, 0
}

// maxExtentDepth bounds the nodes extent looks through.
const maxExtentDepth = 8

// extent returns an unsigned interval holding every value the term t can
// take, from its shape alone: a byte widened to an index (at most 255), a
// byte shifted right by 4 (at most 15), a value masked or reduced modulo a
// constant, either value of an ite. A bounds check of such an index
// against a table at least that large has no other side to ask for
// (net/url's upperhex[c>>4], a 256-entry table[c]).
func extent(t *sym.Expr, depth int) (lo, hi uint64) {
	m := sym.Mask(t.Width)
	if depth == 0 {
		return 0, m
	}
	depth--
	k := uint64(0) // a constant right operand
	hasK := len(t.Args) == 2 && t.Args[1].Kind == sym.KConst
	if hasK {
		k = t.Args[1].Val
	}
	switch t.Kind {
	case sym.KConst:
		return t.Val, t.Val
	case sym.KZExt:
		return extent(t.Args[0], depth)
	case sym.KTrunc:
		if l, h := extent(t.Args[0], depth); h <= m {
			return l, h
		}
	case sym.KLShr:
		if hasK {
			if k >= uint64(t.Width) {
				return 0, 0
			}
			l, h := extent(t.Args[0], depth)
			return l >> k, h >> k
		}
	case sym.KAnd:
		_, h1 := extent(t.Args[0], depth)
		_, h2 := extent(t.Args[1], depth)
		return 0, min(h1, h2)
	case sym.KURem:
		if hasK && k > 0 {
			_, h := extent(t.Args[0], depth)
			return 0, min(h, k-1)
		}
	case sym.KUDiv:
		if hasK && k > 0 {
			l, h := extent(t.Args[0], depth)
			return l / k, h / k
		}
	case sym.KAdd:
		if hasK {
			if l, h := extent(t.Args[0], depth); h <= m-k {
				return l + k, h + k
			}
		}
	case sym.KIte:
		l1, h1 := extent(t.Args[1], depth)
		l2, h2 := extent(t.Args[2], depth)
		return min(l1, l2), max(h1, h2)
	}
	return 0, m
}
