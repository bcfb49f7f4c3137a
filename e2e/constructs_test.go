package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// constructs holds one target per construct the engine tracks. Each
// panics only behind a branch that random values almost never take and
// that the solver can reach only if the construct is tracked symbolically.
const constructs = `package c

import "errors"

func FloatCmp(x float64) {
	if x > 1e15 && x < 1e15+2 && x != 1e15+1 {
		panic("found")
	}
}

func FloatNaN(x float64) {
	if x != x {
		panic("found")
	}
}

func FloatNegZero(x float64) {
	if x == 0 && 1/x < 0 {
		panic("found")
	}
}

func FloatToInt(x float32) {
	if int32(x) == 12345 && x != 12345 {
		panic("found")
	}
}

func IntToFloat(n int32) {
	if n > 16777216 && float32(n) == 16777216 {
		panic("found")
	}
}

func Wrap8(x int8) {
	if x > 0 && x+100 < 0 {
		panic("found")
	}
}

func UDiv(x uint16) {
	if x/7 == 1234 {
		panic("found")
	}
}

func SRem(x int32) {
	if x%1000 == -999 {
		panic("found")
	}
}

func Shift(x uint32, n uint8) {
	if n > 20 && x<<n == 0x80000000 {
		panic("found")
	}
}

func ShiftOut(x uint64, n uint) {
	if x == 5 && n > 70 && x<<n == 0 && n < 80 {
		panic("found")
	}
}

func Sar(x int16) {
	if x>>3 == -2 {
		panic("found")
	}
}

func SignExt(x int8) {
	if uint32(x) == 0xFFFFFF85 {
		panic("found")
	}
}

func Trunc(x uint32) {
	if uint8(x) == 0xAB && x > 0x1000000 {
		panic("found")
	}
}

func Bits(x uint8) {
	if x&^0x0F == 0xA0 && ^x == 0x5A {
		panic("found")
	}
}

func Logic(a, b int) {
	if (a == 3 || b == 4) && a+b == 100 {
		panic("found")
	}
}

func StrIdx(s string) {
	if len(s) > 3 && s[3] == 'x' && s[0] == 'a' {
		panic("found")
	}
}

func StrSymIdx(s string, i int) {
	if i >= 0 && i < len(s) && s[i] == 'Q' && i == 5 {
		panic("found")
	}
}

func StrEq(s string) {
	if s == "hello" {
		panic("found")
	}
}

func StrLess(s string) {
	if len(s) == 3 && s > "zz" && s < "zzb" {
		panic("found")
	}
}

func Concat(a, b string) {
	if len(a) == 1 && a+b == "abcd" {
		panic("found")
	}
}

func Slice(s string) {
	if len(s) >= 6 && s[2:5] == "key" {
		panic("found")
	}
}

func BytesToStr(b []byte) {
	if string(b) == "ok!" {
		panic("found")
	}
}

func StrToBytes(s string) {
	b := []byte(s)
	if len(b) == 2 && b[1] == 'z' {
		panic("found")
	}
}

func RangeBytes(b []byte) {
	n := 0
	for _, c := range b {
		if c == '!' {
			n++
		}
	}
	if n == 3 {
		panic("found")
	}
}

func RangeString(s string) {
	sum := 0
	for i, r := range s {
		if r == 'a'+rune(i) {
			sum++
		}
	}
	if sum == 4 {
		panic("found")
	}
}

func Switch(s string) int {
	switch s {
	case "one":
		return 1
	case "two", "three":
		if len(s) == 5 {
			panic("found")
		}
	}
	return 0
}

func Tagless(x int) {
	switch {
	case x < 10:
	case x > 1000 && x%7 == 3:
		panic("found")
	}
}

func helper(x int) (int, error) {
	if x < 0 {
		return 0, errors.New("negative")
	}
	return x * 2, nil
}

func Calls(x int) {
	y, err := helper(x)
	if err == nil && y == 4242 {
		panic("found")
	}
}

type acc struct{ n int }

func (a *acc) add(x int) int { return a.n + x }

func Method(x int) {
	a := &acc{n: 5}
	if a.add(x) == 77 {
		panic("found")
	}
}

var lastSeen int

func record(x int) { lastSeen = x }

func Global(x int) {
	record(x * 3)
	if lastSeen == 51 {
		panic("found")
	}
}

func Store(b []byte) {
	if len(b) < 2 {
		return
	}
	b[0] = b[1] + 1
	if b[0] == 'z' {
		panic("found")
	}
}

func OpAssign(x int) {
	y := x
	y += 10
	y *= 3
	y++
	if y == 100 {
		panic("found")
	}
}

func Swap(a, b int) {
	a, b = b, a+1
	if a == 7 && b == 9 {
		panic("found")
	}
}

func Loop(n int) {
	s := 0
	for i := 0; i < n && i < 20; i++ {
		s += i
	}
	if s == 45 {
		panic("found")
	}
}

func DivZero(a, b int) int {
	return a / (b - 17)
}

func Index(b []byte, i int) byte {
	if i > 3 {
		return b[i]
	}
	return 0
}

func SliceBounds(s string, n int) string {
	return s[n:]
}

type Celsius int32

func Named(c Celsius) {
	if c*9/5+32 == 212 {
		panic("found")
	}
}

func Flag(b bool, x int) {
	if b && x == 9 {
		panic("found")
	}
}

func Closure(x int) {
	y := 0
	f := func() { y = x + 1 }
	f()
	if y == 8 {
		panic("found")
	}
}

func Defer(x int) (r int) {
	defer func() {
		if r == 33 {
			panic("found")
		}
	}()
	return x
}

func Return(x uint8) (bool, string) {
	if x == 200 {
		return true, "x"
	}
	return false, ""
}

func UseReturn(x uint8) {
	if ok, s := Return(x); ok && s == "x" {
		panic("found")
	}
}

// RuneString converts a rune and a byte to strings, as a lexer does.
func RuneString(r rune, b byte) {
	if string(r)+string(b) == "é!" {
		panic("found")
	}
}

type qTok struct {
	kind int
	text string
}

type qToks []qTok

func (q *qToks) push(t qTok) { *q = append(*q, t) }

// TokenQueue pushes a token literal per rune through a method and reads
// the second one back, as a lexer's token queue does.
func TokenQueue(s string) {
	var q qToks
	for _, r := range s {
		q.push(qTok{1, string(r)})
	}
	if len(q) >= 2 && q[1].text == "y" {
		panic("found")
	}
}

// ArraySlice stores into an array variable's element and reads it through
// a slice of the array, as strconv's formatBits builds its result.
func ArraySlice(g byte) {
	var a [4]byte
	a[1] = g
	if string(a[1:2]) == "y" {
		panic("found")
	}
}

// BitSet sets the bit of one input position in an array of words and
// tests another's, as regexp's backtracker keeps its visited set.
func BitSet(n, m uint8) {
	var visited [8]uint32
	visited[n/32] |= 1 << (n & 31)
	if m >= 64 && visited[m/32]&(1<<(m&31)) != 0 {
		panic("found")
	}
}

// clsRow is a row of ClassTable's table.
type clsRow struct {
	lo, hi byte
	ok     bool
}

var clsTable = [4]clsRow{{'a', 'f', false}, {'g', 'm', true}, {'n', 't', false}, {'u', 'z', true}}

// ClassTable reads a row of a table of structs at an input byte's class,
// as a lexer does, and compares the other input with its fields.
func ClassTable(b, c byte) {
	r := clsTable[b&3]
	if r.ok && c >= r.lo && c <= r.hi && b > 100 {
		panic("found")
	}
}

// Seen marks an element of a slice at an input index and reads another.
func Seen(a, b uint8) {
	seen := make([]bool, 16)
	seen[a&15] = true
	if b&15 > 8 && seen[b&15] {
		panic("found")
	}
}
`

