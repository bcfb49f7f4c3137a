package harness

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSelectNames(t *testing.T) {
	known := []string{"gocolic", "fuzz", "hybrid", "gocolic-fuzz"}
	def := []string{"gocolic", "fuzz", "hybrid"}
	tests := []struct {
		list    string
		want    []string
		wantErr string
	}{
		{list: "", want: def},
		{list: "  ", want: def},
		{list: "hybrid", want: []string{"hybrid"}},
		{list: "hybrid,gocolic", want: []string{"gocolic", "hybrid"}}, // known's order
		{list: " fuzz , fuzz,hybrid ", want: []string{"fuzz", "hybrid"}},
		{list: "gocolic-fuzz,gocolic", want: []string{"gocolic", "gocolic-fuzz"}},
		{list: "gocolic,afl", wantErr: `unknown name "afl"`},
		{list: "Gocolic", wantErr: "unknown name"},
		{list: ",,", wantErr: "selects nothing"},
	}
	for _, tt := range tests {
		got, err := SelectNames(tt.list, known, def)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("SelectNames(%q) = %q, %v; want error containing %q", tt.list, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("SelectNames(%q) = %q, %v; want %q", tt.list, got, err, tt.want)
		}
	}
	// The default is a copy: changing the result must not change def.
	got, _ := SelectNames("", known, def)
	got[0] = "x"
	if def[0] != "gocolic" {
		t.Errorf("SelectNames returned def itself")
	}
}

func TestDistinctMessages(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{nil, nil},
		{[]string{"a", "b"}, []string{"a", "b"}},
		{
			[]string{"runtime error: index out of range [6] with length 6", "runtime error: index out of range [4] with length 4"},
			[]string{"runtime error: index out of range [6] with length 6"},
		},
		{
			[]string{"magic value reached: class file version 0xCAFE", "magic: gzip reserved flag bits set", "magic value reached: class file version 0xCAFE"},
			[]string{"magic value reached: class file version 0xCAFE", "magic: gzip reserved flag bits set"},
		},
		{[]string{"integer divide by zero", " integer divide by zero "}, []string{"integer divide by zero"}},
		// Different words are different failures even with equal numbers.
		{[]string{"offset 3 outside frame", "length 3 outside frame"}, []string{"offset 3 outside frame", "length 3 outside frame"}},
	}
	for _, tt := range tests {
		if got := DistinctMessages(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("DistinctMessages(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestTableMarkdown(t *testing.T) {
	tests := []struct {
		name    string
		table   Table
		want    string
		wantErr bool
	}{
		{
			name:  "aligned",
			table: Table{Head: []string{"example", "bugs", "cov"}, Right: []bool{false, true, true}, Rows: [][]string{{"magic", "2", "34/34"}, {"**total**", "**2**", ""}}},
			want:  "| example | bugs | cov |\n|---|--:|--:|\n| magic | 2 | 34/34 |\n| **total** | **2** |  |\n",
		},
		{
			name:  "short rows and Right",
			table: Table{Head: []string{"a", "b"}, Rows: [][]string{{"x"}}},
			want:  "| a | b |\n|---|---|\n| x |  |\n",
		},
		{
			name:    "too many cells",
			table:   Table{Head: []string{"a"}, Rows: [][]string{{"x", "y"}}},
			wantErr: true,
		},
	}
	for _, tt := range tests {
		got, err := tt.table.Markdown()
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: error %v, want error %v", tt.name, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && got != tt.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
	}
	var tb Table
	tb.Head = []string{"a"}
	tb.Add("1")
	tb.Add("2")
	if got, _ := tb.Markdown(); got != "| a |\n|---|\n| 1 |\n| 2 |\n" {
		t.Errorf("Add: %q", got)
	}
}

func TestCellAndRate(t *testing.T) {
	cells := []struct{ in, want string }{
		{"plain", "plain"},
		{"a|b", `a\|b`},
		{"two\nlines", "two lines"},
	}
	for _, c := range cells {
		if got := Cell(c.in); got != c.want {
			t.Errorf("Cell(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	rates := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {-3, "0"}, {0.4, "0"}, {0.5, "1"}, {999.4, "999"}, {999.5, "1,000"}, {1234567, "1,234,567"},
	}
	for _, r := range rates {
		if got := Rate(r.in); got != r.want {
			t.Errorf("Rate(%v) = %q, want %q", r.in, got, r.want)
		}
	}
}

// TestPublish checks that the file Publish writes names the workspace as
// $TMP, never by its path.
func TestPublish(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.md")
	if err := Publish("log in "+dir+"/logs\n", dir, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "log in $TMP/logs\n" {
		t.Errorf("wrote %q, want the workspace as $TMP", got)
	}
}
