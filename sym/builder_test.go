package sym

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// testEnvs returns random inputs for the variables of the generated trees
// (see treeVarWidth), the first of them all zero.
func testEnvs(seed uint64, n int) []Env {
	g := newTreeGen(seed)
	envs := []Env{{}}
	for len(envs) < n {
		envs = append(envs, g.env())
	}
	return envs
}

func TestHashConsing(t *testing.T) {
	b := NewBuilder()
	x, y := b.Var(0, 8), b.Var(1, 8)
	c := b.Const(5, 8)
	p := b.Var(12, 0)
	tests := []struct {
		name string
		mk   func() (*Expr, *Expr)
		same bool
	}{
		{"var", func() (*Expr, *Expr) { return b.Var(0, 8), b.Var(0, 8) }, true},
		{"var width", func() (*Expr, *Expr) { return b.Var(0, 8), b.Var(0, 16) }, false},
		{"var number", func() (*Expr, *Expr) { return b.Var(0, 8), b.Var(1, 8) }, false},
		{"bool var", func() (*Expr, *Expr) { return b.Var(0, 0), b.Var(0, 8) }, false},
		{"const", func() (*Expr, *Expr) { return b.Const(5, 8), b.Const(5, 8) }, true},
		{"const truncated", func() (*Expr, *Expr) { return b.Const(0x105, 8), b.Const(5, 8) }, true},
		{"const width", func() (*Expr, *Expr) { return b.Const(5, 8), b.Const(5, 16) }, false},
		{"bool", func() (*Expr, *Expr) { return b.Bool(true), b.Bool(true) }, true},
		{"true false", func() (*Expr, *Expr) { return b.Bool(true), b.Bool(false) }, false},
		{"add", func() (*Expr, *Expr) { return b.Add(x, y), b.Add(x, y) }, true},
		{"add const commuted", func() (*Expr, *Expr) { return b.Add(x, c), b.Add(c, x) }, true},
		{"mul const commuted", func() (*Expr, *Expr) { return b.Bin(KMul, x, c), b.Bin(KMul, c, x) }, true},
		{"and const commuted", func() (*Expr, *Expr) { return b.Bin(KAnd, x, c), b.Bin(KAnd, c, x) }, true},
		{"or const commuted", func() (*Expr, *Expr) { return b.Bin(KOr, x, c), b.Bin(KOr, c, x) }, true},
		{"xor const commuted", func() (*Expr, *Expr) { return b.Bin(KXor, x, c), b.Bin(KXor, c, x) }, true},
		{"sub is add of negation", func() (*Expr, *Expr) { return b.Sub(x, c), b.Add(x, b.Const(minus(5), 8)) }, true},
		{"udiv not commuted", func() (*Expr, *Expr) { return b.Bin(KUDiv, x, c), b.Bin(KUDiv, c, x) }, false},
		{"shl not commuted", func() (*Expr, *Expr) { return b.Bin(KShl, x, c), b.Bin(KShl, c, x) }, false},
		{"sub operands", func() (*Expr, *Expr) { return b.Sub(x, y), b.Sub(y, x) }, false},
		{"kind", func() (*Expr, *Expr) { return b.Bin(KUDiv, x, y), b.Bin(KSDiv, x, y) }, false},
		{"eq const commuted", func() (*Expr, *Expr) { return b.Eq(x, c), b.Eq(c, x) }, true},
		{"ult operands", func() (*Expr, *Expr) { return b.Cmp(KULt, x, y), b.Cmp(KULt, y, x) }, false},
		{"ult vs slt", func() (*Expr, *Expr) { return b.Cmp(KULt, x, y), b.Cmp(KSLt, x, y) }, false},
		{"zext", func() (*Expr, *Expr) { return b.ZExt(x, 32), b.ZExt(x, 32) }, true},
		{"zext vs sext", func() (*Expr, *Expr) { return b.ZExt(x, 32), b.SExt(x, 32) }, false},
		{"zext widths", func() (*Expr, *Expr) { return b.ZExt(x, 32), b.ZExt(x, 16) }, false},
		{"ite", func() (*Expr, *Expr) { return b.Ite(p, x, y), b.Ite(p, x, y) }, true},
		{"not", func() (*Expr, *Expr) { return b.Not(b.Eq(x, y)), b.Not(b.Eq(x, y)) }, true},
		{"nested", func() (*Expr, *Expr) {
			mk := func() *Expr {
				return b.And(b.Cmp(KSLt, b.Add(b.SExt(x, 16), b.Const(3, 16)), b.Var(3, 16)), b.Not(p))
			}
			return mk(), mk()
		}, true},
	}
	for _, tt := range tests {
		e1, e2 := tt.mk()
		n := b.Len()
		e3, e4 := tt.mk()
		if same := e1 == e2; same != tt.same {
			t.Errorf("%s: %v and %v: shared = %v, want %v", tt.name, e1, e2, same, tt.same)
		}
		if e1 != e3 || e2 != e4 {
			t.Errorf("%s: repeating the requests made new nodes", tt.name)
		}
		if b.Len() != n {
			t.Errorf("%s: repeating the requests grew the Builder from %d to %d nodes", tt.name, n, b.Len())
		}
	}
}

// TestIDOrder checks that arguments have smaller IDs than their parents
// and that IDs are distinct.
func TestIDOrder(t *testing.T) {
	b := NewBuilder()
	g := newTreeGen(7)
	ids := make(map[uint32]*Expr)
	var walk func(e *Expr)
	walk = func(e *Expr) {
		if other, ok := ids[e.ID()]; ok && other != e {
			t.Fatalf("nodes %v and %v share ID %d", e, other, e.ID())
		}
		ids[e.ID()] = e
		for _, a := range e.Args {
			if a.ID() >= e.ID() {
				t.Errorf("argument %v has ID %d, parent %v has ID %d", a, a.ID(), e, e.ID())
			}
			walk(a)
		}
	}
	for range 100 {
		walk(g.bv(32, 5).build(b))
	}
	if len(ids) > b.Len() {
		t.Errorf("%d distinct IDs reachable, Builder has only %d nodes", len(ids), b.Len())
	}
}

// TestResetKeepsNodesDistinct checks that a node made before Reset, which
// the documentation says stays valid, is not confused with a node made
// after it.
func TestResetKeepsNodesDistinct(t *testing.T) {
	b := NewBuilder()
	old := b.Var(0, 8) // v0
	b.Reset()
	if b.Len() != 0 {
		t.Fatalf("Len after Reset = %d, want 0", b.Len())
	}
	fresh := b.Var(1, 8) // v1
	one := b.Const(1, 8)
	sumFresh := b.Add(fresh, one)
	sumOld := b.Add(old, one)
	if old.ID() == fresh.ID() {
		t.Errorf("%v made before Reset and %v made after it share ID %d", old, fresh, old.ID())
	}
	if sumOld == sumFresh {
		t.Errorf("Add(%v, 1) and Add(%v, 1) are one node %v", old, fresh, sumOld)
	}
	env := Env{0: 5, 1: 7}
	if got, want := Eval(sumOld, env), uint64(6); got != want {
		t.Errorf("Add(%v, 1) = %v evaluates to %d, want %d", old, sumOld, got, want)
	}
}

