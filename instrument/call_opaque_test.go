package instrument

import (
	"go/ast"
	"slices"
	"strings"
	"testing"
)

// TestOpaqueCalls checks which calls become opaque calls: package-level
// functions of other packages with tracked parameters and one number or
// boolean result, unless impure; and that the entry file registers them.
func TestOpaqueCalls(t *testing.T) {
	src := `package u

import (
	"fmt"
	"hash/adler32"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
)

func F(x float64, b []byte, s string, n int, r rune) int {
	if math.Sin(x) > 0.5 { // opaque
		return 1
	}
	if math.Pow(x, 2) > 3 { // opaque, a constant argument
		return 2
	}
	if adler32.Checksum(b) == 7 { // opaque, a byte slice
		return 3
	}
	if strings.Count(s, "a") == 2 { // opaque, two strings
		return 4
	}
	if unicode.IsPunct(r) { // opaque, bool result
		return 5
	}
	if math.Float64bits(x) == 9 { // modelled: same bits, not opaque
		return 6
	}
	if strconv.Itoa(n) == "1" { // string result: concrete
		return 7
	}
	if time.Duration(n) > time.Second && time.Now().Unix() > 0 { // impure
		return 8
	}
	if len(fmt.Sprint(n)) > 3 { // impure and variadic
		return 9
	}
	if math.Max(x, 1) > 2 && strings.LastIndex(s, "b") > 0 { // impure by config below
		return 10
	}
	return 0
}
`
	pkg := loadSource(t, map[string]string{"u.go": src})
	cfg := config("F")
	cfg.Impure = []string{"strings.LastIndex"}
	res, err := Package(pkg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"hash/adler32.Checksum", "math.Max", "math.Pow", "math.Sin", "strings.Count", "unicode.IsPunct"}
	if !slices.Equal(res.Opaque, want) {
		t.Errorf("opaque functions %v, want %v", res.Opaque, want)
	}
	rw := recheck(t, res)
	if len(rw.errs) > 0 {
		t.Fatalf("rewritten code does not type-check: %v", rw.errs)
	}
	counts := map[string]int{}
	for _, f := range rw.files {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == runtimeAlias {
					counts[sel.Sel.Name]++
				}
			}
			return true
		})
	}
	if counts["Opaque1"] != 3 || counts["Opaque2"] != 3 || counts["MathFloat64bits"] != 1 {
		t.Errorf("runtime calls %v, want 3 Opaque1 (Sin, Checksum, IsPunct), 3 Opaque2 (Pow, Count, Max), 1 MathFloat64bits", counts)
	}
	entry := string(res.EntrySource)
	for _, reg := range []string{`Func1("math.Sin"`, `Func2("math.Pow"`, `Func1("hash/adler32.Checksum"`, `Func2("strings.Count"`} {
		if !strings.Contains(entry, reg) {
			t.Errorf("entry file does not register %s:\n%s", reg, entry)
		}
	}
	if strings.Index(entry, "Func1(") > strings.Index(entry, "_gcl.Main(") {
		t.Error("functions are registered after Main, which never returns in a worker")
	}
}
