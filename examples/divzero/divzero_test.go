package divzero

import (
	"fmt"
	"strings"
	"testing"
)

func FuzzDivzero(f *testing.F) {
	f.Add(uint64(1000), uint32(10), uint32(10))
	f.Add(uint64(640*480*200), uint32(640), uint32(480))
	f.Fuzz(func(t *testing.T, total uint64, width uint32, height uint32) {
		MeanLevel(total, width, height)
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

func TestDivzeroPlanted(t *testing.T) {
	// 65536 * 65536 = 2^32 wraps to 0; total 0 passes the range check.
	expectPanic(t, "integer divide by zero", func() { MeanLevel(0, 65536, 65536) })
}

func TestDivzeroOrdinary(t *testing.T) {
	cases := []struct {
		total         uint64
		width, height uint32
		mean          uint64
		class         int
		wantErr       bool
	}{
		{1000, 10, 10, 10, 0, false},
		{640 * 480 * 200, 640, 480, 200, 2, false},
		{100 * 128, 10, 10, 128, 1, false},
		{1000, 0, 10, 0, 0, true},
		{1000, 70000, 10, 0, 0, true},
		{100*255 + 1, 10, 10, 0, 0, true},
		{65536, 65536, 65535, 0, 0, false},
	}
	for _, c := range cases {
		mean, class, err := MeanLevel(c.total, c.width, c.height)
		if mean != c.mean || class != c.class || (err != nil) != c.wantErr {
			t.Errorf("MeanLevel(%d, %d, %d) = %d, %d, %v; want %d, %d, error=%v",
				c.total, c.width, c.height, mean, class, err, c.mean, c.class, c.wantErr)
		}
	}
}
