package mutate

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// layouts are the parameter lists the tests mutate: every kind, every
// integer width and signedness, bounded lengths and choices, and string
// bounds from none to several bytes.
var layouts = []struct {
	name   string
	ps     []rt.Param
	maxLen int
}{
	{"ints", []rt.Param{
		{Name: "i8", Kind: rt.ParamInt, Width: 8, Signed: true},
		{Name: "u8", Kind: rt.ParamInt, Width: 8},
		{Name: "i16", Kind: rt.ParamInt, Width: 16, Signed: true},
		{Name: "u16", Kind: rt.ParamInt, Width: 16},
		{Name: "i32", Kind: rt.ParamInt, Width: 32, Signed: true},
		{Name: "u32", Kind: rt.ParamInt, Width: 32},
		{Name: "i64", Kind: rt.ParamInt, Width: 64, Signed: true},
		{Name: "u64", Kind: rt.ParamInt, Width: 64},
	}, 4},
	{"bounded", []rt.Param{
		{Name: "len", Kind: rt.ParamInt, Width: 64, Max: 5},
		{Name: "ref", Kind: rt.ParamInt, Width: 64, Max: 2, Ref: true},
	}, 4},
	{"floats-bools", []rt.Param{
		{Name: "f32", Kind: rt.ParamFloat, Width: 32},
		{Name: "f64", Kind: rt.ParamFloat, Width: 64},
		{Name: "b", Kind: rt.ParamBool},
	}, 4},
	{"strings", []rt.Param{
		{Name: "s", Kind: rt.ParamString},
		{Name: "b", Kind: rt.ParamBytes},
	}, 8},
	{"one-byte", []rt.Param{{Name: "s", Kind: rt.ParamString}}, 1},
	{"no-bytes", []rt.Param{{Name: "s", Kind: rt.ParamBytes}, {Name: "n", Kind: rt.ParamInt, Width: 8}}, 0},
	{"mixed", []rt.Param{
		{Name: "s", Kind: rt.ParamString},
		{Name: "n", Kind: rt.ParamInt, Width: 32, Signed: true},
		{Name: "f", Kind: rt.ParamFloat, Width: 64},
		{Name: "ok", Kind: rt.ParamBool},
	}, 16},
}

// inDomain returns why env is outside the domain of Layout(ps, maxLen),
// or "".
func inDomain(ps []rt.Param, maxLen int, env sym.Env) string {
	offs := rt.Layout(ps, maxLen)
	for k := range env {
		if k >= uint64(offs[len(ps)]) {
			return fmt.Sprintf("variable %d past the layout's %d", k, offs[len(ps)])
		}
	}
	for i, p := range ps {
		v := env[uint64(offs[i])]
		switch p.Kind {
		case rt.ParamString, rt.ParamBytes:
			if v > uint64(maxLen) {
				return fmt.Sprintf("%s: length %d > MaxLen %d", p.Name, v, maxLen)
			}
			for k := 0; k < maxLen; k++ {
				if c, ok := env[uint64(offs[i]+1+k)]; ok && (c > 0xff || uint64(k) >= v) {
					return fmt.Sprintf("%s: byte %d is %#x (length %d)", p.Name, k, c, v)
				}
			}
		case rt.ParamBool:
			if v > 1 {
				return fmt.Sprintf("%s: boolean %d", p.Name, v)
			}
		default:
			if v&^sym.Mask(p.Width) != 0 {
				return fmt.Sprintf("%s: %#x wider than %d bits", p.Name, v, p.Width)
			}
			if p.Max != 0 && v > p.Max {
				return fmt.Sprintf("%s: %d above its bound %d", p.Name, v, p.Max)
			}
		}
	}
	return ""
}

// randomInput returns an input of the layout with random values in its
// domain.
func randomInput(r *rand.Rand, ps []rt.Param, maxLen int) sym.Env {
	args := make([]rt.Arg, len(ps))
	for i, p := range ps {
		switch p.Kind {
		case rt.ParamString, rt.ParamBytes:
			args[i].Bytes = make([]byte, r.IntN(maxLen+1))
			for k := range args[i].Bytes {
				args[i].Bytes[k] = byte(r.Uint32())
			}
		case rt.ParamBool:
			args[i].Bits = r.Uint64() & 1
		default:
			args[i].Bits = r.Uint64() & sym.Mask(p.Width)
			if p.Max != 0 {
				args[i].Bits %= p.Max + 1
			}
		}
	}
	return rt.EncodeInput(ps, maxLen, args)
}

