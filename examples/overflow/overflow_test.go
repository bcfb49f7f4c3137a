package overflow

import (
	"fmt"
	"strings"
	"testing"
)

func FuzzOverflow(f *testing.F) {
	f.Add(int32(10), int32(4))
	f.Add(int32(100), int32(16))
	f.Fuzz(func(t *testing.T, count int32, width int32) {
		FrameSize(count, width)
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

func TestOverflowPlanted(t *testing.T) {
	// 0x55555556 * 3 = 0x1_0000_0002 wraps to 2 in int32.
	expectPanic(t, "sample offset outside frame", func() { FrameSize(0x55555556, 3) })
}

func TestOverflowOrdinary(t *testing.T) {
	cases := []struct{ count, width, want int32 }{
		{10, 4, 56},
		{1, 1, 24},
		{255, 16, 4096},
		{256, 16, -1},
		{0, 4, -1},
		{3, 12, -1},
		{1 << 30, 4, -1}, // wraps to 0: caught by body <= 0
	}
	for _, c := range cases {
		if got := FrameSize(c.count, c.width); got != c.want {
			t.Errorf("FrameSize(%d, %d) = %d; want %d", c.count, c.width, got, c.want)
		}
	}
}
