package instrument

import (
	"testing"
)

// TestPoolAndMakeCap checks two rewrites that keep executions of real
// parsers repeatable and their sizes symbolic: (*sync.Pool).Get becomes
// rt.PoolGet, on the pool's address for a pool variable, and make of a
// non-byte slice with a capacity becomes rt.MakeSliceCap when its length
// or capacity is tracked, and stays as written when neither is.
func TestPoolAndMakeCap(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string // regular expressions the rewritten file matches
		not  []string // regular expressions it must not match
	}{
		{"pool variable", `v, _ := pool.Get().(*int)
	_ = v
	return 0`, []string{`_gcl\.PoolGet\(&pool\)`}, []string{`pool\.Get\(\)`}},
		{"pool pointer", `v, _ := pp.Get().(*int)
	_ = v
	return 0`, []string{`_gcl\.PoolGet\(pp\)`}, nil},
		{"make with a tracked length and a capacity", `xs := make([]uint32, len(s), 64)
	return len(xs)`, []string{`_gcl\.MakeSliceCap\[\[\]uint32\]\(\d+, _gcl\.LenString\(.*\), _gcl\.Mk\[int\]\(64, nil\)\)`}, nil},
		{"make with a tracked capacity", `xs := make([]uint32, 0, len(s)*2)
	return cap(xs)`, []string{`_gcl\.MakeSliceCap\[\[\]uint32\]\(`}, nil},
		{"make with constants", `xs := make([]uint32, 2, 8)
	return len(xs)`, []string{`make\(\[\]uint32, 2, 8\)`}, []string{`MakeSliceCap`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `package u

import "sync"

var pool sync.Pool

var pp = &sync.Pool{}

func F(s string) int {
	` + tt.body + `
}
`
			matchRewrite(t, src, "F", tt.want, tt.not)
		})
	}
}