// TestConstantFolding checks that operations on constants fold to the
// constant that evaluating the unsimplified node gives.
func TestConstantFolding(t *testing.T) {
	b := NewBuilder()
	g := newTreeGen(3)
	check := func(name string, got, raw *Expr) {
		t.Helper()
		if !got.IsConst() {
			t.Errorf("%s: %v did not fold", name, got)
			return
		}
		if want := Eval(raw, nil); Eval(got, nil) != want || got.Width != raw.Width {
			t.Errorf("%s: folded to %v, want %#x of width %d", name, got, want, raw.Width)
		}
	}
	for _, w := range widths {
		for range 200 {
			x, y := g.edge(w), g.edge(w)
			cx, cy := b.Const(x, w), b.Const(y, w)
			rx, ry := rawConst(x, w), rawConst(y, w)
			name := fmt.Sprintf("%d-bit %#x, %#x", w, x, y)
			for k := KAdd; k <= KAShr; k++ {
				check(name+" "+k.String(), b.Bin(k, cx, cy), rawNode(k, w, rx, ry))
			}
			for k := KEq; k <= KSLe; k++ {
				check(name+" "+k.String(), b.Cmp(k, cx, cy), rawNode(k, 0, rx, ry))
			}
			check(name+" neg", b.Neg(cx), rawNode(KNeg, w, rx))
			check(name+" cpl", b.Cpl(cx), rawNode(KCpl, w, rx))
			for _, to := range widths {
				switch {
				case to > w:
					check(name+" zext", b.ZExt(cx, to), rawNode(KZExt, to, rx))
					check(name+" sext", b.SExt(cx, to), rawNode(KSExt, to, rx))
				case to < w:
					check(name+" trunc", b.Trunc(cx, to), rawNode(KTrunc, to, rx))
				}
				for _, k := range []Kind{KShl, KLShr, KAShr} {
					a := g.edge(to)
					sh := &tnode{k: tShift, w: w, val: uint64(k), args: []*tnode{tconst(x, w), tconst(a, to)}}
					check(fmt.Sprintf("%s %s by %d-bit %#x", name, k, to, a), b.Shift(k, cx, b.Const(a, to)), sh.raw())
				}
			}
		}
	}
	for _, p := range []bool{false, true} {
		for _, q := range []bool{false, true} {
			bp, bq := b.Bool(p), b.Bool(q)
			rp, rq := rawNode(b.Bool(p).Kind, 0), rawNode(b.Bool(q).Kind, 0)
			name := fmt.Sprintf("%v, %v", p, q)
			check(name+" &&", b.And(bp, bq), rawNode(KLAnd, 0, rp, rq))
			check(name+" ||", b.Or(bp, bq), rawNode(KLOr, 0, rp, rq))
			check(name+" ==", b.Eq(bp, bq), rawNode(KEq, 0, rp, rq))
			check(name+" !", b.Not(bp), rawNode(KNot, 0, rp))
			check(name+" ite", b.Ite(bp, b.Const(1, 8), b.Const(2, 8)), rawNode(KIte, 8, rp, rawConst(1, 8), rawConst(2, 8)))
			check(name+" bool ite", b.Ite(bp, bq, b.Bool(true)), rawNode(KIte, 0, rp, rq, rawNode(KTrue, 0)))
		}
	}
}

// minus returns the two's-complement bits of -v.
func minus(v uint64) uint64 { return -v }

// ruleVars are the operands of the simplification rule cases.
type ruleVars struct {
	b      *Builder
	w      uint8
	x, y   *Expr // variables of width w
	x8     *Expr // an 8-bit variable
	x64    *Expr // a 64-bit variable
	p, q   *Expr // boolean variables
	narrow bool  // w > 8: x8 can be extended to w
}

func (r *ruleVars) c(v uint64) *Expr  { return r.b.Const(v, r.w) }
func (r *ruleVars) rc(v uint64) *Expr { return rawConst(v, r.w) }
func (r *ruleVars) m() uint64         { return Mask(r.w) }

// ruleCase is one rewrite of the Builder. mk returns the Builder's node,
// an unsimplified formulation of the same term and, if the rule promises a
// particular result, that result (else nil). A case that does not apply
// to the width returns nil nodes.
type ruleCase struct {
	name string
	mk   func(r *ruleVars) (got, raw, want *Expr)
}

