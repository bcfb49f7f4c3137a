package sym

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// byteSource makes a fuzzer's input the random draws of a treeGen, so that
// the property tests' generator serves the fuzz targets too. Each draw
// takes one byte, spread over all 64 bits (IntN reads low or high bits,
// depending on its bound); after the last byte the draws come from a fixed
// generator, so that every input makes a tree, of bounded depth.
type byteSource struct {
	data []byte
	rest *rand.PCG
}

func (s *byteSource) Uint64() uint64 {
	if len(s.data) == 0 {
		return s.rest.Uint64()
	}
	x := uint64(s.data[0]) + 0x9e3779b97f4a7c15
	s.data = s.data[1:]
	// splitmix64's finaliser
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// fuzzTree decodes a tree of depth at most 5 and a point from data: the
// first draw chooses the sort (boolean or one of the widths).
func fuzzTree(data []byte) (*tnode, Env) {
	g := &treeGen{r: rand.New(&byteSource{data: data, rest: rand.NewPCG(1, 2)})}
	const depth = 5
	var tree *tnode
	if i := g.r.IntN(len(widths) + 1); i == len(widths) {
		tree = g.boolean(depth)
	} else {
		tree = g.bv(widths[i], depth)
	}
	return tree, g.env()
}

// nodes returns the distinct nodes of e, arguments first.
func nodes(e *Expr) []*Expr {
	seen := make(map[*Expr]bool)
	var out []*Expr
	var walk func(e *Expr)
	walk = func(e *Expr) {
		if seen[e] {
			return
		}
		seen[e] = true
		for _, a := range e.Args {
			walk(a)
		}
		out = append(out, e)
	}
	walk(e)
	return out
}

// FuzzBuilderMatchesRaw builds a tree decoded from the input through the
// Builder and as raw unsimplified nodes, and checks what the
// simplifications promise: the built term is well sorted, means what the
// raw one means at the input's point and at zero, each of its nodes stays
// within its narrowing bound there, Make rebuilds each node (decoding
// relies on it), and the wire form decodes to the same term.
func FuzzBuilderMatchesRaw(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 1))
	for n := range 16 {
		seed := make([]byte, 4*n)
		for i := range seed {
			seed[i] = byte(r.Uint32())
		}
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tree, env := fuzzTree(data)
		b := NewBuilder()
		built, raw := tree.build(b), tree.raw()
		if err := wellSorted(built); err != nil {
			t.Fatalf("built %v: %v", built, err)
		}
		if built.Width != tree.w {
			t.Fatalf("built %v of width %d, want %d", built, built.Width, tree.w)
		}
		for _, at := range []Env{env, {}} {
			if got, want := Eval(built, at), Eval(raw, at); got != want {
				t.Fatalf("built %v = %#x, raw %v = %#x, with %v", built, got, raw, want, at)
			}
			for _, n := range nodes(built) {
				if v := Eval(n, at); !n.IsBool() && v > n.Max() {
					t.Fatalf("%v = %#x, above its bound %#x, with %v", n, v, n.Max(), at)
				}
			}
		}
		checkMakeRebuilds(t, b, built)

		enc := NewEncoder()
		r := enc.Encode(built)
		dec := NewDecoder(NewBuilder())
		if err := dec.Decode(enc.Bytes()); err != nil {
			t.Fatalf("decoding %v: %v", built, err)
		}
		if d, err := dec.Node(r); err != nil || d.String() != built.String() || Eval(d, env) != Eval(built, env) {
			t.Fatalf("decoded %v as %v, %v", built, d, err)
		}
	})
}

// evaluable reports whether Eval gives e a value without Funcs: it has
// no opaque call and no string aggregate.
func evaluable(e *Expr) bool {
	for _, n := range nodes(e) {
		if n.Kind == KCall || n.Kind == KString {
			return false
		}
	}
	return true
}

// FuzzDecode decodes arbitrary bytes as a worker's stream, which the
// coordinator must survive: Decode returns an error, or nodes that are
// well sorted, that Make rebuilds, that evaluate without a panic, and that
// encode and decode again to the same nodes.
func FuzzDecode(f *testing.F) {
	b := NewBuilder()
	for i, e := range roundTripExprs(b, 51, 20) {
		enc := NewEncoder()
		enc.Encode(e)
		f.Add(slices.Clone(enc.Bytes()))
		if i%4 == 0 {
			f.Add(enc.Bytes()[:len(enc.Bytes())/2])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := NewBuilder()
		dec := NewDecoder(b)
		if err := dec.Decode(data); err != nil {
			return
		}
		enc := NewEncoder()
		for _, e := range dec.nodes {
			if err := wellSorted(e); err != nil {
				t.Fatalf("accepted %x: %v", data, err)
			}
			checkMakeRebuilds(t, b, e)
			if evaluable(e) {
				Eval(e, Env{0: 1, 1: 0xff, 12: 1})
			}
			enc.Encode(e)
		}
		again := NewDecoder(NewBuilder())
		if err := again.Decode(enc.Bytes()); err != nil {
			t.Fatalf("re-encoding of %x does not decode: %v", data, err)
		}
		for _, e := range dec.nodes {
			r := enc.Encode(e)
			if d, err := again.Node(r); err != nil || d.String() != e.String() {
				t.Fatalf("re-decoded %v as %v, %v", e, d, err)
			}
		}
	})
}
