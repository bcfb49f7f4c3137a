package coordinator

import (
	"context"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/gocolic/gocolic/mutate"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

var laneParams = []rt.Param{{Name: "x", Kind: rt.ParamInt, Width: 64, Signed: true}}

func testLane() *lane {
	return newLane(laneParams, 8, time.Second, nil, 1, nil)
}

// batchOf returns a batch of the given inputs of x.
func batchOf(xs ...int64) *laneBatch {
	b := &laneBatch{q: &rt.Batch{MaxLen: 8}}
	for _, x := range xs {
		b.q.Inputs = append(b.q.Inputs, rt.DenseInput(input(x)))
	}
	b.inputs = b.q.Inputs
	return b
}

// TestLaneMerge checks what merge makes of a batch's results: an input
// with a new outcome or bucket is kept and returned, one with nothing new
// only counted, a failure returned whether or not it is new, and the map
// gains the new entries in order.
func TestLaneMerge(t *testing.T) {
	l := testLane()
	e := func(o, b uint32) uint32 { return rt.BucketEntry(o, b) }
	b := batchOf(1, 2, 3, 4, 5, 6, 7)
	resp := &rt.BatchResponse{Ran: 7, Results: []rt.BatchResult{
		{Index: 0, Fresh: []uint32{4}, Buckets: []uint32{e(4, 0)}}, // a new outcome
		{Index: 1, Buckets: []uint32{e(4, 0)}},                     // another worker's find, again
		{Index: 2, Buckets: []uint32{e(4, 2)}},                     // a new bucket only
		// input 3 (x=4): nothing new, no result
		{Index: 4, Status: rt.StatusPanic, Panic: "boom"}, // a failure, nothing new
		// input 6 (x=7) of a generated batch: its input comes with it
		{Index: 6, Fresh: []uint32{8}, Buckets: []uint32{e(8, 0)}, Input: rt.DenseInput(input(70))},
	}}
	crashes := map[int]*Crash{5: {Kind: CrashExit, Message: "exit status 3"}}
	got := l.merge(b, resp, crashes)
	type summary struct {
		x             uint64
		cover, bucket bool
		crash         bool
		status        rt.Status
	}
	var sums []summary
	for _, r := range got {
		sums = append(sums, summary{r.env[0], r.cover, r.bucket, r.crash != nil, r.res.Status})
	}
	want := []summary{
		{x: 1, cover: true},
		{x: 3, bucket: true},
		{x: 5, status: rt.StatusPanic},
		{x: 6, crash: true},
		{x: 70, cover: true},
	}
	if !reflect.DeepEqual(sums, want) {
		t.Errorf("merge returned %+v, want %+v", sums, want)
	}
	if l.Execs != 7 || l.Kept != 3 || len(l.corpus) != 4 { // the zero input and the three kept
		t.Errorf("execs %d kept %d corpus %d; want 7, 3, 4", l.Execs, l.Kept, len(l.corpus))
	}
	if log, pos := l.since(0); !slices.Equal(log, []uint32{e(4, 0), e(4, 2), e(8, 0)}) || pos != 3 {
		t.Errorf("map %v at %d, want [%d %d %d] at 3", log, pos, e(4, 0), e(4, 2), e(8, 0))
	}
	if log, _ := l.since(1); !slices.Equal(log, []uint32{e(4, 2), e(8, 0)}) {
		t.Errorf("since(1) = %v", log)
	}
}

// TestLaneLearn checks what the lane takes from a concolic execution: its
// hit counts as buckets of the map, the constants of its conditions as
// dictionary entries, and its input when the concolic lane kept it.
func TestLaneLearn(t *testing.T) {
	d := mutate.NewDict(0)
	l := newLane(laneParams, 8, time.Second, d, 1, nil)
	b := sym.NewBuilder()
	cond := b.Eq(b.Var(0, 64), b.Const(0xBEEF, 64))
	hits := []uint64{uint64(6)<<32 | 1, uint64(7)<<32 | 20}
	if n := l.learn(input(9), hits, []*sym.Expr{cond}, true); n != 2 {
		t.Errorf("learn found %d new entries, want 2", n)
	}
	if log, _ := l.since(0); !slices.Equal(log, []uint32{rt.BucketEntry(6, 0), rt.BucketEntry(7, 5)}) {
		t.Errorf("map %v", log)
	}
	if !slices.Contains(d.Ints(), 0xBEEF) {
		t.Errorf("dictionary %v lacks the compared constant", d.Ints())
	}
	if len(l.corpus) != 2 || l.corpus[1][0] != 9 {
		t.Errorf("corpus %v, want the zero input and x=9", l.corpus)
	}
	if n := l.learn(input(10), hits, nil, false); n != 0 || len(l.corpus) != 2 {
		t.Errorf("learning the same hits again: %d new, corpus %d", n, len(l.corpus))
	}
}

// TestLaneDictSince checks the dictionary entries a batch carries to its
// worker: those past what the worker has, up to what the batch draws
// from, and none when the worker has them all; the positions advance to
// the batch's view.
func TestLaneDictSince(t *testing.T) {
	d := mutate.NewDict(0)
	for _, v := range []uint64{10, 20, 30} {
		d.AddInt(v, 8) // 8 bits: integers only, no tokens
	}
	d.AddBytes([]byte("a"))
	d.AddBytes([]byte("b"))
	l := newLane(laneParams, 8, time.Second, d, 1, nil)
	tests := []struct {
		name                 string
		ints, toks           int // what the worker has
		nInts, nToks         int // what the batch draws from
		wantInts             []uint64
		wantToks             []string
		wantIntPos, wantTokP int
	}{
		{"a new worker gets the batch's view", 0, 0, 2, 1, []uint64{10, 20}, []string{"a"}, 2, 1},
		{"the rest, up to the view", 2, 1, 3, 2, []uint64{30}, []string{"b"}, 3, 2},
		{"nothing when the worker has it all", 3, 2, 3, 2, nil, nil, 3, 2},
		{"nothing for a batch made earlier", 3, 2, 1, 1, nil, nil, 3, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ints, toks, pi, pt := l.dictSince(tt.ints, tt.toks, tt.nInts, tt.nToks)
			var got []string
			for _, b := range toks {
				got = append(got, string(b))
			}
			if !slices.Equal(ints, tt.wantInts) || !slices.Equal(got, tt.wantToks) || pi != tt.wantIntPos || pt != tt.wantTokP {
				t.Errorf("got %v %q at %d, %d; want %v %q at %d, %d", ints, got, pi, pt, tt.wantInts, tt.wantToks, tt.wantIntPos, tt.wantTokP)
			}
		})
	}
}