func rules() []ruleCase {
	bin := func(name string, k Kind, commuted bool, c uint64, want func(r *ruleVars) *Expr) ruleCase {
		return ruleCase{name, func(r *ruleVars) (*Expr, *Expr, *Expr) {
			cv := c & r.m()
			if commuted {
				return r.b.Bin(k, r.c(cv), r.x), rawNode(k, r.w, r.rc(cv), r.x), want(r)
			}
			return r.b.Bin(k, r.x, r.c(cv)), rawNode(k, r.w, r.x, r.rc(cv)), want(r)
		}}
	}
	isX := func(r *ruleVars) *Expr { return r.x }
	isZero := func(r *ruleVars) *Expr { return r.c(0) }
	none := func(r *ruleVars) *Expr { return nil }
	return []ruleCase{
		// Neutral and absorbing constants.
		bin("x + 0", KAdd, false, 0, isX),
		bin("0 + x", KAdd, true, 0, isX),
		bin("x - 0", KSub, false, 0, isX),
		bin("x | 0", KOr, false, 0, isX),
		bin("0 | x", KOr, true, 0, isX),
		bin("x ^ 0", KXor, false, 0, isX),
		bin("0 ^ x", KXor, true, 0, isX),
		bin("x << 0", KShl, false, 0, isX),
		bin("x >>u 0", KLShr, false, 0, isX),
		bin("x >>s 0", KAShr, false, 0, isX),
		bin("x * 0", KMul, false, 0, isZero),
		bin("0 * x", KMul, true, 0, isZero),
		bin("x & 0", KAnd, false, 0, isZero),
		bin("0 & x", KAnd, true, 0, isZero),
		bin("x * 1", KMul, false, 1, isX),
		bin("1 * x", KMul, true, 1, isX),
		bin("x /u 1", KUDiv, false, 1, isX),
		bin("x /s 1", KSDiv, false, 1, isX),
		bin("x & -1", KAnd, false, ^uint64(0), isX),
		bin("-1 & x", KAnd, true, ^uint64(0), isX),
		// Near misses, which must keep their meaning.
		bin("0 - x", KSub, true, 0, none),
		bin("0 << x", KShl, true, 0, none),
		bin("0 >>s x", KAShr, true, 0, none),
		bin("-1 >>s x", KAShr, true, ^uint64(0), none),
		bin("1 /u x", KUDiv, true, 1, none),
		bin("1 /s x", KSDiv, true, 1, none),
		bin("x %u 1", KURem, false, 1, none),
		bin("x %s 1", KSRem, false, 1, none),
		bin("x %s -1", KSRem, false, ^uint64(0), none),
		bin("x /s -1", KSDiv, false, ^uint64(0), none),
		bin("x /u 0", KUDiv, false, 0, none),
		bin("x /s 0", KSDiv, false, 0, none),
		bin("x %u 0", KURem, false, 0, none),
		bin("x %s 0", KSRem, false, 0, none),
		bin("x | -1", KOr, false, ^uint64(0), none),
		bin("x * -1", KMul, false, ^uint64(0), none),
		bin("x << 1", KShl, false, 1, none),
		{"x >>s width-1", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			n := uint64(r.w) - 1
			return r.b.Bin(KAShr, r.x, r.c(n)), rawNode(KAShr, r.w, r.x, r.rc(n)), nil
		}},
		bin("x >>u 200", KLShr, false, 200, none),

		// Offsets.
		{"x - 5 is x + -5", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Sub(r.x, r.c(5)), rawNode(KSub, r.w, r.x, r.rc(5)), r.b.Add(r.x, r.c(minus(5)))
		}},
		{"(x + 3) + 5", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Add(r.b.Add(r.x, r.c(3)), r.c(5)),
				rawNode(KAdd, r.w, rawNode(KAdd, r.w, r.x, r.rc(3)), r.rc(5)),
				r.b.Add(r.x, r.c(8))
		}},
		{"5 + (x + 3)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Add(r.c(5), r.b.Add(r.x, r.c(3))),
				rawNode(KAdd, r.w, r.rc(5), rawNode(KAdd, r.w, r.x, r.rc(3))),
				r.b.Add(r.x, r.c(8))
		}},
		{"(x - 3) + 3", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Add(r.b.Sub(r.x, r.c(3)), r.c(3)),
				rawNode(KAdd, r.w, rawNode(KSub, r.w, r.x, r.rc(3)), r.rc(3)),
				r.x
		}},
		{"(x + 3) - 3", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Sub(r.b.Add(r.x, r.c(3)), r.c(3)),
				rawNode(KSub, r.w, rawNode(KAdd, r.w, r.x, r.rc(3)), r.rc(3)),
				r.x
		}},
		{"(x - max) - 1", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Sub(r.b.Sub(r.x, r.c(r.m())), r.c(1)),
				rawNode(KSub, r.w, rawNode(KSub, r.w, r.x, r.rc(r.m())), r.rc(1)),
				r.x
		}},
		{"(x + y) + 3", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Add(r.b.Add(r.x, r.y), r.c(3)),
				rawNode(KAdd, r.w, rawNode(KAdd, r.w, r.x, r.y), r.rc(3)), nil
		}},
		{"(x * 3) + 5", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Add(r.b.Bin(KMul, r.x, r.c(3)), r.c(5)),
				rawNode(KAdd, r.w, rawNode(KMul, r.w, r.x, r.rc(3)), r.rc(5)), nil
		}},

		// Equal operands.
		{"x - x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Sub(r.x, r.x), rawNode(KSub, r.w, r.x, r.x), r.c(0)
		}},
		{"x ^ x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Bin(KXor, r.x, r.x), rawNode(KXor, r.w, r.x, r.x), r.c(0)
		}},
		{"x & x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Bin(KAnd, r.x, r.x), rawNode(KAnd, r.w, r.x, r.x), r.x
		}},
		{"x | x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Bin(KOr, r.x, r.x), rawNode(KOr, r.w, r.x, r.x), r.x
		}},
		{"x + x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Add(r.x, r.x), rawNode(KAdd, r.w, r.x, r.x), nil
		}},
		{"x /s x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Bin(KSDiv, r.x, r.x), rawNode(KSDiv, r.w, r.x, r.x), nil
		}},

		// Unary operators.
		{"-(-x)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Neg(r.b.Neg(r.x)), rawNode(KNeg, r.w, rawNode(KNeg, r.w, r.x)), r.x
		}},
		{"^(^x)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Cpl(r.b.Cpl(r.x)), rawNode(KCpl, r.w, rawNode(KCpl, r.w, r.x)), r.x
		}},
		{"-(^x)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Neg(r.b.Cpl(r.x)), rawNode(KNeg, r.w, rawNode(KCpl, r.w, r.x)), nil
		}},

		// Width changes.
		{"trunc(zext(x8))", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Trunc(r.b.ZExt(r.x8, r.w), 8), rawNode(KTrunc, 8, rawNode(KZExt, r.w, r.x8)), r.x8
		}},
		{"trunc(sext(x8))", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Trunc(r.b.SExt(r.x8, r.w), 8), rawNode(KTrunc, 8, rawNode(KSExt, r.w, r.x8)), r.x8
		}},
		{"trunc16(sext(x8))", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if r.w < 32 {
				return nil, nil, nil
			}
			return r.b.Trunc(r.b.SExt(r.x8, r.w), 16), rawNode(KTrunc, 16, rawNode(KSExt, r.w, r.x8)), nil
		}},
		{"trunc8(zext(trunc16(x64)))", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if r.w < 32 {
				return nil, nil, nil
			}
			x16 := r.b.Trunc(r.x64, 16)
			return r.b.Trunc(r.b.ZExt(x16, r.w), 8),
				rawNode(KTrunc, 8, rawNode(KZExt, r.w, rawNode(KTrunc, 16, r.x64))), nil
		}},
		{"trunc8(trunc(x64))", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow || r.w == 64 {
				return nil, nil, nil
			}
			return r.b.Trunc(r.b.Trunc(r.x64, r.w), 8),
				rawNode(KTrunc, 8, rawNode(KTrunc, r.w, r.x64)), r.b.Trunc(r.x64, 8)
		}},
		{"zext64(zext(x8))", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow || r.w == 64 {
				return nil, nil, nil
			}
			return r.b.ZExt(r.b.ZExt(r.x8, r.w), 64),
				rawNode(KZExt, 64, rawNode(KZExt, r.w, r.x8)), r.b.ZExt(r.x8, 64)
		}},
		{"sext64(sext(x8))", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow || r.w == 64 {
				return nil, nil, nil
			}
			return r.b.SExt(r.b.SExt(r.x8, r.w), 64),
				rawNode(KSExt, 64, rawNode(KSExt, r.w, r.x8)), r.b.SExt(r.x8, 64)
		}},
		{"sext64(zext(x8))", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow || r.w == 64 {
				return nil, nil, nil
			}
			return r.b.SExt(r.b.ZExt(r.x8, r.w), 64),
				rawNode(KSExt, 64, rawNode(KZExt, r.w, r.x8)), r.b.ZExt(r.x8, 64)
		}},
		{"zext64(sext(x8))", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow || r.w == 64 {
				return nil, nil, nil
			}
			return r.b.ZExt(r.b.SExt(r.x8, r.w), 64),
				rawNode(KZExt, 64, rawNode(KSExt, r.w, r.x8)), nil
		}},
		{"zext to the same width", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.ZExt(r.x, r.w), r.x, r.x
		}},
		{"convert to the same width", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Convert(r.x, r.w, true), r.x, r.x
		}},
		{"shift by a narrower amount", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Shift(KShl, r.x, r.x8), rawNode(KShl, r.w, r.x, rawNode(KZExt, r.w, r.x8)), nil
		}},
		{"ashr by a wider amount", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if r.w == 64 {
				return nil, nil, nil
			}
			inRange := rawNode(KULt, 0, r.x64, rawConst(uint64(r.w), 64))
			shifted := rawNode(KAShr, r.w, r.x, rawNode(KTrunc, r.w, r.x64))
			allSign := rawNode(KAShr, r.w, r.x, r.rc(uint64(r.w)-1))
			return r.b.Shift(KAShr, r.x, r.x64), rawNode(KIte, r.w, inRange, shifted, allSign), nil
		}},

		// Ite.
		{"ite(true, x, y)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Ite(r.b.Bool(true), r.x, r.y), rawNode(KIte, r.w, rawNode(KTrue, 0), r.x, r.y), r.x
		}},
		{"ite(false, x, y)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Ite(r.b.Bool(false), r.x, r.y), rawNode(KIte, r.w, rawNode(KFalse, 0), r.x, r.y), r.y
		}},
		{"ite(p, x, x)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Ite(r.p, r.x, r.x), rawNode(KIte, r.w, r.p, r.x, r.x), r.x
		}},
		{"ite(!p, x, y)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Ite(r.b.Not(r.p), r.x, r.y), rawNode(KIte, r.w, rawNode(KNot, 0, r.p), r.x, r.y), r.b.Ite(r.p, r.y, r.x)
		}},
		{"ite(x <u y, x, y)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			c := r.b.Cmp(KULt, r.x, r.y)
			return r.b.Ite(c, r.x, r.y), rawNode(KIte, r.w, rawNode(KULt, 0, r.x, r.y), r.x, r.y), nil
		}},
		{"ite(p, true, false)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Ite(r.p, r.b.Bool(true), r.b.Bool(false)),
				rawNode(KIte, 0, r.p, rawNode(KTrue, 0), rawNode(KFalse, 0)), r.p
		}},
		{"ite(p, false, true)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Ite(r.p, r.b.Bool(false), r.b.Bool(true)),
				rawNode(KIte, 0, r.p, rawNode(KFalse, 0), rawNode(KTrue, 0)), r.b.Not(r.p)
		}},
		{"ite(p, q, false)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Ite(r.p, r.q, r.b.Bool(false)), rawNode(KIte, 0, r.p, r.q, rawNode(KFalse, 0)), nil
		}},

		// Comparisons.
		{"x == x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.x, r.x), rawNode(KEq, 0, r.x, r.x), r.b.Bool(true)
		}},
		{"x <u x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Cmp(KULt, r.x, r.x), rawNode(KULt, 0, r.x, r.x), r.b.Bool(false)
		}},
		{"x <=u x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Cmp(KULe, r.x, r.x), rawNode(KULe, 0, r.x, r.x), r.b.Bool(true)
		}},
		{"x <s x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Cmp(KSLt, r.x, r.x), rawNode(KSLt, 0, r.x, r.x), r.b.Bool(false)
		}},
		{"x <=s x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Cmp(KSLe, r.x, r.x), rawNode(KSLe, 0, r.x, r.x), r.b.Bool(true)
		}},
		{"3 == x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.c(3), r.x), rawNode(KEq, 0, r.rc(3), r.x), r.b.Eq(r.x, r.c(3))
		}},
		{"x + 3 == 5", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.b.Add(r.x, r.c(3)), r.c(5)),
				rawNode(KEq, 0, rawNode(KAdd, r.w, r.x, r.rc(3)), r.rc(5)), r.b.Eq(r.x, r.c(2))
		}},
		{"x - 3 == 1", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.b.Sub(r.x, r.c(3)), r.c(1)),
				rawNode(KEq, 0, rawNode(KSub, r.w, r.x, r.rc(3)), r.rc(1)), r.b.Eq(r.x, r.c(4))
		}},
		{"x + 5 == 3 wraps", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.b.Add(r.x, r.c(5)), r.c(3)),
				rawNode(KEq, 0, rawNode(KAdd, r.w, r.x, r.rc(5)), r.rc(3)), r.b.Eq(r.x, r.c(minus(2)))
		}},
		{"5 == x + 3", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.c(5), r.b.Add(r.x, r.c(3))),
				rawNode(KEq, 0, r.rc(5), rawNode(KAdd, r.w, r.x, r.rc(3))), r.b.Eq(r.x, r.c(2))
		}},
		{"x + y == 5", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.b.Add(r.x, r.y), r.c(5)),
				rawNode(KEq, 0, rawNode(KAdd, r.w, r.x, r.y), r.rc(5)), nil
		}},
		{"x + 3 <u 5", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Cmp(KULt, r.b.Add(r.x, r.c(3)), r.c(5)),
				rawNode(KULt, 0, rawNode(KAdd, r.w, r.x, r.rc(3)), r.rc(5)), nil
		}},
		{"x <u 0", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Cmp(KULt, r.x, r.c(0)), rawNode(KULt, 0, r.x, r.rc(0)), r.b.Bool(false)
		}},
		{"x <=u max", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Cmp(KULe, r.x, r.c(r.m())), rawNode(KULe, 0, r.x, r.rc(r.m())), r.b.Bool(true)
		}},
		{"0 <=u x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Cmp(KULe, r.c(0), r.x), rawNode(KULe, 0, r.rc(0), r.x), r.b.Bool(true)
		}},
		{"max <u x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Cmp(KULt, r.c(r.m()), r.x), rawNode(KULt, 0, r.rc(r.m()), r.x), r.b.Bool(false)
		}},
		{"x <s min", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			min := r.m()>>1 + 1
			return r.b.Cmp(KSLt, r.x, r.c(min)), rawNode(KSLt, 0, r.x, r.rc(min)), nil
		}},
		{"x <=s -1", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Cmp(KSLe, r.x, r.c(r.m())), rawNode(KSLe, 0, r.x, r.rc(r.m())), nil
		}},
		{"0 <u x", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Cmp(KULt, r.c(0), r.x), rawNode(KULt, 0, r.rc(0), r.x), nil
		}},
		{"zext(x8) == 200", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Eq(r.b.ZExt(r.x8, r.w), r.c(200)),
				rawNode(KEq, 0, rawNode(KZExt, r.w, r.x8), r.rc(200)), r.b.Eq(r.x8, r.b.Const(200, 8))
		}},
		{"zext(x8) == 256 is false", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Eq(r.b.ZExt(r.x8, r.w), r.c(256)),
				rawNode(KEq, 0, rawNode(KZExt, r.w, r.x8), r.rc(256)), r.b.Bool(false)
		}},
		{"zext(x8) == -1 is false", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Eq(r.b.ZExt(r.x8, r.w), r.c(r.m())),
				rawNode(KEq, 0, rawNode(KZExt, r.w, r.x8), r.rc(r.m())), r.b.Bool(false)
		}},
		{"-1 == zext(x8) is false", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Eq(r.c(r.m()), r.b.ZExt(r.x8, r.w)),
				rawNode(KEq, 0, r.rc(r.m()), rawNode(KZExt, r.w, r.x8)), r.b.Bool(false)
		}},
		{"sext(x8) == -3", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Eq(r.b.SExt(r.x8, r.w), r.c(minus(3))),
				rawNode(KEq, 0, rawNode(KSExt, r.w, r.x8), r.rc(minus(3))), r.b.Eq(r.x8, r.b.Const(0xfd, 8))
		}},
		{"sext(x8) == 127", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Eq(r.b.SExt(r.x8, r.w), r.c(127)),
				rawNode(KEq, 0, rawNode(KSExt, r.w, r.x8), r.rc(127)), r.b.Eq(r.x8, r.b.Const(127, 8))
		}},
		{"sext(x8) == -128", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Eq(r.b.SExt(r.x8, r.w), r.c(minus(128))),
				rawNode(KEq, 0, rawNode(KSExt, r.w, r.x8), r.rc(minus(128))), r.b.Eq(r.x8, r.b.Const(0x80, 8))
		}},
		{"sext(x8) == 128 is false", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Eq(r.b.SExt(r.x8, r.w), r.c(128)),
				rawNode(KEq, 0, rawNode(KSExt, r.w, r.x8), r.rc(128)), r.b.Bool(false)
		}},
		{"sext(x8) == -129 is false", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Eq(r.b.SExt(r.x8, r.w), r.c(minus(129))),
				rawNode(KEq, 0, rawNode(KSExt, r.w, r.x8), r.rc(minus(129))), r.b.Bool(false)
		}},
		{"sext(x8) == 0x100 is false", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Eq(r.b.SExt(r.x8, r.w), r.c(0x100)),
				rawNode(KEq, 0, rawNode(KSExt, r.w, r.x8), r.rc(0x100)), r.b.Bool(false)
		}},
		{"sext(x8) <s 0", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			if !r.narrow {
				return nil, nil, nil
			}
			return r.b.Cmp(KSLt, r.b.SExt(r.x8, r.w), r.c(0)),
				rawNode(KSLt, 0, rawNode(KSExt, r.w, r.x8), r.rc(0)), nil
		}},

		// Boolean connectives.
		{"p == true", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.p, r.b.Bool(true)), rawNode(KEq, 0, r.p, rawNode(KTrue, 0)), r.p
		}},
		{"p == false", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.p, r.b.Bool(false)), rawNode(KEq, 0, r.p, rawNode(KFalse, 0)), r.b.Not(r.p)
		}},
		{"true == p", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.b.Bool(true), r.p), rawNode(KEq, 0, rawNode(KTrue, 0), r.p), r.p
		}},
		{"false == p", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.b.Bool(false), r.p), rawNode(KEq, 0, rawNode(KFalse, 0), r.p), r.b.Not(r.p)
		}},
		{"p == p", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.p, r.p), rawNode(KEq, 0, r.p, r.p), r.b.Bool(true)
		}},
		{"p == q", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Eq(r.p, r.q), rawNode(KEq, 0, r.p, r.q), nil
		}},
		{"!!p", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Not(r.b.Not(r.p)), rawNode(KNot, 0, rawNode(KNot, 0, r.p)), r.p
		}},
		{"!!(x <s y)", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			c := r.b.Cmp(KSLt, r.x, r.y)
			return r.b.Not(r.b.Not(c)), rawNode(KNot, 0, rawNode(KNot, 0, rawNode(KSLt, 0, r.x, r.y))), c
		}},
		{"!true", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Not(r.b.Bool(true)), rawNode(KNot, 0, rawNode(KTrue, 0)), r.b.Bool(false)
		}},
		{"!false", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Not(r.b.Bool(false)), rawNode(KNot, 0, rawNode(KFalse, 0)), r.b.Bool(true)
		}},
		{"false && p", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.And(r.b.Bool(false), r.p), rawNode(KLAnd, 0, rawNode(KFalse, 0), r.p), r.b.Bool(false)
		}},
		{"p && false", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.And(r.p, r.b.Bool(false)), rawNode(KLAnd, 0, r.p, rawNode(KFalse, 0)), r.b.Bool(false)
		}},
		{"true && p", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.And(r.b.Bool(true), r.p), rawNode(KLAnd, 0, rawNode(KTrue, 0), r.p), r.p
		}},
		{"p && true", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.And(r.p, r.b.Bool(true)), rawNode(KLAnd, 0, r.p, rawNode(KTrue, 0)), r.p
		}},
		{"p && p", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.And(r.p, r.p), rawNode(KLAnd, 0, r.p, r.p), r.p
		}},
		{"p && q", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.And(r.p, r.q), rawNode(KLAnd, 0, r.p, r.q), nil
		}},
		{"true || p", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Or(r.b.Bool(true), r.p), rawNode(KLOr, 0, rawNode(KTrue, 0), r.p), r.b.Bool(true)
		}},
		{"p || true", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Or(r.p, r.b.Bool(true)), rawNode(KLOr, 0, r.p, rawNode(KTrue, 0)), r.b.Bool(true)
		}},
		{"false || p", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Or(r.b.Bool(false), r.p), rawNode(KLOr, 0, rawNode(KFalse, 0), r.p), r.p
		}},
		{"p || false", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Or(r.p, r.b.Bool(false)), rawNode(KLOr, 0, r.p, rawNode(KFalse, 0)), r.p
		}},
		{"p || p", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Or(r.p, r.p), rawNode(KLOr, 0, r.p, r.p), r.p
		}},
		{"p || !p", func(r *ruleVars) (*Expr, *Expr, *Expr) {
			return r.b.Or(r.p, r.b.Not(r.p)), rawNode(KLOr, 0, r.p, rawNode(KNot, 0, r.p)), nil
		}},
	}
}

