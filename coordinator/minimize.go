// This file minimises the inputs of findings once the exploration is over,
// the way go test -fuzz minimises a crasher: shorter strings and byte
// slices, integers nearer zero, false for booleans, as long as the input
// still fails in the same way (same kind, message and place).

package coordinator

import (
	"context"
	"math"
	"time"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// shrinker holds one finding's search for a smaller failing input.
type shrinker struct {
	params   []rt.Param
	maxLen   int
	try      func(sym.Env) bool // reports whether the input fails the same way
	deadline time.Time
	ctx      context.Context
	execs    int
}

func (s *shrinker) decode(env sym.Env) []rt.Arg { return rt.DecodeInput(s.params, s.maxLen, env) }

func (s *shrinker) encode(vs []rt.Arg) sym.Env { return rt.EncodeInput(s.params, s.maxLen, vs) }

func (s *shrinker) out() bool {
	return s.ctx.Err() != nil || time.Now().After(s.deadline)
}

// accept runs a candidate; on success it becomes the current input.
func (s *shrinker) accept(vs []rt.Arg, i int, cand rt.Arg) bool {
	if s.out() {
		return false
	}
	old := vs[i]
	vs[i] = cand
	s.execs++
	if s.try(s.encode(vs)) {
		return true
	}
	vs[i] = old
	return false
}

// shrink returns the smallest failing input it finds from env and whether
// it differs from env.
func (s *shrinker) shrink(env sym.Env) (sym.Env, bool) {
	vs := s.decode(env)
	changed := false
	for progress := true; progress && !s.out(); {
		progress = false
		for i, p := range s.params {
			switch p.Kind {
			case rt.ParamString, rt.ParamBytes:
				progress = s.shrinkBytes(vs, i) || progress
			case rt.ParamBool:
				if vs[i].Bits != 0 && s.accept(vs, i, rt.Arg{}) {
					progress = true
				}
			case rt.ParamFloat:
				progress = s.shrinkFloat(vs, i, p) || progress
			default:
				progress = s.shrinkInt(vs, i, p) || progress
			}
		}
		changed = changed || progress
	}
	if !changed {
		return env, false
	}
	return s.encode(vs), true
}

// shrinkBytes removes chunks of halving size. The bytes that stay keep
// their values: any replacement would be a choice of taste, not smaller.
func (s *shrinker) shrinkBytes(vs []rt.Arg, i int) bool {
	progress := false
	if len(vs[i].Bytes) > 0 && s.accept(vs, i, rt.Arg{Bytes: []byte{}}) {
		return true
	}
	for chunk := len(vs[i].Bytes) / 2; chunk >= 1; chunk /= 2 {
		for start := 0; start+chunk <= len(vs[i].Bytes); {
			b := vs[i].Bytes
			cand := append(append([]byte{}, b[:start]...), b[start+chunk:]...)
			if s.accept(vs, i, rt.Arg{Bytes: cand}) {
				progress = true
				continue // the same start now holds the next chunk
			}
			start += chunk
		}
	}
	return progress
}

// shrinkFloat tries zero, then the value without its fraction: floats
// have no order of bits worth walking.
func (s *shrinker) shrinkFloat(vs []rt.Arg, i int, p rt.Param) bool {
	v := vs[i].Bits
	if v == 0 {
		return false
	}
	if s.accept(vs, i, rt.Arg{}) {
		return true
	}
	var t uint64
	if p.Width == 32 {
		t = uint64(math.Float32bits(float32(math.Trunc(float64(math.Float32frombits(uint32(v)))))))
	} else {
		t = math.Float64bits(math.Trunc(math.Float64frombits(v)))
	}
	return t != v && s.accept(vs, i, rt.Arg{Bits: t})
}

// shrinkInt moves an integer toward zero: zero itself, then steps of
// halving size from the current value.
func (s *shrinker) shrinkInt(vs []rt.Arg, i int, p rt.Param) bool {
	v := vs[i].Bits
	if v == 0 {
		return false
	}
	if s.accept(vs, i, rt.Arg{}) {
		return true
	}
	mask := sym.Mask(p.Width)
	neg := p.Signed && sym.SignExtend(v, p.Width) < 0
	mag := v
	if neg {
		mag = -v & mask
	}
	toBits := func(m uint64) uint64 {
		if neg {
			return -m & mask
		}
		return m
	}
	progress := false
	for step := mag / 2; step > 0 && !s.out(); {
		if s.accept(vs, i, rt.Arg{Bits: toBits(mag - step)}) {
			mag -= step
			progress = true
			step = min(step, mag/2)
			if step == 0 && mag > 0 {
				step = 1
			}
			continue
		}
		step /= 2
	}
	return progress
}

// minimizable reports whether a finding's kind is worth minimising: the
// kinds that fail fast. A timeout costs a whole execution limit per try.
func minimizable(kind string) bool {
	return kind != string(CrashTimeout) && kind != string(CrashMemory)
}

// minimize shrinks the input of every finding, each within
// cfg.MinimizeTime, with one worker of its own.
func (d *coordinator) minimize(ctx context.Context) error {
	var todo []*Finding
	for _, f := range d.rep.Findings {
		if minimizable(f.Kind) {
			todo = append(todo, f)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	w, err := startWorker(d.spec())
	if err != nil {
		return err
	}
	defer func() { w.close() }()
	var werr error
	// key runs env and returns the key of its failure, "" when it passes.
	key := func(env sym.Env) string {
		resp, crash, err := w.run(&rt.Request{Env: env, MaxLen: d.cfg.MaxLen})
		if crash != nil {
			w.kill()
			nw, serr := startWorker(d.spec())
			if serr != nil {
				werr = serr
				return ""
			}
			w = nw
			return findingKey(string(crash.Kind), crash.Message, crash.Output)
		}
		if err != nil {
			werr = err
			return ""
		}
		switch resp.Status {
		case rt.StatusPanic:
			return findingKey("panic", resp.Panic, resp.Stack)
		case rt.StatusFail:
			return findingKey("fail", resp.Panic, resp.Stack)
		}
		return ""
	}
	for _, f := range todo {
		want := findingKey(f.Kind, f.Message, f.Stack)
		s := &shrinker{
			params: d.cfg.Params, maxLen: d.cfg.MaxLen, ctx: ctx,
			deadline: time.Now().Add(d.cfg.MinimizeTime),
			try:      func(env sym.Env) bool { return werr == nil && key(env) == want },
		}
		if env, ok := s.shrink(f.Input); ok {
			f.Input = env
			f.Minimized = true
		}
		d.rep.MinimizeExecs += s.execs
		if werr != nil {
			return werr
		}
	}
	return nil
}
