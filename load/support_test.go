package load

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// supportModule: a imports b, which imports c; other is imported by
// nobody; u imports cg, which uses cgo; p's external test imports p and q,
// which imports p; p's internal test imports c.
var supportModule = map[string]string{
	"go.mod":        "module example.com/m\n\ngo 1.24\n",
	"a/a.go":        "package a\n\nimport \"example.com/m/b\"\n\nfunc A(x int) int { return b.B(x) }\n",
	"b/b.go":        "package b\n\nimport (\n\t\"strings\"\n\n\t\"example.com/m/c\"\n)\n\nfunc B(x int) int { return c.C(x) + len(strings.Repeat(\"x\", 1)) }\n",
	"c/c.go":        "package c\n\nfunc C(x int) int { return x + 1 }\n",
	"other/o.go":    "package other\n\nfunc O() {}\n",
	"empty/README":  "no Go here\n",
	"cg/cg.go":      "package cg\n\n// int twice(int x) { return 2*x; }\nimport \"C\"\n\nfunc Twice(x int) int { return int(C.twice(C.int(x))) }\n",
	"u/u.go":        "package u\n\nimport \"example.com/m/cg\"\n\nfunc U(x int) int { return cg.Twice(x) }\n",
	"p/p.go":        "package p\n\nfunc P(x int) int { return x }\n",
	"q/q.go":        "package q\n\nimport \"example.com/m/p\"\n\nfunc Q(x int) int { return p.P(x) }\n",
	"p/p_test.go":   "package p_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/p\"\n\t\"example.com/m/q\"\n)\n\nfunc FuzzQ(f *testing.F) { f.Fuzz(func(t *testing.T, x int) { q.Q(p.P(x)) }) }\n",
	"p/in_test.go":  "package p\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/c\"\n)\n\nfunc FuzzIn(f *testing.F) { f.Fuzz(func(t *testing.T, x int) { c.C(P(x)) }) }\n",
	"main/main.go":  "package main\n\nfunc main() {}\n",
	"dup/dup.go":    "package dup\n\nimport (\n\t\"example.com/m/b\"\n\t\"example.com/m/c\"\n)\n\nfunc D(x int) int { return b.B(c.C(x)) }\n",
	"internal/i.go": "package internal\n\nimport \"example.com/m/c\"\n\nfunc I(x int) int { return c.C(x) }\n",
}

