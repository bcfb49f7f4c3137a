package instrument

import (
	"regexp"
	"testing"
)

// TestAppendLiteral checks the rewrite of lhs = append(s, T{...}) with
// symbolic parts: the parts become temporaries, the value is appended by
// rt.AppendValue, and the tracked parts are stored with their shadows
// into the new last element, so that none goes through rt.Concrete; the
// package must type-check.
func TestAppendLiteral(t *testing.T) {
	tests := []struct {
		name string
		body string
		want string // a regular expression the rewritten file matches
	}{
		{"a job pushed onto a field", `r.jobs = append(r.jobs, job{pc: 3, pos: n + 1})`,
			`_gcl\.AppendValue\(\d+, r\.jobs, job\{pc: 3, pos: _gcl_t\d+\.C\}\)\s+(//line .*\s+)?_gcl_e\d+ := _gcl\.Last\(r\.jobs\)\s+(//line .*\s+)?_gcl\.Store\(_gcl_t\d+, &_gcl_e\d+\.pos\)`},
		{"a span onto a local, positional", `var spans []span
	spans = append(spans, span{n, len(s)})
	return spans[0].end`, `_gcl\.Store\(_gcl_t\d+, &_gcl_e\d+\.end\)`},
		{"a defined slice", `out := append(r.jobs, job{pos: n})
	return out[0].pos`, `out := _gcl\.AppendValue\(`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `package u

type job struct {
	pc  uint32
	pos int
}

type span struct{ start, end int }

type rstate struct{ jobs []job }

func F(r *rstate, n int, s string) int {
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
			if regexp.MustCompile(`Concrete\(\d+, _gcl\.CauseAssign`).MatchString(out) {
				t.Errorf("a part of the literal is still made concrete:\n%s", out)
			}
		})
	}
}
