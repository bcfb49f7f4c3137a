// This file prunes the search with the monitors of the model checker
// (seed 002 §5, Config.Pruner): a traced execution's outcome sequence is
// replayed through the monitors of the functions it enters, and a new
// candidate whose side has no edge in its function's monitor is held
// back from the strategy. An execution that leaves a monitor (an alarm)
// shows the model wrong: the monitor is dropped, the candidates it held
// back go to the strategy after all, and the run goes on.

package coordinator

import (
	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/rt"
)

// Pruner is the product of the monitors with the program (mc.Monitors).
type Pruner interface {
	// Prune replays one execution's outcome sequence (cut: it stopped
	// at its bound) and returns, for each event of path, the monitor
	// that has no edge for the event's other outcome (-1: none), and the
	// monitors the execution left, which it drops from now on.
	Prune(outs []uint32, cut bool, path []rt.WireEvent) (by []int, alarms []int)
	// Name names monitor i's function, for the report.
	Name(i int) string
}

// PruneStats counts what the monitors did.
type PruneStats struct {
	// Pruned counts the candidates held back; Released those a
	// monitor's alarm, or a refuted claim, gave back to the strategy.
	Pruned, Released int
	// Claimed counts the candidates held back because a claim of
	// Config.Unreachable says no input takes their side.
	Claimed int
	// Alarms name the functions whose monitor an execution left.
	Alarms []string
	// Covered counts the candidates held back whose side an execution
	// took all the same (through the same node): a pruning the monitor
	// got wrong. It is counted at the end of the run.
	Covered int
}

// prune holds back the candidates of cs, opened by the execution that
// answered resp, that a monitor forbids, and returns the others.
//
// A candidate is judged by the trace of the execution that opened it.
// Another input that follows the same symbolic branches up to it takes
// the same concrete ones too, so the judgement holds for it, unless a
// value was made concrete before the candidate's branch: candidates from
// there on are never pruned.
func (d *coordinator) prune(resp *rt.Response, cs []*explore.Candidate) []*explore.Candidate {
	if d.cfg.Pruner == nil || !resp.Traced || len(cs) == 0 && len(resp.Outcomes) == 0 {
		return cs
	}
	by, alarms := d.cfg.Pruner.Prune(resp.Outcomes, resp.OutcomesCut, resp.Path)
	for _, m := range alarms {
		if d.dropped == nil {
			d.dropped = map[int]bool{}
		}
		d.dropped[m] = true
		d.rep.Prune.Alarms = append(d.rep.Prune.Alarms, d.cfg.Pruner.Name(m))
		d.giveBack(d.pruned[m])
		delete(d.pruned, m)
	}
	limit := len(resp.Path)
	for _, c := range resp.Concrete {
		limit = min(limit, int(c.First))
	}
	now := cs[:0:0]
	for _, c := range cs {
		k := c.Node.Depth
		// A monitor this execution dropped may have judged its events
		// before the alarm: those judgements are void too.
		if k < limit && k < len(by) && by[k] >= 0 && !d.dropped[by[k]] && resp.Path[k].Site == c.Node.Site && resp.Path[k].Taken != c.Side {
			if d.pruned == nil {
				d.pruned = map[int][]*explore.Candidate{}
			}
			d.pruned[by[k]] = append(d.pruned[by[k]], c)
			d.rep.Prune.Pruned++
			continue
		}
		now = append(now, c)
	}
	return now
}

// giveBack hands the candidates of held that are still open to the
// strategy: whatever held them back (a monitor, the claims) fell.
func (d *coordinator) giveBack(held []*explore.Candidate) {
	var back []*explore.Candidate
	for _, c := range held {
		if c.State() == explore.Open {
			back = append(back, c)
		}
	}
	if len(back) > 0 {
		d.rep.Prune.Released += len(back)
		d.strat.Update(explore.Feedback{Outcome: explore.Outcome{NewCandidates: back}})
	}
}

// prunedCovered counts the candidates held back whose side was covered.
func (d *coordinator) prunedCovered() int {
	n := 0
	for _, cs := range d.pruned {
		for _, c := range cs {
			if c.State() == explore.Covered {
				n++
			}
		}
	}
	return n
}