// TestConstructs runs gocolic on one target per tracked construct and
// checks that the panic behind its hard branch is found.
func TestConstructs(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"c/c.go": constructs})
	tests := []struct {
		fn   string
		want string // substring of the panic message
	}{
		{"Wrap8", "found"}, {"UDiv", "found"}, {"SRem", "found"}, {"Shift", "found"},
		{"ShiftOut", "found"}, {"Sar", "found"}, {"SignExt", "found"}, {"Trunc", "found"},
		{"Bits", "found"}, {"Logic", "found"}, {"StrIdx", "found"}, {"StrSymIdx", "found"},
		{"StrEq", "found"}, {"StrLess", "found"}, {"Concat", "found"}, {"Slice", "found"},
		{"BytesToStr", "found"}, {"StrToBytes", "found"}, {"RangeBytes", "found"},
		{"RangeString", "found"}, {"Switch", "found"}, {"Tagless", "found"}, {"Calls", "found"},
		{"Method", "found"}, {"Global", "found"}, {"Store", "found"}, {"OpAssign", "found"},
		{"Swap", "found"}, {"Loop", "found"}, {"DivZero", "integer divide by zero"},
		{"Index", "index out of range"}, {"SliceBounds", "slice bounds out of range"},
		{"Named", "found"}, {"Flag", "found"}, {"Closure", "found"}, {"Defer", "found"},
		{"UseReturn", "found"}, {"FloatCmp", "found"}, {"FloatNaN", "found"}, {"FloatNegZero", "found"},
		{"FloatToInt", "found"}, {"IntToFloat", "found"}, {"ArraySlice", "found"}, {"RuneString", "found"},
		{"TokenQueue", "found"}, {"BitSet", "found"}, {"Seen", "found"}, {"ClassTable", "found"},
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "r.json")
			res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "60s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-timeout", "10s",
				"-maxbugs", "1", "-notests",
				"-json", js, "./c", tt.fn)
			if res.code != 0 {
				t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
			}
			rep := readReport(t, js)
			if len(rep.Bugs) == 0 || !strings.Contains(rep.Bugs[0].Message, tt.want) {
				t.Errorf("want a bug %q, got %+v\n%s", tt.want, rep.Bugs, res.stderr)
			}
		})
	}
}

