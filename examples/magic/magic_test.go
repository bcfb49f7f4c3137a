package magic

import (
	"fmt"
	"strings"
	"testing"
)

func FuzzMagic(f *testing.F) {
	f.Add(uint32(0x7F454C46), uint16(1))
	f.Add(uint32(0x12345678), uint16(52))
	f.Fuzz(func(t *testing.T, magic uint32, version uint16) {
		Identify(magic, version)
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

func TestMagicPlanted(t *testing.T) {
	expectPanic(t, "magic value reached", func() { Identify(0xCAFEBABE, 0xCAFE) })
	expectPanic(t, "gzip reserved flag bits set", func() { Identify(0x1F8B08E0, 0) })
}

func TestMagicOrdinary(t *testing.T) {
	cases := []struct {
		magic   uint32
		version uint16
		want    string
	}{
		{0x7F454C46, 0, "elf"},
		{0xCAFEBABE, 52, "java class"},
		{0xCAFEBABE, 2, "mach-o fat"},
		{0x1F8B0808, 0, "gzip (named)"},
		{0x425A6839, 0, "bzip2"},
		{0, 0, "unknown"},
	}
	for _, c := range cases {
		if got := Identify(c.magic, c.version); got != c.want {
			t.Errorf("Identify(%#x, %d) = %q; want %q", c.magic, c.version, got, c.want)
		}
	}
}
