package snappy

import (
	"bytes"
	"testing"

	"github.com/golang/snappy"
)

// FuzzDecode runs CheckDecode.
func FuzzDecode(f *testing.F) {
	// snappy.Encode(nil, []byte("hello, hello, hello, world")).
	f.Add([]byte("\x1a\x18hello, 6\a\x00\x10world"))
	f.Add([]byte("\x06\x08abc\x09\x03\x00"))
	f.Fuzz(func(t *testing.T, b []byte) { CheckDecode(b) })
}

// FuzzEncode runs CheckEncode.
func FuzzEncode(f *testing.F) {
	f.Add([]byte("hello, hello, hello, world"))
	f.Add([]byte("abcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabc0123456789"))
	f.Fuzz(func(t *testing.T, b []byte) { CheckEncode(b) })
}

// FuzzReader runs CheckReader.
func FuzzReader(f *testing.F) {
	// What the writer makes of "hello hello hello hello hello hello hello
	// hello": stream identifier, one compressed chunk.
	f.Add([]byte("\xff\x06\x00\x00sNaPpY\x00\x0f\x00\x00\x00\xdd_\xb8/\x14hello \xa2\x06\x00"))
	f.Add([]byte("\xff\x06\x00\x00sNaPpY\xfe\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) { CheckReader(b) })
}

// TestSeeds checks that the constant seeds are what their comments say.
func TestSeeds(t *testing.T) {
	if got := snappy.Encode(nil, []byte("hello, hello, hello, world")); string(got) != "\x1a\x18hello, 6\a\x00\x10world" {
		t.Errorf("block seed: Encode gives %q", got)
	}
	var buf bytes.Buffer
	w := snappy.NewBufferedWriter(&buf)
	w.Write([]byte("hello hello hello hello hello hello hello hello"))
	w.Close()
	if got := buf.String(); got != "\xff\x06\x00\x00sNaPpY\x00\x0f\x00\x00\x00\xdd_\xb8/\x14hello \xa2\x06\x00" {
		t.Errorf("stream seed: the writer gives %q", got)
	}
}
