package rt

import (
	"sync"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// TestMakeSliceCap checks make(S, n, c) for a slice other than a byte
// slice: a symbolic length and a symbolic capacity keep their terms, and
// a slice without a backing array to key them by counts the drop.
func TestMakeSliceCap(t *testing.T) {
	n := func(c int) V[int] { return V[int]{C: c, S: st.b.Var(0, 64)} }
	tests := []struct {
		name          string
		make          func() []uint32
		env           sym.Env
		wantLen       int64 // -1: no term
		wantCap       int64 // -1: no term
		wantConcreted int
	}{
		{"symbolic length, constant capacity", func() []uint32 { return MakeSliceCap[[]uint32](1, n(3), V[int]{C: 8}) }, sym.Env{0: 5}, 5, -1, 0},
		{"constant length, symbolic capacity", func() []uint32 { return MakeSliceCap[[]uint32](1, V[int]{C: 2}, n(6)) }, sym.Env{0: 9}, -1, 9, 0},
		{"both symbolic", func() []uint32 { return MakeSliceCap[[]uint32](1, n(4), Add(n(4), V[int]{C: 1})) }, sym.Env{0: 7}, 7, 8, 0},
		{"no backing array", func() []uint32 { return MakeSliceCap[[]uint32](1, n(0), V[int]{C: 0}) }, sym.Env{0: 0}, -1, -1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(2)
			s := tt.make()
			for _, c := range []struct {
				what string
				v    V[int]
				want int64
			}{{"len", LenSlice(0, s), tt.wantLen}, {"cap", CapSlice(s), tt.wantCap}} {
				switch {
				case c.want < 0 && c.v.S != nil:
					t.Errorf("%s has term %v, want none", c.what, c.v.S)
				case c.want >= 0 && c.v.S == nil:
					t.Errorf("%s has no term", c.what)
				case c.want >= 0 && int64(sym.Eval(c.v.S, tt.env)) != c.want:
					t.Errorf("%s term gives %d, want %d", c.what, sym.Eval(c.v.S, tt.env), c.want)
				}
			}
			if got := len(takeConcrete(nil)); got != tt.wantConcreted {
				t.Errorf("%d concretisations, want %d", got, tt.wantConcreted)
			}
		})
	}
}

// TestPoolGet checks that an execution on symbolic inputs gets a fresh
// value from a pool, whatever earlier executions put back, and that a
// concrete one gets what the pool holds.
func TestPoolGet(t *testing.T) {
	for _, tt := range []struct {
		name     string
		symbolic bool
		withNew  bool
		want     any
	}{
		{"symbolic, no New", true, false, nil},
		{"symbolic, New", true, true, "new"},
		{"concrete", false, true, "put"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(0)
			st.symbolic = tt.symbolic
			var p sync.Pool
			if tt.withNew {
				p.New = func() any { return "new" }
			}
			// A pool may drop what it holds at a GC; within one goroutine
			// without one, Get returns the value just put.
			p.Put("put")
			if got := PoolGet(&p); got != tt.want {
				t.Errorf("PoolGet = %v, want %v", got, tt.want)
			}
		})
	}
}
