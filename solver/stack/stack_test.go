package stack

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		in   Options
		want Options
		err  string
	}{
		{in: Options{}, want: DefaultOptions()},
		{in: Options{Mode: ModeZ3, Timeout: time.Second}, want: Options{Mode: ModeZ3, Timeout: time.Second, Memory: DefaultOptions().Memory, Walk: DefaultOptions().Walk}},
		{in: Options{Mode: ModeZ3, Memory: 64}, want: Options{Mode: ModeZ3, Timeout: DefaultOptions().Timeout, Memory: 64, Walk: DefaultOptions().Walk}},
		{in: Options{Memory: -1}, err: "-solver-memory"},
		{in: Options{Mode: "cvc5"}, err: "cvc5"},
	}
	for _, tt := range tests {
		o := tt.in
		err := o.Validate()
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%+v: error %v, want one containing %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || o != tt.want {
			t.Errorf("%+v: got %+v, %v; want %+v", tt.in, o, err, tt.want)
		}
	}
}

// TestBound checks the longest query of each mode: the one timeout of Z3
// or of the walk, and in auto Z3's then the walk's.
func TestBound(t *testing.T) {
	tests := []struct {
		mode string
		walk time.Duration // the walk's own timeout; 0: the stack's
		want time.Duration
	}{
		{mode: ModeZ3, want: 2 * time.Second},
		{mode: ModeZ3, walk: time.Second, want: 2 * time.Second},
		{mode: ModeWalk, want: 2 * time.Second},
		{mode: ModeWalk, walk: time.Second, want: time.Second},
		{mode: ModeAuto, want: 4 * time.Second},
		{mode: ModeAuto, walk: time.Second, want: 3 * time.Second},
	}
	for _, tt := range tests {
		o := Options{Mode: tt.mode, Timeout: 2 * time.Second}
		o.Walk.Timeout = tt.walk
		if err := o.Validate(); err != nil {
			t.Fatal(err)
		}
		if got := o.Bound(); got != tt.want {
			t.Errorf("%s, walk timeout %v: bound %v, want %v", tt.mode, tt.walk, got, tt.want)
		}
	}
}

// TestNew checks that every mode builds a stack that solves a query and
// names its core, and that only z3 keeps calls concrete.
func TestNew(t *testing.T) {
	tests := []struct {
		mode   string
		opaque bool
		cores  string // the Names of the layers behind the chain's
	}{
		{ModeZ3, false, "z3"},
		{ModeWalk, true, "walk z3"},
		{ModeAuto, true, "auto z3 walk"},
	}
	for _, tt := range tests {
		o := Options{Mode: tt.mode}
		if err := o.Validate(); err != nil {
			t.Fatal(err)
		}
		if o.Opaque() != tt.opaque {
			t.Errorf("%s: Opaque %v, want %v", tt.mode, o.Opaque(), tt.opaque)
		}
		s, err := New(o, Env{Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", tt.mode, err)
		}
		b := sym.NewBuilder()
		x := b.Var(0, 8)
		q := solver.Query{Goal: b.Eq(x, b.Const(42, 8))}
		res, err := s.Solve(context.Background(), q)
		if err != nil || res.Status != solver.Sat || res.Model[0] != 42 {
			t.Errorf("%s: x == 42 gave %+v, %v", tt.mode, res, err)
		}
		var names []string
		for _, l := range solver.Layers(s.Solver) {
			names = append(names, l.Name())
		}
		// The chain's own layers come first: fastunsat, independence,
		// cache, domain, seedfix.
		if got := strings.Join(names[5:], " "); got != tt.cores {
			t.Errorf("%s: layers %v, want %q behind the chain", tt.mode, names, tt.cores)
		}
		s.Close()
	}
}
