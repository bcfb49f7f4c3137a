package coordinator

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/solver/z3"
	"github.com/gocolic/gocolic/sym"
)

func TestShrink(t *testing.T) {
	str := rt.Param{Name: "s", Kind: rt.ParamBytes}
	i64 := rt.Param{Name: "n", Kind: rt.ParamInt, Width: 64, Signed: true}
	u8 := rt.Param{Name: "b", Kind: rt.ParamInt, Width: 8}
	flag := rt.Param{Name: "f", Kind: rt.ParamBool}
	f64 := rt.Param{Name: "x", Kind: rt.ParamFloat, Width: 64}
	tests := []struct {
		name  string
		param rt.Param
		start rt.Arg
		fails func(v rt.Arg) bool
		want  rt.Arg
	}{
		{"substring kept", str, rt.Arg{Bytes: []byte("aaagoooz")}, func(v rt.Arg) bool { return bytes.Contains(v.Bytes, []byte("go")) }, rt.Arg{Bytes: []byte("go")}},
		{"length kept, bytes made plain", str, rt.Arg{Bytes: []byte{0xff, 1, 'a', 2, 0}}, func(v rt.Arg) bool { return len(v.Bytes) >= 3 }, rt.Arg{Bytes: []byte("aaa")}},
		{"digit needed", str, rt.Arg{Bytes: []byte{0, 0x85, '7'}}, func(v rt.Arg) bool {
			return len(v.Bytes) == 3 && (v.Bytes[1] >= '0' && v.Bytes[1] <= '9' || v.Bytes[1] >= 0x80)
		}, rt.Arg{Bytes: []byte("a07")}},
		{"space needed", str, rt.Arg{Bytes: []byte{'=', 0}}, func(v rt.Arg) bool { return bytes.Equal(v.Bytes, []byte("= ")) || bytes.Equal(v.Bytes, []byte{'=', 0}) }, rt.Arg{Bytes: []byte("= ")}},
		{"readable byte kept", str, rt.Arg{Bytes: []byte("x=#")}, func(v rt.Arg) bool { return bytes.HasPrefix(v.Bytes, []byte("x=#")) }, rt.Arg{Bytes: []byte("x=#")}},
		{"needed byte kept", str, rt.Arg{Bytes: []byte{9, 0xff, 9}}, func(v rt.Arg) bool { return bytes.IndexByte(v.Bytes, 0xff) >= 0 }, rt.Arg{Bytes: []byte{0xff}}},
		{"negative toward zero", i64, rt.Arg{Bits: uint64(0xffff_ffff_fffe_1dc0)}, func(v rt.Arg) bool { return int64(v.Bits) <= -1000 }, rt.Arg{Bits: uint64(0xffff_ffff_ffff_fc18)}},
		{"multiple of 7", i64, rt.Arg{Bits: 700}, func(v rt.Arg) bool { return int64(v.Bits) > 0 && v.Bits%7 == 0 }, rt.Arg{Bits: 7}},
		{"exact value kept", i64, rt.Arg{Bits: 4242}, func(v rt.Arg) bool { return v.Bits == 4242 }, rt.Arg{Bits: 4242}},
		{"unsigned threshold", u8, rt.Arg{Bits: 255}, func(v rt.Arg) bool { return v.Bits >= 200 }, rt.Arg{Bits: 200}},
		{"zero", i64, rt.Arg{Bits: 99}, func(v rt.Arg) bool { return true }, rt.Arg{}},
		{"bool to false", flag, rt.Arg{Bits: 1}, func(v rt.Arg) bool { return true }, rt.Arg{}},
		{"float to zero", f64, rt.Arg{Bits: math.Float64bits(2.75)}, func(v rt.Arg) bool { return true }, rt.Arg{}},
		{"float without fraction", f64, rt.Arg{Bits: math.Float64bits(-2.75)}, func(v rt.Arg) bool { return math.Float64frombits(v.Bits) < -1 }, rt.Arg{Bits: math.Float64bits(-2)}},
		{"float kept", f64, rt.Arg{Bits: math.Float64bits(0.5)}, func(v rt.Arg) bool { return math.Float64frombits(v.Bits) == 0.5 }, rt.Arg{Bits: math.Float64bits(0.5)}},
		{"bool needed", flag, rt.Arg{Bits: 1}, func(v rt.Arg) bool { return v.Bits == 1 }, rt.Arg{Bits: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params := []rt.Param{tt.param}
			s := &shrinker{params: params, maxLen: 16, ctx: context.Background(), deadline: time.Now().Add(time.Minute)}
			s.try = func(env sym.Env) bool { return tt.fails(s.decode(env)[0]) }
			start := s.encode([]rt.Arg{tt.start})
			if !s.try(start) {
				t.Fatal("the start input does not fail")
			}
			got, changed := s.shrink(start)
			g := s.decode(got)[0]
			if g.Bits != tt.want.Bits || !bytes.Equal(g.Bytes, tt.want.Bytes) {
				t.Errorf("shrunk to %d %q, want %d %q (%d tries)", int64(g.Bits), g.Bytes, int64(tt.want.Bits), tt.want.Bytes, s.execs)
			}
			if wantChanged := tt.start.Bits != tt.want.Bits || !bytes.Equal(tt.start.Bytes, tt.want.Bytes); changed != wantChanged {
				t.Errorf("changed = %v, want %v", changed, wantChanged)
			}
			if !s.try(got) {
				t.Error("the result does not fail")
			}
		})
	}
}

