package emit

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestCrashName(t *testing.T) {
	tests := []struct {
		kind, msg string
		want      string
	}{
		{"panic", "boom", "panics_boom"},
		{"panic", "runtime error: integer divide by zero", "panics_integer_divide_by_zero"},
		{"exit", "exit status 3", "exits_status_3"},
		{"fatal", "fatal error: stack overflow", "dies_stack_overflow"},
		{"timeout", "execution exceeded 1s", "hangs_execution_exceeded_1s"},
		{"memory", "out of memory", "exhausts_memory_out_of"},
		{"panic", `  "quoted"  / slash\tand (parens) [5] `, "panics_slash_tand_parens"},
		{"panic", "keywords: bad digit 'x'", "panics_bad_digit"},
		{"panic", "héllo wörld", "panics_h_llo_w_rld"},
		{"panic", "", "panics"},
		{"", "", "crash"},
		{"", "!!!", "crash"},
		{"timeout", strings.Repeat("abc ", 30), "hangs_abc_abc_abc_abc"},
		{"panic", "runtime error: index out of range [5] with length 3", "panics_index_out_of_range"},
		{"panic", strings.Repeat("x", 60), "panics_" + strings.Repeat("x", 43)},
	}
	valid := regexp.MustCompile(`^[A-Za-z0-9_]+$`)
	for _, tt := range tests {
		got := crashName(tt.kind, tt.msg)
		if got != tt.want {
			t.Errorf("crashName(%q, %q) = %q, want %q", tt.kind, tt.msg, got, tt.want)
		}
		if !valid.MatchString(got) || len(got) > maxNameLen || strings.HasSuffix(got, "_") {
			t.Errorf("crashName(%q, %q) = %q: not a short [A-Za-z0-9_] name", tt.kind, tt.msg, got)
		}
	}
}

func TestUniqueNames(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{nil, []string{}},
		{[]string{"a", "b"}, []string{"a", "b"}},
		{[]string{"a", "a", "a"}, []string{"a", "a_2", "a_3"}},
		// A suffixed name must not steal the name of a later crash.
		{[]string{"a", "a", "a_2"}, []string{"a", "a_3", "a_2"}},
		{[]string{"a_2", "a", "a"}, []string{"a_2", "a", "a_3"}},
	}
	for _, tt := range tests {
		if got := uniqueNames(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("uniqueNames(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCrashSubtestNamesUnique checks that crashes whose messages differ
// only in punctuation or beyond the length limit still get distinct
// subtests.
func TestCrashSubtestNamesUnique(t *testing.T) {
	long := strings.Repeat("x", 80)
	s := Suite{
		Package: "p", Func: "F",
		Params: []Param{{"x", "int"}},
		Crashes: []Crash{
			{Kind: "panic", Message: "a: b", Args: []string{"1"}},
			{Kind: "panic", Message: "a b", Args: []string{"2"}},
			{Kind: "panic", Message: long + "1", Args: []string{"3"}},
			{Kind: "panic", Message: long + "2", Args: []string{"4"}},
		},
	}
	src, err := TestFile(s)
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`name: "([^"]*)"`).FindAllStringSubmatch(string(src), -1)
	var got []string
	for _, m := range names {
		got = append(got, m[1])
	}
	trunc := crashName("panic", long)
	want := []string{"panics_b", "panics_a_b", trunc, trunc + "_2"}
	if !slices.Equal(got, want) {
		t.Errorf("subtest names = %q, want %q", got, want)
	}
}

func TestCrashNames(t *testing.T) {
	conv := "interface conversion: part.Part is part.String, not part.Uint64"
	tests := []struct {
		name    string
		crashes []Crash
		want    []string
	}{
		{"alike, in different functions", []Crash{
			{Kind: "panic", Message: conv, Where: "IncPatch"},
			{Kind: "panic", Message: conv, Where: "CaretBump"},
			{Kind: "panic", Message: conv, Where: "IncMinor"},
		}, []string{"panics_interface_conversion_part_part_in_IncPatch", "panics_interface_conversion_part_part_in_CaretBump", "panics_interface_conversion_part_part_in_IncMinor"}},
		{"alike, in one function", []Crash{
			{Kind: "panic", Message: "boom", Where: "F"},
			{Kind: "panic", Message: "boom", Where: "F"},
		}, []string{"panics_boom", "panics_boom_2"}},
		{"alike, one place unknown", []Crash{
			{Kind: "panic", Message: "boom", Where: "F"},
			{Kind: "panic", Message: "boom"},
		}, []string{"panics_boom_in_F", "panics_boom"}},
		{"different", []Crash{
			{Kind: "panic", Message: "boom", Where: "F"},
			{Kind: "panic", Message: "bang", Where: "G"},
		}, []string{"panics_boom", "panics_bang"}},
		{"long message", []Crash{
			{Kind: "panic", Message: strings.Repeat("word ", 20), Where: "AVeryLongFunctionName"},
			{Kind: "panic", Message: strings.Repeat("word ", 20), Where: "G"},
		}, []string{"panics_word_word_word_in_AVeryLongFunctionName", "panics_word_word_word_word_in_G"}},
	}
	for _, tt := range tests {
		got := crashNames(tt.crashes)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: crashNames = %q, want %q", tt.name, got, tt.want)
		}
		for _, n := range got {
			if len(n) > maxNameLen {
				t.Errorf("%s: %q is longer than %d", tt.name, n, maxNameLen)
			}
		}
	}
}
