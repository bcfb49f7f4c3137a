// This file holds the state of the execution in progress.

package rt

import (
	"unsafe"

	"github.com/gocolic/gocolic/sym"
)

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

// maxOutcomes bounds the outcome sequence of a traced execution
// (Request.Trace); past it the sequence is cut (Response.OutcomesCut).
const maxOutcomes = 1 << 20

// st is the state of the current execution. It is package-level because
// the instrumented code reaches it from every function of the target on the
// hot path, where threading a context parameter through all calls would
// change every signature and cost a register per call. A worker runs one
// execution at a time, and only the worker resets it; during an execution
// only the goroutine that runs it reads or writes it (goroutine.go).
var st struct {
	b         *sym.Builder
	path      []Event
	truncated bool   // the path hit maxEvents
	cover     []byte // per site: bit 0 false seen, bit 1 true seen; cumulative per worker
	fresh     []uint32
	counts    []uint32               // per site outcome (site<<1|outcome): hits in this execution
	buckets   []uint8                // per site outcome: the hit-count buckets seen (batch.go); cumulative per worker
	touched   []uint32               // outcomes with non-zero counts
	vars      []*sym.Expr            // input variables by number, kept across executions
	failed    []string               // messages of t.Error and t.Fatal in this execution
	mem       map[uintptr]cell       // the shadow memory (mem.go)
	byteSeq   uint64                 // writes of bytes' cells so far, which order them against byte-slice cells (bytemem.go)
	pins      []unsafe.Pointer       // what the cells of mem point into
	lens      map[uintptr]lenCell    // shadows of slice lengths (slice.go)
	caps      map[uintptr]lenCell    // shadows of capacities given to make (slice.go)
	maps      map[uintptr]*mapShadow // logs of maps, by header (map.go)
	objs      map[uintptr]ptrObj     // objects of pointer inputs, by address (alias.go)
	nils      *sym.Expr              // "some pointer input is nil", nil when none is (alias.go)
	readers   map[uintptr]readerCell // readers made from shadowed values (models_io.go)
	closures  map[uintptr]closure    // twins of function literals made in this execution, by closure object (dyn.go)
	passed    []passed               // struct arguments handed to a callee (slice.go)
	results   [maxResults]passed     // struct results handed to the caller (slice.go)
	iface     ifaceState             // interface inputs (iface.go)
	conc      concTable              // concretisation events of this execution (concrete.go)
	splits    int                    // case-split terms of slices at symbolic offsets so far (str.go)
	// symbolic: the execution runs on symbolic inputs (not a concrete
	// one of a batch or of -lanes mutate): PoolGet gives it fresh values.
	symbolic bool
	// traced: the execution records every outcome of a site that
	// reports outcomes, concrete ones included, and the entries and
	// returns of functions (Enter, Leave), in outs (Request.Trace).
	traced  bool
	outs    []uint32
	outsCut bool // outs hit maxOutcomes
	// ats holds, for each event of path, the length of outs when it was
	// recorded: the outcomes before it, its own last if its site reports
	// outcomes (hit). Apart from Event, which stays small untraced.
	ats []uint32
}

func init() {
	st.b = sym.NewBuilder()
	st.mem = make(map[uintptr]cell)
	st.lens = make(map[uintptr]lenCell)
	st.caps = make(map[uintptr]lenCell)
	st.maps = make(map[uintptr]*mapShadow)
	st.objs = make(map[uintptr]ptrObj)
	st.readers = make(map[uintptr]readerCell)
	st.closures = make(map[uintptr]closure)
}

// reset prepares the state for a new execution.
func reset(sites int) {
	st.b.Reset()
	st.path = st.path[:0]
	st.truncated = false
	st.traced = false
	st.symbolic = false
	st.outs = st.outs[:0]
	st.ats = st.ats[:0]
	st.outsCut = false
	st.fresh = st.fresh[:0]
	// Most executions of the mutation lane leave the maps empty, and
	// clearing an empty map still walks its table.
	clearMap(st.mem)
	clear(st.pins)
	st.pins = st.pins[:0]
	clearMap(st.lens)
	clearMap(st.caps)
	clearMap(st.maps)
	clearMap(st.objs)
	clearMap(st.readers)
	clearMap(st.closures)
	st.nils = nil
	clearIfaces()
	st.passed = st.passed[:0]
	st.results = [maxResults]passed{}
	clearConcrete()
	st.splits = 0
	memUsed.Store(false)
	bytesUsed.Store(false)
	sliceCellsUsed.Store(false)
	lensUsed.Store(false)
	mapsUsed.Store(false)
	closuresUsed.Store(false)
	growCover(sites)
}