// TestShrinkStopsAtDeadline checks that a deadline in the past stops the
// search before any execution.
func TestShrinkStopsAtDeadline(t *testing.T) {
	params := []rt.Param{{Name: "n", Kind: rt.ParamInt, Width: 64, Signed: true}}
	s := &shrinker{params: params, maxLen: 8, ctx: context.Background(), deadline: time.Now().Add(-time.Second)}
	s.try = func(sym.Env) bool { return true }
	if _, changed := s.shrink(sym.Env{0: 1000}); changed || s.execs != 0 {
		t.Errorf("changed %v after %d executions past the deadline", changed, s.execs)
	}
}

// TestRunMinimizes runs the coordinator on the helper worker: a finding
// whose message holds its input ("bad value 19") is minimised to the
// smallest input that fails the same way (10), and then says what that
// input's run said ("bad value 10"); one that fails at a single input
// keeps it.
func TestRunMinimizes(t *testing.T) {
	for _, tt := range []struct {
		minimize time.Duration
		want     int64
		message  string
	}{{5 * time.Second, modeNumbered, "bad value 10"}, {0, modeNumbered + 9, "bad value 19"}} {
		cfg := runConfig(t, &unsatSolver{}, modeNumbered+9, modePanic)
		cfg.MinimizeTime = tt.minimize
		// Candidates on the way down hit the helper's memory mode (5).
		cfg.MemLimitMB = 256
		rep := runDriver(t, context.Background(), cfg)
		if len(rep.Findings) != 2 {
			t.Fatalf("%d findings, want 2", len(rep.Findings))
		}
		numbered, boom := rep.Findings[0], rep.Findings[1]
		if x := int64(numbered.Input[0]); x != tt.want || numbered.Minimized != (tt.minimize > 0) {
			t.Errorf("minimize %v: input %d (minimized %v), want %d", tt.minimize, x, numbered.Minimized, tt.want)
		}
		if x := int64(boom.Input[0]); x != modePanic || boom.Minimized {
			t.Errorf("minimize %v: boom input %d (minimized %v), want %d unchanged", tt.minimize, x, boom.Minimized, modePanic)
		}
		if numbered.Message != tt.message {
			t.Errorf("minimize %v: message %q for input %d, want %q", tt.minimize, numbered.Message, int64(numbered.Input[0]), tt.message)
		}
	}
}

