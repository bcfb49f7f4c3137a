package explore

// Backoff puts any Strategy behind QSYM's exponential back-off: a branch
// outcome (site and side) whose negations keep failing — the solver
// refutes them or gives up — is asked about less and less often. While an
// outcome has failed fewer than Threshold times in a row, its candidates
// pass as the inner strategy orders them; after that, only one candidate
// in 2, then 4, 8, … up to 2^MaxShift of those the inner strategy hands
// out passes, the shift growing with each further failure. The others are
// put aside, Open, and handed out once the inner strategy has nothing
// left, oldest first: deprioritised, not dropped, so an exhausted search
// still means every side was tried. An execution that reaches a
// candidate's side clears its outcome's failures. Queries the solver
// gives up on count twice over: as failures, and against their own, lower
// UnknownThreshold, at every site, since each costs the solver's timeout.
//
// Why per outcome rather than per node: the wasted queries of a run
// concentrate on a few branch sites that occur on every path (a bounds
// check whose other side no input reaches, a loop whose exit the path
// prefix fixes); each occurrence is a node of its own, so the tree cannot
// tell them apart, but their site can. Why deprioritise rather than skip:
// a condition that failed forty times can still be the one a later prefix
// makes satisfiable, and a run with budget left should still try it.
type Backoff struct {
	inner    Strategy
	opts     BackoffOptions
	fails    map[uint32]uint32 // failed queries in a row, by outcome
	unknowns map[uint32]uint32 // of them, those the solver gave up on
	offers   map[uint32]uint32 // candidates offered while backed off, by outcome
	deferred []*Candidate      // put aside, oldest first
	// Deferrals counts the candidates put aside so far.
	Deferrals int
}

// BackoffOptions tune a Backoff.
type BackoffOptions struct {
	// Threshold is the number of failures in a row after which an
	// outcome is backed off.
	Threshold int
	// MaxShift bounds the back-off: at most one candidate in 2^MaxShift
	// passes.
	MaxShift int
	// UnknownThreshold is the number of queries in a row the solver
	// gave up on (Unsolved) after which an outcome is backed off, at
	// any site: each such query costs the solver's whole timeout, where
	// a refuted one usually costs milliseconds. Zero means Threshold.
	UnknownThreshold int
	// Only, when not nil, limits the back-off of refuted outcomes to
	// those of the sites it accepts. Outcomes the solver gives up on
	// are backed off at every site.
	Only func(site uint32) bool
}

// DefaultBackoff returns the options the coordinator uses.
func DefaultBackoff() BackoffOptions {
	return BackoffOptions{Threshold: 4, UnknownThreshold: 2, MaxShift: 10}
}

// NewBackoff returns inner behind a back-off with options o.
func NewBackoff(inner Strategy, o BackoffOptions) *Backoff {
	if o.Threshold < 1 {
		o.Threshold = 1
	}
	if o.MaxShift < 1 {
		o.MaxShift = 1
	}
	if o.UnknownThreshold < 1 {
		o.UnknownThreshold = o.Threshold
	}
	return &Backoff{inner: inner, opts: o, fails: map[uint32]uint32{}, unknowns: map[uint32]uint32{}, offers: map[uint32]uint32{}}
}

// Update counts the failures of each outcome and passes fb on.
func (b *Backoff) Update(fb Feedback) {
	if c := fb.Origin; c != nil {
		o := outcome(c.Node.Site, c.Side)
		only := b.opts.Only == nil || b.opts.Only(c.Node.Site)
		switch {
		case fb.Event == Unsolved:
			b.fails[o]++
			b.unknowns[o]++
		case fb.Event == Refuted && only:
			b.fails[o]++
		case fb.Event == Ran && fb.Outcome.Reached:
			delete(b.fails, o)
			delete(b.unknowns, o)
			delete(b.offers, o)
		}
	}
	b.inner.Update(fb)
}

// Failures returns how many queries about the outcome (site, side) failed
// in a row, up to now.
func (b *Backoff) Failures(site uint32, side bool) int {
	return int(b.fails[outcome(site, side)])
}

// pass reports whether a candidate of outcome o may be handed out now.
func (b *Backoff) pass(o uint32) bool {
	over := max(int(b.fails[o])-b.opts.Threshold+1, int(b.unknowns[o])-b.opts.UnknownThreshold+1)
	if over <= 0 {
		return true
	}
	shift := min(over, b.opts.MaxShift)
	b.offers[o]++
	return b.offers[o]%(1<<shift) == 0
}

// Next returns the inner strategy's next candidate whose outcome is not
// backed off; when the inner strategy is empty, the oldest candidate put
// aside that is still Open.
func (b *Backoff) Next() (*Candidate, bool) {
	for {
		c, ok := b.inner.Next()
		if !ok {
			break
		}
		if b.pass(outcome(c.Node.Site, c.Side)) {
			return c, true
		}
		c.release()
		b.deferred = append(b.deferred, c)
		b.Deferrals++
	}
	for len(b.deferred) > 0 {
		c := b.deferred[0]
		b.deferred[0] = nil
		b.deferred = b.deferred[1:]
		if c.claim() {
			return c, true
		}
	}
	return nil, false
}

// Len returns the number of candidates queued, inside and put aside.
func (b *Backoff) Len() int { return b.inner.Len() + len(b.deferred) }

// String returns the inner strategy's name.
func (b *Backoff) String() string { return b.inner.String() }
