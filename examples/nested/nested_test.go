package nested

import (
	"fmt"
	"strings"
	"testing"
)

func FuzzNested(f *testing.F) {
	f.Add(10000, 3, true, 2, uint32(0))
	f.Add(2500, 60, false, 0, uint32(0xC0FFEE))
	f.Fuzz(func(t *testing.T, cents int, items int, member bool, years int, coupon uint32) {
		Price(cents, items, member, years, coupon)
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

func TestNestedPlanted(t *testing.T) {
	// 5 (member) + 10 + 10 (20 years) + 10 + 15 (500 items) + 50 (partner) = 100%.
	expectPanic(t, "discounts add up to the whole price", func() {
		Price(1000, 500, true, 20, 0x5AFE2025)
	})
}

func TestNestedOrdinary(t *testing.T) {
	cases := []struct {
		cents, items int
		member       bool
		years        int
		coupon       uint32
		want         int
		wantErr      bool
	}{
		{10000, 3, true, 2, 0, 9500, false},
		{10000, 3, false, 0, 0, 10000, false},
		{10000, 600, true, 25, 0, 5000, false},
		{10000, 600, true, 4, 0x5AFE2025, 2000, false},
		{10000, 1, true, 0, 0xC0FFEE, 8000, false},
		{2500, 60, false, 0, 0xC0FFEE, 2250, false},
		{0, 1, false, 0, 0, 0, true},
		{100, 1, false, 3, 0, 0, true},
	}
	for _, c := range cases {
		got, err := Price(c.cents, c.items, c.member, c.years, c.coupon)
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("Price(%d, %d, %v, %d, %#x) = %d, %v; want %d, error=%v",
				c.cents, c.items, c.member, c.years, c.coupon, got, err, c.want, c.wantErr)
		}
	}
}
