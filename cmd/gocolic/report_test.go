package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportCommand checks the exit status and the message of gocolic
// report for bad and good run directories.
func TestReportCommand(t *testing.T) {
	root := t.TempDir()
	mk := func(name, content string) string {
		dir := filepath.Join(root, name)
		os.MkdirAll(dir, 0o755)
		if content != "" {
			os.WriteFile(filepath.Join(dir, "report.json"), []byte(content), 0o644)
		}
		return dir
	}
	good := mk("good", `{"tool":"gocolic","function":"F","executions":3,"timeline":[{"ms":1,"covered":2}],"elapsed_ms":10,"config":{"strategy":"dfs"}}`)
	good2 := mk("good2", `{"tool":"gocolic","function":"F","executions":5}`)
	empty := mk("empty", "")
	malformed := mk("malformed", `{"executions": 3,`)
	out := filepath.Join(root, "out", "r.html")
	tests := []struct {
		name     string
		args     []string
		code     int
		want     []string
		wantFile string
	}{
		{"no arguments", nil, 2, []string{"usage: gocolic report"}, ""},
		{"missing directory", []string{filepath.Join(root, "nope")}, 2, []string{filepath.Join(root, "nope"), "does not exist"}, ""},
		{"no report.json", []string{good, empty}, 2, []string{filepath.Join(empty, "report.json")}, ""},
		{"malformed JSON", []string{malformed}, 2, []string{filepath.Join(malformed, "report.json"), "malformed JSON"}, ""},
		{"too many labels", []string{"-label", "a", "-label", "b", good}, 2, []string{"2 labels for 1 run"}, ""},
		{"default output", []string{good}, 0, []string{"wrote " + filepath.Join(good, "report.html")}, filepath.Join(good, "report.html")},
		{"-o and labels", []string{"-o", out, "-label", "first", good, good2}, 0, []string{"wrote " + out}, out},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := run(t.Context(), append([]string{"report"}, tt.args...), &stderr)
			if code != tt.code {
				t.Errorf("exit status %d, want %d:\n%s", code, tt.code, stderr.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, stderr.String())
				}
			}
			if tt.wantFile != "" {
				b, err := os.ReadFile(tt.wantFile)
				if err != nil || !strings.Contains(string(b), `id="coverage-plot"`) {
					t.Errorf("no report written at %s: %v", tt.wantFile, err)
				}
			}
		})
	}
	if b, err := os.ReadFile(out); err != nil || !strings.Contains(string(b), `data-run="first"`) {
		t.Errorf("-label not used: %v", err)
	}
	if _, err := os.Stat(filepath.Join(malformed, "report.html")); err == nil {
		t.Errorf("a report was written for a malformed run directory")
	}
}
