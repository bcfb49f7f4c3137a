package build

import "strings"

// floor lists, with the reason each is there, the standard packages that
// the worker's runtime (rt and sym) may depend on, directly or not,
// besides Go's internal packages (InFloor). gocolic never instruments
// these in place: an instrumented standard package imports the runtime,
// so one in the runtime's closure would import itself; the pure-Go ones
// parsers call (strconv, unicode, path, ...) are instrumented as copies
// under another path instead (stdcopy.go). Everything else in
// the standard library can be instrumented, and rt and sym write the few
// pieces of strings, bytes, bufio, runtime/debug, encoding/binary and
// hash/fnv they need themselves (rt/floor.go, sym/varint.go).
// TestRuntimeFloor checks the runtime's closure against this list.
var floor = map[string]string{
	"unsafe":       "rt's shadow memory and aggregates read Go values through pointers",
	"runtime":      "Go's own runtime, under every program; rt reads goroutine stacks",
	"syscall":      "under os",
	"sync":         "under os, reflect and fmt",
	"sync/atomic":  "rt's goroutine ownership and registries",
	"errors":       "rt's and sym's errors",
	"io":           "the worker's pipes (rt/wire.go) and the io.ReadAll model",
	"io/fs":        "under os",
	"iter":         "under slices and reflect",
	"os":           "the worker's pipes to the coordinator, exit, environment",
	"path":         "under io/fs",
	"time":         "execution timings in the worker",
	"embed":        "rt/embed.go and sym/embed.go only, which are not laid in the worker",
	"cmp":          "rt's map model orders keys",
	"slices":       "rt's map model and opaque calls",
	"math":         "float terms and models (rt/float.go, sym/float.go)",
	"math/bits":    "sym's narrowing; Go's runtime imports it anyway",
	"strconv":      "literals of inputs (rt/value.go, rt/worker.go); under reflect and fmt",
	"unicode":      "the unicode models; under reflect and fmt",
	"unicode/utf8": "string ranges (rt/str.go); under reflect and fmt",
	"reflect":      "twin and method registries, dynamic types, shadow memory",
	"fmt":          "errors and messages of rt and sym",
}

// InFloor reports whether the standard package path is one the runtime
// may depend on (floor), or an internal or vendored package of the
// standard library, which only the standard library imports and gocolic
// does not instrument.
func InFloor(path string) bool {
	if _, ok := floor[path]; ok {
		return true
	}
	return path == "internal" || strings.HasPrefix(path, "internal/") || strings.Contains(path, "/internal/") ||
		strings.HasPrefix(path, "vendor/") || strings.HasPrefix(path, "runtime/")
}
