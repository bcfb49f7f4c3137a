// Package shlex holds native fuzz targets (in its test files) of
// github.com/google/shlex: splitting a command line into words as a
// POSIX shell does.
package shlex

import (
	"io"
	"slices"
	"strings"

	"github.com/google/shlex"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/google/shlex"

// quote writes w as one shell word: in single quotes, each single quote
// as '"'"'.
func quote(w string) string {
	return "'" + strings.ReplaceAll(w, "'", `'"'"'`) + "'"
}

// CheckSplit splits s into words. Words that split must split again to
// the same words once quoted and joined with spaces, and the lexer and
// the tokenizer must give the same words.
func CheckSplit(s string) {
	words, err := shlex.Split(s)
	if err != nil {
		return
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = quote(w)
	}
	line := strings.Join(quoted, " ")
	again, err := shlex.Split(line)
	if err != nil || !slices.Equal(again, words) {
		prop.Failf("Split(%q) = %q; quoted as %q, it splits to %q, %v", s, words, line, again, err)
	}
	// The lexer is built on the tokenizer, which also returns comments:
	// it must reach the end without error, with at least as many tokens.
	tk := shlex.NewTokenizer(strings.NewReader(s))
	n := 0
	for {
		tok, err := tk.Next()
		if err == io.EOF {
			break
		}
		if err != nil || tok == nil {
			prop.Failf("Split(%q) ok, the tokenizer fails after %d tokens: %v", s, n, err)
		}
		n++
	}
	if n < len(words) {
		prop.Failf("Split(%q) = %d words, the tokenizer gives %d tokens", s, len(words), n)
	}
}
