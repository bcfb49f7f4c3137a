// This file implements the error scores of the seed's Algorithm 2: how far
// a point is from satisfying a constraint, after Korel's branch distances,
// and the signed gap of one comparison that the bisection step follows.

package walk

import (
	"math"

	"github.com/gocolic/gocolic/sym"
)

// enode is a constraint with negations pushed to its comparisons: an atom,
// or the conjunction ('&') or disjunction ('|') of its kids.
type enode struct {
	op   byte
	kids []*enode
	atom *atom
}

// atom is a comparison of two sides, or any other boolean term (kind
// KInvalid, no sides). neg says the constraint needs it false.
type atom struct {
	kind  sym.Kind
	neg   bool
	self  int // positions in the evaluated terms
	a, b  int
	width uint8 // of the sides
	vars  map[uint64]bool
}

// build makes the error tree of e, which must hold (neg: must not).
func (w *search) build(e *sym.Expr, neg bool) *enode {
	switch {
	case e.Kind == sym.KNot:
		return w.build(e.Args[0], !neg)
	case e.Kind == sym.KLAnd || e.Kind == sym.KLOr:
		op := byte('&')
		if (e.Kind == sym.KLOr) != neg {
			op = '|'
		}
		return &enode{op: op, kids: []*enode{w.build(e.Args[0], neg), w.build(e.Args[1], neg)}}
	}
	at := &atom{kind: sym.KInvalid, neg: neg, self: w.term(e), vars: make(map[uint64]bool)}
	for _, v := range sym.Vars(nil, e) {
		at.vars[v.Val] = true
	}
	if e.Kind.IsCompare() || e.Kind.IsFloatCompare() {
		at.kind, at.a, at.b, at.width = e.Kind, w.term(e.Args[0]), w.term(e.Args[1]), e.Args[0].Width
	}
	return &enode{op: 'a', atom: at}
}

// Error scores are in units of the compared values; a violated comparison
// scores at least 1 for integers (Korel's constant), and a float one at
// least the smallest positive float. Values that are not numbers, or
// differences too large to add, score bad.
const bad = 1e300

// consError is the error of constraint c at a point with values vals.
func (w *search) consError(c *cons, vals []uint64) float64 {
	if vals[c.term] != 0 {
		return 0
	}
	e := treeError(c.tree, vals)
	if e <= 0 || math.IsNaN(e) {
		e = math.SmallestNonzeroFloat64 // violated all the same
	}
	return min(e, bad)
}

func treeError(n *enode, vals []uint64) float64 {
	switch n.op {
	case '&':
		s := 0.0
		for _, k := range n.kids {
			s += treeError(k, vals)
		}
		return s
	case '|':
		m := math.Inf(1)
		for _, k := range n.kids {
			m = min(m, treeError(k, vals))
		}
		return m
	}
	return atomError(n.atom, vals)
}

// holds reports whether the atom is as its constraint needs it.
func (a *atom) holds(vals []uint64) bool { return (vals[a.self] != 0) != a.neg }

// atomError is Korel's distance of one comparison: 0 when it holds, else
// how far its sides are from making it hold.
func atomError(a *atom, vals []uint64) float64 {
	if a.holds(vals) {
		return 0
	}
	if a.kind == sym.KInvalid || a.width == 0 {
		return 1 // a boolean: no distance but true or false
	}
	x, y := vals[a.a], vals[a.b]
	if a.kind.IsFloatCompare() {
		fx, fy := sym.FloatValue(x, a.width), sym.FloatValue(y, a.width)
		if math.IsNaN(fx) || math.IsNaN(fy) {
			return bad
		}
		d := math.Abs(fx - fy)
		if math.IsInf(d, 0) || math.IsNaN(d) {
			return bad
		}
		if a.kind == sym.KFEq && a.neg {
			return 1 // equal, must differ: any step away will do
		}
		return max(d, math.SmallestNonzeroFloat64)
	}
	switch a.kind {
	case sym.KEq:
		if a.neg {
			return 1
		}
		m := sym.Mask(a.width)
		return float64(min((x-y)&m, (y-x)&m))
	case sym.KULt, sym.KULe:
		// Violated: x >= y (<), x > y (<=); negated: x < y, x <= y.
		d := math.Abs(float64(x) - float64(y))
		if (a.kind == sym.KULt) != a.neg {
			return d + 1
		}
		return max(d, 1)
	case sym.KSLt, sym.KSLe:
		d := math.Abs(float64(sym.SignExtend(x, a.width)) - float64(sym.SignExtend(y, a.width)))
		if (a.kind == sym.KSLt) != a.neg {
			return d + 1
		}
		return max(d, 1)
	}
	return 1
}

// violatedAtom returns a violated comparison of tree n that has variable
// x, the first in the tree's order, or nil.
func (w *search) violatedAtom(n *enode, vals []uint64, x uint64) *atom {
	if n.op == 'a' {
		if n.atom.kind != sym.KInvalid && n.atom.vars[x] && !n.atom.holds(vals) {
			return n.atom
		}
		return nil
	}
	for _, k := range n.kids {
		if a := w.violatedAtom(k, vals, x); a != nil {
			return a
		}
	}
	return nil
}

// gap returns the signed difference of an atom's sides, whose zero the
// bisection step looks for: floats as floats, unsigned comparisons
// unsigned, everything else signed.
func (w *search) gap(a *atom, vals []uint64) (float64, bool) {
	if vals == nil {
		return 0, false
	}
	x, y := vals[a.a], vals[a.b]
	var d float64
	switch {
	case a.kind.IsFloatCompare():
		d = sym.FloatValue(x, a.width) - sym.FloatValue(y, a.width)
	case a.kind == sym.KULt || a.kind == sym.KULe:
		d = float64(x) - float64(y)
	default:
		d = float64(sym.SignExtend(x, a.width)) - float64(sym.SignExtend(y, a.width))
	}
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return 0, false
	}
	return d, true
}
