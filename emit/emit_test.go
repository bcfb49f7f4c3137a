package emit

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sampleSuite exercises most features: several parameter kinds, an error
// result, cases with notes and all crash kinds.
func sampleSuite() Suite {
	return Suite{
		Package: "p",
		Func:    "Parse",
		Params:  []Param{{"x", "int"}, {"name", "string"}, {"_", "[]byte"}},
		Results: []Result{{Type: "int", Pinned: true}, {Type: "error", IsError: true, Pinned: true}},
		Cases: []Case{
			{Args: []string{"-3", `"abc"`, `[]byte("\x00a")`}, Results: []string{"0", `"negative"`}, Covers: []Cond{{Pos: "p.go:3", Text: "x < 0", Taken: true}}, Note: "a note"},
			{Args: []string{"4", `""`, "nil"}, Results: []string{"4", `""`}},
		},
		Crashes: []Crash{
			{Kind: "panic", Message: "runtime error: index out of range [5] with length 3", Args: []string{"5", `""`, "nil"}},
			{Kind: "exit", Message: "exit status 3", Args: []string{"8", `""`, "nil"}},
			{Kind: "timeout", Message: "did not return within 1s", Args: []string{"9", `""`, "nil"}},
			{Kind: "fatal", Message: "fatal error: concurrent map writes\nsecond line", Args: []string{"10", `""`, "nil"}},
			{Kind: "memory", Message: "runtime: out of memory", Args: []string{"11", `""`, "nil"}},
		},
		ReproTimeout: 1500 * time.Millisecond,
	}
}

