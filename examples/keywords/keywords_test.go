package keywords

import (
	"fmt"
	"strings"
	"testing"
)

func FuzzKeywords(f *testing.F) {
	f.Add("port = 8080")
	f.Add("mode=fast")
	f.Add("# comment")
	f.Fuzz(func(t *testing.T, line string) {
		Setting(line)
	})
}

func expectPanic(t *testing.T, want string, fn func()) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Fatalf("no panic; want panic containing %q", want)
		}
		if msg := fmt.Sprint(r); !strings.Contains(msg, want) {
			t.Fatalf("panic %q; want it to contain %q", msg, want)
		}
	}()
	fn()
}

func TestKeywordsPlanted(t *testing.T) {
	expectPanic(t, "index out of range", func() { Setting("mode=test") })
}

func TestKeywordsOrdinary(t *testing.T) {
	cases := []struct {
		line    string
		want    int
		wantErr bool
	}{
		{"port = 8080", 8080, false},
		{"  level=3\t", 3, false},
		{"debug = on", 1, false},
		{"mode = safe", 'S', false},
		{"", 0, false},
		{"# port = 1", 0, false},
		{"port = 0", 0, true},
		{"port = 80x", 0, true},
		{"mode = turbo", 0, true},
		{"color = red", 0, true},
		{"novalue", 0, true},
	}
	for _, c := range cases {
		got, err := Setting(c.line)
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("Setting(%q) = %d, %v; want %d, error=%v", c.line, got, err, c.want, c.wantErr)
		}
	}
}
