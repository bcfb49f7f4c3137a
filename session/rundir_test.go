package session

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPanicked(t *testing.T) {
	tests := []struct {
		name, out, want string
	}{
		{"panic after a failing entry", "--- FAIL: FuzzT (0.00s)\n    --- FAIL: FuzzT/seed#1 (0.00s)\n    --- FAIL: FuzzT/0a1b2c3d4e5f6789 (0.00s)\npanic: boom [recovered]\n", "0a1b2c3d4e5f6789"},
		{"failures without a panic", "--- FAIL: FuzzT (0.00s)\n    --- FAIL: FuzzT/x (0.00s)\n        p_test.go:9: bad\nFAIL\n", ""},
		{"another target's subtest", "    --- FAIL: FuzzU/x (0.00s)\npanic: boom\n", ""},
		{"clean run", "ok  \texample.com/m/p\t0.004s\n", ""},
		{"entry running at go test's timeout", "=== RUN   FuzzT/0a1b\npanic: test timed out after 2m0s\n\trunning tests:\n\t\tFuzzT/0b593286bc9994b2 (1m59s)\n\ngoroutine 1 [running]:\n", "0b593286bc9994b2"},
		{"timeout with no entry running", "panic: test timed out after 2m0s\n\trunning tests:\n\t\tFuzzT (1m59s)\n", ""},
	}
	for _, tt := range tests {
		if got := panicked(tt.out, "FuzzT"); got != tt.want {
			t.Errorf("%s: panicked = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestHoldFailures checks that a failure the fuzzer writes is moved aside,
// that the same failure found again (same name, as go test names files by
// content) counts as moved too, that files present before the run stay,
// and that restore puts the held file back.
func TestHoldFailures(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "testdata", "fuzz", "FuzzT")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(data, name), []byte("go test fuzz v1\nint(1)\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("old")
	h := &hybrid{t: &Entry{Func: "FuzzT", PkgDir: dir}, dataDir: data,
		holdDir: filepath.Join(dir, "testdata", "fuzz", ".FuzzT.gocolic-held"),
		known:   map[string]bool{}, initial: map[string]bool{filepath.Join(data, "old"): true}, held: map[string]string{}}
	write("crash1")
	if n := h.holdFailures(); n != 1 {
		t.Fatalf("first failure: %d held, want 1", n)
	}
	write("crash1")
	if n := h.holdFailures(); n != 1 {
		t.Fatalf("same failure again: %d held, want 1", n)
	}
	if _, err := os.Stat(filepath.Join(data, "crash1")); !os.IsNotExist(err) {
		t.Errorf("the failure is still in testdata (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(data, "old")); err != nil {
		t.Errorf("a file from before the run was moved: %v", err)
	}
	if err := h.restore(false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(data, "crash1")); err != nil {
		t.Errorf("restore did not put the failure back: %v", err)
	}
	if _, err := os.Stat(h.holdDir); !os.IsNotExist(err) {
		t.Errorf("the holding directory is left behind (%v)", err)
	}
}
