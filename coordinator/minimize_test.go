package coordinator

import (
	"bytes"
	"context"
	"math"
	"testing"
	"time"

	"github.com/gocolic/gocolic/rt"
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
		{"length kept", str, rt.Arg{Bytes: []byte{0xff, 1, 'a', 2, 0}}, func(v rt.Arg) bool { return len(v.Bytes) >= 3 }, rt.Arg{Bytes: []byte{'a', 2, 0}}},
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
// smallest input that fails the same way (10), and one that fails at a
// single input keeps it.
func TestRunMinimizes(t *testing.T) {
	for _, tt := range []struct {
		minimize time.Duration
		want     int64
	}{{5 * time.Second, modeNumbered}, {0, modeNumbered + 9}} {
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
		if numbered.Message != "bad value 19" {
			t.Errorf("message %q: the finding keeps its first message", numbered.Message)
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
