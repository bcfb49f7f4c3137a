package rt

import (
	"slices"
	"testing"
)

// TestBrOwn checks that BrOwn with its function's owner flag counts,
// covers and records exactly what Br does on the owning goroutine, and
// nothing when the flag is false.
func TestBrOwn(t *testing.T) {
	// x is symbolic, 7; made after the state's reset.
	x := func() V[int] { return V[int]{C: 7, S: st.b.Var(1, 64)} }
	tests := []struct {
		name string
		seq  func() []V[bool] // the branches, at sites 0, 1, 0, 1, ...
	}{
		{"concrete, new and repeated outcomes", func() []V[bool] { return []V[bool]{{C: true}, {C: true}, {C: false}, {C: true}} }},
		{"symbolic between concrete", func() []V[bool] {
			return []V[bool]{{C: true}, Eq(x(), V[int]{C: 7}), {C: true}, Lt(x(), V[int]{C: 3})}
		}},
		{"a symbolic outcome taken again", func() []V[bool] {
			return []V[bool]{{C: true}, Eq(x(), V[int]{C: 7}), {C: true}, Le(x(), V[int]{C: 8})}
		}},
		{"one site taken both ways", func() []V[bool] { return []V[bool]{{C: true}, {C: false}, {C: true}, {C: false}} }},
	}
	type trace struct {
		fresh  []uint32
		hits   []uint64
		path   []Event
		result []bool
	}
	run := func(seq func() []V[bool], br func(site uint32, v V[bool]) bool) trace {
		reset(4)
		st.cover = make([]byte, 4) // a new worker: every outcome is new
		dropHits()
		var tr trace
		for i, v := range seq() {
			tr.result = append(tr.result, br(uint32(i%2), v))
		}
		tr.fresh = slices.Clone(st.fresh)
		tr.path = slices.Clone(st.path)
		tr.hits = takeHits(nil)
		return tr
	}
	eq := func(a, b trace) bool {
		return slices.Equal(a.fresh, b.fresh) && slices.Equal(a.hits, b.hits) && slices.Equal(a.result, b.result) &&
			slices.EqualFunc(a.path, b.path, func(e, f Event) bool {
				return e.Site == f.Site && e.Taken == f.Taken && e.Cond.String() == f.Cond.String()
			})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			want := run(tt.seq, Br[bool])
			if len(want.hits) == 0 {
				t.Fatal("Br counted nothing; the test compares nothing")
			}
			got := run(tt.seq, func(site uint32, v V[bool]) bool { return BrOwn(true, site, v) })
			if !eq(got, want) {
				t.Errorf("BrOwn(true): %+v\nBr: %+v", got, want)
			}
			none := run(tt.seq, func(site uint32, v V[bool]) bool { return BrOwn(false, site, v) })
			if len(none.fresh)+len(none.hits)+len(none.path) > 0 || !slices.Equal(none.result, want.result) {
				t.Errorf("BrOwn(false) recorded %+v", none)
			}
		})
	}
}
