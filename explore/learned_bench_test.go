package explore

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

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

// BenchmarkLearnedSearch measures a whole simulated search of 1000
// events (learned_sim_test.go: an interpreter's loop, paths of about 60
// to 600 branches, a static graph whose dominators are map lookups as
// cfa's were) with the learned strategy and the straightforward scoring
// it replaced (reference), side by side. ns/event includes the tree's and
// the simulation's work, which is the same for both; cpu-ns/event is the
// process's CPU time, which a shared machine disturbs less than the wall
// clock; strategy-ns/event is the wall time spent in Update and Next.
// The pool variants bound the tree's depth to 20 and run behind Backoff,
// as the coordinator does: paths run out of open candidates, and most
// choices are among the whole pool; their weights favour the features
// that move with every selection (the depth of the last one, the
// directions handed out lately), as weights tried by gocolic learn on
// ledger did, so that candidates all over the pool compete.
func BenchmarkLearnedSearch(b *testing.B) {
	theta := simTheta(3, false)
	for _, name := range []string{"learned", "reference", "learned-pool", "reference-pool"} {
		pool := strings.HasSuffix(name, "-pool")
		b.Run(name, func(b *testing.B) {
			const events = 1000
			cpu0 := cpuTime()
			var inside time.Duration
			for b.Loop() {
				in := LearnedInput{Sites: simTable(), Props: simProps(), Static: newSimGraph(), Seed: 1}
				var s Strategy
				th := theta
				if pool {
					th = slices.Clone(theta)
					for _, i := range []int{FAfterLast, FNearLast, FRecent10, FRecent30} {
						th[i] = 7.5
					}
				}
				if strings.HasPrefix(name, "learned") {
					s, _ = NewLearned(th, in)
				} else {
					s, _ = newRefLearned(th, in)
				}
				if pool {
					s = NewBackoff(s, DefaultBackoff())
				}
				tm := &timed{Strategy: s}
				w := newSimWorld(tm, 30)
				if pool {
					w.tr = NewTree(w.b, Options{MaxDepth: 20})
				}
				w.run(simTokens(nil, w.b, rand.New(rand.NewPCG(0, 3)), 30), nil)
				for range events {
					w.stepOnce()
				}
				inside += tm.spent
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events), "ns/event")
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N*events), "cpu-ns/event")
			b.ReportMetric(float64(inside.Nanoseconds())/float64(b.N*events), "strategy-ns/event")
		})
	}
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// timed is a Strategy that adds up the time spent in Update and Next.
type timed struct {
	Strategy
	spent time.Duration
}

func (t *timed) Update(fb Feedback) {
	t0 := time.Now()
	t.Strategy.Update(fb)
	t.spent += time.Since(t0)
}

func (t *timed) Next() (*Candidate, bool) {
	t0 := time.Now()
	defer func() { t.spent += time.Since(t0) }()
	return t.Strategy.Next()
}
