package session

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/build"
	"golang.org/x/tools/go/packages"
)

// TestStdCandidate checks which standard packages may be instrumented:
// above the runtime's floor or copied, not skipped, without assembly or
// cgo.
func TestStdCandidate(t *testing.T) {
	for _, tc := range []struct {
		pkg  *packages.Package
		want bool
	}{
		{&packages.Package{PkgPath: "strings"}, true},
		{&packages.Package{PkgPath: "encoding/hex"}, true},
		{&packages.Package{PkgPath: "strconv"}, true},           // floor, copied
		{&packages.Package{PkgPath: "internal/strconv"}, true},  // floor, copied
		{&packages.Package{PkgPath: "unicode/utf8"}, true},      // floor, copied
		{&packages.Package{PkgPath: "fmt"}, false},              // floor
		{&packages.Package{PkgPath: "math/bits"}, false},        // floor, not copied
		{&packages.Package{PkgPath: "internal/bytealg"}, false}, // floor
		{&packages.Package{PkgPath: "testing"}, false},          // skipped
		{&packages.Package{PkgPath: "crypto/sha256"}, false},    // skipped
		{&packages.Package{PkgPath: "math/big", OtherFiles: []string{"arith_amd64.s"}}, false},
		{&packages.Package{PkgPath: "net/url", GoFiles: []string{"a.go", "c.go"}, CompiledGoFiles: []string{"a.go"}}, false}, // cgo
		{&packages.Package{PkgPath: "math/rand", Syntax: []*ast.File{parseFile(t, "package rand\n\nimport _ \"unsafe\"\n\n//go:linkname runtime_rand runtime.rand\nfunc runtime_rand() uint64\n")}}, false},
		{&packages.Package{PkgPath: "bytes", Syntax: []*ast.File{parseFile(t, "package bytes\n\nimport _ \"unsafe\"\n\n//go:linkname Repeat\nfunc Repeat(b []byte, n int) []byte { return b }\n")}}, true},
		{&packages.Package{PkgPath: "maps", Syntax: []*ast.File{parseFile(t, "package maps\n\nimport _ \"unsafe\"\n\n//go:linkname clone maps.clone\nfunc clone(m any) any\n")}}, false},
		{&packages.Package{PkgPath: "net/url", Syntax: []*ast.File{parseFile(t, "package url\n\nimport _ \"unsafe\"\n\ntype URL struct{ Path string }\n\n//go:linkname badSetPath net/url.(*URL).setPath\nfunc badSetPath(*URL, string) error\n\nfunc (u *URL) setPath(p string) error { u.Path = p; return nil }\n")}}, true},
		{&packages.Package{PkgPath: "sort", Syntax: []*ast.File{parseFile(t, "package sort\n\n// go:linkname in prose is not a directive.\nfunc Ints() {}\n")}}, true},
	} {
		if got := stdCandidate(tc.pkg); got != tc.want {
			t.Errorf("stdCandidate(%s) = %v, want %v", tc.pkg.PkgPath, got, tc.want)
		}
	}
}

func parseFile(t *testing.T, src string) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "f.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestCopiesFallback checks the message of a worker that does not build
// with the copies: it names the packages that failed, a copy by its
// original's path, not the copies when they did not fail.
func TestCopiesFallback(t *testing.T) {
	copies := []build.Copy{{Path: "strconv"}, {Path: "slices"}}
	tests := []struct {
		name, out, want string
	}{
		{
			"a standard package in place",
			"# database/sql\n/go/src/database/sql/sql.go:38: duplicate //go:linkname for drivers",
			"the worker does not build in database/sql; building it again without the instrumented copies of strconv, slices:\n# database/sql\n",
		},
		{
			"copies",
			"# gocolicstd/slices\niter.go:51: cannot range\n# gocolicstd/internal/strconv\nitoa.go:203: cannot range",
			"the worker does not build in slices (copy), internal/strconv (copy); building it again",
		},
		{
			"no package named",
			"link: missing symbol",
			"the worker does not build; building it again without the instrumented copies of strconv, slices:\nlink: missing symbol",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := copiesFallback(&build.Error{Output: tt.out}, copies); !strings.HasPrefix(got, tt.want) {
				t.Errorf("got\n%s\nwant it to begin with\n%s", got, tt.want)
			}
		})
	}
}
