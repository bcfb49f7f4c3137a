package harness

import (
	"go/ast"
	"go/parser"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/corpus"
)

func TestValueOf(t *testing.T) {
	tests := []struct {
		typ, lit, want string
	}{
		{"uint32", "3405691582", "uint32(3405691582)"},
		{"int32", "-5", "int32(-5)"},
		{"rune", "39", "int32(39)"},
		{"byte", "255", "uint8(255)"},
		{"bool", "true", "bool(true)"},
		{"string", `"a\n"`, `string("a\n")`},
		{"[]byte", `[]byte("\x80\x01")`, `[]byte("\x80\x01")`},
		{"int", "-9223372036854775808", "int(-9223372036854775808)"},
		{"float64", "1", "float64(1)"},
	}
	for _, tt := range tests {
		v, err := ValueOf(tt.typ, tt.lit)
		if err != nil || v.Line() != tt.want {
			t.Errorf("ValueOf(%s, %s) = %s, %v; want %s", tt.typ, tt.lit, v.Line(), err, tt.want)
		}
	}
	for _, bad := range [][2]string{{"uint8", "256"}, {"int8", "-129"}, {"uint32", "-1"}, {"float64", `"x"`}, {"bool", "1"}} {
		if v, err := ValueOf(bad[0], bad[1]); err == nil {
			t.Errorf("ValueOf(%s, %s) = %s; want an error", bad[0], bad[1], v.Line())
		}
	}
}

func TestNormalizeCorpus(t *testing.T) {
	src := t.TempDir()
	entry := "go test fuzz v1\nrune('\\'')\nbyte('\\xff')\nrune('é')\nint32(7)\n"
	if err := os.WriteFile(filepath.Join(src, "a"), []byte(entry), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "out")
	n, err := NormalizeCorpus([]string{src, filepath.Join(src, "missing")}, dst)
	if err != nil || n != 3 {
		t.Fatalf("NormalizeCorpus = %d, %v; want 3 lines rewritten", n, err)
	}
	got, err := os.ReadFile(filepath.Join(dst, "0-a"))
	if err != nil {
		t.Fatal(err)
	}
	want := "go test fuzz v1\nint32(39)\nuint8(255)\nint32(233)\nint32(7)\n"
	if string(got) != want {
		t.Errorf("normalized entry:\n%s\nwant:\n%s", got, want)
	}
}

func TestMatchPlanted(t *testing.T) {
	found, other := MatchPlanted([]string{"magic value reached", "gzip reserved"},
		[]string{"magic: gzip reserved flag bits set", "runtime error: index out of range [3]"})
	if !slices.Equal(found, []string{"gzip reserved"}) || len(other) != 1 {
		t.Errorf("MatchPlanted = %q, %q", found, other)
	}
}

func TestLoadExample(t *testing.T) {
	w := &Workspace{Module: t.TempDir()}
	dir := filepath.Join(w.Module, "pair")
	os.MkdirAll(dir, 0o755)
	src := "package pair\n\nfunc Check(n uint16, s string, ok bool) (int, error) {\n\tif n == 7 {\n\t\t// planted: seven\n\t\tpanic(\"pair: seven\")\n\t}\n\treturn helper(n), nil\n}\n\nfunc helper(n uint16) int { return int(n) }\n"
	test := "package pair\n\nimport \"testing\"\n\nfunc FuzzPair(f *testing.F) {\n\tf.Add(uint16(3), \"x\"+\"y\", true)\n\tf.Fuzz(func(t *testing.T, n uint16, s string, ok bool) {\n\t\tCheck(n, s, ok)\n\t})\n}\n"
	os.WriteFile(filepath.Join(dir, "pair.go"), []byte(src), 0o644)
	os.WriteFile(filepath.Join(dir, "pair_test.go"), []byte(test), 0o644)
	ex, err := w.LoadExample("pair")
	if err != nil {
		t.Fatal(err)
	}
	if ex.Fuzz != "FuzzPair" || ex.Func != "Check" || ex.Package != "pair" {
		t.Errorf("got fuzz %s, func %s, package %s", ex.Fuzz, ex.Func, ex.Package)
	}
	var params []string
	for _, p := range ex.Params {
		params = append(params, p.Name+" "+p.Type)
	}
	if strings.Join(params, ", ") != "n uint16, s string, ok bool" || !slices.Equal(ex.Results, []string{"int", "error"}) {
		t.Errorf("signature: %q -> %q", params, ex.Results)
	}
	if !slices.Equal(ex.Planted, []string{"seven"}) {
		t.Errorf("planted = %q", ex.Planted)
	}
	if ex.SeedErr != nil || len(ex.Seeds) != 1 {
		t.Fatalf("seeds = %v, %v", ex.Seeds, ex.SeedErr)
	}
	var lines []string
	for _, v := range ex.Seeds[0] {
		lines = append(lines, v.Line())
	}
	if want := `uint16(3) string("xy") bool(true)`; strings.Join(lines, " ") != want {
		t.Errorf("seed = %s; want %s", strings.Join(lines, " "), want)
	}
}

func TestCopyTree(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	for _, f := range []string{"a.go", "a_gocolic_test.go", "notes.txt", "sub/b.go", "testdata/c.go", "sub/testdata/d.go"} {
		p := filepath.Join(src, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package x // "+f), 0o644)
	}
	err := CopyTree(src, dst,
		func(dir string) bool { return dir == "testdata" },
		func(file string) bool {
			return strings.HasSuffix(file, ".go") && !strings.HasSuffix(file, "_gocolic_test.go")
		})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dst, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	if want := []string{"a.go", "sub/b.go"}; !slices.Equal(got, want) {
		t.Errorf("copied %q, want %q", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "sub", "b.go")); string(b) != "package x // sub/b.go" {
		t.Errorf("sub/b.go holds %q", b)
	}
}

// TestSeedValues reads f.Add arguments of every kind the walk corpus and
// the examples use: floats (as their bits), an empty byte slice literal,
// conversions and integers of a width.
func TestSeedValues(t *testing.T) {
	for _, tt := range []struct {
		typ, arg string
		want     corpus.Value
	}{
		{"float64", "0.0", corpus.Value{Type: "float64", Float: math.Float64bits(0)}},
		{"float64", "2.5", corpus.Value{Type: "float64", Float: math.Float64bits(2.5)}},
		{"float32", "-1", corpus.Value{Type: "float32", Float: uint64(math.Float32bits(-1))}},
		{"[]byte", "[]byte{}", corpus.Value{Type: "[]byte", Bytes: []byte{}}},
		{"[]byte", `[]byte("ab")`, corpus.Value{Type: "[]byte", Bytes: []byte("ab")}},
		{"int32", "int32(-3)", corpus.Value{Type: "int32", Int: -3}},
	} {
		e, err := parser.ParseExpr(tt.arg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := seeds([][]ast.Expr{{e}}, []string{tt.typ})
		if err != nil {
			t.Errorf("%s %s: %v", tt.typ, tt.arg, err)
			continue
		}
		if !reflect.DeepEqual(got[0][0], tt.want) {
			t.Errorf("%s %s = %+v, want %+v", tt.typ, tt.arg, got[0][0], tt.want)
		}
	}
}
