package rt

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestHotPathInlines checks that the calls of checksumInstrumented, the
// rewrite's output on a checksum loop, inline: the concrete halves of the
// operators, the branch counter, the byte loops' cursors and Owner. Each
// stays within the inliner's budget by design (its rare half passed as a
// parameter, Owner spelling tracking out), and a change that pushes one
// past it makes every use a call again, unseen by the unit tests (rt
// BenchmarkConcreteRatio: 27 ns against 22 while Owner was a call).
func TestHotPathInlines(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test -c")
	}
	bin := filepath.Join(t.TempDir(), "rt.test")
	out, err := exec.Command("go", "test", "-c", "-o", bin, "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	for _, name := range []string{
		"Owner", "BrOwn", "brOwn", "Mk", "Unpack", "Add", "Mul", "Conv", "Eq",
		"IterBytes", "BytesIter.More", "BytesIter.At",
		"PlainBytes", "PlainIter.More", "PlainIter.At",
	} {
		re := regexp.MustCompile(`(?m)^\./execute_test\.go:\d+:\d+: inlining call to ` + regexp.QuoteMeta(name) + `(\[.*\])?$`)
		if !re.Match(out) {
			t.Errorf("checksumInstrumented's call of %s is not inlined", name)
		}
	}
}
