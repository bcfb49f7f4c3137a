package build

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestRuntimeFloor checks that the worker's runtime (rt and sym, without
// their tests) depends on no standard package beyond the floor, so that
// every package above it can be instrumented in place without an import
// cycle; and that the packages gocolic instruments in place are above it.
func TestRuntimeFloor(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if .Standard}}{{.ImportPath}}{{end}}",
		"github.com/gocolic/gocolic/rt", "github.com/gocolic/gocolic/sym").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, p := range deps {
		if !InFloor(p) {
			t.Errorf("the runtime depends on %s, which is not in its floor: write the piece it needs in rt or sym, or add it to floor with the reason", p)
		}
	}
	for _, p := range []string{"strings", "bytes", "bufio", "regexp", "regexp/syntax", "sort", "encoding/binary", "encoding/hex", "encoding/base64", "net/url", "hash/fnv"} {
		if InFloor(p) {
			t.Errorf("InFloor(%s) = true, want false: it must stay instrumentable", p)
		}
	}
	// runtime/debug is never instrumented (it reaches into Go's runtime),
	// but it imports strings.
	if slices.Contains(deps, "runtime/debug") {
		t.Error("the runtime depends on runtime/debug, which imports strings")
	}
}
