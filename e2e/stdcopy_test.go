package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// stdCopyGoals hide goals behind functions of floor packages, which the
// runtime is built on and which gocolic instruments as copies: the
// models leave each of these concrete (ParseFloat, Unquote, path.Match
// and cmp.Compare have none, ParseInt's is decimal only, IsUpper's exact
// on ASCII only). Range's
// goal is behind a package that is not instrumented, which tests the
// copy's error with the original strconv's type and variable.
const stdCopyGoals = `package s

import (
	"cmp"
	"path"
	"strconv"
	"unicode"

	"example.com/m/b"
)

func Float(s string) int {
	if f, err := strconv.ParseFloat(s, 64); err == nil && f == 42 {
		panic("float goal")
	}
	return 0
}

func Hex(s string) int {
	if n, _ := strconv.ParseInt(s, 16, 64); n == 0xbeef {
		panic("hex goal")
	}
	return 0
}

func Unquoted(s string) int {
	if u, err := strconv.Unquote(s); err == nil && u == "a" {
		panic("unquote goal")
	}
	return 0
}

func Upper(r rune) int {
	if unicode.IsUpper(r) && r > 0x7f {
		panic("upper goal")
	}
	return 0
}

func Match(s string) int {
	if ok, _ := path.Match("a?c", s); ok {
		panic("match goal")
	}
	return 0
}

func Compare(a, b int) int {
	if cmp.Compare(a, b) > 0 && a == 3 {
		panic("compare goal")
	}
	return 0
}

func Range(s string) int {
	_, err := strconv.ParseInt(s, 16, 8)
	if b.IsRange(err) {
		panic("range goal")
	}
	// A method of a type the copy aliases is the original's.
	if ne, ok := err.(*strconv.NumError); ok && ne.Error() == "" {
		panic("no message")
	}
	return 0
}
`

// stdCopyErrors is not instrumented: it sees the original strconv.
const stdCopyErrors = `package b

import (
	"errors"
	"strconv"
)

func IsRange(err error) bool {
	var ne *strconv.NumError
	return errors.As(err, &ne) && errors.Is(err, strconv.ErrRange)
}
`

// TestStdlibCopies runs gocolic test on goals behind strconv and unicode
// with default flags, which instrument them as copies and reach each
// goal, and with -stdlib=false, which leave the calls to their models or
// concrete and do not; the report lists the copied packages. The copy's
// errors are the original's (Range).
func TestStdlibCopies(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"s/s.go": stdCopyGoals, "b/b.go": stdCopyErrors})
	for _, tc := range []struct {
		fn, goal, pkg string
	}{
		{"Float", "float goal", "strconv"},
		{"Hex", "hex goal", "strconv"},
		{"Unquoted", "unquote goal", "strconv"},
		{"Upper", "upper goal", "unicode"},
		{"Range", "range goal", "strconv"},
		{"Match", "match goal", "path"},
		{"Compare", "compare goal", "cmp"},
	} {
		for _, stdlib := range []bool{true, false} {
			name := tc.fn + map[bool]string{true: " default", false: " stdlib off"}[stdlib]
			t.Run(name, func(t *testing.T) {
				js := filepath.Join(t.TempDir(), "s.json")
				args := []string{"test", "-budget", "40s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-maxbugs", "1", "-notests", "-json", js}
				if !stdlib {
					args = append(args, "-stdlib=false")
				}
				res := run(t, dir, 2*time.Minute, gocolic, append(args, "./s", tc.fn)...)
				if res.code != 0 {
					t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
				}
				if strings.Contains(res.stderr, "does not build with the instrumented copies") {
					t.Errorf("the worker did not build with the copies:\n%s", res.stderr)
				}
				rep := readReport(t, js)
				found := len(rep.Bugs) > 0 && strings.Contains(rep.Bugs[0].Message, tc.goal)
				if found != stdlib {
					t.Errorf("goal reached: %v, want %v (bugs %+v after %d executions)\n%s", found, stdlib, rep.Bugs, rep.Executions, res.stderr)
				}
				if stdlib && (rep.Stdlib == nil || !slices.Contains(rep.Stdlib.Packages, tc.pkg)) {
					t.Errorf("report's stdlib = %+v, want %s among its packages", rep.Stdlib, tc.pkg)
				}
			})
		}
	}
}

// TestStdlibCopyFallback runs gocolic test on a target that hands a
// value of a type the copy of unicode does not alias (SpecialCase) to
// a package that is not instrumented, which keeps the original type: the
// worker does not build with the copy, so gocolic builds it without the
// copies and runs, its sites those of that second rewrite.
func TestStdlibCopyFallback(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{
		"b/b.go": "package b\n\nimport \"unicode\"\n\nfunc Map(c unicode.SpecialCase, r rune) rune { return c.ToUpper(r) }\n",
		"s/s.go": `package s

import (
	"unicode"

	"example.com/m/b"
)

func F(r rune) int {
	if b.Map(unicode.TurkishCase, r) == 0x130 {
		panic("turkish goal")
	}
	return 0
}
`,
	})
	js := filepath.Join(t.TempDir(), "s.json")
	res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "10s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-notests", "-json", js, "./s", "F")
	if res.code != 0 {
		t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
	}
	// It names the package that failed, not the copies.
	if !strings.Contains(res.stderr, "the worker does not build in example.com/m/s; building it again without the instrumented copies of unicode") {
		t.Errorf("stderr does not say which package failed and that the copies were left out:\n%s", res.stderr)
	}
	rep := readReport(t, js)
	if rep.Stdlib != nil && slices.Contains(rep.Stdlib.Packages, "unicode") {
		t.Errorf("report's stdlib = %+v, want no unicode", rep.Stdlib)
	}
	// The one condition of F, its false side taken: the sites are the
	// second rewrite's.
	if rep.Branches.Total != 2 || rep.Branches.Covered != 1 {
		t.Errorf("branches %d/%d, want 1/2\n%s", rep.Branches.Covered, rep.Branches.Total, res.stderr)
	}
}
