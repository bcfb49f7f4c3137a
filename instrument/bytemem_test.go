package instrument

import (
	"regexp"
	"testing"
)

// TestByteMemoryForms checks the rewrite of the forms that put bytes into
// byte slices that are not variables, and of the forms that hand a
// byte slice's bytes on without a variable: each statement must become
// the runtime call that keeps the terms, and the package must
// type-check.
func TestByteMemoryForms(t *testing.T) {
	tests := []struct {
		name string
		body string
		want string // a regular expression the rewritten file matches
	}{
		{"copy into the spare capacity of a field",
			`n := copy(r.buf[len(r.buf):cap(r.buf)], s)
	return n`, `CopyBytesTo\(\d+, _gcl\.SliceBytes\(`},
		{"copy into a callee's result",
			`copy(r.grow(3), s)
	return 0`, `CopyBytesTo\(\d+, _gcl\.Ret\(r\._gcl_grow\(`},
		{"copy into an element",
			`copy(r.bufs[1], b)
	return 0`, `CopyBytesTo\(\d+, r\.bufs\[1\], `},
		{"copy into a variable",
			`x := make([]byte, 4)
	copy(x[1:], s)
	return int(x[0])`, `CopyBytes\(\d+, &_gcl_s_x, x, `},
		{"store into a field's element",
			`r.buf[2] = s[0]
	return 0`, `StoreByteAt\(\d+, r\.buf, `},
		{"constant store into a field's element",
			`r.buf[2] = 0
	return 0`, `StoreByteAt\(\d+, r\.buf, `},
		{"unsafe.String over a byte slice",
			`t := unsafe.String(unsafe.SliceData(r.buf), len(r.buf))
	return len(t)`, `UnsafeString\(_gcl\.LoadByteSlice\(`},
		{"make with a symbolic length and a capacity",
			`x := make([]byte, len(s), len(s)+16)
	return int(x[0])`, `MakeBytesCap\[\[\]byte\]\(\d+, _gcl\.LenString\(`},
		{"a literal with symbolic parts returned by pointer",
			`return len(box(s).buf)`, `_gcl_l\d+ := &rbuf\{buf: _gcl_t\d+\.C\}\s+(//line .*\s+)?_gcl\.StoreByteSlice\(_gcl_t\d+, &_gcl_l\d+\.buf\)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `package u

import "unsafe"

type rbuf struct {
	buf  []byte
	bufs [2][]byte
}

func (r *rbuf) grow(n int) []byte { return r.buf[:n] }

func box(s string) *rbuf { return &rbuf{buf: []byte(s)} }

func F(r *rbuf, s string, b []byte) int {
	_ = unsafe.Sizeof(0)
	` + tt.body + `
}
`
			pkg, res := rewrite(t, src, "F")
			rw := recheck(t, res)
			for _, err := range rw.errs {
				t.Errorf("rewritten package: %v", err)
			}
			out := string(res.Files[pkg.CompiledGoFiles[0]])
			if !regexp.MustCompile(tt.want).MatchString(out) {
				t.Errorf("rewritten file does not match %s:\n%s", tt.want, out)
			}
		})
	}
}
