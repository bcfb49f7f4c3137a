// This file relates the concretisation events the workers count (rt.Cause:
// where a symbolic term was dropped for the concrete value) to the
// divergences of the run.
//
// Attribution: a divergent execution is attributed to every cause, and
// every (site, cause), with at least one event in that same execution
// before the branch where it departed from its prediction (the event's
// First depth is at most the divergence depth). The parent execution,
// whose path condition the solver used, went through the same symbolic
// branches up to there, so these are the drops that can have left the
// condition incomplete. An execution may be attributed to several causes,
// so the per-cause counts may add up to more than the divergences; one
// with no event before the divergent branch is counted as unattributed
// (a drop the runtime does not count, one that happened only in the
// parent, or an imprecision of the solver's model).

package coordinator

import (
	"cmp"
	"slices"

	"github.com/gocolic/gocolic/rt"
)

// ConcreteCount is what a run learnt about one cause of concretisation,
// or about one cause at one site.
type ConcreteCount struct {
	Events      int // concretisation events
	Executions  int // executions with at least one event
	Divergences int // divergent executions with an event before the divergent branch
}

// ConcreteSite is the count of one cause at one site.
type ConcreteSite struct {
	Site  uint32 // rt.NoSite when the worker could not tell the place
	Cause rt.Cause
	ConcreteCount
}

type concreteKey struct {
	site  uint32
	cause rt.Cause
}

// Concretisations counts a run's concretisation events per cause and per
// site, and attributes its divergences to them (see the file comment).
// The zero value is ready to use.
type Concretisations struct {
	Causes [rt.NumCauses]ConcreteCount
	// Divergences counts the divergent executions taken in; Unattributed
	// those without any event before their divergent branch.
	Divergences  int
	Unattributed int
	sites        map[concreteKey]*ConcreteCount
}

// Add takes in the counts of one execution. divergedAt is the depth of its
// path where it departed from its prediction, or -1 when it did not
// diverge (or had no prediction).
func (c *Concretisations) Add(events []rt.Concretised, divergedAt int) {
	if c.sites == nil {
		c.sites = map[concreteKey]*ConcreteCount{}
	}
	var seen, blamed [rt.NumCauses]bool
	for _, e := range events {
		if e.Cause >= rt.NumCauses || e.Count == 0 {
			continue
		}
		k := concreteKey{e.Site, e.Cause}
		s := c.sites[k]
		if s == nil {
			s = &ConcreteCount{}
			c.sites[k] = s
		}
		s.Events += int(e.Count)
		s.Executions++ // a (site, cause) appears once per execution
		c.Causes[e.Cause].Events += int(e.Count)
		if !seen[e.Cause] {
			seen[e.Cause] = true
			c.Causes[e.Cause].Executions++
		}
		if divergedAt >= 0 && int64(e.First) <= int64(divergedAt) {
			s.Divergences++
			if !blamed[e.Cause] {
				blamed[e.Cause] = true
				c.Causes[e.Cause].Divergences++
			}
		}
	}
	if divergedAt < 0 {
		return
	}
	c.Divergences++
	if !slices.Contains(blamed[:], true) {
		c.Unattributed++
	}
}

// Events returns the number of events of all causes.
func (c *Concretisations) Events() int {
	n := 0
	for _, k := range c.Causes {
		n += k.Events
	}
	return n
}

// Sites returns the counts of cause per site, the site with most events
// first, then most divergences, then the lowest site number; at most n of
// them (all for n <= 0).
func (c *Concretisations) Sites(cause rt.Cause, n int) []ConcreteSite {
	var out []ConcreteSite
	for k, s := range c.sites {
		if k.cause == cause {
			out = append(out, ConcreteSite{Site: k.site, Cause: k.cause, ConcreteCount: *s})
		}
	}
	slices.SortFunc(out, func(a, b ConcreteSite) int {
		return cmp.Or(cmp.Compare(b.Events, a.Events), cmp.Compare(b.Divergences, a.Divergences), cmp.Compare(a.Site, b.Site))
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// SiteCount is the number of divergent executions at one branch site.
type SiteCount struct {
	Site  uint32
	Count int
}

// DivergentSites returns the branch sites where executions diverged, the
// most divergences first, then the lowest site number; at most n of them
// (all for n <= 0).
func (r *Report) DivergentSites(n int) []SiteCount {
	out := make([]SiteCount, 0, len(r.DivergedSites))
	for s, c := range r.DivergedSites {
		out = append(out, SiteCount{Site: s, Count: c})
	}
	slices.SortFunc(out, func(a, b SiteCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Site, b.Site))
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}
