package branches

import "testing"

// counted returns y followed by the helper's inputs 0…4 and then values
// that never equal 5: a count of exactly 5.
func counted(y byte) []byte {
	in := []byte{y, 0, 1, 2, 3, 4}
	for len(in) < 1+reads {
		in = append(in, 100)
	}
	return in
}

func TestRun(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   []byte
		want int
	}{
		{"goal one", counted(15), 1},
		{"goal two", counted(25), 2},
		{"count 5, y too small", counted(10), 0},
		{"zero values: count 1", nil, 0},
		{"negative y", counted(0xf0), 0},
	} {
		if got := Run(tt.in); got != tt.want {
			t.Errorf("%s: Run(%v) = %d, want %d", tt.name, tt.in, got, tt.want)
		}
	}
}
