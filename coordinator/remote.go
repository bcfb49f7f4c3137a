// This file lets a run's executions run outside the coordinator's
// process: Remote is how a run hands an input, or a batch of the
// mutation lane, to executors elsewhere (package dist, over NATS), and
// Executor is what such an executor runs, the worker goroutine's own
// code (execer, laneWorker).

package coordinator

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/gocolic/gocolic/mutate"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// Remote runs a run's inputs on executors outside the coordinator's
// process. Exec blocks until an executor reports what env did, Batch
// until one reports what the mutation lane's batch q did (q holds the
// whole map and the dictionary the batch draws from: any executor may
// take it); each returns ErrLost when ctx ends first (the run stopped
// and no executor reported in time), and any other error ends the run.
type Remote interface {
	Exec(ctx context.Context, env sym.Env) (Executed, error)
	Batch(ctx context.Context, q *rt.Batch) (BatchDone, error)
}

// BatchDone is what a batch of the mutation lane did on an executor:
// the results of the inputs that did not crash (Resp.Ran counts them
// all), and the crashes by the input's index in the batch.
type BatchDone struct {
	Resp    *rt.BatchResponse
	Crashes map[int]*Crash
}

// ErrLost is Remote.Exec's error for an input no executor ran before the
// run stopped: the input is dropped, as if never sent.
var ErrLost = errors.New("input not run before the run stopped")

// Executed is what one input did on an executor.
type Executed struct {
	Resp  *rt.Response // the response (nil when the execution crashed)
	Crash *Crash       // the execution killed its worker
	// Slow: the tracked execution timed out or panicked in gocolic's
	// runtime, and Resp is its run without tracking; Fault is the
	// runtime's panic, if that was it.
	Slow  bool
	Fault *rt.Response
	// Retried: the tracked execution timed out, and Resp is its second
	// tracked run within the longer limit.
	Retried bool
}

// ExecSpec is what an executor needs to run a run's inputs as the run's
// own workers would: the worker binary and how to start it, and the
// settings of a request.
type ExecSpec struct {
	Bin        string        `json:"-"` // the worker binary (each executor has its own copy)
	Args       []string      `json:"args,omitempty"`
	Dir        string        `json:"-"` // the directory the worker runs in ("": the executor's)
	Timeout    time.Duration `json:"timeout"`
	MemLimitMB int           `json:"memlimit_mb,omitempty"`
	Opaque     bool          `json:"opaque,omitempty"`
	MaxLen     int           `json:"maxlen"`
	Trace      bool          `json:"trace,omitempty"`
	// Params are the target's parameters, which the mutation lane's
	// batches are made for.
	Params []rt.Param `json:"params,omitempty"`
}

// ExecSpec returns the executors' spec of a run with config cfg; Trace
// is set when the run prunes with monitors (Config.Pruner).
func (cfg *Config) ExecSpec() ExecSpec {
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultOptions().Timeout
	}
	return ExecSpec{Bin: cfg.Bin, Args: cfg.Args, Dir: cfg.Dir, Timeout: timeout, MemLimitMB: cfg.MemLimitMB,
		Opaque: cfg.Opaque, MaxLen: cfg.MaxLen, Trace: cfg.Pruner != nil, Params: cfg.Params}
}

// Executor runs inputs on one worker process of its own, replacing it
// when the target kills it, as a worker goroutine of a run does. It is
// not safe for concurrent use.
type Executor struct {
	x      *execer
	w      *worker
	lw     *laneWorker // the mutation lane's batches on w
	params []rt.Param
}

// NewExecutor starts an executor's worker process.
func NewExecutor(sp ExecSpec) (*Executor, error) {
	x := &execer{sp: workerSpec(sp.Bin, sp.Args, sp.Dir, sp.Timeout, uint64(sp.MemLimitMB)<<20, sp.Opaque),
		maxLen: sp.MaxLen, trace: sp.Trace, timeout: sp.Timeout, slowMisses: new(atomic.Int32)}
	// Its run's stop is not known here: stopping stays nil, and the
	// item's end bounds a second try instead.
	e := &Executor{x: x, params: sp.Params}
	w, err := startWorker(x.sp)
	if err != nil {
		return nil, err
	}
	e.w = w
	e.lw = &laneWorker{w: w, start: func() (*worker, error) { return startWorker(x.sp) }}
	return e, nil
}

