package session

import (
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestStdCandidate checks which standard packages may be instrumented in
// place: above the runtime's floor, not skipped, without assembly or cgo.
func TestStdCandidate(t *testing.T) {
	for _, tc := range []struct {
		pkg  *packages.Package
		want bool
	}{
		{&packages.Package{PkgPath: "strings"}, true},
		{&packages.Package{PkgPath: "encoding/hex"}, true},
		{&packages.Package{PkgPath: "strconv"}, false},          // floor
		{&packages.Package{PkgPath: "internal/bytealg"}, false}, // floor
		{&packages.Package{PkgPath: "testing"}, false},          // skipped
		{&packages.Package{PkgPath: "crypto/sha256"}, false},    // skipped
		{&packages.Package{PkgPath: "math/big", OtherFiles: []string{"arith_amd64.s"}}, false},
		{&packages.Package{PkgPath: "net/url", GoFiles: []string{"a.go", "c.go"}, CompiledGoFiles: []string{"a.go"}}, false}, // cgo
	} {
		if got := stdCandidate(tc.pkg); got != tc.want {
			t.Errorf("stdCandidate(%s) = %v, want %v", tc.pkg.PkgPath, got, tc.want)
		}
	}
}
