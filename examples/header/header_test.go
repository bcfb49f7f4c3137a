package header

import (
	"fmt"
	"strings"
	"testing"
)

func FuzzHeader(f *testing.F) {
	f.Add([]byte("GC\x01\x00\x00\x03\x0a\x00\x34\x98abc"))
	f.Add([]byte("GC\x02\x01\x00\x00\x0e\x00\x09\x76\x07\x02hi"))
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, pkt []byte) {
		PayloadLen(pkt)
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

func TestHeaderPlanted(t *testing.T) {
	// Version 2, options flag, payload length 0, header length 11, checksum
	// 0xd59d: the option area is the single byte 0x05, an option type with
	// no length byte after it.
	expectPanic(t, "index out of range", func() {
		PayloadLen([]byte("GC\x02\x01\x00\x00\x0b\x00\xd5\x9d\x05"))
	})
}

func TestHeaderOrdinary(t *testing.T) {
	cases := []struct {
		pkt     string
		want    int
		wantErr bool
	}{
		{"GC\x01\x00\x00\x03\x0a\x00\x34\x98abc", 3, false},
		{"GC\x01\x02\x00\x01\x0a\x00\x38\x98!", 1, false},
		{"GC\x02\x01\x00\x00\x0e\x00\x09\x76\x07\x02hi", 0, false},
		{"GC\x02\x01\x00\x00\x0e\x00\x09\x77\x07\x02hi", 0, true}, // checksum
		{"GC\x02\x01\x00\x00\x0c\x00\x6d\x99\x00\x00", 0, true},   // no options
		{"GC\x02\x01\x00\x00\x0c\x00\x80\xa5\x07\x05", 0, true},   // overrun
		{"GC\x01\x01\x00\x00\x0a\x00\x30\x96", 0, true},           // v1 options
		{"GC\x01\x00\x00\x05\x0a\x00\x3a\x9aabc", 0, true},        // length mismatch
		{"XC\x01\x00\x00\x00\x0a\x00\x00\x00", 0, true},
		{"GC\x03", 0, true},
	}
	for _, c := range cases {
		got, err := PayloadLen([]byte(c.pkt))
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("PayloadLen(%q) = %d, %v; want %d, error=%v", c.pkt, got, err, c.want, c.wantErr)
		}
	}
}
