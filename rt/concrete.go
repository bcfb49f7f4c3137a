// This file counts concretisation events: the places where the runtime,
// or the instrumented code through it, deliberately drops the symbolic
// term of a value and goes on with the concrete one. Nothing is wrong at
// the input that ran, but the path condition no longer says how the
// value depends on the inputs, so an input the solver derives from it may
// take another path than predicted (a divergence). The worker sends the
// counts with each response; the coordinator relates them to divergences.

package rt

// Cause says why a symbolic value was made concrete.
type Cause uint8

// The causes of concretisation. The numbering is part of the wire format
// between coordinator and worker, which are always built together.
const (
	// CauseCall is a symbolic argument of a call that receives no
	// shadows: a function of a package that is not instrumented (unless
	// the call is modelled or opaque), a method of another package, a
	// function value, an interface method, a wrapper of an instrumented
	// function called where its twin cannot be, or a builtin (min and max
	// of floats and strings, ...; append and copy on what rt/append.go
	// does not track).
	CauseCall Cause = iota
	// CauseOpaque is an opaque call with a symbolic argument whose result
	// stays concrete: opaque terms are off (-solver z3), or the function
	// cannot be called again in this binary.
	CauseOpaque
	// CauseConv is an explicit conversion of a symbolic value that the
	// runtime does not model: to a type it does not track (any, []rune,
	// a struct) or between tracked kinds it has no operator for
	// (string(rune)).
	CauseConv
	// CauseStale is a shadow in memory that no longer matches memory: a
	// cell whose value was overwritten where the rewrite did not see it,
	// or a slice whose length is not the one its length shadow was made
	// for (a reslice).
	CauseStale
	// CauseIndex is an index or bound taken at its concrete value: a
	// symbolic index into an array or slice longer than the case split's
	// bound (maxIndexSplit), a map too large for its log (maxMapSplit), a
	// bound of a slice expression the runtime does not track (of an array,
	// of a slice other than a byte slice), or the symbolic offset of a
	// slice expression once the execution's slices have made
	// maxSplitTerms case-split terms.
	CauseIndex
	// CauseRune is a multi-byte rune of a symbolic string whose bytes
	// past the first have no terms in the string's aggregate, in a for
	// range loop (rt/range.go) or in utf8.DecodeRune and
	// DecodeRuneInString when unicode/utf8 has no instrumented copy
	// (rt/models_utf8.go); other runes stay symbolic.
	CauseRune
	// CauseAssign is a value assigned where the rewrite keeps no shadow:
	// the value of a range loop that is a variable whose address is taken,
	// or an element or field (for k, x.f = range s).
	CauseAssign
	// NumCauses is the number of causes.
	NumCauses
)

var causeNames = [NumCauses]string{"call", "opaque", "conv", "stale", "index", "rune", "assign"}

var causeDocs = [NumCauses]string{
	"symbolic argument of a call that gets no shadows (uninstrumented function, method, function value, builtin)",
	"opaque call whose result stays concrete (opaque terms off, or the function cannot be re-run)",
	"conversion the runtime does not model (to an untracked type, or string(rune))",
	"shadow memory no longer matches memory (a write the rewrite did not see, or a reslice)",
	"index taken at its concrete value (array, slice or map longer than the case split, a store at a symbolic index into a location not split over, a bound of an untracked slice expression, or a slice offset past the execution's split budget)",
	"multi-byte rune of a symbolic string whose bytes have no terms (range loop, utf8.DecodeRune)",
	"value assigned where no shadow is kept (range value whose address is taken, or an element or field)",
}

// String returns the cause's short name, as the reports print it.
func (c Cause) String() string {
	if c < NumCauses {
		return causeNames[c]
	}
	return "unknown"
}

// Describe returns a one-line description of the cause for reports.
func (c Cause) Describe() string {
	if c < NumCauses {
		return causeDocs[c]
	}
	return "unknown cause"
}

// NoSite is the site of the events counted after the table of one
// execution filled up: their cause is known, their place is not.
const NoSite = ^uint32(0)

