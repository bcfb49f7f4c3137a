package coordinator

import (
	"slices"
	"testing"

	"github.com/gocolic/gocolic/rt"
)

// TestConcretisationAttribution feeds executions (their counts and the
// depth where they diverged) to Concretisations and checks the totals per
// cause, the attribution of divergences and the sites.
func TestConcretisationAttribution(t *testing.T) {
	type exec struct {
		events     []rt.Concretised
		divergedAt int
	}
	call := func(site, count, first uint32) rt.Concretised {
		return rt.Concretised{Site: site, Cause: rt.CauseCall, Count: count, First: first}
	}
	stale := func(site, count, first uint32) rt.Concretised {
		return rt.Concretised{Site: site, Cause: rt.CauseStale, Count: count, First: first}
	}
	tests := []struct {
		name         string
		execs        []exec
		call, stale  ConcreteCount
		divergences  int
		unattributed int
		callSites    []ConcreteSite
	}{
		{
			name:  "nothing",
			execs: []exec{{nil, -1}},
		},
		{
			name:         "a divergence without events is unattributed",
			execs:        []exec{{nil, 3}},
			divergences:  1,
			unattributed: 1,
		},
		{
			name:      "events without divergence",
			execs:     []exec{{[]rt.Concretised{call(4, 3, 0)}, -1}, {[]rt.Concretised{call(4, 1, 2)}, -1}},
			call:      ConcreteCount{Events: 4, Executions: 2},
			callSites: []ConcreteSite{{Site: 4, Cause: rt.CauseCall, ConcreteCount: ConcreteCount{Events: 4, Executions: 2}}},
		},
		{
			name:        "an event before the divergent branch is blamed",
			execs:       []exec{{[]rt.Concretised{call(4, 1, 2)}, 2}},
			call:        ConcreteCount{Events: 1, Executions: 1, Divergences: 1},
			divergences: 1,
			callSites:   []ConcreteSite{{Site: 4, Cause: rt.CauseCall, ConcreteCount: ConcreteCount{Events: 1, Executions: 1, Divergences: 1}}},
		},
		{
			name:         "an event after the divergent branch is not",
			execs:        []exec{{[]rt.Concretised{call(4, 1, 3)}, 2}},
			call:         ConcreteCount{Events: 1, Executions: 1},
			divergences:  1,
			unattributed: 1,
			callSites:    []ConcreteSite{{Site: 4, Cause: rt.CauseCall, ConcreteCount: ConcreteCount{Events: 1, Executions: 1}}},
		},
		{
			name:        "one divergence blamed on two causes and once per cause",
			execs:       []exec{{[]rt.Concretised{call(4, 1, 0), call(5, 2, 1), stale(6, 1, 1)}, 1}},
			call:        ConcreteCount{Events: 3, Executions: 1, Divergences: 1},
			stale:       ConcreteCount{Events: 1, Executions: 1, Divergences: 1},
			divergences: 1,
			callSites: []ConcreteSite{
				{Site: 5, Cause: rt.CauseCall, ConcreteCount: ConcreteCount{Events: 2, Executions: 1, Divergences: 1}},
				{Site: 4, Cause: rt.CauseCall, ConcreteCount: ConcreteCount{Events: 1, Executions: 1, Divergences: 1}},
			},
		},
		{
			name: "sites ordered by events, then divergences, then number",
			execs: []exec{
				{[]rt.Concretised{call(9, 1, 0), call(8, 1, 0), call(7, 1, 5)}, 0},
				{[]rt.Concretised{call(7, 1, 0)}, -1},
			},
			call:        ConcreteCount{Events: 4, Executions: 2, Divergences: 1},
			divergences: 1,
			callSites: []ConcreteSite{
				{Site: 7, Cause: rt.CauseCall, ConcreteCount: ConcreteCount{Events: 2, Executions: 2}},
				{Site: 8, Cause: rt.CauseCall, ConcreteCount: ConcreteCount{Events: 1, Executions: 1, Divergences: 1}},
				{Site: 9, Cause: rt.CauseCall, ConcreteCount: ConcreteCount{Events: 1, Executions: 1, Divergences: 1}},
			},
		},
		{
			name:        "events of unknown places count under their cause",
			execs:       []exec{{[]rt.Concretised{call(rt.NoSite, 5, 0)}, 0}},
			call:        ConcreteCount{Events: 5, Executions: 1, Divergences: 1},
			divergences: 1,
			callSites:   []ConcreteSite{{Site: rt.NoSite, Cause: rt.CauseCall, ConcreteCount: ConcreteCount{Events: 5, Executions: 1, Divergences: 1}}},
		},
		{
			name:  "unknown causes are ignored",
			execs: []exec{{[]rt.Concretised{{Site: 1, Cause: rt.NumCauses, Count: 1}}, -1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Concretisations
			for _, e := range tt.execs {
				c.Add(e.events, e.divergedAt)
			}
			if got := c.Causes[rt.CauseCall]; got != tt.call {
				t.Errorf("call: %+v, want %+v", got, tt.call)
			}
			if got := c.Causes[rt.CauseStale]; got != tt.stale {
				t.Errorf("stale: %+v, want %+v", got, tt.stale)
			}
			if c.Events() != tt.call.Events+tt.stale.Events {
				t.Errorf("%d events in all, want %d", c.Events(), tt.call.Events+tt.stale.Events)
			}
			if c.Divergences != tt.divergences || c.Unattributed != tt.unattributed {
				t.Errorf("divergences %d (%d unattributed), want %d (%d)", c.Divergences, c.Unattributed, tt.divergences, tt.unattributed)
			}
			if got := c.Sites(rt.CauseCall, 0); !slices.Equal(got, tt.callSites) {
				t.Errorf("call sites\n got %+v\nwant %+v", got, tt.callSites)
			}
			if len(tt.callSites) > 1 {
				if got := c.Sites(rt.CauseCall, 1); !slices.Equal(got, tt.callSites[:1]) {
					t.Errorf("top call site %+v, want %+v", got, tt.callSites[:1])
				}
			}
		})
	}
}

// TestDivergentSites sorts the sites by divergences, most first, the
// lower site first among equals, and keeps at most n.
func TestDivergentSites(t *testing.T) {
	r := &Report{DivergedSites: map[uint32]int{7: 2, 3: 5, 9: 2, 1: 1}}
	tests := []struct {
		n    int
		want []SiteCount
	}{
		{0, []SiteCount{{3, 5}, {7, 2}, {9, 2}, {1, 1}}},
		{2, []SiteCount{{3, 5}, {7, 2}}},
		{10, []SiteCount{{3, 5}, {7, 2}, {9, 2}, {1, 1}}},
	}
	for _, tt := range tests {
		if got := r.DivergentSites(tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("DivergentSites(%d) = %+v, want %+v", tt.n, got, tt.want)
		}
	}
	if got := (&Report{}).DivergentSites(3); len(got) != 0 {
		t.Errorf("no divergences: %+v", got)
	}
}
