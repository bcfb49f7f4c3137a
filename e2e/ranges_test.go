package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// oldRanges are range loops in a module whose go line predates
// range-over-func (go 1.21): each goal is reachable only if the loop's
// elements and condition stay symbolic.
const oldRanges = `package r

func Checksum(b []byte) {
	var s uint32
	for _, c := range b {
		s += uint32(c)
	}
	if s == 1000 {
		panic("found")
	}
}

func Runes(s string) {
	n := 0
	for i, r := range s {
		if r == '日' && i > 0 {
			n++
		}
	}
	if n == 2 {
		panic("found")
	}
}

func Slice(xs []int16) {
	var sum int
	for _, x := range xs {
		sum += int(x)
	}
	if len(xs) == 3 && sum == -30000 {
		panic("found")
	}
}
`

// TestRangesInOldModule runs gocolic test on range loops of a go 1.21
// module, which the rewrite must track without range-over-func.
func TestRangesInOldModule(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"r/r.go": oldRanges})
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, fn := range []string{"Checksum", "Runes", "Slice"} {
		t.Run(fn, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "r.json")
			res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "60s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-timeout", "10s",
				"-maxbugs", "1", "-notests", "-json", js, "./r", fn)
			if res.code != 0 {
				t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
			}
			rep := readReport(t, js)
			if len(rep.Bugs) == 0 || !strings.Contains(rep.Bugs[0].Message, "found") {
				t.Errorf("want the goal reached, got bugs %+v after %d executions\n%s", rep.Bugs, rep.Executions, res.stderr)
			}
		})
	}
}
