package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WorkspaceModulePath returns the module path of the examples copy in the
// workspace directory dir: example.com/ followed by the directory's name,
// with every character a module path element may not hold, or an upper
// case letter, replaced by '-'.
func WorkspaceModulePath(dir string) string {
	var b strings.Builder
	for _, c := range filepath.Base(dir) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
			b.WriteRune(c)
		default:
			b.WriteByte('-')
		}
	}
	elem := strings.Trim(b.String(), "-")
	if elem == "" {
		elem = "ex"
	}
	return "example.com/" + elem
}

// PkgPath returns the import path of the example name in the workspace.
func (w *Workspace) PkgPath(name string) string { return w.ModulePath + "/" + name }

// ModuleFuzzCache returns the directory where go test -fuzz keeps the
// corpus cache of every package of the workspace's module, "" if unknown.
func (w *Workspace) ModuleFuzzCache() string {
	if w.FuzzRoot == "" || w.ModulePath == "" {
		return ""
	}
	return filepath.Join(w.FuzzRoot, filepath.FromSlash(w.ModulePath))
}

// FuzzCacheDir returns the directory where go test -fuzz, run without
// -test.fuzzcachedir, keeps the corpus cache of the fuzz target of package
// pkgPath: $GOCACHE/fuzz/<pkgPath>/<target>. It returns an error for a
// package outside the workspace's module, whose cache is none of the
// benchmark's business.
func (w *Workspace) FuzzCacheDir(pkgPath, target string) (string, error) {
	root := w.ModuleFuzzCache()
	switch {
	case root == "":
		return "", errors.New("the fuzz cache directory is unknown (go env GOCACHE failed)")
	case pkgPath != w.ModulePath && !strings.HasPrefix(pkgPath, w.ModulePath+"/"):
		return "", fmt.Errorf("package %s is outside the workspace module %s", pkgPath, w.ModulePath)
	case target == "" || strings.ContainsAny(target, `/\`) || target == "." || target == "..":
		return "", fmt.Errorf("bad fuzz target name %q", target)
	}
	return filepath.Join(w.FuzzRoot, filepath.FromSlash(pkgPath), target), nil
}

// StashTestdata moves the testdata directory of the example name (corpus
// entries and failures a tool wrote) out of the module, to
// Dir/corpora/label/name/testdata, so that the next tool starts without
// them, and returns that path. Without a testdata directory it moves
// nothing and returns the path all the same: a corpus directory under it
// reads as empty.
func (w *Workspace) StashTestdata(name, label string) (string, error) {
	src := filepath.Join(w.Module, name, "testdata")
	dst := filepath.Join(w.Dir, "corpora", label, name, "testdata")
	if _, err := os.Stat(dst); err == nil {
		return "", fmt.Errorf("stashing %s: %s exists already", src, dst)
	}
	if _, err := os.Stat(src); os.IsNotExist(err) {
		return dst, nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(src, dst); err != nil {
		return "", fmt.Errorf("stashing %s: %w", src, err)
	}
	return dst, nil
}

// MoveFiles copies the regular files of src (not its subdirectories) into
// dst, which it creates, then removes src with everything in it. A missing
// src moves nothing. It copies rather than renames because the build
// cache and the workspace may be on different file systems. It returns
// the number of files copied.
func MoveFiles(src, dst string) (int, error) {
	n, err := CopyFiles(src, dst)
	if err != nil {
		return n, err
	}
	return n, os.RemoveAll(src) // nil for a missing src
}

// CopyFiles copies the regular files of src (not its subdirectories) into
// dst, which it creates when src exists, and returns how many it copied.
// A missing src copies nothing.
func CopyFiles(src, dst string) (int, error) {
	entries, err := os.ReadDir(src)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return n, err
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// CountFiles returns the number of regular files directly in dir, 0 if it
// does not exist.
func CountFiles(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if e.Type().IsRegular() {
			n++
		}
	}
	return n
}
