// This file resolves -instrument: the packages rewritten beside the target
// as support packages, so that values stay symbolic across their calls.

package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gocolic/gocolic/proc"
)

// listed is what go list says of a package matched by an -instrument
// pattern.
type listed struct {
	ImportPath string
	Match      []string
	Standard   bool
	CgoFiles   []string
	Error      *struct{ Err string }
}

// Support returns the packages to instrument beside the target, as
// support packages, in dependency order: every package comes after the
// packages it imports, so that each can be rewritten knowing the twins of
// those. They are the packages of the target's import graph that the
// patterns (go package patterns, as go list takes them, relative to dir)
// match, and, for a fuzz target in an external test package, the package
// under test. The target itself is never among them. Without patterns no
// go command runs.
//
// It is an error for a pattern to match nothing, to match a package of
// the standard library (which gocolic cannot instrument: its runtime is
// built on it), to match only packages the target does not import, or to
// match a package of the graph that uses cgo.
//
// The answer is kept on p: a run asks twice (for the fallback tags, then
// to instrument), and each ask runs go list.
func (p *Package) Support(dir string, patterns []string) ([]*packages.Package, error) {
	key := dir + "\x00" + strings.Join(patterns, "\x00")
	if r, ok := p.supportMemo[key]; ok {
		return slices.Clone(r.pkgs), r.err
	}
	pkgs, err := p.support(dir, patterns)
	if p.supportMemo == nil {
		p.supportMemo = map[string]supportAnswer{}
	}
	p.supportMemo[key] = supportAnswer{pkgs, err}
	return slices.Clone(pkgs), err
}

// supportAnswer is one answer of Support, kept.
type supportAnswer struct {
	pkgs []*packages.Package
	err  error
}

func (p *Package) support(dir string, patterns []string) ([]*packages.Package, error) {
	if len(patterns) == 0 && p.Under == nil {
		return nil, nil
	}
	want := map[string]string{} // import path -> the pattern that matched it
	if len(patterns) > 0 {
		list, err := goList(dir, patterns, p.Tags)
		if err != nil {
			return nil, err
		}
		var std, bad []string
		matched := map[string][]string{} // pattern -> import paths
		cgo := map[string]bool{}
		for _, l := range list {
			for _, m := range l.Match {
				matched[m] = append(matched[m], l.ImportPath)
			}
			switch {
			case l.Error != nil:
				bad = append(bad, fmt.Sprintf("-instrument %s: %s", strings.Join(l.Match, ","), l.Error.Err))
			case l.Standard:
				std = append(std, l.ImportPath)
			default:
				cgo[l.ImportPath] = len(l.CgoFiles) > 0
				for _, m := range l.Match {
					want[l.ImportPath] = m
				}
			}
		}
		if len(bad) > 0 {
			return nil, errors.New(strings.Join(bad, "\n"))
		}
		if len(std) > 0 {
			return nil, fmt.Errorf("-instrument matches standard-library packages (%s): name packages of your module (./...) or of its dependencies; the standard packages the target reaches are instrumented by -stdlib", abbrev(std))
		}
		for _, pat := range patterns {
			if len(matched[pat]) == 0 {
				return nil, fmt.Errorf("-instrument %s matches no packages", pat)
			}
		}
		// A package of the graph that uses cgo cannot be rewritten.
		var cgoPkgs []string
		p.visitGraph(func(q *packages.Package) {
			if want[q.PkgPath] != "" && cgo[q.PkgPath] {
				cgoPkgs = append(cgoPkgs, fmt.Sprintf("%s (matched by %s)", q.PkgPath, want[q.PkgPath]))
			}
		})
		if len(cgoPkgs) > 0 {
			return nil, fmt.Errorf("-instrument: %s uses cgo, which gocolic cannot instrument; narrow the pattern", strings.Join(cgoPkgs, ", "))
		}
		// A pattern whose packages the target never reaches changes
		// nothing: most likely a mistake.
		reach := map[string]bool{p.PkgPath: true}
		if p.Under != nil {
			reach[p.Under.PkgPath] = true
		}
		p.visitGraph(func(q *packages.Package) { reach[q.PkgPath] = true })
		for _, pat := range patterns {
			if !slices.ContainsFunc(matched[pat], func(path string) bool { return reach[path] }) {
				return nil, fmt.Errorf("-instrument %s matches %s, which %s does not import", pat, abbrev(matched[pat]), p.PkgPath)
			}
		}
	}
	var out []*packages.Package
	seen := map[string]bool{p.PkgPath: true}
	p.visitGraph(func(q *packages.Package) {
		if seen[q.PkgPath] || want[q.PkgPath] == "" && q != p.Under {
			return
		}
		seen[q.PkgPath] = true
		out = append(out, q)
	})
	for _, q := range out {
		if len(q.Syntax) == 0 || q.TypesInfo == nil {
			return nil, fmt.Errorf("-instrument: package %s was loaded without its syntax", q.PkgPath)
		}
	}
	return out, nil
}

