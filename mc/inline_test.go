package mc

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gocolic/gocolic/mc/internal/inl"
	"github.com/gocolic/gocolic/mc/internal/prog"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// loadInl returns package internal/inl.
func loadInl(t testing.TB) *absPkg { return loadHere(t, "internal", "inl") }

// inlining is what Prove gives its encoders.
func inlining(p *absPkg, depth int) Inlining {
	in := map[*ssa.Function]bool{}
	for _, f := range p.g.Funcs() {
		in[f] = true
	}
	return Inlining{Depth: depth, Allow: func(f *ssa.Function) bool { return in[f] }}
}

// native runs a function of internal/inl natively on random inputs
// (pointers that alias half of the time) and returns its result: 1 when
// it took the outcome the tests ask about.
var native = map[string]func(r *rand.Rand) int{
	"StoreLoad": func(r *rand.Rand) int { return inl.StoreLoad(&inl.Box{}, r.IntN(1000)-500) },
	"Aliased": func(r *rand.Rand) int {
		a, b := &inl.Box{}, &inl.Box{}
		if r.IntN(2) == 0 {
			b = a
		}
		return inl.Aliased(a, b, r.IntN(1000)-500)
	},
	"Typed": func(r *rand.Rand) int {
		a, c := &inl.Box{}, &inl.Box{}
		if r.IntN(2) == 0 {
			c = a
		}
		return inl.Typed(a, c, r.IntN(1000)-500)
	},
	"PtrAlias": func(r *rand.Rand) int {
		a := &inl.Box{}
		p := new(int)
		if r.IntN(2) == 0 {
			p = &a.V
		}
		return inl.PtrAlias(a, p, r.IntN(1000)-500)
	},
	"Bumped": func(r *rand.Rand) int { return inl.Bumped(&inl.Box{V: r.IntN(10)}) },
	"Global": func(r *rand.Rand) int { return inl.Global(r.IntN(1000) - 500) },
}

// nativeHits reports whether some of 2000 random native runs of fn take
// the outcome.
func nativeHits(fn string) bool {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		if native[fn](r) == 1 {
			return true
		}
	}
	return false
}

// TestCheckMemory checks the verdicts on loads of stored values: a value
// written through a pointer, a field or a global and read back is known
// (the goal that it changed is unreachable), unless a store of the same
// type through another pointer may have changed it; a callee inlined
// keeps what it writes. Each claim is checked against native runs, and
// each row that expects no claim has native runs that take the goal.
func TestCheckMemory(t *testing.T) {
	p := loadInl(t)
	for _, tc := range []struct {
		fn, text string
		depth    int
		want     Status // Unreachable, or Unknown for "not claimed"
		// reachable: native runs take the goal (an alias).
		reachable bool
	}{
		{"StoreLoad", "b.V != x", 0, Unreachable, false},
		{"Aliased", "a.V != x", 0, Unknown, true},
		{"Typed", "a.V != x", 0, Unreachable, false},
		{"PtrAlias", "a.V != x", 0, Unknown, true},
		{"Bumped", "b.V != 1", 0, Unknown, false}, // inc is havoc: it may write anything
		{"Bumped", "b.V != 1", DefaultInlineDepth, Unreachable, false},
		{"Global", "counter != x", 0, Unreachable, false},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			gl := p.goal(t, tc.fn, tc.text, true)
			enc := NewEncoder(sym.NewBuilder(), p.fns[tc.fn])
			enc.Inline = inlining(p, tc.depth)
			res, err := Check(context.Background(), p.g, enc, newZ3(t), []Goal{gl}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			v := res.Verdicts[gl]
			if got := v.Status == Unreachable; got != (tc.want == Unreachable) {
				t.Errorf("depth %d: %v (%s), want %v", tc.depth, v.Status, v.Why, tc.want)
			}
			if hit := nativeHits(tc.fn); hit != tc.reachable {
				t.Errorf("native runs take the goal: %v, the row says %v", hit, tc.reachable)
			}
		})
	}
}

// TestProveAtCalls checks the claims on goals of callees decided at their
// calls: sign's negative side, which its one caller never passes, is
// proved unreachable there (and only with inlining), and so is the same
// goal of meter's method below; half's, reached from one of its two
// calls, is not; neg's is not either, since neg's value escapes and
// anything may call it, nor are the methods' whose receiver is converted
// to an interface that calls them (sbelow) or whose method value escapes
// (vbelow).
func TestProveAtCalls(t *testing.T) {
	p := loadInl(t)
	out, sum, err := Prove(context.Background(), p.g, p.table, 30*time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		fn    string
		taken bool
		want  bool // claimed
	}{
		{"sign", true, true},
		{"sign", false, false},
		{"half", true, false},
		{"half", false, false},
		{"neg", true, false},
		{"neg", false, false},
		{"below", true, true},
		{"below", false, false},
		{"sbelow", true, false},
		{"vbelow", true, false},
	} {
		gl := p.goal(t, tc.fn, "x < 0", tc.taken)
		if got := slices.Contains(out, sites.OutcomeOf(gl.Site, gl.Taken)); got != tc.want {
			t.Errorf("%s x < 0 %v: claimed %v, want %v", tc.fn, tc.taken, got, tc.want)
		}
	}
	if sum.ByCalls < 1 {
		t.Errorf("ByCalls %d, want at least sign's goal", sum.ByCalls)
	}
	// Natively: Pos never takes sign's goal, Two takes half's, and Neg,
	// the escaping value, takes neg's.
	for x := range 256 {
		if inl.Pos(uint8(x)) != 0 {
			t.Fatalf("Pos(%d) took sign's negative side", x)
		}
	}
	for x := range 256 {
		if inl.MeterPos(uint8(x)) != 0 {
			t.Fatalf("MeterPos(%d) took below's negative side", x)
		}
	}
	if inl.Via(-1) != 1 || inl.VBelow(-1) != 1 {
		t.Errorf("native runs: Via and VBelow should reach the methods' goals the test expects unclaimed")
	}
	if inl.Two(3) < 2 || inl.Neg(-1) != 1 {
		t.Errorf("native runs: Two and Neg should reach the goals the test expects unclaimed")
	}
}

