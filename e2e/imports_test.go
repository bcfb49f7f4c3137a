package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// importTargets take parameters and results whose types come from packages
// the generated test file cannot import under their own names: two
// packages named v1, one named testing (which every test file imports), and
// one named geo where the target package declares geo itself. Method M
// has a parameter named receiver.
var importTargets = map[string]string{
	"a/v1/v1.go":         "package v1\n\ntype P struct{ X int }\n",
	"b/v1/v1.go":         "package v1\n\ntype Q struct{ Y int }\n\ntype Level int\n",
	"testing/testing.go": "package testing\n\ntype Case struct{ N int }\n",
	"geo/geo.go":         "package geo\n\ntype Point struct{ X, Y int }\n",
	"imp/imp.go": `package imp

import (
	av1 "example.com/m/a/v1"
	bv1 "example.com/m/b/v1"
	g "example.com/m/geo"
	ct "example.com/m/testing"
)

var geo = 7

func Two(p av1.P, q bv1.Q) bv1.Level {
	if p.X == 3 && q.Y == 4 {
		return 1
	}
	return bv1.Level(q.Y)
}

func Named(c ct.Case, pt g.Point) int {
	if c.N == geo && pt.X == 2 {
		return 1
	}
	return 0
}

type T struct{ N int }

func (t T) M(receiver int) int {
	if receiver == t.N+1 {
		return 1
	}
	return 0
}
`,
}

// TestGeneratedImports checks that the test files written for such
// targets import every package under a name of its own and compile, and
// that their cases pass.
func TestGeneratedImports(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, importTargets)
	generateTests(t, dir, "./imp", nil, "Two", "Named", "T.M")
	wants := map[string][]string{
		"two_gocolic_test.go":   {`"example.com/m/a/v1"`, `v1_2 "example.com/m/b/v1"`, "want0 v1_2.Level"},
		"named_gocolic_test.go": {`testing2 "example.com/m/testing"`, `geo2 "example.com/m/geo"`, "in_c  testing2.Case"},
		"t_m_gocolic_test.go":   {"receiver    T", "in_receiver int"},
	}
	for file, want := range wants {
		src, err := os.ReadFile(filepath.Join(dir, "imp", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(string(src), w) {
				t.Errorf("%s lacks %q:\n%s", file, w, src)
			}
		}
	}
	names, out := failingTests(t, dir, "./imp")
	if len(names) > 0 || !strings.Contains(out, "--- PASS: TestGocolicTwo") ||
		!strings.Contains(out, "--- PASS: TestGocolicNamed") || !strings.Contains(out, "--- PASS: TestGocolicT_M") {
		t.Errorf("the generated tests did not all pass (failing %q):\n%s", names, out)
	}
}
