package explore

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWeightsRoundTrip(t *testing.T) {
	theta := make([]float64, NumFeatures)
	for i := range theta {
		theta[i] = float64(i)/4 - 5
	}
	l := Learning{Package: "example.com/p", Func: "Parse", Runs: 4000, Seed: 3, Samples: 8, Top: 2, Checks: 2, Rounds: 1, Score: 41.5, Executions: 123, Seconds: 9.5, Partial: true}
	path := filepath.Join(t.TempDir(), "h.json")
	if err := NewWeights(theta, l).Write(path); err != nil {
		t.Fatal(err)
	}
	w, err := ReadWeights(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(w.Weights, theta) || w.Learned != l || !slices.Equal(w.Features, FeatureNames()) {
		t.Errorf("read back %+v", w)
	}
}

// TestWeightsErrors checks that a bad weight file gives one line that
// says what is wrong.
func TestWeightsErrors(t *testing.T) {
	good, err := NewWeights(make([]float64, NumFeatures), Learning{}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(from, to string) string { return strings.Replace(string(good), from, to, 1) }
	tests := []struct {
		name, data, want string
	}{
		{"corrupt", string(good[:len(good)/2]), "not a gocolic weight file"},
		{"not json", "0.5\n1.5\n", "not a gocolic weight file"},
		{"other format", edit(`"gocolic-heuristic"`, `"paradyse"`), `format "paradyse"`},
		{"other version", edit(`"version": 1`, `"version": 2`), "format version 2, this gocolic reads version 1"},
		{"other feature set", edit(`"nested"`, `"nesting"`), "another feature set (40 features, this gocolic has 40; the first difference is feature 4"},
		{"fewer features", edit(",\n    \"latest-func\"", ""), "another feature set (39 features"},
		{"fewer weights", edit(`0,`, ``), "39 weights for 40 features"},
		{"unknown field", edit(`"format"`, `"extra": 1, "format"`), "unknown field"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		path := filepath.Join(dir, "h.json")
		if err := os.WriteFile(path, []byte(tt.data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadWeights(path)
		if err == nil {
			t.Errorf("%s: read without error", tt.name)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "-heuristic "+path+": ") {
			t.Errorf("%s: error %q, want one line naming the file and saying %q", tt.name, msg, tt.want)
		}
	}
	if _, err := ReadWeights(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
}