// TestSimplificationRules checks each rewrite of the Builder on every
// width: the result is the promised node, if any, and means what the
// unsimplified formulation means on many inputs.
func TestSimplificationRules(t *testing.T) {
	envs := testEnvs(11, 300)
	for _, w := range widths {
		b := NewBuilder()
		i := uint64(varsPerWidth * widthIndex(w))
		r := &ruleVars{
			b: b, w: w,
			x: b.Var(i, w), y: b.Var(i+1, w),
			x8: b.Var(0, 8), x64: b.Var(3*varsPerWidth, 64),
			p: b.Var(4*varsPerWidth, 0), q: b.Var(4*varsPerWidth+1, 0),
			narrow: w > 8,
		}
		for _, rule := range rules() {
			got, raw, want := rule.mk(r)
			if got == nil {
				continue
			}
			if want != nil && got != want {
				t.Errorf("%d-bit %s: built %v, want %v", w, rule.name, got, want)
			}
			if got.Width != raw.Width {
				t.Errorf("%d-bit %s: built %v of width %d, want width %d", w, rule.name, got, got.Width, raw.Width)
			}
			for _, env := range envs {
				if g, r := Eval(got, env), Eval(raw, env); g != r {
					t.Errorf("%d-bit %s: %v = %#x, but %v = %#x, with %v", w, rule.name, got, g, raw, r, env)
					break
				}
			}
		}
	}
}

