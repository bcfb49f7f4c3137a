package rt

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// own makes the calling goroutine the owner of the symbolic state until
// the test ends. Tests that call the runtime's operations outside an
// execution (the models' tests, benchmarks) need it: on a goroutine that
// does not own the state, every operation is concrete.
func own(t testing.TB) {
	claim()
	t.Cleanup(release)
}

// symWork is what instrumented code does with symbolic values x and s:
// arithmetic, branches, strings, a model, memory and slice lengths. It
// returns the results' shadows.
func symWork(x V[int], s V[string]) []*sym.Expr {
	var shadows []*sym.Expr
	sum := Add(Mul(x, Mk(31, nil)), Mk(7, nil))
	shadows = append(shadows, sum.S)
	if Br(0, Eq(Rem(1, sum, Mk(7, nil)), Mk(3, nil))) {
		sum = Neg(sum)
	}
	shadows = append(shadows, Shl(2, sum, Mk(3, nil)).S, Conv[uint8](sum).S, Not(Lt(x, sum)).S)
	cat := Concat(s, Mk("!", nil))
	shadows = append(shadows, cat.S, LenString(cat).S, IndexString(3, cat, Mk(0, nil)).S, EqString(cat, Mk("go!", nil)).S)
	Br(4, EqString(SliceString(5, s, Mk(0, nil), LenString(s)), Mk("x", nil)))
	ok, sh := StringsHasPrefix(strings.HasPrefix, s, Mk("g", nil))
	_ = ok
	shadows = append(shadows, sh)
	parts := StringsSplit(strings.Split, s, Mk(",", nil))
	shadows = append(shadows, LenSlice(7, parts).S, LoadString(8, &parts[0]).S)
	var cell struct{ N int }
	Store(sum, &cell.N)
	shadows = append(shadows, Load(9, &cell.N).S)
	xs := MakeSlice[[]int](Add(And(x, Mk(3, nil)), Mk(1, nil)))
	shadows = append(shadows, LenSlice(10, xs).S, LoadIndex(6, xs, And(x, Mk(0, nil))).S)
	f := ConvIF[float64](x)
	shadows = append(shadows, FAdd(f, f).S, ConvBool[bool](EqBool(Mk(true, nil), Eq(x, x))).S)
	return shadows
}

// TestOtherGoroutinesAreConcrete checks that instrumented code on a
// goroutine other than the owner's gets concrete results and leaves the
// symbolic state as it was, and that the same code on the owner's
// goroutine does not.
func TestOtherGoroutinesAreConcrete(t *testing.T) {
	own(t)
	reset(8)
	x := V[int]{C: 5, S: st.b.Var(0, intSize)}
	s := V[string]{C: "go,x", S: symStrTerm(4)}
	tests := []struct {
		name    string
		onOwner bool
	}{
		{"other goroutine", false},
		{"owner", true},
	}
	for _, tt := range tests {
		nodes, path, cells, lens := st.b.Len(), len(st.path), len(st.mem), len(st.lens)
		var shadows []*sym.Expr
		if tt.onOwner {
			shadows = symWork(x, s)
		} else {
			done := make(chan struct{})
			go func() {
				defer close(done)
				shadows = symWork(x, s)
			}()
			<-done
		}
		changed := st.b.Len() != nodes || len(st.path) != path || len(st.mem) != cells || len(st.lens) != lens
		var symbolic int
		for _, sh := range shadows {
			if sh != nil {
				symbolic++
			}
		}
		if tt.onOwner {
			if !changed || symbolic != len(shadows) {
				t.Errorf("%s: state changed %v, %d of %d results symbolic; want all tracked", tt.name, changed, symbolic, len(shadows))
			}
			continue
		}
		if changed || symbolic != 0 {
			t.Errorf("%s: state changed %v (nodes %d->%d, path %d->%d, cells %d->%d, lengths %d->%d), %d results symbolic",
				tt.name, changed, nodes, st.b.Len(), path, len(st.path), cells, len(st.mem), lens, len(st.lens), symbolic)
		}
	}
}