// TestLaneNextDeterministic checks that a lane's batches depend on its seed
// alone and have the lane's size.
func TestLaneNextDeterministic(t *testing.T) {
	mk := func(seed int64) [][]uint64 {
		l := newLane(laneParams, 8, time.Second, nil, seed, []sym.Env{input(5), input(1000)})
		return append(l.mutants(l.next()), l.mutants(l.next())...)
	}
	a, b, c := mk(3), mk(3), mk(4)
	if len(a) != 64 {
		t.Errorf("two batches of %d inputs, want 2 of 32", len(a))
	}
	if !reflect.DeepEqual(a, b) || reflect.DeepEqual(a, c) {
		t.Errorf("batches do not follow the seed (same seed equal: %v, other seed equal: %v)", reflect.DeepEqual(a, b), reflect.DeepEqual(a, c))
	}
}

// TestLaneResize checks the batch size: about a tenth of the time limit
// per batch, growing at most twofold, halving after a crash.
func TestLaneResize(t *testing.T) {
	tests := []struct {
		name    string
		size    int
		nanos   time.Duration // per input
		crashed bool
		want    int
	}{
		{"fast grows twofold", 32, time.Microsecond, false, 64},
		{"fast stops at the bound", maxBatch - 10, time.Microsecond, false, maxBatch},
		{"slow shrinks to a tenth of the limit", 64, 10 * time.Millisecond, false, 10},
		{"very slow runs one at a time", 64, 2 * time.Second, false, 1},
		{"a crash halves", 64, time.Microsecond, true, 32},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := testLane()
			l.size = tt.size
			resp := &rt.BatchResponse{Ran: 10, Nanos: uint64(10 * tt.nanos)}
			l.resize(resp, tt.crashed)
			if l.size != tt.want {
				t.Errorf("size %d, want %d", l.size, tt.want)
			}
		})
	}
}

