package p

import (
	"fmt"
	"unicode/utf8"
)

// Range loops as the rewrite turns them into loops over the runtime's
// cursors, at the module's language version: closures over the loop's
// variables see one variable per loop before go1.22 and one per iteration
// from go1.22, and the output shows which.

// RangeCapture captures the key and value of ranges over a string, a byte
// slice, a slice of ints and a slice of strings.
func RangeCapture(s string, bs []byte) string {
	var fs []func() string
	for i, r := range s {
		fs = append(fs, func() string { return fmt.Sprint(i, r) })
	}
	for i, c := range bs {
		if c == 'b' {
			continue
		}
		fs = append(fs, func() string { return fmt.Sprint(i, c) })
	}
	xs := []int{len(s), len(bs), 7}
	for _, x := range xs {
		fs = append(fs, func() string { return fmt.Sprint(x) })
	}
	for k, w := range []string{s, string(bs)} {
		fs = append(fs, func() string { return fmt.Sprint(k, len(w)) })
	}
	out := ""
	for _, f := range fs {
		out += f() + ";"
	}
	return out
}

// RangeRunes decodes a string rune by rune, branching on multi-byte
// runes, invalid bytes and surrogate-free three- and four-byte runes.
func RangeRunes(s string, bs []byte) (int, int, string) {
	n, sum, kinds := 0, 0, ""
	for i, r := range s + string(bs) {
		switch {
		case r == utf8.RuneError:
			kinds += "!"
		case r < 0x80:
			kinds += "a"
		case r < 0x800:
			kinds += "2"
		case r >= 0x10000:
			kinds += "4"
		case r == 'é' || r == '日':
			kinds += "="
		default:
			kinds += "3"
		}
		if r > 0x3000 && i > 2 {
			n++
		}
		sum += i * int(r)
	}
	return n, sum, kinds
}

type kv struct{ k, v int }

// RangeAssignForms assigns a range loop's key and value to existing
// variables, to fields, and to a variable whose address is taken, and
// ranges over a slice that the body changes.
func RangeAssignForms(s string, bs []byte) (int, int, rune, kv, string) {
	var i int
	var r rune
	for i, r = range s {
		if r == 'l' {
			break
		}
	}
	var p kv
	for p.k, p.v = range []int{len(s), 2, len(bs)} {
		if p.v > 5 {
			break
		}
	}
	total := 0
	for _, c := range bs {
		q := &c
		*q += 1
		total += int(c)
	}
	xs := []int{1, 2, 3}
	for k, x := range xs {
		if k+1 < len(xs) {
			xs[k+1] = x * 10
		}
		if k == 0 {
			xs = append(xs, 4)
		}
		total += x
	}
	return i, total, r, p, fmt.Sprint(xs)
}

// RangeControl leaves range loops by labels, goto, return from a defer's
// recovery and continue to an outer loop.
func RangeControl(s string, bs []byte) (out string) {
	defer func() {
		if e := recover(); e != nil {
			out += fmt.Sprint(" recovered ", e)
		}
	}()
outer:
	for i, r := range s {
		for j := range bs {
			switch {
			case bs[j] == byte(r):
				out += fmt.Sprint("=", i, j)
				continue outer
			case bs[j] == '!':
				break outer
			}
		}
		if r == 'z' {
			goto done
		}
		out += "."
	}
	for k, c := range bs {
		if c == 0xff {
			panic(k)
		}
	}
done:
	return out + "|"
}

// CopyMake copies strings and byte slices into byte slices made with a
// length from the inputs, into slices of them, and over themselves.
func CopyMake(a int64, s string, bs []byte) (int, int, int, string) {
	buf := make([]byte, int(a%10))
	n := copy(buf, s)
	m := copy(buf[1:], bs)
	k := copy(buf[2:4], buf)
	sum := 0
	for i, c := range buf {
		if c == 'l' {
			sum += i
		}
	}
	if len(buf) > 3 && buf[3] == 'b' {
		sum += 100
	}
	return n, m, k, fmt.Sprint(sum, buf)
}
