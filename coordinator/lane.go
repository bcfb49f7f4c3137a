// This file implements the mutation lane (issue 16): workers run batches
// of mutants of the kept inputs with symbolic tracking off, and an input
// that reaches a new branch outcome or a new hit-count bucket is kept,
// mutated in turn, and handed to the concolic lane, which traces it and
// negates its branches. The inputs the concolic lane keeps seed this lane,
// and the comparisons of its traces fill the dictionary.
//
// The run has one coverage map, the lane's: bucket entries
// (rt.BucketEntry) of every execution of either lane. Each worker keeps
// its own copy (rt/batch.go); a batch carries the entries the map gained
// since that worker's previous batch (rt.Batch.Known), so that what a
// worker reports as new is new to the run but for what other workers
// found meanwhile, which merge sorts out.
//
// The workers make the mutants: a batch names a few corpus entries, a
// seed and a count, and carries the dictionary entries its worker lacks
// (rt.Batch.DictInts), as it carries the map's. The worker answers only
// for the inputs that failed or added coverage, with the inputs; the
// coordinator neither mutates nor encodes the others. The mutants are a
// function of the batch (rt.Mutants), so the coordinator makes them again
// when a batch kills its worker, to run them one at a time.

package coordinator

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gocolic/gocolic/explore"
	"github.com/gocolic/gocolic/mutate"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// The values of Options.Lanes.
const (
	LanesBoth     = "both"     // the concolic and the mutation lane
	LanesConcolic = "concolic" // the concolic search alone, as in seed 004
	LanesMutate   = "mutate"   // the mutation lane alone: a fuzzer
)

// validLanes checks a value of Options.Lanes.
func validLanes(s string) error {
	switch s {
	case LanesBoth, LanesConcolic, LanesMutate:
		return nil
	}
	return fmt.Errorf("-lanes %q: want %s, %s or %s", s, LanesBoth, LanesConcolic, LanesMutate)
}

// maxBatch bounds the inputs of one batch: enough to spread a round
// trip's cost, few enough that a crash costs little to bisect. A
// generated batch costs the coordinator the same at any size, so the
// round trip is all there is to spread: 2048 rather than 256 ran 4–50 %
// more inputs a second on the examples' fuzz targets, the coordinator's
// CPU time a third.
const maxBatch = 2048

// maxBases bounds the corpus entries a batch's mutants derive from: a few,
// so that splicing mixes entries, and the batch stays small.
const maxBases = 4

// lane is the mutation lane's state. The coordinator's goroutine calls
// its methods, except since, dictSince and mutants, which worker
// goroutines call.
type lane struct {
	params  []rt.Param
	maxLen  int
	timeout time.Duration // of a whole batch
	dict    *mutate.Dict  // its mutations guarded by mu: workers' goroutines read it (dictSince)
	rng     *rand.Rand
	corpus  []sym.Env
	size    int // inputs of the next batch

	covered map[uint32]bool // outcomes (site<<1 | taken) of the run
	has     map[uint32]bool // bucket entries of the run
	mu      sync.Mutex      // guards log and dict
	log     []uint32        // the entries of has, in the order they came

	// Execs counts the inputs run in batches, Kept those kept.
	Execs, Kept int
	// Seeded counts the inputs the concolic lane kept and handed to the
	// corpus.
	Seeded int
	// quiet counts the batches since the lane last kept an input.
	quiet int
	// fixed sizes batches by counts alone, not by their timings, so
	// that a run of one worker is the same every time (lockstep).
	fixed bool
}

// newLane returns the lane of a run, its corpus the seeds (or the zero
// input), its dictionary dict (or an empty one).
func newLane(params []rt.Param, maxLen int, timeout time.Duration, dict *mutate.Dict, seed int64, seeds []sym.Env) *lane {
	if dict == nil {
		dict = mutate.NewDict(0)
	}
	l := &lane{
		params: params, maxLen: maxLen, timeout: timeout, dict: dict,
		rng:     rand.New(rand.NewPCG(uint64(seed), 0x6c616e65)),
		size:    32,
		covered: map[uint32]bool{},
		has:     map[uint32]bool{},
	}
	for _, s := range seeds {
		l.keep(s)
	}
	if len(l.corpus) == 0 {
		l.keep(sym.Env{})
	}
	return l
}

// keep adds an input to the corpus the lane mutates.
func (l *lane) keep(env sym.Env) {
	c := make(sym.Env, len(env))
	for k, v := range env {
		c[k] = v
	}
	l.corpus = append(l.corpus, c)
}

