package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// aliasTargets need pointer inputs that alias: Figure 12 and Example 6 of
// 004 §4.2 (two lists that are one list), a list that closes a cycle, and
// a tree whose children must not be one node.
const aliasTargets = `package al

type List struct {
	Value int
	Next  *List
}

func Figure12(l1, l2 *List, x int) {
	if x == 5 {
		if l1 != nil {
			if l2 != nil {
				l1.Value = l2.Value
				if l1 == l2 {
					panic("found")
				}
			}
		}
	}
}

func Example6(l1, l2 *List) {
	l1.Value = l2.Value
	if l1 == l2 {
		if l1.Value == 4242 {
			panic("same")
		}
	} else if l2.Value == 31337 {
		panic("different")
	}
}

func Cycle(n *List) {
	if n != nil && n.Next != nil && n.Next.Next == n && n.Value == 987654321 {
		panic("found")
	}
}

type Tree struct {
	Value       int
	Left, Right *Tree
}

func Distinct(t *Tree) {
	if t != nil && t.Left != nil && t.Right != nil && t.Left != t.Right && t.Left.Left == t.Right.Left {
		if t.Left.Left != nil && t.Left.Left.Value == 77 {
			panic("found")
		}
	}
}
`

// TestAlias checks that aliasing of pointer inputs is decided by the
// path: two parameters that must be one list, a cycle back to the head,
// and a tree whose children must differ but share a grandchild.
func TestAlias(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"al/al.go": aliasTargets})
	expectPanics(t, dir, "./al", []string{"Figure12", "Cycle", "Distinct"})
	t.Run("Example6", func(t *testing.T) {
		// Both outcomes of l1 == l2 lead to a finding of their own.
		js := filepath.Join(t.TempDir(), "r.json")
		res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "30s", "-workers", "1", "-seed", "1", "-lanes", "concolic",
			"-maxbugs", "2", "-notests", "-minimizetime", "0", "-solver", "z3", "-json", js, "./al", "Example6")
		if res.code != 0 {
			t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
		}
		var msgs []string
		for _, b := range readReport(t, js).Bugs {
			msgs = append(msgs, b.Message)
		}
		slices.Sort(msgs)
		if !slices.Equal(msgs, []string{"different", "same"}) {
			t.Errorf("findings %q, want both outcomes of l1 == l2\n%s", msgs, res.stderr)
		}
	})
	t.Run("GeneratedTests", func(t *testing.T) {
		// The crashes need shared objects: the test files build them, and
		// replaying them reproduces exactly the crashes.
		generateTests(t, dir, "./al", []string{"-maxbugs", "1"}, "Figure12", "Cycle")
		for _, fn := range []string{"Figure12", "Cycle"} {
			src, err := os.ReadFile(filepath.Join(dir, "al", strings.ToLower(fn)+"_gocolic_test.go"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(src), "build: func() (") {
				t.Errorf("%s: the test file has no builder:\n%s", fn, src)
			}
		}
		names, out := failingTests(t, dir, "./al")
		want := []string{"TestGocolicCycleCrashes", "TestGocolicCycleCrashes/panics_found", "TestGocolicFigure12Crashes", "TestGocolicFigure12Crashes/panics_found"}
		if !slices.Equal(names, want) {
			t.Errorf("failing tests %q, want only %q:\n%s", names, want, out)
		}
	})
}
