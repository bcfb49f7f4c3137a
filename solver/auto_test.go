package solver_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

func TestAutoRouting(t *testing.T) {
	tm := newTerms()
	b := tm.b
	linear := tm.lt(tm.x, tm.k(9))
	nonlinear := tm.eq(b.Bin(sym.KMul, tm.x, tm.y), tm.k(12))
	call := tm.eq(b.Call(sym.FuncID("pkg.f"), 8, []*sym.Expr{tm.x}), tm.k(3))
	isMul := func(e *sym.Expr) bool { return e.Args[0].Kind == sym.KMul }
	const first = 50 * time.Millisecond

	tests := []struct {
		name          string
		goal          *sym.Expr
		primary       solver.Status
		wantPrimary   int  // queries that reached primary
		wantSecondary int  // and secondary
		wantBounded   bool // primary ran under FirstTry
		want          solver.Status
		easyFinal     bool // AutoOptions.EasyFinal
	}{
		{"linear decided by primary", linear, solver.Sat, 1, 0, false, solver.Sat, false},
		{"linear unknown falls back", linear, solver.Unknown, 1, 1, false, solver.Unsat, false},
		{"hard gets a first try", nonlinear, solver.Unsat, 1, 0, true, solver.Unsat, false},
		{"hard unknown falls back", nonlinear, solver.Unknown, 1, 1, true, solver.Unsat, false},
		{"opaque call skips primary", call, solver.Sat, 0, 1, false, solver.Unsat, false},
		{"easy final: linear unknown stays", linear, solver.Unknown, 1, 0, false, solver.Unknown, true},
		{"easy final: hard unknown falls back", nonlinear, solver.Unknown, 1, 1, true, solver.Unsat, true},
		{"easy final: opaque call skips primary", call, solver.Sat, 0, 1, false, solver.Unsat, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newScripted(tc.primary)
			s := newScripted(solver.Unsat)
			a := solver.NewAuto(p, s, solver.AutoOptions{Hard: isMul, FirstTry: first, EasyFinal: tc.easyFinal})
			r := ask(t, a, nil, tc.goal)
			if r.Status != tc.want {
				t.Errorf("status %v, want %v", r.Status, tc.want)
			}
			if len(p.allowed) != tc.wantPrimary || len(s.allowed) != tc.wantSecondary {
				t.Fatalf("primary got %d, secondary %d queries; want %d and %d",
					len(p.allowed), len(s.allowed), tc.wantPrimary, tc.wantSecondary)
			}
			if tc.wantPrimary > 0 {
				d := p.allowed[0]
				if bounded := d > 0 && d <= first; bounded != tc.wantBounded {
					t.Errorf("primary allowed %v; want bounded by FirstTry: %v", d, tc.wantBounded)
				}
			}
			if len(s.allowed) > 0 && s.allowed[0] != 0 {
				t.Errorf("secondary ran under a deadline of %v; want the caller's (none)", s.allowed[0])
			}
			if got := a.Stats().Local; got != tc.wantSecondary {
				t.Errorf("Local = %d, want %d", got, tc.wantSecondary)
			}
		})
	}
}

// scriptedCore answers the statuses of script in turn, after the delays of
// delay, and records the time each query's context allowed.
type scriptedCore struct {
	script  []solver.Status
	delay   []time.Duration
	allowed []time.Duration
}

// newScripted returns a core that answers the statuses in turn at once.
func newScripted(sts ...solver.Status) *scriptedCore {
	return &scriptedCore{script: sts, delay: make([]time.Duration, len(sts))}
}

func (c *scriptedCore) Solve(ctx context.Context, _ solver.Query) (solver.Result, error) {
	var d time.Duration
	if dl, ok := ctx.Deadline(); ok {
		d = time.Until(dl)
	}
	c.allowed = append(c.allowed, d)
	st := c.script[0]
	time.Sleep(c.delay[0])
	c.script, c.delay = c.script[1:], c.delay[1:]
	r := solver.Result{Status: st}
	if st == solver.Sat {
		r.Model = sym.Env{}
	}
	return r, nil
}

func TestAutoFirstTryAdapts(t *testing.T) {
	tm := newTerms()
	hard := tm.eq(tm.b.Bin(sym.KMul, tm.x, tm.y), tm.k(12))
	linear := tm.lt(tm.x, tm.k(9))
	const first = 1600 * time.Millisecond
	U, S := solver.Unknown, solver.Sat
	steps := []struct {
		goal *sym.Expr
		st   solver.Status
		took time.Duration // how long primary takes to answer
		want time.Duration // bound primary should get; 0 for none
	}{
		{hard, U, 0, first},
		{hard, U, 0, first / 2},
		{linear, S, 0, 0}, // linear queries neither get nor move the bound
		{hard, U, 0, first / 4},
		{hard, U, 0, first / 8},
		{hard, U, 0, first / 16},
		{hard, S, 0, first / 16},                  // the floor; a quick decision keeps it there
		{hard, S, first / 16 * 3 / 4, first / 16}, // a decision near the bound
		{hard, U, 0, first / 8},                   // doubles it
		{hard, U, 0, first / 16},
	}
	p := &scriptedCore{}
	for _, s := range steps {
		p.script = append(p.script, s.st)
		p.delay = append(p.delay, s.took)
	}
	a := solver.NewAuto(p, answering(solver.Result{Status: solver.Unsat}),
		solver.AutoOptions{Hard: func(e *sym.Expr) bool { return e.Args[0].Kind == sym.KMul }, FirstTry: first})
	for i, s := range steps {
		ask(t, a, nil, s.goal)
		got := p.allowed[i]
		// The deadline is measured after the layer set it: allow for the
		// time in between, never for more than the bound.
		if got > s.want || (s.want > 0 && got < s.want-50*time.Millisecond) || (s.want == 0 && got != 0) {
			t.Errorf("query %d: primary allowed %v, want %v", i, got, s.want)
		}
	}
}
