package explore

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/sym"
)

// benchPaths returns n random paths of 40 branches over 200 sites.
func benchPaths(n int) []string {
	r := rand.New(rand.NewPCG(1, 1))
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for range 40 {
			side := "f"
			if r.IntN(2) == 0 {
				side = "t"
			}
			fmt.Fprintf(&b, "%d%s ", 1+r.IntN(200), side)
		}
		out[i] = b.String()
	}
	return out
}

// BenchmarkStrategyNext measures a strategy's Update and Next over a run
// of 2000 executions, as the coordinator calls them.
func BenchmarkStrategyNext(b *testing.B) {
	paths := benchPaths(2000)
	var table []sites.Site
	for id := uint32(1); id <= 200; id++ {
		table = append(table, sites.Site{ID: id, Kind: sites.Cond, Func: fmt.Sprint("f", id/20)})
	}
	for _, name := range []string{"cover", "learned"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				var s Strategy
				if name == "learned" {
					theta := make([]float64, NumFeatures)
					for i := range theta {
						theta[i] = float64(i%7) - 3
					}
					s, _ = NewLearned(theta, LearnedInput{Sites: table})
				} else {
					s, _ = New(name, Config{Seed: 1})
				}
				bld := sym.NewBuilder()
				tr := NewTree(bld, Options{})
				for _, p := range paths {
					br := path(bld, p)
					fb := Feedback{Event: Ran, Outcome: tr.Record(br, sym.Env{}, nil), Fresh: sites.Coverage{}}
					for _, x := range br {
						fb.Hits = append(fb.Hits, Hit{Site: x.Site, Side: x.Taken, Count: 1})
						fb.Fresh.Add(x.Site, x.Taken)
					}
					s.Update(fb)
					s.Next()
				}
			}
		})
	}
}