// Concretised counts the concretisation events of one cause at one site in
// one execution.
type Concretised struct {
	Site  uint32 // the site (sites.Concrete, or the site of the check beside which it happened); NoSite if unknown
	Cause Cause
	Count uint32
	// First is the number of symbolic branches the execution had recorded
	// when the first of these events happened: the event precedes the
	// branch at that depth of the path.
	First uint32
}

// The table of counters of one execution is a fixed open-addressing hash
// of (site, cause) pairs, so that counting an event never allocates; it is
// emptied into the response when the execution ends.
const (
	concBits  = 8
	concSlots = 1 << concBits
	// concFull is the number of pairs after which new pairs are counted
	// under NoSite, so that a probe always finds a free slot.
	concFull = concSlots * 3 / 4
	// causeBits is the room of the cause in a key; the site has the
	// rest, so sites from maxSite on (no build has so many) are counted
	// under NoSite.
	causeBits = 3
	maxSite   = 1 << (32 - causeBits)
)

type concSlot struct {
	key   uint32 // site<<causeBits | cause, plus 1; 0 marks a free slot
	n     uint32
	first uint32
}

// concTable is the per-execution state of this file, a field of st.
type concTable struct {
	slots [concSlots]concSlot
	used  [concFull]uint8 // indices of the occupied slots, in order of first event
	nused int
	lost  [NumCauses]concSlot // events of pairs past concFull, by cause
}

// A key holds the cause in causeBits bits.
var _ [1<<causeBits - int(NumCauses)]struct{}

// concretise counts one event of cause c at site. It is called only where
// a term is really dropped, off the common path where values are concrete.
func concretise(site uint32, c Cause) {
	if !tracking() {
		return
	}
	t := &st.conc
	if site >= maxSite {
		t.lose(c)
		return
	}
	key := (site<<causeBits | uint32(c)) + 1
	i := (key * 0x9e3779b1) >> (32 - concBits)
	for {
		s := &t.slots[i]
		if s.key == key {
			s.n++
			return
		}
		if s.key == 0 {
			break
		}
		i = (i + 1) & (concSlots - 1)
	}
	if t.nused == concFull {
		t.lose(c)
		return
	}
	t.slots[i] = concSlot{key: key, n: 1, first: uint32(len(st.path))}
	t.used[t.nused] = uint8(i)
	t.nused++
}

// lose counts an event of cause c whose place the table cannot hold.
func (t *concTable) lose(c Cause) {
	l := &t.lost[c]
	if l.n == 0 {
		l.first = uint32(len(st.path))
	}
	l.n++
}

// takeConcrete appends this execution's counts to dst, in the order of
// their first events (the lost ones last), and empties the table.
func takeConcrete(dst []Concretised) []Concretised {
	t := &st.conc
	for _, i := range t.used[:t.nused] {
		s := &t.slots[i]
		k := s.key - 1
		dst = append(dst, Concretised{Site: k >> causeBits, Cause: Cause(k & (1<<causeBits - 1)), Count: s.n, First: s.first})
		*s = concSlot{}
	}
	t.nused = 0
	for c := range t.lost {
		if l := &t.lost[c]; l.n > 0 {
			dst = append(dst, Concretised{Site: NoSite, Cause: Cause(c), Count: l.n, First: l.first})
			*l = concSlot{}
		}
	}
	return dst
}

// clearConcrete empties the table without reporting it, for an execution
// that starts after one whose counts were never taken.
func clearConcrete() {
	t := &st.conc
	for _, i := range t.used[:t.nused] {
		t.slots[i] = concSlot{}
	}
	t.nused = 0
	t.lost = [NumCauses]concSlot{}
}

// Concrete returns v's concrete value for a use where its shadow is lost,
// counting the loss under cause c at site when v is symbolic. The rewrite
// wraps such uses in it (arguments of calls that take no shadows,
// conversions it does not model).
func Concrete[T any](site uint32, c Cause, v V[T]) T {
	if v.S != nil {
		concretise(site, c)
	}
	return v.C
}
