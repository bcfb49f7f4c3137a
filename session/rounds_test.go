package session

import (
	"context"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/mc"
	"github.com/gocolic/gocolic/sites"
)

// TestRounds checks the model checker's rounds during testing on the
// model checker's test package: with no time before testing nothing is
// claimed or monitored, a round then proves Flagged's x < 3 and gives
// Flagged a monitor, a second round claims nothing twice, and a run
// without a time budget has no rounds.
func TestRounds(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(filepath.Dir(file)), "mc", "testdata", "abs")
	pkg, err := load.Load(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Dir, cfg.Stdlib, cfg.Stderr, cfg.Abstraction, cfg.Prove = dir, false, io.Discard, true, false
	cfg.Budget = time.Nanosecond // no time before testing
	tg, err := instrumentTarget(cfg, pkg, instrument.Config{Entry: "Flagged", Markers: true})
	if err != nil {
		t.Fatal(err)
	}
	f := staticFacts(cfg, tg)
	if f.err != nil || f.graph == nil || f.mc == nil {
		t.Fatalf("facts: graph %v, summary %v, error %v", f.graph, f.mc, f.err)
	}
	if len(f.claims) != 0 || f.pruner != nil {
		t.Fatalf("with no time: claims %v, pruner %v", f.claims, f.pruner)
	}
	cfg.Budget = time.Hour // its first round would come much later
	if r, stop := startRounds(context.Background(), cfg, tg, &f); r == nil {
		t.Fatal("no rounds with a budget")
	} else {
		stop() // before its first round
		if _, ok := <-r.claims; ok || r.n != 0 {
			t.Errorf("a round ran: %d", r.n)
		}
	}
	r := &rounds{cfg: cfg, g: f.graph, t: tg, mons: f.pruner.(*mc.Monitors),
		covered: &coverSet{m: map[sites.Outcome]bool{}}, claims: make(chan []coordinator.Claim, 2), have: map[sites.Outcome]bool{}, sum: f.mc}
	// Testing has covered the other functions' outcomes: the rounds
	// check Flagged alone.
	for _, s := range tg.ins.Sites {
		if !strings.HasSuffix(s.Func, "Flagged") {
			r.covered.add(sites.OutcomeOf(s.ID, true))
			r.covered.add(sites.OutcomeOf(s.ID, false))
		}
	}
	for i, want := range []bool{true, false} {
		if !r.round(context.Background(), 30*time.Second) {
			t.Fatalf("round %d stopped the rounds", i)
		}
		var got []coordinator.Claim
		select {
		case got = <-r.claims:
		default:
		}
		found := false
		for _, c := range got {
			s := siteOf(tg.ins.Sites, c.Outcome.Site())
			found = found || s.Text == "x < 3" && strings.HasSuffix(s.Func, "Flagged") && c.Outcome.Taken()
			if c.Round != i+1 || c.By != "mc" {
				t.Errorf("round %d: claim %+v, want by mc in round %d", i+1, c, i+1)
			}
		}
		if found != want {
			t.Errorf("round %d: claims %v, want Flagged's x < 3: %t", i, got, want)
		}
	}
	if r.mons.Len() != 1 || r.n != 2 || f.mc.Functions != 2 {
		t.Errorf("%d monitors, %d rounds, %d functions checked; want 1, 2, 2", r.mons.Len(), r.n, f.mc.Functions)
	}
	cfg.Budget = 0
	if r, _ := startRounds(context.Background(), cfg, tg, &f); r != nil {
		t.Error("rounds without a time budget")
	}
}

// siteOf returns the site id of table.
func siteOf(table []sites.Site, id uint32) sites.Site {
	for _, s := range table {
		if s.ID == id {
			return s
		}
	}
	return sites.Site{}
}
