package rt

import (
	"slices"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

type memPoint struct {
	X    int32
	Ok   bool
	Name string
	F    float64
}

// TestMemLoadStore checks that a shadow stored at a field comes back on a
// load, and that a write the rewrite did not see drops it.
func TestMemLoadStore(t *testing.T) {
	own(t)
	reset(0)
	x := st.b.Var(0, 32)
	b := st.b.Var(1, 0)
	s := st.b.String(st.b.Var(2, 64), nil)
	f := st.b.Var(3, 64)
	p := new(memPoint)
	Store(V[int32]{C: 7, S: x}, &p.X)
	Store(V[bool]{C: true, S: b}, &p.Ok)
	StoreString(V[string]{C: "ab", S: s}, &p.Name)
	Store(V[float64]{C: 1.5, S: f}, &p.F)
	tests := []struct {
		name string
		got  *sym.Expr
		want *sym.Expr
	}{
		{"int32", Load(0, &p.X).S, x},
		{"bool", Load(0, &p.Ok).S, b},
		{"string", LoadString(0, &p.Name).S, s},
		{"float64", Load(0, &p.F).S, f},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: load gives %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if p.X != 7 || !p.Ok || p.Name != "ab" || p.F != 1.5 {
		t.Fatalf("stores did not write the values: %+v", *p)
	}
	// Writes the rewrite does not see.
	p.X, p.Ok, p.Name, p.F = 8, false, "ac", 2.5
	for name, v := range map[string]*sym.Expr{
		"int32": Load(0, &p.X).S, "bool": Load(0, &p.Ok).S, "string": LoadString(0, &p.Name).S, "float64": Load(0, &p.F).S,
	} {
		if v != nil {
			t.Errorf("%s: stale shadow %v survives an unseen write", name, v)
		}
	}
	// A concrete store clears the cell.
	Store(V[int32]{C: 9, S: x}, &p.X)
	Store(V[int32]{C: 9}, &p.X)
	if s := Load(0, &p.X).S; s != nil {
		t.Errorf("a concrete store left the shadow %v", s)
	}
	reset(0)
	if len(st.mem) != 0 || len(st.pins) != 0 {
		t.Errorf("reset left %d cells and %d pins", len(st.mem), len(st.pins))
	}
}

// TestCopyMem checks that a struct copy carries its fields' shadows and
// replaces the destination's.
func TestCopyMem(t *testing.T) {
	own(t)
	reset(0)
	x, y := st.b.Var(0, 32), st.b.Var(1, 32)
	src, dst := new([2]memPoint), new([2]memPoint)
	Store(V[int32]{C: 1, S: x}, &src[1].X)
	Store(V[int32]{C: 5, S: y}, &dst[0].X)
	*dst = *src
	CopyMem(dst, src)
	if got := Load(0, &dst[1].X).S; got != x {
		t.Errorf("copied field: shadow %v, want %v", got, x)
	}
	dst[0].X = 5 // the old value again: only the copy's clearing removes y
	if got := Load(0, &dst[0].X).S; got != nil {
		t.Errorf("overwritten field kept shadow %v", got)
	}
	if got := Load(0, &src[1].X).S; got != x {
		t.Errorf("source lost its shadow: %v", got)
	}
}

// TestLoadIndex checks the case split of a load at a symbolic index
// against the concrete element at every index, and the bounds branch.
func TestLoadIndex(t *testing.T) {
	own(t)
	reset(4)
	table := []uint8{10, 20, 30, 40}
	v := st.b.Var(1, 8)
	Store(V[uint8]{C: 20, S: v}, &table[1]) // element 1 is an input byte
	i := V[int]{C: 2, S: st.b.Var(0, 64)}
	got := LoadIndex(3, table, i)
	if got.C != 30 || got.S == nil {
		t.Fatalf("LoadIndex = %v, %v; want 30 with a shadow", got.C, got.S)
	}
	for k := range table {
		env := sym.Env{0: uint64(k), 1: 99}
		want := uint64(table[k])
		if k == 1 {
			want = 99
		}
		if ev := sym.Eval(got.S, env); ev != want {
			t.Errorf("index %d: term gives %d, want %d", k, ev, want)
		}
	}
	if len(st.path) != 1 || st.path[0].Site != 3 || !st.path[0].Taken {
		t.Fatalf("path %+v: want the bounds check at site 3, taken", st.path)
	}
	if !sym.Holds(st.path[0].Cond, sym.Env{0: 3}) || sym.Holds(st.path[0].Cond, sym.Env{0: 4}) {
		t.Errorf("bounds condition %v is not 0 <= i < 4", st.path[0].Cond)
	}
	bools := []bool{false, true}
	bt := LoadIndex(0, bools, V[int]{C: 1, S: st.b.Var(0, 64)})
	if !bt.C || bt.S == nil || sym.Eval(bt.S, sym.Env{0: 0}) != 0 || sym.Eval(bt.S, sym.Env{0: 1}) != 1 {
		t.Errorf("bool table: %v %v", bt.C, bt.S)
	}
}

// TestStoreIndex checks a store, and an op= store, at a symbolic index
// against Go's own: for every value of the index, each element's term
// gives what the element holds after s[i] = v (or s[i] |= v) on a copy of
// the table at that index. Stores at the concrete index alone (what the
// rewrite did before) give the old value to every other index.
func TestStoreIndex(t *testing.T) {
	for _, tt := range []struct {
		name  string
		apply bool
	}{{"store", false}, {"or", true}} {
		t.Run(tt.name, func(t *testing.T) {
			own(t) // the state belongs to the subtest's goroutine
			reset(4)
			table := []uint8{10, 20, 30, 40}
			orig := slices.Clone(table)
			Store(V[uint8]{C: 20, S: st.b.Var(2, 8)}, &table[1]) // element 1 is input byte 2
			i := V[int]{C: 2, S: st.b.Var(0, 64)}
			v := V[uint8]{C: 7, S: st.b.Var(1, 8)}
			if tt.apply {
				ApplyIndex(3, table, i, v, Or[uint8])
			} else {
				StoreIndex(v, 3, table, i)
			}
			want2 := uint8(7)
			if tt.apply {
				want2 = 30 | 7
			}
			if table[2] != want2 || table[0] != 10 || table[1] != 20 {
				t.Fatalf("table %v after the store at 2", table)
			}
			if len(st.path) != 1 || st.path[0].Site != 3 || !st.path[0].Taken || !sym.Holds(st.path[0].Cond, sym.Env{0: 3}) || sym.Holds(st.path[0].Cond, sym.Env{0: 4}) {
				t.Fatalf("path %+v: want one bounds check 0 <= i < 4 at site 3, taken", st.path)
			}
			for idx := range table {
				env := sym.Env{0: uint64(idx), 1: 99, 2: 55}
				ref := slices.Clone(orig)
				ref[1] = 55
				if tt.apply {
					ref[idx] |= 99
				} else {
					ref[idx] = 99
				}
				for k := range table {
					got := Load(0, &table[k])
					ev := uint64(table[k])
					if got.S != nil {
						ev = sym.Eval(got.S, env)
					}
					if ev != uint64(ref[k]) {
						t.Errorf("i=%d: element %d gives %d, want %d", idx, k, ev, ref[k])
					}
				}
			}
		})
	}
}

// memSum sums the X fields of ps as the instrumenter rewrites p.X reads in
// a tracked context.
func memSum(ps []memPoint) int32 {
	var s int32
	for i := range ps {
		s += Load(0, &ps[i].X).C
	}
	return s
}

func memSumNative(ps []memPoint) int32 {
	var s int32
	for i := range ps {
		s += ps[i].X
	}
	return s
}

// BenchmarkMemLoadNative, ...Empty and ...Cells compare a field read
// uninstrumented, through Load with no cell anywhere (the common case:
// nothing symbolic was stored), and through Load with every field
// shadowed.
func BenchmarkMemLoadNative(b *testing.B) {
	ps := make([]memPoint, 64)
	for b.Loop() {
		memSumNative(ps)
	}
}

func BenchmarkMemLoadEmpty(b *testing.B) {
	own(b)
	reset(0)
	ps := make([]memPoint, 64)
	for b.Loop() {
		memSum(ps)
	}
}

func BenchmarkMemLoadCells(b *testing.B) {
	own(b)
	reset(0)
	ps := make([]memPoint, 64)
	x := st.b.Var(0, 32)
	for i := range ps {
		Store(V[int32]{C: 1, S: x}, &ps[i].X)
	}
	for b.Loop() {
		memSum(ps)
	}
}

// TestByteSliceCells checks that a byte slice stored in memory keeps its
// aggregate shadow, and loses the term of an element that changes unseen
// (the value takes its place), keeping the others'.
func TestByteSliceCells(t *testing.T) {
	own(t)
	reset(0)
	a := st.b.String(st.b.Var(0, 64), []*sym.Expr{st.b.Var(1, 8), st.b.Var(2, 8)})
	var rec struct{ Data []byte }
	StoreByteSlice(V[[]byte]{C: []byte("hi"), S: a}, &rec.Data)
	if got := LoadByteSlice(0, &rec.Data); got.S != a || string(got.C) != "hi" {
		t.Errorf("load gives %q %v, want %q %v", got.C, got.S, "hi", a)
	}
	rec.Data[1] = 'o'
	want := st.b.String(st.b.Var(0, 64), []*sym.Expr{st.b.Var(1, 8), st.b.Const('o', 8)})
	if s := LoadByteSlice(0, &rec.Data).S; s == nil || s.String() != want.String() {
		t.Errorf("an element written unseen: shadow %v, want %v", s, want)
	}
}

// TestBoundedInputs checks that a bounded input (a length or a pointer
// choice) reads as at most its Max, that a slice input gets its length
// shadow even when empty, and that DecodeInput agrees.
func TestBoundedInputs(t *testing.T) {
	own(t)
	ps := []Param{
		{Name: "xs.len", Kind: ParamInt, Width: 64, Max: 4},
		{Name: "p.nil", Kind: ParamInt, Width: 64, Max: 1},
	}
	tests := []struct {
		name     string
		env      sym.Env
		len, ptr int
	}{
		{"zero", sym.Env{}, 0, 0},
		{"within", sym.Env{0: 3, 1: 1}, 3, 1},
		{"clamped", sym.Env{0: 1000, 1: 7}, 4, 1},
		{"huge", sym.Env{0: ^uint64(0)}, 4, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(0)
			in := &Input{env: tt.env, offs: Layout(ps, 4), maxLen: 4, params: ps}
			xs := InputSlice[[]int32](in, 0)
			if len(xs) != tt.len || cap(xs) < 1 {
				t.Errorf("slice of len %d cap %d, want len %d and a backing array", len(xs), cap(xs), tt.len)
			}
			if l := LenSlice(0, xs); l.S != inputVar(0, 64) {
				t.Errorf("length shadow %v, want the input variable", l.S)
			}
			if c := InputLen(in, 1).C; c != tt.ptr {
				t.Errorf("choice %d, want %d", c, tt.ptr)
			}
			args := DecodeInput(ps, 4, tt.env)
			if int(args[0].Bits) != tt.len || int(args[1].Bits) != tt.ptr {
				t.Errorf("decoded %d %d, want %d %d", args[0].Bits, args[1].Bits, tt.len, tt.ptr)
			}
		})
	}
}

// TestIsNil checks the shadows of comparisons of pointer inputs with nil:
// an object's is its choice, a nil's says that some pointer input is nil.
func TestIsNil(t *testing.T) {
	own(t)
	ps := []Param{
		{Name: "p.nil", Kind: ParamInt, Width: 64, Max: 1},
		{Name: "q.nil", Kind: ParamInt, Width: 64, Max: 1},
	}
	reset(0)
	in := &Input{env: sym.Env{0: 0, 1: 1}, offs: Layout(ps, 4), maxLen: 4, params: ps}
	p := new(memPoint)
	InputObject(in, 0, p)
	InputNil(in, 1)
	var q *memPoint
	other := new(memPoint)
	tests := []struct {
		name string
		v    V[bool]
		want bool
		env  sym.Env // an input under which the shadow must be !want
	}{
		{"object", IsNil(p), false, sym.Env{0: 1}},
		{"object, !=", NotNil(p), true, sym.Env{0: 1}},
		{"nil input", IsNil(q), true, sym.Env{1: 0}},
		{"nil input, !=", NotNil(q), false, sym.Env{1: 0}},
	}
	for _, tt := range tests {
		if tt.v.C != tt.want || tt.v.S == nil {
			t.Fatalf("%s: %v with shadow %v, want %v with a shadow", tt.name, tt.v.C, tt.v.S, tt.want)
		}
		if got := sym.Eval(tt.v.S, sym.Env{0: 0, 1: 1}); (got != 0) != tt.want {
			t.Errorf("%s: shadow gives %d under the input", tt.name, got)
		}
		if got := sym.Eval(tt.v.S, tt.env); (got != 0) == tt.want {
			t.Errorf("%s: shadow gives %d under %v, want the other outcome", tt.name, got, tt.env)
		}
	}
	if v := IsNil(other); v.C || v.S != nil {
		t.Errorf("a pointer that is no input: %v %v, want false and no shadow", v.C, v.S)
	}
}

// TestResultHandover checks that a struct returned by value takes its
// fields' shadows to the caller's place (PassResult, TakeResult), and
// that a slot is taken once, cleared by NoResult, and never copied into
// a place of another size.
func TestResultHandover(t *testing.T) {
	type small struct{ X int32 }
	tests := []struct {
		name string
		run  func(src *memPoint) V[int32] // returns the caller's field
		want bool                         // the field has x's term
	}{
		{"returned place", func(src *memPoint) V[int32] {
			dst := new(memPoint)
			*dst = PassResult(0, src, *src)
			TakeResult(0, dst)
			return Load(0, &dst.X)
		}, true},
		{"another position", func(src *memPoint) V[int32] {
			dst := new(memPoint)
			*dst = PassResult(1, src, *src)
			TakeResult(0, dst)
			return Load(0, &dst.X)
		}, false},
		{"taken once", func(src *memPoint) V[int32] {
			dst, again := new(memPoint), new(memPoint)
			*dst = PassResult(0, src, *src)
			TakeResult(0, dst)
			*again = *src
			TakeResult(0, again)
			return Load(0, &again.X)
		}, false},
		{"cleared by a result without a place", func(src *memPoint) V[int32] {
			dst := new(memPoint)
			PassResult(0, src, *src)
			*dst = NoResult(0, *src)
			TakeResult(0, dst)
			return Load(0, &dst.X)
		}, false},
		{"a field of the result", func(src *memPoint) V[int32] {
			return Load(0, &Took(0, PassResult(0, src, *src)).X)
		}, true},
		{"a place of another size", func(src *memPoint) V[int32] {
			other := new(small)
			PassResult(0, src, *src)
			other.X = src.X
			TakeResult(0, other)
			return Load(0, &other.X)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(0)
			x := st.b.Var(0, 32)
			src := new(memPoint)
			Store(V[int32]{C: 7, S: x}, &src.X)
			got := tt.run(src)
			if tt.want && (got.S != x || got.C != 7) {
				t.Errorf("field %d with shadow %v, want 7 with %v", got.C, got.S, x)
			}
			if !tt.want && got.S != nil {
				t.Errorf("field has the shadow %v, want none", got.S)
			}
		})
	}
}

// TestDropResult checks that a struct result stored where its shadows
// cannot be taken is counted as dropped when its callee's place had
// cells, and not when it had none.
func TestDropResult(t *testing.T) {
	for _, cells := range []bool{true, false} {
		own(t)
		reset(0)
		Store(V[int32]{C: 1, S: st.b.Var(0, 32)}, new(int32)) // cells exist
		src := new(memPoint)
		if cells {
			Store(V[int32]{C: 7, S: st.b.Var(1, 32)}, &src.X)
		}
		DropResult(5, 0, PassResult(0, src, *src))
		conc := takeConcrete(nil)
		if got := len(conc) == 1 && conc[0].Site == 5 && conc[0].Cause == CauseAssign; got != cells || !cells && len(conc) != 0 {
			t.Errorf("place with cells %v: concretisations %+v", cells, conc)
		}
	}
}

// TestCopyIndex copies a struct element read at a symbolic index, as
// utf8's acceptRanges[x>>4] and a lexer's table of token classes are
// read: for every value of the index, each field of the copy gives that
// field of the element there (an input byte stored in one of them
// included), and the bounds check is recorded.
func TestCopyIndex(t *testing.T) {
	own(t)
	reset(4)
	type class struct {
		lo, hi uint8
		word   bool
		n      int32
	}
	table := []class{{0x80, 0xbf, false, 1}, {0xa0, 0xbf, true, -2}, {0x80, 0x9f, false, 3}, {0x90, 0xbf, true, 4}}
	Store(V[int32]{C: 3, S: st.b.Var(1, 32)}, &table[2].n) // an input's term in one element
	i := V[int]{C: 1, S: st.b.Var(0, 64)}
	c := table[i.C]
	CopyIndex(5, &c, table, i)
	if len(st.path) != 1 || st.path[0].Site != 5 || !sym.Holds(st.path[0].Cond, sym.Env{0: 3}) || sym.Holds(st.path[0].Cond, sym.Env{0: 4}) {
		t.Fatalf("path %+v: want the bounds check 0 <= i < 4 at site 5", st.path)
	}
	for k := range table {
		env := sym.Env{0: uint64(k), 1: 77}
		want := table[k]
		if k == 2 {
			want.n = 77
		}
		eval := func(v uint64, s *sym.Expr) uint64 {
			if s == nil {
				return v
			}
			return sym.Eval(s, env)
		}
		lo, hi, word, n := Load(0, &c.lo), Load(0, &c.hi), Load(0, &c.word), Load(0, &c.n)
		b := uint64(0)
		if word.C {
			b = 1
		}
		got := class{uint8(eval(uint64(lo.C), lo.S)), uint8(eval(uint64(hi.C), hi.S)), eval(b, word.S) != 0, int32(eval(uint64(uint32(n.C)), n.S))}
		if got != want {
			t.Errorf("i=%d: copy gives %+v, want %+v", k, got, want)
		}
	}
}
