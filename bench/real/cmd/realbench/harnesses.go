package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	shared "github.com/gocolic/gocolic/bench/internal/harness"
)

// modulePath is the path of the benchmark module, whose root the runner
// looks for above the working directory.
const modulePath = "github.com/gocolic/gocolic/bench/real"

// toolModulePath is the path of gocolic's own module, two directories up.
const toolModulePath = "github.com/gocolic/gocolic"

// harness is one native fuzz target of the benchmark module; the type,
// its discovery and the module's copy are shared with bench/strategies.
type harness = shared.RealHarness

// goModLine returns the module's go line ("go 1.26.0"), for the report.
func goModLine(root string) string {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	for _, l := range bytes.Split(data, []byte("\n")) {
		if f := strings.Fields(string(l)); len(f) == 2 && f[0] == "go" {
			return f[1]
		}
	}
	return ""
}