// readBuffer fills a buffer the way a streaming tokenizer does (4 KiB read
// after 4 KiB kept, as xmltokenizer's): resliced to its capacity, then
// read into through a reader held in a field, so that the buffer's own
// aggregate, taken while the bytes were still zero, is older than what the
// reader wrote through another slice, and too long to be checked against
// the bytes' cells.
const readBuffer = `package rb

import (
	"bytes"
	"io"
)

type tok struct {
	r   io.Reader
	buf []byte
}

func (t *tok) fill() {
	start := len(t.buf)
	grow := start + 4096
	t.buf = t.buf[:grow:cap(t.buf)]
	n, _ := io.ReadAtLeast(t.r, t.buf[start:grow], 1)
	t.buf = t.buf[:start+n : cap(t.buf)]
}

// Tag panics on a tag named go.
func Tag(b []byte) {
	t := &tok{r: bytes.NewReader(b), buf: make([]byte, 4096, 8192)}
	t.fill()
	for pos := 4096; pos+2 < len(t.buf); pos++ {
		if t.buf[pos] == '<' {
			if name := t.buf[pos+1 : pos+3]; string(name) == "go" {
				panic("found")
			}
		}
	}
}
`

// TestReadBuffer checks that bytes a reader wrote into a buffer keep their
// terms when the buffer is read through a slice taken before the read: the
// scanning index and the slice of a token.
func TestReadBuffer(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"rb/rb.go": readBuffer})
	js := filepath.Join(t.TempDir(), "r.json")
	res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "60s", "-workers", "1", "-seed", "1", "-lanes", "concolic",
		"-maxbugs", "1", "-notests", "-json", js, "./rb", "Tag")
	if res.code != 0 {
		t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
	}
	if rep := readReport(t, js); len(rep.Bugs) == 0 || !strings.Contains(rep.Bugs[0].Message, "found") {
		t.Errorf("want the bug behind the tag, got %+v\n%s", rep.Bugs, res.stderr)
	}
}
