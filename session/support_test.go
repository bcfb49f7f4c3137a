package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
)

// TestInstrumentSupport checks what -instrument adds to the target's
// rewrite, within the main module: every package's sites in one range
// each, without gaps or overlaps, the target's last; calls across the
// packages going to the exported twins, transitively (a calls b's, b
// calls c's); a entry file per package; the runtime under the module's
// internal directory, since no other module is instrumented.
// writeTree writes files, by slash-separated path relative to dir, into
// dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestInstrumentSupport(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.24\n",
		"a/a.go": "package a\n\nimport \"example.com/m/b\"\n\nfunc F(x int) int {\n\tif b.B(x) == 7 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n",
		"b/b.go": "package b\n\nimport \"example.com/m/c\"\n\nfunc B(x int) int {\n\tif x > 3 {\n\t\treturn c.C(x)\n\t}\n\treturn x\n}\n",
		"c/c.go": "package c\n\nfunc C(x int) int {\n\tif x%2 == 0 {\n\t\treturn x / 2\n\t}\n\treturn x\n}\n",
	}
	writeTree(t, dir, files)
	pkg, err := load.Load(dir, "./a")
	if err != nil {
		t.Fatal(err)
	}
	sup, err := instrumentSupport(Config{Dir: dir, Instrument: []string{"./..."}}, pkg, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(sup.paths, " "); got != "example.com/m/c example.com/m/b" {
		t.Errorf("support packages %s, want c then b", got)
	}
	if len(sup.deps) != 0 {
		t.Errorf("deps %v; want none", sup.deps)
	}
	ins, err := instrument.Package(pkg.Package, sup.config(instrument.Config{Entry: "F"}))
	if err != nil {
		t.Fatal(err)
	}
	added := ins.Added()
	if err := sup.merge(ins, added); err != nil {
		t.Fatal(err)
	}

	// Sites: c's, then b's, then a's, numbered without a gap.
	var order []string
	for i, s := range ins.Sites {
		if int(s.ID) != i {
			t.Errorf("site %d has ID %d", i, s.ID)
		}
		pkgDir := filepath.Base(filepath.Dir(s.Pos.Filename))
		if len(order) == 0 || order[len(order)-1] != pkgDir {
			order = append(order, pkgDir)
		}
	}
	if got := strings.Join(order, " "); got != "c b a" {
		t.Errorf("sites by package %q, want c b a", got)
	}
	entries, gfiles := 0, 0
	for path := range added {
		switch filepath.Base(path) {
		case instrument.EntryFile:
			entries++
		case instrument.GFile + ".go":
			gfiles++
		}
	}
	if entries != 3 || gfiles != 3 || len(ins.Files) != 3 {
		t.Errorf("%d entry files, %d goroutine identities and %d rewritten files, want 3, 3 and 3", entries, gfiles, len(ins.Files))
	}
	for file, want := range map[string]string{"a/a.go": "b.Gcl_B(", "b/b.go": "c.Gcl_C("} {
		src := string(ins.Files[filepath.Join(dir, filepath.FromSlash(file))])
		if !strings.Contains(src, want) {
			t.Errorf("%s does not call the twin %s):\n%s", file, want, src)
		}
	}
}

// TestInstrumentSupportNone checks the default: no pattern, no package
// beside the target, and nothing to merge.
func TestInstrumentSupportNone(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc F(x int) int { return x }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg, err := load.Load(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	sup, err := instrumentSupport(Config{Dir: dir}, pkg, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(sup.paths) != 0 || len(sup.sites) != 0 {
		t.Errorf("support %+v, want none", sup)
	}
}

func TestRaiseMaxLen(t *testing.T) {
	for _, tt := range []struct {
		name     string
		auto     bool
		maxLen   int
		lenConst int
		want     int
	}{
		{"a longer format", true, 32, 36, 37},
		{"a buffer bound", true, 32, 1000, maxLenFromCode},
		{"short enough already", true, 32, 20, 32},
		{"no length compared", true, 32, 0, 32},
		{"-maxlen given", false, 32, 36, 32},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			cfg := Config{MaxLen: tt.maxLen, maxLenAuto: tt.auto, Stderr: &out}
			raiseMaxLen(&cfg, tt.lenConst)
			if cfg.MaxLen != tt.want {
				t.Errorf("MaxLen %d, want %d", cfg.MaxLen, tt.want)
			}
			if said := strings.Contains(out.String(), "-maxlen"); said != (tt.want != tt.maxLen) {
				t.Errorf("said %q; want a line only when raised", out.String())
			}
		})
	}
}