func TestTestFile(t *testing.T) {
	tests := []struct {
		name        string
		suite       Suite
		wantFuncs   []string // test functions, in order
		wantImports []string
		want        []string // snippets, compared with runs of blanks collapsed
		wantNot     []string
	}{
		{
			name:        "sample",
			suite:       sampleSuite(),
			wantFuncs:   []string{"TestGocolicParse", "TestGocolicParseCrashes"},
			wantImports: []string{"bytes", "context", "fmt", "os", "os/exec", "testing", "time"},
			want: []string{
				"in_x int", "in_name string", "in2 []byte", "want0 int", "want1 string",
				"// covers: p.go:3 x < 0 true\n// a note\n",
				`{name: "x_lt_0_negative", in_x: -3, in_name: "abc", in2: []byte("\x00a"), want0: 0, want1: "negative"},`,
				"got0, got1 := Parse(tt.in_x, tt.in_name, tt.in2)",
				"if got0 != tt.want0 {",
				"errText(got1)",
				`t.Errorf("Parse(%#v, %#v, %#v) panicked: %v", tt.in_x, tt.in_name, tt.in2, r)`,
				"// panic: runtime error: index out of range [5] with length 3\n",
				`name: "panics_index_out_of_range"`,
				`{name: "returns_4", in_x: 4,`,
				"// fatal: fatal error: concurrent map writes\n// second line\n",
				"const timeout = 1500 * time.Millisecond",
				`"-test.run=^TestGocolicParseCrashes$/^"+tt.name+"$"`,
				`os.Getenv("GOCOLIC_REPRO") == t.Name()`,
			},
		},
		{
			name: "cases only, no error result",
			suite: Suite{
				Package: "p", Func: "Abs",
				Params:  []Param{{"x", "int"}},
				Results: []Result{{Type: "int", Pinned: true}},
				Cases:   []Case{{Args: []string{"-1"}, Results: []string{"1"}}},
			},
			wantFuncs:   []string{"TestGocolicAbs"},
			wantImports: []string{"testing"},
			want:        []string{"got0 := Abs(tt.in_x)", `t.Errorf("Abs(%#v) = %#v, want %#v", tt.in_x, got0, tt.want0)`},
			wantNot:     []string{"errText", "Crashes"},
		},
		{
			name: "a method, with imports the types need",
			suite: Suite{
				Package: "p", Func: "Acc_Add", Method: "Add",
				Params:  []Param{{"receiver", "*Acc"}, {"at", "geo.Point"}},
				Results: []Result{{Type: "int", Pinned: true}},
				Imports: map[string]string{"example.com/geo/v2": "geo", "example.com/mod/strings": "xstrings"},
				Cases:   []Case{{Args: []string{"&Acc{n: 1}", "geo.Point{X: 2}"}, Results: []string{"3"}}},
			},
			wantFuncs:   []string{"TestGocolicAcc_Add"},
			wantImports: []string{"example.com/geo/v2", "example.com/mod/strings", "testing"},
			want: []string{
				"receiver *Acc", "in_at geo.Point", "xstrings \"example.com/mod/strings\"",
				"got0 := tt.receiver.Add(tt.in_at)",
				`t.Errorf("%#v.Add(%#v) = %#v, want %#v", tt.receiver, tt.in_at, got0, tt.want0)`,
			},
		},
		{
			name: "a method with a parameter named receiver",
			suite: Suite{
				Package: "p", Func: "T_M", Method: "M",
				Params:  []Param{{"receiver", "T"}, {"receiver", "int"}},
				Results: []Result{{Type: "int", Pinned: true}},
				Cases:   []Case{{Args: []string{"T{}", "1"}, Results: []string{"2"}}},
			},
			wantFuncs:   []string{"TestGocolicT_M"},
			wantImports: []string{"testing"},
			want:        []string{"receiver    T", "in_receiver int", "got0 := tt.receiver.M(tt.in_receiver)"},
		},
		{
			name: "panics only",
			suite: Suite{
				Package: "p", Func: "Abs",
				Params:  []Param{{"x", "int"}},
				Results: []Result{{Type: "int", Pinned: true}},
				Crashes: []Crash{{Kind: "panic", Message: "boom", Args: []string{"0"}}},
			},
			wantFuncs:   []string{"TestGocolicAbsCrashes"},
			wantImports: []string{"testing"},
			want:        []string{"Abs(tt.in_x)\n"},
			wantNot:     []string{"os.Getenv", "tt := tt", "t.Parallel()", `if tt.kind == "panic"`},
		},
		{
			name: "subprocess crashes only",
			suite: Suite{
				Package: "p", Func: "Loop",
				Crashes: []Crash{{Kind: "timeout", Message: "hang"}},
			},
			wantFuncs:   []string{"TestGocolicLoopCrashes"},
			wantImports: []string{"bytes", "context", "fmt", "os", "os/exec", "testing", "time"},
			want:        []string{"const timeout = 10 * time.Second", "Loop()\n", `t.Errorf("Loop() did not return within %v`},
			wantNot:     []string{"recover()"},
		},
		{
			name: "comparison kinds, variadic and unpinned results",
			suite: Suite{
				Package: "p", Func: "G",
				Params: []Param{{"", "int"}, {"c", "Celsius"}, {"xs", "...int"}},
				Results: []Result{
					{Type: "[]byte", Pinned: true},
					{Type: "float64", Pinned: true},
					{Type: "[]int", Pinned: true},
					{Type: "map[string]int", Pinned: false},
					{Type: "struct{ A []int }", Pinned: true},
					{Type: "[2]int", Pinned: true},
				},
				Cases: []Case{{
					Args:    []string{"1", "Celsius(2.5)", "[]int{1, 2}"},
					Results: []string{`[]byte("x")`, "math.NaN()", "nil", "", "struct{ A []int }{}", "[2]int{1, 2}"},
				}},
			},
			wantFuncs:   []string{"TestGocolicG"},
			wantImports: []string{"bytes", "math", "reflect", "testing"},
			want: []string{
				"in0 int", "in_c Celsius", "in_xs []int",
				"got0, got1, got2, _, got4, got5 := G(tt.in0, tt.in_c, tt.in_xs...)",
				"!bytes.Equal(got0, tt.want0)",
				"got1 != tt.want1 && !(got1 != got1 && tt.want1 != tt.want1)",
				"!reflect.DeepEqual(got2, tt.want2)",
				"!reflect.DeepEqual(got4, tt.want4)",
				"if got5 != tt.want5 {",
				`t.Errorf("G(%#v, %#v, %#v) result 0 = %q, want %q", tt.in0, tt.in_c, tt.in_xs, got0, tt.want0)`,
				"want1: math.NaN()",
			},
			wantNot: []string{"want3"},
		},
		{
			name: "no result pinned",
			suite: Suite{
				Package: "p", Func: "H",
				Params:  []Param{{"name", "string"}},
				Results: []Result{{Type: "int"}, {Type: "error", IsError: true}},
				Cases:   []Case{{Args: []string{`"a"`}}},
			},
			wantFuncs:   []string{"TestGocolicH"},
			wantImports: []string{"testing"},
			want:        []string{"\nH(tt.in_name)\n"},
			wantNot:     []string{"want0", "want1", "got", "errText"},
		},
		{
			name: "literals are reprinted and comments dropped",
			suite: Suite{
				Package: "p", Func: "K",
				Params: []Param{{"p", "Point"}},
				Cases:  []Case{{Args: []string{"Point{X: 1, /* y */ Y: 2} // trailing"}, Note: "line one\nline\ttwo\x00"}},
			},
			wantFuncs:   []string{"TestGocolicK"},
			wantImports: []string{"testing"},
			want:        []string{"in_p: Point{X: 1, Y: 2}}", "// line one\n// line\ttwo\\u0000\n"},
			wantNot:     []string{"trailing", "/* y */"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := TestFile(tt.suite)
			if err != nil {
				t.Fatalf("TestFile() error: %v", err)
			}
			again, err := TestFile(tt.suite)
			if err != nil || !bytes.Equal(src, again) {
				t.Errorf("TestFile() is not deterministic (second error: %v)", err)
			}
			if first, _, _ := strings.Cut(string(src), "\n"); first != Header {
				t.Errorf("first line = %q, want %q", first, Header)
			}
			if !IsGenerated(src) {
				t.Error("IsGenerated(TestFile()) = false")
			}
			formatted, err := format.Source(src)
			if err != nil {
				t.Fatalf("generated source does not parse: %v\n%s", err, src)
			}
			if !bytes.Equal(formatted, src) {
				t.Errorf("generated source is not gofmt-stable:\n%s", src)
			}

			f, err := parser.ParseFile(token.NewFileSet(), "x_test.go", src, 0)
			if err != nil {
				t.Fatal(err)
			}
			if f.Name.Name != tt.suite.Package {
				t.Errorf("package = %s, want %s", f.Name.Name, tt.suite.Package)
			}
			var imports, funcs []string
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				imports = append(imports, path)
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					funcs = append(funcs, fd.Name.Name)
				}
			}
			if !slices.Equal(imports, tt.wantImports) {
				t.Errorf("imports = %q, want %q", imports, tt.wantImports)
			}
			if !slices.Equal(funcs, tt.wantFuncs) {
				t.Errorf("functions = %q, want %q", funcs, tt.wantFuncs)
			}

			norm := collapseBlanks(string(src))
			for _, s := range tt.want {
				if !strings.Contains(norm, collapseBlanks(s)) {
					t.Errorf("output lacks %q:\n%s", s, src)
				}
			}
			for _, s := range tt.wantNot {
				if strings.Contains(norm, collapseBlanks(s)) {
					t.Errorf("output contains %q:\n%s", s, src)
				}
			}
		})
	}
}

