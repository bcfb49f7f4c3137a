package explore

import "github.com/gocolic/gocolic/sites"

// An Event is what a Feedback reports.
type Event uint8

// The events a Strategy hears of.
const (
	// Ran: an execution ran and reported its path, which Tree.Record
	// merged into the tree (Feedback.Outcome).
	Ran Event = iota + 1
	// Lost: an execution left no path. The target crashed or hung, or it
	// finished in time only without symbolic tracking; the execution's
	// origin stays unreached.
	Lost
	// Refuted: the solver proved the origin's side unreachable (unsat).
	// No execution follows.
	Refuted
	// Unsolved: the solver gave up on the origin's query (unknown, or an
	// error). No execution follows.
	Unsolved
)

// String returns the event's name.
func (e Event) String() string {
	switch e {
	case Ran:
		return "ran"
	case Lost:
		return "lost"
	case Refuted:
		return "refuted"
	case Unsolved:
		return "unsolved"
	}
	return "?"
}

// Feedback is what the coordinator tells its Strategy after each event
// that changes what the search knows, as KLEE tells its Searcher through
// Searcher::update: after every execution (Ran or Lost), and after every
// query that the solver answers without an execution to follow (Refuted
// or Unsolved). The fields an event does not fill are zero.
type Feedback struct {
	Event Event
	// Origin is the candidate the event is about: the one the execution
	// was meant to reach (nil for a seed or an injected input), or the one
	// whose query the solver answered.
	Origin *Candidate
	// Outcome is what Tree.Record learnt from the execution's path (Ran).
	// Its NewCandidates are how candidates reach a Strategy: Update queues
	// them.
	Outcome Outcome
	// Hits are the execution's hit counts, one for each branch outcome it
	// took (Ran).
	Hits []Hit
	// Fresh holds the branch outcomes the execution covered first among
	// all executions of the run (Ran).
	Fresh sites.Coverage
}

// NewCover reports whether the execution covered a branch outcome that no
// earlier execution had.
func (fb Feedback) NewCover() bool { return len(fb.Fresh) > 0 }

// A Hit is how many times one execution took one outcome of a branch
// site.
type Hit struct {
	Site  uint32
	Side  bool
	Count uint32
}