// symStrTerm returns a symbolic string of n bytes whose length is variable
// 100.
func symStrTerm(n int) *sym.Expr {
	bs := make([]*sym.Expr, n)
	for i := range bs {
		bs[i] = st.b.Var(uint64(101+i), 8)
	}
	return st.b.String(st.b.Var(100, 64), bs)
}

// concurrentTarget runs symWork on the owner's goroutine while workers
// goroutines do the same on the same symbolic inputs, the way a target's
// go statements or a library's goroutines run its closures.
func concurrentTarget(workers int) Entry {
	return Entry{
		Params: []Param{{Name: "x", Kind: ParamInt, Width: 64, Signed: true}, {Name: "s", Kind: ParamString}},
		Sites:  8,
		Run: func(in *Input) []any {
			x, s := InputInt[int](in, 0), InputString[string](in, 1)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					for range 50 {
						symWork(x, s)
					}
				}()
			}
			close(start)
			for range 50 {
				symWork(x, s)
			}
			wg.Wait()
			return nil
		},
	}
}

// TestConcurrentExecution runs an execution whose target does symbolic
// work on several goroutines at once: the path recorded must be the one
// the owner's goroutine alone records, and (under -race) nothing may race.
// Without the ownership check the goroutines write the builder, the path
// and the shadow maps concurrently.
func TestConcurrentExecution(t *testing.T) {
	q := &Request{Env: map[uint64]uint64{0: 12, 1: 4, 2: 'g', 3: 'o', 4: ',', 5: 'x'}, MaxLen: 8}
	paths := map[int]string{}
	for _, workers := range []int{0, 4} {
		resp := execute(concurrentTarget(workers), q, sym.NewEncoder())
		if resp.Status != StatusOK {
			t.Fatalf("%d workers: status %v: %s", workers, resp.Status, resp.Panic)
		}
		var b strings.Builder
		for _, e := range resp.Path {
			fmt.Fprintf(&b, "%d:%v ", e.Site, e.Taken)
		}
		paths[workers] = b.String()
	}
	if paths[0] == "" || paths[4] != paths[0] {
		t.Errorf("path with goroutines\n%s\ndiffers from the path without\n%s", paths[4], paths[0])
	}
}

// TestLeakedGoroutine checks that a goroutine an execution left running
// records nothing in the executions after it, and that an execution gives
// up the ownership when it ends (in a fuzz worker, the goroutine that ran
// it exits, and a new goroutine may get its descriptor).
func TestLeakedGoroutine(t *testing.T) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var iterations atomic.Int64
	leaky := Entry{
		Params: []Param{{Name: "x", Kind: ParamInt, Width: 64, Signed: true}, {Name: "s", Kind: ParamString}},
		Sites:  8,
		Run: func(in *Input) []any {
			x, s := InputInt[int](in, 0), InputString[string](in, 1)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
						symWork(x, s)
						iterations.Add(1)
					}
				}
			}()
			return nil
		},
	}
	q := &Request{Env: map[uint64]uint64{0: 12, 1: 2, 2: 'g', 3: 'o'}, MaxLen: 8}
	execute(leaky, q, sym.NewEncoder())
	if tracking() {
		t.Errorf("the goroutine that ran the execution still owns the state")
	}
	// Each of these executions lasts while the leaked goroutine does
	// some work.
	quiet := Entry{Sites: 8, Run: func(in *Input) []any {
		for n := iterations.Load(); iterations.Load() < n+3; {
			runtime.Gosched()
		}
		return nil
	}}
	for range 5 {
		if resp := execute(quiet, q, sym.NewEncoder()); len(resp.Path) != 0 || len(resp.Fresh) != 0 {
			t.Errorf("an execution without branches recorded %d branches, %d outcomes", len(resp.Path), len(resp.Fresh))
			break
		}
	}
	close(stop)
	wg.Wait()
}

// BenchmarkTracking measures the ownership check every entry point that
// may touch the symbolic state makes (tracking).
func BenchmarkTracking(b *testing.B) {
	own(b)
	n := 0
	for b.Loop() {
		if tracking() {
			n++
		}
	}
	if n == 0 {
		b.Fatal("the benchmark's goroutine does not own the state")
	}
}