// add puts a bucket entry into the run's map and reports whether it was
// new; newOutcome says whether its outcome was.
func (l *lane) add(e uint32) (isNew, newOutcome bool) {
	if l.has[e] {
		return false, false
	}
	l.has[e] = true
	l.mu.Lock()
	l.log = append(l.log, e)
	l.mu.Unlock()
	o, _ := rt.SplitBucket(e)
	if !l.covered[o] {
		l.covered[o] = true
		return true, true
	}
	return true, false
}

// learn takes in a concolic execution: its hit counts join the map, its
// branch conditions the dictionary, and its input, when the concolic lane
// kept it, the corpus. It returns the number of new bucket entries.
func (l *lane) learn(env sym.Env, hits []uint64, conds []*sym.Expr, kept bool) int {
	n := 0
	for _, h := range hits {
		if isNew, _ := l.add(rt.BucketEntry(uint32(h>>32), rt.Bucket(uint32(h)))); isNew {
			n++
		}
	}
	l.mu.Lock()
	for _, c := range conds {
		l.dict.AddTerm(c) // a condition read before costs a lookup
	}
	l.mu.Unlock()
	if kept {
		l.keep(env)
		l.Seeded++
	}
	return n
}

// dry reports whether the lane has nothing to try: an entry without
// parameters has one input, which the concolic lane runs.
func (l *lane) dry() bool { return len(l.params) == 0 }

// laneBatch is one batch of the lane: generated (q.Count mutants), or of
// listed inputs (q.Inputs).
type laneBatch struct {
	// q is the batch; the worker goroutine that runs it fills in, in a
	// copy, the map and dictionary entries its worker lacks (run).
	q *rt.Batch
	// inputs are the batch's inputs when the coordinator has them: a
	// listed batch's, a generated one's made again after it killed its
	// worker.
	inputs [][]uint64
}

// size returns the number of inputs of b.
func (b *laneBatch) size() int {
	if b.q.Count > 0 {
		return b.q.Count
	}
	return len(b.q.Inputs)
}

// next makes the next batch: l.size mutants of a few random corpus
// entries, spliced with each other, drawn from the dictionary as it is.
func (l *lane) next() *laneBatch {
	q := &rt.Batch{MaxLen: l.maxLen, Count: l.size, Seed: l.rng.Uint64(),
		NInts: len(l.dict.Ints()), NToks: len(l.dict.Tokens())}
	for range min(maxBases, len(l.corpus)) {
		q.Bases = append(q.Bases, rt.DenseInput(l.corpus[l.rng.IntN(len(l.corpus))]))
	}
	return &laneBatch{q: q}
}

// mutants returns the inputs of b, making a generated batch's again.
func (l *lane) mutants(b *laneBatch) [][]uint64 {
	if b.q.Count == 0 {
		return b.q.Inputs
	}
	l.mu.Lock()
	ints, toks := l.dict.Ints()[:b.q.NInts], l.dict.Tokens()[:b.q.NToks]
	l.mu.Unlock()
	return rt.Mutants(l.params, l.maxLen, b.q.Bases, b.q.Count, b.q.Seed, ints, toks)
}

// dictSince returns the dictionary's entries from positions ints, toks on
// up to nInts, nToks, and the positions after them: what a worker that
// has the entries before ints and toks lacks for a batch that draws from
// the first nInts and nToks.
func (l *lane) dictSince(ints, toks, nInts, nToks int) ([]uint64, [][]byte, int, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var di []uint64
	var dt [][]byte
	if nInts > ints {
		di = l.dict.Ints()[ints:nInts:nInts]
		ints = nInts
	}
	if nToks > toks {
		dt = l.dict.Tokens()[toks:nToks:nToks]
		toks = nToks
	}
	return di, dt, ints, toks
}

// envOf returns an input in dense form as the input of the layout it
// spells, with no variable the layout leaves out (EncodeInput's form).
func (l *lane) envOf(dense []uint64) sym.Env {
	return rt.EncodeInput(l.params, l.maxLen, rt.DecodeDense(l.params, l.maxLen, dense))
}

// since returns the entries of the map from position pos on, and the
// position after them: what a worker that has seen log[:pos] lacks.
func (l *lane) since(pos int) ([]uint32, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]uint32(nil), l.log[pos:]...), len(l.log)
}

// laneResult is what merge makes of one input of a batch.
type laneResult struct {
	env    sym.Env
	res    rt.BatchResult
	crash  *Crash // the input killed its worker
	cover  bool   // it covered an outcome first
	bucket bool   // it reached a new bucket of an outcome already covered
}

