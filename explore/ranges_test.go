package explore

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// members returns the values 0..m in rs, checking that rs is normal:
// sorted, disjoint, not adjacent, lo <= hi <= m.
func members(t *testing.T, rs ranges, m uint64) map[uint64]bool {
	t.Helper()
	in := map[uint64]bool{}
	for i, r := range rs {
		if r.lo > r.hi || r.hi > m || (i > 0 && r.lo <= rs[i-1].hi+1) {
			t.Fatalf("ranges %v are not normal", rs)
		}
		for x := r.lo; x <= r.hi; x++ {
			in[x] = true
		}
	}
	return in
}

// TestRanges checks normal, and, not and shift on 8-bit values against
// the sets they stand for, on random ranges.
func TestRanges(t *testing.T) {
	const m = 255
	r := rand.New(rand.NewPCG(1, 2))
	random := func() (ranges, map[uint64]bool) {
		var rs ranges
		want := map[uint64]bool{}
		for range r.IntN(4) {
			lo, hi := r.Uint64N(m+1), r.Uint64N(m+1)
			rs = append(rs, valueRange{lo, hi})
			for x := uint64(0); x <= m; x++ {
				if (lo <= hi && lo <= x && x <= hi) || (lo > hi && (x >= lo || x <= hi)) {
					want[x] = true
				}
			}
		}
		return rs.normal(m), want
	}
	for i := range 500 {
		a, inA := random()
		b, inB := random()
		k := r.Uint64N(m + 1)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			gotA, and, not, shift := members(t, a, m), members(t, a.and(b), m), members(t, a.not(m), m), members(t, a.shift(k, m), m)
			for x := uint64(0); x <= m; x++ {
				if gotA[x] != inA[x] {
					t.Fatalf("normal(%v): %d in %v, want %v", a, x, gotA[x], inA[x])
				}
				if and[x] != (inA[x] && inB[x]) {
					t.Fatalf("%v and %v: %d in %v", a, b, x, and[x])
				}
				if not[x] == inA[x] {
					t.Fatalf("not %v: %d in %v", a, x, not[x])
				}
				if shift[x] != inA[(x+k)&m] {
					t.Fatalf("%v shifted by %d: %d in %v", a, k, x, shift[x])
				}
			}
		})
	}
}

// points returns the values 0..m a test of a fact looks at: all of them
// for a byte, else those near the constants of TestFactOf, minus its
// additions.
func points(m uint64) []uint64 {
	var xs []uint64
	if m == 0xff {
		for x := range uint64(256) {
			xs = append(xs, x)
		}
		return xs
	}
	for _, k := range []uint64{0, 1, 2, 127, 128, 255, 0x7fff, 0x8000, 0xffff, 1000} {
		for _, a := range []uint64{0, 1, 3, m} {
			for d := uint64(0); d < 7; d++ {
				xs = append(xs, (k-a+d-3)&m)
			}
		}
	}
	return xs
}

// TestFactOf checks the values factOf gives for a condition's term against
// evaluation of the condition at the values points gives: comparisons of
// a byte term and of v and v+k at 8 and 16 bits (signed and unsigned,
// across the wrap-around), and a table lookup over one byte.
func TestFactOf(t *testing.T) {
	b := sym.NewBuilder()
	v8, v16 := b.Var(1, 8), b.Var(2, 16)
	w := b.Var(3, 8)
	var conds []*sym.Expr
	for _, v := range []*sym.Expr{v8, v16} {
		for _, add := range []uint64{0, 1, 3, sym.Mask(v.Width)} {
			term := b.Bin(sym.KAdd, v, b.Const(add, v.Width))
			for _, k := range []uint64{0, 1, 2, 127, 128, 255, 0x7fff, 0x8000, 0xffff} {
				kc := b.Const(k, v.Width)
				for _, kind := range []sym.Kind{sym.KEq, sym.KULt, sym.KULe, sym.KSLt, sym.KSLe} {
					conds = append(conds, b.Cmp(kind, term, kc), b.Cmp(kind, kc, term))
				}
			}
		}
	}
	// A table lookup: 'a' -> 1, '{' -> 3, '}' -> 1, else 0; compared with 0.
	table := b.Const(0, 8)
	for _, e := range []struct{ k, v uint64 }{{'a', 1}, {'{', 3}, {'}', 1}} {
		table = b.Ite(b.Eq(v8, b.Const(e.k, 8)), b.Const(e.v, 8), table)
	}
	conds = append(conds, b.Eq(table, b.Const(0, 8)), b.Cmp(sym.KULt, b.Const(1, 8), table))
	// A byte term over two variables keeps itself as the term.
	conds = append(conds, b.Eq(b.Bin(sym.KAdd, v8, w), b.Const(9, 8)))
	tr := NewTree(b, Options{})
	for _, c := range conds {
		if c.IsConst() || c.Kind == sym.KNot {
			continue // folded by the Builder
		}
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			f := tr.factOf(c)
			if f.t == nil {
				t.Fatal("no fact")
			}
			vars := sym.Vars(nil, f.t)
			m := sym.Mask(f.t.Width)
			in := members(t, f.vals, m)
			for _, x := range points(m) {
				env := sym.Env{}
				switch {
				case f.t.Kind == sym.KVar:
					env[f.t.Val] = x
				case len(vars) == 2: // v8 + w: w = 0 makes the term v8
					env[v8.Val] = x
				default:
					t.Fatalf("term %v", f.t)
				}
				got := in[x]
				if f.t.Width == 8 {
					got = f.bytes.has(x)
				}
				if want := sym.Holds(c, env); got != want {
					t.Fatalf("term %v = %d: in the fact's set %v, condition holds %v", f.t, x, got, want)
				}
			}
		})
	}
	// A wider term of any shape is a value of its own: a product, and a
	// product with an offset, give facts on the product node.
	sq := b.Bin(sym.KMul, v16, v16)
	for _, tc := range []struct {
		c    *sym.Expr
		want ranges
	}{
		{b.Eq(sq, b.Const(4, 16)), ranges{{4, 4}}},
		{b.Cmp(sym.KULt, b.Bin(sym.KAdd, sq, b.Const(3, 16)), b.Const(10, 16)), ranges{{0, 6}, {0xfffd, 0xffff}}},
	} {
		f := tr.factOf(tc.c)
		if f.t != sq || !slices.Equal(f.vals, tc.want) {
			t.Errorf("%v: fact on %v, values %v; want on %v, values %v", tc.c, f.t, f.vals, sq, tc.want)
		}
	}
}

