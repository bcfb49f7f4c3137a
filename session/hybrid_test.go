package session

import "testing"

func TestFuzzerDeadlineRace(t *testing.T) {
	tests := []struct {
		name string
		out  string
		want bool
	}{
		{"race at the deadline", `fuzz: elapsed: 15s, execs: 1038843 (77975/sec), new interesting: 0 (total: 15)
fuzz: elapsed: 16s, execs: 1111011 (71015/sec), new interesting: 0 (total: 15)
--- FAIL: FuzzRare (16.02s)
    context deadline exceeded
FAIL
exit status 1
FAIL	example.com/p	16.021s
`, true},
		{"a failing input", `fuzz: elapsed: 2s, execs: 5 (2/sec), new interesting: 0 (total: 1)
--- FAIL: FuzzRare (2.01s)
    --- FAIL: FuzzRare (0.00s)
        testing.go:1: context deadline exceeded

    Failing input written to testdata/fuzz/FuzzRare/5a8f
    To re-run:
    go test -run=FuzzRare/5a8f
FAIL
`, false},
		{"a panic", `--- FAIL: FuzzRare (0.30s)
    --- FAIL: FuzzRare (0.00s)
        testing.go:1503: panic: runtime error: index out of range [3] with length 3
`, false},
		{"the target's own deadline error", `--- FAIL: FuzzRare (1.00s)
    p_test.go:9: context deadline exceeded while dialling
`, false},
		{"a build failure", "# example.com/p\n./p.go:3:1: syntax error\nFAIL\texample.com/p [build failed]\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FuzzerDeadlineRace([]byte(tt.out)); got != tt.want {
				t.Errorf("FuzzerDeadlineRace = %v, want %v", got, tt.want)
			}
		})
	}
}
