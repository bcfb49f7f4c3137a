package rt

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gocolic/gocolic/sym"
)

// TestReadAllModel checks the reader models against the real functions on
// random contents: the bytes are io.ReadAll's, and the shadow, where there
// is one, holds them at every other content the solver might choose.
func TestReadAllModel(t *testing.T) {
	tests := []struct {
		name string
		// read makes a reader of s (with shadow x) and reads it, the way
		// the program under test would.
		read   func(s V[string]) ([]byte, error, *Expr)
		shadow bool // whether the result must have a shadow
		skip   int  // bytes read before io.ReadAll
	}{
		{"strings reader", func(s V[string]) ([]byte, error, *Expr) {
			return IoReadAll(StringsNewReader(strings.NewReader, s))
		}, true, 0},
		{"bytes reader", func(s V[string]) ([]byte, error, *Expr) {
			return IoReadAll(BytesNewReader(bytes.NewReader, V[[]byte]{C: []byte(s.C), S: s.S}))
		}, true, 0},
		{"reader already read from", func(s V[string]) ([]byte, error, *Expr) {
			r := StringsNewReader(strings.NewReader, s)
			var one [1]byte
			_, _ = r.Read(one[:])
			return IoReadAll(r)
		}, false, 1},
		{"bytes changed after the reader was made", func(s V[string]) ([]byte, error, *Expr) {
			b := []byte(s.C)
			r := BytesNewReader(bytes.NewReader, V[[]byte]{C: b, S: s.S})
			b[0]++
			data, err, sh := IoReadAll(r)
			b[0]-- // the content the test compares with
			copy(data, b[:min(1, len(data))])
			return data, err, sh
		}, false, 0},
		{"another reader", func(s V[string]) ([]byte, error, *Expr) {
			return IoReadAll(iotest.HalfReader(strings.NewReader(s.C)))
		}, false, 0},
		{"input without a shadow", func(s V[string]) ([]byte, error, *Expr) {
			return IoReadAll(StringsNewReader(strings.NewReader, V[string]{C: s.C}))
		}, false, 0},
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			for range 50 {
				reset(0)
				x := newSymString(100)
				// A leading byte, so that every content has one to change.
				s0, s1 := "<"+randString(rng), randString(rng)
				data, err, term := tt.read(V[string]{C: s0, S: x.agg})
				want, werr := io.ReadAll(strings.NewReader(s0[tt.skip:]))
				if !bytes.Equal(data, want) || (err == nil) != (werr == nil) {
					t.Fatalf("read %q: got %q, %v; want %q, %v", s0, data, err, want, werr)
				}
				if (term != nil) != tt.shadow {
					t.Fatalf("read %q: shadow %v, want one: %v", s0, term, tt.shadow)
				}
				if term == nil {
					continue
				}
				env := map[uint64]uint64{}
				x.set(env, s1)
				if got := decodeAgg(term, env); got != s1 {
					t.Fatalf("shadow of the bytes read at content %q is %q", s1, got)
				}
			}
		})
	}
}

// TestUvarintModel checks the terms of binary.Uvarint against the real
// function: at the input that ran, and at random other byte strings of
// every length up to 12, drawn so that continuation bits, the ten-byte
// limit and its overflow all occur.
func TestUvarintModel(t *testing.T) {
	own(t)
	rng := rand.New(rand.NewPCG(7, 8))
	draw := func() []byte {
		b := make([]byte, rng.IntN(modelMaxLen+1))
		conts := 0
		if rng.IntN(2) == 0 { // near the ten-byte limit
			conts = 8 + rng.IntN(4)
		}
		for i := range b {
			if i < conts {
				b[i] = byte(0x80 + rng.IntN(0x80))
				continue
			}
			switch rng.IntN(4) {
			case 0:
				b[i] = byte(rng.IntN(4)) // a small last byte, around the limit of the tenth
			case 1:
				b[i] = byte(rng.IntN(0x80))
			default:
				b[i] = byte(0x80 + rng.IntN(0x80)) // a continuation
			}
		}
		return b
	}
	for range 300 {
		reset(0)
		x := newSymString(100)
		b0, b1 := draw(), draw()
		v, n, sv, sn := BinaryUvarint(V[[]byte]{C: b0, S: x.agg})
		if wv, wn := binary.Uvarint(b0); v != wv || n != wn {
			t.Fatalf("Uvarint(%x) = %d, %d; want %d, %d", b0, v, n, wv, wn)
		}
		if sv == nil || sn == nil {
			t.Fatalf("Uvarint(%x): no terms", b0)
		}
		for _, b := range [][]byte{b0, b1} {
			env := map[uint64]uint64{}
			x.set(env, string(b))
			wv, wn := binary.Uvarint(b)
			if gv, gn := sym.Eval(sv, env), int(int64(sym.Eval(sn, env))); gv != wv || gn != wn {
				t.Fatalf("terms of Uvarint at %x: %d, %d; want %d, %d", b, gv, gn, wv, wn)
			}
		}
	}
}

// chunkReader reads data at most max bytes at a time. Its Read has a twin
// (registered in init) whose count's shadow is a variable per call, so a
// test can tell which calls a model made through the twin.
type chunkReader struct {
	data  []byte
	pos   int
	max   int
	calls int
}

func (r *chunkReader) Read(b []byte) (int, error) {
	if r.pos >= len(r.data) {
		return 0, io.EOF
	}
	n := copy(b[:min(len(b), r.max)], r.data[r.pos:])
	r.pos += n
	return n, nil
}

