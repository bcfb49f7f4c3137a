package instrument

import (
	"testing"
)

// TestLitArgs checks that a struct literal with symbolic parts passed to a
// function or method of the package is built into a temporary first and
// its cells handed to the callee (rt.Pass), in a call statement, an
// assignment and a return, and that it stays in place, its parts dropped
// at a Concrete site, where moving it would change the order of
// evaluation or where the callee takes no cells: after a call among the
// arguments, under a left side with a call, for an interface or a
// variadic parameter. An appended struct variable brings its cells into
// the new element (rt.CopyMem from its address, taken before the append).
func TestLitArgs(t *testing.T) {
	const moved = `_gcl_l\d+ := H\{n: _gcl_t\d+\.C\}\s+(//line .*\s+)?_gcl\.Store\(_gcl_t\d+, &_gcl_l\d+\.n\)`
	const dropped = `H\{n: _gcl\.Concrete\(\d+, _gcl\.CauseAssign, _gcl\.LenString\(`
	tests := []struct {
		name string
		body string
		want []string // regular expressions the rewritten file matches
		not  []string // regular expressions it must not match
	}{
		{"method call statement", `var q queue
	q.push(H{n: len(s)})
	return len(q)`, []string{moved, `q\.push\(_gcl\.Pass\(&_gcl_l\d+, _gcl_l\d+\)\)`}, []string{`CauseAssign`}},
		{"define", `x := use(H{n: len(s)})
	return x`, []string{moved, `use\(_gcl\.Pass\(&_gcl_l\d+, _gcl_l\d+\)\)`}, []string{`CauseAssign`}},
		{"return", `return use(H{n: len(s)})`, []string{moved}, []string{`CauseAssign`}},
		{"literal first, call after", `return two(H{n: len(s)}, len(name()))`, []string{moved, `two\(_gcl\.Pass\(&_gcl_l\d+, _gcl_l\d+\)`}, []string{`CauseAssign`}},
		{"after a call", `return two2(len(name()), H{n: len(s)})`, []string{dropped}, nil},
		{"left side with a call", `xs := make([]int, 3)
	xs[len(name())] = use(H{n: len(s)})
	return xs[1]`, []string{dropped}, nil},
		{"interface parameter", `return anyOf(H{n: len(s)})`, []string{dropped}, nil},
		{"variadic parameter", `return many(H{n: len(s)})`, []string{dropped}, nil},
		{"append of a struct variable", `var q queue
	h := H{n: len(s)}
	q = append(q, h)
	return q[0].n`, []string{`_gcl_a\d+ := &h\s+(//line .*\s+)?q = _gcl\.AppendValue\(\d+, q, \*_gcl_a\d+\)\s+(//line .*\s+)?_gcl\.CopyMem\(_gcl\.Last\(q\), _gcl_a\d+\)`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `package u

type H struct{ n, m int }

type queue []H

func (q *queue) push(h H) { *q = append(*q, h) }

func use(h H) int { return h.n }

func two(h H, k int) int { return h.n + k }

func two2(k int, h H) int { return h.n + k }

func anyOf(v any) int { return v.(H).n }

func many(hs ...H) int { return len(hs) }

func name() string { return "n" }

func F(s string) int {
	` + tt.body + `
}
`
			matchRewrite(t, src, "F", tt.want, tt.not)
		})
	}
}
