package instrument

import (
	"fmt"
	"go/constant"
	"path/filepath"
	"strings"
	"testing"
)

// TestFuzzSeeds reads the f.Add calls of a fuzz target, one call per
// case, each written in one of the forms a Go developer uses: the values
// are what go test would pass, and a call that cannot be read says which
// argument and why.
func TestFuzzSeeds(t *testing.T) {
	tests := []struct {
		args string
		want []string // the values' constant.Value strings, if readable
		why  string   // the problem, if not
	}{
		{args: `[]byte{0x01, 0x02}, "s", 3`, want: []string{`"\x01\x02"`, `"s"`, "3"}},
		{args: `[]byte{'a', k, n + 2, 'z' - 1}, greeting, uint16(3)`, want: []string{`"a\x7f*y"`, `"hi"`, "3"}},
		{args: `[]uint8{0xff, 0}, greeting + "!", kind(7)`, want: []string{`"\xff\x00"`, `"hi!"`, "7"}},
		{args: `[]byte("a\x00é"), "", 1<<16 - 1`, want: []string{`"a\x00é"`, `""`, "65535"}},
		{args: `[]byte(greeting), ("p"), n`, want: []string{`"hi"`, `"p"`, "40"}},
		{args: `[]byte{3: 9, 1: 'b'}, "", 0`, want: []string{`"\x00b\x00\t"`, `""`, "0"}},
		{args: `[]byte{2: 1, 7}, "", 0`, want: []string{`"\x00\x00\x01\a"`, `""`, "0"}},
		{args: `([]byte{}), "", 0`, want: []string{`""`, `""`, "0"}},
		{args: `[]byte(nil), "", 0`, want: []string{`""`, `""`, "0"}},
		{args: `[]byte{1, v[0]}, "", 0`, why: "argument 1 ([]byte{…}) has element v[0], which is not a constant"},
		{args: `v, "", 0`, why: "argument 1 (v) is not a constant (a []byte seed is read from []byte(\"...\")"},
		{args: `[]byte(str), "", 0`, why: "argument 1 ([]byte(str)) is not a constant"},
		{args: `[]byte{1}, str, 0`, why: "argument 2 (str) is not a constant"},
		{args: `[]byte{1}, "", len(str)`, why: "argument 3 (len(str)) is not a constant"},
		{args: `all...`, why: "passed with ..."},
	}
	var body strings.Builder
	for _, tt := range tests {
		fmt.Fprintf(&body, "\tf.Add(%s)\n", tt.args)
	}
	const head = `package u

import "testing"

const greeting = "hi"
const k byte = 0x7f
const n = 40

type kind uint16

func FuzzS(f *testing.F) {
	v := []byte{1}
	str := "x"
	all := []any{v, str, uint16(1)}
`
	src := head + body.String() + "\tf.Fuzz(func(t *testing.T, b []byte, s string, u uint16) {})\n}\n"
	pkg := loadSource(t, map[string]string{"u_test.go": src})
	cfg := config("")
	cfg.FuzzTarget = "FuzzS"
	res, err := Package(pkg, cfg)
	if err != nil {
		t.Fatalf("Package: %v", err)
	}
	if len(res.Seeds) != len(tests) {
		t.Fatalf("%d seeds, want %d", len(res.Seeds), len(tests))
	}
	firstLine := strings.Count(head, "\n") + 1
	for i, tt := range tests {
		sd := res.Seeds[i]
		if filepath.Base(sd.Pos.Filename) != "u_test.go" || sd.Pos.Line != firstLine+i {
			t.Errorf("f.Add(%s): position %s, want u_test.go:%d", tt.args, sd.Pos, firstLine+i)
		}
		if tt.why != "" {
			if !strings.Contains(sd.Problem, tt.why) {
				t.Errorf("f.Add(%s): problem %q, want it to contain %q", tt.args, sd.Problem, tt.why)
			}
			continue
		}
		if sd.Problem != "" {
			t.Errorf("f.Add(%s): problem %q, want none", tt.args, sd.Problem)
			continue
		}
		var got []string
		for _, v := range sd.Values {
			if v == nil {
				got = append(got, "nil")
				continue
			}
			if v.Kind() == constant.String {
				// The exact bytes, not the shortened form of String.
				got = append(got, fmt.Sprintf("%q", constant.StringVal(v)))
				continue
			}
			got = append(got, v.ExactString())
		}
		if strings.Join(got, ", ") != strings.Join(tt.want, ", ") {
			t.Errorf("f.Add(%s): values %s, want %s", tt.args, strings.Join(got, ", "), strings.Join(tt.want, ", "))
		}
	}
}

