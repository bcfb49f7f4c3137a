// Package load finds and type-checks the package under test, the way the
// go command does: module-aware, from the module root or any directory
// inside it, with import paths or ./relative patterns.
package load

import (
	"errors"
	"fmt"
	"go/version"
	"os/exec"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Package is a loaded target package and the module it belongs to.
type Package struct {
	*packages.Package
	// ModuleDir is the directory holding the module's go.mod.
	ModuleDir string
	// ModulePath is the module's path.
	ModulePath string
	// GoVersion is the module's language version (the go line of go.mod).
	GoVersion string
}

// ErrBuild marks errors of the user's code: the package does not build.
var ErrBuild = errors.New("package does not build")

// Mode is what gocolic needs of each package.
const Mode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedSyntax |
	packages.NeedTypesInfo | packages.NeedModule | packages.NeedDeps

// Load loads the single package matched by pattern, relative to dir.
func Load(dir, pattern string) (*Package, error) {
	if _, err := exec.LookPath("go"); err != nil {
		return nil, fmt.Errorf("the go command is not on PATH: %w", err)
	}
	cfg := &packages.Config{Mode: Mode, Dir: dir, Tests: false}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", pattern, err)
	}
	if len(pkgs) != 1 {
		var paths []string
		for _, p := range pkgs {
			paths = append(paths, p.PkgPath)
		}
		return nil, fmt.Errorf("pattern %s matches %d packages (%s); name exactly one", pattern, len(pkgs), strings.Join(paths, ", "))
	}
	p := pkgs[0]
	var msgs []string
	listOnly := true
	packages.Visit(pkgs, nil, func(q *packages.Package) {
		for _, e := range q.Errors {
			msgs = append(msgs, e.Error())
			listOnly = listOnly && e.Kind == packages.ListError
		}
	})
	if len(msgs) > 0 && listOnly {
		// Not a compile error: no such directory, no Go files, no module.
		return nil, fmt.Errorf("loading %s: %s", pattern, strings.Join(msgs, "\n"))
	}
	if len(msgs) > 0 {
		return nil, fmt.Errorf("%w: %s\n%s", ErrBuild, p.PkgPath, strings.Join(msgs, "\n"))
	}
	if p.Module == nil || p.Module.Dir == "" {
		return nil, fmt.Errorf("package %s is not inside a module; gocolic needs a go.mod", p.PkgPath)
	}
	if len(p.Syntax) == 0 {
		return nil, fmt.Errorf("package %s has no Go files", p.PkgPath)
	}
	gv := p.Module.GoVersion
	if gv == "" {
		gv = "1.16"
	}
	return &Package{Package: p, ModuleDir: p.Module.Dir, ModulePath: p.Module.Path, GoVersion: gv}, nil
}

// RangeOverFunc reports whether the module's language version permits
// range-over-func loops (go1.23 and later).
func (p *Package) RangeOverFunc() bool {
	return version.Compare("go"+p.GoVersion, "go1.23") >= 0
}
