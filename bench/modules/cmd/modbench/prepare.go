// This file prepares one module for the runs: it downloads the pinned
// version, copies it into the workspace as a main module of its own (the
// target of gocolic test must be in the main module), loads its packages,
// and, with gocolic's own packages, instruments and builds each package
// whole and asks the rewrite which exported functions it accepts.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	shared "github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/bench/modules/corpus"
	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/guard"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/sites"
	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// module is a module of the corpus copied into the workspace.
type module struct {
	corpus.Module
	dir       string // the copy, a main module
	goVersion string // its go line, "1.16" when it has none
}

// download returns the directory of path@version in the module cache,
// downloading it first; run in the corpus module with env, so that
// go.sum checks it.
func download(ctx context.Context, root string, env []string, m corpus.Module) (string, error) {
	r := shared.RunEnv(ctx, 5*time.Minute, root, "", env, "go", "mod", "download", "-json", m.Path+"@"+m.Version)
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(r.Output, &info); err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %v\n%s", m.Path, m.Version, r.Err, shared.Tail(r.Output, 5))
	}
	if info.Error != "" || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", m.Path, m.Version, info.Error)
	}
	return info.Dir, nil
}

// copyModule copies the module in src into dst, writable, with a go.mod
// that has a go line (a module from before modules gets one naming it, as
// the go command would synthesise).
func copyModule(m corpus.Module, src, dst string) (*module, error) {
	err := shared.CopyTree(src, dst,
		func(dir string) bool { return dir == ".git" },
		func(string) bool { return true })
	if err != nil {
		return nil, fmt.Errorf("copying %s: %w", m.Path, err)
	}
	gm := filepath.Join(dst, "go.mod")
	data, err := os.ReadFile(gm)
	if errors.Is(err, os.ErrNotExist) {
		data = []byte("module " + modfile.AutoQuote(m.Path) + "\n")
		if err := os.WriteFile(gm, data, 0o644); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	}
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: go.mod: %w", m.Path, err)
	}
	mod := &module{Module: m, dir: dst, goVersion: "1.16"}
	if f.Go != nil {
		mod.goVersion = f.Go.Version
		return mod, nil
	}
	// Without a go line the go command takes the module to be at go
	// 1.16, but -mod=mod would write its own version there, raising the
	// language version of every file: say 1.16 in the copy.
	if err := f.AddGoStmt(mod.goVersion); err != nil {
		return nil, err
	}
	out, err := f.Format()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(gm, out, 0o644); err != nil {
		return nil, err
	}
	return mod, nil
}

// loadPackages loads every package of the module copy, typed and with
// syntax, as gocolic loads its target (load.Mode).
func loadPackages(mod *module) ([]*packages.Package, error) {
	cfg := &packages.Config{Mode: load.Mode, Dir: mod.dir}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", mod.Path, err)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].PkgPath < pkgs[j].PkgPath })
	return pkgs, nil
}

// packageErrors returns the errors of p and of the packages it imports,
// as gocolic's load reports them ("" if none).
func packageErrors(p *packages.Package) string {
	var msgs []string
	packages.Visit([]*packages.Package{p}, nil, func(q *packages.Package) {
		for _, e := range q.Errors {
			msgs = append(msgs, e.Error())
		}
	})
	if len(msgs) == 0 {
		return ""
	}
	if len(msgs) > 3 {
		msgs = append(msgs[:3], fmt.Sprintf("(%d more)", len(msgs)-3))
	}
	return "does not build: " + strings.Join(msgs, "; ")
}

// relDir returns the ./pattern of package p in the module copy.
func relDir(mod *module, p *packages.Package) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(p.PkgPath, mod.Path), "/")
	if rel == "" {
		return "."
	}
	return "./" + rel
}

// exported returns the functions of p that gocolic test could be asked
// for: exported package-level functions, and the exported methods
// declared on exported named types, as Func and Type.Method, sorted.
func exported(p *packages.Package) []string {
	var names []string
	scope := p.Types.Scope()
	for _, n := range scope.Names() {
		switch obj := scope.Lookup(n).(type) {
		case *types.Func:
			if obj.Exported() {
				names = append(names, n)
			}
		case *types.TypeName:
			named, ok := obj.Type().(*types.Named)
			if !ok || obj.IsAlias() || !obj.Exported() {
				continue
			}
			for i := 0; i < named.NumMethods(); i++ {
				if m := named.Method(i); m.Exported() {
					names = append(names, n+"."+m.Name())
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

// rewriteConfig is the configuration gocolic test instruments a target
// of mod with.
func rewriteConfig() instrument.Config {
	return instrument.Config{RuntimePath: build.RuntimePath}
}

// checkPackage instruments p whole (every function, as -instrument does
// for a package) and builds it into a worker in a directory of work. It
// fills in the package's Build, BuildDetail and Outcomes, or Refused when
// the rewrite refuses the package with an error.
func checkPackage(mod *module, p *packages.Package, work string, res *PackageResult) {
	cfg := rewriteConfig()
	cfg.Support = true
	var ins *instrument.Result
	err := guard.Do("instrument", func() (err error) {
		ins, err = instrument.Package(p, cfg)
		return err
	})
	if g := guard.As(err); g != nil {
		res.Build, res.BuildDetail = statusCrash, fmt.Sprintf("%s: %v\n%s", crashInstrumentr, g.Value, firstLines(g.Stack, 20))
		return
	}
	if err != nil {
		res.Refused = err.Error()
		return
	}
	for _, s := range ins.Sites {
		if s.Kind == sites.Cond {
			res.Outcomes += 2
		}
	}
	dir, err := os.MkdirTemp(work, "build-")
	if err != nil {
		res.Build, res.BuildDetail = statusCrash, err.Error()
		return
	}
	defer os.RemoveAll(dir)
	_, err = build.Worker(build.Spec{
		ModuleDir: mod.dir, ModulePath: mod.Path, PkgPath: p.PkgPath, PkgName: p.Name,
		Files: ins.Files, Added: ins.Added(), WorkDir: dir, GoVersion: load.ModuleGoVersion(p),
	})
	var be *build.Error
	switch {
	case errors.As(err, &be):
		res.Build, res.BuildDetail = statusBuild, firstLines(strings.ReplaceAll(be.Output, mod.dir+string(filepath.Separator), ""), 12)
	case err != nil:
		res.Build, res.BuildDetail = statusCrash, err.Error()
	default:
		res.Build = "ok"
	}
}

// checkFunction asks the rewrite whether gocolic test accepts name as its
// target: the error of instrumenting p with name as the entry is the
// refusal gocolic test would print (exit status 2). It returns nil for a
// function gocolic accepts, and a crash result if the rewrite panics.
func checkFunction(mod *module, p *packages.Package, name string) *FunctionResult {
	cfg := rewriteConfig()
	cfg.Entry = name
	err := guard.Do("instrument", func() error {
		_, err := instrument.Package(p, cfg)
		return err
	})
	if err == nil {
		return nil
	}
	if g := guard.As(err); g != nil {
		return &FunctionResult{Name: name, Status: statusCrash, Reason: crashInstrumentr,
			Detail: fmt.Sprintf("%v\n%s", g.Value, firstLines(g.Stack, 20))}
	}
	return &FunctionResult{Name: name, Status: statusRefused, Reason: normalizeReason(err.Error()), Detail: err.Error()}
}