// merge takes in a batch's results (crashes, by input, for the inputs
// that killed a worker) and returns the inputs that the coordinator must
// see, in the batch's order: the new, which the lane keeps and the
// concolic lane is to trace, and the failed.
func (l *lane) merge(b *laneBatch, resp *rt.BatchResponse, crashes map[int]*Crash) []laneResult {
	var out []laneResult
	var idx []int
	byIdx := map[int]*rt.BatchResult{}
	for i := range resp.Results {
		r := &resp.Results[i]
		byIdx[r.Index] = r
		idx = append(idx, r.Index)
	}
	for i := range crashes {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		r := laneResult{crash: crashes[i]}
		if r.crash != nil {
			r.env = l.envOf(b.inputs[i])
		} else {
			r.res = *byIdx[i]
			in := r.res.Input
			if in == nil {
				in = b.inputs[i]
			}
			r.env = l.envOf(in)
			for _, e := range r.res.Buckets {
				isNew, newOutcome := l.add(e)
				r.bucket = r.bucket || isNew
				r.cover = r.cover || newOutcome
			}
			for _, o := range r.res.Fresh {
				// An outcome comes with a bucket; this is for a worker
				// that learnt the bucket from Known but not the outcome.
				if !l.covered[o] {
					l.covered[o] = true
					r.cover = true
				}
			}
			r.bucket = r.bucket && !r.cover
		}
		if r.cover || r.bucket {
			l.keep(r.env)
			l.Kept++
		}
		if r.cover || r.bucket || r.crash != nil || r.res.Status == rt.StatusPanic || r.res.Status == rt.StatusFail {
			out = append(out, r)
		}
	}
	l.Execs += resp.Ran
	l.quiet++
	for _, r := range out {
		if r.cover || r.bucket {
			l.quiet = 0
		}
	}
	l.resize(resp, len(crashes) > 0)
	return out
}

// resize sets the size of the next batch so that a batch takes about a
// tenth of the time limit, and halves it after a crash, which costs a
// bisection of the batch.
func (l *lane) resize(resp *rt.BatchResponse, crashed bool) {
	switch {
	case crashed:
		l.size = max(1, l.size/2)
	case l.fixed:
		l.size = min(maxBatch, 2*l.size)
	case resp != nil && resp.Ran > 0 && resp.Nanos > 0:
		per := time.Duration(resp.Nanos) / time.Duration(resp.Ran)
		want := int(l.timeout / 10 / max(per, time.Microsecond))
		// Grow gradually: one fast batch does not prove the next is.
		l.size = min(maxBatch, max(1, want), 2*l.size)
	}
}

// laneWorker is a worker process as the mutation lane uses it: pos is how
// much of the lane's map (lane.log) the process has been sent, ints and
// toks how much of its dictionary. The worker goroutine that owns the
// process sets them to 0 whenever it replaces it.
type laneWorker struct {
	w          *worker
	pos        int
	ints, toks int
	start      func() (*worker, error) // starts a replacement
	// stopping, when closed, ends a bisection: the inputs not run yet
	// are dropped from the batch, which then counts only those it ran.
	stopping <-chan struct{}
}

// stopped reports whether the run is stopping.
func (lw *laneWorker) stopped() bool {
	select {
	case <-lw.stopping:
		return true
	default:
		return false
	}
}

// run runs b, filling in the map and dictionary entries its worker lacks.
// When an input kills the worker, the batch's inputs (made again, for a
// generated batch: b.inputs) are run one at a time, on fresh workers where
// needed, so that each crash has its input. It returns the response (the
// results of the inputs that did not crash, Ran counting those that did)
// and the crashes by input, or an error when no worker could run the
// batch. lw.w is alive afterwards.
func (lw *laneWorker) run(l *lane, b *laneBatch) (*rt.BatchResponse, map[int]*Crash, error) {
	q := *b.q
	q.Known, lw.pos = l.since(lw.pos)
	if q.Count > 0 {
		q.DictInts, q.DictToks, lw.ints, lw.toks = l.dictSince(lw.ints, lw.toks, q.NInts, q.NToks)
	}
	resp, crash, err := lw.w.runBatch(&q, l.timeout)
	if err != nil {
		return nil, nil, err
	}
	if crash == nil {
		return resp, nil, nil
	}
	if failedItself(crash) {
		return nil, nil, errors.New(crash.Message)
	}
	if err := lw.replace(); err != nil {
		return nil, nil, err
	}
	b.inputs = l.mutants(b)
	crashes := map[int]*Crash{}
	resp = &rt.BatchResponse{}
	for i := range b.inputs {
		if lw.stopped() {
			// Each input may take the whole time limit and a new
			// worker: at the run's end the rest are not run.
			break
		}
		one := &rt.Batch{MaxLen: b.q.MaxLen, Inputs: b.inputs[i : i+1]}
		one.Known, lw.pos = l.since(lw.pos)
		r, c, err := lw.w.runBatch(one, l.timeout)
		resp.Ran++
		switch {
		case err != nil:
			return nil, nil, err
		case c != nil && failedItself(c):
			return nil, nil, errors.New(c.Message)
		case c != nil:
			crashes[i] = c
			if err := lw.replace(); err != nil {
				return nil, nil, err
			}
		default:
			for _, res := range r.Results {
				res.Index = i
				if b.q.Count > 0 {
					res.Input = b.inputs[i] // as the batch's own answer has it
				}
				resp.Results = append(resp.Results, res)
			}
			resp.Nanos += r.Nanos
		}
	}
	return resp, crashes, nil
}

