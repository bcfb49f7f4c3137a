package checksum

import (
	"fmt"
	"strings"
	"testing"
)

func FuzzChecksum(f *testing.F) {
	f.Add([]byte("P\x01\xae\x00\xdb"))      // valid ping
	f.Add([]byte("Ehello\x0b\xda\x02\xe4")) // valid echo
	f.Add([]byte("\x90\x00\x00\x00\x00"))   // reserved command, bad checksum
	f.Fuzz(func(t *testing.T, frame []byte) {
		Handle(frame)
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

func TestChecksumPlanted(t *testing.T) {
	// Command 0x80, no payload. Over "GC\x80": a = 1+0x47+0x43+0x80 = 0x10b,
	// b = 0x48+0x8b+0x10b = 0x1de, so the checksum is 0x01de010b.
	expectPanic(t, "reserved command with valid checksum", func() {
		Handle([]byte{0x80, 0x01, 0xde, 0x01, 0x0b})
	})
}

func TestChecksumOrdinary(t *testing.T) {
	if got := adler32("", []byte("Wikipedia")); got != 0x11E60398 {
		t.Fatalf("adler32(Wikipedia) = %#x; want 0x11e60398", got)
	}
	cases := []struct {
		frame   string
		want    int
		wantErr bool
	}{
		{"P\x01\xae\x00\xdb", 0, false},
		{"Ehello\x0b\xda\x02\xe4", 5, false},
		{"Ehello\x0b\xda\x02\xe5", 0, true},
		{"Snums\x09\x8d\x02\xa1", 'n' + 'u' + 'm' + 's', false},
		{"Rnow\x06\xe6\x02\x31", -1, false},
		{"\x90\x00\x00\x00\x00", 0, true},
		{"P\x00", 0, true},
	}
	for _, c := range cases {
		got, err := Handle([]byte(c.frame))
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("Handle(%q) = %d, %v; want %d, error=%v", c.frame, got, err, c.want, c.wantErr)
		}
	}
}
