// This file turns a run's per-site query counts (coordinator.SiteQueries)
// into what the reports show: the sites with their source positions, the
// most wasteful first.

package session

import (
	"cmp"
	"slices"

	"github.com/gocolic/gocolic/coordinator"
)

// QuerySite is what the solver was asked about one branch site.
type QuerySite struct {
	ID   uint32
	File string // the source file; "" when the site is unknown
	Line int
	Col  int
	Func string // the enclosing function
	Cond string // the source of the condition
	coordinator.SiteQueries
}

// QuerySites returns the branch sites the run asked queries about, those
// with most failed queries (unsat or unknown) first, then those that took
// most solver time.
func QuerySites(t *Entry, rep *coordinator.Report) []QuerySite {
	var out []QuerySite
	for id, q := range rep.SiteQueries {
		qs := QuerySite{ID: id, SiteQueries: *q}
		if int(id) < len(t.Sites) && t.Sites[id].ID == id {
			s := t.Sites[id]
			qs.File, qs.Line, qs.Col, qs.Func, qs.Cond = s.Pos.Filename, s.Pos.Line, s.Pos.Column, s.Func, s.Text
		}
		out = append(out, qs)
	}
	slices.SortFunc(out, func(a, b QuerySite) int {
		return cmp.Or(cmp.Compare(b.Failed(), a.Failed()), cmp.Compare(b.Time, a.Time), cmp.Compare(a.ID, b.ID))
	})
	return out
}
