package simplewhile

import (
	"bytes"
	"testing"
)

func TestGoal(t *testing.T) {
	witness := bytes.Repeat([]byte{4}, iterations)
	witness[6] = 9
	allFours := bytes.Repeat([]byte{4}, iterations)
	for _, tt := range []struct {
		name string
		in   []byte
		want int
	}{
		{"the goal's input", witness, 1},
		{"the seventh is 4 too", allFours, 0},
		{"zero values", nil, 0},
		{"too short", witness[:iterations-1], 0},
	} {
		if got := Goal(tt.in); got != tt.want {
			t.Errorf("%s: Goal(%v) = %d, want %d", tt.name, tt.in, got, tt.want)
		}
	}
}
