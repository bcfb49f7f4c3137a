package instrument

import (
	"slices"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/sites"
)

// TestMarkers checks Config.Markers: every rewritten body (a function
// with a twin, one rewritten in place, a method, a literal with and
// without a twin) starts with rt.Enter of an entry site at the
// function's position and a deferred rt.Leave, the condition sites
// stay where they were, and without Markers there are none.
func TestMarkers(t *testing.T) {
	const src = `package u

func F(x int) int {
	g := func(y int) int { return y + 1 }
	h := func() { _ = x }
	h()
	if x > 2 {
		return g(x)
	}
	return plain()
}

func plain() int { return 3 }

type T struct{}

func (T) M(b bool) bool { return !b }
`
	var counts [2]int
	var conds [2][]sites.Site
	for i, on := range []bool{false, true} {
		pkg := loadSource(t, map[string]string{"u.go": src})
		cfg := config("F")
		cfg.Markers = on
		res, err := Package(pkg, cfg)
		if err != nil {
			t.Fatalf("Package: %v", err)
		}
		rw := recheck(t, res)
		if len(rw.errs) > 0 {
			t.Fatalf("markers %t: rewritten package does not type-check: %v", on, rw.errs)
		}
		var out string
		for name, b := range rw.src {
			if !strings.Contains(name, EntryFile) {
				out += string(b)
			}
		}
		var fns []sites.Site
		for _, s := range res.Sites {
			switch s.Kind {
			case sites.Func:
				fns = append(fns, s)
			case sites.Cond:
				s.ID = 0 // the literals' entry sites come before it
				s.Pos.Filename, s.End.Filename = "", ""
				conds[i] = append(conds[i], s)
			}
		}
		counts[i] = strings.Count(out, runtimeAlias+"."+rtEnter+"(")
		if n := strings.Count(out, "defer "+runtimeAlias+"."+rtLeave+"("); n != counts[i] {
			t.Errorf("markers %t: %d Enter, %d deferred Leave", on, counts[i], n)
		}
		if !on {
			if counts[i] != 0 || len(fns) != 0 {
				t.Errorf("without markers: %d Enter calls, entry sites %v", counts[i], fns)
			}
			continue
		}
		// F, its two literals, plain and M.
		if counts[i] != 5 || len(fns) != 5 {
			t.Errorf("with markers: %d Enter calls, %d entry sites, want 5 each", counts[i], len(fns))
		}
		var at []int
		for _, s := range fns {
			if s.IsBranch() {
				t.Errorf("entry site %d counts as a branch", s.ID)
			}
			at = append(at, s.Pos.Line)
		}
		slices.Sort(at)
		if want := []int{3, 4, 5, 13, 17}; !slices.Equal(at, want) {
			t.Errorf("entry sites on lines %v, want %v", at, want)
		}
		for _, s := range fns {
			line, col := position(t, src, "func", []int{3: 0, 4: 1, 5: 2, 13: 3, 17: 4}[s.Pos.Line])
			if s.Pos.Line != line || s.Pos.Column != col {
				t.Errorf("entry site %d at %d:%d, want the func keyword at %d:%d", s.ID, s.Pos.Line, s.Pos.Column, line, col)
			}
		}
	}
	if !slices.Equal(conds[0], conds[1]) {
		t.Errorf("markers changed the condition sites:\n%v\n%v", conds[0], conds[1])
	}
}
