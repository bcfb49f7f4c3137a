package rt

import (
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// clearElem is an element with a field of each kind a cell holds.
type clearElem struct {
	N int32
	S string
	B []byte
}

// TestClearDropsShadows checks that clear takes the shadows of what it
// clears with it: after a symbolic value equal to zero is stored, cleared
// and loaded, it has no term (the cell would otherwise still match
// memory), a non-zero one is not counted stale, and what clear does not
// touch keeps its term.
func TestClearDropsShadows(t *testing.T) {
	x := func() *sym.Expr { return st.b.Var(1, 32) }
	tests := []struct {
		name string
		// run stores, clears and returns the loads: got must have no
		// term, kept must have one.
		run       func() (got []*sym.Expr, kept []*sym.Expr)
		wantStale bool
	}{
		{"scalars", func() ([]*sym.Expr, []*sym.Expr) {
			s := make([]int32, 4)
			Store(V[int32]{C: 0, S: x()}, &s[1])
			Store(V[int32]{C: 5, S: x()}, &s[2])
			Store(V[int32]{C: 0, S: x()}, &s[3])
			ClearSlice(s[:3])
			return []*sym.Expr{Load(1, &s[1]).S, Load(1, &s[2]).S}, []*sym.Expr{Load(1, &s[3]).S}
		}, false},
		{"struct fields", func() ([]*sym.Expr, []*sym.Expr) {
			s := make([]clearElem, 2)
			Store(V[int32]{C: 0, S: x()}, &s[1].N)
			StoreString(V[string]{C: "", S: symStr("").S}, &s[1].S)
			StoreByteSlice(V[[]byte]{C: nil, S: symBytes(100, "").S}, &s[1].B)
			ClearSlice(s)
			return []*sym.Expr{Load(1, &s[1].N).S, LoadString(1, &s[1].S).S, LoadByteSlice(1, &s[1].B).S}, nil
		}, false},
		{"a byte slice in a field", func() ([]*sym.Expr, []*sym.Expr) {
			h := &holder{}
			in := symBytes(100, "\x00b\x00")
			StoreByteSlice(V[[]byte]{C: append([]byte(nil), in.C...), S: in.S}, &h.buf)
			ClearBytesTo(h.buf)
			var got []*sym.Expr
			for k := range h.buf {
				got = append(got, IndexBytes(1, LoadByteSlice(1, &h.buf), V[int]{C: k}).S)
			}
			// The length is not cleared.
			return got, []*sym.Expr{LenBytes(LoadByteSlice(1, &h.buf)).S}
		}, false},
		{"a byte stored through a pointer", func() ([]*sym.Expr, []*sym.Expr) {
			b := make([]byte, 2)
			Store(V[byte]{C: 0, S: st.b.Var(1, 8)}, &b[0])
			ClearBytesTo(b)
			return []*sym.Expr{Load(1, &b[0]).S}, nil
		}, false},
		{"part of a shadowed variable", func() ([]*sym.Expr, []*sym.Expr) {
			in := symBytes(100, "\x00b\x00d")
			v := V[[]byte]{C: append([]byte(nil), in.C...), S: in.S}
			ClearBytes(&v.S, v.C, v.C[:3])
			var got []*sym.Expr
			for k := range 3 {
				got = append(got, IndexBytes(1, v, V[int]{C: k}).S)
			}
			return got, []*sym.Expr{IndexBytes(1, v, V[int]{C: 3}).S, LenBytes(v).S}
		}, false},
		{"a type parameter's slice", func() ([]*sym.Expr, []*sym.Expr) {
			s := make([]int64, 2)
			Store(V[int64]{C: 0, S: st.b.Var(1, 64)}, &s[0])
			ClearOf(s)
			return []*sym.Expr{Load(1, &s[0]).S}, nil
		}, false},
		{"a write nobody saw is still stale", func() ([]*sym.Expr, []*sym.Expr) {
			s := make([]int32, 2)
			Store(V[int32]{C: 5, S: x()}, &s[0])
			clear(s)
			return []*sym.Expr{Load(1, &s[0]).S}, nil
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(0)
			got, kept := tt.run()
			for i, g := range got {
				if g != nil && g.Kind != sym.KConst {
					t.Errorf("cleared value %d has the term %v, want none", i, g)
				}
			}
			for i, k := range kept {
				if k == nil || k.Kind == sym.KConst {
					t.Errorf("value %d that clear does not touch lost its term", i)
				}
			}
			stale := false
			for _, c := range takeConcrete(nil) {
				stale = stale || c.Cause == CauseStale
			}
			if stale != tt.wantStale {
				t.Errorf("stale concretisation counted: %v, want %v", stale, tt.wantStale)
			}
		})
	}
}

// TestClearMap checks that a cleared map's shadow says it is empty: an
// entry of a map input absent at this input, whose log write is guarded
// by the length input, must not be present at a symbolic key after clear,
// nor may a present one count a stale log.
func TestClearMap(t *testing.T) {
	tests := []struct {
		name string
		n    int // the length input's value: entry 0 present when 1
		do   func(m map[int]int)
	}{
		{"absent entry", 0, func(m map[int]int) { ClearMap(m) }},
		{"present entry", 1, func(m map[int]int) { ClearMap(m) }},
		{"type parameter", 1, func(m map[int]int) { ClearOf(m) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(0)
			m := map[int]int{}
			n := V[int]{C: tt.n, S: st.b.Var(1, 64)}
			MapInput(m, n, 0, V[int]{C: 3, S: st.b.Var(2, 64)}, V[int]{C: 4, S: st.b.Var(3, 64)})
			tt.do(m)
			_, ok, sv, sok := MapIndexOK(1, m, V[int]{C: 3, S: st.b.Var(4, 64)})
			if ok || sok != nil && sok.Kind != sym.KFalse || sv != nil && sv.Kind != sym.KConst {
				t.Errorf("cleared map: present %v with terms %v, %v; want absent under every input", ok, sok, sv)
			}
			if l := LenMap(1, m); l.C != 0 || l.S != nil {
				t.Errorf("len %d with term %v, want 0 with none", l.C, l.S)
			}
			for _, c := range takeConcrete(nil) {
				if c.Cause == CauseStale {
					t.Errorf("stale log counted after clear")
				}
			}
		})
	}
}
