// This file turns a run's concretisation counts (coordinator.Concretisations)
// into what the reports show: per cause, its totals and the places where
// it happened most, with their source positions.

package session

import (
	"cmp"
	"slices"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/rt"
)

// MaxConcreteSites bounds the places listed per cause in the reports.
const MaxConcreteSites = 10

// CauseReport is what a run learnt about one cause of concretisation,
// with the places where it happened most.
type CauseReport struct {
	Cause rt.Cause
	coordinator.ConcreteCount
	// Sites are the places, most events first, at most MaxConcreteSites.
	Sites []SiteReport
}

// SiteReport is one place where values were made concrete.
type SiteReport struct {
	File string // the source file; "" when the place is unknown
	Line int
	Func string // the enclosing function
	Expr string // the source of the expression, shortened
	coordinator.ConcreteCount
}

// Concretisations returns the causes of concretisation that occurred in
// the run, the one before most divergences first, then the one with most
// events.
func Concretisations(t *Entry, rep *coordinator.Report) []CauseReport {
	c := &rep.Concretised
	var out []CauseReport
	for cause := range rt.NumCauses {
		n := c.Causes[cause]
		if n.Events == 0 {
			continue
		}
		cr := CauseReport{Cause: cause, ConcreteCount: n}
		for _, s := range c.Sites(cause, MaxConcreteSites) {
			sr := SiteReport{ConcreteCount: s.ConcreteCount}
			if int(s.Site) < len(t.Sites) && t.Sites[s.Site].ID == s.Site {
				is := t.Sites[s.Site]
				sr.File, sr.Line, sr.Func, sr.Expr = is.Pos.Filename, is.Pos.Line, is.Func, is.Text
			}
			cr.Sites = append(cr.Sites, sr)
		}
		out = append(out, cr)
	}
	slices.SortStableFunc(out, func(a, b CauseReport) int {
		return cmp.Or(cmp.Compare(b.Divergences, a.Divergences), cmp.Compare(b.Events, a.Events))
	})
	return out
}

// CalleeReport counts the values made concrete at calls into one package
// that is not instrumented.
type CalleeReport struct {
	Pkg string // import path
	coordinator.ConcreteCount
}

// UninstrumentedCallees returns the packages outside the standard library
// and outside what the run instrumented whose calls made values concrete
// (rt.CauseCall), most events first: what -instrument could name to keep
// those values symbolic (gobwas/glob's root package hands its pattern to
// its syntax package's lexer).
func UninstrumentedCallees(t *Entry, rep *coordinator.Report) []CalleeReport {
	by := map[string]*CalleeReport{}
	for _, s := range rep.Concretised.Sites(rt.CauseCall, 0) {
		if int(s.Site) >= len(t.Sites) || t.Sites[s.Site].ID != s.Site {
			continue
		}
		pkg := t.Sites[s.Site].Callee
		if pkg == "" || load.IsStandardPath(pkg) || slices.Contains(t.Instrumented, pkg) {
			continue
		}
		r := by[pkg]
		if r == nil {
			r = &CalleeReport{Pkg: pkg}
			by[pkg] = r
		}
		r.Events += s.Events
		r.Executions = max(r.Executions, s.Executions)
		r.Divergences += s.Divergences
	}
	out := make([]CalleeReport, 0, len(by))
	for _, r := range by {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b CalleeReport) int {
		return cmp.Or(cmp.Compare(b.Events, a.Events), cmp.Compare(a.Pkg, b.Pkg))
	})
	return out
}

// MaxDivergentSites bounds the branch sites the JSON report lists
// divergences at.
const MaxDivergentSites = 10

// DivergentSite is a branch site where executions of the run left the
// path their input was solved for.
type DivergentSite struct {
	File  string // the source file; "" when the site is unknown
	Line  int
	Func  string // the enclosing function
	Cond  string // the condition's source, shortened
	Count int    // divergent executions that departed here
}

// DivergentSites returns the branch sites with most divergences, most
// first, at most n (all for n <= 0).
func DivergentSites(t *Entry, rep *coordinator.Report, n int) []DivergentSite {
	var out []DivergentSite
	for _, sc := range rep.DivergentSites(n) {
		ds := DivergentSite{Count: sc.Count}
		if int(sc.Site) < len(t.Sites) && t.Sites[sc.Site].ID == sc.Site {
			s := t.Sites[sc.Site]
			ds.File, ds.Line, ds.Func, ds.Cond = s.Pos.Filename, s.Pos.Line, s.Func, s.Text
		}
		out = append(out, ds)
	}
	return out
}
