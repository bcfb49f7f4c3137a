package instrument

import (
	"regexp"
	"testing"
)

// TestVariadicOneArgument checks that a call of a variadic function with
// one argument and nothing for the variadic parameter passes that
// argument's shadow to the twin, in every call form, while a single
// multi-valued argument still goes to the original.
func TestVariadicOneArgument(t *testing.T) {
	src := `package u

type Option func()

func parse(v string, opts ...Option) int { return len(v) + len(opts) }

type T struct{}

func (T) M(v string, opts ...int) int { return len(v) + len(opts) }

type I interface{ M(v string, opts ...int) int }

func two(s string) (int, int) { return len(s), 1 }

func sum(a int, xs ...int) int { return a + len(xs) }

func F(s string, i I, f func(string, ...int) int) int {
	var t T
	r := parse(s)
	r += t.M(s)
	r += i.M(s)
	r += f(s)
	r += sum(two(s))
	return r
}

func E(s string) int { return F(s, T{}, T{}.M) }
`
	out, _ := rewrittenSource(t, src, "E")
	tests := []struct {
		name string
		want string // a regular expression the rewrite must match
	}{
		{"function", `_gcl_parse\(_gcl\.Mk\(s, _gcl_s_s\)\)`},
		{"method", `t\._gcl_M\(_gcl\.Mk\(s, _gcl_s_s\)\)`},
		{"interface method", `(?s)_gcl\.IMethod\(i, "M", .*?\}\)\(_gcl\.PassIface\(i\), _gcl\.Mk\(s, _gcl_s_s\)\)`},
		{"function value", `(?s)_gcl\.Dyn\(f, .*?\}\)\(_gcl\.Mk\(s, _gcl_s_s\)\)`},
		{"multi-valued argument", `[^_]sum\(two\(`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !regexp.MustCompile(tt.want).MatchString(out) {
				t.Errorf("rewrite does not match %s:\n%s", tt.want, out)
			}
		})
	}
}
