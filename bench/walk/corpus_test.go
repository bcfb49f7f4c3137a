package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/bench/internal/harness"
)

// TestCorpus checks the benchmark's own corpus: every package loads, has
// one entry function, stays small, and says in its package comment which
// constraint class it stands for.
func TestCorpus(t *testing.T) {
	names, err := harness.CorpusNames("corpus")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 11 {
		t.Errorf("%d corpus packages, want at least 11", len(names))
	}
	for _, n := range names {
		tg, err := harness.LoadTarget(filepath.Join("corpus", n))
		if err != nil {
			t.Error(err)
			continue
		}
		if tg.LOC > 120 {
			t.Errorf("%s: %d lines of code, want at most 120", n, tg.LOC)
		}
		f, err := parser.ParseFile(token.NewFileSet(), tg.Files[0], nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc == nil || !strings.Contains(f.Doc.Text(), "constraint class") {
			t.Errorf("%s: the package comment does not name its constraint class", n)
		}
	}
}