// TestOffsetCompare checks the values offsetCompare gives a term compared
// with itself plus an offset (t+a against t+b, signed and unsigned, either
// way round) against evaluation of the comparison: at every value of an
// 8-bit term, and around every point where a 16-bit side wraps around or
// crosses the sign boundary.
func TestOffsetCompare(t *testing.T) {
	b := sym.NewBuilder()
	for _, v := range []*sym.Expr{b.Var(1, 8), b.Var(2, 16)} {
		m := sym.Mask(v.Width)
		half := uint64(1) << (v.Width - 1)
		offsets := []uint64{0, 1, 3, half - 1, half, half + 2, m - 2, m}
		var xs []uint64
		if v.Width == 8 {
			xs = points(m)
		} else {
			for _, k := range offsets {
				for _, p := range []uint64{-k, -k + half, 0, m} {
					for d := uint64(0); d < 5; d++ {
						xs = append(xs, (p+d-2)&m)
					}
				}
			}
		}
		for _, ka := range offsets {
			for _, kb := range offsets {
				l, r := b.Bin(sym.KAdd, v, b.Const(ka, v.Width)), b.Bin(sym.KAdd, v, b.Const(kb, v.Width))
				for _, kind := range []sym.Kind{sym.KEq, sym.KULt, sym.KULe, sym.KSLt, sym.KSLe} {
					c := b.Cmp(kind, l, r)
					if c.IsConst() {
						continue // folded by the Builder
					}
					term, vals := offsetCompare(c)
					if term != v {
						t.Fatalf("%v: term %v, want %v", c, term, v)
					}
					in := members(t, vals, m)
					for _, x := range xs {
						if want := sym.Holds(c, sym.Env{v.Val: x}); in[x] != want {
							t.Fatalf("%v at %d: in the set %v, holds %v", c, x, in[x], want)
						}
					}
				}
			}
		}
	}
	if term, _ := offsetCompare(b.Cmp(sym.KULt, b.Var(3, 16), b.Var(4, 16))); term != nil {
		t.Errorf("two terms gave a fact on %v", term)
	}
}

// TestExtent checks the interval extent gives a term from its shape, and
// that every value the term takes at random inputs lies in it.
func TestExtent(t *testing.T) {
	b := sym.NewBuilder()
	v, w, x := b.Var(1, 8), b.Var(2, 8), b.Var(3, 64)
	c := func(k uint64) *sym.Expr { return b.Const(k, 64) }
	either := b.Ite(b.Eq(v, b.Const(1, 8)), v, w) // a byte at a symbolic offset
	tests := []struct {
		name   string
		term   *sym.Expr
		lo, hi uint64
	}{
		{"widened byte", b.ZExt(v, 64), 0, 255},
		{"high nibble", b.ZExt(b.Bin(sym.KLShr, either, b.Const(4, 8)), 64), 0, 15},
		{"masked", b.Bin(sym.KAnd, x, c(15)), 0, 15},
		{"modulo", b.Bin(sym.KURem, x, c(10)), 0, 9},
		{"quotient", b.Bin(sym.KUDiv, b.ZExt(v, 64), c(16)), 0, 15},
		{"either of an ite", b.Ite(b.Eq(v, b.Const(1, 8)), b.ZExt(w, 64), c(300)), 0, 300},
		{"offset", b.Bin(sym.KAdd, b.ZExt(v, 64), c(3)), 3, 258},
		{"offset that may wrap", b.Bin(sym.KAdd, x, c(3)), 0, sym.Mask(64)},
		{"shifted out", b.Bin(sym.KLShr, x, c(64)), 0, 0},
		{"variable", x, 0, sym.Mask(64)},
		{"product", b.Bin(sym.KMul, x, x), 0, sym.Mask(64)},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := extent(tt.term, maxExtentDepth)
			if lo != tt.lo || hi != tt.hi {
				t.Fatalf("extent %d..%d, want %d..%d", lo, hi, tt.lo, tt.hi)
			}
			for range 2000 {
				env := sym.Env{1: rng.Uint64() & 0xff, 2: rng.Uint64() & 0xff, 3: rng.Uint64()}
				if rng.IntN(4) == 0 {
					env[1] = 1
				}
				if got := sym.Eval(tt.term, env); got < lo || got > hi {
					t.Fatalf("%v = %d at %v, outside %d..%d", tt.term, got, env, lo, hi)
				}
			}
		})
	}
}
