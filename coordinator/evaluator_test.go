package coordinator

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// TestEvaluator evaluates opaque calls in the test worker's evaluator
// process: values come back per point, a panicking call leaves its point
// without values, and a call that hangs or exits kills the process,
// which the next request starts again.
func TestEvaluator(t *testing.T) {
	ev := NewEvaluator(workerBin(t), nil, "", 500*time.Millisecond)
	defer ev.Close()
	b := sym.NewBuilder()
	x := b.Var(0, 64)
	twice := b.Call(sym.FuncID("test.twice"), 64, []*sym.Expr{x})
	terms := []*sym.Expr{b.Add(twice, b.Const(1, 64)), x}
	ctx := context.Background()

	out, err := ev.Eval(ctx, terms, []sym.Env{input(5), input(-3), input(7)})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 || len(out[0]) != 2 || out[0][0] != 11 || out[0][1] != 5 || out[1] != nil || out[2][0] != 15 {
		t.Fatalf("values %v, want [[11 5] [] [15 7]]", out)
	}
	for _, bad := range []int64{-1, -2} {
		_, err := ev.Eval(ctx, terms, []sym.Env{input(1), input(bad)})
		if !errors.Is(err, ErrEvaluatorCrashed) {
			t.Fatalf("x=%d: err %v, want a crash", bad, err)
		}
		out, err := ev.Eval(ctx, terms, []sym.Env{input(21)})
		if err != nil || out[0][0] != 43 {
			t.Fatalf("after the crash of x=%d: %v %v", bad, out, err)
		}
	}
	if n := ev.Crashes(); n != 2 {
		t.Errorf("%d crashes counted, want 2", n)
	}
	unknown := b.Call(sym.FuncID("test.nowhere"), 64, []*sym.Expr{x})
	out, err = ev.Eval(ctx, []*sym.Expr{unknown}, []sym.Env{input(1)})
	if err != nil || out[0] != nil {
		t.Errorf("a function the binary lacks: %v %v, want no value", out, err)
	}
}
