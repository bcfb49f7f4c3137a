// This file chooses the standard packages a run instruments (-stdlib):
// those the target reaches, above the runtime's floor, that the rewrite
// can take, and the floor packages gocolic copies (build.Copyable). They
// are support packages like those of -instrument, rewritten first (a
// standard package imports no other), so that every other package calls
// their twins. The files of a package above the floor are laid over
// $GOROOT's by the overlay, so types keep their identity and methods are
// instrumented for every caller; a floor package becomes an instrumented
// copy under build.CopyPrefix, which every other instrumented file
// imports instead (build/stdcopy.go).

package session

import (
	"go/ast"
	"strings"

	"github.com/gocolic/gocolic/build"
	"github.com/gocolic/gocolic/load"
	"golang.org/x/tools/go/packages"
)

// stdSkip are standard packages above the floor that are never
// instrumented: the testing framework (the worker of a fuzz target is a
// test binary), and packages that reach into the runtime or the system
// rather than compute on values. (Packages that link to the runtime's own
// functions, such as unique and weak, are kept out by linknamed.)
var stdSkip = []string{"testing", "flag", "log", "os", "net", "crypto", "runtime", "syscall", "plugin", "debug", "go/build", "internal"}

// stdAllow are packages under a skipped path that compute on values only:
// parsers real code calls on its inputs.
var stdAllow = map[string]bool{"net/url": true, "net/netip": true}

// stdCandidate reports whether the standard package q may be
// instrumented, in place or as a copy: above the floor or copyable, not
// skipped, without assembly, C or cgo (the overlay replaces Go files
// only, and assembly would keep declaring the original functions; nor
// can the assembler run in a copy's directory, which only the overlay
// has).
func stdCandidate(q *packages.Package) bool {
	copied := build.Copyable(q.PkgPath)
	if build.InFloor(q.PkgPath) && !copied || len(q.OtherFiles) > 0 || len(q.GoFiles) != len(q.CompiledGoFiles) || linknamed(q) {
		return false
	}
	if stdAllow[q.PkgPath] || copied {
		return true
	}
	for _, s := range stdSkip {
		if q.PkgPath == s || strings.HasPrefix(q.PkgPath, s+"/") {
			return false
		}
	}
	return true
}

// stdPackages returns the standard packages of pkg's graph to instrument
// with cfg, in dependency order; floor packages, as copies, only if
// copies is set.
func stdPackages(cfg Config, pkg *load.Package, copies bool) []*packages.Package {
	if !cfg.Stdlib {
		return nil
	}
	return pkg.Standard(func(q *packages.Package) bool {
		return stdCandidate(q) && (copies || !build.Copyable(q.PkgPath))
	})
}

// linknamed reports whether q pulls in another package's symbol by
// //go:linkname: a two-argument directive whose local name is a function
// declared without a body and whose target lies outside q (math/rand's
// runtime_rand from the runtime), or names itself (maps' clone, whose body
// the runtime pushes under that name). Such a package reaches into the runtime,
// and its rewrite does not build (the symbol is claimed twice). The other
// forms are markers the rewrite keeps intact: a one-argument directive
// (bytes' Repeat), one on a function with a body, and a pull of q's own
// symbol (net/url's badSetPath, its own method setPath under a name
// others may link to).
func linknamed(q *packages.Package) bool {
	bodiless := map[string]bool{}
	for _, f := range q.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil && fd.Recv == nil {
				bodiless[fd.Name.Name] = true
			}
		}
	}
	for _, f := range q.Syntax {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				fields := strings.Fields(c.Text)
				if len(fields) < 3 || fields[0] != "//go:linkname" || !bodiless[fields[1]] {
					continue
				}
				// A pull from another package, or a function that names
				// itself (maps' clone, which the runtime pushes under that
				// name: its body is the runtime's).
				if linkPackage(fields[2]) != q.PkgPath || fields[2] == q.PkgPath+"."+fields[1] {
					return true
				}
			}
		}
	}
	return false
}

// linkPackage returns the import path of a linkname target such as
// "runtime.rand" or "net/url.(*URL).setPath".
func linkPackage(symbol string) string {
	slash := strings.LastIndex(symbol, "/")
	if dot := strings.Index(symbol[slash+1:], "."); dot >= 0 {
		return symbol[:slash+1+dot]
	}
	return symbol
}
