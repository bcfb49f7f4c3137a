package e2e

import (
	"path/filepath"
	"testing"
	"time"
)

// modelTargets panic behind branches on standard-library functions that
// gocolic models: with the models, Z3 alone reaches each panic; without
// them the calls' results were concrete and the branches out of reach.
const modelTargets = `package lm

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

func Atoi(s string) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return
	}
	if n == 4242 {
		panic("found")
	}
}

func ParseInt(s string) {
	if n, err := strconv.ParseInt(s, 10, 16); err == nil && n == -300 {
		panic("found")
	}
}

func Affixes(s string) {
	if strings.HasPrefix(s, "GET ") && strings.HasSuffix(s, "\r\n") && len(s) > 8 {
		panic("found")
	}
}

func Trim(s string) {
	if t := strings.TrimSpace(s); t == "yes" && len(s) > 5 {
		panic("found")
	}
}

func Index(s string) {
	if i := strings.Index(s, "=="); i == 3 && strings.Contains(s, "ok") {
		panic("found")
	}
}

func Fold(s string) {
	if strings.EqualFold(s, "GoLang") && s[0] == 'g' && s[2] == 'L' {
		panic("found")
	}
}

func Bytes(b []byte) {
	if bytes.Contains(b, []byte("xyz")) && bytes.HasPrefix(b, []byte{1}) && bytes.Index(b, []byte("y")) == 4 {
		panic("found")
	}
}

func Varint(b []byte) {
	if v, n := binary.Uvarint(b); n == 3 && v == 300000 {
		panic("found")
	}
}

func ByteOrder(b []byte) {
	if len(b) >= 8 && binary.BigEndian.Uint32(b) == 0xCAFEBABE && binary.LittleEndian.Uint16(b[4:]) == 0x0102 {
		panic("found")
	}
}

func Runes(s string) {
	r, n := utf8.DecodeRuneInString(s)
	if n == 2 && r == 'é' && len(s) == 3 && unicode.IsDigit(rune(s[2])) {
		panic("found")
	}
}

func Runes3(b []byte) {
	if len(b) < 3 {
		return
	}
	if r, n := utf8.DecodeRune(b); n == 3 && r == '€' {
		panic("found")
	}
}

func Runes4(s string) {
	if r, n := utf8.DecodeRuneInString(s); n == 4 && r >= 0x1F600 && r <= 0x1F64F {
		panic("found")
	}
}

func Bits(x uint32) {
	if bits.OnesCount32(x) == 30 && bits.TrailingZeros32(x) == 2 {
		panic("found")
	}
}

func Abs(x float64) {
	if math.Abs(x) == 2.5 && math.Signbit(x) {
		panic("found")
	}
}
`

// TestModels checks that each modelled function lets Z3 alone (-solver
// z3, no opaque calls, no walk) reach the branch behind it.
func TestModels(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"lm/lm.go": modelTargets})
	expectPanics(t, dir, "./lm", []string{"Atoi", "ParseInt", "Affixes", "Trim", "Index", "Fold", "Bytes", "Varint", "ByteOrder", "Runes", "Runes3", "Runes4", "Bits", "Abs"})
}

// expectPanics runs gocolic with Z3 alone on each function of pkg in dir
// and checks that it finds the panic "found". The solver's time limit is
// raised from its default: these tests ask whether Z3 can reach a branch,
// and a float query that took a second here ran out of the default two
// seconds on a busy CI host.
func expectPanics(t *testing.T, dir, pkg string, fns []string) {
	t.Helper()
	for _, fn := range fns {
		t.Run(fn, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "r.json")
			res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "30s", "-workers", "1", "-seed", "1", "-lanes", "concolic",
				"-maxbugs", "1", "-notests", "-minimizetime", "0", "-solver", "z3", "-solver-timeout", "20s", "-json", js, pkg, fn)
			if res.code != 0 {
				t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
			}
			rep := readReport(t, js)
			if len(rep.Bugs) == 0 || rep.Bugs[0].Message != "found" {
				t.Errorf("panic not found (bugs %+v)\n%s", rep.Bugs, res.stderr)
			}
		})
	}
}

