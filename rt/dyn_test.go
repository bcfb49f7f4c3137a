package rt

import (
	"testing"

	"github.com/gocolic/gocolic/sym"
)

func dynDouble(x int) int { return 2 * x }

func dynDoubleTwin(x V[int]) (int, *sym.Expr) { return 2 * x.C, x.S }

func dynTriple(x int) int { return 3 * x }

type dynAdder struct{ k int }

func (a dynAdder) add(x int) int { return x + a.k }

// TestDyn checks which function a call through a function value runs: a
// registered function's twin, on the tracking goroutine only; the
// adapter for anything else (a function without a registered twin, a
// closure, a method value, nil), and for a registered function whose
// twin has another type than the call site expects.
func TestDyn(t *testing.T) {
	RegisterTwin(dynDouble, dynDoubleTwin)
	type twin = func(V[int]) (int, *sym.Expr)
	adapt := func(f func(int) int) twin {
		return func(x V[int]) (int, *sym.Expr) { return f(x.C), nil }
	}
	k := 7
	closure := func(x int) int { return x + k }
	tests := []struct {
		name   string
		f      func(int) int
		track  bool
		wantC  int
		shadow bool // the twin ran: the argument's shadow comes back
	}{
		{"registered", dynDouble, true, 10, true},
		{"registered, not tracking", dynDouble, false, 10, false},
		{"not registered", dynTriple, true, 15, false},
		{"closure", closure, true, 12, false},
		{"method value", dynAdder{k: 1}.add, true, 6, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.track {
				own(t)
			}
			x := V[int]{C: 5, S: sym.NewBuilder().Var(0, 64)}
			c, s := Dyn(tt.f, adapt)(x)
			if c != tt.wantC || (s != nil) != tt.shadow {
				t.Errorf("got %d with shadow %v, want %d with shadow %v", c, s != nil, tt.wantC, tt.shadow)
			}
		})
	}
	t.Run("twin of another type", func(t *testing.T) {
		own(t)
		other := func(f func(int) int) func(V[int]) int {
			return func(x V[int]) int { return f(x.C) }
		}
		if got := Dyn(dynDouble, other)(V[int]{C: 4}); got != 8 {
			t.Errorf("got %d, want 8 from the adapter", got)
		}
	})
	t.Run("nil", func(t *testing.T) {
		own(t)
		var f func(int) int
		defer func() {
			if recover() == nil {
				t.Error("calling a nil function value did not panic")
			}
		}()
		Dyn(f, adapt)(V[int]{C: 1})
	})
}

// TestClosureTwins checks that a call through a function value made from
// a literal by Closure reaches that instance's twin: each instance its
// own (their captured variables differ), on the tracking goroutine only,
// and only within the execution that made it; a plain closure still
// takes the adapter.
func TestClosureTwins(t *testing.T) {
	type twin = func(V[int]) (int, *sym.Expr)
	adapt := func(f func(int) int) twin {
		return func(x V[int]) (int, *sym.Expr) { return f(x.C), nil }
	}
	// lit is what the rewrite emits for func(x int) int { return x + k }.
	lit := func(k int) func(int) int {
		return Closure(func(x V[int]) (int, *sym.Expr) { return x.C + k, x.S },
			func(f twin) func(int) int {
				return func(x int) int { r, _ := f(V[int]{C: x}); return r }
			})
	}
	own(t)
	reset(0)
	x := V[int]{C: 5, S: st.b.Var(0, 64)}
	one, two := lit(1), lit(2)
	for _, tt := range []struct {
		name  string
		f     func(int) int
		wantC int
	}{{"first instance", one, 6}, {"second instance", two, 7}} {
		c, s := Dyn(tt.f, adapt)(x)
		if c != tt.wantC || s != x.S {
			t.Errorf("%s: got %d with shadow %v, want %d with %v", tt.name, c, s, tt.wantC, x.S)
		}
	}
	if c := one(5); c != 6 {
		t.Errorf("the wrapper called directly gives %d, want 6", c)
	}
	k := 3
	if _, s := Dyn(func(x int) int { return x + k }, adapt)(x); s != nil {
		t.Errorf("a closure not made by Closure reached a twin")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, s := Dyn(two, adapt)(x); s != nil {
			t.Errorf("a goroutine that does not track reached a twin")
		}
	}()
	<-done
	reset(0)
	if _, s := Dyn(one, adapt)(x); s != nil {
		t.Errorf("a closure of the previous execution reached its twin")
	}
}