// chunkVar is the variable of the count of the twin's k-th call.
func chunkVar(k int) uint64 { return 700 + uint64(k) }

func init() {
	RegisterMethod[chunkReader]("Read", nil, readFunc(func(x Any, b V[[]byte]) (int, error, *sym.Expr) {
		r := x.(*chunkReader)
		n, err := r.Read(b.C)
		s := st.b.Var(chunkVar(r.calls), 64)
		r.calls++
		return n, err, s
	}))
}

// TestReadAtLeastModel checks io.ReadFull's and io.ReadAtLeast's model
// against the real functions (counts and errors) on readers that need
// one or several Read calls or end early, and that with a reader whose
// Read has a twin it records the loop's test n < min once per test, true
// before each Read, and returns the sum of the twin's counts as the
// count's shadow. A reader without a twin reads the same, concretely.
func TestReadAtLeastModel(t *testing.T) {
	const site = 7
	tests := []struct {
		name          string
		data          string
		max, buf, min int // chunk size of the reader, len(buf), min (-1: ReadFull)
	}{
		{"one read fills", "abcdef", 8, 4, -1},
		{"two reads", "abcdef", 2, 4, -1},
		{"unexpected EOF", "abc", 2, 4, -1},
		{"EOF at once", "", 2, 4, -1},
		{"short buffer", "abcdef", 8, 2, 3},
		{"at least 1 of 4", "abcdef", 1, 4, 1},
		{"min 0", "abc", 1, 4, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			min := tt.min
			if min < 0 {
				min = tt.buf
			}
			wantBuf := make([]byte, tt.buf)
			wn, werr := io.ReadAtLeast(&chunkReader{data: []byte(tt.data), max: tt.max}, wantBuf, min)

			for _, twin := range []bool{true, false} {
				reset(0)
				var r io.Reader = &chunkReader{data: []byte(tt.data), max: tt.max}
				if !twin {
					r = iotest.OneByteReader(&chunkReader{data: []byte(tt.data), max: tt.max})
				}
				buf := V[[]byte]{C: make([]byte, tt.buf)}
				if twin {
					// A buffer with a shadow of its own (a parser's
					// buffer that held input before).
					buf.S = aggOf(string(buf.C))
				}
				var n int
				var err error
				var ns *sym.Expr
				if tt.min < 0 {
					n, err, ns = IoReadFull(site, r, buf)
				} else {
					n, err, ns = IoReadAtLeast(site, r, buf, V[int]{C: tt.min})
				}
				if (n != wn || err != werr) && (twin || err != werr) {
					t.Fatalf("twin %v: got %d, %v; want %d, %v", twin, n, err, wn, werr)
				}
				if !bytes.Equal(buf.C[:n], wantBuf[:wn]) && twin {
					t.Fatalf("read %q, want %q", buf.C[:n], wantBuf[:wn])
				}
				if !twin {
					if ns != nil || len(st.path) != 0 {
						t.Fatalf("without a twin: shadow %v, %d branches recorded", ns, len(st.path))
					}
					continue
				}
				calls := r.(*chunkReader).calls
				if n == 0 && calls == 0 {
					continue // no Read: nothing symbolic
				}
				// The first test, 0 < min, is constant; after it one
				// per Read: true while n < min, the last one false unless
				// the loop ended on an error with n < min.
				if len(st.path) != calls {
					t.Fatalf("%d loop tests recorded for %d Read calls", len(st.path), calls)
				}
				for k, e := range st.path {
					if e.Site != site {
						t.Fatalf("test %d at site %d", k, e.Site)
					}
					last := k == len(st.path)-1
					if want := !last || n < min; e.Taken != want {
						t.Fatalf("test %d taken %v, want %v", k, e.Taken, want)
					}
				}
				// The counts of the calls, as the twin numbered them,
				// make the shadow evaluate to n.
				env := sym.Env{}
				rr := &chunkReader{data: []byte(tt.data), max: tt.max}
				b := make([]byte, tt.buf)
				got := 0
				for k := 0; k < calls; k++ {
					c, _ := rr.Read(b[got:])
					env[chunkVar(k)] = uint64(c)
					got += c
				}
				if ns == nil || int(sym.Eval(ns, env)) != n {
					t.Fatalf("count's shadow %v gives %d, want %d", ns, sym.Eval(ns, env), n)
				}
			}
		})
	}
}

func testNewReader(s string) *strings.Reader { return strings.NewReader(s) }

// TestNewReaderTwin checks that the reader constructors' models make the
// reader with the library's twin when it has one (strings and bytes
// instrumented), so that the reader's fields keep the content's shadow
// for its methods, and that io.ReadAll still sees through the reader.
func TestNewReaderTwin(t *testing.T) {
	own(t)
	reset(0)
	var got V[string]
	RegisterTwin(testNewReader, func(s V[string]) *strings.Reader {
		got = s
		return strings.NewReader(s.C)
	})
	t.Cleanup(func() { delete(twinsByPC, funcPC(testNewReader)) })
	x := newSymString(100)
	r := StringsNewReader(testNewReader, V[string]{C: "abc", S: x.agg})
	if got.S != x.agg || got.C != "abc" {
		t.Fatalf("the twin got %q with shadow %v, want the model's argument", got.C, got.S)
	}
	if data, err, sh := IoReadAll(r); string(data) != "abc" || err != nil || sh != x.agg {
		t.Fatalf("io.ReadAll of the twin's reader: %q, %v, shadow %v", data, err, sh)
	}
}
