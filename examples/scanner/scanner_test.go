package scanner

import (
	"fmt"
	"strings"
	"testing"
)

func FuzzScanner(f *testing.F) {
	f.Add([]byte(`x = 42 + y`))
	f.Add([]byte(`print("a\tb\u00e9", 7);`))
	f.Fuzz(func(t *testing.T, src []byte) {
		Tokens(src)
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

func TestScannerPlanted(t *testing.T) {
	expectPanic(t, "byte order mark inside string literal", func() {
		Tokens([]byte(`"\uFEFF"`))
	})
	expectPanic(t, "byte order mark inside string literal", func() {
		Tokens([]byte(`s = "ok\ufeff"`))
	})
}

func TestScannerOrdinary(t *testing.T) {
	cases := []struct {
		src     string
		want    int
		wantErr bool
	}{
		{`x = 42 + y`, 5, false},
		{`print("a\tb\u00e9", 7);`, 7, false},
		{`foo(bar,baz)`, 6, false},
		{``, 0, false},
		{`12ab`, 1, true},
		{`"open`, 1, true},
		{`"\q"`, 1, true},
		{`"\u12G4"`, 1, true},
		{`a # b`, 1, true},
	}
	for _, c := range cases {
		got, err := Tokens([]byte(c.src))
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("Tokens(%q) = %d, %v; want %d, error=%v", c.src, got, err, c.want, c.wantErr)
		}
	}
}
