package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
)

// WeightsFormat names the weight files of the learned strategy; the
// version changes when the meaning of a feature does.
const (
	WeightsFormat  = "gocolic-heuristic"
	WeightsVersion = 1
)

// Weights is a weight file of the learned strategy (-heuristic FILE), as
// gocolic learn writes it: the weights, one per feature, with the
// features' names in order, so that a file from another feature set is
// told apart, and how they were learned.
type Weights struct {
	Format   string    `json:"format"`
	Version  int       `json:"version"`
	Features []string  `json:"features"`
	Weights  []float64 `json:"weights"`
	Learned  Learning  `json:"learned"`
}

// Learning records how a weight vector was learned.
type Learning struct {
	Package string `json:"package"`
	Func    string `json:"func"`
	// Runs is the execution budget of each sample run.
	Runs int   `json:"runs"`
	Seed int64 `json:"seed"`
	// Samples, Top, Checks and Rounds are the learner's sizes: weight
	// vectors sampled per round, kept for the check, seeds per check,
	// rounds run.
	Samples int `json:"samples"`
	Top     int `json:"top"`
	Checks  int `json:"checks"`
	Rounds  int `json:"rounds"`
	// Method is how the weights were learned: refine or random.
	Method string `json:"method,omitempty"`
	// Score is the average number of branch outcomes the weights covered
	// in the check; of a Partial learning that stopped before its first
	// check, what they covered in their one run.
	Score float64 `json:"score"`
	// Executions and Seconds are the learning's cost.
	Executions int     `json:"executions"`
	Seconds    float64 `json:"seconds"`
	// Partial says the learning stopped at its time budget: the weights
	// are the best found by then.
	Partial bool `json:"partial,omitempty"`
}

// NewWeights returns a weight file of theta, of this feature set.
func NewWeights(theta []float64, l Learning) *Weights {
	return &Weights{Format: WeightsFormat, Version: WeightsVersion, Features: FeatureNames(), Weights: slices.Clone(theta), Learned: l}
}

// Check reports whether w is a weight file this gocolic reads: its
// format, version and feature set, and finite weights.
func (w *Weights) Check() error {
	if w.Format != WeightsFormat {
		return fmt.Errorf("not a gocolic weight file (format %q, want %q)", w.Format, WeightsFormat)
	}
	if w.Version != WeightsVersion {
		return fmt.Errorf("weight file format version %d, this gocolic reads version %d (learn the weights again)", w.Version, WeightsVersion)
	}
	names := FeatureNames()
	if !slices.Equal(w.Features, names) {
		for i := range max(len(w.Features), len(names)) {
			if i >= len(w.Features) || i >= len(names) || w.Features[i] != names[i] {
				return fmt.Errorf("weight file of another feature set (%d features, this gocolic has %d; the first difference is feature %d; learn the weights again)", len(w.Features), len(names), i+1)
			}
		}
	}
	if len(w.Weights) != len(names) {
		return fmt.Errorf("weight file has %d weights for %d features", len(w.Weights), len(names))
	}
	for i, x := range w.Weights {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("weight %d (%s) is not a finite number", i+1, names[i])
		}
	}
	return nil
}

// DecodeWeights reads a weight file and checks it.
func DecodeWeights(data []byte) (*Weights, error) {
	var w Weights
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("not a gocolic weight file: %w", err)
	}
	if err := w.Check(); err != nil {
		return nil, err
	}
	return &w, nil
}

// ReadWeights reads the weight file at path; its error is one line that
// names the file.
func ReadWeights(path string) (*Weights, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-heuristic: %w", err)
	}
	w, err := DecodeWeights(data)
	if err != nil {
		return nil, fmt.Errorf("-heuristic %s: %w", path, err)
	}
	return w, nil
}

// Encode returns the weight file's JSON.
func (w *Weights) Encode() ([]byte, error) {
	data, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding weights: %w", err)
	}
	return append(data, '\n'), nil
}

// Write writes the weight file to path.
func (w *Weights) Write(path string) error {
	data, err := w.Encode()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("writing weights: %w", err)
	}
	return nil
}