// TestInlineDepth checks the bound: without inlining, sign's goal is not
// decided at its call (the call is havoc); with it, it is.
func TestInlineDepth(t *testing.T) {
	p := loadInl(t)
	gl := p.goal(t, "sign", "x < 0", true)
	for _, depth := range []int{0, 1} {
		enc := NewEncoder(sym.NewBuilder(), p.fns["Pos"])
		enc.Inline = inlining(p, depth)
		res, err := Check(context.Background(), p.g, enc, newZ3(t), []Goal{gl}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var sts []Status
		for cg, v := range res.AtCalls {
			if cg.Goal == gl {
				sts = append(sts, v.Status)
			}
		}
		want := []Status{Unreachable}
		if depth == 0 {
			want = nil
		}
		if !slices.Equal(sts, want) {
			t.Errorf("depth %d: verdicts at calls %v, want %v", depth, sts, want)
		}
	}
}

// TestInlinedPathsSat runs Calls natively and walks its SSA form with
// its helpers inlined (several returns, two results, a phi, a helper
// calling another twice, a division that panics): the path's conditions
// hold on the inputs, need no havoc, and force the native results; on
// inputs that make a helper panic the path's formula is unsat.
func TestInlinedPathsSat(t *testing.T) {
	fns := progFuncs(t)
	s := newZ3(t)
	all := func(f *ssa.Function) bool { return fns[f.Name()] == f }
	for _, tc := range []struct {
		x, y   int16
		panics bool
	}{
		{7, 2, false}, {-300, 3, false}, {300, -1, false}, {-5, 7, false}, {100, 1, false}, {-128, -1, false}, {4, 0, true},
	} {
		b := sym.NewBuilder()
		enc := NewEncoder(b, fns["Calls"])
		enc.Inline = Inlining{Depth: DefaultInlineDepth, Allow: all}
		env := sym.Env{0: uint64(uint16(tc.x)), 1: uint64(uint16(tc.y))}
		fixed := []*sym.Expr{b.Eq(enc.Param(0), b.Const(env[0], 16)), b.Eq(enc.Param(1), b.Const(env[1], 16))}
		p, _ := run(t, enc, env)
		if len(p.Havoc) != 0 {
			t.Errorf("%v: havoc %v with every helper inlined", tc, p.Havoc)
		}
		cs := append(p.Conds[:len(p.Conds):len(p.Conds)], fixed...)
		if tc.panics {
			if st := status(t, s, cs, b.Bool(true)); st != solver.Unsat {
				t.Errorf("%v: a path through a panicking helper is %s, want unsat", tc, st)
			}
			continue
		}
		for i, c := range p.Conds {
			if !sym.Holds(c, env) {
				t.Errorf("%v: condition %d (%v) is false on the inputs", tc, i, c)
			}
		}
		want := uint64(prog.Calls(tc.x, tc.y))
		r := p.Results[0]
		if got := sym.Eval(r, env); got != want {
			t.Errorf("%v: result %d, the native run returned %d", tc, got, want)
		}
		if st := status(t, s, cs, b.Not(b.Eq(r, b.Const(want, r.Width)))); st != solver.Unsat {
			t.Errorf("%v: other results are %s, want unsat", tc, st)
		}
	}
}

// loadSeed returns a program of bench/abstraction/corpus (seed 002's
// examples in Go).
func loadSeed(t testing.TB, name string) *absPkg {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return loadPkg(t, filepath.Join(filepath.Dir(filepath.Dir(file)), "bench", "abstraction", "corpus", name))
}

// TestSeedPrograms checks stage 2 on seed 002's programs: unreach's
// unreachable goal (classify's r < 0, whose one caller keeps the largest
// of five counts, never negative) is proved at its call and claimed, and
// its other side is not; simplewhile's goal, 30 turns deep, is given up
// after MaxUnroll loop refinements instead of unrolling the loop until
// the time bound, so that the graph closes and gives a monitor.
func TestSeedPrograms(t *testing.T) {
	p := loadSeed(t, "unreach")
	out, sum, err := Prove(context.Background(), p.g, p.table, 30*time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	neg, pos := p.goal(t, "classify", "r < 0", true), p.goal(t, "classify", "r < 0", false)
	if !slices.Contains(out, sites.OutcomeOf(neg.Site, true)) || slices.Contains(out, sites.OutcomeOf(pos.Site, false)) {
		t.Errorf("unreach: claimed %v, want classify's r < 0 true side and not its false side", out)
	}
	if sum.ByCalls != 1 {
		t.Errorf("unreach: %d goals proved at calls, want 1", sum.ByCalls)
	}

	p = loadSeed(t, "simplewhile")
	gl := p.goal(t, "Goal", "set", false)
	enc := NewEncoder(sym.NewBuilder(), p.fns["Goal"])
	enc.Inline = inlining(p, DefaultInlineDepth)
	res, err := Check(context.Background(), p.g, enc, newZ3(t), []Goal{gl}, Options{Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if res.ARG == nil || res.Verdicts[gl].Status != Unknown {
		t.Errorf("simplewhile: graph closed %v (%q), verdict %v (%s); want a closed graph and the goal given up",
			res.ARG != nil, res.Incomplete, res.Verdicts[gl].Status, res.Verdicts[gl].Why)
	}
}
