package corpus

import (
	"os"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestPinned checks that every module of the corpus is required by
// go.mod at its version, so that go.sum pins its content, and that the
// corpus names each module once, with a kind and a reason.
func TestPinned(t *testing.T) {
	data, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	required := map[string]string{}
	for _, r := range f.Require {
		required[r.Mod.Path] = r.Mod.Version
	}
	if len(Modules) < 30 {
		t.Errorf("the corpus has %d modules, want at least 30", len(Modules))
	}
	seen := map[string]bool{}
	for _, m := range Modules {
		if seen[m.Path] {
			t.Errorf("%s is listed twice", m.Path)
		}
		seen[m.Path] = true
		if v, ok := required[m.Path]; !ok || v != m.Version {
			t.Errorf("%s %s: go.mod requires %q", m.Path, m.Version, v)
		}
		if m.Kind == "" || m.Why == "" {
			t.Errorf("%s has no kind or no reason", m.Path)
		}
	}
}
