// This file builds workers that instrument packages of other modules
// (-instrument on a dependency). go build -overlay refuses to replace
// files under GOMODCACHE; so each such module is copied into the work
// directory, and a temporary go.mod passed with -modfile replaces it with
// its copy. The runtime needs nothing of this: it is a standard package
// (RuntimePath), which every module may import. The user's go.mod and
// go.sum, and the module cache, are only read.

package build

import (
	"bytes"
	"errors"
	"fmt"
	"go/version"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/mod/modfile"
)

// Dep is a module other than the main module with instrumented packages.
type Dep struct {
	Path string // module path
	// Dir is the module's directory: in the module cache, or the
	// directory of a replace directive.
	Dir string
	// GoVersion is the go line of its go.mod ("" for none).
	GoVersion string
}

// modFileName is the temporary go.mod in the work directory; go wants
// the go.sum it goes with beside it, named after it.
const modFileName = "gocolic.mod"

// fileVersion is the language version given to rewritten files of
// modules older than go1.18: the rewrite uses generics, and go1.21 is the
// lowest version a //go:build line can set (it changes no semantics of
// older code; go1.22's loop variables would).
const fileVersion = "go1.21"

// prepareDeps copies the dependencies into the work directory, writes
// the temporary go.mod, and returns the -modfile
// argument and the function that maps a path in an original module
// directory to its copy.
func prepareDeps(s Spec) (modFile string, mapPath func(string) string, err error) {
	if err := CheckDeps(s.ModuleDir); err != nil {
		return "", nil, err
	}
	gomod, err := os.ReadFile(filepath.Join(s.ModuleDir, "go.mod"))
	if err != nil {
		return "", nil, fmt.Errorf("reading go.mod: %w", err)
	}
	copies := map[string]string{} // module path -> copy
	type move struct{ from, to string }
	var moves []move
	for i, d := range s.Deps {
		dst := filepath.Join(s.WorkDir, "deps", fmt.Sprintf("%d_%s", i, safeName(d.Path)))
		// A second build in the same work directory (the session's
		// fallback without the standard copies) copies afresh.
		if err := os.RemoveAll(dst); err != nil {
			return "", nil, fmt.Errorf("copying module %s: %w", d.Path, err)
		}
		if err := copyModule(d.Dir, dst); err != nil {
			return "", nil, fmt.Errorf("copying module %s: %w", d.Path, err)
		}
		gm := filepath.Join(dst, "go.mod")
		if _, err := os.Stat(gm); errors.Is(err, fs.ErrNotExist) {
			// A module from before go.mod: go synthesises one, a
			// directory replacement needs it written.
			if err := os.WriteFile(gm, []byte("module "+modfile.AutoQuote(d.Path)+"\n"), 0o644); err != nil {
				return "", nil, err
			}
		}
		copies[d.Path] = dst
		moves = append(moves, move{d.Dir, dst})
	}
	tmp, err := tempModFile(gomod, copies)
	if err != nil {
		return "", nil, err
	}
	modFile = filepath.Join(s.WorkDir, modFileName)
	if err := os.WriteFile(modFile, tmp, 0o644); err != nil {
		return "", nil, err
	}
	if sum, err := os.ReadFile(filepath.Join(s.ModuleDir, "go.sum")); err == nil {
		if err := os.WriteFile(strings.TrimSuffix(modFile, ".mod")+".sum", sum, 0o644); err != nil {
			return "", nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", nil, err
	}
	mapPath = func(p string) string {
		for _, m := range moves {
			if rel, ok := within(m.from, p); ok {
				return filepath.Join(m.to, rel)
			}
		}
		return p
	}
	return modFile, mapPath, nil
}

// CheckDeps returns an error if packages of other modules cannot be
// instrumented in the main module in moduleDir: with vendored modules
// (not supported yet) or in workspace mode (go.work), which forbids
// -modfile.
func CheckDeps(moduleDir string) error {
	if _, err := os.Stat(filepath.Join(moduleDir, "vendor", "modules.txt")); err == nil {
		return errors.New("-instrument of packages of other modules does not support vendored modules (vendor/modules.txt) yet; instrument packages of your own module only")
	}
	if out, err := goEnv(moduleDir, "GOWORK"); err != nil {
		return err
	} else if out != "" && out != "off" {
		return fmt.Errorf("-instrument of packages of other modules does not work in workspace mode (%s): it builds with a temporary go.mod, which go.work forbids; set GOWORK=off", out)
	}
	return nil
}

// tempModFile returns the temporary go.mod: the user's gomod with every
// module of copies (path -> directory) replaced by its directory, whatever
// replacement it had.
func tempModFile(gomod []byte, copies map[string]string) ([]byte, error) {
	f, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		return nil, fmt.Errorf("reading go.mod: %w", err)
	}
	if f.Module == nil {
		return nil, errors.New("go.mod has no module line")
	}
	for path, dir := range copies {
		// An empty old version replaces every version, and
		// AddReplace drops the user's replacements of path.
		if err := f.AddReplace(path, "", dir, ""); err != nil {
			return nil, err
		}
	}
	f.Cleanup()
	return f.Format()
}

