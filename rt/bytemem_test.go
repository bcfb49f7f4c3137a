package rt

import (
	"testing"
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

// symBytes is a symbolic byte slice of the given concrete value: a length
// variable and one byte variable per byte, numbered from base.
func symBytes(base uint64, c string) V[[]byte] {
	bs := make([]*sym.Expr, len(c))
	for i := range bs {
		bs[i] = st.b.Var(base+1+uint64(i), 8)
	}
	return V[[]byte]{C: []byte(c), S: st.b.String(st.b.Var(base, 64), bs)}
}

// holder is a struct whose byte-slice field a decoder fills.
type holder struct {
	buf []byte
	in  []byte
}

// TestByteCells checks that bytes written into byte slices that are not
// shadowed variables keep their terms for whichever slice of the array
// reads them later, and lose them when they are overwritten: each case
// writes, then reads byte k through the field, and wants the term of
// input byte want (-1: no term).
func TestByteCells(t *testing.T) {
	tests := []struct {
		name string
		run  func(h *holder, in V[[]byte]) V[byte]
		want int
	}{
		{
			name: "copy into the spare capacity of a field, then reslice",
			run: func(h *holder, in V[[]byte]) V[byte] {
				h.buf = make([]byte, 0, 8)
				n := CopyBytesTo(1, h.buf[len(h.buf):cap(h.buf)], in)
				StoreByteSlice(SliceBytes(2, LoadByteSlice(3, &h.buf), V[int]{}, n), &h.buf)
				return IndexBytes(4, LoadByteSlice(5, &h.buf), V[int]{C: 2})
			},
			want: 2,
		},
		{
			name: "copy into a slice of a field whose cell is older",
			run: func(h *holder, in V[[]byte]) V[byte] {
				StoreByteSlice(V[[]byte]{C: make([]byte, 4)}, &h.buf)
				StoreByteSlice(SliceBytes(2, LoadByteSlice(3, &h.buf), V[int]{}, V[int]{C: 4}), &h.buf)
				CopyBytesTo(1, h.buf[1:], in)
				return IndexBytes(4, LoadByteSlice(5, &h.buf), V[int]{C: 1})
			},
			want: 0,
		},
		{
			name: "bytes copied equal to the old ones still take the new terms",
			run: func(h *holder, in V[[]byte]) V[byte] {
				StoreByteSlice(BytesOf[[]byte](V[byte]{C: 'a'}, V[byte]{C: 'b'}, V[byte]{C: 'c'}, V[byte]{C: 'd', S: st.b.Var(50, 8)}), &h.buf)
				CopyBytesTo(1, h.buf, in) // in is "abcd"
				return IndexBytes(4, LoadByteSlice(5, &h.buf), V[int]{C: 0})
			},
			want: 0,
		},
		{
			name: "store into a field's element, read through another slice",
			run: func(h *holder, in V[[]byte]) V[byte] {
				h.buf = make([]byte, 4)
				StoreByteAt(1, h.buf, V[int]{C: 3}, IndexBytes(2, in, V[int]{C: 1}))
				alias := h.buf[2:]
				return IndexBytes(4, V[[]byte]{C: alias}, V[int]{C: 1})
			},
			want: 1,
		},
		{
			name: "a variable's copy is seen through the field it was sliced from",
			run: func(h *holder, in V[[]byte]) V[byte] {
				h.buf = make([]byte, 6)
				dst := h.buf[2:]
				var sh *sym.Expr
				CopyBytes(1, &sh, dst, dst, in)
				return IndexBytes(4, LoadByteSlice(5, &h.buf), V[int]{C: 5})
			},
			want: 3,
		},
		{
			name: "concrete bytes copied over terms drop them",
			run: func(h *holder, in V[[]byte]) V[byte] {
				h.buf = make([]byte, 4)
				CopyBytesTo(1, h.buf, in)
				CopyBytesTo(2, h.buf, V[string]{C: "abcd"}) // the same values
				return IndexBytes(4, LoadByteSlice(5, &h.buf), V[int]{C: 2})
			},
			want: -1,
		},
		{
			name: "a concrete store over a term drops it",
			run: func(h *holder, in V[[]byte]) V[byte] {
				h.buf = make([]byte, 4)
				CopyBytesTo(1, h.buf, in)
				StoreByteAt(2, h.buf, V[int]{C: 0}, V[byte]{C: 'a'})
				return IndexBytes(4, V[[]byte]{C: h.buf}, V[int]{C: 0})
			},
			want: -1,
		},
		{
			name: "append over the spare capacity drops the cells there",
			run: func(h *holder, in V[[]byte]) V[byte] {
				h.buf = make([]byte, 0, 8)
				CopyBytesTo(1, h.buf[:cap(h.buf)], in)
				b := AppendBytesOf(V[[]byte]{C: h.buf}, V[string]{C: "ab"})
				return IndexBytes(4, V[[]byte]{C: b.C[:4]}, V[int]{C: 1})
			},
			want: -1,
		},
		{
			name: "store into an array variable's element, read through a slice of the array",
			run: func(h *holder, in V[[]byte]) V[byte] {
				var a [4]byte
				Store(IndexBytes(2, in, V[int]{C: 1}), &a[1])
				return IndexBytes(4, V[[]byte]{C: a[1:2]}, V[int]{C: 0})
			},
			want: 1,
		},
		{
			name: "a concrete store into the array's element drops its term",
			run: func(h *holder, in V[[]byte]) V[byte] {
				var a [4]byte
				Store(IndexBytes(2, in, V[int]{C: 1}), &a[1])
				Store(V[byte]{C: 'q'}, &a[1])
				return IndexBytes(4, V[[]byte]{C: a[:]}, V[int]{C: 1})
			},
			want: -1,
		},
		{
			name: "a write nobody saw makes the byte concrete",
			run: func(h *holder, in V[[]byte]) V[byte] {
				h.buf = make([]byte, 4)
				CopyBytesTo(1, h.buf, in)
				h.buf[3] = '!'
				return IndexBytes(4, LoadByteSlice(5, &h.buf), V[int]{C: 3})
			},
			want: -1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(8)
			in := symBytes(100, "abcd")
			got := tt.run(&holder{}, in)
			if tt.want < 0 {
				if got.S != nil {
					t.Errorf("byte %q has the term %v, want none", got.C, got.S)
				}
				return
			}
			if want := aggBytes(in.S)[tt.want]; got.S != want || got.C != in.C[tt.want] {
				t.Errorf("byte %q with term %v, want %q with %v", got.C, got.S, in.C[tt.want], want)
			}
		})
	}
}

