package emit

import (
	"slices"
	"testing"
	"time"
)

func TestCommentLines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"simple", []string{"// simple"}},
		{"two\nlines\n", []string{"// two", "// lines"}},
		{"crlf\r\nend", []string{"// crlf", "// end"}},
		{"nul\x00 bell\a", []string{`// nul\u0000 bell\u0007`}},
		{"bad utf8 \xff", []string{`// bad utf8 \xff`}},
		{"tab\tkept ", []string{"// tab\tkept"}},
		{"", []string{"//"}},
	}
	for _, tt := range tests {
		if got := commentLines(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("commentLines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDurationLit(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{10 * time.Second, "10 * time.Second"},
		{2 * time.Minute, "2 * time.Minute"},
		{1500 * time.Millisecond, "1500 * time.Millisecond"},
		{3 * time.Microsecond, "3 * time.Microsecond"},
		{7, "time.Duration(7)"},
	}
	for _, tt := range tests {
		if got := durationLit(tt.d); got != tt.want {
			t.Errorf("durationLit(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