// resultModelTargets panic behind branches on the results of modelled
// functions that return strings and slices: the rendering of an integer,
// and the elements and length of a split string.
const resultModelTargets = `package lr

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"strconv"
	"strings"
)

func Itoa(x int) {
	if strconv.Itoa(x) == "1234" {
		panic("found")
	}
}

func FormatInt(x int64) {
	if s := strconv.FormatInt(x, 10); len(s) == 6 && s[0] == '-' && s[5] == '7' {
		panic("found")
	}
}

func Split(s string) {
	parts := strings.Split(s, ",")
	if len(parts) == 3 && parts[1] == "magic" {
		panic("found")
	}
}

func SplitN(s string) {
	kv := strings.SplitN(s, "=", 2)
	if len(kv) == 2 && kv[0] == "key" && strings.HasPrefix(kv[1], "v=") {
		panic("found")
	}
}

func SplitRange(s string) {
	n := 0
	for _, f := range strings.Split(s, " ") {
		if f == "go" {
			n++
		}
	}
	if n == 3 {
		panic("found")
	}
}

func BytesSplit(b []byte) {
	parts := bytes.Split(b, []byte{';'})
	if len(parts) == 2 && bytes.Equal(parts[1], []byte("ok")) && len(parts[0]) == 1 {
		panic("found")
	}
}

func ReadAll(s string) {
	data, err := io.ReadAll(strings.NewReader(s))
	if err == nil && string(data) == "toml" {
		panic("found")
	}
}

func ReadAllBytes(b []byte) {
	r := bytes.NewReader(b)
	data, _ := io.ReadAll(r)
	if len(data) == 3 && data[2] == 'z' {
		panic("found")
	}
}

type chunked struct {
	r   io.Reader
	buf []byte
}

func ReadFull(b []byte) {
	// The header is read with io.ReadFull, as framed formats do; the
	// bytes reach buf through the reader's instrumented Read.
	c := &chunked{r: bytes.NewReader(b), buf: make([]byte, 8)}
	if _, err := io.ReadFull(c.r, c.buf[:4]); err != nil {
		return
	}
	if c.buf[0] == 0xff && c.buf[3] == 's' {
		panic("found")
	}
}

func ReaderRead(s string) {
	r := strings.NewReader(s)
	var two [2]byte
	if n, _ := r.Read(two[:]); n == 2 && two[1] == '!' {
		panic("found")
	}
}

func CRCFrame(b []byte) {
	// A frame: the CRC-32 of the four bytes after it, then those bytes,
	// as framed formats check their chunks.
	if len(b) == 8 && binary.LittleEndian.Uint32(b) == crc32.ChecksumIEEE(b[4:]) && b[4] == 'x' {
		panic("found")
	}
}

func Replace(s string) {
	t := strings.ReplaceAll(s, "\u2212", "-")
	if t == "-4.25" {
		panic("found")
	}
}

func ReplaceHas(s string) {
	// Found only by the branch the model records: s must contain ",,".
	if strings.Replace(s, ",,", ",", -1) != s && len(s) == 5 && s[0] == 'q' {
		panic("found")
	}
}
`

// TestResultModels checks that Z3 alone reaches the branches on what the
// models of Itoa, FormatInt, Split, SplitN, bytes.Split and ReplaceAll
// return, the branch the Replace model records, the bytes io.ReadAll
// reads from a strings or bytes reader, and the bytes a reader's own Read
// and io.ReadFull over it read, and a CRC-32 checksum of input bytes.
func TestResultModels(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"lr/lr.go": resultModelTargets})
	expectPanics(t, dir, "./lr", []string{"Itoa", "FormatInt", "Split", "SplitN", "SplitRange", "BytesSplit", "ReadAll", "ReadAllBytes", "ReadFull", "ReaderRead", "CRCFrame", "Replace", "ReplaceHas"})
}
