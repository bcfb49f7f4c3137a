// This file implements the coordinator's side of the evaluator: a process
// started from the worker binary in rt.EvalMode, which evaluates terms
// with opaque calls by calling the real functions linked into it.

package coordinator

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// Evaluator evaluates terms at points in an evaluator process, started on
// first use and started again when an evaluation kills it (a function that
// crashes the process or hangs). It is safe for concurrent use; requests
// are served one at a time.
type Evaluator struct {
	sp  spec
	mu  sync.Mutex
	w   *worker
	enc *sym.Encoder
	buf []byte
	// Crashes counts evaluations that killed the process.
	crashes int
}

// NewEvaluator returns an Evaluator of the worker binary bin (run with
// args in dir, as workers run). timeout bounds one request of any number
// of points.
func NewEvaluator(bin string, args []string, dir string, timeout time.Duration) *Evaluator {
	sp := workerSpec(bin, args, dir, timeout, 0, true)
	sp.mode = rt.EvalMode
	return &Evaluator{sp: sp, enc: sym.NewEncoder()}
}

// ErrEvaluatorCrashed is the error of a request during which the evaluator
// process died or exceeded its timeout.
var ErrEvaluatorCrashed = errors.New("evaluator process crashed")

// Eval returns the values of terms at each point: out[i] holds the value
// of every term at points[i], or is nil when some opaque call has no value
// there (its function panicked).
func (e *Evaluator) Eval(ctx context.Context, terms []*sym.Expr, points []sym.Env) ([][]uint64, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if e.w == nil {
		w, err := startWorker(e.sp)
		if err != nil {
			return nil, fmt.Errorf("starting the evaluator: %w", err)
		}
		e.w = w
	}
	e.enc.Reset()
	q := &rt.EvalRequest{Roots: make([]uint64, len(terms)), Points: points}
	for i, t := range terms {
		q.Roots[i] = e.enc.Encode(t)
	}
	q.Exprs = e.enc.Bytes()
	e.buf = rt.AppendEvalRequest(e.buf[:0], q)
	msg, crash := e.w.roundTrip(e.buf)
	if crash != nil {
		e.w.kill()
		e.w = nil
		e.crashes++
		return nil, fmt.Errorf("%w: %s", ErrEvaluatorCrashed, crash.Message)
	}
	rs, err := rt.ParseEvalResults(msg)
	if err == nil && len(rs) != len(points) {
		err = fmt.Errorf("%d results for %d points", len(rs), len(points))
	}
	if err != nil {
		e.w.kill()
		e.w = nil
		return nil, fmt.Errorf("evaluator: %w", err)
	}
	out := make([][]uint64, len(rs))
	for i, r := range rs {
		if r.Err == "" {
			out[i] = r.Values
		}
	}
	return out, nil
}

// Crashes returns how many requests killed the evaluator process.
func (e *Evaluator) Crashes() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.crashes
}

// Close stops the evaluator process.
func (e *Evaluator) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.w != nil {
		e.w.close()
		e.w = nil
	}
}
