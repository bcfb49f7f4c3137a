package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCopyModule: the new version's sources replace the old one's, a file
// the new version dropped goes, and what gocolic wrote (the generated
// tests, testdata/gocolic) stays; tests and hidden directories of the
// source are not copied.
func TestCopyModule(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	write := func(root string, files map[string]string) {
		for name, data := range files {
			p := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(src, map[string]string{"go.mod": "module m\n", "a.go": "new a", "c.go": "new c", "a_test.go": "test", ".github/x.go": "ci", "testdata/in.go": "data"})
	write(dst, map[string]string{"go.mod": "module m\n", "a.go": "old a", "b.go": "old b", "a_gocolic_test.go": "generated",
		"testdata/gocolic/A.state.json": "{}"})
	if err := copyModule(src, dst); err != nil {
		t.Fatal(err)
	}
	var got []string
	err := filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dst, p)
		got = append(got, filepath.ToSlash(rel)+"="+strings.TrimSpace(string(data)))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"a.go=new a", "a_gocolic_test.go=generated", "c.go=new c", "go.mod=module m", "testdata/gocolic/A.state.json={}"}
	if !slices.Equal(got, want) {
		t.Errorf("after copyModule:\n got %q\nwant %q", got, want)
	}
}

func TestRatio(t *testing.T) {
	for _, tc := range []struct {
		full, update float64
		want         string
	}{
		{84, 18, "4.7×"},
		{5, 5, "1.0×"},
		{3, 0, "∞"},
		{0, 0, "–"},
	} {
		if got := ratio(tc.full, tc.update); got != tc.want {
			t.Errorf("ratio(%v, %v) = %q, want %q", tc.full, tc.update, got, tc.want)
		}
	}
}

// TestPairs: every example pair has its two versions, which differ, and
// every module pair names two versions and a function.
func TestPairs(t *testing.T) {
	for _, p := range pairs {
		if p.Example == "" {
			if p.Module == "" || p.Old == "" || p.New == "" || p.Old == p.New || p.Func == "" {
				t.Errorf("module pair %+v is incomplete", p)
			}
			continue
		}
		before, err1 := os.ReadFile(filepath.Join("testdata", p.Name, "before.go"))
		after, err2 := os.ReadFile(filepath.Join("testdata", p.Name, "after.go"))
		if err1 != nil || err2 != nil {
			t.Errorf("%s: %v %v", p.Name, err1, err2)
			continue
		}
		if string(before) == string(after) {
			t.Errorf("%s: before.go and after.go are the same", p.Name)
		}
	}
}
