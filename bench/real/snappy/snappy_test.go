package snappy

import (
	"bytes"
	"io"
	"testing"

	"github.com/golang/snappy"
)

// FuzzDecode decodes a block. A block that decodes must have the length
// its header announces, and its contents must survive encoding and
// decoding again.
func FuzzDecode(f *testing.F) {
	// snappy.Encode(nil, []byte("hello, hello, hello, world")).
	f.Add([]byte("\x1a\x18hello, 6\a\x00\x10world"))
	f.Add([]byte("\x06\x08abc\x09\x03\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, lerr := snappy.DecodedLen(b)
		if lerr != nil || n > 1<<20 {
			return
		}
		d, err := snappy.Decode(nil, b)
		if err != nil {
			return
		}
		if len(d) != n {
			t.Fatalf("Decode(%x) gave %d bytes, DecodedLen says %d", b, len(d), n)
		}
		again, err := snappy.Decode(nil, snappy.Encode(nil, d))
		if err != nil || !bytes.Equal(again, d) {
			t.Fatalf("round trip of %x: %x, %v", d, again, err)
		}
	})
}

// FuzzReader reads the framing (stream) format: stream identifier,
// compressed and uncompressed chunks with masked CRC-32C checksums,
// padding and skippable chunks.
func FuzzReader(f *testing.F) {
	// What the writer makes of "hello hello hello hello hello hello hello
	// hello": stream identifier, one compressed chunk.
	f.Add([]byte("\xff\x06\x00\x00sNaPpY\x00\x0f\x00\x00\x00\xdd_\xb8/\x14hello \xa2\x06\x00"))
	f.Add([]byte("\xff\x06\x00\x00sNaPpY\xfe\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := snappy.NewReader(bytes.NewReader(b))
		out, err := io.ReadAll(io.LimitReader(r, 1<<20))
		if err != nil {
			return
		}
		// What was read must survive the writer and the reader again.
		var buf bytes.Buffer
		w := snappy.NewBufferedWriter(&buf)
		if _, err := w.Write(out); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		again, err := io.ReadAll(snappy.NewReader(&buf))
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("stream round trip of %x: %x, %v", out, again, err)
		}
	})
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
