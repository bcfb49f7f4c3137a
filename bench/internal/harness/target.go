package harness

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Target is one package of a benchmark corpus: a directory holding one
// package with a single exported entry function (bench/walk/corpus,
// bench/strategies/corpus).
type Target struct {
	Name string `json:"name"` // directory and package name
	Func string `json:"func"` // the exported entry function
	LOC  int    `json:"loc"`  // non-blank, non-comment lines of its Go files
	// Files are the package's Go files (no tests), paths in the
	// repository's corpus directory.
	Files []string `json:"-"`
}

// CorpusNames lists the package directories of the corpus, sorted.
func CorpusNames(corpus string) ([]string, error) {
	entries, err := os.ReadDir(corpus)
	if err != nil {
		return nil, fmt.Errorf("reading the corpus directory: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("no packages under %s", corpus)
	}
	return names, nil
}

// LoadTarget reads the corpus package in dir: its Go files, its single
// exported top-level function and its size in lines of code.
func LoadTarget(dir string) (*Target, error) {
	name := filepath.Base(dir)
	t := &Target{Name: name}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("corpus package %s: %w", name, err)
	}
	fset := token.NewFileSet()
	var exported []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		path := filepath.Join(dir, n)
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("corpus package %s: %w", name, err)
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("corpus package %s: %w", name, err)
		}
		if f.Name.Name != name {
			return nil, fmt.Errorf("corpus package %s: %s declares package %s, want the directory's name", name, n, f.Name.Name)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
				exported = append(exported, fd.Name.Name)
			}
		}
		loc, err := CountLOC(src)
		if err != nil {
			return nil, fmt.Errorf("corpus package %s: counting lines of %s: %w", name, n, err)
		}
		t.LOC += loc
		t.Files = append(t.Files, path)
	}
	if len(t.Files) == 0 {
		return nil, fmt.Errorf("corpus package %s: no Go files", name)
	}
	if len(exported) != 1 {
		return nil, fmt.Errorf("corpus package %s: %d exported functions (%s), want exactly one entry function",
			name, len(exported), strings.Join(exported, ", "))
	}
	t.Func = exported[0]
	return t, nil
}

// CountLOC counts the lines of Go source src that hold at least one token
// other than a comment: blank lines and lines holding only comments are
// not counted. A token spanning several lines (a raw string) counts every
// line it spans.
func CountLOC(src []byte) (int, error) {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	var firstErr error
	s.Init(file, src, func(pos token.Position, msg string) {
		if firstErr == nil {
			firstErr = fmt.Errorf("%d:%d: %s", pos.Line, pos.Column, msg)
		}
	}, 0) // mode 0: comments are skipped
	lines := map[int]bool{}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted at a line end or at EOF, not written
		}
		first := file.Line(pos)
		for l := first; l <= first+strings.Count(lit, "\n"); l++ {
			lines[l] = true
		}
	}
	if firstErr != nil {
		return 0, firstErr
	}
	return len(lines), nil
}