// testDict is a dictionary with an integer and a token.
func testDict() *Dict {
	d := NewDict(0)
	d.AddInt(0xCAFE, 16)
	d.AddBytes([]byte("magic"))
	return d
}

// TestMutateStaysInDomain runs Mutate many times on random inputs of
// every layout and checks that each mutant is in the layout's domain (the
// ops themselves are rt's, rt.TestMutatorOpsStayInDomain).
func TestMutateStaysInDomain(t *testing.T) {
	for _, l := range layouts {
		t.Run(l.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			m := New(l.ps, l.maxLen, testDict(), 7)
			for iter := 0; iter < 300; iter++ {
				in, other := randomInput(r, l.ps, l.maxLen), randomInput(r, l.ps, l.maxLen)
				out := m.Mutate(in, other)
				if why := inDomain(l.ps, l.maxLen, out); why != "" {
					t.Fatalf("Mutate(%v): %s", in, why)
				}
			}
		})
	}
}

// TestMutateLeavesInput checks that Mutate does not write to its inputs.
func TestMutateLeavesInput(t *testing.T) {
	l := layouts[len(layouts)-1]
	r := rand.New(rand.NewPCG(3, 4))
	m := New(l.ps, l.maxLen, testDict(), 1)
	for iter := 0; iter < 200; iter++ {
		in, other := randomInput(r, l.ps, l.maxLen), randomInput(r, l.ps, l.maxLen)
		inCopy, otherCopy := clone(in), clone(other)
		m.Mutate(in, other)
		if !reflect.DeepEqual(in, inCopy) || !reflect.DeepEqual(other, otherCopy) {
			t.Fatalf("Mutate changed its inputs: %v -> %v, %v -> %v", inCopy, in, otherCopy, other)
		}
	}
}

func clone(e sym.Env) sym.Env {
	c := sym.Env{}
	for k, v := range e {
		c[k] = v
	}
	return c
}

// TestDeterministic checks that a Mutator's mutants depend on its seed
// alone: two with one seed agree on every mutant, and two with different
// seeds do not.
func TestDeterministic(t *testing.T) {
	for _, l := range layouts {
		t.Run(l.name, func(t *testing.T) {
			seq := func(seed uint64) []sym.Env {
				r := rand.New(rand.NewPCG(5, 6))
				m := New(l.ps, l.maxLen, testDict(), seed)
				var out []sym.Env
				for i := 0; i < 100; i++ {
					out = append(out, m.Mutate(randomInput(r, l.ps, l.maxLen), randomInput(r, l.ps, l.maxLen)))
				}
				return out
			}
			a, b, c := seq(11), seq(11), seq(12)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("one seed, two sequences")
			}
			if reflect.DeepEqual(a, c) {
				t.Errorf("seeds 11 and 12 made the same sequence")
			}
		})
	}
}