// TestBuilderMatchesRaw builds random trees through the Builder and as raw
// nodes and checks that they mean the same. It also checks that Make
// rebuilds every node it is given the parts of.
func TestBuilderMatchesRaw(t *testing.T) {
	g := newTreeGen(*propertySeed + 100)
	envs := testEnvs(*propertySeed+200, 50)
	b := NewBuilder()
	n := 600
	if testing.Short() {
		n = 100
	}
	for i := range n {
		var tree *tnode
		if i%5 == 0 {
			tree = g.boolean(5)
		} else {
			tree = g.bv(widths[i%4], 5)
		}
		built, raw := tree.build(b), tree.raw()
		if err := wellSorted(built); err != nil {
			t.Errorf("built %v: %v", built, err)
		}
		for _, env := range envs {
			if got, want := Eval(built, env), Eval(raw, env); got != want {
				t.Errorf("built %v = %#x, raw %v = %#x, with %v", built, got, raw, want, env)
				break
			}
		}
		checkMakeRebuilds(t, b, built)
	}
}

// checkMakeRebuilds checks that Make, given the parts of each node of e,
// returns that node: the Builder's results are fixed points of its rules,
// which decoding relies on. String aggregates and calls of more than
// three arguments, which are never shared, are left out.
func checkMakeRebuilds(t *testing.T, b *Builder, e *Expr) {
	t.Helper()
	seen := make(map[*Expr]bool)
	var walk func(e *Expr)
	walk = func(e *Expr) {
		if seen[e] {
			return
		}
		seen[e] = true
		for _, a := range e.Args {
			walk(a)
		}
		if e.Kind == KString || e.Kind == KCall && len(e.Args) > 3 {
			return
		}
		got, err := b.Make(e.Kind, e.Width, e.Val, e.Args)
		if err != nil || got != e {
			t.Errorf("Make(%s, %d, %d, args of %v) = %v, %v; want the node itself", e.Kind, e.Width, e.Val, e, got, err)
		}
	}
	walk(e)
}

// wellSorted reports the first ill-sorted node of e, if any.
func wellSorted(e *Expr) error {
	seen := make(map[*Expr]bool)
	var check func(e *Expr) error
	check = func(e *Expr) error {
		if seen[e] {
			return nil
		}
		seen[e] = true
		for _, a := range e.Args {
			if err := check(a); err != nil {
				return err
			}
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("ill-sorted %v: %s", e, fmt.Sprintf(format, args...))
		}
		isBV := func(w uint8) bool { return w == 8 || w == 16 || w == 32 || w == 64 }
		isFloat := func(w uint8) bool { return w == 32 || w == 64 }
		nargs := -1
		switch {
		case e.Kind == KConst:
			nargs = 0
			if !isBV(e.Width) || e.Val&^Mask(e.Width) != 0 {
				return bad("width %d, value %#x", e.Width, e.Val)
			}
		case e.Kind == KTrue, e.Kind == KFalse:
			nargs = 0
			if e.Width != 0 {
				return bad("boolean of width %d", e.Width)
			}
		case e.Kind == KVar:
			nargs = 0
			if e.Width != 0 && !isBV(e.Width) {
				return bad("width %d", e.Width)
			}
		case e.Kind.IsBinaryBV():
			nargs = 2
		case e.Kind == KNeg, e.Kind == KCpl, e.Kind == KNot, e.Kind == KZExt, e.Kind == KSExt, e.Kind == KTrunc:
			nargs = 1
		case e.Kind == KIte:
			nargs = 3
		case e.Kind.IsCompare(), e.Kind == KLAnd, e.Kind == KLOr:
			nargs = 2
		case e.Kind.IsFloatArith(), e.Kind.IsFloatCompare():
			nargs = 2
		case e.Kind == KFNeg, e.Kind.IsFloatConvert():
			nargs = 1
		case e.Kind == KString:
			if len(e.Args) == 0 || e.Width != 64 || e.Args[0].Width != 64 || e.Args[0].Kind == KString {
				return bad("string aggregate")
			}
			for _, a := range e.Args[1:] {
				if a.Width != 8 || a.Kind == KString {
					return bad("string byte of width %d", a.Width)
				}
			}
			return nil
		case e.Kind == KCall:
			// An opaque call takes any arguments; its result has a sort.
			if e.Width != 0 && !isBV(e.Width) {
				return bad("call of width %d", e.Width)
			}
			return nil
		default:
			return bad("kind %d", e.Kind)
		}
		if len(e.Args) != nargs {
			return bad("%d arguments, want %d", len(e.Args), nargs)
		}
		a := e.Args
		switch {
		case e.Kind.IsBinaryBV():
			if !isBV(e.Width) || a[0].Width != e.Width || a[1].Width != e.Width {
				return bad("widths %d and %d, result %d", a[0].Width, a[1].Width, e.Width)
			}
		case e.Kind == KNeg, e.Kind == KCpl:
			if !isBV(e.Width) || a[0].Width != e.Width {
				return bad("operand width %d, result %d", a[0].Width, e.Width)
			}
		case e.Kind == KZExt, e.Kind == KSExt:
			if !isBV(e.Width) || !isBV(a[0].Width) || a[0].Width >= e.Width {
				return bad("from width %d to %d", a[0].Width, e.Width)
			}
		case e.Kind == KTrunc:
			if !isBV(e.Width) || !isBV(a[0].Width) || a[0].Width <= e.Width {
				return bad("from width %d to %d", a[0].Width, e.Width)
			}
		case e.Kind == KIte:
			if !a[0].IsBool() || a[1].Width != e.Width || a[2].Width != e.Width {
				return bad("condition width %d, branches %d and %d, result %d", a[0].Width, a[1].Width, a[2].Width, e.Width)
			}
		case e.Kind.IsCompare():
			if e.Width != 0 || a[0].Width != a[1].Width || (a[0].Width == 0 && e.Kind != KEq) {
				return bad("operand widths %d and %d, result %d", a[0].Width, a[1].Width, e.Width)
			}
		case e.Kind.IsFloatArith(), e.Kind == KFNeg:
			if !isFloat(e.Width) {
				return bad("float width %d", e.Width)
			}
			for _, x := range a {
				if x.Width != e.Width || x.Kind == KString {
					return bad("operand %v of width %d", x, x.Width)
				}
			}
		case e.Kind.IsFloatCompare():
			if e.Width != 0 || !isFloat(a[0].Width) || a[0].Width != a[1].Width || a[0].Kind == KString || a[1].Kind == KString {
				return bad("operand widths %d and %d, result %d", a[0].Width, a[1].Width, e.Width)
			}
		case e.Kind == KFToS, e.Kind == KFToU:
			if !isBV(e.Width) || !isFloat(a[0].Width) || a[0].Kind == KString {
				return bad("from width %d to %d", a[0].Width, e.Width)
			}
		case e.Kind == KSToF, e.Kind == KUToF:
			if !isFloat(e.Width) || !isBV(a[0].Width) || a[0].Kind == KString {
				return bad("from width %d to %d", a[0].Width, e.Width)
			}
		case e.Kind == KFConv:
			if !isFloat(e.Width) || !isFloat(a[0].Width) || a[0].Width == e.Width || a[0].Kind == KString {
				return bad("from width %d to %d", a[0].Width, e.Width)
			}
		case e.Kind == KNot, e.Kind == KLAnd, e.Kind == KLOr:
			if e.Width != 0 {
				return bad("result width %d", e.Width)
			}
			for _, x := range a {
				if !x.IsBool() {
					return bad("operand %v of width %d", x, x.Width)
				}
			}
		}
		return nil
	}
	return check(e)
}

