package instrument

import (
	"regexp"
	"testing"
)

// TestClearForms checks the rewrite of the builtin clear: each form must
// become the runtime call that drops the shadows of what it clears
// (rt/clear.go), and the package must type-check.
func TestClearForms(t *testing.T) {
	tests := []struct {
		name string
		body string
		want string // a regular expression the rewritten file matches
	}{
		{"a slice of integers", `clear(r.visited)`, `_gcl\.ClearSlice\(r\.visited\)`},
		{"a slice of structs", `clear(r.pts[1:])`, `_gcl\.ClearSlice\(r\.pts\[1:\]\)`},
		{"a byte slice in a field", `clear(r.buf)`, `_gcl\.ClearBytesTo\(r\.buf\)`},
		{"a shadowed byte-slice variable", `x := []byte(s)
	clear(x[1:])
	return int(x[0])`, `_gcl\.ClearBytes\(&_gcl_s_x, x, `},
		{"a map", `clear(r.seen)`, `_gcl\.ClearMap\(r\.seen\)`},
		{"a type parameter", `zero(r.visited)`, `_gcl\.ClearOf\(x\)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `package u

type pt struct{ X, Y int }

type rstate struct {
	visited []uint32
	pts     []pt
	buf     []byte
	seen    map[string]int
}

func zero[S ~[]E, E any](x S) { clear(x) }

func F(r *rstate, s string) int {
	` + tt.body + `
	return 0
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
