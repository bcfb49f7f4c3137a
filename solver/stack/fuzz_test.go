package stack

import (
	"context"
	"encoding/binary"
	"maps"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// fuzzQuery is a query decoded from a fuzzer's input, with a point that
// satisfies its constraints and one of its two goals.
type fuzzQuery struct {
	cs    []*sym.Expr
	goals [2]*sym.Expr // a goal and its negation
	point sym.Env
}

// decodeQuery reads a query from the wire form of terms (sym.Encoder),
// the one a worker sends, and a point from the bytes of point: variable n
// takes the n-th little-endian word of point, wrapping around, and 0 if
// point has fewer than eight bytes. The boolean terms that are no other
// term's argument are the query's: the last one is the goal (asked as it
// is and negated), the others
// constraints, each negated if it is false at the point, so that the
// point satisfies them. It reports false for a stream that does not
// decode, has no boolean term, has terms no solver takes (opaque calls,
// string aggregates), or gives a variable two widths.
func decodeQuery(stream, point []byte) (fuzzQuery, bool) {
	b := sym.NewBuilder()
	dec := sym.NewDecoder(b)
	if dec.Decode(stream) != nil {
		return fuzzQuery{}, false
	}
	var all []*sym.Expr
	for r := uint64(0); ; r++ {
		e, err := dec.Node(r)
		if err != nil {
			break
		}
		if e.Kind == sym.KCall || e.Kind == sym.KString {
			return fuzzQuery{}, false
		}
		all = append(all, e)
	}
	isArg := make(map[*sym.Expr]bool)
	for _, e := range all {
		for _, a := range e.Args {
			isArg[a] = true
		}
	}
	var roots []*sym.Expr
	for _, e := range all {
		if e.IsBool() && !isArg[e] && !slices.Contains(roots, e) {
			roots = append(roots, e)
		}
	}
	if len(roots) == 0 {
		return fuzzQuery{}, false
	}
	// A variable has one width in every query gocolic makes; a stream
	// that gives one two widths is not a query (the solvers refuse it
	// with an error).
	widths := map[uint64]uint8{}
	for _, v := range sym.Vars(nil, roots...) {
		if w, ok := widths[v.Val]; ok && w != v.Width {
			return fuzzQuery{}, false
		}
		widths[v.Val] = v.Width
	}
	env := make(sym.Env)
	for _, v := range sym.Vars(nil, roots...) {
		if words := uint64(len(point) / 8); words > 0 {
			env[v.Val] = binary.LittleEndian.Uint64(point[8*(v.Val%words):])
		}
	}
	goal := roots[len(roots)-1]
	q := fuzzQuery{goals: [2]*sym.Expr{goal, b.Not(goal)}, point: env}
	for _, c := range roots[:len(roots)-1] {
		if !sym.Holds(c, env) {
			c = b.Not(c)
		}
		q.cs = append(q.cs, c)
	}
	return q, true
}

// encodeTerms returns the wire form of terms, in order.
func encodeTerms(terms ...*sym.Expr) []byte {
	enc := sym.NewEncoder()
	for _, t := range terms {
		enc.Encode(t)
	}
	return slices.Clone(enc.Bytes())
}

// words returns the little-endian bytes of vs, a point for decodeQuery.
func words(vs ...uint64) []byte {
	var out []byte
	for _, v := range vs {
		out = binary.LittleEndian.AppendUint64(out, v)
	}
	return out
}

// fuzzSeeds returns queries of the shapes a run asks: linear and
// non-linear arithmetic at every width, shifts and conversions, booleans,
// and floats.
func fuzzSeeds() [][2][]byte {
	b := sym.NewBuilder()
	x8, y8 := b.Var(0, 8), b.Var(1, 8)
	x16 := b.Var(2, 16)
	x32, y32 := b.Var(3, 32), b.Var(4, 32)
	x64, y64 := b.Var(5, 64), b.Var(6, 64)
	p := b.Var(7, 0)
	k := func(v uint64, w uint8) *sym.Expr { return b.Const(v, w) }
	f64 := func(f float64) *sym.Expr { return k(math.Float64bits(f), 64) }
	return [][2][]byte{
		{encodeTerms(b.Cmp(sym.KULt, x8, k(100, 8)), b.Eq(b.Add(x8, y8), k(200, 8))), words(7, 9)},
		{encodeTerms(b.Cmp(sym.KSLt, b.SExt(x8, 64), x64), b.Eq(b.Bin(sym.KMul, x32, y32), k(0x12345679, 32))), words(1, 2, 3, 4, 5, 6, 7, 8)},
		{encodeTerms(b.Eq(b.Bin(sym.KSRem, x64, b.Bin(sym.KOr, y64, k(1, 64))), k(3, 64))), words(10, 20, 30, 40, 50, 60, 70)},
		{encodeTerms(b.Eq(b.Shift(sym.KShl, x16, x8), k(0x8000, 16)), b.Cmp(sym.KULe, b.Trunc(x32, 16), x16)), words(0, 1, 0x8000, 1<<20)},
		{encodeTerms(b.Or(p, b.Eq(b.Ite(p, x8, y8), k(5, 8))), b.And(b.Not(p), b.Cmp(sym.KULt, y8, x8))), words(1, 0, 0, 0, 0, 0, 0, 1)},
		{encodeTerms(b.FCmp(sym.KFEq, b.FBin(sym.KFAdd, x64, f64(1)), f64(3))), words(0, 0, 0, 0, 0, math.Float64bits(2))},
		{encodeTerms(b.Cmp(sym.KSLt, b.FToInt(b.FBin(sym.KFMul, b.IntToF(x32, 64, true), f64(0.5)), 32, true), k(7, 32))), words(0, 0, 0, 20)},
		{encodeTerms(b.Eq(b.Bin(sym.KUDiv, x64, y64), k(3, 64)), b.Cmp(sym.KULt, y64, k(1000, 64))), words(0, 0, 0, 0, 0, 3000, 999)},
	}
}

// FuzzStack asks each mode's solver stack (every chain layer, over Z3,
// over the walk, and over auto) a query decoded from the input and its
// negated goal, one of which holds at the input's point. It checks that
// no layer panics, that every Sat model, laid over the point as the
// coordinator lays it, satisfies the query by sym.Eval, and that no stack
// says Unsat of a query that the point or another stack's model
// satisfies.
func FuzzStack(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s[0], s[1])
	}
	modes := Modes()
	f.Fuzz(func(t *testing.T, stream, point []byte) {
		fq, ok := decodeQuery(stream, point)
		if !ok {
			return
		}
		stacks := make([]*Stack, len(modes))
		for i, mode := range modes {
			o := Options{Mode: mode, Timeout: 50 * time.Millisecond}
			if err := o.Validate(); err != nil {
				t.Fatal(err)
			}
			s, err := New(o, Env{Seed: 1})
			if err != nil {
				t.Fatalf("%s: %v", mode, err)
			}
			defer s.Close()
			stacks[i] = s
		}
		for _, goal := range fq.goals {
			q := solver.Query{Constraints: fq.cs, Goal: goal, Seed: fq.point}
			all := append(slices.Clone(fq.cs), goal)
			satisfiable := holdsAll(all, fq.point)
			var unsat []string
			for i, s := range stacks {
				r, err := s.Solve(context.Background(), q)
				if err != nil {
					t.Fatalf("%s: %v on %v", modes[i], err, q)
				}
				switch r.Status {
				case solver.Sat:
					m := maps.Clone(fq.point)
					maps.Copy(m, r.Model)
					if !holdsAll(all, m) {
						t.Fatalf("%s: model %v does not satisfy %v and %v (point %v)", modes[i], r.Model, fq.cs, goal, fq.point)
					}
					satisfiable = true
				case solver.Unsat:
					unsat = append(unsat, modes[i])
				}
			}
			if satisfiable && len(unsat) > 0 {
				t.Fatalf("%v: unsat of %v and %v, which %v satisfies or a model does", unsat, fq.cs, goal, fq.point)
			}
		}
	})
}

// holdsAll reports whether every term holds at env.
func holdsAll(terms []*sym.Expr, env sym.Env) bool {
	for _, c := range terms {
		if !sym.Holds(c, env) {
			return false
		}
	}
	return true
}
