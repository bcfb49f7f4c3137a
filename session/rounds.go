// This file alternates model checking with testing (-abstraction,
// seed 002's Algorithm 3): after the round before testing (static.go),
// the model checker runs on a goroutine of its own while testing goes
// on, in rounds towards the outcomes testing has not covered yet; each
// round's closed graphs replace their functions' monitors, and its new
// claims join the run's (coordinator.Config.Rounds).

package session

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/guard"
	"github.com/gocolic/gocolic/mc"
	"github.com/gocolic/gocolic/sites"
)

// DefaultMCShare is -mc-share's default: the paper's testing took about
// four fifths of the time.
const DefaultMCShare = 0.2

// mcBudget is the model checker's time before testing: half its share
// of the budget (the other half goes to the rounds during testing), and
// 2 s when the run has no time budget.
func mcBudget(cfg Config) time.Duration {
	if cfg.Budget <= 0 {
		return 2 * time.Second
	}
	return time.Duration(float64(cfg.Budget) * cfg.MCShare / 2)
}

// mcRound is the length of one round during testing: a quarter of the
// model checker's share, so that about two rounds fit in the run's
// half; 0 when the run has no time budget (no rounds then: their
// number would depend on timing alone).
func mcRound(cfg Config) time.Duration {
	if cfg.Budget <= 0 {
		return 0
	}
	return time.Duration(float64(cfg.Budget) * cfg.MCShare / 4)
}

// coverSet is the outcomes the run has covered, shared between the
// coordinator's goroutine (OnCover) and the rounds'.
type coverSet struct {
	mu sync.Mutex
	m  map[sites.Outcome]bool
}

func (c *coverSet) add(o sites.Outcome) {
	c.mu.Lock()
	c.m[o] = true
	c.mu.Unlock()
}

func (c *coverSet) has(o sites.Outcome) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[o]
}

// rounds runs the model checker during testing.
type rounds struct {
	cfg     Config
	g       *cfa.Graph
	t       *target
	mons    *mc.Monitors
	covered *coverSet
	claims  chan []coordinator.Claim
	// have are the outcomes claimed so far.
	have map[sites.Outcome]bool
	// sum adds up every round's summary, the one before testing's
	// included; n counts the rounds during testing.
	sum  *mc.Summary
	n    int
	done chan struct{}
}

// startRounds starts the rounds for a run whose round before testing
// gave f, unless the run has no time budget or no graph; it returns nil
// then. stop ends them and waits.
func startRounds(ctx context.Context, cfg Config, t *target, f *facts) (r *rounds, stop func()) {
	period := mcRound(cfg)
	if !cfg.Abstraction || period <= 0 || f.graph == nil || f.mc == nil {
		return nil, func() {}
	}
	mons, _ := f.pruner.(*mc.Monitors)
	if mons == nil {
		mons = mc.NewMonitors(f.graph, t.ins.Sites, nil)
		f.pruner = mons
	}
	r = &rounds{cfg: cfg, g: f.graph, t: t, mons: mons, covered: &coverSet{m: map[sites.Outcome]bool{}},
		claims: make(chan []coordinator.Claim, 1), have: map[sites.Outcome]bool{}, sum: f.mc, done: make(chan struct{})}
	for _, c := range f.claims {
		r.have[c.Outcome] = true
	}
	ctx, cancel := context.WithCancel(ctx)
	go r.run(ctx, period)
	return r, func() { cancel(); <-r.done }
}

// run sleeps, then checks, in turn: each round takes period, and the
// sleep before it keeps the model checker's part of the time at the
// share.
func (r *rounds) run(ctx context.Context, period time.Duration) {
	defer close(r.done)
	defer close(r.claims)
	rest := time.Duration(float64(period) * (1 - r.cfg.MCShare) / r.cfg.MCShare)
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(rest):
		}
		if !r.round(ctx, period) {
			return
		}
	}
}

// round runs one round within budget and hands its new claims over; it
// reports whether the rounds go on (the run goes on, the checker did
// not fail).
func (r *rounds) round(ctx context.Context, budget time.Duration) bool {
	var proved []sites.Outcome
	var sum mc.Summary
	err := guard.Do("mc", func() (err error) {
		// Outcomes claimed already need no other round.
		done := func(o sites.Outcome) bool { return r.have[o] || r.covered.has(o) }
		proved, sum, err = mc.ProveUncovered(ctx, r.g, r.t.ins.Sites, done, budget, 200*time.Millisecond)
		return err
	})
	if ctx.Err() != nil {
		return false // the run ended: what the round did is cut short
	}
	r.n++
	addSummary(r.sum, sum)
	if err != nil {
		fmt.Fprintf(r.cfg.Stderr, "gocolic: model checking round %d failed (%v); the rounds stop\n", r.n, err)
		return false
	}
	r.mons.Update(sum.Graphs)
	var news []coordinator.Claim
	for _, o := range proved {
		if !r.have[o] {
			r.have[o] = true
			news = append(news, coordinator.Claim{Outcome: o, By: "mc", Round: r.n})
		}
	}
	if len(news) > 0 {
		select {
		case r.claims <- news:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// addSummary adds o's counts to s (Graphs aside: the monitors hold the
// latest).
func addSummary(s *mc.Summary, o mc.Summary) {
	s.Functions += o.Functions
	s.Goals += o.Goals
	s.Unreachable += o.Unreachable
	s.ByCalls += o.ByCalls
	s.Local += o.Local
	s.Reachable += o.Reachable
	s.Refinements += o.Refinements
	s.Predicates += o.Predicates
	s.Incomplete += o.Incomplete
	s.Skipped += o.Skipped
	s.Time += o.Time
	s.Nodes += o.Nodes
}