func TestSupport(t *testing.T) {
	root := writeTree(t, supportModule)
	tests := []struct {
		name     string
		target   string
		fuzz     string // a fuzz target: load with tests
		patterns []string
		want     string // the packages, in order, or the error
	}{
		{name: "none", target: "./a", want: "[]"},
		{name: "whole module, dependencies first", target: "./a", patterns: []string{"./..."}, want: "[example.com/m/c example.com/m/b]"},
		{name: "import path pattern", target: "./a", patterns: []string{"example.com/m/..."}, want: "[example.com/m/c example.com/m/b]"},
		{name: "one package", target: "./a", patterns: []string{"./b"}, want: "[example.com/m/b]"},
		{name: "list", target: "./a", patterns: []string{"./b", "example.com/m/c"}, want: "[example.com/m/c example.com/m/b]"},
		{name: "only the target", target: "./a", patterns: []string{"./a"}, want: "[]"},
		{name: "each package once", target: "./dup", patterns: []string{"./b", "./c", "./..."}, want: "[example.com/m/c example.com/m/b]"},
		{name: "external test: the package under test", target: "./p", fuzz: "FuzzQ", want: "[example.com/m/p]"},
		// p's test variant imports c (in_test.go); q imports p.
		{name: "external test and the whole module", target: "./p", fuzz: "FuzzQ", patterns: []string{"./..."}, want: "[example.com/m/c example.com/m/p example.com/m/q]"},
		{name: "internal test: never the target", target: "./p", fuzz: "FuzzIn", patterns: []string{"./..."}, want: "[example.com/m/c]"},

		{name: "standard library", target: "./a", patterns: []string{"strings"}, want: "standard-library packages (strings): name packages of your module"},
		{name: "standard library among others", target: "./a", patterns: []string{"./b", "std"}, want: "standard-library packages"},
		{name: "no such directory", target: "./a", patterns: []string{"./nothing/..."}, want: "-instrument ./nothing/...:"},
		{name: "no packages", target: "./a", patterns: []string{"./empty/..."}, want: "-instrument ./empty/... matches no packages"},
		{name: "no such package", target: "./a", patterns: []string{"example.com/m/nope"}, want: "-instrument example.com/m/nope:"},
		{name: "not imported", target: "./a", patterns: []string{"./b", "./other"}, want: "-instrument ./other matches example.com/m/other, which example.com/m/a does not import"},
		{name: "cgo", target: "./u", patterns: []string{"./..."}, want: "example.com/m/cg (matched by ./...) uses cgo"},
	}
	loaded := map[string]*Package{} // Support does not change a package
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkg := loaded[tt.target+" "+tt.fuzz]
			if pkg == nil {
				var err error
				if tt.fuzz != "" {
					pkg, err = LoadTest(root, tt.target, tt.fuzz)
				} else {
					pkg, err = Load(root, tt.target)
				}
				if err != nil {
					t.Fatal(err)
				}
				loaded[tt.target+" "+tt.fuzz] = pkg
			}
			got, err := pkg.Support(root, tt.patterns)
			if strings.HasPrefix(tt.want, "[") {
				if err != nil {
					t.Fatal(err)
				}
				var paths []string
				for _, q := range got {
					paths = append(paths, q.PkgPath)
					if len(q.Syntax) == 0 || q.TypesInfo == nil {
						t.Errorf("%s has no syntax or types", q.PkgPath)
					}
				}
				if s := fmt.Sprint(paths); s != tt.want {
					t.Errorf("support packages %s, want %s", s, tt.want)
				}
				if tt.fuzz == "FuzzQ" && !slices.Contains(got, pkg.Under) {
					t.Errorf("the package under test (its test variant) is not a support package")
				}
				// Asked again, it answers from memory: with no go on
				// PATH, go list could not run.
				t.Setenv("PATH", "")
				again, err := pkg.Support(root, tt.patterns)
				if err != nil || !slices.Equal(again, got) {
					t.Errorf("asked again: %v, %v; want the first answer", again, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestModuleGoVersion(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod": "module example.com/old\n\ngo 1.21\n",
		"x/x.go": "package x\n\nfunc X() {}\n",
	})
	pkg, err := Load(root, "./x")
	if err != nil {
		t.Fatal(err)
	}
	if v := ModuleGoVersion(pkg.Package); v != "1.21" {
		t.Errorf("ModuleGoVersion = %q, want 1.21", v)
	}
	if IsDependency(pkg.Package) {
		t.Error("a main-module package is taken for a dependency")
	}
}

// TestStandardThroughKeptOnly checks that Standard lists the standard
// packages the target reaches through its own code and kept standard
// packages, in dependency order, and none reached only through a standard
// package it does not keep (testing's imports, for a fuzz target).
func TestStandardThroughKeptOnly(t *testing.T) {
	std := func(path string, imports ...*packages.Package) *packages.Package {
		q := &packages.Package{PkgPath: path, Syntax: []*ast.File{{}}, TypesInfo: &types.Info{}, Imports: map[string]*packages.Package{}}
		for _, i := range imports {
			q.Imports[i.PkgPath] = i
		}
		return q
	}
	unicode := std("unicode")
	strs := std("strings", unicode)
	rand := std("math/rand")
	testing_ := std("testing", rand, strs)
	bufio := std("bufio", strs)
	target := &Package{Package: &packages.Package{PkgPath: "example.com/m/p", Module: &packages.Module{Path: "example.com/m", Main: true},
		Imports: map[string]*packages.Package{"testing": testing_, "bufio": bufio}}}
	got := target.Standard(func(q *packages.Package) bool { return q.PkgPath != "testing" })
	var paths []string
	for _, q := range got {
		paths = append(paths, q.PkgPath)
	}
	if want := "[unicode strings bufio]"; fmt.Sprint(paths) != want {
		t.Errorf("Standard = %v, want %s", paths, want)
	}
}
