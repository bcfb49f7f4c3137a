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
