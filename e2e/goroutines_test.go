package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// goroutineTarget panics behind a branch on a product of an input, while
// goroutines do symbolic work on the same inputs: four started by go
// statements of the target, and one the standard library starts
// (context.AfterFunc) to run a closure of the target. Only the goroutine
// that runs Hard may record branches; the others run concretely.
const goroutineTarget = `package lg

import (
	"context"
	"strings"
	"sync"
)

func Hard(x uint32, s string) int {
	var wg sync.WaitGroup
	counts := make([]int, 5)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := x
			for k := range 300 {
				h = h*31 + uint32(k)
				if h%7 == 3 {
					counts[i]++
				}
			}
			if strings.HasPrefix(s, "go") && len(strings.Split(s, ",")) > 1 {
				counts[i]++
			}
		}()
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	context.AfterFunc(ctx, func() {
		defer close(done)
		for k := range 300 {
			if uint32(k)*x == 12345 || s+"!" == "ab!" {
				counts[4]++
			}
		}
	})
	cancel()
	<-done
	wg.Wait()
	if x*2654435761 == 0xdeadbeef && s == "concurrency" {
		panic("found")
	}
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}
`

// TestGoroutines checks that goroutines doing symbolic work beside the
// target's own do not disturb it: Z3 alone reaches the branch on the
// main goroutine, the worker does not crash, and no run diverges from
// its prediction (a branch recorded by another goroutine would).
func TestGoroutines(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"lg/lg.go": goroutineTarget})
	js := filepath.Join(t.TempDir(), "r.json")
	res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "30s", "-workers", "2", "-seed", "1", "-lanes", "concolic",
		"-maxbugs", "1", "-notests", "-minimizetime", "0", "-solver", "z3", "-json", js, "./lg", "Hard")
	if res.code != 0 {
		t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
	}
	rep := readReport(t, js)
	if len(rep.Bugs) != 1 || rep.Bugs[0].Message != "found" {
		t.Errorf("bugs %+v, want the panic \"found\" alone\n%s", rep.Bugs, res.stderr)
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var extra struct {
		Divergences int `json:"divergences"`
	}
	if err := json.Unmarshal(b, &extra); err != nil {
		t.Fatal(err)
	}
	if extra.Divergences != 0 {
		t.Errorf("%d runs diverged from their prediction", extra.Divergences)
	}
}
