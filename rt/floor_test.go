package rt

import (
	"bytes"
	"encoding/binary"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestPipeReader checks that the buffered reader gives the bytes of its
// source, whatever the sizes of the source's reads and of its own.
func TestPipeReader(t *testing.T) {
	data := strings.Repeat("0123456789abcdef", 10000) // larger than the buffer
	for _, tc := range []struct {
		name  string
		src   func() io.Reader
		chunk int
	}{
		{"header-sized", func() io.Reader { return strings.NewReader(data) }, 4},
		{"one byte source", func() io.Reader { return iotest.OneByteReader(strings.NewReader(data)) }, 7},
		{"half reads", func() io.Reader { return iotest.HalfReader(strings.NewReader(data)) }, 1000},
		{"larger than buffer", func() io.Reader { return strings.NewReader(data) }, 100 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newPipeReader(tc.src())
			var got bytes.Buffer
			buf := make([]byte, tc.chunk)
			for {
				n, err := io.ReadFull(r, buf)
				got.Write(buf[:n])
				if err != nil {
					break
				}
			}
			if got.String() != data {
				t.Errorf("read %d bytes, differing from the %d written", got.Len(), len(data))
			}
		})
	}
}

// TestFloorHelpers checks the hand-written byte orders, stack and
// substring test against the standard packages they stand for.
func TestFloorHelpers(t *testing.T) {
	p := []byte{1, 2, 3, 4, 5, 6, 7, 0xf8}
	if got, want := readOrder[uint16](true)(p), binary.BigEndian.Uint16(p); got != want {
		t.Errorf("big-endian uint16 = %#x, want %#x", got, want)
	}
	if got, want := readOrder[uint64](true)(p), binary.BigEndian.Uint64(p); got != want {
		t.Errorf("big-endian uint64 = %#x, want %#x", got, want)
	}
	if got, want := readOrder[uint32](false)(p), binary.LittleEndian.Uint32(p); got != want {
		t.Errorf("little-endian uint32 = %#x, want %#x", got, want)
	}
	var hdr [4]byte
	putUint32LE(hdr[:], 0xdeadbeef)
	if got := uint32LE(hdr[:]); got != 0xdeadbeef || binary.LittleEndian.Uint32(hdr[:]) != 0xdeadbeef {
		t.Errorf("message header round trip = %#x", got)
	}
	for _, c := range []struct{ s, sub string }{{"abc", ""}, {"abc", "bc"}, {"abc", "cd"}, {"", "a"}, {"aab", "ab"}} {
		if got, want := containsStr(c.s, c.sub), strings.Contains(c.s, c.sub); got != want {
			t.Errorf("containsStr(%q, %q) = %v, want %v", c.s, c.sub, got, want)
		}
	}
	if got, want := containsAnyByte("1e5", ".eE"), true; got != want {
		t.Errorf("containsAnyByte = %v", got)
	}
	if containsAnyByte("15", ".eE") {
		t.Error("containsAnyByte(15) = true")
	}
	if s := string(goroutineStack()); !strings.Contains(s, "TestFloorHelpers") {
		t.Errorf("goroutineStack does not name the caller:\n%s", s)
	}
}
