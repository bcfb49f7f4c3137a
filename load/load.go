// Package load finds and type-checks the package under test, the way the
// go command does: module-aware, from the module root or any directory
// inside it, with import paths or ./relative patterns.
package load

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gocolic/gocolic/proc"
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
	// Under is, for a fuzz target in an external test package, the
	// package under test (its test variant, as the external package
	// imports it); nil otherwise.
	Under *packages.Package
	// Tags are the build tags the package was loaded with beyond the
	// user's (FallbackTags); every go command of the run needs them
	// (proc.GoEnv).
	Tags []string

	supportMemo map[string]supportAnswer // Support's answers, by arguments
}

// ErrBuild marks errors of the user's code: the package does not build.
var ErrBuild = errors.New("package does not build")

// Mode is what gocolic needs of each package.
const Mode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedSyntax |
	packages.NeedTypesInfo | packages.NeedModule | packages.NeedDeps

// Load loads the single package matched by pattern, relative to dir.
func Load(dir, pattern string) (*Package, error) { return LoadTags(dir, pattern, nil) }

// LoadTags is Load with the build tags tags added to the user's.
func LoadTags(dir, pattern string, tags []string) (*Package, error) {
	if _, err := exec.LookPath("go"); err != nil {
		return nil, fmt.Errorf("the go command is not on PATH: %w", err)
	}
	cfg := &packages.Config{Mode: Mode, Dir: dir, Tests: false, Env: proc.GoEnv(tags)}
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
	if err := ownModule(p); err != nil {
		return nil, err
	}
	if len(p.Syntax) == 0 {
		return nil, fmt.Errorf("package %s has no Go files", p.PkgPath)
	}
	gv := p.Module.GoVersion
	if gv == "" {
		gv = "1.16"
	}
	return &Package{Package: p, ModuleDir: p.Module.Dir, ModulePath: p.Module.Path, GoVersion: gv, Tags: tags}, nil
}

// ownModule refuses a package of a module the go command took from the
// module cache (a dependency, not replaced by a directory): gocolic
// writes its tests beside the package and builds it through an overlay,
// and neither may touch the read-only cache. The message says what to do
// instead; before it, the build's overlay error was all a user saw.
func ownModule(p *packages.Package) error {
	m := p.Module
	if m.Main || m.Replace != nil && m.Replace.Version == "" {
		return nil
	}
	return fmt.Errorf("package %s belongs to %s@%s, a dependency in the module cache, which gocolic does not write to: "+
		"test a function of your own module that calls it, with -instrument %s so that values stay symbolic inside it",
		p.PkgPath, m.Path, m.Version, p.PkgPath)
}

// LoadTest loads the package matched by pattern together with its test
// files (the variants that go test compiles), for fuzz targets. When the
// fuzz target is in the external test package (package p_test), that is
// the Package returned, and Under is the package under test as it imports
// it.
func LoadTest(dir, pattern, fuzzTarget string) (*Package, error) {
	return LoadTestTags(dir, pattern, fuzzTarget, nil)
}

// LoadTestTags is LoadTest with the build tags tags added to the user's.
func LoadTestTags(dir, pattern, fuzzTarget string, tags []string) (*Package, error) {
	cfg := &packages.Config{Mode: Mode, Dir: dir, Tests: true, Env: proc.GoEnv(tags)}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", pattern, err)
	}
	var internal, external *packages.Package
	for _, p := range pkgs {
		if !strings.HasSuffix(p.ID, ".test]") || p.Types == nil {
			continue
		}
		if strings.HasSuffix(p.Name, "_test") {
			external = p
			continue
		}
		internal = p
	}
	target := internal
	if external != nil && external.Types.Scope().Lookup(fuzzTarget) != nil {
		target = external
	}
	if target == nil {
		// No test variant: the package has no tests at all.
		if len(pkgs) > 0 {
			if _, err := LoadTags(dir, pattern, tags); err != nil {
				return nil, err
			}
		}
		return nil, fmt.Errorf("package %s has no fuzz target %s (no _test.go files in the package)", pattern, fuzzTarget)
	}
	var msgs []string
	packages.Visit([]*packages.Package{target}, nil, func(q *packages.Package) {
		for _, e := range q.Errors {
			msgs = append(msgs, e.Error())
		}
	})
	if len(msgs) > 0 {
		return nil, fmt.Errorf("%w: %s\n%s", ErrBuild, target.PkgPath, strings.Join(msgs, "\n"))
	}
	if target.Module == nil || target.Module.Dir == "" {
		return nil, fmt.Errorf("package %s is not inside a module; gocolic needs a go.mod", target.PkgPath)
	}
	if err := ownModule(target); err != nil {
		return nil, err
	}
	gv := target.Module.GoVersion
	if gv == "" {
		gv = "1.16"
	}
	out := &Package{Package: target, ModuleDir: target.Module.Dir, ModulePath: target.Module.Path, GoVersion: gv, Tags: tags}
	if target == external {
		under := strings.TrimSuffix(external.PkgPath, "_test")
		// Nil when the external package does not import the package
		// under test: there is then nothing more to instrument.
		if u := external.Imports[under]; u != nil && len(u.Syntax) > 0 {
			out.Under = u
		}
	}
	return out, nil
}
