package instrument

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/guard"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/rt"
	"golang.org/x/tools/go/packages"
)

// tortureStd are standard packages of the kinds real parsers, encoders
// and data structures are, each rewritten as a support package by
// TestStandardLibraryTorture; internal/strconv holds strconv's code from
// go1.26 on, and gocolic instruments it as a copy with strconv.
var tortureStd = []string{
	"archive/tar", "bufio", "bytes", "cmp", "compress/flate", "container/heap",
	"container/list", "container/ring", "encoding/asn1", "encoding/base64",
	"encoding/binary", "encoding/csv", "encoding/hex", "encoding/json",
	"encoding/pem", "encoding/xml", "errors", "fmt", "go/scanner", "go/token",
	"hash/crc32", "hash/fnv", "html", "image/color", "internal/strconv", "io", "maps", "math",
	"math/big", "math/bits", "mime", "net/netip", "net/url", "path",
	"path/filepath", "regexp", "regexp/syntax", "slices", "sort", "strconv",
	"strings", "text/scanner", "text/tabwriter", "text/template/parse", "time",
	"unicode", "unicode/utf16", "unicode/utf8",
}

// TestStandardLibraryTorture instruments real code nobody wrote for the
// rewrite: standard packages, loaded as load.Load loads a target and
// rewritten as support packages in the order a run rewrites them, each
// after those it imports and calling their twins. The rewrite must not
// panic nor refuse, and the package rewritten alone (calling the
// originals of the others, which the type checker here imports) must
// type-check.
func TestStandardLibraryTorture(t *testing.T) {
	if testing.Short() {
		t.Skip("loads standard packages with the go command")
	}
	cfg := &packages.Config{Mode: load.Mode &^ packages.NeedDeps}
	pkgs, err := packages.Load(cfg, tortureStd...)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != len(tortureStd) {
		t.Fatalf("loaded %d packages, want %d", len(pkgs), len(tortureStd))
	}
	var imported Exports
	for _, pkg := range importOrder(pkgs) {
		t.Run(pkg.PkgPath, func(t *testing.T) {
			if len(pkg.Errors) > 0 {
				t.Fatalf("does not load: %v", pkg.Errors[0])
			}
			cfg := Config{RuntimePath: rt.ImportPath, Support: true}
			alone := tortureRewrite(t, pkg, cfg)
			cfg.Imported = imported
			imported = imported.Merge(tortureRewrite(t, pkg, cfg).Exports)
			rw := recheck(t, alone)
			var msgs []string
			for _, e := range rw.errs {
				msgs = append(msgs, rw.describe(e))
			}
			if len(msgs) > 5 {
				msgs = append(msgs[:5], fmt.Sprintf("... and %d more", len(msgs)-5))
			}
			if len(msgs) > 0 {
				t.Errorf("rewritten package does not type-check:\n%s", strings.Join(msgs, "\n"))
			}
		})
	}
}

// tortureRewrite rewrites pkg with cfg and fails t if that panics or
// fails.
func tortureRewrite(t *testing.T, pkg *packages.Package, cfg Config) *Result {
	t.Helper()
	var res *Result
	err := guard.Do("instrument", func() (err error) {
		res, err = Package(pkg, cfg)
		return err
	})
	if g := guard.As(err); g != nil {
		t.Fatalf("rewrite panics: %v\n%s", g.Value, g.Stack)
	}
	if err != nil {
		t.Fatalf("rewrite refused: %v", err)
	}
	return res
}

// importOrder returns pkgs with every package after those of pkgs it
// imports, directly or not.
func importOrder(pkgs []*packages.Package) []*packages.Package {
	in := make(map[string]*packages.Package, len(pkgs))
	for _, p := range pkgs {
		in[p.PkgPath] = p
	}
	var out []*packages.Package
	done := make(map[*packages.Package]bool)
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if done[p] {
			return
		}
		done[p] = true
		var deps []string
		for path := range p.Imports {
			deps = append(deps, path)
		}
		slices.Sort(deps)
		for _, path := range deps {
			if q, ok := in[path]; ok {
				visit(q)
			}
		}
		out = append(out, p)
	}
	for _, p := range pkgs {
		visit(p)
	}
	return out
}
