package mc

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

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

// BenchmarkMonitorsPrune replays Loop's trace on a one-byte input (three
// calls of at, the last two past the end) through the monitors of
// testdata/calls, with at judged in Loop's context and without (its
// function marked as one the caller's graph may not judge): the cost of
// following calls in the product, per execution.
func BenchmarkMonitorsPrune(b *testing.B) {
	p := loadCalls(b)
	_, sum, err := Prove(context.Background(), p.g, p.table, time.Minute, 5*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	loop, at := p.entrySite(b, "Loop"), p.entrySite(b, "at")
	lt3 := func(v bool) Goal { return p.goal(b, "Loop", "i < 3", v) }
	eq7 := p.goal(b, "Loop", "at(in, i) == 7", false)
	atLt := func(v bool) Goal { return p.goal(b, "at", "i < len(in)", v) }
	tr := (&traced{}).enter(loop)
	for i := 0; i < 3; i++ {
		tr.out(lt3(true), false).enter(at).out(atLt(i < 1), true).leave(at).out(eq7, true)
	}
	tr.out(lt3(false), false).leave(loop)
	for _, judged := range []bool{true, false} {
		name := "in context"
		if !judged {
			name = "own monitors only"
		}
		b.Run(name, func(b *testing.B) {
			ms := NewMonitors(p.g, p.table, sum.Graphs)
			if !judged {
				ms.inCtx[p.fns["at"]] = false
			}
			for b.Loop() {
				ms.Prune(tr.outs, false, tr.path)
			}
		})
	}
}

// BenchmarkProveLocal tries the straight-code proof on every goal of the
// 40-transition net nsichneu2 (bench/abstraction/corpus), 322 goals, one
// encoder and one Z3 solver for all, as ProveUncovered does; it reports
// the goals proved.
func BenchmarkProveLocal(b *testing.B) {
	_, file, _, _ := runtime.Caller(0)
	p := loadPkg(b, filepath.Join(filepath.Dir(filepath.Dir(file)), "bench", "abstraction", "corpus", "nsichneu2"))
	fn := p.fns["Run"]
	var goals []Goal
	for _, id := range p.g.Mapped() {
		if br := p.g.Branch(id); br.Func == fn && !br.Joined && !br.Point && !br.Check {
			goals = append(goals, Goal{id, true}, Goal{id, false})
		}
	}
	slv, err := z3.New(z3.Options{Timeout: 200 * time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	defer slv.Close()
	proved := 0
	for b.Loop() {
		enc := NewEncoder(sym.NewBuilder(), fn)
		proved = 0
		for _, gl := range goals {
			ok, err := ProveLocal(context.Background(), p.g, enc, slv, gl)
			if err != nil {
				b.Fatal(err)
			}
			if ok {
				proved++
			}
		}
	}
	b.ReportMetric(float64(proved), "proved")
	b.ReportMetric(float64(len(goals)), "goals")
}