// TestFuzzLoopSeeds reads the f.Add calls a fuzz target makes in range
// loops over tables of constants, one element at a time, and gives a
// loop it cannot read its f.Add calls' usual problem and the form that
// was not understood.
func TestFuzzLoopSeeds(t *testing.T) {
	tests := []struct {
		name string
		body string   // the statements of FuzzS before f.Fuzz
		want []string // each seed: its values, or "!" and a part of its problem
	}{
		{
			name: "slice of strings",
			body: `for _, seed := range []string{"a", "b" + "c", greeting} { f.Add(seed, 1) }`,
			want: []string{`"a", 1`, `"bc", 1`, `"hi", 1`},
		},
		{
			name: "array with the index and a conversion",
			body: `for i, s := range [3]string{"x", "y"} { f.Add([]byte(s), i) }`,
			want: []string{`"x", 0`, `"y", 1`, `"", 2`},
		},
		{
			name: "local table of structs",
			body: `tests := []struct{ in string; n int; skip bool }{{"a", 1, false}, {in: "b"}, {n: 3, in: "c" + greeting}}
	for _, tc := range tests { f.Add(tc.in, tc.n) }`,
			want: []string{`"a", 1`, `"b", 0`, `"chi", 3`},
		},
		{
			name: "package-level table, pointers, embedded and byte fields",
			body: `for _, tc := range table { f.Add(string(tc.b), tc.n) }`,
			want: []string{`"\x01\x02", 7`, `"zz", 0`},
		},
		{
			name: "nested loops and two calls",
			body: `for _, a := range []string{"p", "q"} {
		for _, n := range []int{1, 2} { f.Add(a, n) }
		f.Add(a, 9)
	}`,
			want: []string{`"p", 1`, `"p", 2`, `"p", 9`, `"q", 1`, `"q", 2`, `"q", 9`},
		},
		{
			name: "range over an int",
			body: `for range 2 { f.Add("k", 5) }
	for i := range 3 { f.Add("s", i) }
	for i := range 2 { f.Add("t", int(i)) }`,
			want: []string{`"k", 5`, `"k", 5`, `"s", 0`, `"s", 1`, `"s", 2`, `"t", 0`, `"t", 1`},
		},
		{
			name: "a constant call in a loop not read",
			body: `for _, s := range strs() { f.Add("k", 5); _ = s }`,
			want: []string{`"k", 5`},
		},
		{
			name: "element not a constant",
			body: `x := "v"
	for _, s := range []string{"a", x} { f.Add(s, 0) }`,
			want: []string{`"a", 0`, "!argument 1 (s) is x in the table, not a constant"},
		},
		{
			name: "argument of a form not read",
			body: `for _, s := range []string{"a", "bb"} { f.Add(s, len(s)) }`,
			want: []string{"!argument 2 (len(s)) is not a constant, a loop variable"},
		},
		{
			name: "table assigned again",
			body: `seeds := []string{"a"}
	seeds = append(seeds, "b")
	for _, s := range seeds { f.Add(s, 0) }`,
			want: []string{"!argument 1 (s) is not a constant; the loop around it is not read as a table of seeds: seeds is used at line"},
		},
		{
			name: "range over a call",
			body: `for _, s := range strs() { f.Add(s, 0) }`,
			want: []string{"!the loop around it is not read as a table of seeds: it ranges over strs(), not a literal nor a variable"},
		},
		{
			name: "table initialised otherwise",
			body: `seeds := strs()
	for _, s := range seeds { f.Add(s, 0) }`,
			want: []string{"!not read as a table of seeds: seeds is not initialised by a literal"},
		},
		{
			name: "body with an if",
			body: `for _, s := range []string{"a"} { if s != "" { f.Add(s, 0) } }`,
			want: []string{"!not read as a table of seeds: its body holds an if statement at line"},
		},
		{
			name: "map literal",
			body: `for s := range map[string]bool{"a": true} { f.Add(s, 0) }`,
			want: []string{"!it ranges over a literal of map[string]bool, not of a slice or array"},
		},
	}
	const head = `package u

import "testing"

const greeting = "hi"

type inner struct{ n int }

type row struct {
	inner
	b []byte
}

var table = []*row{{inner{7}, []byte{1, 2}}, &row{b: []byte("zz")}}

func strs() []string { return nil }

`
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := head + "func FuzzS(f *testing.F) {\n\t" + tt.body + "\n\tf.Fuzz(func(t *testing.T, b []byte, n int) {})\n}\n"
			pkg := loadSource(t, map[string]string{"u_test.go": src})
			cfg := config("")
			cfg.FuzzTarget = "FuzzS"
			res, err := Package(pkg, cfg)
			if err != nil {
				t.Fatalf("Package: %v", err)
			}
			var got []string
			for _, sd := range res.Seeds {
				if sd.Problem != "" {
					got = append(got, "!"+sd.Problem)
					continue
				}
				var vs []string
				for _, v := range sd.Values {
					if v.Kind() == constant.String {
						vs = append(vs, fmt.Sprintf("%q", constant.StringVal(v)))
					} else {
						vs = append(vs, v.ExactString())
					}
				}
				got = append(got, strings.Join(vs, ", "))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("seeds %q, want %q", got, tt.want)
			}
			for i, w := range tt.want {
				if strings.HasPrefix(w, "!") && strings.Contains(got[i], w[1:]) || got[i] == w {
					continue
				}
				t.Errorf("seed %d: %q, want %q", i, got[i], w)
			}
		})
	}
}
