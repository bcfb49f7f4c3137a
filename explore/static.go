package explore

import "github.com/gocolic/gocolic/sites"

// Far is the distance of a branch outcome from which no uncovered outcome
// can be reached, or whose site the static graph does not know.
const Far = 10000

// Static is what the directed strategies (cfds, cgs) know of the program
// beyond the executions: facts of its static control-flow graph, which
// the session builds (package cfa) and explore never sees itself. Sites
// are numbered as in sites.Site.ID.
type Static interface {
	// Distance returns the number of branches on a shortest path of the
	// interprocedural branch graph from taking side at site to an
	// outcome not covered yet (an edge costs 1 when it enters a branch):
	// 0 if that outcome is uncovered itself, Far if no uncovered outcome
	// is reachable from it or the graph does not know the site.
	Distance(site uint32, side bool) int
	// Cover marks outcomes as covered; Distance counts from them on.
	Cover(c sites.Coverage)
	// Dominates reports whether d and b are distinct sites of one
	// function and every path from the function's entry to b passes d
	// first; false when the graph does not know either.
	Dominates(d, b uint32) bool
}

// UsesStatic reports whether the strategy called name asks for a Static
// graph, which costs the session a build of the program's SSA form.
func UsesStatic(name string) bool { return name == "cfds" || name == "cgs" || name == "learned" }

// noStatic is the Static of a run without a graph: every outcome is Far
// and no site dominates another.
type noStatic struct{}

func (noStatic) Distance(uint32, bool) int { return Far }
func (noStatic) Cover(sites.Coverage)      {}
func (noStatic) Dominates(_, _ uint32) bool {
	return false
}
