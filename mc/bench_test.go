package mc

import (
	"context"
	"testing"

	"github.com/gocolic/gocolic/solver/z3"
	"github.com/gocolic/gocolic/sym"
)

// BenchmarkCheck runs Algorithm 2 on functions of testdata/abs towards
// both outcomes of their last condition, one Z3 solver for all runs.
func BenchmarkCheck(b *testing.B) {
	p := loadAbs(b)
	for _, tc := range []struct {
		fn, text string
		opts     Options
	}{
		{"Flagged", "x < 3", Options{}},
		{"Counted", "s != 3", Options{}},
		{"LoopFlag", "ok", Options{}},
		{"SimpleWhile", "b", Options{MaxRefinements: 3}},
	} {
		b.Run(tc.fn, func(b *testing.B) {
			slv, err := z3.New(z3.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer slv.Close()
			goals := []Goal{p.goal(b, tc.fn, tc.text, true), p.goal(b, tc.fn, tc.text, false)}
			for b.Loop() {
				enc := NewEncoder(sym.NewBuilder(), p.fns[tc.fn])
				if _, err := Check(context.Background(), p.g, enc, slv, goals, tc.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