// needsFileVersion reports whether the rewritten files of a module at
// language version v (its go line, "" for none) need a newer one.
func needsFileVersion(v string) bool {
	if v == "" {
		v = "1.16"
	}
	return version.Compare("go"+v, "go1.18") < 0
}

var buildLine = regexp.MustCompile(`^//go:build |^// \+build `)

// setFileVersion makes src, a Go file, compile at language version v: a
// //go:build line with the version replaces the file's build lines. The
// file was compiled already, so its own constraints hold; replacing them
// keeps the line count, so positions stay right.
func setFileVersion(src []byte, v string) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	done := false
	for i, l := range lines {
		t := bytes.TrimSpace(l)
		if bytes.HasPrefix(t, []byte("package ")) {
			break
		}
		if buildLine.Match(t) {
			if done {
				lines[i] = []byte("\n")
			} else {
				lines[i] = []byte("//go:build " + v + "\n")
				done = true
			}
		}
	}
	out := bytes.Join(lines, nil)
	if !done {
		// No build line: one before everything, then a blank line.
		out = append([]byte("//go:build "+v+"\n\n"), out...)
	}
	return out
}

// copyModule copies the regular files of the module in src into dst,
// writable, without nested modules and version-control directories.
func copyModule(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel != "." {
				if d.Name() == ".git" || d.Name() == ".hg" || d.Name() == ".svn" {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(filepath.Join(dst, rel), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

// within returns p relative to dir, if p is inside dir.
func within(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// safeName makes a module path usable as one path element.
func safeName(path string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == '@' {
			return '_'
		}
		return r
	}, path)
}

// goEnv returns go env name, run in dir.
func goEnv(dir, name string) (string, error) {
	vs, err := goEnvs(dir, name)
	if err != nil {
		return "", err
	}
	return vs[0], nil
}

// goEnvs returns go env names..., run in dir, one value per name.
func goEnvs(dir string, names ...string) ([]string, error) {
	cmd := exec.Command("go", append([]string{"env"}, names...)...)
	cmd.Dir = dir
	out, err := cmd.Output()
	what := "go env " + strings.Join(names, " ")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	// One line per name, an empty one for an unset variable.
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(names) {
		return nil, fmt.Errorf("%s: %d lines, want %d", what, len(lines), len(names))
	}
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return lines, nil
}

// Roots returns go env GOROOT and GOMODCACHE, run in dir: where the
// standard library's files and the module cache's lie, which reports
// shorten paths by.
func Roots(dir string) (goroot, modcache string, err error) {
	vs, err := goEnvs(dir, "GOROOT", "GOMODCACHE")
	if err != nil {
		return "", "", err
	}
	return vs[0], vs[1], nil
}