// collapseBlanks drops indentation and replaces each other run of spaces
// and tabs by one space, so that snippets can be matched regardless of
// gofmt's indentation and column alignment.
func collapseBlanks(s string) string {
	s = regexp.MustCompile(`(?m)^[ \t]+`).ReplaceAllString(s, "")
	return regexp.MustCompile(`[ \t]+`).ReplaceAllString(s, " ")
}

// TestTestFileBuild checks that a case with a builder takes its arguments
// from it, in both tables, and that other cases keep their literals.
func TestTestFileBuild(t *testing.T) {
	build := "func() (a0 *T, a1 *T) { p := new(T); return p, p }"
	src, err := TestFile(Suite{
		Package: "p", Func: "F",
		Params:  []Param{{"a", "*T"}, {"b", "*T"}},
		Cases:   []Case{{Args: []string{"nil", "nil"}}, {Args: []string{"&T{}", "&T{}"}, Build: build}},
		Crashes: []Crash{{Kind: "panic", Message: "same", Args: []string{"&T{}", "&T{}"}, Build: build}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"func() (*T, *T) // when set, the arguments",
		`{name: "call", in_a: nil, in_b: nil}`,
		"build: func() (a0 *T, a1 *T) {",
		"if tt.build != nil {\n\t\t\t\ttt.in_a, tt.in_b = tt.build()",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("output lacks %q:\n%s", want, src)
		}
	}
	if n := strings.Count(string(src), "= tt.build()"); n != 2 {
		t.Errorf("%d subtests take the builder's arguments, want 2:\n%s", n, src)
	}
}

func TestTestFileErrors(t *testing.T) {
	valid := func(edit func(*Suite)) Suite {
		s := Suite{
			Package: "p", Func: "F",
			Params:  []Param{{"x", "int"}},
			Results: []Result{{Type: "int", Pinned: true}},
			Cases:   []Case{{Args: []string{"1"}, Results: []string{"2"}}},
		}
		edit(&s)
		return s
	}
	if _, err := TestFile(valid(func(*Suite) {})); err != nil {
		t.Fatalf("the base suite is invalid: %v", err)
	}
	tests := []struct {
		name  string
		suite Suite
	}{
		{"empty package name", valid(func(s *Suite) { s.Package = "" })},
		{"blank package name", valid(func(s *Suite) { s.Package = "_" })},
		{"bad function name", valid(func(s *Suite) { s.Func = "F-1" })},
		{"init function", valid(func(s *Suite) { s.Func = "init" })},
		{"no cases or crashes", valid(func(s *Suite) { s.Cases = nil })},
		{"bad parameter name", valid(func(s *Suite) { s.Params[0].Name = "x y" })},
		{"keyword parameter name", valid(func(s *Suite) { s.Params[0].Name = "func" })},
		{"bad parameter type", valid(func(s *Suite) { s.Params[0].Type = "[]" })},
		{"empty parameter type", valid(func(s *Suite) { s.Params[0].Type = "" })},
		{"variadic not last", valid(func(s *Suite) {
			s.Params = []Param{{"a", "...int"}, {"b", "int"}}
			s.Cases[0].Args = []string{"nil", "1"}
		})},
		{"bad result type", valid(func(s *Suite) { s.Results[0].Type = "map[" })},
		{"too few arguments", valid(func(s *Suite) { s.Cases[0].Args = nil })},
		{"too many arguments", valid(func(s *Suite) { s.Cases[0].Args = []string{"1", "2"} })},
		{"bad argument literal", valid(func(s *Suite) { s.Cases[0].Args = []string{"1 +"} })},
		{"statement as argument", valid(func(s *Suite) { s.Cases[0].Args = []string{"x := 1"} })},
		{"missing pinned result", valid(func(s *Suite) { s.Cases[0].Results = nil })},
		{"bad result literal", valid(func(s *Suite) { s.Cases[0].Results = []string{"}"} })},
		{"crash argument count", valid(func(s *Suite) { s.Crashes = []Crash{{Kind: "panic", Message: "boom"}} })},
		{"builder that is no function literal", valid(func(s *Suite) { s.Cases[0].Build = "build()" })},
		{"bad builder", valid(func(s *Suite) { s.Cases[0].Build = "func() (int) {" })},
		{"two imports under one name", valid(func(s *Suite) {
			s.Imports = map[string]string{"example.com/a/v1": "v1", "example.com/b/v1": "v1"}
		})},
		{"an import named like a standard package the test uses", valid(func(s *Suite) {
			s.Imports = map[string]string{"example.com/mod/testing": "testing"}
		})},
		{"function named like a used import", valid(func(s *Suite) { s.Func = "testing" })},
		{"function named like a used import of a crash test", valid(func(s *Suite) {
			s.Func = "exec"
			s.Cases = nil
			s.Crashes = []Crash{{Kind: "exit", Message: "exit status 1", Args: []string{"1"}}}
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if src, err := TestFile(tt.suite); err == nil {
				t.Errorf("TestFile() succeeded, want an error; output:\n%s", src)
			}
		})
	}
}