// failedItself says whether a crash is the worker's own failure
// (rt.ExitInternal), not the target's.
func failedItself(c *Crash) bool {
	return c.Kind == CrashExit && strings.HasPrefix(c.Message, "worker failed")
}

// replace kills the worker, which crashed, and starts another, whose map
// is empty.
func (lw *laneWorker) replace() error {
	lw.w.kill()
	w, err := lw.start()
	if err != nil {
		return err
	}
	lw.w, lw.pos, lw.ints, lw.toks = w, 0, 0, 0
	return nil
}

// The coordinator's side of the lane: what its loop calls.

// laneJobs adds the mutation lane's jobs to the queue of the loop, with
// inflight jobs running. The concolic lane has priority: the inputs the
// mutation lane kept, for it to trace, join the queue first, ahead of any
// batch (front), and a batch is queued only when no other job waits, so
// that it takes a worker that would otherwise idle, and one more, which
// takes the next worker to finish without a round of the loop; but not
// beside a busy solver (solving) while the concolic lane yields and the
// mutation lane has kept nothing for quietBatches batches. So the
// mutation lane has every worker the concolic lane leaves, all of them
// once the solver runs dry, and a run with it ends at its budget, never
// because the concolic search is exhausted.
//
// With one worker and one solver (lockstep), the loop waits for each
// answer while the worker runs a batch: one batch may wait in the queue
// behind the concolic lane's inputs, and "beside a busy solver" means
// while the solver still has candidates, so that what runs depends on
// counts, never on timings.
func (d *coordinator) laneJobs(queue []job, inflight int, solving bool) []job {
	queue = append(queue, d.traceLane...)
	d.traceLane = d.traceLane[:0]
	if d.lane.dry() || len(queue) > 0 && (!d.lockstep || hasBatch(queue)) {
		return queue
	}
	if d.lockstep {
		solving = !d.dry && d.pool.live() > 0
	}
	if solving && d.lane.quiet >= quietBatches && d.barren < barrenQueries {
		// The concolic lane yields and the mutation lane does not:
		// the solver gets the cores, which batches slow (the
		// coordinator's work on them shares its process).
		return queue
	}
	b := d.lane.next()
	if d.cfg.Runs > 0 {
		// Do not run past the budget of executions by a batch's size.
		b.q.Count = min(b.q.Count, max(1, d.cfg.Runs-d.rep.Execs-inflight))
	}
	return append(queue, job{batch: b})
}

// setAside keeps the path of j, an input of the mutation lane the
// concolic lane traced, out of the tree and unknown to the strategy while
// the concolic lane has candidates of its own and they yield (release):
// the concolic lane searches as if alone, the run's coverage is the
// union. The mutation lane's inputs are long and random,
// and their paths gave the solver queries far slower than those of the
// concolic lane's own short inputs (examples/header: checksum queries of
// 1-2 s against 0.2 s), which it took first, being shallower or first to
// an outcome.
func (d *coordinator) setAside(j job) {
	j.later = true
	d.aside = append(d.aside, j)
}

// quietBatches is how many batches in a row may keep nothing before the
// mutation lane yields its place beside a busy solver.
const quietBatches = 64

// barrenQueries is how many path queries in a row may cover nothing
// before the concolic lane's yield counts as spent, and the inputs set
// aside join the tree.
const barrenQueries = 32

