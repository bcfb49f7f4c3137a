// Package glob holds native fuzz targets (in its test files) of
// github.com/gobwas/glob: glob pattern compilation and matching.
package glob

import (
	"strings"
	"unicode/utf8"

	"github.com/gobwas/glob"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/gobwas/glob"

// CheckMatch compiles pattern with no separators, with '/' and '.' as
// separators, and with globstar, and matches s with each. The documented
// semantics imply: what a pattern with separators matches, the same
// pattern without separators matches too (its `*` and `?` only match
// more); a pattern keeps its text as String; a pattern without meta
// characters matches exactly itself.
func CheckMatch(pattern, s string) {
	p, err := glob.Compile(pattern)
	if err != nil {
		if _, serr := glob.Compile(pattern, '/', '.'); serr == nil {
			prop.Failf("Compile(%q) fails (%v) but compiles with separators", pattern, err)
		}
		return
	}
	if p.String() != pattern {
		prop.Failf("Compile(%q).String() = %q", pattern, p.String())
	}
	m := p.Match(s)
	ps, err := glob.Compile(pattern, '/', '.')
	if err != nil {
		prop.Failf("Compile(%q) ok, with separators: %v", pattern, err)
	}
	if ps.Match(s) && !m {
		prop.Failf("%q matches %q with separators '/' and '.' but not without", pattern, s)
	}
	g, err := glob.Compiler{Separators: []rune{'/'}, Globstar: true}.Compile(pattern)
	if err != nil {
		prop.Failf("Compile(%q) ok, with globstar: %v", pattern, err)
	}
	_ = g.Match(s)
	if glob.QuoteMeta(pattern) == pattern && !strings.Contains(pattern, ",") {
		if m != (s == pattern) {
			prop.Failf("literal pattern %q: Match(%q) = %v", pattern, s, m)
		}
	}
}

// CheckQuoteMeta quotes s, valid UTF-8, as a pattern (QuoteMeta), which must compile,
// with and without separators, and match s and only s among s and its
// one-byte extensions and truncation.
func CheckQuoteMeta(s string) {
	if !utf8.ValidString(s) {
		return // Compile rejects invalid UTF-8
	}
	q := glob.QuoteMeta(s)
	for _, seps := range [][]rune{nil, {'/'}} {
		p, err := glob.Compile(q, seps...)
		if err != nil {
			prop.Failf("Compile(QuoteMeta(%q) = %q, %q): %v", s, q, seps, err)
		}
		if !p.Match(s) {
			prop.Failf("QuoteMeta(%q) = %q does not match %q (separators %q)", s, q, s, seps)
		}
		if p.Match(s+"x") || p.Match("x"+s) {
			prop.Failf("QuoteMeta(%q) = %q matches a longer string (separators %q)", s, q, seps)
		}
		if s != "" && p.Match(s[:len(s)-1]) {
			prop.Failf("QuoteMeta(%q) = %q matches %q (separators %q)", s, q, s[:len(s)-1], seps)
		}
	}
}
