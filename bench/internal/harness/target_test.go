package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCountLOC(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want int
	}{
		{"package clause", "package p\n", 1},
		{"no final newline", "package p", 1},
		{"blank lines", "\n\npackage p\n\n\n", 1},
		{"line comments", "// Package p.\npackage p\n\n// f does.\nfunc f() {}\n", 2},
		{"trailing comment", "package p\n\nvar x = 1 // one\n", 2},
		{"block comment over lines", "package p\n/*\nvar y = 2\n*/\nvar x = 1\n", 2},
		{"code after a block comment", "package p\n/* c */ var x = 1\n", 2},
		{"raw string over lines", "package p\n\nvar s = `a\n\nb`\n", 4},
		{"body", "package p\n\nfunc f(x int) int {\n\t// comment\n\n\tif x > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n", 7},
	}
	for _, tt := range tests {
		got, err := CountLOC([]byte(tt.src))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s: CountLOC = %d, want %d", tt.name, got, tt.want)
		}
	}
	if _, err := CountLOC([]byte("package p\nvar s = \"open\n")); err == nil {
		t.Errorf("CountLOC of an unterminated string: no error")
	}
}

func TestLoadTarget(t *testing.T) {
	tests := []struct {
		name    string
		dir     string
		files   map[string]string
		fn      string
		loc     int
		wantErr string
	}{
		{
			name: "one entry",
			dir:  "one",
			files: map[string]string{
				"a.go":      "// Package one is a test.\npackage one\n\n// F is.\nfunc F(x int) int { return g(x) }\n\nfunc g(x int) int { return x }\n",
				"b.go":      "package one\n\nconst c = 1\n",
				"a_test.go": "package one\n\nfunc TestX() {}\n",
				"notes.txt": "not Go\n",
			},
			fn: "F", loc: 5,
		},
		{
			name:    "two entries",
			dir:     "two",
			files:   map[string]string{"a.go": "package two\n\nfunc F() {}\nfunc G() {}\n"},
			wantErr: "2 exported functions (F, G)",
		},
		{
			name:    "methods do not count, no entry left",
			dir:     "none",
			files:   map[string]string{"a.go": "package none\n\ntype T int\n\nfunc (T) M() {}\n"},
			wantErr: "0 exported functions",
		},
		{
			name:    "package name differs from the directory",
			dir:     "differs",
			files:   map[string]string{"a.go": "package other\n\nfunc F() {}\n"},
			wantErr: "declares package other",
		},
		{
			name:    "no Go files",
			dir:     "empty",
			files:   map[string]string{"README": "x\n"},
			wantErr: "no Go files",
		},
	}
	for _, tt := range tests {
		dir := filepath.Join(t.TempDir(), tt.dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for n, src := range tt.files {
			if err := os.WriteFile(filepath.Join(dir, n), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := LoadTarget(dir)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got.Func != tt.fn || got.LOC != tt.loc || len(got.Files) != 2 {
			t.Errorf("%s: func %s, LOC %d, %d files; want %s, %d, 2", tt.name, got.Func, got.LOC, len(got.Files), tt.fn, tt.loc)
		}
	}
}