// TestCopyBytesToCount checks the count of a copy into a byte slice that
// is not a variable: min(len(dst), len(src)) over the source's length
// term.
func TestCopyBytesToCount(t *testing.T) {
	own(t)
	for _, tc := range []struct {
		dst, src int
	}{{8, 3}, {2, 5}, {0, 4}, {4, 4}} {
		reset(8)
		in := symBytes(100, "abcdefgh"[:tc.src])
		n := CopyBytesTo(1, make([]byte, tc.dst), in)
		if n.S == nil {
			t.Fatalf("dst %d, src %d: count %d has no term", tc.dst, tc.src, n.C)
		}
		for src := 0; src <= 8; src++ {
			env := sym.Env{100: uint64(src)}
			v, err := (&sym.Evaluator{Env: env}).Value(n.S)
			if err != nil {
				t.Fatal(err)
			}
			if want := min(tc.dst, src); v != uint64(want) {
				t.Errorf("dst %d, src of length %d: count term %d, want %d", tc.dst, src, v, want)
			}
		}
	}
}

// TestUnsafeString checks the string unsafe.String makes over a byte
// slice's first n bytes: their terms, n's term as its length, and, when
// n is symbolic, the bytes past n too, which a longer input reads.
func TestUnsafeString(t *testing.T) {
	tests := []struct {
		name     string
		n        func(b V[[]byte]) V[int]
		wantLen  string
		wantByte int // bytes of the result's aggregate
	}{
		{"symbolic length", func(b V[[]byte]) V[int] { return LenBytes(b) }, "v100:64", 6},
		{"constant prefix", func(V[[]byte]) V[int] { return V[int]{C: 2} }, "2:64", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t) // the subtest's goroutine
			reset(8)
			in := symBytes(100, "abcdef")
			b := V[[]byte]{C: in.C[:3], S: in.S}
			n := tt.n(b)
			s := UnsafeString(b, n)
			if s.C != string(b.C[:n.C]) {
				t.Fatalf("string %q, want %q", s.C, b.C[:n.C])
			}
			if s.S == nil || aggLen(s.S).String() != tt.wantLen || len(aggBytes(s.S)) != tt.wantByte || aggBytes(s.S)[1] != aggBytes(in.S)[1] {
				t.Errorf("shadow %v, want length %s and %d of the input's bytes", s.S, tt.wantLen, tt.wantByte)
			}
		})
	}
}

