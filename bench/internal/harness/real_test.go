package harness

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"
)

func TestCountAdds(t *testing.T) {
	cases := []struct {
		src  string
		want int
	}{
		{`func FuzzA(f *testing.F) { f.Add("a"); f.Add("b"); f.Fuzz(func(t *testing.T, s string) {}) }`, 2},
		// Calls in a loop count once: they are what the source shows,
		// not what runs (the replay corrects the count from gocolic's
		// own).
		{`func FuzzB(g *testing.F) { for _, s := range seeds { g.Add(s) }; var wg sync.WaitGroup; wg.Add(1) }`, 1},
		{`func FuzzC(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { f := x; f.Add(1) }) }`, 1},
		{`func FuzzD(f *testing.F) {}`, 0},
	}
	for _, c := range cases {
		file, err := parser.ParseFile(token.NewFileSet(), "x_test.go", "package p\n"+c.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		fd := file.Decls[0].(*ast.FuncDecl)
		if got := countAdds(fd); got != c.want {
			t.Errorf("%s: countAdds = %d, want %d", fd.Name.Name, got, c.want)
		}
	}
}

func TestDiscoverSkipsNonTargets(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/realbench\n")
	write("a/a.go", "package a\n\nconst Target = \"example.com/x\"\n\nconst GocolicTags = \"noasm\"\n\nfunc CheckB(s string) {}\n\nfunc (T) CheckE(s string) {}\n\ntype T int\n")
	write("a/a_test.go", "package a\n\nimport \"testing\"\n\nfunc FuzzB(f *testing.F) {}\nfunc FuzzE(f *testing.F) {}\nfunc Fuzzy(f *testing.F) {}\nfunc FuzzC(t *testing.T) {}\nfunc CheckE(s string) {}\n")
	write("b/b.go", "package b\n")
	write("b/b_test.go", "package b\n\nimport \"testing\"\n\nfunc FuzzD(f *testing.F) {}\n")
	hs, err := DiscoverReal(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 2 || hs[0].Name() != "a.FuzzB" || hs[0].Target != "example.com/x" || hs[0].Tags != "noasm" || hs[1].Name() != "a.FuzzE" {
		t.Fatalf("discover = %+v", hs)
	}
	// CheckE is a method in the package and a function of a test file:
	// neither is a Check function gocolic test can run.
	if hs[0].Check != "CheckB" || hs[1].Check != "" {
		t.Errorf("Check functions %q, %q, want CheckB and none", hs[0].Check, hs[1].Check)
	}
	if env := hs[0].GocolicEnv(); len(env) != 1 || env[0] != "GOFLAGS=-tags=noasm" {
		t.Errorf("gocolic's environment %q, want the tags in GOFLAGS", env)
	}
}