// TestRunInject checks that injected inputs run like seeds, that a run
// with an open Inject channel waits for more until its budget ends, and
// that closing the channel lets an exhausted run stop.
func TestRunInject(t *testing.T) {
	for _, closeIt := range []bool{true, false} {
		cfg := runConfig(t, &unsatSolver{})
		ch := make(chan sym.Env)
		cfg.Inject = ch
		cfg.Budget = 2 * time.Second
		go func() {
			ch <- input(modePanic)
			ch <- input(modeReturn)
			if closeIt {
				close(ch)
			}
		}()
		rep := runDriver(t, context.Background(), cfg)
		wantStop := "budget"
		if closeIt {
			wantStop = "exhausted"
		}
		if rep.Stopped != wantStop || rep.Injected != 2 || rep.Execs != 3 {
			t.Errorf("closed %v: stopped %q after %d executions, %d injected; want %q, 3, 2", closeIt, rep.Stopped, rep.Execs, rep.Injected, wantStop)
		}
		if len(rep.Findings) != 1 || rep.Findings[0].Message != "boom" {
			t.Errorf("closed %v: findings %v, want the injected panic", closeIt, rep.Findings)
		}
	}
}

// TestRunMinimizesCases runs the coordinator on the helper's text target
// from three seeds and checks that every case's minimised input, run
// again, still covers the outcomes the case covered first, and how far it
// shrank: the input that sums to 300 keeps its three bytes, which only
// the solver can make readable.
func TestRunMinimizesCases(t *testing.T) {
	z, err := z3.New(z3.Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	sum300 := []byte{0x96, 0x96, 0, 0, 0, 0} // 150+150+0
	tests := []struct {
		name     string
		solver   solver.Solver
		readable bool // the sum's input ends readable
	}{
		{"with the solver", z, true},
		{"runs only", &unsatSolver{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			str := rt.Param{Name: "s", Kind: rt.ParamString}
			cfg := Config{
				Bin: workerBin(t), Args: []string{"text"}, Params: []rt.Param{str}, MaxLen: 8,
				Options: Options{Workers: 1, Strategy: "cover", Timeout: 10 * time.Second, Runs: 3, MinimizeTime: 5 * time.Second},
				Solver:  tt.solver,
			}
			for _, b := range [][]byte{{}, {0, 1, 2, 3, 4}, sum300} {
				cfg.Seeds = append(cfg.Seeds, rt.EncodeInput(cfg.Params, cfg.MaxLen, []rt.Arg{{Bytes: b}}))
			}
			var progress strings.Builder
			cfg.Progress = &progress
			rep := runDriver(t, context.Background(), cfg)
			if rep.CasesFound != 3 || len(rep.Cases) != 3 {
				t.Fatalf("%d cases found, %d kept; want 3 and 3", rep.CasesFound, len(rep.Cases))
			}
			// The time after the budget is announced, not silent.
			if !strings.Contains(progress.String(), "gocolic: minimising 0 findings and the kept cases") {
				t.Errorf("progress does not announce the minimisation:\n%s", progress.String())
			}
			w, err := startWorker(spec{bin: cfg.Bin, args: cfg.Args, timeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer w.close()
			for i, c := range rep.Cases {
				resp, crash, err := w.run(&rt.Request{Env: c.Input, MaxLen: cfg.MaxLen})
				if err != nil || crash != nil {
					t.Fatalf("case %d: crash %v, error %v", i, crash, err)
				}
				if len(c.First) == 0 || !coversAll(resp, c.First) {
					t.Errorf("case %d %q no longer covers %v first covered", i, rt.DecodeInput(cfg.Params, cfg.MaxLen, c.Input)[0].Bytes, c.First)
				}
				if c.Results[0].Literal != resp.Results[0].Literal {
					t.Errorf("case %d pins %s, its input returns %s", i, c.Results[0].Literal, resp.Results[0].Literal)
				}
			}
			in := func(i int) []byte { return rt.DecodeInput(cfg.Params, cfg.MaxLen, rep.Cases[i].Input)[0].Bytes }
			if got := in(1); string(got) != "aaa" {
				t.Errorf("the input of sum != 300 shrank to %q, want \"aaa\"", got)
			}
			got := in(2)
			readable := len(got) == 3 && !slices.ContainsFunc(got, func(c byte) bool { return !plainByte(c) })
			if len(got) != 3 || int(got[0])+int(got[1])+int(got[2]) != 300 || readable != tt.readable {
				t.Errorf("the input of sum == 300 shrank to %q; want 3 bytes summing to 300, plain: %v", got, tt.readable)
			}
			if rep.MinimizeElapsed <= 0 || rep.MinimizeExecs == 0 {
				t.Errorf("minimisation took %v and %d executions, want both counted", rep.MinimizeElapsed, rep.MinimizeExecs)
			}
		})
	}
}

// TestReduce checks the final pass: it keeps, in the order found, the
// fewest cases that cover every outcome the cases cover and the findings
// do not, and every class of result.
func TestReduce(t *testing.T) {
	o := func(site uint32, taken bool) sites.Outcome { return sites.OutcomeOf(site, taken) }
	res := func(lits ...string) []rt.Result {
		var rs []rt.Result
		for _, l := range lits {
			rs = append(rs, rt.Result{Pinned: true, Literal: l})
		}
		return rs
	}
	tests := []struct {
		name     string
		cases    []Execution
		findings []*Finding
		want     []int // indices of the cases kept
	}{
		{
			name: "one case covers what two do",
			cases: []Execution{
				{Covers: []sites.Outcome{o(0, true), o(1, false)}, Results: res("4")},
				{Covers: []sites.Outcome{o(0, true)}, Results: res("5")},
				{Covers: []sites.Outcome{o(0, false)}, Results: res("0")},
				{Covers: []sites.Outcome{o(0, true), o(1, false), o(2, true)}, Results: res("7")},
			},
			want: []int{2, 3},
		},
		{
			name: "what a finding covers needs no case",
			cases: []Execution{
				{Covers: []sites.Outcome{o(0, true)}, Results: res(`""`)},
				{Covers: []sites.Outcome{o(0, true), o(3, true)}, Results: res(`""`)},
			},
			findings: []*Finding{{Covers: []sites.Outcome{o(3, true)}}},
			want:     []int{0},
		},
		{
			name: "a distinct result is kept",
			cases: []Execution{
				{Covers: []sites.Outcome{o(0, true)}, Results: res(`"bad digit 'x'"`)},
				{Covers: []sites.Outcome{o(0, true)}, Results: res(`"bad digit 'y'"`)},
				{Covers: []sites.Outcome{o(0, true)}, Results: res(`""`)},
			},
			want: []int{0, 2},
		},
		{
			name:  "no cases",
			cases: nil,
			want:  nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.cases {
				tt.cases[i].Elapsed = time.Duration(i) // tells them apart
			}
			d := &coordinator{rep: &Report{Cases: slices.Clone(tt.cases), Findings: tt.findings}}
			d.reduce()
			var got []int
			for _, c := range d.rep.Cases {
				got = append(got, int(c.Elapsed))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("kept cases %v, want %v", got, tt.want)
			}
			union := func(cs []Execution) map[sites.Outcome]bool {
				m := map[sites.Outcome]bool{}
				for _, c := range cs {
					for _, o := range c.Covers {
						m[o] = true
					}
				}
				for _, f := range tt.findings {
					for _, o := range f.Covers {
						m[o] = true
					}
				}
				return m
			}
			if all, kept := union(tt.cases), union(d.rep.Cases); len(all) != len(kept) {
				t.Errorf("the kept cases cover %d outcomes, all of them %d", len(kept), len(all))
			}
		})
	}
}

func TestResultClass(t *testing.T) {
	res := func(lits ...string) []rt.Result {
		var rs []rt.Result
		for _, l := range lits {
			rs = append(rs, rt.Result{Pinned: true, Literal: l})
		}
		return rs
	}
	tests := []struct {
		a, b []rt.Result
		same bool
	}{
		{res("4", `""`), res("65535", `""`), true},
		{res("0", `""`), res("1", `""`), false},
		{res("-3"), res("3"), false},
		{res(`"keywords: bad digit 's'"`), res(`"keywords: bad digit '\\x00'"`), true},
		{res(`"keywords: unknown key \"ab\""`), res(`"keywords: unknown key \"\""`), true},
		{res(`"keywords: unknown key \"\""`), res(`"keywords: unknown mode \"\""`), false},
		{res(`""`), res(`"eof"`), false},
		{[]rt.Result{{Pinned: false, Literal: "x"}}, []rt.Result{{Pinned: false, Literal: "y"}}, true},
	}
	for _, tt := range tests {
		if got := resultClass(tt.a) == resultClass(tt.b); got != tt.same {
			t.Errorf("resultClass(%v) == resultClass(%v) is %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}

// TestMinimizeStuckSolver minimises cases with a solver whose queries
// ignore their context: the first such query is given up once its time
// is out, counted as stuck, and the minimisation and the run end in time,
// with the cases shrunk by runs alone.
func TestMinimizeStuckSolver(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	str := rt.Param{Name: "s", Kind: rt.ParamString}
	cfg := Config{
		Bin: workerBin(t), Args: []string{"text"}, Params: []rt.Param{str}, MaxLen: 8,
		Options: Options{Workers: 1, Strategy: "cover", Timeout: 10 * time.Second, Runs: 3, MinimizeTime: 500 * time.Millisecond},
		Solver:  stuckSolver{release: release, g: newGauge(1)},
	}
	for _, b := range [][]byte{{}, {0, 1, 2, 3, 4}, {0x96, 0x96, 0, 0, 0, 0}} {
		cfg.Seeds = append(cfg.Seeds, rt.EncodeInput(cfg.Params, cfg.MaxLen, []rt.Arg{{Bytes: b}}))
	}
	begin := time.Now()
	rep := runDriver(t, context.Background(), cfg)
	// The cases' share of the minimisation, the grace given the stuck
	// query, and room for the runs of a loaded machine.
	if el, limit := time.Since(begin), 2*cfg.MinimizeTime+shutdownGrace+5*time.Second; el > limit {
		t.Errorf("the run took %v, want at most %v", el, limit)
	}
	if rep.Stuck.Queries != 1 {
		t.Errorf("%d queries given up as stuck, want 1 (the first; no other is asked of its solver)", rep.Stuck.Queries)
	}
	if len(rep.Cases) != 3 {
		t.Fatalf("%d cases, want 3", len(rep.Cases))
	}
	if got := rt.DecodeInput(cfg.Params, cfg.MaxLen, rep.Cases[1].Input)[0].Bytes; string(got) != "aaa" {
		t.Errorf("the input of sum != 300 shrank to %q, want \"aaa\" (runs alone)", got)
	}
}

// TestFailedAs checks what a minimised finding takes from the run of its
// input: a panic's or failure's message, stack and outcomes, a crash's
// message and output.
func TestFailedAs(t *testing.T) {
	first := Finding{Kind: "panic", Message: "bad value 19", Stack: "stack 19", Covers: []sites.Outcome{1, 2, 3}}
	tests := []struct {
		name  string
		resp  *rt.Response
		crash *Crash
		want  Finding
	}{
		{
			"panic",
			&rt.Response{Status: rt.StatusPanic, Panic: "bad value 10", Stack: "stack 10", Hits: []uint64{2 << 32}},
			nil,
			Finding{Kind: "panic", Message: "bad value 10", Stack: "stack 10", Covers: []sites.Outcome{2}},
		},
		{
			"crash",
			nil,
			&Crash{Kind: CrashExit, Message: "exit status 5 at 10", Output: "output 10"},
			Finding{Kind: "panic", Message: "exit status 5 at 10", Stack: "output 10", Covers: []sites.Outcome{1, 2, 3}},
		},
		{"no run", nil, nil, first},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := first
			f.failedAs(tt.resp, tt.crash)
			if f.Message != tt.want.Message || f.Stack != tt.want.Stack || !slices.Equal(f.Covers, tt.want.Covers) {
				t.Errorf("got %q, %q, %v; want %q, %q, %v", f.Message, f.Stack, f.Covers, tt.want.Message, tt.want.Stack, tt.want.Covers)
			}
		})
	}
}