// TestLaneJobsPriority checks the scheduling of the lanes: the inputs the
// mutation lane kept join the queue for the concolic lane to trace; a
// batch is queued only when no other job waits, and never by a lane
// without inputs to mutate; and front hands out the concolic lane's
// inputs before any batch, in their order.
func TestLaneJobsPriority(t *testing.T) {
	concolic := func(x int64) job { return job{env: input(x)} }
	kinds := func(q []job) string {
		s := ""
		for _, j := range q {
			switch {
			case j.batch != nil:
				s += "B"
			case j.lane:
				s += "T"
			default:
				s += "C"
			}
		}
		return s
	}
	tests := []struct {
		name   string
		params []rt.Param
		queue  []job
		traced int
		quiet  int    // batches since the lane kept an input
		busy   bool   // the solver is working
		want   string // the queue after laneJobs, then front
	}{
		{"idle workers get a batch", laneParams, nil, 0, 0, true, "B"},
		{"a waiting concolic input gets no batch beside it", laneParams, []job{concolic(1)}, 0, 0, false, "C"},
		{"traced inputs join the queue, no batch", laneParams, nil, 2, 0, false, "TT"},
		{"a concolic input goes before a batch queued earlier", laneParams, []job{{batch: batchOf(1)}, concolic(2)}, 0, 0, false, "CB"},
		{"a lane without inputs has no batches", nil, nil, 0, 0, false, ""},
		{"a quiet lane leaves a busy solver the cores", laneParams, nil, 0, quietBatches, true, ""},
		{"a quiet lane takes an idle solver's", laneParams, nil, 0, quietBatches, false, "B"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &coordinator{cfg: Config{Options: Options{Workers: 2, Lanes: LanesBoth}}, rep: &Report{}}
			d.lane = newLane(tt.params, 8, time.Second, nil, 1, nil)
			d.lane.quiet = tt.quiet
			for i := range tt.traced {
				d.traceLane = append(d.traceLane, job{env: input(int64(i)), lane: true})
			}
			q := d.laneJobs(append([]job(nil), tt.queue...), 1, tt.busy)
			if len(q) > 0 {
				front(q)
			}
			if got := kinds(q); got != tt.want {
				t.Errorf("queue %s, want %s", got, tt.want)
			}
			if len(d.traceLane) != 0 {
				t.Errorf("%d traced inputs left behind", len(d.traceLane))
			}
		})
	}
	// front keeps the order of the others.
	q := []job{{batch: batchOf(1)}, {batch: batchOf(2)}, concolic(3), concolic(4)}
	front(q)
	if q[0].env[0] != 3 || q[1].batch.q.Inputs[0][0] != 1 || q[2].batch.q.Inputs[0][0] != 2 || q[3].env[0] != 4 {
		t.Errorf("front reordered the rest: %s", kinds(q))
	}
}