// visitGraph calls f on every package the target imports, directly or
// not, each after the packages it imports.
func (p *Package) visitGraph(f func(*packages.Package)) {
	var roots []*packages.Package
	for _, q := range p.Imports {
		roots = append(roots, q)
	}
	// Map order must not decide the order of sites.
	slices.SortFunc(roots, func(a, b *packages.Package) int { return strings.Compare(a.ID, b.ID) })
	packages.Visit(roots, nil, f)
}

// goList runs go list -e on the patterns in dir.
func goList(dir string, patterns, tags []string) ([]listed, error) {
	args := append([]string{"list", "-e", "-json=ImportPath,Match,Standard,CgoFiles,Error", "--"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, proc.GoEnv(tags)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("-instrument %s: go list: %v\n%s", strings.Join(patterns, ","), err, strings.TrimSpace(stderr.String()))
	}
	var out []listed
	dec := json.NewDecoder(&stdout)
	for {
		var l listed
		if err := dec.Decode(&l); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("-instrument: reading go list output: %w", err)
		}
		out = append(out, l)
	}
	return out, nil
}

// abbrev lists a few paths.
func abbrev(paths []string) string {
	if len(paths) > 4 {
		return strings.Join(paths[:4], ", ") + fmt.Sprintf(" and %d more", len(paths)-4)
	}
	return strings.Join(paths, ", ")
}

// IsStandard reports whether q is a package of the standard library: no
// module, and no dot in its path's first element.
func IsStandard(q *packages.Package) bool {
	return q.Module == nil && IsStandardPath(q.PkgPath)
}

// IsStandardPath reports whether an import path has the form of a
// standard package's: not empty, no dot in its first element.
func IsStandardPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return path != "" && !strings.Contains(first, ".")
}

// Standard returns the standard packages of the target's import graph for
// which keep is true, each after the packages it imports, with their
// syntax: those the target reaches through its own packages and kept
// standard ones, not through a standard package that is not kept.
func (p *Package) Standard(keep func(*packages.Package) bool) []*packages.Package {
	var out []*packages.Package
	seen := map[*packages.Package]bool{}
	var visit func(q *packages.Package)
	visit = func(q *packages.Package) {
		if seen[q] {
			return
		}
		seen[q] = true
		std := IsStandard(q)
		if std && !(len(q.Syntax) > 0 && q.TypesInfo != nil && keep(q)) {
			// Values reach what this package imports only through
			// its own code, which stays uninstrumented: nothing below
			// it is the target's concern (testing's imports, for a
			// fuzz target).
			return
		}
		for _, path := range sortedImports(q) {
			visit(q.Imports[path])
		}
		if std {
			out = append(out, q)
		}
	}
	for _, path := range sortedImports(p.Package) {
		visit(p.Imports[path])
	}
	return out
}

// sortedImports returns the import paths of q in order, so that map order
// does not decide the order of sites.
func sortedImports(q *packages.Package) []string {
	paths := make([]string, 0, len(q.Imports))
	for path := range q.Imports {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	return paths
}

// IsDependency reports whether q belongs to another module than the main
// module: a dependency, whose files are read from the module cache (or a
// replacement directory) and must be copied before they can be rewritten.
func IsDependency(q *packages.Package) bool { return q.Module != nil && !q.Module.Main }

// ModuleGoVersion is the language version of q's module (1.16 when its
// go.mod has no go line).
func ModuleGoVersion(q *packages.Package) string {
	if q.Module == nil || q.Module.GoVersion == "" {
		return "1.16"
	}
	return q.Module.GoVersion
}
