package instrument

import "testing"

// TestSliceForms checks the rewrite of slice expressions and of the
// zero-copy view of a string as bytes: a three-index slice of a byte
// slice becomes rt.SliceBytes3 (bounds checked, length and bytes kept),
// unsafe.Slice(unsafe.StringData(s), n) becomes rt.UnsafeBytes, and a
// slice the runtime does not track (of an array, of a slice other than a
// byte slice) counts its symbolic bounds (CauseIndex) instead of dropping
// them silently.
func TestSliceForms(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string // regular expressions the rewritten file matches
		not  []string // regular expressions it must not match
	}{
		{"three-index slice of a variable", `buf := make([]byte, 64)
	c := buf[:n:64]
	return len(c)`, []string{`_gcl\.SliceBytes3\(\d+, _gcl\.Mk\(buf, _gcl_s_buf\), _gcl\.Mk\(0, nil\), _gcl\.Mk\(n, _gcl_s_n\), _gcl\.Mk\[int\]\(64, nil\)\)`},
			[]string{`buf\[:n:64\]`}},
		{"three-index slice of a field", `r.buf = r.buf[:n+1 : cap(r.buf)]
	return len(r.buf)`, []string{`_gcl\.SliceBytes3\(\d+, _gcl\.LoadByteSlice\(`}, nil},
		{"three-index slice of a named byte slice", `var x raw = b
	y := x[1:n:n]
	return len(y)`, []string{`_gcl\.SliceBytes3\(\d+, _gcl\.Mk\(x, _gcl_s_x\), `}, nil},
		{"string as bytes", `v := unsafe.Slice(unsafe.StringData(s), len(s))
	return len(v)`, []string{`_gcl\.UnsafeBytes\(_gcl\.Mk\(s, _gcl_s_s\), _gcl\.LenString\(`},
			[]string{`unsafe\.Slice\(`}},
		{"a prefix of a string as bytes", `return len(unsafe.Slice(unsafe.StringData(s), n))`,
			[]string{`_gcl\.UnsafeBytes\(_gcl\.Mk\(s, _gcl_s_s\), _gcl\.Mk\(n, _gcl_s_n\)\)`}, nil},
		{"slice of an array", `var a [8]byte
	c := a[1:n]
	return len(c)`, []string{`a\[1:_gcl\.Concrete\(\d+, _gcl\.CauseIndex, _gcl\.Mk\(n, _gcl_s_n\)\)\]`}, nil},
		{"three-index slice of an array", `var a [8]byte
	c := a[:n:n]
	return len(c)`, []string{`a\[:_gcl\.Concrete\(\d+, _gcl\.CauseIndex, _gcl\.Mk\(n, _gcl_s_n\)\):_gcl\.Concrete\(\d+, _gcl\.CauseIndex, `}, nil},
		{"slice of an int slice", `xs := make([]int, 8)
	ys := xs[n:]
	return len(ys)`, []string{`xs\[_gcl\.Concrete\(\d+, _gcl\.CauseIndex, _gcl\.Mk\(n, _gcl_s_n\)\):\]`}, nil},
		{"three-index slice of an int slice", `xs := make([]int, 8)
	ys := xs[1:2:n]
	return len(ys)`, []string{`xs\[1:2:_gcl\.Concrete\(\d+, _gcl\.CauseIndex, _gcl\.Mk\(n, _gcl_s_n\)\)\]`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `package u

import "unsafe"

type raw []byte

type rbuf struct{ buf []byte }

func F(r *rbuf, b []byte, s string, n int) int {
	_ = unsafe.Sizeof(0)
	` + tt.body + `
}
`
			matchRewrite(t, src, "F", tt.want, tt.not)
		})
	}
}