// TestBuilderPanicsOnIllSorted checks that the typed constructors reject
// ill-sorted requests, as the Decoder relies on (see Decoder.make).
func TestBuilderPanicsOnIllSorted(t *testing.T) {
	b := NewBuilder()
	x8, y8, x16 := b.Var(0, 8), b.Var(1, 8), b.Var(3, 16)
	p, q := b.Var(12, 0), b.Var(13, 0)
	tests := []struct {
		name string
		mk   func() *Expr
	}{
		{"const of width 7", func() *Expr { return b.Const(1, 7) }},
		{"const of width 0", func() *Expr { return b.Const(1, 0) }},
		{"var of width 12", func() *Expr { return b.Var(0, 12) }},
		{"add of widths 8 and 16", func() *Expr { return b.Add(x8, x16) }},
		{"add of booleans", func() *Expr { return b.Add(p, q) }},
		{"bin with a comparison kind", func() *Expr { return b.Bin(KEq, x8, y8) }},
		{"cmp with an arithmetic kind", func() *Expr { return b.Cmp(KAdd, x8, y8) }},
		{"ult of widths 8 and 16", func() *Expr { return b.Cmp(KULt, x8, x16) }},
		{"ult of booleans", func() *Expr { return b.Cmp(KULt, p, q) }},
		{"eq of boolean and bit-vector", func() *Expr { return b.Eq(p, x8) }},
		{"zext to a narrower width", func() *Expr { return b.ZExt(x16, 8) }},
		{"trunc to a wider width", func() *Expr { return b.Trunc(x8, 16) }},
		{"sext to width 7", func() *Expr { return b.SExt(x8, 7) }},
		{"not of a bit-vector", func() *Expr { return b.Not(x8) }},
		{"ite of branches 8 and 16", func() *Expr { return b.Ite(p, x8, x16) }},
		{"ite of a bit-vector and a boolean", func() *Expr { return b.Ite(p, x8, q) }},
		{"ite with a bit-vector condition", func() *Expr { return b.Ite(x8, y8, x8) }},
		{"and of bit-vectors", func() *Expr { return b.And(x8, y8) }},
		{"or of a bit-vector and a boolean", func() *Expr { return b.Or(x8, p) }},
		{"neg of a boolean", func() *Expr { return b.Neg(p) }},
		{"cpl of a boolean", func() *Expr { return b.Cpl(p) }},
		{"zext of a boolean", func() *Expr { return b.ZExt(p, 16) }},
		{"sext of a boolean", func() *Expr { return b.SExt(p, 16) }},
	}
	for _, tt := range tests {
		var e *Expr
		panicked := func() (panicked bool) {
			defer func() { panicked = recover() != nil }()
			e = tt.mk()
			return false
		}()
		if !panicked {
			t.Errorf("%s: made %v, want a panic", tt.name, e)
		}
	}
}

