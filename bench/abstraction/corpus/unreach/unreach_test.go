package unreach

import (
	"math/rand/v2"
	"testing"
)

func TestRun(t *testing.T) {
	counting := make([]byte, 5*reads)
	for k := range counting[:reads] {
		counting[k] = byte(k) // the first call counts all 30
	}
	for _, tt := range []struct {
		name string
		in   []byte
		want int
	}{
		{"zero values", nil, 1},
		{"a count of 30", counting, 1},
	} {
		if got := Run(tt.in); got != tt.want {
			t.Errorf("%s: Run = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestNeverNegative samples inputs: the unreachable goal stays unreached
// (a check of the program, not a proof).
func TestNeverNegative(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		in := make([]byte, r.IntN(5*reads+1))
		for k := range in {
			in[k] = byte(r.IntN(8)) // small values match the counts often
		}
		if Run(in) < 0 {
			t.Fatalf("Run(%v) reached the unreachable goal", in)
		}
	}
}
