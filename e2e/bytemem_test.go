package e2e

import "testing"

// byteMemoryTargets panic behind branches on bytes and strings that reach
// the branch through places that are not variables, as decoders and
// parsers keep them: a read buffer filled by copy into its spare capacity
// or into a callee's result, a field's elements, a strings.Builder (whose
// String is unsafe.String over its bytes), a multi-value assignment to a
// field, and a literal returned by pointer.
const byteMemoryTargets = `package bm

import "strings"

type parser struct {
	input  []byte
	pos    int
	buffer []byte
	raw    []byte
	scheme string
}

func (p *parser) grow(n int) []byte {
	if cap(p.raw)-len(p.raw) < n {
		nb := make([]byte, len(p.raw), len(p.raw)+n+16)
		copy(nb, p.raw)
		p.raw = nb
	}
	l := len(p.raw)
	p.raw = p.raw[:l+n]
	return p.raw[l:]
}

func Spare(in []byte) {
	p := &parser{input: in, buffer: make([]byte, 0, 64)}
	n := copy(p.buffer[len(p.buffer):cap(p.buffer)], p.input[p.pos:])
	p.buffer = p.buffer[:n]
	if len(p.buffer) > 2 && p.buffer[p.pos] == 'k' && p.buffer[2] == 'y' {
		panic("found")
	}
}

func Grow(in []byte) {
	p := &parser{}
	copy(p.grow(len(in)), in)
	if len(p.raw) > 1 && p.raw[0] == 'a' && p.raw[1] == 'b' {
		panic("found")
	}
}

func Elems(in []byte) {
	p := &parser{buffer: make([]byte, 8)}
	for i := 0; i < len(in) && i < 8; i++ {
		p.buffer[i] = in[i] + 1
	}
	if p.buffer[0] == 'z' && p.buffer[1] == 'a' {
		panic("found")
	}
}

func Builder(s string) {
	var b strings.Builder
	b.WriteString(s)
	b.WriteString("!")
	if b.String() == "xyz!" {
		panic("found")
	}
}

func split(s string) (string, string, error) {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return s[:i], s[i+1:], nil
		}
	}
	return "", s, nil
}

func newParser(s string) *parser { return &parser{input: []byte(s)} }

func Scheme(s string) {
	p := newParser(s)
	var rest string
	var err error
	if p.scheme, rest, err = split(string(p.input)); err != nil {
		return
	}
	if p.scheme == "ab" && rest == "c" {
		panic("found")
	}
}
`

// TestByteMemory checks that the search reaches branches on bytes and
// strings kept in places that are not variables.
func TestByteMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"bm/bm.go": byteMemoryTargets})
	expectPanics(t, dir, "./bm", []string{"Spare", "Grow", "Elems", "Builder", "Scheme"})
}
