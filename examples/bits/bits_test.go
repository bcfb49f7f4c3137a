package bits

import (
	"fmt"
	"strings"
	"testing"
)

func FuzzBits(f *testing.F) {
	f.Add(uint32(0x1ABCEBCD)) // popcount, valid check code
	f.Add(uint32(0xF0004BBB)) // reserved opcode, not the sync pattern
	f.Add(uint32(0xDEADBEEF)) // bad check code
	f.Fuzz(func(t *testing.T, word uint32) {
		Decode(word)
	})
}

func expectPanic(t *testing.T, want string, fn func()) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatalf("no panic; want panic containing %q", want)
		}
		if msg := fmt.Sprint(r); !strings.Contains(msg, want) {
			t.Fatalf("panic %q; want it to contain %q", msg, want)
		}
	}()
	fn()
}

func TestBitsPlanted(t *testing.T) {
	// data 0xFC63: opcode 0xF, argument 0b1100_0110_0011, a 12-bit
	// palindrome with six bits set; 0xCA35 is its check code.
	if got := checkCode(0xFC63); got != 0xCA35 {
		t.Fatalf("checkCode(0xFC63) = %#x; want 0xca35", got)
	}
	expectPanic(t, "sync pattern in reserved opcode", func() { Decode(0xFC63CA35) })
}

func TestBitsOrdinary(t *testing.T) {
	cases := []struct {
		word    uint32
		want    int
		wantErr bool
	}{
		{0x1ABCEBCD, 7, false},     // popcount(0xABC)
		{0x204089E9, 6, false},     // log2(0x040)
		{0x301890B8, 8, false},     // lowest set bit of 0x018
		{0x4001ED8C, 0x800, false}, // reverse12(0x001)
		{0x5123DAC8, 0x231, false}, // rotate 0x123 by 4
		{0x6007C94E, 1, false},     // parity(0x007)
		{0x0000A5A5, 0, false},
		{0xF0004BBB, 0, true}, // reserved
		{0x7000DBAB, 0, true}, // unknown opcode
		{0x1ABCEBCE, 0, true}, // bad check code
	}
	for _, c := range cases {
		got, err := Decode(c.word)
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("Decode(%#x) = %d, %v; want %d, error=%v", c.word, got, err, c.want, c.wantErr)
		}
	}
}
