package coordinator

import (
	"context"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver"
)

// TestRefutedClaim injects claims that branch outcomes are unreachable
// into a run of the helper worker, whose seed takes a branch at each of
// the sites 0..63: a claim on an outcome the run covers is reported as an
// internal failure, once, and every claim is dropped; claims on outcomes
// nothing covers stand.
func TestRefutedClaim(t *testing.T) {
	far := []Claim{{Outcome: sites.OutcomeOf(999, false), By: "cfg"}, {Outcome: sites.OutcomeOf(999, true), By: "cfg"}}
	for _, tt := range []struct {
		name    string
		claims  []Claim
		refuted bool // a claimed outcome is covered
	}{
		{"no claims", nil, false},
		{"standing claims", far, false},
		{"a false claim", append([]Claim{{Outcome: sites.OutcomeOf(0, false), By: "cfg"}, {Outcome: sites.OutcomeOf(0, true), By: "cfg"}}, far...), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out syncBuffer
			cfg := runConfig(t, answering(solver.Unsat), modeBranches)
			cfg.NoSolve, cfg.Progress, cfg.Unreachable = true, &out, tt.claims
			rep := runDriver(t, context.Background(), cfg)
			if rep.Covered[0] == 0 {
				t.Fatalf("the seed covered nothing at site 0: %v", rep.Covered)
			}
			var alarms []*InternalError
			for _, ie := range rep.InternalErrors {
				if ie.Where == "prove" {
					alarms = append(alarms, ie)
				}
			}
			if !tt.refuted {
				if len(alarms) != 0 || len(rep.Unreachable) != len(tt.claims) {
					t.Errorf("alarms %+v, %d claims standing; want none and %d", alarms, len(rep.Unreachable), len(tt.claims))
				}
				return
			}
			if len(alarms) != 1 || alarms[0].Count != 1 || !strings.Contains(alarms[0].Message, "of site 0") || !strings.Contains(alarms[0].Message, `"cfg" proved it unreachable`) {
				t.Errorf("alarms %+v, want one that names site 0 and the proof", alarms)
			}
			if len(rep.Unreachable) != 0 {
				t.Errorf("claims %v stand after one was refuted", rep.Unreachable)
			}
			if n := strings.Count(out.String(), "proved it unreachable"); n != 1 {
				t.Errorf("said %d times, want once:\n%s", n, out.String())
			}
		})
	}
}

// TestRoundClaims delivers the claims of a model-checking round during a
// run (Config.Rounds): claims on outcomes nothing covers stand, with the
// run's own; a claim on an outcome the run has covered is refuted, which
// drops them all; OnCover hears of every outcome covered first.
func TestRoundClaims(t *testing.T) {
	far := []Claim{{Outcome: sites.OutcomeOf(998, false), By: "mc"}, {Outcome: sites.OutcomeOf(998, true), By: "mc"}}
	for _, tt := range []struct {
		name    string
		round   []Claim
		refuted bool
	}{
		{"standing", far, false},
		{"refuted", append([]Claim{{Outcome: sites.OutcomeOf(0, false), By: "mc"}, {Outcome: sites.OutcomeOf(0, true), By: "mc"}}, far...), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := runConfig(t, answering(solver.Unsat), modeBranches)
			rounds := make(chan []Claim, 1)
			rounds <- tt.round
			close(rounds)
			covered := sites.Coverage{}
			cfg.NoSolve, cfg.Unreachable, cfg.Rounds = true, []Claim{{Outcome: sites.OutcomeOf(999, true), By: "cfg"}}, rounds
			cfg.OnCover = func(o sites.Outcome) { covered.Add(o.Site(), o.Taken()) }
			rep := runDriver(t, context.Background(), cfg)
			if len(covered) == 0 || len(covered) != len(rep.Covered) {
				t.Errorf("OnCover heard %d sites, the run covered %d", len(covered), len(rep.Covered))
			}
			var alarms int
			for _, ie := range rep.InternalErrors {
				if ie.Where == "prove" {
					alarms++
				}
			}
			if tt.refuted {
				if alarms != 1 || len(rep.Unreachable) != 0 {
					t.Errorf("%d alarms, %d claims standing; want 1, none", alarms, len(rep.Unreachable))
				}
				return
			}
			if alarms != 0 || len(rep.Unreachable) != 1+len(tt.round) {
				t.Errorf("%d alarms, claims %v; want none, %d", alarms, rep.Unreachable, 1+len(tt.round))
			}
			// The round's claims are stamped when the run took them in.
			for _, c := range rep.Unreachable[1:] {
				if c.At <= 0 {
					t.Errorf("round claim %+v has no time", c)
				}
			}
		})
	}
}

// TestClaimsHoldCandidates runs the helper worker's 64-branch seed with
// claims on the taken side of some of its sites: their negations never
// reach the solver, the others do, and a refuted claim gives the held
// ones back.
func TestClaimsHoldCandidates(t *testing.T) {
	var ten []Claim
	for i := range uint32(10) {
		ten = append(ten, Claim{Outcome: sites.OutcomeOf(i, true), By: "mc"})
	}
	for _, tt := range []struct {
		name    string
		claims  []Claim
		queries int64
		held    int
	}{
		{"no claims", nil, 64, 0},
		{"ten claims", ten, 54, 10},
		// Site 0's false side is what the seed takes: the claims fall.
		{"a false claim", append([]Claim{{Outcome: sites.OutcomeOf(0, false), By: "mc"}}, ten...), 64, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			slv := &unsatSolver{}
			cfg := runConfig(t, slv, modeBranches)
			cfg.Unreachable = tt.claims
			rep := runDriver(t, context.Background(), cfg)
			if got := slv.calls.Load(); got != tt.queries {
				t.Errorf("%d queries, want %d", got, tt.queries)
			}
			if tt.held >= 0 && rep.Prune.Claimed != tt.held {
				t.Errorf("%d candidates held by claims, want %d", rep.Prune.Claimed, tt.held)
			}
			if tt.held < 0 && rep.Prune.Released != rep.Prune.Claimed {
				t.Errorf("%d held, %d released after the claims fell", rep.Prune.Claimed, rep.Prune.Released)
			}
		})
	}
}
