package load

import (
	"runtime"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
)

// asmModule has packages whose sum is written in assembly on amd64: one
// with a pure-Go version under purego, one under noasm (named in a
// constraint that starts with another tag), and one with none.
var asmModule = map[string]string{
	"go.mod":               "module example.com/m\n\ngo 1.24\n",
	"pg/sum.go":            "package pg\n\nfunc Sum(b []byte) int { return sum(b) }\n",
	"pg/sum_amd64.go":      "//go:build !purego\n\npackage pg\n\nfunc sum(b []byte) int\n",
	"pg/sum_amd64.s":       "//go:build !purego\n\n#include \"textflag.h\"\n\nTEXT ·sum(SB),NOSPLIT,$0-32\n\tRET\n",
	"pg/sum_generic.go":    "//go:build !amd64 || purego\n\npackage pg\n\nfunc sum(b []byte) int { return len(b) }\n",
	"na/sum.go":            "package na\n\nfunc Sum(b []byte) int { return sum(b) }\n",
	"na/sum_amd64.go":      "//go:build amd64 && !noasm\n\npackage na\n\nfunc sum(b []byte) int\n",
	"na/sum_amd64.s":       "//go:build amd64 && !noasm\n\n#include \"textflag.h\"\n\nTEXT ·sum(SB),NOSPLIT,$0-32\n\tRET\n",
	"na/sum_other.go":      "//go:build !amd64 || noasm\n\npackage na\n\nfunc sum(b []byte) int { return len(b) }\n",
	"only/sum.go":          "package only\n\nfunc Sum(b []byte) int { return sum(b) }\n",
	"only/sum_decl.go":     "package only\n\nfunc sum(b []byte) int\n",
	"only/sum_amd64.s":     "#include \"textflag.h\"\n\nTEXT ·sum(SB),NOSPLIT,$0-32\n\tRET\n",
	"plain/plain.go":       "//go:build !purego || purego\n\npackage plain\n\nfunc Sum(b []byte) int { return len(b) }\n",
	"plain/plain_other.go": "//go:build purego\n\npackage plain\n\nconst x = 1\n",
}

func TestFallbackTags(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the test module's assembly is for amd64")
	}
	dir := writeTree(t, asmModule)
	tests := []struct {
		pkg  string
		want []string
	}{
		{"./pg", []string{"purego"}},
		{"./na", []string{"noasm"}},
		{"./only", nil},  // assembly, but no Go version to choose
		{"./plain", nil}, // a fallback tag, but no assembly
	}
	for _, tt := range tests {
		p, err := Load(dir, tt.pkg)
		if err != nil {
			t.Fatal(err)
		}
		got := FallbackTags([]*packages.Package{p.Package})
		if !slices.Equal(got, tt.want) {
			t.Errorf("FallbackTags(%s) = %q, want %q", tt.pkg, got, tt.want)
		}
		if len(got) == 0 {
			continue
		}
		// Loaded with the tags, the package has its Go version.
		q, err := LoadTags(dir, tt.pkg, got)
		if err != nil {
			t.Fatal(err)
		}
		if again := FallbackTags([]*packages.Package{q.Package}); again != nil || !slices.Equal(q.Tags, got) {
			t.Errorf("%s loaded with %q: FallbackTags %q (want none), Tags %q", tt.pkg, got, again, q.Tags)
		}
	}
	both := []*packages.Package{}
	for _, pkg := range []string{"./pg", "./na", "./only"} {
		p, err := Load(dir, pkg)
		if err != nil {
			t.Fatal(err)
		}
		both = append(both, p.Package)
	}
	if got := FallbackTags(both); !slices.Equal(got, []string{"noasm", "purego"}) {
		t.Errorf("FallbackTags of three packages = %q, want [noasm purego]", got)
	}
}
