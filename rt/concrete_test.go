package rt

import (
	"slices"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// symStr is a symbolic string of the given concrete value: a length
// variable and one byte variable per byte.
func symStr(c string) V[string] {
	bs := make([]*sym.Expr, len(c))
	for i := range bs {
		bs[i] = st.b.Var(uint64(10+i), 8)
	}
	return V[string]{C: c, S: st.b.String(st.b.Var(9, 64), bs)}
}

// TestConcretisations runs each piece of runtime code that drops a term
// and checks the counts the execution reports: site, cause, number of
// events and the path depth of the first.
func TestConcretisations(t *testing.T) {
	own(t)
	saved := opaqueOn
	defer func() { opaqueOn = saved }()
	tests := []struct {
		name string
		run  func(x V[int]) // x is symbolic, 7
		want []Concretised
	}{
		{
			name: "concrete values count nothing",
			run: func(V[int]) {
				Concrete(1, CauseCall, V[int]{C: 3})
				var n int32 = 4
				Store(V[int32]{C: 4}, &n)
				Load(2, &n)
				LoadIndex(3, make([]int, 300), V[int]{C: 5})
			},
		},
		{
			name: "call argument",
			run:  func(x V[int]) { Concrete(1, CauseCall, x) },
			want: []Concretised{{Site: 1, Cause: CauseCall, Count: 1}},
		},
		{
			name: "events counted per site and cause, in order, at their depth",
			run: func(x V[int]) {
				Concrete(5, CauseCall, x)
				Br(0, Eq(x, V[int]{C: 7}))
				Concrete(5, CauseCall, x)
				Concrete(2, CauseConv, x)
				Concrete(5, CauseConv, x)
			},
			want: []Concretised{
				{Site: 5, Cause: CauseCall, Count: 2, First: 0},
				{Site: 2, Cause: CauseConv, Count: 1, First: 1},
				{Site: 5, Cause: CauseConv, Count: 1, First: 1},
			},
		},
		{
			name: "stale scalar cell",
			run: func(x V[int]) {
				p := new(int)
				Store(x, p)
				*p = 8 // a write the rewrite does not see
				Load(4, p)
				q := new(int)
				Load(4, q) // no cell: nothing dropped
			},
			want: []Concretised{{Site: 4, Cause: CauseStale, Count: 1}},
		},
		{
			name: "stale string cell",
			run: func(V[int]) {
				p := new(string)
				StoreString(symStr("ab"), p)
				*p = "cd"
				LoadString(6, p)
			},
			want: []Concretised{{Site: 6, Cause: CauseStale, Count: 1}},
		},
		{
			name: "resliced slice length",
			run: func(x V[int]) {
				s := MakeSlice[[]int](x)
				LenSlice(8, s)     // its own length: symbolic
				LenSlice(8, s[:2]) // same array, another length
			},
			want: []Concretised{{Site: 8, Cause: CauseStale, Count: 1}},
		},
		{
			name: "symbolic index beyond the case split",
			run: func(x V[int]) {
				LoadIndex(9, make([]int32, maxIndexSplit+1), x)
				LoadIndex(9, make([]int32, maxIndexSplit), x) // split
			},
			want: []Concretised{{Site: 9, Cause: CauseIndex, Count: 1, First: 1}},
		},
		{
			name: "symbolic store index: split, beyond the split, into a byte slice",
			run: func(x V[int]) {
				StoreIndex(V[int32]{C: 1}, 13, make([]int32, 8), x) // split
				StoreIndex(V[int32]{C: 1}, 13, make([]int32, maxStoreSplit+1), x)
				ApplyIndex(14, make([]int32, 8), x, V[int32]{C: 1}, Add[int32]) // split
				StoreByteAt(15, make([]byte, 8), x, V[byte]{C: 1})
				StoreByteAt(15, make([]byte, 8), V[int]{C: 2}, V[byte]{C: 1})
			},
			want: []Concretised{
				{Site: 13, Cause: CauseIndex, Count: 1, First: 2},
				{Site: 15, Cause: CauseIndex, Count: 1, First: 4},
			},
		},
		{
			name: "byte slice resliced past its length drops nothing",
			run: func(V[int]) {
				b := make([]byte, 2, 8)
				// The bytes past the length are what memory holds.
				if SliceBytes(11, V[[]byte]{C: b, S: symStr("ab").S}, V[int]{C: 0}, V[int]{C: 4}).S == nil {
					panic("the reslice lost the terms of the first bytes")
				}
			},
		},
		{
			name: "symbolic capacity of a byte slice made with a symbolic length drops nothing",
			run: func(x V[int]) {
				b := MakeBytesCap[[]byte](12, x, Add(x, V[int]{C: 16}))
				if b.S == nil {
					panic("the length lost its term")
				}
				if CapSlice(b.C).S == nil {
					panic("the capacity lost its term")
				}
				MakeBytesCap[[]byte](12, x, V[int]{C: 64}) // a constant capacity drops nothing
			},
		},
		{
			name: "symbolic capacity of zero",
			run: func(x V[int]) {
				MakeBytesCap[[]byte](12, V[int]{C: 0}, Sub(x, V[int]{C: 7}))
			},
			want: []Concretised{{Site: 12, Cause: CauseCall, Count: 1, First: 0}},
		},
		{
			name: "bytes copied into a variable past its length drop nothing",
			run: func(V[int]) {
				b := make([]byte, 2, 8)
				sb := symStr("ab").S
				CopyBytes(11, &sb, b, b[1:4], V[string]{C: "xyz", S: symStr("xyz").S})
				if byteTerm(&b[:4][3], 0) == nil {
					panic("the byte copied past the length has no cell")
				}
			},
		},
		{
			name: "multi-byte rune whose bytes have no terms in a range loop",
			run: func(V[int]) {
				// The aggregate knows the first byte of 'é' only. Loop
				// test and ASCII test for 'é', whose ASCII test is
				// recorded before its rune is dropped.
				s := V[string]{C: "é", S: st.b.String(st.b.Var(9, 64), []*sym.Expr{st.b.Var(10, 8)})}
				for it, _, _, _ := IterString(12, 13, 14, s); it.Next(); {
				}
			},
			want: []Concretised{{Site: 13, Cause: CauseRune, Count: 1, First: 2}},
		},
		{
			name: "opaque call with opaque terms off",
			run: func(x V[int]) {
				opaqueOn = false
				Opaque1(14, sym.FuncID("rt.test.double"), func(n int) int { return 2 * n }, x)
				Opaque1(14, sym.FuncID("rt.test.double"), func(n int) int { return 2 * n }, V[int]{C: 1})
			},
			want: []Concretised{{Site: 14, Cause: CauseOpaque, Count: 1}},
		},
		{
			name: "opaque call of a function the binary cannot call again",
			run: func(x V[int]) {
				opaqueOn = true
				Opaque1(15, sym.FuncID("rt.test.unregistered"), func(n int) int { return n }, x)
			},
			want: []Concretised{{Site: 15, Cause: CauseOpaque, Count: 1}},
		},
		{
			name: "sites past the key's room count by cause",
			run: func(x V[int]) {
				Concrete(maxSite, CauseConv, x)
				Br(0, Eq(x, V[int]{C: 7}))
				Concrete(NoSite-1, CauseConv, x)
				Concrete(maxSite-1, CauseConv, x)
			},
			want: []Concretised{
				{Site: maxSite - 1, Cause: CauseConv, Count: 1, First: 1},
				{Site: NoSite, Cause: CauseConv, Count: 2, First: 0},
			},
		},
		{
			name: "a full table counts the rest by cause",
			run: func(x V[int]) {
				for site := range uint32(concFull + 10) {
					Concrete(site, CauseCall, x)
				}
				Concrete(0, CauseCall, x) // a known pair still counts in place
				Concrete(NoSite-1, CauseStale, x)
			},
			want: func() []Concretised {
				var w []Concretised
				for site := range uint32(concFull) {
					w = append(w, Concretised{Site: site, Cause: CauseCall, Count: 1})
				}
				w[0].Count = 2
				return append(w, Concretised{Site: NoSite, Cause: CauseCall, Count: 10},
					Concretised{Site: NoSite, Cause: CauseStale, Count: 1})
			}(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(4)
			x := V[int]{C: 7, S: st.b.Var(0, 64)}
			tt.run(x)
			got := takeConcrete(nil)
			if !slices.Equal(got, tt.want) {
				t.Errorf("concretisations\n got %+v\nwant %+v", got, tt.want)
			}
			if again := takeConcrete(nil); len(again) != 0 {
				t.Errorf("taking the counts does not empty the table: %+v", again)
			}
		})
	}
}

// TestExecuteReportsConcretisations checks that a response carries the
// counts of its own execution only.
func TestExecuteReportsConcretisations(t *testing.T) {
	own(t)
	tg := Entry{
		Params: []Param{{Name: "x", Kind: ParamInt, Width: 64, Signed: true}},
		Sites:  2,
		Run: func(in *Input) []any {
			x := InputInt[int](in, 0)
			if Br(0, Gt(x, V[int]{C: 0})) {
				Concrete(1, CauseCall, x)
			}
			return nil
		},
	}
	enc := sym.NewEncoder()
	pos := execute(tg, &Request{Env: map[uint64]uint64{0: 5}}, enc)
	want := []Concretised{{Site: 1, Cause: CauseCall, Count: 1, First: 1}}
	if !slices.Equal(pos.Concrete, want) {
		t.Errorf("x = 5: %+v, want %+v", pos.Concrete, want)
	}
	if neg := execute(tg, &Request{Env: map[uint64]uint64{0: 0}}, enc); len(neg.Concrete) != 0 {
		t.Errorf("x = 0: %+v, want none", neg.Concrete)
	}
}

// TestConcretiseDoesNotAllocate checks that counting events, new pairs
// and repeated ones, costs no allocation once the worker has run.
func TestConcretiseDoesNotAllocate(t *testing.T) {
	own(t)
	reset(4)
	x := V[int]{C: 7, S: st.b.Var(0, 64)}
	allocs := testing.AllocsPerRun(100, func() {
		for site := range uint32(40) {
			Concrete(site, CauseCall, x)
			Concrete(site, CauseCall, x)
		}
		clearConcrete()
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}

// BenchmarkConcretise measures counting one event at a site already in
// the table, the cost a loop pays per dropped value.
func BenchmarkConcretise(b *testing.B) {
	own(b)
	reset(4)
	x := V[int]{C: 7, S: st.b.Var(0, 64)}
	for b.Loop() {
		Concrete(3, CauseCall, x)
	}
	clearConcrete()
}

// TestSliceSplitBudget checks that slicing at a symbolic offset splits
// every byte over the string until the execution's budget of split terms
// is spent, and then takes the offset at its concrete value, counted.
func TestSliceSplitBudget(t *testing.T) {
	own(t)
	reset(4)
	x := V[int]{C: 7, S: st.b.Var(0, 64)}
	small := symStr("0123456789abcdef")
	sub := SliceString(16, small, x, LenString(small))
	if b := aggBytes(sub.S); len(b) != 9 || b[0].Kind != sym.KIte {
		t.Fatalf("small[x:]: bytes %v, want 9 case splits", b)
	}
	if got := takeConcrete(nil); len(got) != 0 {
		t.Errorf("small[x:] within the budget counted %+v", got)
	}
	// 193 bytes, each split over 200: past the budget at once.
	big := symStr(strings.Repeat("a", 200))
	for range 3 {
		sub = SliceString(17, big, x, LenString(big))
	}
	if b, want := aggBytes(sub.S), aggBytes(big.S)[7:]; len(b) != len(want) || b[0] != want[0] || b[192] != want[192] {
		t.Errorf("big[x:] past the budget: bytes are not big's own from 7")
	}
	if got := takeConcrete(nil); len(got) != 1 || got[0].Site != 17 || got[0].Cause != CauseIndex || got[0].Count != 3 {
		t.Errorf("big[x:] past the budget counted %+v, want 3 index events at site 17", got)
	}
	// The budget is the execution's: a new one splits again.
	reset(4)
	if b := aggBytes(SliceString(16, small, x, LenString(small)).S); b[0].Kind != sym.KIte {
		t.Errorf("after reset: small[x:] not split")
	}
}
