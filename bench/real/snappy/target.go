// Package snappy holds native fuzz targets (in its test files) of
// github.com/golang/snappy: block and stream encoding and decoding.
package snappy

import (
	"bytes"
	"io"

	"github.com/golang/snappy"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/golang/snappy"

// GocolicTags are the build tags gocolic builds the package with: snappy
// decodes and encodes in assembly on amd64 and arm64, which the
// instrumenter cannot see into; "noasm" selects its pure-Go version. Go's
// fuzzer and the coverage replay build the package as shipped.
const GocolicTags = "noasm"

// CheckDecode decodes the block b. A block that decodes must have the
// length its header announces, and its contents must survive encoding and
// decoding again.
func CheckDecode(b []byte) {
	n, lerr := snappy.DecodedLen(b)
	if lerr != nil || n > 1<<20 {
		return
	}
	d, err := snappy.Decode(nil, b)
	if err != nil {
		return
	}
	if len(d) != n {
		prop.Failf("Decode(%x) gave %d bytes, DecodedLen says %d", b, len(d), n)
	}
	again, err := snappy.Decode(nil, snappy.Encode(nil, d))
	if err != nil || !bytes.Equal(again, d) {
		prop.Failf("round trip of %x: %x, %v", d, again, err)
	}
}

// CheckEncode encodes b as a block: the block must be no longer than
// MaxEncodedLen says, announce len(b) as its decoded length, and decode
// to b.
func CheckEncode(b []byte) {
	enc := snappy.Encode(nil, b)
	if m := snappy.MaxEncodedLen(len(b)); m < 0 || len(enc) > m {
		prop.Failf("Encode(%x) = %d bytes, MaxEncodedLen = %d", b, len(enc), m)
	}
	if n, err := snappy.DecodedLen(enc); err != nil || n != len(b) {
		prop.Failf("DecodedLen(Encode(%x)) = %d, %v", b, n, err)
	}
	if d, err := snappy.Decode(nil, enc); err != nil || !bytes.Equal(d, b) {
		prop.Failf("Decode(Encode(%x)) = %x, %v", b, d, err)
	}
}

// CheckReader reads b in the framing (stream) format: stream identifier,
// compressed and uncompressed chunks with masked CRC-32C checksums,
// padding and skippable chunks. What it reads must survive the writer and
// the reader again.
func CheckReader(b []byte) {
	r := snappy.NewReader(bytes.NewReader(b))
	out, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return
	}
	var buf bytes.Buffer
	w := snappy.NewBufferedWriter(&buf)
	if _, err := w.Write(out); err != nil {
		prop.Failf("Writer.Write: %v", err)
	}
	if err := w.Close(); err != nil {
		prop.Failf("Writer.Close: %v", err)
	}
	again, err := io.ReadAll(snappy.NewReader(&buf))
	if err != nil || !bytes.Equal(again, out) {
		prop.Failf("stream round trip of %x: %x, %v", out, again, err)
	}
}
