package sym

import (
	"encoding/binary"
	"hash/fnv"
	"testing"
)

// TestUvarintMatchesBinary checks the hand-written varints against
// encoding/binary on boundaries, short input and overflow.
func TestUvarintMatchesBinary(t *testing.T) {
	values := []uint64{0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 1<<32 - 1, 1 << 35, 1<<63 - 1, 1 << 63, ^uint64(0)}
	for _, v := range values {
		got := AppendUvarint([]byte{9}, v)
		want := binary.AppendUvarint([]byte{9}, v)
		if string(got) != string(want) {
			t.Errorf("AppendUvarint(%d) = %x, want %x", v, got, want)
		}
	}
	inputs := [][]byte{
		nil, {0x80}, {0x01}, {0xff, 0x7f}, {0x80, 0x80},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		{0x81, 0x00, 0x05},
	}
	for _, in := range inputs {
		v, n := Uvarint(in)
		wv, wn := binary.Uvarint(in)
		if v != wv || n != wn {
			t.Errorf("Uvarint(%x) = %d, %d, want %d, %d", in, v, n, wv, wn)
		}
	}
}

// TestFuncIDIsFNV1a checks that FuncID, written out by hand, is still the
// 32-bit FNV-1a hash it has always been: function numbers of one build
// must agree between instrumented packages and the coordinator.
func TestFuncIDIsFNV1a(t *testing.T) {
	for _, name := range []string{"", "math.Sin", "hash/crc32.ChecksumIEEE", "p.(*T).M"} {
		h := fnv.New32a()
		h.Write([]byte(name))
		if got, want := FuncID(name), uint64(h.Sum32()); got != want {
			t.Errorf("FuncID(%q) = %#x, want %#x", name, got, want)
		}
	}
}
