package instrument

import (
	"testing"
)

// TestStructResults checks the rewrite that hands a struct result's
// shadows to the caller: each return of a struct result passes its place
// (rt.PassResult) or clears the slot (rt.NoResult), a bare return passes
// its named result, a return of another call of the package leaves the
// slots to its callee, and each statement that stores such a result in a
// place takes them (rt.TakeResult), in an if's init too, which becomes a
// block; a field of a call's result is read from a place made for it
// (rt.Took); a switch's init, which no statement can follow, counts them
// as dropped (rt.DropResult), as are the parts of a literal that is not
// stored in a place (rt.Concrete) unless it is an argument the rewrite
// can build into a temporary first, while one declared by var is stored
// as by :=; a parallel assignment to fields stores
// their shadows after it, or, where it cannot (more values than
// rt.UnpackN takes, an init statement), counts them as dropped.
func TestStructResults(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string // regular expressions the rewritten file matches
		not  []string // regular expressions it must not match
	}{
		{"returned variable", `var x H
	x.n = len(s)
	return x`, []string{`return _gcl\.PassResult\(0, &x, x\)`}, nil},
		{"returned literal", `return H{n: 1}`, []string{`return _gcl\.NoResult\(0, H\{`}, nil},
		{"returned literal with symbolic parts", `return H{n: len(s)}`, []string{`_gcl_l\d+ := H\{n: _gcl_t\d+\.C\}\s+(//line .*\s+)?_gcl\.Store\(_gcl_t\d+, &_gcl_l\d+\.n\)`, `return _gcl\.PassResult\(0, &_gcl_l\d+, _gcl_l\d+\)`}, nil},
		{"literal passed to a function of the package", `return pass(H{n: len(s)})`, []string{`_gcl_l\d+ := H\{n: _gcl_t\d+\.C\}`, `pass\(_gcl\.Pass\(&_gcl_l\d+, _gcl_l\d+\)\)`}, []string{`CauseAssign`}},
		{"literal passed after a call", `return pass2(len(parse(s).String()), H{n: len(s)})`, []string{`H\{n: _gcl\.Concrete\(\d+, _gcl\.CauseAssign, _gcl\.LenString\(`}, nil},
		{"second result a literal with symbolic parts", `_, x := two(s)
	if x.n > 0 {
		return H{}
	}
	return H{m: len(s) + 1, n: 2}`, []string{`return _gcl\.PassResult\(0, &_gcl_l\d+, _gcl_l\d+\)`}, nil},
		{"returned call of the package", `return parse(s)`, nil, []string{`_gcl\.NoResult\(0, _gcl_parse`, `_gcl\.PassResult\(0, _gcl_parse`}},
		{"bare return of a named result", `h.n = len(s)
	return`, []string{`_gcl\.PassResult\(0, &h, h\)\s+(//line .*\s+)?return`}, nil},
		{"define from a call", `x := parse(s)
	return x`, []string{`x := _gcl_parse\(.*\)\s+(//line .*\s+)?_gcl\.TakeResult\(0, &x\)`}, nil},
		{"var from a call", `var x = parse(s)
	return x`, []string{`_gcl\.TakeResult\(0, &x\)`}, nil},
		{"var of a literal with symbolic parts", `var x = H{n: len(s)}
	return x`, []string{`x := H\{n: _gcl_t\d+\.C\}\s+(//line .*\s+)?_gcl\.Store\(_gcl_t\d+, &x\.n\)`}, []string{`CauseAssign`}},
		{"var of a pointer to a literal", `var p = &H{n: len(s)}
	return *p`, []string{`p := &H\{n: _gcl_t\d+\.C\}\s+(//line .*\s+)?_gcl\.Store\(_gcl_t\d+, &p\.n\)`}, []string{`CauseAssign`}},
		{"var of the literal's type", `var x H = H{m: len(s)}
	return x`, []string{`x := H\{m: _gcl_t\d+\.C\}\s+(//line .*\s+)?_gcl\.Store\(_gcl_t\d+, &x\.m\)`}, nil},
		{"var of an interface type", `var x any = H{n: len(s)}
	return x.(H)`, []string{`var x any = H\{n: _gcl\.Concrete\(\d+, _gcl\.CauseAssign, _gcl\.LenString\(`}, nil},
		{"if's init", `if x := parse(s); x.n > 2 {
		return x
	}
	return H{}`, []string{`\{\s+(//line .*\s+)?x := _gcl_parse\(.*\)\s+(//line .*\s+)?_gcl\.TakeResult\(0, &x\)`}, nil},
		{"second of two results", `_, x := two(s)
	return x`, []string{`_gcl\.TakeResult\(1, &x\)`}, []string{`TakeResult\(0`}},
		{"field of a call's result", `if parse(s).n == 3 {
		return H{}
	}
	return H{}`, []string{`_gcl\.Load\(\d+, &_gcl\.Took\(0, _gcl_parse\(.*\)\)\.n\)`}, nil},
		{"switch's init", `switch x := parse(s); x.n {
	case 3:
		return x
	}
	return H{}`, []string{`switch x := _gcl\.DropResult\(\d+, 0, _gcl_parse\(`}, nil},
		{"parallel assignment to fields", `var x H
	x.n, x.m = len(s), len(s)+1
	return x`, []string{`x\.n, x\.m, _gcl_s\d+, _gcl_s\d+ = _gcl\.Unpack2\(`, `_gcl\.Store\(_gcl\.Mk\(x\.m, _gcl_s\d+\), &x\.m\)`}, nil},
		{"wide parallel assignment to fields", `var x [5]int
	x[0], x[1], x[2], x[3], x[4] = len(s), len(s)+1, 0, 0, 0
	return H{n: x[0]}`, []string{`x\[0\], x\[1\], x\[2\], x\[3\], x\[4\] = _gcl\.Concrete\(\d+, _gcl\.CauseAssign, _gcl\.LenString\(`}, nil},
		{"parallel assignment to fields in an init", `var x H
	for x.n, x.m = len(s), 1; x.m < 3; x.m++ {
	}
	return x`, []string{`for x\.n, x\.m = _gcl\.Concrete\(\d+, _gcl\.CauseAssign, _gcl\.LenString\(`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `package u

type H struct{ n, m int }

func parse(s string) H { return H{n: len(s)} }

func two(s string) (int, H) { return len(s), H{} }

func pass(h H) H { return h }

func pass2(n int, h H) H { h.m = n; return h }

func (h H) String() string { return "h" }

func F(s string) (h H) {
	` + tt.body + `
}
`
			matchRewrite(t, src, "F", tt.want, tt.not)
		})
	}
}