// release queues the inputs set aside to be traced again, their paths
// joining the tree: the strategy has run dry, or its last barrenQueries
// queries covered nothing.
func (d *coordinator) release(queue []job) []job {
	queue = append(queue, d.aside...)
	d.aside = d.aside[:0]
	return queue
}

// concolicJobs counts the jobs of the queue that are not batches.
func concolicJobs(queue []job) int {
	n := 0
	for _, j := range queue {
		if j.batch == nil {
			n++
		}
	}
	return n
}

// hasBatch reports whether the queue holds a batch.
func hasBatch(queue []job) bool {
	return len(queue) > concolicJobs(queue)
}

// front moves the first job of the queue that is not a batch to its head:
// the concolic lane's inputs go before the mutation lane's batches.
func front(queue []job) {
	for i, j := range queue {
		if j.batch == nil {
			copy(queue[1:i+1], queue[:i])
			queue[0] = j
			return
		}
	}
}

// solving reports whether the loop should hand the pool another query:
// never in a replay or with the mutation lane alone. With both lanes the
// solver works whenever it has a candidate (the concolic lane's priority),
// beside the workers: the loop does not wait for a pool of one then, the
// batches using the worker time the answers leave.
func (d *coordinator) solving() bool {
	switch {
	case d.cfg.NoSolve, d.seedsLeft > 0: // an update runs every saved input first
		return false
	case d.lane == nil:
		return true
	}
	return d.cfg.Lanes == LanesBoth
}

// processBatch takes in a batch's outcome: its failures become findings,
// and the inputs with new coverage are queued for the concolic lane, whose
// run of them records the coverage and keeps them as cases with their
// results. Only inputs that cover an outcome first are traced, not those
// that only reach a new hit-count bucket: the mutation lane mutates those
// itself, and their long random paths flooded the tree with candidates
// whose queries were slow (examples/header: checksum queries of 1-2 s
// against 0.2 s on the concolic lane's own short inputs).
func (d *coordinator) processBatch(o outcome) {
	if o.lost {
		return // no executor ran it before the run stopped
	}
	d.rep.Execs += o.bresp.Ran
	d.rep.ExecTime += time.Duration(o.bresp.Nanos)
	elapsed := time.Since(d.start)
	found := 0
	for _, r := range d.lane.merge(o.job.batch, o.bresp, o.crashes) {
		n := len(d.rep.Findings)
		switch {
		case r.crash != nil:
			d.rep.Restarts++
			d.addFinding(string(r.crash.Kind), r.crash.Message, r.crash.Output, r.env, elapsed)
		case r.res.Status == rt.StatusPanic:
			d.addFinding("panic", r.res.Panic, r.res.Stack, r.env, elapsed)
		case r.res.Status == rt.StatusFail:
			d.addFinding("fail", r.res.Panic, r.res.Stack, r.env, elapsed)
		}
		if d.cfg.OnKeep != nil && len(d.rep.Findings) > n {
			d.cfg.OnKeep(r.env, true)
		}
		if r.cover {
			found++
			d.rep.Lanes.Traced++
			d.traceLane = append(d.traceLane, job{env: r.env, lane: true})
		}
	}
	d.duty.mutation.add(time.Now(), found, time.Duration(o.bresp.Nanos))
}

// freshOf returns the outcomes among hits (rt.Response.Hits) that the run
// has not covered: for an input the mutation lane kept, whose worker may
// have seen its outcomes in the batch already.
func (d *coordinator) freshOf(hits []uint64) []uint32 {
	var fresh []uint32
	for _, h := range hits {
		o := uint32(h >> 32)
		if !d.rep.Covered.Has(o>>1, o&1 == 1) {
			fresh = append(fresh, o)
		}
	}
	return fresh
}

// learnLane hands a concolic execution to the mutation lane: its hits, the
// conditions of its path, and its input when the concolic lane kept it.
func (d *coordinator) learnLane(j job, hits []uint64, path []explore.Branch, kept bool) {
	conds := make([]*sym.Expr, len(path))
	for i, b := range path {
		conds[i] = b.Cond
	}
	d.lane.learn(j.env, hits, conds, kept && !j.lane)
}

// runJob runs the batch of job j on w, the worker goroutine's current
// process, and returns the process to go on with and the outcome.
func (lw *laneWorker) runJob(l *lane, w *worker, j job) (*worker, outcome) {
	if lw.w != w {
		lw.w, lw.pos, lw.ints, lw.toks = w, 0, 0, 0 // replaced since: its map and dictionary are empty
	}
	resp, crashes, err := lw.run(l, j.batch)
	return lw.w, outcome{job: j, bresp: resp, crashes: crashes, err: err}
}
