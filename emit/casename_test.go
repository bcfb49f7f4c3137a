package emit

import (
	"flag"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

func TestCondWords(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{`c == '='`, []string{"c", "eq", "equals"}},
		{`len(line) == 0`, []string{"len", "line", "eq", "0"}},
		{`line[0] == '#'`, []string{"line", "0", "eq", "hash"}},
		{`"on"`, []string{"on"}},
		{`""`, []string{"empty"}},
		{`"->"`, []string{"minus", "gt"}},
		{`s[end - 1] == '\t'`, []string{"s", "end", "minus", "1", "eq", "tab"}},
		{`n > 65535 || !ok`, []string{"n", "gt", "65535", "or", "not", "ok"}},
		{`x&0x80 != 0`, []string{"x", "and", "0x80", "ne", "0"}},
		{`c == 'é'`, []string{"c", "eq", "xe9"}},
		{`p.Kind >= 2.5`, []string{"p", "Kind", "ge", "2", "5"}},
	}
	for _, tt := range tests {
		if got := condWords(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("condWords(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestCaseName(t *testing.T) {
	intErr := []result{{typ: "int", pinned: true}, {typ: "error", pinned: true, cmp: cmpError}}
	cond := func(text string, taken bool) Cond { return Cond{Pos: "p.go:1", Text: text, Taken: taken} }
	std := func(text string, taken bool) Cond {
		return Cond{Pos: "strings.go:130", Text: text, Taken: taken, Std: true}
	}
	tests := []struct {
		name    string
		c       Case
		results []result
		want    string
	}{
		{"true outcome", Case{Covers: []Cond{cond(`c == '='`, true)}, Results: []string{"0", `""`}}, intErr, "c_eq_equals"},
		{"false outcome", Case{Covers: []Cond{cond(`len(s) == 0`, false)}, Results: []string{"0", `""`}}, intErr, "not_len_s_eq_0"},
		{"the first true outcome", Case{Covers: []Cond{cond(`"x"`, false), cond(`"on"`, true), cond(`"port"`, true), cond(`i < 0`, false)}, Results: []string{"1", `""`}}, intErr, "on"},
		{"error message", Case{Covers: []Cond{cond(`"port"`, true)}, Results: []string{"0", `"keywords: bad digit 'x'"`}}, intErr, "port_bad_digit"},
		{"error words the condition says", Case{Covers: []Cond{cond(`"debug"`, true)}, Results: []string{"0", `"keywords: debug must be on or off"`}}, intErr, "debug_must_be_on_or"},
		{"error only", Case{Results: []string{"0", `"unknown key \"\""`}}, intErr, "unknown_key"},
		{"error without words", Case{Results: []string{"0", `"!"`}}, intErr, "error"},
		{"result only", Case{Results: []string{"-4", `""`}}, intErr, "returns_4"},
		{"conversion", Case{Results: []string{`[]byte("v:ab")`}}, []result{{typ: "[]byte", pinned: true}}, "returns_v_ab"},
		{"digit first", Case{Covers: []Cond{cond(`0 < n`, true)}}, nil, "_0_lt_n"},
		{"keyword", Case{Covers: []Cond{cond(`"func"`, true)}}, nil, "func_"},
		{"nothing", Case{}, nil, "call"},
		{"the user's condition before the standard library's", Case{Covers: []Cond{std(`0 <= r`, true), cond(`s == ""`, false), std(`r < 128`, true)}}, nil, "not_s_eq_empty"},
		{"the error before the standard library", Case{Covers: []Cond{std(`0 <= r`, true)}, Results: []string{"0", `"bad rune"`}}, intErr, "bad_rune"},
		{"the result before the standard library", Case{Covers: []Cond{std(`0 <= r`, true)}, Results: []string{"7", `""`}}, intErr, "returns_7"},
		{"the standard library when nothing else", Case{Covers: []Cond{std(`0 <= r`, false), std(`r < 128`, true)}}, nil, "r_lt_128"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := caseName(tt.c, tt.results)
			if got != tt.want {
				t.Errorf("caseName = %q, want %q", got, tt.want)
			}
			if !token.IsIdentifier(got) || len(got) > maxNameLen+1 {
				t.Errorf("caseName = %q: not a short identifier", got)
			}
		})
	}
}

// TestCaseNamesUniqueAndStable checks that cases named alike get
// distinct subtests, and that the same suite gives the same file.
func TestCaseNamesUniqueAndStable(t *testing.T) {
	s := keywordsSuite()
	a, err := TestFile(s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := TestFile(keywordsSuite())
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Error("the same suite gives two files")
	}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`name: "([^"]*)"`).FindAllStringSubmatch(string(a), -1) {
		if seen[m[1]] || !token.IsIdentifier(m[1]) {
			t.Errorf("subtest name %q repeated or not an identifier", m[1])
		}
		seen[m[1]] = true
	}
	if len(seen) != len(s.Cases)+len(s.Crashes) {
		t.Errorf("%d names for %d cases and crashes", len(seen), len(s.Cases)+len(s.Crashes))
	}
}

// keywordsSuite is a suite like the one gocolic writes for
// examples/keywords: cases with the outcomes they cover first.
func keywordsSuite() Suite {
	cond := func(pos, text string, taken bool) Cond { return Cond{Pos: pos, Text: text, Taken: taken} }
	return Suite{
		Package: "keywords", Func: "Setting",
		Params:  []Param{{"line", "string"}},
		Results: []Result{{Type: "int", Pinned: true}, {Type: "error", IsError: true, Pinned: true}},
		Cases: []Case{
			{Args: []string{`""`}, Results: []string{"0", `""`}, Covers: []Cond{cond("keywords.go:19", "len(line) == 0", true)}},
			{Args: []string{`"a"`}, Results: []string{"0", `"keywords: missing '='"`}, Covers: []Cond{
				cond("keywords.go:19", "len(line) == 0", false), cond("keywords.go:19", "line[0] == '#'", false),
				cond("keywords.go:23", "eq < 0", true), cond("keywords.go:102", "s[i] == c", false),
				cond("keywords.go:101", "i < len(s)", true), cond("keywords.go:101", "i < len(s)", false)}},
			{Args: []string{`"port=a"`}, Results: []string{"0", `"keywords: bad digit 'a'"`}, Covers: []Cond{cond("keywords.go:32", `"port"`, true)}},
			{Args: []string{`"level=a"`}, Results: []string{"0", `"keywords: bad digit 'a'"`}, Covers: []Cond{cond("keywords.go:41", `"level"`, true)}},
			{Args: []string{`"debug=on"`}, Results: []string{"1", `""`}, Covers: []Cond{cond("keywords.go:52", `"on"`, true)}},
			{Args: []string{`"mode=on"`}, Results: []string{"0", `"keywords: unknown mode \"on\""`}, Covers: []Cond{cond("keywords.go:52", `"on"`, true)}},
		},
		Crashes: []Crash{{Kind: "panic", Message: "runtime error: index out of range [4] with length 4", Args: []string{`"mode=test"`}}},
	}
}

// TestKeywordsGolden compares the file of keywordsSuite with
// testdata/keywords.golden (go test ./emit -run Golden -update rewrites it).
func TestKeywordsGolden(t *testing.T) {
	got, err := TestFile(keywordsSuite())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "keywords.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("the file differs from %s:\n%s", path, got)
	}
}
