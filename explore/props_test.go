package explore

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/sites"
)

const staticSrc = `package p

import "strconv"

var global int

type T struct {
	n    int
	next *T
}

func Entry(x int, s string, p *T, xs []int, m map[string]int, a [4]int) int {
	if x > 10 {
		if s == "GET" {
			return 1
		}
	} else if x < -5 {
		return 2
	}
	if global == 300 {
		return 3
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return 4
	}
	if p.n < v {
		return 5
	}
	if xs[0] == 'a' || a[1] > v {
		return 6
	}
	if x > 1 && strconv.IntSize > v {
		return 7
	}
	for i := 0; i < x; i++ {
		if m["k"] > i {
			return 8
		}
	}
	switch x {
	case 300:
		return 9
	}
	for range xs {
	}
	return 0
}

func other(ok bool) int {
	if ok {
		return 1
	}
	return 0
}
`

// TestSitePropsOf checks the static properties of each condition of a
// crafted package.
func TestSitePropsOf(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", staticSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	pkg, err := (&types.Config{Importer: importer.ForCompiler(fset, "source", nil)}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text, fn string
		kind     sites.Kind
		want     SiteProps
	}{
		{"x > 10", "Entry", sites.Cond, SEntry | SIntConst | SCharConst | SLocal},
		{`s == "GET"`, "Entry", sites.Cond, SEntry | SNested | SCharConst | SLocal},
		{"x < -5", "Entry", sites.Cond, SEntry | SIntConst | SLocal}, // else-if: not nested; -5 is no character
		{"global == 300", "Entry", sites.Cond, SEntry | SIntConst},
		{"err != nil", "Entry", sites.Cond, SEntry | SLocal | SExternalCall},
		{"p.n < v", "Entry", sites.Cond, SEntry | SPointer | SLocal | SExternalCall},
		{"xs[0] == 'a'", "Entry", sites.Cond, SEntry | SPointer | SIntConst | SCharConst},
		{"a[1] > v", "Entry", sites.Cond, SEntry | SLocal | SExternalCall}, // an array element is no pointer; || does not nest
		{"strconv.IntSize > v", "Entry", sites.Cond, SEntry | SNested | SIntConst | SCharConst | SLocal | SExternalCall},
		{"i < x", "Entry", sites.Cond, SEntry | SLoopGuard | SInLoop | SLocal},
		{`m["k"] > i`, "Entry", sites.Cond, SEntry | SInLoop | SPointer | SLocal},
		{"300", "Entry", sites.Cond, SEntry | SCase | SIntConst | SLocal},
		{"xs", "Entry", sites.Loop, SEntry | SLoopGuard | SInLoop | SLocal},
		{"ok", "other", sites.Cond, SLocal},
	}
	var table []sites.Site
	for i, tt := range tests {
		start := strings.Index(staticSrc, tt.text)
		if tt.text == "xs" {
			start = strings.Index(staticSrc, "range xs") + len("range ")
		}
		if tt.text == "300" {
			start = strings.Index(staticSrc, "case 300") + len("case ")
		}
		if tt.text == "ok" {
			start = strings.Index(staticSrc, "if ok") + len("if ")
		}
		if start < 0 {
			t.Fatalf("%q not in the source", tt.text)
		}
		pos := token.Position{Filename: "p.go", Offset: start}
		end := token.Position{Filename: "p.go", Offset: start + len(tt.text)}
		table = append(table, sites.Site{ID: uint32(i), Kind: tt.kind, Pos: pos, End: end, Func: tt.fn})
	}
	got := SitePropsOf(Source{Fset: fset, Files: []*ast.File{f}, Info: info, Pkg: pkg}, table, "Entry")
	for i, tt := range tests {
		if got[uint32(i)] != tt.want {
			t.Errorf("%s: %s, want %s", tt.text, got[uint32(i)], tt.want)
		}
	}
	// Without the source, only the table speaks.
	bare := SitePropsOf(Source{}, table, "(*T).Entry")
	if bare[0] != SEntry || bare[12] != SEntry|SLoopGuard|SInLoop || bare[13] != 0 {
		t.Errorf("without source: %s, %s, %s", bare[0], bare[12], bare[13])
	}
}
