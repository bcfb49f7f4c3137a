// This file holds the state of the execution in progress.

package rt

import "github.com/gocolic/gocolic/sym"

// Event is one symbolic branch of an execution: the branch site, the
// outcome, and the condition that is true iff the branch goes the true way.
type Event struct {
	Site  uint32
	Taken bool
	Cond  *sym.Expr
}

// maxEvents bounds the recorded path, so that a long loop over symbolic
// data cannot exhaust the worker's memory; the rest runs concretely.
const maxEvents = 1 << 16

// st is the state of the current execution. It is package-level because
// the instrumented code reaches it from every function of the target on the
// hot path, where threading a context parameter through all calls would
// change every signature and cost a register per call. A worker runs one
// execution at a time, and only the worker resets it.
var st struct {
	b         *sym.Builder
	path      []Event
	truncated bool   // the path hit maxEvents
	cover     []byte // per site: bit 0 false seen, bit 1 true seen; cumulative per worker
	fresh     []uint32
}

func init() { st.b = sym.NewBuilder() }

// reset prepares the state for a new execution.
func reset(sites int) {
	st.b.Reset()
	st.path = st.path[:0]
	st.truncated = false
	st.fresh = st.fresh[:0]
	if len(st.cover) < sites {
		st.cover = append(st.cover, make([]byte, sites-len(st.cover))...)
	}
}

// hit marks a site's outcome as covered, remembering first hits of this
// worker so that only new coverage is sent to the coordinator.
func hit(site uint32, taken bool) {
	bit := byte(1)
	if taken {
		bit = 2
	}
	if int(site) < len(st.cover) && st.cover[site]&bit == 0 {
		st.cover[site] |= bit
		st.fresh = append(st.fresh, site<<1|uint32(bit>>1))
	}
}

// record appends a symbolic branch to the path. Constant conditions carry
// no information and are dropped.
func record(site uint32, taken bool, cond *sym.Expr) {
	if cond.IsConst() {
		return
	}
	if len(st.path) >= maxEvents {
		st.truncated = true
		return
	}
	st.path = append(st.path, Event{Site: site, Taken: taken, Cond: cond})
}

// Br is an explicit branch: the condition of an if, for or case, or one
// operand of && and ||. It records the outcome and returns it.
func Br[T ~bool](site uint32, v V[T]) bool {
	c := bool(v.C)
	hit(site, c)
	if v.S != nil {
		record(site, c, v.S)
	}
	return c
}
