package rt

import (
	"slices"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// The sites of traceTarget: the entry sites of its two functions, a
// symbolic condition and a concrete loop condition of the callee.
const (
	trOuter, trInner, trCond, trLoop = 0, 1, 2, 3
	trSites                          = 4
)

// traceInner is, as the rewrite with markers writes it (the loop's
// condition through BrOwn, as the rewrite writes conditions),
//
//	func inner(x uint32) bool {
//		for i := 0; i < 2; i++ {}
//		return x > 3
//	}
func traceInner(x V[uint32]) bool {
	own := Owner()
	Enter(trInner)
	defer Leave(trInner)
	// BrOwn: the second true outcome takes its fast path untraced.
	for i := 0; BrOwn(own, trLoop, Mk(i < 2, nil)); i++ {
	}
	return Br(trCond, Gt(x, Mk[uint32](3, nil)))
}

// traceOuter calls inner on key and on a constant, and then panics when
// asked to (key == 99), so that the deferred returns are marked while
// the panic unwinds.
func traceOuter(key V[uint32]) {
	Enter(trOuter)
	defer Leave(trOuter)
	traceInner(key)
	traceInner(Mk[uint32](1, nil))
	if key.C == 99 {
		panic("asked to")
	}
}

var traceTarget = Entry{
	Params: []Param{{Name: "key", Kind: ParamInt, Width: 32}},
	Sites:  trSites,
	Run: func(in *Input) []any {
		traceOuter(InputInt[uint32](in, 0))
		return nil
	},
}

// TestExecuteTrace checks the outcome sequence of a traced execution:
// every outcome, concrete ones included, in order, inside the entry and
// return markers of each call, with the symbolic events placed in it;
// and that an execution without Trace records none.
func TestExecuteTrace(t *testing.T) {
	enter, leave := func(s uint32) uint32 { return s<<1 | 1 }, func(s uint32) uint32 { return s << 1 }
	out := func(s uint32, taken bool) uint32 {
		if taken {
			return s<<1 | 1
		}
		return s << 1
	}
	call := func(cond bool) []uint32 {
		return []uint32{enter(trInner), out(trLoop, true), out(trLoop, true), out(trLoop, false), out(trCond, cond), leave(trInner)}
	}
	for _, tc := range []struct {
		name   string
		key    uint64
		trace  bool
		status Status
		want   []uint32
		at     []uint32 // At of the path's events
	}{
		{name: "taken", key: 7, trace: true, want: slices.Concat([]uint32{enter(trOuter)}, call(true), call(false), []uint32{leave(trOuter)}), at: []uint32{6}},
		{name: "not taken", key: 2, trace: true, want: slices.Concat([]uint32{enter(trOuter)}, call(false), call(false), []uint32{leave(trOuter)}), at: []uint32{6}},
		{name: "panic unwinds", key: 99, trace: true, status: StatusPanic, want: slices.Concat([]uint32{enter(trOuter)}, call(true), call(false), []uint32{leave(trOuter)}), at: []uint32{6}},
		{name: "off", key: 7, trace: false, want: nil, at: []uint32{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := &Request{Env: map[uint64]uint64{0: tc.key}, Trace: tc.trace}
			resp := execute(traceTarget, q, sym.NewEncoder())
			if resp.Status != tc.status {
				t.Fatalf("status %v (%s), want %v", resp.Status, resp.Panic, tc.status)
			}
			if resp.Traced != tc.trace {
				t.Errorf("Traced %t, want %t", resp.Traced, tc.trace)
			}
			if !slices.Equal(resp.Outcomes, tc.want) {
				t.Errorf("outcomes\n got %v\nwant %v", resp.Outcomes, tc.want)
			}
			var at []uint32
			for _, e := range resp.Path {
				at = append(at, e.At)
			}
			if !slices.Equal(at, tc.at) {
				t.Errorf("events at %v, want %v", at, tc.at)
			}
			// The response survives the wire.
			got, err := ParseResponse(AppendResponse(nil, resp))
			if err != nil || !equalResponse(got, resp) {
				t.Errorf("round trip: %v", err)
			}
		})
	}
	// The next execution without Trace records nothing, whatever the
	// last one did.
	resp := execute(traceTarget, &Request{Env: map[uint64]uint64{0: 7}}, sym.NewEncoder())
	if resp.Traced || resp.Outcomes != nil {
		t.Errorf("an untraced execution after a traced one sent %v", resp.Outcomes)
	}
}

// TestTraceCut checks that the sequence stops at its bound and says so.
func TestTraceCut(t *testing.T) {
	own(t)
	reset(2)
	st.traced = true
	defer reset(2)
	for range maxOutcomes + 5 {
		hit(1, true)
	}
	if len(st.outs) != maxOutcomes || !st.outsCut {
		t.Errorf("%d outcomes, cut %t; want %d, cut", len(st.outs), st.outsCut, maxOutcomes)
	}
}
