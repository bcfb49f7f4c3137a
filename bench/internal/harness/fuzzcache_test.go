package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWorkspaceModulePath(t *testing.T) {
	tests := []struct{ dir, want string }{
		{filepath.Join("tmp", "gocolic-bench-123456"), "example.com/gocolic-bench-123456"},
		// Upper case letters and dots become '-'; leading and trailing '-' go.
		{filepath.Join("tmp", "Bench.X_1"), "example.com/ench--_1"},
		{filepath.Join("tmp", "..."), "example.com/ex"},
		{"", "example.com/ex"},
	}
	for _, tt := range tests {
		if got := WorkspaceModulePath(tt.dir); got != tt.want {
			t.Errorf("WorkspaceModulePath(%q) = %q; want %q", tt.dir, got, tt.want)
		}
	}
	// Two workspaces never share a module path.
	a, b := t.TempDir(), t.TempDir()
	if WorkspaceModulePath(a) == WorkspaceModulePath(b) {
		t.Errorf("%s and %s get the same module path %s", a, b, WorkspaceModulePath(a))
	}
}

func TestFuzzCacheDir(t *testing.T) {
	root := filepath.Join("cache", "fuzz")
	w := &Workspace{ModulePath: "example.com/gocolic-bench-7", FuzzRoot: root}
	tests := []struct {
		pkg, target string
		want        string // "" for an error
	}{
		{"example.com/gocolic-bench-7/magic", "FuzzMagic", filepath.Join(root, "example.com", "gocolic-bench-7", "magic", "FuzzMagic")},
		{"example.com/gocolic-bench-7", "FuzzX", filepath.Join(root, "example.com", "gocolic-bench-7", "FuzzX")},
		{"example.com/gocolic-bench-70/magic", "FuzzMagic", ""}, // another module
		{"example.com/ex/magic", "FuzzMagic", ""},
		{"example.com/gocolic-bench-7/magic", "", ""},
		{"example.com/gocolic-bench-7/magic", "..", ""},
		{"example.com/gocolic-bench-7/magic", "a/b", ""},
	}
	for _, tt := range tests {
		got, err := w.FuzzCacheDir(tt.pkg, tt.target)
		if tt.want == "" {
			if err == nil {
				t.Errorf("FuzzCacheDir(%s, %s) = %s; want an error", tt.pkg, tt.target, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("FuzzCacheDir(%s, %s) = %s, %v; want %s", tt.pkg, tt.target, got, err, tt.want)
		}
	}
	if got := w.ModuleFuzzCache(); got != filepath.Join(root, "example.com", "gocolic-bench-7") {
		t.Errorf("ModuleFuzzCache = %s", got)
	}
	// Without a cache root or a module path there is nothing to remove:
	// never the whole fuzz cache.
	for _, bad := range []*Workspace{{ModulePath: w.ModulePath}, {FuzzRoot: root}} {
		if got := bad.ModuleFuzzCache(); got != "" {
			t.Errorf("ModuleFuzzCache of %+v = %q; want \"\"", bad, got)
		}
		if _, err := bad.FuzzCacheDir(w.ModulePath+"/magic", "FuzzMagic"); err == nil {
			t.Errorf("FuzzCacheDir of %+v: no error", bad)
		}
	}
}

func TestStashTestdata(t *testing.T) {
	dir := t.TempDir()
	w := &Workspace{Dir: dir, Module: filepath.Join(dir, "ex")}
	entry := filepath.Join(w.Module, "magic", "testdata", "fuzz", "FuzzMagic", "abc")
	os.MkdirAll(filepath.Dir(entry), 0o755)
	os.WriteFile(entry, []byte("go test fuzz v1\nuint32(1)\n"), 0o644)

	got, err := w.StashTestdata("magic", "fuzz")
	want := filepath.Join(dir, "corpora", "fuzz", "magic", "testdata")
	if err != nil || got != want {
		t.Fatalf("StashTestdata = %s, %v; want %s", got, err, want)
	}
	if _, err := os.Stat(filepath.Join(w.Module, "magic", "testdata")); !os.IsNotExist(err) {
		t.Errorf("testdata still in the module: %v", err)
	}
	if n := CountFiles(filepath.Join(got, "fuzz", "FuzzMagic")); n != 1 {
		t.Errorf("stashed corpus has %d files; want 1", n)
	}
	// Nothing to move: the path is returned, nothing is created.
	got, err = w.StashTestdata("magic", "hybrid")
	if err != nil || got != filepath.Join(dir, "corpora", "hybrid", "magic", "testdata") {
		t.Errorf("StashTestdata without testdata = %s, %v", got, err)
	}
	if _, err := os.Stat(got); !os.IsNotExist(err) {
		t.Errorf("StashTestdata created %s", got)
	}
	// A second stash under a used label would mix two tools' outputs.
	os.MkdirAll(filepath.Dir(entry), 0o755)
	os.WriteFile(entry, []byte("go test fuzz v1\nuint32(2)\n"), 0o644)
	if _, err := w.StashTestdata("magic", "fuzz"); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("second stash under one label: %v; want an error", err)
	}
}

func TestMoveFiles(t *testing.T) {
	src := filepath.Join(t.TempDir(), "FuzzMagic")
	os.MkdirAll(filepath.Join(src, "sub"), 0o755)
	for _, n := range []string{"a", "b"} {
		os.WriteFile(filepath.Join(src, n), []byte("entry "+n), 0o644)
	}
	os.WriteFile(filepath.Join(src, "sub", "c"), []byte("not a corpus entry"), 0o644)
	dst := filepath.Join(t.TempDir(), "cache")
	n, err := MoveFiles(src, dst)
	if err != nil || n != 2 {
		t.Fatalf("MoveFiles = %d, %v; want 2", n, err)
	}
	if data, err := os.ReadFile(filepath.Join(dst, "b")); err != nil || string(data) != "entry b" {
		t.Errorf("moved b = %q, %v", data, err)
	}
	if CountFiles(dst) != 2 {
		t.Errorf("dst has %d files; want 2", CountFiles(dst))
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Errorf("src still exists: %v", err)
	}
	if n, err := MoveFiles(src, filepath.Join(t.TempDir(), "other")); n != 0 || err != nil {
		t.Errorf("MoveFiles of a missing dir = %d, %v", n, err)
	}
	if CountFiles(src) != 0 {
		t.Errorf("CountFiles of a missing dir is not 0")
	}
}

func TestCopyFilesKeepsSource(t *testing.T) {
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "a"), []byte("entry a"), 0o644)
	dst := filepath.Join(t.TempDir(), "new")
	if n, err := CopyFiles(src, dst); err != nil || n != 1 {
		t.Fatalf("CopyFiles = %d, %v; want 1", n, err)
	}
	if CountFiles(src) != 1 || CountFiles(dst) != 1 {
		t.Errorf("after CopyFiles src has %d files, dst %d; want 1 and 1", CountFiles(src), CountFiles(dst))
	}
}
