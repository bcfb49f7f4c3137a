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
