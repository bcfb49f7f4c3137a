package build

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestAliases checks which exported names a copy declares as aliases of
// the original's: types its code can build and read as the original's,
// and variables of such types.
func TestAliases(t *testing.T) {
	const src = `package p

import "errors"

type E struct {
	A   string
	Err error
}

func (e *E) Error() string { return e.A }

type d [2]rune

type C struct {
	Lo int
	D  d
}

type S []C

type U struct{ x int }

type M struct{ A int }

func (m M) Get() int { return m.A }

func use(m M) int { return m.Get() }

type H struct{ A int }

func (h H) low() int { return h.A }

type G[T any] struct{ V T }

type I interface{ Error() string }

var (
	ErrX = errors.New("x")
	Tab  = &E{}
	Cs   = S{}
	N    = 3
	Ms   []M
	low  = 1
)
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(maps.Keys(Aliases(pkg, info)))
	// C mentions the unexported d, S mentions C, U has an unexported
	// field, M's method is called by the package, H has an unexported
	// method, G is generic; Cs and Ms are of types the copy does not
	// share.
	want := []string{"E", "ErrX", "I", "N", "Tab"}
	if !slices.Equal(got, want) {
		t.Errorf("Aliases = %v, want %v", got, want)
	}
}

// TestAsCopy checks the rewrite of a copied package's file: its path,
// its imports, aliased types and variables, and the methods, forwarders
// and registrations of aliased types dropped.
func TestAsCopy(t *testing.T) {
	const src = `package strconv

import (
	_gcl "gocolicrt/rt"
	"internal/stringslite"
	"unicode/utf8"
)

// NumError is an error.
type NumError struct{ Func string }

func (e *NumError) Error() string { return e.Func }

func (e *NumError) _gcl_Error() string { return e.Func }

func Gclm8_NumError_Error(r *NumError) string { return r._gcl_Error() }

var _ = _gcl.RegisterMethod[NumError]("Error", nil, nil)

type decimal struct{ d []byte }

func (a *decimal) Assign(v uint64) {}

var ErrRange, errOther = mk("range"), mk("other")

const IntSize = 64

func Atoi(s string) (int, error) { return 0, nil }

func mk(s string) error { _ = utf8.RuneLen; _ = stringslite.Clone; return nil }
`
	// errors is used by ErrBad's initialiser alone, which the copy
	// takes from the original.
	const src2 = `package strconv

import "errors"

var ErrBad = errors.New("bad")
`
	root := filepath.Join("/goroot", "src")
	c := Copy{Path: "strconv", Dir: filepath.Join(root, "strconv"), Aliases: map[string]bool{"NumError": true, "ErrRange": true, "ErrBad": true}}
	out, err := AsCopy(c, map[string][]byte{filepath.Join(c.Dir, "atoi.go"): []byte(src), filepath.Join(c.Dir, "bad.go"): []byte(src2)}, map[string]bool{"strconv": true, "unicode/utf8": true})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "gocolicstd", "strconv", "atoi.go")
	b, ok := out[path]
	if !ok || len(out) != 2 {
		t.Fatalf("AsCopy gave %v, want %s and bad.go", slices.Collect(maps.Keys(out)), path)
	}
	if bad := string(out[filepath.Join(root, "gocolicstd", "strconv", "bad.go")]); strings.Contains(bad, `"errors"`) || !strings.Contains(bad, "ErrBad = _gcl_orig.ErrBad") {
		t.Errorf("copy of bad.go keeps the import its alias no longer uses, or lacks the alias:\n%s", bad)
	}
	got := string(b)
	for _, tc := range []struct {
		text string
		want bool
	}{
		{`_gcl_orig "strconv"`, true},
		{`utf8 "gocolicstd/unicode/utf8"`, true},
		{`"internal/stringslite"`, true}, // not copied: the original
		{"type NumError = _gcl_orig.NumError", true},
		{"ErrRange = _gcl_orig.ErrRange", true},
		{`errOther = mk("other")`, true},
		{"type decimal struct", true},
		{"func (a *decimal) Assign", true},
		{"const IntSize = 64", true},
		{"func Atoi(", true},
		{"func (e *NumError)", false},
		{"Gclm8_NumError_Error", false},
		{"RegisterMethod[NumError]", false},
	} {
		if strings.Contains(got, tc.text) != tc.want {
			t.Errorf("copy contains %q: %v, want %v\n%s", tc.text, !tc.want, tc.want, got)
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "", b, 0); err != nil {
		t.Errorf("copy does not parse: %v\n%s", err, got)
	}
	if _, err := AsCopy(c, map[string][]byte{filepath.Join(root, "strings", "a.go"): []byte(src)}, nil); err == nil {
		t.Error("AsCopy took a file of another package")
	}
}

// TestRedirect checks that files outside the copies import the copies
// under the names they used, and that other imports stay.
func TestRedirect(t *testing.T) {
	copies := map[string]bool{"strconv": true, "unicode": true, "unicode/utf8": true}
	for _, tc := range []struct {
		name, src string
		want      []string // substrings of the result
		same      bool     // the result is src itself
	}{
		{"plain", "package a\n\nimport (\n\t\"strconv\"\n\t\"strings\"\n)\n\nvar _ = strconv.Itoa\nvar _ = strings.ToUpper\n",
			[]string{`strconv "gocolicstd/strconv"`, "\t\"strings\"\n"}, false},
		{"named", "package a\n\nimport u \"unicode/utf8\"\n\nvar _ = u.RuneLen\n",
			[]string{`u "gocolicstd/unicode/utf8"`}, false},
		{"last element", "package a\n\nimport \"unicode/utf8\"\n\nvar _ = utf8.RuneLen\n",
			[]string{`utf8 "gocolicstd/unicode/utf8"`}, false},
		{"none", "package a\n\nimport \"strings\"\n\n// \"strconv\" in a comment.\nvar _ = strings.ToUpper\n", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Redirect([]byte(tc.src), copies)
			if err != nil {
				t.Fatal(err)
			}
			got := string(b)
			if tc.same && got != tc.src {
				t.Errorf("Redirect changed a file without copied imports:\n%s", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("result lacks %q:\n%s", w, got)
				}
			}
		})
	}
}
