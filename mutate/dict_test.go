package mutate

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// testDict is a dictionary with an integer and a token.
func testDict() *Dict {
	d := NewDict(0)
	d.AddInt(0xCAFE, 16)
	d.AddBytes([]byte("magic"))
	return d
}

// TestDictionaryEntriesAppear checks that the dictionary's integer and
// token reach the mutants the lane's batches make from its lists
// (rt.Mutants): the integer as an integer's value, as bytes and as decimal
// text, the token within a string.
func TestDictionaryEntriesAppear(t *testing.T) {
	ps := []rt.Param{{Name: "s", Kind: rt.ParamString}, {Name: "n", Kind: rt.ParamInt, Width: 32}}
	const maxLen = 16
	d := testDict()
	want := map[string]func(args []rt.Arg) bool{
		"int":     func(a []rt.Arg) bool { return a[1].Bits == 0xCAFE },
		"token":   func(a []rt.Arg) bool { return bytes.Contains(a[0].Bytes, []byte("magic")) },
		"le":      func(a []rt.Arg) bool { return bytes.Contains(a[0].Bytes, []byte{0xFE, 0xCA}) },
		"decimal": func(a []rt.Arg) bool { return bytes.Contains(a[0].Bytes, []byte("51966")) },
	}
	seen := map[string]bool{}
	in := rt.EncodeDense(ps, maxLen, []rt.Arg{{Bytes: []byte("xxxxxxxx")}, {Bits: 7}})
	for _, m := range rt.Mutants(ps, maxLen, [][]uint64{in}, 5000, 3, d.Ints(), d.Tokens()) {
		args := rt.DecodeDense(ps, maxLen, m)
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

// TestDictAddTermAcrossCalls checks what the walk's memory across calls
// keeps: comparisons met again inside a new conjunction still spell its
// token, though their nodes were walked by an earlier call, and a node
// whose whole term was walked gives nothing new.
func TestDictAddTermAcrossCalls(t *testing.T) {
	b := sym.NewBuilder()
	byteEq := func(n uint64, c byte) *sym.Expr { return b.Eq(b.Var(n, 8), b.Const(uint64(c), 8)) }
	d := NewDict(0)
	d.AddTerm(byteEq(4, 'o'))
	d.AddTerm(byteEq(5, 'k'))
	if n := d.AddTerm(b.And(byteEq(4, 'o'), byteEq(5, 'k'))); n != 1 {
		t.Errorf("the conjunction added %d entries, want its token", n)
	}
	if toks := d.Tokens(); len(toks) != 1 || string(toks[0]) != "ok" {
		t.Errorf("tokens %q, want [ok]", toks)
	}
}

// pathConds returns n conditions in the shape a backtracking matcher's
// path has: each compares a constant with a sum that extends the
// previous condition's, so the conditions share all but one node each.
func pathConds(n int) []*sym.Expr {
	b := sym.NewBuilder()
	sum := b.Var(0, 64)
	conds := make([]*sym.Expr, n)
	for i := range conds {
		sum = b.Add(sum, b.Var(uint64(i+1), 64))
		conds[i] = b.Eq(sum, b.Const(uint64(1000+i), 64))
	}
	return conds
}

// BenchmarkDictAddTermPath adds the conditions of one path of 2 000
// branches whose terms share their nodes: walked once a run, the cost is
// linear in the path; walked a condition at a time, it was quadratic.
func BenchmarkDictAddTermPath(b *testing.B) {
	conds := pathConds(2000)
	for b.Loop() {
		d := NewDict(0)
		for _, c := range conds {
			d.AddTerm(c)
		}
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
