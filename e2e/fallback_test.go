package e2e

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// mixGo is the Go version of mix: its result is "abc" read as a
// little-endian number exactly when the input starts with "abc".
const mixGo = "func mix(b []byte) uint32 {\n\tif len(b) < 3 {\n\t\treturn 0\n\t}\n\treturn uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16\n}\n"

// mixAsm is an amd64 mix that returns 0, whose argument turns concrete.
const mixAsm = "#include \"textflag.h\"\n\nTEXT ·mix(SB),NOSPLIT,$0-28\n\tMOVL $0, ret+24(FP)\n\tRET\n"

// checkMix is a goal behind mix.
const checkMix = "\nfunc Check(b []byte) int {\n\tif mix(b) == 0x636261 {\n\t\tpanic(\"found\")\n\t}\n\treturn 0\n}\n"

// fallbackModule holds three versions of a goal behind a function written
// in assembly on amd64: with a Go version under purego in the target
// package, under noasm in a package the target calls, and with none.
var fallbackModule = map[string]string{
	"pg/check.go":      "package pg\n" + checkMix,
	"pg/mix_amd64.go":  "//go:build !purego\n\npackage pg\n\nfunc mix(b []byte) uint32\n",
	"pg/mix_amd64.s":   "//go:build !purego\n\n" + mixAsm,
	"pg/mix_go.go":     "//go:build !amd64 || purego\n\npackage pg\n\n" + mixGo,
	"h/mix.go":         "package h\n\nfunc Mix(b []byte) uint32 { return mix(b) }\n",
	"h/mix_amd64.go":   "//go:build amd64 && !noasm\n\npackage h\n\nfunc mix(b []byte) uint32\n",
	"h/mix_amd64.s":    "//go:build amd64 && !noasm\n\n" + mixAsm,
	"h/mix_other.go":   "//go:build !amd64 || noasm\n\npackage h\n\n" + mixGo,
	"t/check.go":       "package t\n\nimport \"example.com/m/h\"\n\nfunc Check(b []byte) int {\n\tif h.Mix(b) == 0x636261 {\n\t\tpanic(\"found\")\n\t}\n\treturn 0\n}\n",
	"only/check.go":    "package only\n" + checkMix,
	"only/mix_decl.go": "package only\n\nfunc mix(b []byte) uint32\n",
	"only/mix_amd64.s": mixAsm,
}

// TestFallbackTags runs gocolic test on goals behind assembly: where the
// instrumented package has a Go version under purego or noasm, gocolic
// builds with that tag, reports it, and reaches the goal; where it has
// none, the argument turns concrete and the goal stays out of reach.
func TestFallbackTags(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	if runtime.GOARCH != "amd64" {
		t.Skip("the test module's assembly is for amd64")
	}
	dir := module(t, fallbackModule)
	for _, tc := range []struct {
		name  string
		args  []string
		found bool
		tags  []string
	}{
		{"purego in the target", []string{"./pg", "Check"}, true, []string{"purego"}},
		{"noasm in an instrumented package", []string{"-instrument", "./h", "./t", "Check"}, true, []string{"noasm"}},
		{"assembly only", []string{"./only", "Check"}, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := filepath.Join(t.TempDir(), "r.json")
			args := append([]string{"test", "-budget", "30s", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-maxbugs", "1", "-notests", "-json", js}, tc.args...)
			res := run(t, dir, 2*time.Minute, gocolic, args...)
			if res.code != 0 {
				t.Fatalf("gocolic exited %d:\n%s", res.code, res.stderr)
			}
			rep := readReport(t, js)
			found := len(rep.Bugs) > 0 && strings.Contains(rep.Bugs[0].Message, "found")
			if found != tc.found {
				t.Errorf("goal reached: %v, want %v (%d executions)\n%s", found, tc.found, rep.Executions, res.stderr)
			}
			if !slices.Equal(rep.Tags, tc.tags) {
				t.Errorf("report's tags %q, want %q", rep.Tags, tc.tags)
			}
			if said := strings.Contains(res.stderr, "building with -tags"); said != (tc.tags != nil) {
				t.Errorf("stderr says the tags: %v, want %v:\n%s", said, tc.tags != nil, res.stderr)
			}
		})
	}
}
