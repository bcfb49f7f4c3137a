// This file keeps the run's claims that branch outcomes are unreachable
// (Config.Unreachable) honest: a claim is a proof, and an execution that
// covers a claimed outcome shows the proof wrong. That is a bug of
// gocolic's, not of the target: it is recorded as an internal failure,
// every claim is dropped (one wrong proof makes the others suspect), and
// the run goes on.

package coordinator

import (
	"fmt"

	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/sym"
)

// Claim is a branch outcome proved unreachable, and by what.
type Claim struct {
	Outcome sites.Outcome
	// By names the proof: "cfg" for the control-flow and call graphs
	// before the run (cfa.Graph.Unreachable), "mc" for the model checker
	// (mc.Prove).
	By string
}

// claims takes in the claims of the run's configuration.
func (d *coordinator) claims(cs []Claim) {
	if len(cs) == 0 {
		return
	}
	d.claimed = make(map[sites.Outcome]Claim, len(cs))
	for _, c := range cs {
		d.claimed[c.Outcome] = c
	}
	d.rep.Unreachable = append([]Claim(nil), cs...)
}

// refute checks a newly covered outcome against the claims: covering a
// claimed one, with input env, drops them all and records the failure.
func (d *coordinator) refute(o sites.Outcome, env sym.Env) {
	c, ok := d.claimed[o]
	if !ok {
		return
	}
	where := fmt.Sprintf("site %d", o.Site())
	for _, s := range d.cfg.Sites {
		if s.ID == o.Site() {
			where = fmt.Sprintf("site %d at %s (%s)", s.ID, s.Pos, s.Text)
			break
		}
	}
	msg := fmt.Sprintf("branch outcome %t of %s was covered after %q proved it unreachable; the %d claims are dropped", o.Taken(), where, c.By, len(d.claimed))
	d.claimed, d.rep.Unreachable = nil, nil
	if d.rep.addInternal("prove", msg, fmt.Sprintf("covered by the input %v", env)) && d.cfg.Progress != nil {
		fmt.Fprintf(d.cfg.Progress, "gocolic: internal error: %s\n", msg)
	}
}