// TestUnsafeBytes checks the byte slice unsafe.Slice makes over a
// string's first n bytes: their terms, n's term as its length (the
// string's own length term for len(s)), and, when n is symbolic, the bytes
// past n too; a concrete string with a constant n stays concrete.
func TestUnsafeBytes(t *testing.T) {
	tests := []struct {
		name     string
		s        func() V[string]
		n        func(s V[string]) V[int]
		wantLen  string // "" for no shadow
		wantByte int    // bytes of the result's aggregate
	}{
		{"len(s)", func() V[string] { return symStr("abcdef") }, func(s V[string]) V[int] { return LenString(s) }, "v9:64", 6},
		{"constant prefix", func() V[string] { return symStr("abcdef") }, func(V[string]) V[int] { return V[int]{C: 2} }, "2:64", 2},
		{"symbolic n over a concrete string", func() V[string] { return V[string]{C: "abcdef"} },
			func(V[string]) V[int] { return V[int]{C: 3, S: st.b.Var(1, 64)} }, "v1:64", 6},
		{"concrete", func() V[string] { return V[string]{C: "abcdef"} }, func(V[string]) V[int] { return V[int]{C: 3} }, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(8)
			s := tt.s()
			n := tt.n(s)
			b := UnsafeBytes(s, n)
			if string(b.C) != s.C[:n.C] || len(b.C) > 0 && &b.C[0] != unsafe.StringData(s.C) {
				t.Fatalf("bytes %q, want %q without a copy", b.C, s.C[:n.C])
			}
			if tt.wantLen == "" {
				if b.S != nil {
					t.Errorf("shadow %v, want none", b.S)
				}
				return
			}
			if b.S == nil || aggLen(b.S).String() != tt.wantLen || len(aggBytes(b.S)) != tt.wantByte || aggBytes(b.S)[1] != agg(s).Args[2] {
				t.Errorf("shadow %v, want length %s and %d of the string's bytes", b.S, tt.wantLen, tt.wantByte)
			}
		})
	}
}

// TestCopyShortSource checks the bytes of a copy whose source is shorter
// than the destination at this input but has a symbolic length: a longer
// input copies more, so each byte past the copied ones is the source's
// byte when the source reaches it and the old byte otherwise (the copied
// ones are the source's), into a
// local array (cells of its bytes) and into a shadowed variable (its
// aggregate) alike.
func TestCopyShortSource(t *testing.T) {
	tests := []struct {
		name string
		copy func(in V[[]byte]) V[string] // copies in over "wxyz" and reads the string back
	}{
		{"into a local array", func(in V[[]byte]) V[string] {
			w := [4]byte{'w', 'x', 'y', 'z'}
			CopyBytesTo(1, w[:], in)
			return StringOfBytes[string](V[[]byte]{C: w[:]})
		}},
		{"into a variable", func(in V[[]byte]) V[string] {
			b := []byte("wxyz")
			var sb *sym.Expr
			CopyBytes(1, &sb, b, b, in)
			return StringOfBytes[string](V[[]byte]{C: b, S: sb})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(8)
			// An input of length 1 whose aggregate has three byte
			// variables, as an input keeps -maxlen of them.
			bs := []*sym.Expr{st.b.Var(101, 8), st.b.Var(102, 8), st.b.Var(103, 8)}
			in := V[[]byte]{C: []byte("a"), S: st.b.String(st.b.Var(100, 64), bs)}
			s := tt.copy(in)
			if s.C != "axyz" {
				t.Fatalf("copied %q, want %q", s.C, "axyz")
			}
			if s.S == nil {
				t.Fatal("the string has no term")
			}
			for _, c := range []struct {
				n    uint64
				want string
			}{{1, "axyz"}, {2, "abyz"}, {3, "abcz"}} {
				env := sym.Env{100: c.n, 101: 'a', 102: 'b', 103: 'c'}
				var got []byte
				for _, b := range aggBytes(s.S)[:sym.Eval(aggLen(s.S), env)] {
					got = append(got, byte(sym.Eval(b, env)))
				}
				if string(got) != c.want {
					t.Errorf("source of length %d: the term gives %q, want %q", c.n, got, c.want)
				}
			}
		})
	}
}

// TestCapSlice checks the capacity's shadow that make([]byte, n, c) keeps
// for c: read by cap on the slice and its reslices from the start, not on
// a slice that starts later, and counted as dropped for a capacity of
// zero, which has no backing array to key it by.
func TestCapSlice(t *testing.T) {
	tests := []struct {
		name    string
		c       int
		read    func(b []byte) []byte
		want    bool // cap has c's term
		dropped bool // a concretisation is counted
	}{
		{"the slice", 3, func(b []byte) []byte { return b }, true, false},
		{"a reslice from the start", 3, func(b []byte) []byte { return b[:2] }, true, false},
		{"a reslice from later", 3, func(b []byte) []byte { return b[1:2] }, false, false},
		{"a capacity of zero", 0, func(b []byte) []byte { return b }, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(8)
			c := V[int]{C: tt.c, S: st.b.Var(7, 64)}
			b := MakeBytesCap[[]byte](3, V[int]{C: 0}, c)
			got := CapSlice(tt.read(b.C))
			if got.C != cap(tt.read(b.C)) {
				t.Fatalf("cap %d, want %d", got.C, cap(tt.read(b.C)))
			}
			if tt.want != (got.S == c.S) || !tt.want && got.S != nil {
				t.Errorf("cap's shadow %v, want c's term: %v", got.S, tt.want)
			}
			conc := takeConcrete(nil)
			if dropped := len(conc) == 1 && conc[0].Site == 3 && conc[0].Cause == CauseCall; dropped != tt.dropped || !tt.dropped && len(conc) != 0 {
				t.Errorf("concretisations %+v, want one at site 3: %v", conc, tt.dropped)
			}
		})
	}
}