func TestString(t *testing.T) {
	b := NewBuilder()
	v0, v1 := b.Var(0, 64), b.Var(1, 8)
	p := b.Var(12, 0)
	tests := []struct {
		e    *Expr
		want string
	}{
		{b.Const(42, 64), "42:64"},
		{b.Const(0xff, 8), "255:8"},
		{v1, "v1:8"},
		{p, "v12:0"},
		{b.Bool(true), "true"},
		{b.Bool(false), "false"},
		{b.Cmp(KSLt, b.Add(v0, b.Const(1, 64)), b.Const(10, 64)), "((v0:64 + 1:64) <s 10:64)"},
		{b.Sub(v0, b.Const(1, 64)), "(v0:64 + 18446744073709551615:64)"},
		{b.Bin(KSDiv, v1, b.Var(2, 8)), "(v1:8 /s v2:8)"},
		{b.Bin(KAShr, v1, b.Var(2, 8)), "(v1:8 >>s v2:8)"},
		{b.Neg(v1), "-v1:8"},
		{b.Cpl(v1), "^v1:8"},
		{b.ZExt(v1, 16), "zext16(v1:8)"},
		{b.SExt(v1, 64), "sext64(v1:8)"},
		{b.Trunc(v0, 8), "trunc8(v0:64)"},
		{b.Ite(p, v1, b.Const(3, 8)), "ite(v12:0, v1:8, 3:8)"},
		{b.Not(b.Cmp(KULe, v1, b.Var(2, 8))), "!(v1:8 <=u v2:8)"},
		{b.And(p, b.Or(b.Var(13, 0), b.Eq(v1, b.Const(0, 8)))), "(v12:0 && (v13:0 || (v1:8 == 0:8)))"},
		{b.String(v0, []*Expr{v1, b.Const(65, 8)}), "string(v0:64, v1:8, 65:8)"},
	}
	for _, tt := range tests {
		if got := tt.e.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

// roundTripExprs returns expressions covering every kind, made by b.
func roundTripExprs(b *Builder, seed uint64, n int) []*Expr {
	g := newTreeGen(seed)
	v8, v64 := b.Var(0, 8), b.Var(9, 64)
	es := []*Expr{
		b.Const(0, 8), b.Const(0xffff, 16), b.Const(1<<31, 32), b.Const(^uint64(0), 64),
		b.Bool(true), b.Bool(false), b.Var(12, 0), b.Var(1<<40, 32),
		b.String(v64, []*Expr{v8, b.Const('a', 8), v8}),
		b.String(b.Const(0, 64), nil),
	}
	for i := 0; len(es) < n; i++ {
		if i%5 == 0 {
			es = append(es, g.boolean(5).build(b))
		} else {
			es = append(es, g.bv(widths[i%4], 5).build(b))
		}
	}
	return es
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	src := NewBuilder()
	es := roundTripExprs(src, 21, 300)
	enc := NewEncoder()
	pos := make([]uint64, len(es))
	for i, e := range es {
		pos[i] = enc.Encode(e)
	}
	for i, e := range es {
		if r := enc.Encode(e); r != pos[i] {
			t.Errorf("encoding %v again gave position %d, first %d", e, r, pos[i])
		}
	}
	stream := slices.Clone(enc.Bytes())
	envs := testEnvs(22, 20)

	dst := NewBuilder()
	dec := NewDecoder(dst)
	if err := dec.Decode(stream); err != nil {
		t.Fatalf("Decode: %v", err)
	}
	decoded := make([]*Expr, len(es))
	for i, e := range es {
		d, err := dec.Node(pos[i])
		if err != nil {
			t.Fatalf("Node(%d): %v", pos[i], err)
		}
		decoded[i] = d
		if d.String() != e.String() || d.Kind != e.Kind || d.Width != e.Width || d.Val != e.Val {
			t.Errorf("decoded %v (%s, width %d), want %v (%s, width %d)", d, d.Kind, d.Width, e, e.Kind, e.Width)
			continue
		}
		if e.Kind == KString {
			continue
		}
		for _, env := range envs {
			if got, want := Eval(d, env), Eval(e, env); got != want {
				t.Errorf("decoded %v = %#x, want %#x, with %v", d, got, want, env)
				break
			}
		}
	}
	// Structurally equal expressions are one node on both sides.
	for i := range es {
		for j := range i {
			if es[i].Kind == KString || es[j].Kind == KString {
				continue // aggregates are never shared (String's doc)
			}
			if (es[i] == es[j]) != (decoded[i] == decoded[j]) {
				t.Errorf("sharing of %v and %v not kept", es[i], es[j])
			}
		}
	}
	// Decoding makes exactly the nodes of the stream: rebuilding a node
	// from its parts makes no intermediate nodes.
	strings := 0
	for e := range enc.refs {
		if e.Kind == KString {
			strings++
		}
	}
	if n := len(enc.refs) - strings; dst.Len() != n {
		t.Errorf("decoding a stream of %d nodes made %d nodes", n, dst.Len())
	}

	// Decoding again, into the same Builder, finds the same nodes.
	n := dst.Len()
	if err := dec.Decode(stream); err != nil {
		t.Fatalf("second Decode: %v", err)
	}
	for i := range es {
		if es[i].Kind == KString {
			continue
		}
		if d, _ := dec.Node(pos[i]); d != decoded[i] {
			t.Errorf("second decode of %v made a new node", es[i])
		}
	}
	if dst.Len() != n {
		t.Errorf("second decode grew the Builder from %d to %d nodes", n, dst.Len())
	}

	// Decoding into the source Builder gives back the very nodes.
	back := NewDecoder(src)
	if err := back.Decode(stream); err != nil {
		t.Fatalf("Decode into the source Builder: %v", err)
	}
	for i, e := range es {
		if e.Kind == KString {
			continue
		}
		if d, _ := back.Node(pos[i]); d != e {
			t.Errorf("decoding %v into its own Builder gave %v", e, d)
		}
	}
}

func TestEncoderReset(t *testing.T) {
	b := NewBuilder()
	e1 := b.Add(b.Var(0, 8), b.Const(1, 8))
	e2 := b.Cmp(KULt, b.Var(3, 16), b.Const(7, 16))
	enc := NewEncoder()
	if r := enc.Encode(e1); r != 2 {
		t.Errorf("position of %v = %d, want 2 (after its two arguments)", e1, r)
	}
	enc.Reset()
	if len(enc.Bytes()) != 0 {
		t.Errorf("Bytes after Reset has %d bytes", len(enc.Bytes()))
	}
	if r := enc.Encode(e2); r != 2 {
		t.Errorf("position of %v after Reset = %d, want 2", e2, r)
	}
	dec := NewDecoder(NewBuilder())
	if err := dec.Decode(enc.Bytes()); err != nil {
		t.Fatal(err)
	}
	if d, err := dec.Node(2); err != nil || d.String() != e2.String() {
		t.Errorf("Node(2) = %v, %v; want %v", d, err, e2)
	}
	if d, err := dec.Node(3); err == nil {
		t.Errorf("Node(3) = %v, want an error", d)
	}
}

func TestDecodeEmpty(t *testing.T) {
	dec := NewDecoder(NewBuilder())
	if err := dec.Decode(nil); err != nil {
		t.Errorf("Decode(nil) = %v", err)
	}
	if e, err := dec.Node(0); err == nil {
		t.Errorf("Node(0) of an empty stream = %v, want an error", e)
	}
}

// record returns the wire form of one node (see encode.go).
func record(kind uint64, w byte, val uint64, args ...uint64) []byte {
	buf := binary.AppendUvarint(nil, kind)
	buf = append(buf, w)
	buf = binary.AppendUvarint(buf, val)
	buf = binary.AppendUvarint(buf, uint64(len(args)))
	for _, a := range args {
		buf = binary.AppendUvarint(buf, a)
	}
	return buf
}

// decodeSafely decodes data into a fresh Builder, turning a panic into an
// error that says so.
func decodeSafely(data []byte) (dec *Decoder, err error) {
	dec = NewDecoder(NewBuilder())
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errPanicked, r)
		}
	}()
	return dec, dec.Decode(data)
}

var errPanicked = errors.New("Decode panicked")

