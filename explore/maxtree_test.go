package explore

import (
	"math/rand/v2"
	"testing"
)

// TestMaxTreeNext checks next against a linear scan, over trees grown
// slot by slot, with bounds changed and removed in between.
func TestMaxTreeNext(t *testing.T) {
	tests := []struct {
		name  string
		slots int
		seed  uint64
	}{
		{name: "one slot", slots: 1, seed: 1},
		{name: "power of two", slots: 64, seed: 2},
		{name: "odd size", slots: 77, seed: 3},
		{name: "large", slots: 1000, seed: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(tt.seed, 5))
			draw := func() bound {
				if r.IntN(8) == 0 {
					return gone
				}
				return bound{class: int8(r.IntN(2)), score: float64(r.IntN(20))}
			}
			var m maxTree
			var want []bound
			for range tt.slots {
				b := draw()
				m.push(b)
				want = append(want, b)
				if r.IntN(3) == 0 {
					i := r.IntN(len(want))
					want[i] = draw()
					m.set(i, want[i])
				}
				for range 4 {
					thr := bound{class: int8(r.IntN(2)), score: float64(r.IntN(22))}
					from := r.IntN(len(want) + 1)
					exp := -1
					for i := from; i < len(want); i++ {
						if !want[i].less(thr) {
							exp = i
							break
						}
					}
					if got := m.next(from, thr); got != exp {
						t.Fatalf("%d slots: next(%d, %v) = %d, want %d", len(want), from, thr, got, exp)
					}
				}
			}
			m.reset(want[:len(want)/2])
			for i := range len(want) / 2 {
				if m.at(i) != want[i] {
					t.Fatalf("after reset: slot %d holds %v, want %v", i, m.at(i), want[i])
				}
			}
			if got := m.next(len(want)/2, bound{class: 0, score: -1}); got != -1 {
				t.Errorf("after reset: next past the slots = %d, want -1", got)
			}
		})
	}
}
