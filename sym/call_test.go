package sym

import (
	"errors"
	"math"
	"strings"
	"testing"
)

type testFuncs map[uint64]func([]CallArg) (uint64, error)

func (fs testFuncs) Call(fn uint64, args []CallArg) (uint64, error) {
	f, ok := fs[fn]
	if !ok {
		return 0, errors.New("unknown")
	}
	return f(args)
}

func TestCallEval(t *testing.T) {
	b := NewBuilder()
	x := b.Var(0, 64)
	sqrt, sum := FuncID("math.Sqrt"), FuncID("p.SumBytes")
	fs := testFuncs{
		sqrt: func(a []CallArg) (uint64, error) {
			return math.Float64bits(math.Sqrt(math.Float64frombits(a[0].Bits))), nil
		},
		sum: func(a []CallArg) (uint64, error) {
			if !a[0].Agg {
				return 0, errors.New("want bytes")
			}
			n := uint64(0)
			for _, c := range a[0].Bytes {
				n += uint64(c)
			}
			return n, nil
		},
	}
	// sqrt(x) + 1.0 at x = 16 is 5.
	e := b.FBin(KFAdd, b.Call(sqrt, 64, []*Expr{x}), b.Const(math.Float64bits(1), 64))
	ev := Evaluator{Env: Env{0: math.Float64bits(16)}, Funcs: fs}
	if v, err := ev.Value(e); err != nil || math.Float64frombits(v) != 5 {
		t.Fatalf("sqrt(16)+1 = %v, %v", math.Float64frombits(v), err)
	}
	// An aggregate argument is cut to its evaluated length.
	n := b.Var(1, 64)
	agg := b.String(n, []*Expr{b.Var(2, 8), b.Var(3, 8), b.Const(100, 8)})
	ev = Evaluator{Env: Env{1: 2, 2: 1, 3: 2}, Funcs: fs}
	if v, err := ev.Value(b.Call(sum, 32, []*Expr{agg})); err != nil || v != 3 {
		t.Fatalf("sum of the first 2 bytes = %d, %v; want 3", v, err)
	}
	// Without functions, or with a failing one, there is an error.
	if _, err := (&Evaluator{Env: Env{}}).Value(e); !errors.Is(err, ErrNoFuncs) {
		t.Errorf("no funcs: err %v", err)
	}
	bad := b.Call(FuncID("nowhere"), 8, []*Expr{x})
	if _, err := (&Evaluator{Env: Env{}, Funcs: fs}).Value(bad); err == nil {
		t.Error("unknown function evaluated")
	}
	defer func() {
		if recover() == nil {
			t.Error("Eval of a call did not panic")
		}
	}()
	Eval(e, Env{})
}

func TestCallShapes(t *testing.T) {
	b := NewBuilder()
	x, y := b.Var(0, 64), b.Var(1, 32)
	id := FuncID("math.Pow")
	c1, c2 := b.Call(id, 64, []*Expr{x, y}), b.Call(id, 64, []*Expr{x, y})
	if c1 != c2 {
		t.Error("equal short calls are not shared")
	}
	if !HasCall(b.Eq(b.Add(c1, x), x)) || HasCall(b.Eq(x, x), b.Add(x, x)) {
		t.Error("HasCall is wrong")
	}
	if s := c1.String(); !strings.HasPrefix(s, "call#") || !strings.Contains(s, "v0:64, v1:32") {
		t.Errorf("printed %q", s)
	}
	if FuncID("math.Sin") == FuncID("math.Cos") {
		t.Error("ids collide")
	}
	// Long calls and aggregates survive the wire.
	args := []*Expr{x, y, b.Const(1, 8), b.String(x, []*Expr{b.Var(2, 8)})}
	long := b.Call(id, 0, args)
	enc := NewEncoder()
	r := enc.Encode(long)
	b2 := NewBuilder()
	d := NewDecoder(b2)
	if err := d.Decode(enc.Bytes()); err != nil {
		t.Fatal(err)
	}
	got, err := d.Node(r)
	if err != nil || got.Kind != KCall || got.Val != id || got.Width != 0 || len(got.Args) != 4 || got.Args[3].Kind != KString {
		t.Fatalf("decoded %v, %v", got, err)
	}
	if got.String() != long.String() {
		t.Errorf("decoded %s, want %s", got, long)
	}
}
