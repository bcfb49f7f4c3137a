package session

import "testing"

func TestPanicked(t *testing.T) {
	tests := []struct {
		name, out, want string
	}{
		{"panic after a failing entry", "--- FAIL: FuzzT (0.00s)\n    --- FAIL: FuzzT/seed#1 (0.00s)\n    --- FAIL: FuzzT/0a1b2c3d4e5f6789 (0.00s)\npanic: boom [recovered]\n", "0a1b2c3d4e5f6789"},
		{"failures without a panic", "--- FAIL: FuzzT (0.00s)\n    --- FAIL: FuzzT/x (0.00s)\n        p_test.go:9: bad\nFAIL\n", ""},
		{"another target's subtest", "    --- FAIL: FuzzU/x (0.00s)\npanic: boom\n", ""},
		{"clean run", "ok  \texample.com/m/p\t0.004s\n", ""},
	}
	for _, tt := range tests {
		if got := panicked(tt.out, "FuzzT"); got != tt.want {
			t.Errorf("%s: panicked = %q, want %q", tt.name, got, tt.want)
		}
	}
}