// clearMap empties m unless it is empty already.
func clearMap[K comparable, V any](m map[K]V) {
	if len(m) > 0 {
		clear(m)
	}
}

// growCover makes the coverage map hold sites sites.
func growCover(sites int) {
	if len(st.cover) < sites {
		st.cover = append(st.cover, make([]byte, sites-len(st.cover))...)
		st.counts = append(st.counts, make([]uint32, 2*sites-len(st.counts))...)
		st.buckets = append(st.buckets, make([]uint8, 2*sites-len(st.buckets))...)
	}
}

// takeHits appends this execution's hit counts to dst, as
// outcome<<32 | count, and clears them for the next execution. The
// counts' buckets join the worker's map (batch.go), which is one for both
// modes.
func takeHits(dst []uint64) []uint64 {
	takeBuckets(nil)
	for _, o := range st.touched {
		dst = append(dst, uint64(o)<<32|uint64(st.counts[o]))
		st.counts[o] = 0
	}
	st.touched = st.touched[:0]
	return dst
}

// hit marks a site's outcome as covered, remembering first hits of this
// worker so that only new coverage is sent to the coordinator.
func hit(site uint32, taken bool) {
	bit := byte(1)
	if taken {
		bit = 2
	}
	if int(site) >= len(st.cover) {
		return
	}
	o := site<<1 | uint32(bit>>1)
	if st.cover[site]&bit == 0 {
		st.cover[site] |= bit
		st.fresh = append(st.fresh, o)
	}
	if st.counts[o] == 0 {
		st.touched = append(st.touched, o)
	}
	st.counts[o]++
	if st.traced {
		traceOut(o)
	}
}

// traceOut appends one element to the outcome sequence of a traced
// execution.
func traceOut(o uint32) {
	if len(st.outs) >= maxOutcomes {
		st.outsCut = true
		return
	}
	st.outs = append(st.outs, o)
}

// Enter marks the entry of a function in a traced execution: site is the
// function's entry site (sites.Func), recorded as its true outcome. The
// rewrite calls it first in every function body when the build has
// markers (instrument.Config.Markers), with a deferred Leave.
func Enter(site uint32) {
	if st.traced && tracking() {
		traceOut(site<<1 | 1)
	}
}

// Leave marks the return of the function whose entry site is site, as the
// site's false outcome; it runs deferred, so a panic that unwinds the
// function marks its return too.
func Leave(site uint32) {
	if st.traced && tracking() {
		traceOut(site << 1)
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
	if st.traced {
		st.ats = append(st.ats, uint32(len(st.outs)))
	}
}

// Br is an explicit branch: the condition of an if, for or case, or one
// operand of && and ||. It records the outcome and returns it.
func Br[T ~bool](site uint32, v V[T]) bool { return br(site, bool(v.C), v.S) }

// br is Br for every T: a call of one function, without the dictionary
// of a generic one.
func br(site uint32, c bool, s *sym.Expr) bool {
	if !tracking() {
		return c
	}
	branch(site, c, s)
	return c
}

// Owner reports whether the calling goroutine owns the symbolic state.
// The rewrite asks it once at the top of each function that has branches
// and hands the answer to that function's BrOwn calls, instead of asking
// at every branch: an activation of a function runs on one goroutine,
// and the owner changes only between executions, when no activation of
// the target's code is running on the goroutine that claims or releases
// the state, so the answer holds for the whole activation. It is
// tracking written out, not a call of it: the call pushed its cost past
// the inliner's budget, and every activation paid a call.
func Owner() bool { return curg() == owner.Load() }

// BrOwn is Br in a function whose activation asked Owner: own is the
// answer. It costs a counter increment on the common path, a branch
// without a shadow whose outcome this execution has already taken.
func BrOwn[T ~bool](own bool, site uint32, v V[T]) bool {
	return brOwn(own, site, bool(v.C), v.S, branch)
}

// brOwn is BrOwn for every T, with its rare half passed as a parameter so
// that it inlines (ops.go says why).
func brOwn(own bool, site uint32, c bool, s *sym.Expr, slow func(uint32, bool, *sym.Expr)) bool {
	if own {
		o := site << 1
		if c {
			o |= 1
		}
		// A non-zero count means hit has seen this outcome in this
		// execution: it is covered and touched, only the count changes;
		// unless the execution is traced, whose sequence needs every
		// outcome (the monitors' replay would go on from a wrong state).
		if s == nil && o < uint32(len(st.counts)) && st.counts[o] != 0 && !st.traced {
			st.counts[o]++
		} else {
			slow(site, c, s)
		}
	}
	return c
}

// branch counts and records a branch on the goroutine that owns the
// state.
func branch(site uint32, c bool, s *sym.Expr) {
	hit(site, c)
	if s != nil {
		record(site, c, s)
	}
}
