package p

import "unsafe"

// Byte slices that are not variables: read buffers filled by copy, string
// builders over a byte slice, and literals returned with their parts.

// rbuf is a read buffer filled by copy, as decoders keep one.
type rbuf struct {
	in   []byte
	buf  []byte
	pos  int
	bufs [2][]byte
}

// grow extends r.buf by n bytes and returns them.
func (r *rbuf) grow(n int) []byte {
	if cap(r.buf)-len(r.buf) < n {
		nb := make([]byte, len(r.buf), len(r.buf)+n+2)
		copy(nb, r.buf)
		r.buf = nb
	}
	l := len(r.buf)
	r.buf = r.buf[:l+n]
	return r.buf[l:]
}

// CopyInto copies the inputs into byte slices that are not variables: the
// spare capacity of a field, a callee's result, an element, a field moved
// over itself, and stores bytes into a field's elements (one past its
// end when a is 7), then branches on what it reads back.
func CopyInto(a int64, s string, bs []byte) (int, string) {
	r := &rbuf{in: bs, buf: make([]byte, 0, 4)}
	n := copy(r.buf[len(r.buf):cap(r.buf)], r.in[r.pos:])
	r.buf = r.buf[:n]
	score := n
	if len(r.buf) > 1 && r.buf[r.pos] == 'a' {
		score += 10
	}
	copy(r.grow(len(s)), s)
	if len(r.buf) > 2 && r.buf[len(r.buf)-1] == 'o' {
		score += 100
	}
	r.bufs[1] = make([]byte, 3)
	copy(r.bufs[a&1], s)
	if r.bufs[1][0] == 'h' {
		score += 1000
	}
	if len(r.buf) > 1 {
		copy(r.buf, r.buf[1:])
		r.buf = r.buf[:len(r.buf)-1]
	}
	for i := 0; i < len(s) && i < 3; i++ {
		r.bufs[1][i] = s[i] + 1
	}
	if int(a) == 7 {
		r.bufs[1][3] = 'x'
	}
	if len(r.buf) > 0 && r.buf[0] == r.bufs[1][0] {
		score += 10000
	}
	copy(r.buf, "zz")
	if len(r.buf) > 0 && r.buf[0] == 'z' {
		score++
	}
	return score, string(r.buf) + "|" + string(r.bufs[1])
}

// sbuild is a string builder over a byte slice, as strings.Builder is.
type sbuild struct{ buf []byte }

func (b *sbuild) add(s string) { b.buf = append(b.buf, s...) }

func (b *sbuild) String() string { return unsafe.String(unsafe.SliceData(b.buf), len(b.buf)) }

// boxed is returned by newBoxed as a literal with symbolic parts.
type boxed struct {
	s string
	n int
	b []byte
}

func newBoxed(s string, n int) (*boxed, error) {
	return &boxed{s: s, n: n * 2, b: []byte(s)}, nil
}

// BuildBox builds a string over a byte slice with unsafe.String and
// returns parts of it in a literal, then branches on both.
func BuildBox(a int64, s string, bs []byte) (string, int, string) {
	var b sbuild
	b.add(s)
	b.add(string(bs))
	out := b.String()
	bx, err := newBoxed(out, int(a%100))
	if err != nil {
		return "", 0, ""
	}
	score := 0
	if bx.n > 10 {
		score++
	}
	if len(bx.b) > 2 && bx.b[1] == 'b' {
		score += 10
	}
	if bx.s == "abcabd" {
		score += 100
	}
	return out, score, bx.s
}

// Slices3 views s as bytes with unsafe.Slice (all of it, and a prefix),
// takes three-index slices of byte slices at bounds from the inputs
// (panicking past a bound for some rows), and branches on what it reads.
// It has one result, so that the worker's Run calls its twin.
func Slices3(a, b int64, s string, bs []byte) string {
	score := 0
	v := unsafe.Slice(unsafe.StringData(s), len(s))
	if len(v) > 1 && v[1] == 'b' {
		score++
	}
	w := unsafe.Slice(unsafe.StringData(s), min(len(s), int(b&3)))
	if len(w) == 2 && w[0] == 'a' {
		score += 2
	}
	t := bs[:len(bs):len(bs)]
	if len(t) > 2 && t[2] == 'c' {
		score += 4
	}
	buf := make([]byte, 8, 12)
	copy(buf, s)
	u := buf[int(a&3) : int(b&7)+1 : int(b&7)+1+int(a&3)]
	if len(u) == 3 && u[0] == 'h' {
		score += 8
	}
	x := buf[:int(a%16):int(b%16)]
	if cap(x) > 5 && len(x) < 3 {
		score += 16
	}
	return string(rune('A'+score)) + "|" + string(u) + "|" + string(w) + "|" + string(x)
}
