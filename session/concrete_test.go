package session

import (
	"fmt"
	"testing"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
)

// TestUninstrumentedCallees checks which packages the summary names as
// worth instrumenting: those whose calls made values concrete, summed
// over their call sites, most events first; never a standard package, one
// the run instrumented, a dynamic call or another cause.
func TestUninstrumentedCallees(t *testing.T) {
	callees := []string{
		"example.com/lib/syntax", // 0
		"example.com/lib/syntax", // 1
		"fmt",                    // 2: standard
		"example.com/app",        // 3: instrumented
		"",                       // 4: dynamic
		"example.com/other",      // 5
		"example.com/stale",      // 6: only another cause
	}
	e := &Entry{Instrumented: []string{"example.com/app", "strings"}}
	for i, c := range callees {
		e.Sites = append(e.Sites, sites.Site{ID: uint32(i), Kind: sites.Concrete, Callee: c})
	}
	rep := &coordinator.Report{}
	call := func(site, n uint32) rt.Concretised { return rt.Concretised{Site: site, Cause: rt.CauseCall, Count: n} }
	rep.Concretised.Add([]rt.Concretised{call(0, 3), call(1, 2), call(2, 50), call(3, 40), call(4, 30), call(5, 7),
		{Site: 6, Cause: rt.CauseStale, Count: 9}}, -1)
	rep.Concretised.Add([]rt.Concretised{call(0, 1)}, -1)
	got := fmt.Sprint(UninstrumentedCallees(e, rep))
	want := fmt.Sprint([]CalleeReport{
		{Pkg: "example.com/other", ConcreteCount: coordinator.ConcreteCount{Events: 7, Executions: 1}},
		{Pkg: "example.com/lib/syntax", ConcreteCount: coordinator.ConcreteCount{Events: 6, Executions: 2}},
	})
	if got != want {
		t.Errorf("callees %s, want %s", got, want)
	}
}
