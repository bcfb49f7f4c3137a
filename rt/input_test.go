package rt

import (
	"bytes"
	"testing"
)

// TestEncodeDecodeInput checks that DecodeInput inverts EncodeInput on
// every parameter kind, with the values reduced as the layout holds them:
// integers to their width, booleans to a bit, byte values cut at maxLen.
func TestEncodeDecodeInput(t *testing.T) {
	ps := []Param{
		{Name: "a", Kind: ParamInt, Width: 8, Signed: true},
		{Name: "f", Kind: ParamBool},
		{Name: "s", Kind: ParamString},
		{Name: "x", Kind: ParamFloat, Width: 32},
		{Name: "b", Kind: ParamBytes},
		{Name: "u", Kind: ParamInt, Width: 64},
	}
	in := []Arg{{Bits: 0x1ff}, {Bits: 3}, {Bytes: []byte("hello world")}, {Bits: 0xdead_3f80_0000}, {Bytes: []byte{0, 255}}, {Bits: 1 << 63}}
	want := []Arg{{Bits: 0xff}, {Bits: 1}, {Bytes: []byte("hell")}, {Bits: 0x3f80_0000}, {Bytes: []byte{0, 255}}, {Bits: 1 << 63}}
	env := EncodeInput(ps, 4, in)
	// 14 variables in all; every one is set but the two unused bytes of b.
	if n := len(env); n != 12 || Layout(ps, 4)[len(ps)] != 14 {
		t.Errorf("%d variables set: %v", n, env)
	}
	got := DecodeInput(ps, 4, env)
	for i := range want {
		if got[i].Bits != want[i].Bits || !bytes.Equal(got[i].Bytes, want[i].Bytes) {
			t.Errorf("parameter %s: decoded %#x %q, want %#x %q", ps[i].Name, got[i].Bits, got[i].Bytes, want[i].Bits, want[i].Bytes)
		}
	}
	// Variables beyond a string's length are not part of it.
	env[uint64(Layout(ps, 4)[4])+2] = 'z'
	env[uint64(Layout(ps, 4)[4])] = 1
	if b := DecodeInput(ps, 4, env)[4].Bytes; !bytes.Equal(b, []byte{0}) {
		t.Errorf("a 1-byte value decodes to %q", b)
	}
}