// TestDictionaryEntriesAppear checks that the dictionary's integer and
// token reach the inputs: the integer as an integer's value, as bytes and
// as decimal text, the token within a string.
func TestDictionaryEntriesAppear(t *testing.T) {
	ps := []rt.Param{{Name: "s", Kind: rt.ParamString}, {Name: "n", Kind: rt.ParamInt, Width: 32}}
	const maxLen = 16
	m := New(ps, maxLen, testDict(), 3)
	want := map[string]func(args []rt.Arg) bool{
		"int":     func(a []rt.Arg) bool { return a[1].Bits == 0xCAFE },
		"token":   func(a []rt.Arg) bool { return bytes.Contains(a[0].Bytes, []byte("magic")) },
		"le":      func(a []rt.Arg) bool { return bytes.Contains(a[0].Bytes, []byte{0xFE, 0xCA}) },
		"decimal": func(a []rt.Arg) bool { return bytes.Contains(a[0].Bytes, []byte("51966")) },
	}
	seen := map[string]bool{}
	in := rt.EncodeInput(ps, maxLen, []rt.Arg{{Bytes: []byte("xxxxxxxx")}, {Bits: 7}})
	for i := 0; i < 5000 && len(seen) < len(want); i++ {
		args := rt.DecodeInput(ps, maxLen, m.Mutate(in, nil))
		for name, f := range want {
			if f(args) {
				seen[name] = true
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("dictionary entry %s never appeared in 5000 mutants", name)
		}
	}
}

// TestDictAddTerm checks what a branch condition adds to the dictionary.
func TestDictAddTerm(t *testing.T) {
	b := sym.NewBuilder()
	x := b.Var(0, 32)
	y := b.Var(1, 8) // an 8-bit constant adds no token
	byteEq := func(n uint64, c byte) *sym.Expr { return b.Eq(b.Var(n, 8), b.Const(uint64(c), 8)) }
	tests := []struct {
		name   string
		cond   *sym.Expr
		ints   []uint64
		tokens []string
	}{
		{"equality", b.Eq(x, b.Const(0xCAFE, 32)), []uint64{0xCAFE}, []string{"\xfe\xca\x00\x00", "\x00\x00\xca\xfe"}},
		{"order gives neighbours", b.Cmp(sym.KULt, y, b.Const(100, 8)), []uint64{100, 101, 99}, nil},
		{"constant on the left", b.Cmp(sym.KSLt, b.Const(50, 8), y), []uint64{50, 51, 49}, nil},
		{"bytes spell a token", b.And(byteEq(4, 'h'), b.And(byteEq(5, 'i'), byteEq(6, '!'))), []uint64{'h', 'i', '!'}, []string{"hi!"}},
		{"bytes apart are no token", b.And(byteEq(4, 'h'), byteEq(9, 'i')), []uint64{'h', 'i'}, nil},
		{"extended byte", b.Eq(b.ZExt(b.Var(2, 8), 32), b.Const('{', 32)), []uint64{'{'}, nil},
		{"no constant", b.Eq(x, b.Var(1, 32)), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDict(0)
			n := d.AddTerm(tt.cond)
			var toks []string
			for _, tok := range d.Tokens() {
				toks = append(toks, string(tok))
			}
			if !reflect.DeepEqual(d.Ints(), tt.ints) || !reflect.DeepEqual(toks, tt.tokens) {
				t.Errorf("ints %v tokens %q, want %v %q", d.Ints(), toks, tt.ints, tt.tokens)
			}
			if n != d.Len() {
				t.Errorf("AddTerm returned %d, dictionary holds %d", n, d.Len())
			}
			if again := d.AddTerm(tt.cond); again != 0 {
				t.Errorf("adding the term again added %d entries", again)
			}
		})
	}
}

// TestDictAddConsts checks the source constants' entries: numbers and their
// text, strings and the numbers they spell, floats' bits.
func TestDictAddConsts(t *testing.T) {
	d := NewDict(0)
	d.AddConsts([]uint64{1234}, []string{"GET", "0x10"}, []float64{2.5})
	hasInt := func(v uint64) bool {
		for _, x := range d.Ints() {
			if x == v {
				return true
			}
		}
		return false
	}
	hasTok := func(s string) bool {
		for _, x := range d.Tokens() {
			if string(x) == s {
				return true
			}
		}
		return false
	}
	for _, v := range []uint64{1234, 16, 0x4004000000000000} {
		if !hasInt(v) {
			t.Errorf("integer %#x missing from %v", v, d.Ints())
		}
	}
	for _, s := range []string{"1234", "GET", "0x10"} {
		if !hasTok(s) {
			t.Errorf("token %q missing", s)
		}
	}
}

// TestDictBounds checks that the dictionary keeps at most its bound of
// entries and no token over 64 bytes.
func TestDictBounds(t *testing.T) {
	d := NewDict(3)
	for i := uint64(2); i < 100; i++ {
		d.AddInt(i, 8)
	}
	if len(d.Ints()) != 3 {
		t.Errorf("%d integers kept, bound 3", len(d.Ints()))
	}
	if d.AddBytes(make([]byte, 65)) || d.AddBytes(nil) {
		t.Errorf("kept an empty or 65-byte token")
	}
}
