// This file instruments the support packages of a run: those -instrument
// names and, for a fuzz target in an external test package, the package
// under test. They are rewritten before the target, each knowing the
// twins of those it imports, with sites numbered one package after the
// other.

package session

import (
	"cmp"
	"fmt"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/guard"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/sites"
	"golang.org/x/tools/go/packages"
)

// support is what the support packages add to a build.
type support struct {
	// exports are the twins of all support packages, for the target.
	exports instrument.Exports
	// sites are their branch sites, numbered from 0; the target's come
	// after them.
	sites []sites.Site
	files map[string][]byte
	added map[string][]byte // entry files
	deps  []build.Dep
	paths []string            // import paths, in the order rewritten
	pkgs  []*packages.Package // the packages of paths
	// std are the standard packages among paths (stdlib.go); stdFailed
	// those the rewrite refused, with why, which stay uninstrumented.
	std       []string
	stdFailed []string
	// copies are the floor packages among std, instrumented as copies
	// (build/stdcopy.go).
	copies []build.Copy
	// consts are the constants of the packages that are not standard,
	// for the dictionary and -maxlen, which the target's alone would
	// miss when its calls lead into them.
	consts instrument.Consts
}

// instrumentSupport rewrites the support packages of pkg: those the
// patterns match (cfg.Instrument), pkg.Under, and the standard packages
// (stdlib.go), floor packages among them as copies if copies is set.
func instrumentSupport(cfg Config, pkg *load.Package, copies bool) (*support, error) {
	pkgs, err := pkg.Support(cfg.Dir, cfg.Instrument)
	if err != nil {
		return nil, err
	}
	s := &support{files: map[string][]byte{}, added: map[string][]byte{}}
	seen := map[string]bool{}
	for _, q := range pkgs {
		if !load.IsDependency(q) || seen[q.Module.Path] {
			continue
		}
		if len(seen) == 0 {
			if err := build.CheckDeps(pkg.ModuleDir); err != nil {
				return nil, err
			}
		}
		seen[q.Module.Path] = true
		m := q.Module
		dep := build.Dep{Path: m.Path, Dir: m.Dir, GoVersion: m.GoVersion}
		if r := m.Replace; r != nil {
			// The files, and the go line, are the replacement's.
			dep.Dir, dep.GoVersion = cmp.Or(r.Dir, m.Dir), cmp.Or(r.GoVersion, m.GoVersion)
		}
		if dep.Dir == "" {
			return nil, fmt.Errorf("-instrument: module %s of package %s has no directory (not downloaded?)", m.Path, q.PkgPath)
		}
		s.deps = append(s.deps, dep)
	}
	sort.Slice(s.deps, func(i, j int) bool { return s.deps[i].Path < s.deps[j].Path })
	// Standard packages first: they import no other package of the run.
	for _, q := range stdPackages(cfg, pkg, copies) {
		n := len(s.sites)
		if err := guard.Do("instrument", func() error { return s.add(q, cfg.Impure) }); err != nil {
			s.stdFailed = append(s.stdFailed, fmt.Sprintf("%s: %v", q.PkgPath, err))
			continue
		}
		for i := n; i < len(s.sites); i++ {
			s.sites[i].Std = true
		}
		s.std = append(s.std, q.PkgPath)
		if build.Copyable(q.PkgPath) {
			s.addCopy(q)
		}
	}
	for _, q := range pkgs {
		if err := s.add(q, cfg.Impure); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// add rewrites one support package, after the packages it imports.
func (s *support) add(q *packages.Package, impure []string) error {
	res, err := instrument.Package(q, instrument.Config{
		RuntimePath: build.RuntimePath, Support: true,
		SiteBase: uint32(len(s.sites)), Imported: s.exports, Impure: impure,
	})
	if err != nil {
		return err
	}
	s.exports = s.exports.Merge(res.Exports)
	s.sites = append(s.sites, res.Sites...)
	if !load.IsStandard(q) {
		s.consts.Merge(res.Consts)
	}
	for path, src := range res.Files {
		s.files[path] = src
	}
	for path, src := range res.Added() {
		s.added[path] = src
	}
	s.paths = append(s.paths, q.PkgPath)
	s.pkgs = append(s.pkgs, q)
	return nil
}

// addCopy notes that q, just rewritten, is laid as a copy: the methods of
// the types the copy aliases stay the original's, so other packages call
// them as they are rather than through twins the copy does not have.
func (s *support) addCopy(q *packages.Package) {
	c := build.Copy{Path: q.PkgPath, Dir: filepath.Dir(q.CompiledGoFiles[0]), Aliases: build.Aliases(q.Types, q.TypesInfo)}
	s.copies = append(s.copies, c)
	s.exports = s.exports.Without(func(fn *types.Func) bool {
		sig, ok := fn.Type().(*types.Signature)
		if !ok || sig.Recv() == nil || fn.Pkg() != q.Types {
			return false
		}
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		return ok && c.Aliases[n.Obj().Name()]
	})
}

// stdList lists the instrumented standard packages for a message, the
// copied ones marked.
func (s *support) stdList() string {
	names := make([]string, len(s.std))
	for i, p := range s.std {
		names[i] = p
		if build.Copyable(p) {
			names[i] += " (copy)"
		}
	}
	return strings.Join(names, ", ")
}

// config completes the target's instrument.Config: sites after the
// support packages', calls into them through their twins.
func (s *support) config(c instrument.Config) instrument.Config {
	c.RuntimePath = build.RuntimePath
	c.SiteBase = uint32(len(s.sites))
	c.Imported = s.exports
	return c
}

// merge adds the support packages to the target's rewrite: their sites
// first, their files, and their entry files to added. The files of
// copied floor packages move to their copies (added), and every other
// rewritten file imports the copies instead of the originals.
func (s *support) merge(ins *instrument.Result, added map[string][]byte) error {
	ins.Consts.Merge(s.consts)
	if len(s.paths) == 0 {
		return nil
	}
	ins.Sites = append(append([]sites.Site(nil), s.sites...), ins.Sites...)
	for path, src := range s.files {
		ins.Files[path] = src
	}
	for path, src := range s.added {
		added[path] = src
	}
	if len(s.copies) == 0 {
		return nil
	}
	copied := map[string]bool{}
	for _, c := range s.copies {
		copied[c.Path] = true
	}
	copies := map[string][]byte{}
	for _, c := range s.copies {
		files := map[string][]byte{}
		for _, m := range []map[string][]byte{ins.Files, added} {
			for path, src := range m {
				if filepath.Dir(path) != c.Dir {
					continue
				}
				delete(m, path)
				// The goroutine identity is assembly, which the go
				// command cannot assemble in a directory only the
				// overlay has; the other instrumented packages give it.
				if !strings.HasPrefix(filepath.Base(path), instrument.GFile) {
					files[path] = src
				}
			}
		}
		out, err := build.AsCopy(c, files, copied)
		if err != nil {
			return err
		}
		for path, src := range out {
			copies[path] = src
		}
	}
	for _, m := range []map[string][]byte{ins.Files, added} {
		for path, src := range m {
			if strings.HasSuffix(path, ".go") {
				b, err := build.Redirect(src, copied)
				if err != nil {
					return fmt.Errorf("importing the copies of standard packages in %s: %w", path, err)
				}
				m[path] = b
			}
		}
	}
	for path, src := range copies {
		added[path] = src
	}
	return nil
}

// withFallbackTags reloads pkg, with reload, under the build tags with
// which the packages this run instruments (pkg, the package under test
// of an external test package, and what -instrument names) use their Go
// code instead of assembly (load.FallbackTags): the arguments of an
// assembly function turn concrete, and its callers' goals go out of
// reach. It says which tags it added; when the packages do not build
// under them, it says so and keeps pkg, as it does when no tag applies.
func withFallbackTags(cfg Config, pkg *load.Package, reload func(tags []string) (*load.Package, error)) (*load.Package, error) {
	cands := []*packages.Package{pkg.Package, pkg.Under}
	if len(cfg.Instrument) > 0 {
		sup, err := pkg.Support(cfg.Dir, cfg.Instrument)
		if err != nil {
			return nil, err
		}
		cands = append(cands, sup...)
	}
	tags := load.FallbackTags(cands)
	if len(tags) == 0 {
		return pkg, nil
	}
	list := strings.Join(tags, ",")
	q, err := reload(tags)
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "gocolic: the instrumented packages have assembly with a Go version under -tags %s, which does not build; going on with the assembly, whose arguments turn concrete: %s\n", list, firstLines(err.Error(), 3))
		return pkg, nil
	}
	fmt.Fprintf(cfg.Stderr, "gocolic: building with -tags %s, under which the instrumented packages use Go instead of assembly\n", list)
	return q, nil
}

// maxLenFromCode bounds the raise of -maxlen to the lengths the code
// compares with: past it, a length check is more likely a buffer bound
// than a format, and longer inputs cost executions (the scanner example
// ran about half as many executions per second at 128 as at 32).
const maxLenFromCode = 128

// raiseMaxLen raises cfg.MaxLen, when -maxlen was not given, to one more
// than the largest constant the instrumented code compares a length with
// (instrument.Consts.Len), up to maxLenFromCode, so that inputs can be
// long enough for the branches it guards (uuid's len(s) == 36), and says
// so.
func raiseMaxLen(cfg *Config, lenConst int) {
	want := min(lenConst+1, maxLenFromCode)
	if !cfg.maxLenAuto || want <= cfg.MaxLen {
		return
	}
	fmt.Fprintf(cfg.Stderr, "gocolic: -maxlen %d (raised from the default %d: the code compares a length with %d)\n", want, cfg.MaxLen, lenConst)
	cfg.MaxLen = want
}
