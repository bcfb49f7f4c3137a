// This file chooses the build tags under which instrumented packages use
// their pure-Go code instead of assembly: a function written in assembly
// has no Go body to rewrite, so the values passed to it turn concrete,
// while many packages ship the same function in Go behind a tag.

package load

import (
	"go/ast"
	"go/build/constraint"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// fallbackTags are the tags by which packages conventionally select
// their pure-Go code over their assembly.
var fallbackTags = []string{"noasm", "purego"}

// FallbackTags returns the tags among noasm and purego that the packages
// pkgs, which gocolic instruments, use to choose Go over assembly: those
// that a build constraint of a package names while the package, as
// loaded, declares a function without a body (written in assembly). The
// result is sorted; nil when no package needs a tag.
func FallbackTags(pkgs []*packages.Package) []string {
	var tags []string
	for _, q := range pkgs {
		if q == nil || !hasAssembly(q) {
			continue
		}
		for _, t := range constraintTags(q) {
			if !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
	}
	slices.Sort(tags)
	return tags
}

// hasAssembly reports whether q has assembly files and declares a
// function without a body in its Go files.
func hasAssembly(q *packages.Package) bool {
	if !slices.ContainsFunc(q.OtherFiles, func(f string) bool { return strings.HasSuffix(f, ".s") }) {
		return false
	}
	for _, f := range q.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
				return true
			}
		}
	}
	return false
}

// constraintTags returns the fallback tags named by the //go:build lines
// of q's Go files, those the build uses and those it leaves out.
func constraintTags(q *packages.Package) []string {
	var tags []string
	for _, path := range append(slices.Clone(q.GoFiles), q.IgnoredFiles...) {
		if !strings.HasSuffix(path, ".go") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "package ") {
				break // constraints come before the package clause
			}
			if !constraint.IsGoBuild(line) {
				continue
			}
			expr, err := constraint.Parse(line)
			if err != nil {
				continue
			}
			walkTags(expr, func(tag string) {
				if slices.Contains(fallbackTags, tag) && !slices.Contains(tags, tag) {
					tags = append(tags, tag)
				}
			})
		}
	}
	return tags
}

// walkTags calls f on every tag of x (Eval would stop at the first
// operand that decides an && or ||).
func walkTags(x constraint.Expr, f func(string)) {
	switch x := x.(type) {
	case *constraint.TagExpr:
		f(x.Tag)
	case *constraint.NotExpr:
		walkTags(x.X, f)
	case *constraint.AndExpr:
		walkTags(x.X, f)
		walkTags(x.Y, f)
	case *constraint.OrExpr:
		walkTags(x.X, f)
		walkTags(x.Y, f)
	}
}
