// Command worker is a tiny gocolic worker used by the coordinator's tests. Its
// target takes one int64 x and, by x, returns, panics, exits, dies of a
// fatal runtime error, hangs, exhausts memory or panics in another
// goroutine; the modes are listed in ../../worker_test.go.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/gocolic/gocolic/rt"
)

// branchSites is the number of symbolic branch sites of the target.
const branchSites = 64

// sink keeps allocations reachable so that they stay resident.
var sink [][]byte

// defined counts the executions of the stateful mode in this process:
// package-level state, as a global flag set is, which makes the mode
// fail only after an earlier execution.
var defined int

//go:noinline
func recurse(n int) int {
	var pad [64]byte
	pad[n%64] = byte(n)
	return recurse(n+1) + int(pad[0])
}

// park blocks forever n calls deep.
//
//go:noinline
func park(n int, ready *sync.WaitGroup) int {
	if n == 0 {
		ready.Done()
		select {}
	}
	return park(n-1, ready) + 1
}

func panicElsewhere() {
	panic("boom in goroutine")
}

// hang blocks forever. A sleeping goroutine keeps the runtime from
// reporting a deadlock, which a bare select {} would be.
func hang() {
	for {
		time.Sleep(time.Hour)
	}
}

func target(x rt.V[int64]) int64 {
	switch x.C {
	case 0:
		return 0
	case 1:
		panic("boom")
	case 2:
		os.Exit(3)
	case 3:
		// A small stack limit makes the overflow quick and cheap.
		debug.SetMaxStack(1 << 20)
		return int64(recurse(0))
	case 4:
		hang()
	case 5:
		// Grow by 1 MiB a millisecond, touching every page, up to 2 GiB;
		// then hang, so that a missing memory limit shows as a timeout.
		for len(sink) < 2048 {
			b := make([]byte, 1<<20)
			for i := range b {
				b[i] = 1
			}
			sink = append(sink, b)
			time.Sleep(time.Millisecond)
		}
		hang()
	case 6:
		go func() { panic("boom in goroutine") }()
		hang()
	case 7:
		// A fatal error while many goroutines are alive: the runtime
		// prints all of them after the "fatal error:" line.
		var ready sync.WaitGroup
		ready.Add(100)
		for range 100 {
			go park(8, &ready)
		}
		ready.Wait()
		debug.SetMaxStack(1 << 20)
		return int64(recurse(0))
	case 8:
		// The panic of case 6, from another place.
		go panicElsewhere()
		hang()
	case 9:
		// A fault of gocolic's runtime under tracking only: x's 64-bit
		// term given as an int32's shadow makes the term builder panic
		// on the widths; without tracking x has no term and nothing
		// happens.
		return int64(rt.Add(rt.Mk[int32](1, x.S), rt.Mk[int32](1, nil)).C)
	}
	if x.C >= 10 && x.C < 20 {
		panic(fmt.Sprintf("bad value %d", x.C))
	}
	if x.C >= 20 && x.C < 30 {
		// The stateful mode: the first execution of it in a process
		// returns, every later one panics, with a message naming x by a
		// letter, so that each x is a finding of its own, all at one
		// line; 29 exits instead.
		defined++
		switch {
		case defined > 1 && x.C == 29:
			os.Exit(5) // a crash that depends on the earlier executions
		case defined > 1:
			panic(fmt.Sprintf("redefined: %c", 'a'+byte(x.C-20)))
		}
		return 0
	}
	if x.C == 30 || x.C == 31 {
		// Slow only with tracking (x has a term): 30 by 1 s, which a
		// second try within ten times the tests' 500 ms limit allows, 31
		// by 6 s, which it does not; then one symbolic branch, so that
		// the tracked run leaves a path.
		switch {
		case x.S != nil && x.C == 30:
			time.Sleep(time.Second)
		case x.S != nil:
			time.Sleep(6 * time.Second)
		}
		if rt.Br(0, rt.Eq(x, rt.Mk[int64](77, nil))) {
			return 1
		}
		return 0
	}
	// Any other value: 64 symbolic branches x == 1000+i, all of them
	// open targets for the explorer. Halfway, x is handed to a call that
	// takes no shadow: a concretisation event after the first
	// concretiseAfter branches.
	hits := int64(0)
	for i := range branchSites {
		if i == concretiseAfter {
			rt.Concrete(branchSites, rt.CauseCall, x)
		}
		if rt.Br(uint32(i), rt.Eq(x, rt.Mk[int64](1000+int64(i), nil))) {
			hits++
		}
	}
	return hits
}

// concretiseAfter is the number of branches before the concretisation of
// the branches mode.
const concretiseAfter = 32

// twice is the function of the evaluator tests (evaluator_test.go): 2x,
// except that -1 hangs, -2 exits and -3 panics.
func twice(x int64) int64 {
	switch x {
	case -1:
		hang()
	case -2:
		os.Exit(4)
	case -3:
		panic("three")
	}
	return 2 * x
}

// The text target, chosen by the argument "text", takes one string s:
// site 0 is len(s) >= 3 and, when it holds, site 1 is s[0]+s[1]+s[2] ==
// 300 (sites 2 to 4 are the bounds checks of the three loads). It returns
// 0, 1 when the sum holds and 2 when not. No plain byte replaced alone
// keeps a sum of 300: only the solver makes such an input readable.
func text(s rt.V[string]) int {
	if !rt.Br(0, rt.Ge(rt.LenString(s), rt.Mk(3, nil))) {
		return 0
	}
	sum := rt.Mk(0, nil)
	for i := range 3 {
		sum = rt.Add(sum, rt.Conv[int](rt.IndexString(uint32(2+i), s, rt.Mk(i, nil))))
	}
	if rt.Br(1, rt.Eq(sum, rt.Mk(300, nil))) {
		return 1
	}
	return 2
}

// textSites is the number of branch sites of the text target.
const textSites = 5

func main() {
	rt.Func1("test.twice", twice)
	if len(os.Args) > 1 && os.Args[1] == "text" {
		rt.Main(rt.Entry{
			Params: []rt.Param{{Name: "s", Kind: rt.ParamString}},
			Sites:  textSites,
			Run: func(in *rt.Input) []any {
				return []any{text(rt.InputString[string](in, 0))}
			},
		})
	}
	rt.Main(rt.Entry{
		Params: []rt.Param{{Name: "x", Kind: rt.ParamInt, Width: 64, Signed: true}},
		Sites:  branchSites,
		Run: func(in *rt.Input) []any {
			return []any{target(rt.InputInt[int64](in, 0))}
		},
	})
	fmt.Fprintln(os.Stderr, "not started as a gocolic worker")
	os.Exit(2)
}
