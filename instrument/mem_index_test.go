package instrument

import "testing"

// TestStoreAtIndex checks the rewrite of stores into scalar elements at a
// tracked index: rt.StoreIndex and rt.ApplyIndex, which split the store
// over the elements at a symbolic index, for slices and arrays, constant
// values included; a constant index keeps the plain store; and a location
// the runtime writes at its concrete index counts a symbolic index
// (CauseIndex) instead of dropping it silently.
func TestStoreAtIndex(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string // regular expressions the rewritten file matches
		not  []string // regular expressions it must not match
	}{
		{"slice store", `xs := make([]uint32, 8)
	xs[n/32] = uint32(n)
	return int(xs[0])`, []string{`_gcl\.StoreIndex\(.*, \d+, xs, `}, []string{`_gcl\.Store\([^)]*&xs\[`}},
		{"slice or-store", `xs := make([]uint32, 8)
	xs[n/32] |= 1 << (uint(n) & 31)
	return int(xs[0])`, []string{`_gcl\.ApplyIndex\(\d+, xs, .*_gcl\.Or\[uint32\]\)`}, nil},
		{"increment", `xs := make([]int, 8)
	xs[n]++
	return xs[0]`, []string{`_gcl\.ApplyIndex\(\d+, xs, .*_gcl\.Add\[int\]\)`}, nil},
		{"array store of a constant", `var a [4]bool
	a[n] = true
	if a[1] {
		return 1
	}
	return 0`, []string{`_gcl\.StoreIndex\(_gcl\.Mk\[bool\]\(true, nil\), \d+, a\[:\], `}, nil},
		{"constant index", `xs := make([]int, 8)
	xs[2] = n
	return xs[2]`, []string{`_gcl\.Store\(_gcl\.Mk\(n, _gcl_s_n\), &xs\[2\]\)`}, []string{`StoreIndex`}},
		{"field of an element", `ps := make([]P, 4)
	ps[n].x = 1
	return ps[0].x`, []string{`ps\[_gcl\.Concrete\(\d+, _gcl\.CauseIndex, `}, nil},
		{"struct element copied", `ps := []P{{1}, {2}}
	p := ps[n&1]
	var a [2]P
	q := a[n&1]
	return p.x + q.x`, []string{`_gcl_i\d+ := _gcl\.And\(.*\s+(//line .*\s+)?p := ps\[_gcl_i\d+\.C\]\s+(//line .*\s+)?_gcl\.CopyIndex\(\d+, &p, ps, _gcl_i\d+\)`,
			`_gcl\.CopyIndex\(\d+, &q, a\[:\], _gcl_i\d+\)`}, nil},
		{"string element", `ss := make([]string, 4)
	ss[n] = "a"
	return len(ss[0])`, []string{`ss\[_gcl\.Concrete\(\d+, _gcl\.CauseIndex, `}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `package u

type P struct{ x int }

func F(n int) int {
	` + tt.body + `
}
`
			matchRewrite(t, src, "F", tt.want, tt.not)
		})
	}
}