// RunBatch runs a batch of the mutation lane, made by Remote.Batch: its
// Known is the coordinator's whole map and its DictInts and DictToks
// the dictionary's first NInts and NToks entries. The worker is sent
// what it lacks of them, as a worker goroutine's is (laneWorker), and an
// input that kills it is found by running the batch's inputs one at a
// time, unless end (when not zero: the run's budget's end) has passed:
// the inputs left are then dropped, as a run's own workers drop them
// once it stops. An error means the executor cannot go on.
func (e *Executor) RunBatch(q *rt.Batch, end time.Time) (BatchDone, error) {
	if e.w == nil {
		return BatchDone{}, errors.New("executor closed")
	}
	e.lw.stopping = nil
	if !end.IsZero() {
		stop := make(chan struct{})
		t := time.AfterFunc(time.Until(end), func() { close(stop) })
		defer t.Stop()
		e.lw.stopping = stop
	}
	l := &lane{params: e.params, maxLen: q.MaxLen, timeout: e.x.timeout, dict: mutate.DictOf(q.DictInts, q.DictToks), log: q.Known}
	b := *q
	b.Known, b.DictInts, b.DictToks = nil, nil, nil
	w, o := e.lw.runJob(l, e.w, job{batch: &laneBatch{q: &b}})
	e.w = w
	if o.err != nil {
		return BatchDone{}, o.err
	}
	return BatchDone{Resp: o.bresp, Crashes: o.crashes}, nil
}

// Run executes env; end, when not zero, is when the run's budget ends
// (a second, longer try of a slow execution that cannot end before it is
// not started). An error means the executor cannot go on: its worker
// failed, or no replacement started; Close it.
func (e *Executor) Run(env sym.Env, end time.Time) (Executed, error) {
	if e.w == nil {
		return Executed{}, errors.New("executor closed")
	}
	e.x.end = end
	w, o := e.x.exec(e.w, job{env: env})
	e.w = w
	if o.err != nil {
		return Executed{}, o.err
	}
	return Executed{Resp: o.resp, Crash: o.crash, Slow: o.slow, Fault: o.fault, Retried: o.retried}, nil
}

// Close stops the executor's worker process.
func (e *Executor) Close() {
	if e.w != nil {
		e.w.close()
		e.w = nil
	}
}

// remoteLoop runs jobs through cfg.Remote, one at a time: the run keeps
// as many inputs out as it has such loops (Workers). Each waits for its
// result until lost ends (lostContext).
func (d *coordinator) remoteLoop(ctx, lost context.Context, jobs <-chan job, results chan<- outcome) {
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-jobs:
			o := d.remoteJob(lost, j)
			results <- o
			if o.err != nil {
				return
			}
		}
	}
}

// remoteJob runs job j, an input or a batch, through cfg.Remote.
func (d *coordinator) remoteJob(lost context.Context, j job) outcome {
	failed := func(err error) outcome {
		if errors.Is(err, ErrLost) {
			return outcome{job: j, lost: true}
		}
		return outcome{job: j, err: err}
	}
	if j.batch != nil {
		done, err := d.cfg.Remote.Batch(lost, d.fullBatch(j.batch))
		if err != nil {
			return failed(err)
		}
		if len(done.Crashes) > 0 {
			// merge takes a crash's input from the batch itself, as
			// after a local bisection.
			j.batch.inputs = d.lane.mutants(j.batch)
		}
		return outcome{job: j, bresp: done.Resp, crashes: done.Crashes}
	}
	ex, err := d.cfg.Remote.Exec(lost, j.env)
	if err != nil {
		return failed(err)
	}
	return outcome{job: j, resp: ex.Resp, crash: ex.Crash, slow: ex.Slow, fault: ex.Fault, retried: ex.Retried}
}

// fullBatch returns batch b as an executor of any state can run it: with
// the whole map of the run and the dictionary's entries the batch draws
// from.
func (d *coordinator) fullBatch(b *laneBatch) *rt.Batch {
	q := *b.q
	q.Known, _ = d.lane.since(0)
	if q.Count > 0 {
		q.DictInts, q.DictToks, _, _ = d.lane.dictSince(0, 0, q.NInts, q.NToks)
	}
	return &q
}

// lostContext returns the context the remote loops wait in: it ends
// lostAfter once the run stops, so that an input no executor reports by
// then is dropped; cancel releases it.
func (d *coordinator) lostContext() (ctx context.Context, cancel context.CancelFunc) {
	ctx, cancel = context.WithCancel(context.Background())
	go func() {
		select {
		case <-d.stopping:
			t := time.NewTimer(d.lostAfter())
			defer t.Stop()
			select {
			case <-t.C:
				cancel()
			case <-ctx.Done():
			}
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// lostAfter is how long, once the run stops, it waits for an input out
// with a remote executor: an execution that started takes at most its
// time limit twice (a timeout, then the run without tracking), plus the
// messages' way.
func (d *coordinator) lostAfter() time.Duration {
	return 2*d.cfg.Timeout + 5*time.Second
}