// TestLaneWorker runs batches on the helper worker: results per input,
// the map kept in sync (a second batch of the same inputs finds nothing
// new), and an input that kills the worker found by running the batch's
// inputs one at a time, with the worker replaced.
func TestLaneWorker(t *testing.T) {
	l := testLane()
	sp := spec{bin: workerBin(t), timeout: 10 * time.Second}
	w, err := startWorker(sp)
	if err != nil {
		t.Fatal(err)
	}
	lw := &laneWorker{w: w, start: func() (*worker, error) { return startWorker(sp) }}
	t.Cleanup(func() { lw.w.kill() })

	b := batchOf(modeBranches, 1005, modePanic, modeReturn)
	resp, crashes, err := lw.run(l, b)
	if err != nil || crashes != nil {
		t.Fatalf("crashes %v, error %v", crashes, err)
	}
	got := l.merge(b, resp, crashes)
	if len(got) != 3 || got[0].env[0] != modeBranches || !got[0].cover || got[1].env[0] != 1005 || !got[1].cover || got[2].res.Panic != "boom" {
		t.Errorf("first batch: %+v", got)
	}

	// The same inputs on a second worker, which learns the map from Known.
	w2, err := startWorker(sp)
	if err != nil {
		t.Fatal(err)
	}
	lw2 := &laneWorker{w: w2, start: lw.start}
	t.Cleanup(func() { lw2.w.kill() })
	b = batchOf(modeBranches, 1005)
	resp, _, err = lw2.run(l, b)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Ran != 2 || len(resp.Results) != 0 {
		t.Errorf("the second worker ran %d inputs and reports %+v as new", resp.Ran, resp.Results)
	}

	first := lw.w
	b = batchOf(modeBranches, modeExit, 1010)
	resp, crashes, err = lw.run(l, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(crashes) != 1 || crashes[1] == nil || crashes[1].Kind != CrashExit {
		t.Fatalf("crashes %+v, want input 1's exit", crashes)
	}
	if lw.w == first {
		t.Error("the crashed worker was not replaced")
	}
	got = l.merge(b, resp, crashes)
	if len(got) != 2 || got[0].crash == nil || !got[1].cover || got[1].env[0] != 1010 {
		t.Errorf("batch with a crash: %+v", got)
	}
}

// TestLaneWorkerGenerated runs a generated batch whose mutants include
// inputs that kill the worker (x == modeExit, which the dictionary holds):
// the coordinator makes the batch's mutants again and runs them one at a
// time, each crash is found with its input, and the other inputs' results
// come with the inputs the worker made, which are the coordinator's.
// exitingBatch returns the next batch of l whose mutants exit, not first
// and without hanging, allocating or overflowing the stack (modes 3 to
// 9, which would cost the test time), the indexes of the exiting ones,
// and the batch's mutants as the worker makes them from dictionary d.
func exitingBatch(t *testing.T, l *lane, d *mutate.Dict) (b *laneBatch, exits []int, want [][]uint64) {
	t.Helper()
	for range 200 {
		b, exits = l.next(), nil
		want = rt.Mutants(laneParams, 8, b.q.Bases, b.q.Count, b.q.Seed, d.Ints()[:b.q.NInts], d.Tokens()[:b.q.NToks])
		bad := false
		for i, in := range want {
			x := int64(in[0])
			bad = bad || x >= modeFatal && x < modeNumbered
			if x == modeExit {
				exits = append(exits, i)
			}
		}
		if !bad && len(exits) > 0 && exits[0] > 0 {
			return b, exits, want
		}
	}
	t.Fatal("no batch of 200 has a mutant that exits: the test checks nothing")
	return nil, nil, nil
}

func TestLaneWorkerGenerated(t *testing.T) {
	d := mutate.NewDict(0)
	d.AddInt(modeExit, 64)
	l := newLane(laneParams, 8, 10*time.Second, d, 1, []sym.Env{input(modeBranches)})
	l.size = 32
	b, exits, want := exitingBatch(t, l, d)

	sp := spec{bin: workerBin(t), timeout: 10 * time.Second}
	w, err := startWorker(sp)
	if err != nil {
		t.Fatal(err)
	}
	lw := &laneWorker{w: w, start: func() (*worker, error) { return startWorker(sp) }}
	t.Cleanup(func() { lw.w.kill() })
	resp, crashes, err := lw.run(l, b)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Ran != b.size() {
		t.Errorf("%d inputs ran, want %d", resp.Ran, b.size())
	}
	var got []int
	for i, c := range crashes {
		got = append(got, i)
		if c.Kind != CrashExit {
			t.Errorf("input %d: crash %s, want an exit", i, c.Kind)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, exits) {
		t.Errorf("crashes at %v, want at the exiting mutants %v", got, exits)
	}
	for _, r := range resp.Results {
		if !slices.Equal(r.Input, want[r.Index]) {
			t.Errorf("input %d: result for %v, the mutant is %v", r.Index, r.Input, want[r.Index])
		}
	}
	n := 0
	for _, r := range l.merge(b, resp, crashes) {
		if r.crash != nil {
			n++
			if r.env[0] != modeExit {
				t.Errorf("a crash reported with input %v", r.env)
			}
		}
	}
	if n != len(exits) {
		t.Errorf("merge reports %d crashes, want %d", n, len(exits))
	}
	if l.Execs != b.size() {
		t.Errorf("the lane counts %d executions, want %d", l.Execs, b.size())
	}
}

// TestRunLanes runs the helper target with each choice of lanes and a
// solver that refutes every query. The concolic search alone stops,
// exhausted, after the seed; with the mutation lane the run goes on to its
// budget, covers outcomes of the branches x == 1000+i that the seed did
// not, and keeps the inputs that did as cases, traced by the concolic lane
// with their results.
func TestRunLanes(t *testing.T) {
	tests := []struct {
		lanes       string
		wantStopped string
		moreCover   bool // true sides beyond the seed's one
	}{
		{LanesConcolic, "exhausted", false},
		{LanesMutate, "runs", true},
		{LanesBoth, "runs", true},
	}
	for _, tt := range tests {
		t.Run(tt.lanes, func(t *testing.T) {
			cfg := runConfig(t, &unsatSolver{}, 1000)
			cfg.Lanes, cfg.Runs, cfg.Timeout, cfg.MemLimitMB = tt.lanes, 400, 300*time.Millisecond, 128
			rep := runDriver(t, context.Background(), cfg)
			trues := 0
			for site := uint32(0); site < 64; site++ {
				if rep.Covered.Has(site, true) {
					trues++
				}
			}
			if rep.Stopped != tt.wantStopped {
				t.Errorf("stopped %q after %d executions, want %q", rep.Stopped, rep.Execs, tt.wantStopped)
			}
			if got := trues > 1; got != tt.moreCover {
				t.Errorf("%d true outcomes covered; want more than the seed's one: %v", trues, tt.moreCover)
			}
			// The refuting solver leaves the concolic search the seed's
			// path; more paths are inputs of the mutation lane it traced.
			if got := rep.Paths > 1; got != tt.moreCover {
				t.Errorf("%d paths in the tree; want more than the seed's: %v", rep.Paths, tt.moreCover)
			}
			if tt.moreCover && len(rep.Cases) < trues {
				t.Errorf("%d cases for %d true outcomes: the lane's inputs were not kept", len(rep.Cases), trues)
			}
			for _, c := range rep.Cases {
				if len(c.Results) == 0 && int64(c.Input[0]) >= 1000 {
					t.Errorf("case x=%d has no results", int64(c.Input[0]))
				}
			}
			// The coordinator's CPU time is that of this run alone:
			// not zero, and within what the run's wall time allows on
			// the machine's CPUs (the earlier tests' time is not in it).
			if maxCPU := rep.Elapsed*time.Duration(runtime.NumCPU()) + 50*time.Millisecond; rep.CPU <= 0 || rep.CPU > maxCPU {
				t.Errorf("CPU %v, want within (0, %v]", rep.CPU, maxCPU)
			}
		})
	}
}

// TestLaneWorkerStopsBisecting runs a batch of inputs that all hang once
// the run is stopping: the batch times out as a whole, and the bisection
// that would give each input its own time limit and worker is not
// started, so the batch counts no input and the run's end is not held.
func TestLaneWorkerStopsBisecting(t *testing.T) {
	l := testLane()
	l.timeout = 300 * time.Millisecond
	sp := spec{bin: workerBin(t), timeout: l.timeout}
	w, err := startWorker(sp)
	if err != nil {
		t.Fatal(err)
	}
	stopping := make(chan struct{})
	close(stopping)
	lw := &laneWorker{w: w, start: func() (*worker, error) { return startWorker(sp) }, stopping: stopping}
	t.Cleanup(func() { lw.w.kill() })
	b := batchOf(modeHang, modeHang, modeHang, modeHang, modeHang, modeHang)
	begin := time.Now()
	resp, crashes, err := lw.run(l, b)
	if err != nil {
		t.Fatal(err)
	}
	// One batch's time limit and the start of a replacement worker; each
	// bisected input would add a time limit and a start.
	if el := time.Since(begin); el > 2*l.timeout+time.Second {
		t.Errorf("the batch took %v after the run stopped", el)
	}
	if resp.Ran != 0 || len(resp.Results) != 0 || len(crashes) != 0 {
		t.Errorf("%d inputs ran, %d results, %d crashes; want none run", resp.Ran, len(resp.Results), len(crashes))
	}
}
