package rt

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// TestCRC32Models checks the checksums' terms against hash/crc32 on
// random bytes: at the bytes that ran, at other bytes of the same length
// and at another length whose bytes the aggregate knows, the term is the
// real checksum. A table that is not a polynomial's leaves the result
// concrete.
func TestCRC32Models(t *testing.T) {
	castagnoli := crc32.MakeTable(crc32.Castagnoli)
	koopman := crc32.MakeTable(crc32.Koopman)
	tests := []struct {
		name string
		f    func(p V[[]byte]) (uint32, *sym.Expr)
		want func(p []byte) uint32
	}{
		{"ChecksumIEEE", func(p V[[]byte]) (uint32, *sym.Expr) {
			return Crc32ChecksumIEEE(1, crc32.ChecksumIEEE, p)
		}, crc32.ChecksumIEEE},
		{"Checksum Castagnoli", func(p V[[]byte]) (uint32, *sym.Expr) {
			return Crc32Checksum(1, crc32.Checksum, p, castagnoli)
		}, func(p []byte) uint32 { return crc32.Checksum(p, castagnoli) }},
		{"Update Koopman from 7", func(p V[[]byte]) (uint32, *sym.Expr) {
			return Crc32Update(1, crc32.Update, V[uint32]{C: 7}, koopman, p)
		}, func(p []byte) uint32 { return crc32.Update(7, koopman, p) }},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	draw := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			for range 40 {
				reset(0)
				n := rng.IntN(modelMaxLen + 1)
				agg, set := newSymStringN(100, modelMaxLen)
				b0, b1 := draw(n), draw(n)
				r, s := tt.f(V[[]byte]{C: b0, S: agg})
				if r != tt.want(b0) {
					t.Fatalf("result %#x, want %#x", r, tt.want(b0))
				}
				others := [][]byte{b0, b1}
				if n < modelMaxLen {
					others = append(others, draw(n+1)) // another length the aggregate knows
				}
				for _, b := range others {
					env := sym.Env{}
					set(env, string(b))
					if got := uint32(sym.Eval(s, env)); got != tt.want(b) {
						t.Fatalf("term at %x: %#x, want %#x", b, got, tt.want(b))
					}
				}
			}
		})
	}
	t.Run("not a polynomial's table", func(t *testing.T) {
		own(t)
		reset(0)
		odd := *castagnoli
		odd[3]++
		agg, _ := newSymStringN(100, modelMaxLen)
		p := []byte("abc")
		r, s := Crc32Update(1, crc32.Update, V[uint32]{}, (*crc32.Table)(&odd), V[[]byte]{C: p, S: agg})
		if r != crc32.Update(0, (*crc32.Table)(&odd), p) || s != nil {
			t.Fatalf("got %#x with term %v, want the real result and no term", r, s)
		}
	})
}
