// This file keeps the run's claims that branch outcomes are unreachable
// (Config.Unreachable) honest: a claim is a proof, and an execution that
// covers a claimed outcome shows the proof wrong. That is a bug of
// gocolic's, not of the target: it is recorded as an internal failure,
// every claim is dropped (one wrong proof makes the others suspect), and
// the run goes on.

package coordinator

import (
	"fmt"
	"time"

	"github.com/gocolic/gocolic/explore"
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
	// Round is the model-checking round that proved it: 0 before
	// testing, k for the k-th round during it (Config.Rounds).
	Round int
	// At is when the run took the claim in, from the exploration's
	// start: 0 for the claims of Config.Unreachable.
	At time.Duration
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

// addClaims takes in the claims of a model-checking round during the
// run: those not held yet join the standing ones, unless a claim was
// refuted already (then every proof is suspect, these too). A claim on
// an outcome the run has covered is refuted at once.
func (d *coordinator) addClaims(cs []Claim) {
	if d.refuted {
		return
	}
	if d.claimed == nil {
		d.claimed = map[sites.Outcome]Claim{}
	}
	at := time.Since(d.start)
	for _, c := range cs {
		if _, ok := d.claimed[c.Outcome]; ok {
			continue
		}
		c.At = at
		d.claimed[c.Outcome] = c
		d.rep.Unreachable = append(d.rep.Unreachable, c)
	}
	for _, c := range cs {
		if d.rep.Covered.Has(c.Outcome.Site(), c.Outcome.Taken()) {
			d.refute(c.Outcome, nil)
			return
		}
	}
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
	d.claimed, d.rep.Unreachable, d.refuted = nil, nil, true
	d.releaseClaimed()
	detail := fmt.Sprintf("covered by the input %v", env)
	if env == nil {
		detail = "covered before the claim was made"
	}
	if d.rep.addInternal("prove", msg, detail) && d.cfg.Progress != nil {
		fmt.Fprintf(d.cfg.Progress, "gocolic: internal error: %s\n", msg)
	}
}

// holdClaimed holds back the candidates of cs whose side a standing
// claim says no input takes: solving them could only answer unsat. A
// refuted claim gives them back (releaseClaimed).
func (d *coordinator) holdClaimed(cs []*explore.Candidate) []*explore.Candidate {
	if len(d.claimed) == 0 {
		return cs
	}
	now := cs[:0:0]
	for _, c := range cs {
		if _, ok := d.claimed[sites.OutcomeOf(c.Node.Site, c.Side)]; ok {
			d.heldClaimed = append(d.heldClaimed, c)
			d.rep.Prune.Claimed++
			continue
		}
		now = append(now, c)
	}
	return now
}

// releaseClaimed gives the candidates the claims held back to the
// strategy: the claims were dropped.
func (d *coordinator) releaseClaimed() {
	d.giveBack(d.heldClaimed)
	d.heldClaimed = nil
}
