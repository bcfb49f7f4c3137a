// This file minimises the inputs a run keeps once the exploration is
// over, the way go test -fuzz minimises a crasher: shorter strings and
// byte slices, integers nearer zero, false for booleans, and bytes a
// reader can read (letters, digits, space) instead of control bytes, with
// the solver finding such bytes where a checksum or a comparison ties
// them to the path. A finding's input must still fail in the same way
// (same kind, message and place), a case's must still return normally;
// both must still cover the outcomes they were first to cover (First).
// Then a final pass keeps the smallest set of cases that covers what the
// cases and findings covered (reduce).

package coordinator

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"time"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sites"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// shrinker holds one finding's search for a smaller failing input.
type shrinker struct {
	params   []rt.Param
	maxLen   int
	try      func(sym.Env) bool // reports whether the input still does what it was kept for
	deadline time.Time
	ctx      context.Context
	execs    int
	// readable, if not nil, asks the solver for a value of parameter i,
	// a string or byte slice of the length it has in vs, whose bytes are
	// readable (readableByte); ok is false when it has none.
	readable func(vs []rt.Arg, i int) (rt.Arg, bool)
	asked    map[int]bool // the parameters readable was called for: once is enough
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

// shrinkBytes removes chunks of halving size, then makes the bytes that
// stay readable.
func (s *shrinker) shrinkBytes(vs []rt.Arg, i int) bool {
	cut := s.cutBytes(vs, i)
	return s.readBytes(vs, i) || cut
}

// cutBytes removes chunks of halving size.
func (s *shrinker) cutBytes(vs []rt.Arg, i int) bool {
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

// plainBytes are the replacements tried, in order, for a byte that is not
// readable.
var plainBytes = []byte{'a', '0', ' '}

// readableByte reports whether a generated test shows c as itself in a
// string literal: printable ASCII. Letters, digits and space are what
// replacements of the others are made of (plainByte).
func readableByte(c byte) bool { return c >= ' ' && c <= '~' }

// plainByte reports whether c is a letter, a digit or a space.
func plainByte(c byte) bool {
	return c == ' ' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// readBytes replaces the unreadable bytes of parameter i by plain ones:
// one by one with plainBytes, then, for those that stay (a checksum or a
// comparison ties them to the path), all at once with the solver's
// answer. It reports whether any changed.
func (s *shrinker) readBytes(vs []rt.Arg, i int) bool {
	progress := false
	for k := 0; k < len(vs[i].Bytes); k++ {
		if readableByte(vs[i].Bytes[k]) {
			continue
		}
		for _, c := range plainBytes {
			cand := slices.Clone(vs[i].Bytes)
			cand[k] = c
			if s.accept(vs, i, rt.Arg{Bytes: cand}) {
				progress = true
				break
			}
		}
	}
	if s.readable == nil || s.asked[i] || s.out() || !slices.ContainsFunc(vs[i].Bytes, func(c byte) bool { return !readableByte(c) }) {
		return progress
	}
	// Once per parameter: its queries cost more than runs, and what the
	// path left unreadable stays so after the shrinking it allows.
	if s.asked == nil {
		s.asked = map[int]bool{}
	}
	s.asked[i] = true
	if cand, ok := s.readable(vs, i); ok && !slices.Equal(cand.Bytes, vs[i].Bytes) && s.accept(vs, i, cand) {
		progress = true
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

// covers returns the outcomes an execution took, in the order it first
// took them.
func covers(resp *rt.Response) []sites.Outcome {
	out := make([]sites.Outcome, len(resp.Hits))
	for i, h := range resp.Hits {
		out[i] = sites.Outcome(h >> 32)
	}
	return out
}

// cover records on a new finding the outcomes its execution covered
// first and all it took; f is nil when the finding was not new.
func (f *Finding) cover(first []sites.Outcome, resp *rt.Response) {
	if f != nil {
		f.First, f.Covers = first, covers(resp)
	}
}

// coversAll reports whether resp took every outcome of want.
func coversAll(resp *rt.Response, want []sites.Outcome) bool {
	if len(want) == 0 {
		return true
	}
	took := make(map[sites.Outcome]bool, len(resp.Hits))
	for _, o := range covers(resp) {
		took[o] = true
	}
	for _, o := range want {
		if !took[o] {
			return false
		}
	}
	return true
}

// minimizer runs the candidates of the minimisation on a worker of its
// own, replacing it when a candidate kills it.
type minimizer struct {
	d   *coordinator
	w   *worker
	err error // the worker could not be started: minimisation ends
	// cur is the response of the current input of the shrinker being
	// run: the path whose condition the solver keeps (readable).
	cur *rt.Response
}

// run executes env; exactly one of resp and crash is not nil unless
// m.err is set.
func (m *minimizer) run(env sym.Env) (*rt.Response, *Crash) {
	if m.err != nil {
		return nil, nil
	}
	if m.w == nil {
		if m.w, m.err = startWorker(m.d.spec()); m.err != nil {
			return nil, nil
		}
	}
	resp, crash, err := m.w.run(&rt.Request{Env: env, MaxLen: m.d.cfg.MaxLen})
	if crash != nil {
		m.w.kill()
		m.w = nil
		return nil, crash
	}
	if err != nil {
		m.err = err
		return nil, nil
	}
	return resp, nil
}

func (m *minimizer) close() {
	if m.w != nil {
		m.w.close()
	}
}

// failKey returns the finding key of a run, "" when it returned normally.
func failKey(resp *rt.Response, crash *Crash) string {
	switch {
	case crash != nil:
		return findingKey(string(crash.Kind), crash.Message, crash.Output)
	case resp == nil:
		return ""
	case resp.Status == rt.StatusPanic:
		return findingKey("panic", resp.Panic, resp.Stack)
	case resp.Status == rt.StatusFail:
		return findingKey("fail", resp.Panic, resp.Stack)
	}
	return ""
}

// shrink minimises env until deadline: keep says whether a run does what
// env was kept for. It returns the smallest input found and the response
// or the crash of its run, or ok false when env itself no longer does (a
// target that is not deterministic) or nothing smaller does.
func (m *minimizer) shrink(ctx context.Context, env sym.Env, deadline time.Time, keep func(*rt.Response, *Crash) bool) (sym.Env, *rt.Response, *Crash, bool) {
	d := m.d
	s := &shrinker{params: d.cfg.Params, maxLen: d.cfg.MaxLen, ctx: ctx, deadline: deadline}
	var curCrash *Crash
	s.try = func(env sym.Env) bool {
		resp, crash := m.run(env)
		if m.err != nil || !keep(resp, crash) {
			return false
		}
		m.cur, curCrash = resp, crash
		return true
	}
	if d.minSolver != nil {
		s.readable = func(vs []rt.Arg, i int) (rt.Arg, bool) { return m.readable(ctx, s, vs, i) }
	}
	m.cur = nil
	if s.out() || !s.try(env) {
		return env, nil, nil, false
	}
	s.execs++
	out, changed := s.shrink(env)
	d.rep.MinimizeExecs += s.execs
	return out, m.cur, curCrash, changed
}

// failedAs takes the message, stack and outcomes of resp or crash, the
// run of the finding's minimised input, so that what the finding says
// is what its input does: the finding key they share leaves out numbers
// and quoted strings, which the first failure's message had its own of.
func (f *Finding) failedAs(resp *rt.Response, crash *Crash) {
	switch {
	case crash != nil:
		f.Message, f.Stack = crash.Message, crash.Output
	case resp != nil:
		f.Message, f.Stack, f.Covers = resp.Panic, resp.Stack, covers(resp)
	}
}

// readable asks the solver for bytes of parameter i that take the path
// of the current input (m.cur) with its length, the readable bytes
// unchanged and as many of the others as it can plain or readable,
// greedily, one query per byte and preference.
func (m *minimizer) readable(ctx context.Context, s *shrinker, vs []rt.Arg, i int) (rt.Arg, bool) {
	d := m.d
	if m.cur == nil {
		return rt.Arg{}, false
	}
	dec := sym.NewDecoder(d.b)
	if err := dec.Decode(m.cur.Exprs); err != nil {
		return rt.Arg{}, false
	}
	path := slices.Clone(d.limits)
	for _, e := range m.cur.Path {
		c, err := dec.Node(e.Cond)
		if err != nil || !c.IsBool() {
			break
		}
		if !e.Taken {
			c = d.b.Not(c)
		}
		path = append(path, c)
	}
	b := d.b
	base := uint64(d.offs[i])
	cur := vs[i].Bytes
	path = append(path, b.Eq(b.Var(base, 64), b.Const(uint64(len(cur)), 64)))
	in := func(v *sym.Expr, lo, hi byte) *sym.Expr {
		return b.And(b.Cmp(sym.KULe, b.Const(uint64(lo), 8), v), b.Cmp(sym.KULe, v, b.Const(uint64(hi), 8)))
	}
	// The readable bytes stay; each unreadable one, in order, is asked to
	// be plain or else readable, and keeps the first it can be given
	// what the bytes before it were given (a byte the path fixes, such
	// as a version number, stays as it is).
	cs := path
	var soft []*sym.Expr
	for k, c := range cur {
		v := b.Var(base+1+uint64(k), 8)
		if readableByte(c) {
			cs = append(cs, b.Eq(v, b.Const(uint64(c), 8)))
			continue
		}
		plain := b.Or(b.Or(in(v, 'a', 'z'), in(v, '0', '9')), b.Or(in(v, 'A', 'Z'), b.Eq(v, b.Const(' ', 8))))
		soft = append(soft, plain, in(v, ' ', '~'))
	}
	env := s.encode(vs)
	sctx, cancel := context.WithDeadline(ctx, s.deadline)
	defer cancel()
	var model sym.Env
	for j := 0; j < len(soft) && sctx.Err() == nil; j++ {
		res, err := d.solve(sctx, solver.Query{Constraints: cs, Goal: soft[j], Seed: env})
		if err != nil || res.Status != solver.Sat {
			continue
		}
		model, cs = res.Model, append(cs, soft[j])
		if j%2 == 0 {
			j++ // plain: readable too
		}
	}
	if model == nil {
		return rt.Arg{}, false
	}
	out := slices.Clone(cur)
	for k := range out {
		if v, ok := model[base+1+uint64(k)]; ok {
			out[k] = byte(v)
		}
	}
	return rt.Arg{Bytes: out}, true
}

// minimize shrinks the input of every finding, each within
// cfg.MinimizeTime, then those of the cases, all of them together within
// one more cfg.MinimizeTime, with one worker of its own. A finding's input
// must fail the same way, a case's return normally, and both cover the
// outcomes they covered first.
func (d *coordinator) minimize(ctx context.Context) error {
	start := time.Now()
	defer func() { d.rep.MinimizeElapsed += time.Since(start) }()
	m := &minimizer{d: d}
	defer m.close()
	d.minSolver = d.cfg.Solver
	if d.pool != nil && d.pool.holdsGiven() {
		// A query of the pool, given up or stuck at the budget's end,
		// may still be using it: a stack is not safe for concurrent use.
		d.minSolver = nil
	}
	if d.minSolver == nil && d.cfg.NewSolver != nil {
		// The pool's stacks are released with the pool: the minimiser
		// makes one of its own; without it, bytes are not made readable.
		if s, rel, err := d.cfg.NewSolver(); err == nil {
			d.minSolver = s
			if rel != nil {
				defer func() {
					if !d.minAbandoned {
						rel()
					}
				}()
			}
		}
	}
	if d.cfg.Progress != nil {
		// The exploration's status lines have stopped: say what the
		// time after the budget goes to, so that it does not look like
		// a hang (67 findings took 4.5 minutes on a CSV parser).
		n := 0
		for _, f := range d.rep.Findings {
			if minimizable(f.Kind) {
				n++
			}
		}
		what := fmt.Sprintf("%d findings", n)
		if k := len(d.rep.Findings) - n; k > 0 {
			// Timeouts and memory-outs would take the whole bound per
			// try; they keep their inputs as found.
			what = fmt.Sprintf("%d of %d findings (the %d timeouts and memory-outs stay as found)", n, len(d.rep.Findings), k)
		}
		fmt.Fprintf(d.cfg.Progress, "gocolic: minimising %s and the kept cases, up to %s each (-minimizetime; 0 keeps inputs as found)\n", what, d.cfg.MinimizeTime)
	}
	for _, f := range d.rep.Findings {
		if !minimizable(f.Kind) || ctx.Err() != nil {
			continue
		}
		want := findingKey(f.Kind, f.Message, f.Stack)
		keep := func(resp *rt.Response, crash *Crash) bool {
			return failKey(resp, crash) == want && (crash != nil || coversAll(resp, f.First))
		}
		env, resp, crash, ok := m.shrink(ctx, f.Input, time.Now().Add(d.cfg.MinimizeTime), keep)
		if ok {
			f.Input, f.Minimized = env, true
			f.failedAs(resp, crash)
		}
		if m.err != nil {
			return m.err
		}
	}
	// The cases share one budget, each taking an equal part of what is
	// left, so that what a quick one leaves goes to the next.
	end := time.Now().Add(d.cfg.MinimizeTime)
	for i := range d.rep.Cases {
		if ctx.Err() != nil {
			break
		}
		c := &d.rep.Cases[i]
		keep := func(resp *rt.Response, crash *Crash) bool {
			return crash == nil && resp != nil && resp.Status == rt.StatusOK && coversAll(resp, c.First)
		}
		deadline := time.Now().Add(time.Until(end) / time.Duration(len(d.rep.Cases)-i))
		env, resp, _, ok := m.shrink(ctx, c.Input, deadline, keep)
		if ok && resp != nil {
			c.Input, c.Results, c.Covers, c.Minimized = env, resp.Results, covers(resp), true
		}
		if m.err != nil {
			return m.err
		}
	}
	return nil
}

// reduce keeps the smallest set of cases, by greedy set cover, that
// covers every outcome the cases and findings cover and every class of
// result (resultClass) the cases have, in the order they were found.
// Findings are all kept: what they cover needs no case.
func (d *coordinator) reduce() {
	covered := map[sites.Outcome]bool{}
	for _, f := range d.rep.Findings {
		for _, o := range f.Covers {
			covered[o] = true
		}
	}
	classes := map[string]bool{}
	class := make([]string, len(d.rep.Cases))
	for i, c := range d.rep.Cases {
		class[i] = resultClass(c.Results)
	}
	gain := func(i int) int {
		n := 0
		for _, o := range d.rep.Cases[i].Covers {
			if !covered[o] {
				n++
			}
		}
		if !classes[class[i]] {
			n++
		}
		return n
	}
	chosen := make([]bool, len(d.rep.Cases))
	for {
		best, most := -1, 0
		for i := range d.rep.Cases {
			if g := gain(i); !chosen[i] && g > most {
				best, most = i, g
			}
		}
		if best < 0 {
			break
		}
		chosen[best] = true
		classes[class[best]] = true
		for _, o := range d.rep.Cases[best].Covers {
			covered[o] = true
		}
	}
	kept := d.rep.Cases[:0]
	for i, c := range d.rep.Cases {
		if chosen[i] {
			kept = append(kept, c)
		}
	}
	d.rep.Cases = kept
}

var (
	quotedRE = regexp.MustCompile(`'(?:[^'\\]|\\.)*'|\\"(?:[^"\\]|\\[^"])*\\"`)
	numberRE = regexp.MustCompile(`[0-9]+`)
)

// resultClass says which results the final pass tells apart: the pinned
// literals with the numbers other than zero and what an error message
// quotes erased, so that "bad digit 'x'" and "bad digit 'y'", or 4 and 7,
// are one result, while 0 and 1, or nil and an error, are two.
func resultClass(rs []rt.Result) string {
	var out []byte
	for _, r := range rs {
		lit := "?"
		if r.Pinned {
			lit = r.Literal
			if lit != "0" {
				lit = numberRE.ReplaceAllString(quotedRE.ReplaceAllString(lit, "Q"), "N")
			}
		}
		out = append(append(out, lit...), 0)
	}
	return string(out)
}