func TestDecodeCorrupt(t *testing.T) {
	// The prefix defines nodes 0 to 5: v0:8, v3:16, v12:0 (boolean),
	// 5:8, v9:64 and a string aggregate of length v9:64. (A string
	// aggregate as an operand is not rejected: the Builder allows it and the
	// solvers refuse it.)
	prefix := slices.Concat(
		record(uint64(KVar), 8, 0),
		record(uint64(KVar), 16, 3),
		record(uint64(KVar), 0, 12),
		record(uint64(KConst), 8, 5),
		record(uint64(KVar), 64, 9),
		record(uint64(KString), 64, 0, 4),
	)
	const v8, v16, p, c8, v64 = 0, 1, 2, 3, 4
	after := func(recs ...[]byte) []byte { return slices.Concat(append([][]byte{prefix}, recs...)...) }
	add := record(uint64(KAdd), 8, 0, v8, c8)
	tests := []struct {
		name string
		data []byte
	}{
		// Damaged framing.
		{"truncated kind", []byte{0x80}},
		{"truncated before width", add[:1]},
		{"truncated value", after(record(uint64(KConst), 64, 1<<40)[:3])},
		{"truncated argument count", after([]byte{byte(KAdd), 8, 0})},
		{"truncated arguments", after(add[:len(add)-1])},
		{"argument count beyond the stream", after([]byte{byte(KAdd), 8, 0, 0x80, 0x01, 0, 0})},
		{"overlong varint", slices.Repeat([]byte{0xff}, 11)},
		{"forward reference", after(record(uint64(KAdd), 8, 0, v8, 7))},
		{"self reference", after(record(uint64(KAdd), 8, 0, v8, 6))},
		{"reference into an empty stream", record(uint64(KNeg), 8, 0, 0)},
		{"huge reference", after(record(uint64(KNeg), 8, 0, 1<<62))},

		// Bad kinds and widths.
		{"kind invalid", after(record(uint64(KInvalid), 8, 0))},
		{"kind numKinds", after(record(uint64(numKinds), 8, 0))},
		{"kind 255", after(record(255, 8, 0))},
		{"kind 256+KConst", after(record(256+uint64(KConst), 8, 1))},
		{"kind 256+KAdd", after(record(256+uint64(KAdd), 8, 0, v8, c8))},
		{"kind 2^40", after(record(1<<40, 8, 0))},
		{"const of width 0", after(record(uint64(KConst), 0, 1))},
		{"const of width 5", after(record(uint64(KConst), 5, 1))},
		{"const of width 65", after(record(uint64(KConst), 65, 1))},
		{"const of width 255", after(record(uint64(KConst), 255, 1))},
		{"var of width 7", after(record(uint64(KVar), 7, 1))},
		{"add of declared width 7", after(record(uint64(KAdd), 7, 0, v8, c8))},
		{"add of declared width 16 on 8-bit operands", after(record(uint64(KAdd), 16, 0, v8, c8))},
		{"comparison of declared width 8", after(record(uint64(KULt), 8, 0, v8, c8))},
		{"true of declared width 8", after(record(uint64(KTrue), 8, 0))},

		// Wrong arity.
		{"add with one argument", after(record(uint64(KAdd), 8, 0, v8))},
		{"add with three arguments", after(record(uint64(KAdd), 8, 0, v8, c8, v8))},
		{"neg without argument", after(record(uint64(KNeg), 8, 0))},
		{"zext with two arguments", after(record(uint64(KZExt), 16, 0, v8, v8))},
		{"ite with two arguments", after(record(uint64(KIte), 8, 0, p, v8))},
		{"eq with one argument", after(record(uint64(KEq), 0, 0, v8))},
		{"and with three arguments", after(record(uint64(KLAnd), 0, 0, p, p, p))},
		{"string without length", after(record(uint64(KString), 64, 0))},
		{"constant with an argument", after(record(uint64(KConst), 8, 1, v8))},

		// Ill-sorted nodes.
		{"add of widths 8 and 16", after(record(uint64(KAdd), 8, 0, v8, v16))},
		{"add of booleans", after(record(uint64(KAdd), 0, 0, p, p))},
		{"shl of widths 16 and 8", after(record(uint64(KShl), 16, 0, v16, v8))},
		{"neg of a boolean", after(record(uint64(KNeg), 0, 0, p))},
		{"cpl of a boolean", after(record(uint64(KCpl), 0, 0, p))},
		{"not of a bit-vector", after(record(uint64(KNot), 0, 0, v8))},
		{"zext from 16 to 8", after(record(uint64(KZExt), 8, 0, v16))},
		{"sext to width 7", after(record(uint64(KSExt), 7, 0, v8))},
		{"trunc from 8 to 16", after(record(uint64(KTrunc), 16, 0, v8))},
		{"zext of a boolean", after(record(uint64(KZExt), 16, 0, p))},
		{"sext of a boolean", after(record(uint64(KSExt), 16, 0, p))},
		{"trunc of a boolean", after(record(uint64(KTrunc), 8, 0, p))},
		{"ite with a bit-vector condition", after(record(uint64(KIte), 8, 0, v8, v8, c8))},
		{"ite of branches 8 and 16", after(record(uint64(KIte), 8, 0, p, v8, v16))},
		{"ite of a bit-vector and a boolean", after(record(uint64(KIte), 8, 0, p, v8, p))},
		{"eq of widths 8 and 16", after(record(uint64(KEq), 0, 0, v8, v16))},
		{"eq of a boolean and a bit-vector", after(record(uint64(KEq), 0, 0, p, v8))},
		{"ult of booleans", after(record(uint64(KULt), 0, 0, p, p))},
		{"and of bit-vectors", after(record(uint64(KLAnd), 0, 0, v8, c8))},
		{"or of a bit-vector and a boolean", after(record(uint64(KLOr), 0, 0, v8, p))},

		// Ill-sorted float nodes.
		{"fadd of bytes", after(record(uint64(KFAdd), 8, 0, v8, c8))},
		{"fadd of widths 64 and 8", after(record(uint64(KFAdd), 64, 0, v64, v8))},
		{"fadd with one argument", after(record(uint64(KFAdd), 64, 0, v64))},
		{"fadd declared 32 bits wide on 64-bit operands", after(record(uint64(KFAdd), 32, 0, v64, v64))},
		{"float comparison of bytes", after(record(uint64(KFLt), 0, 0, v8, v8))},
		{"float comparison of booleans", after(record(uint64(KFEq), 0, 0, p, p))},
		{"float comparison declared 64 bits wide", after(record(uint64(KFLe), 64, 0, v64, v64))},
		{"fneg of a byte", after(record(uint64(KFNeg), 8, 0, v8))},
		{"fneg with two arguments", after(record(uint64(KFNeg), 64, 0, v64, v64))},
		{"ftos of a byte", after(record(uint64(KFToS), 32, 0, v8))},
		{"ftou to width 0", after(record(uint64(KFToU), 0, 0, v64))},
		{"stof to width 16", after(record(uint64(KSToF), 16, 0, v8))},
		{"utof of a boolean", after(record(uint64(KUToF), 64, 0, p))},
		{"fconv of a boolean", after(record(uint64(KFConv), 32, 0, p))},
		{"fconv to width 8", after(record(uint64(KFConv), 8, 0, v64))},
		{"fconv of a string", after(record(uint64(KFConv), 32, 0, 5))},
	}
	if _, err := decodeSafely(prefix); err != nil {
		t.Fatalf("the valid prefix does not decode: %v", err)
	}
	for _, tt := range tests {
		dec, err := decodeSafely(tt.data)
		switch {
		case errors.Is(err, errPanicked):
			t.Errorf("%s: %v", tt.name, err)
		case err == nil:
			last, _ := dec.Node(uint64(len(dec.nodes) - 1))
			t.Errorf("%s: stream %x decoded without error; last node %v (%s, width %d)", tt.name, tt.data, last, last.Kind, last.Width)
		}
	}
}

// TestDecodeTruncated cuts a valid stream at every byte: a cut between
// records decodes the records before it, any other cut is an error.
func TestDecodeTruncated(t *testing.T) {
	b := NewBuilder()
	es := roundTripExprs(b, 31, 30)
	// Encoding the nodes in order of creation adds one record per node,
	// so the record boundaries are known.
	var nodes []*Expr
	seen := make(map[*Expr]bool)
	var walk func(e *Expr)
	walk = func(e *Expr) {
		if seen[e] {
			return
		}
		seen[e] = true
		nodes = append(nodes, e)
		for _, a := range e.Args {
			walk(a)
		}
	}
	for _, e := range es {
		walk(e)
	}
	slices.SortFunc(nodes, func(x, y *Expr) int { return int(x.ID()) - int(y.ID()) })
	enc := NewEncoder()
	ends := map[int]int{0: 0} // record end offset -> records before it
	for i, e := range nodes {
		if r := enc.Encode(e); r != uint64(i) {
			t.Fatalf("node %v at position %d, want %d", e, r, i)
		}
		ends[len(enc.Bytes())] = i + 1
	}
	stream := enc.Bytes()
	for cut := 0; cut <= len(stream); cut++ {
		dec, err := decodeSafely(stream[:cut])
		n, boundary := ends[cut]
		switch {
		case errors.Is(err, errPanicked):
			t.Errorf("cut at %d: %v", cut, err)
		case boundary && err != nil:
			t.Errorf("cut at %d, after %d records: %v", cut, n, err)
		case boundary:
			if len(dec.nodes) != n {
				t.Errorf("cut at %d: decoded %d nodes, want %d", cut, len(dec.nodes), n)
			}
			if n > 0 {
				if d, _ := dec.Node(uint64(n - 1)); d.String() != nodes[n-1].String() {
					t.Errorf("cut at %d: last node %v, want %v", cut, d, nodes[n-1])
				}
			}
		case err == nil:
			t.Errorf("cut at %d, inside a record: no error", cut)
		}
	}
}

// TestDecodeMutated changes every byte of a valid stream in several ways:
// decoding must not panic, and whatever it accepts must be well-sorted.
func TestDecodeMutated(t *testing.T) {
	b := NewBuilder()
	es := roundTripExprs(b, 41, 15)
	enc := NewEncoder()
	for _, e := range es {
		enc.Encode(e)
	}
	stream := enc.Bytes()
	var failures []string
	for i := range stream {
		for _, f := range []func(byte) byte{
			func(c byte) byte { return c + 1 },
			func(c byte) byte { return c - 1 },
			func(c byte) byte { return c ^ 0x80 },
			func(c byte) byte { return 0 },
			func(c byte) byte { return 0xff },
		} {
			data := slices.Clone(stream)
			data[i] = f(data[i])
			dec, err := decodeSafely(data)
			if errors.Is(err, errPanicked) {
				failures = append(failures, fmt.Sprintf("byte %d = %#x: %v", i, data[i], err))
				continue
			}
			if err != nil {
				continue
			}
			for _, e := range dec.nodes {
				if err := wellSorted(e); err != nil {
					failures = append(failures, fmt.Sprintf("byte %d = %#x: decoded %v", i, data[i], err))
					break
				}
			}
		}
	}
	if len(failures) > 0 {
		const show = 10
		more := ""
		if len(failures) > show {
			more = fmt.Sprintf("\n... and %d more", len(failures)-show)
			failures = failures[:show]
		}
		t.Errorf("%s%s", strings.Join(failures, "\n"), more)
	}
}

// TestStringNotShared checks the documented exception to sharing: string
// aggregates are made anew on every request.
func TestStringNotShared(t *testing.T) {
	b := NewBuilder()
	n, x := b.Var(9, 64), b.Var(0, 8)
	s1, s2 := b.String(n, []*Expr{x}), b.String(n, []*Expr{x})
	if s1 == s2 {
		t.Error("equal aggregates share a node")
	}
	if s1.ID() == s2.ID() || s1.ID() <= x.ID() {
		t.Errorf("aggregate IDs %d, %d after argument %d", s1.ID(), s2.ID(), x.ID())
	}
}
