package dist

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/gocolic/gocolic/coordinator"
)

// serve runs n executors on run r's items until the run ends (its streams
// are removed: nil) or ctx does (nil), or an executor cannot go on (its
// error). spec's Bin and Dir are this machine's.
//
// With solve set, the executors also answer the run's queries, each with
// a solver stack of its own (solve.go).
func serve(ctx context.Context, js jetstream.JetStream, r run, spec coordinator.ExecSpec, solve *SolveSpec, n int) error {
	cons, err := js.Consumer(ctx, r.workStream(), executors)
	if err != nil {
		if ended(err) {
			return nil
		}
		return fmt.Errorf("run %s: joining its executors: %w", r.id, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sv *solving
			if solve != nil {
				sv = &solving{spec: solve, seed: uint64(i) + 1}
				defer sv.close()
			}
			if err := execute(ctx, js, r, cons, spec, sv); err != nil {
				errs <- err
				cancel()
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// ended reports whether err says the run's resources are gone.
func ended(err error) bool {
	return errors.Is(err, jetstream.ErrStreamNotFound) || errors.Is(err, jetstream.ErrConsumerNotFound) ||
		errors.Is(err, jetstream.ErrConsumerDeleted)
}

// execute is one executor: it takes items one at a time, runs each on
// its worker process, publishes the result with the item's id, and only
// then acknowledges the item, so that an executor killed mid-item costs
// the item's time and nothing else (the server gives it to another after
// ackWait). While an item runs it tells the server it is in progress.
func execute(ctx context.Context, js jetstream.JetStream, r run, cons jetstream.Consumer, spec coordinator.ExecSpec, sv *solving) error {
	ex, err := coordinator.NewExecutor(spec)
	if err != nil {
		return fmt.Errorf("run %s: starting a worker: %w", r.id, err)
	}
	defer func() { ex.Close() }()
	beat := defaultAckWait / 3
	if w := cons.CachedInfo().Config.AckWait; w > 0 {
		beat = w / 3
	}
	heard := time.Now() // the last time the server answered
	for ctx.Err() == nil {
		m, err := cons.Next(jetstream.FetchMaxWait(time.Second))
		if err != nil {
			switch g := gone(ctx, js, r); {
			case g == nil:
				return nil // the run ended
			case !errors.Is(g, errUnreachable):
				heard = time.Now()
			case time.Since(heard) > lostServer:
				return fmt.Errorf("run %s: no answer from the NATS server for %v", r.id, lostServer)
			}
			if !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, jetstream.ErrNoMessages) {
				// A reconnecting client or a restarting server:
				// try again.
				select {
				case <-ctx.Done():
				case <-time.After(500 * time.Millisecond):
				}
			}
			continue
		}
		heard = time.Now()
		stop := heartbeat(m, beat)
		out, err := runItem(ctx, r, m, ex, sv, spec)
		stop()
		if err != nil {
			// Left for an executor that can run it; this one stops.
			m.Nak()
			return fmt.Errorf("run %s: %w", r.id, err)
		}
		// The item is acknowledged once the server has stored its
		// result; until then (and if it never does) it can come back,
		// to this executor or another. The next item need not wait.
		f, err := js.PublishMsgAsync(out, jetstream.WithMsgID(m.Headers().Get(hdrItem)))
		if err != nil {
			m.Nak()
			continue
		}
		go ackOnStored(m, f)
	}
	return nil
}

// runItem runs item m, an input, a batch of the mutation lane or a
// query, and returns the message of its result; an error means the
// executor cannot go on (a message it cannot read, a worker that
// failed, a query when it does not solve).
func runItem(ctx context.Context, r run, m jetstream.Msg, ex *coordinator.Executor, sv *solving, spec coordinator.ExecSpec) (*nats.Msg, error) {
	h := m.Headers()
	if err := checkFormat(h); err != nil {
		return nil, err
	}
	id := h.Get(hdrItem)
	switch h.Get(hdrKind) {
	case kindSolve:
		if sv == nil {
			return nil, errors.New("a query, but the run's executors do not solve")
		}
		res, err := sv.answer(ctx, spec, m.Data())
		return encodeAnswer(r.resultSubject(), id, res, err), nil
	case kindBatch:
		q, end, err := decodeBatch(h, m.Data())
		if err != nil {
			return nil, err
		}
		done, err := ex.RunBatch(q, untilOf(end))
		if err != nil {
			return nil, err
		}
		return encodeBatchDone(r.resultSubject(), id, done), nil
	}
	it, err := decodeItem(h, m.Data())
	if err != nil {
		return nil, err
	}
	res, err := ex.Run(it.env, untilOf(it.end))
	if err != nil {
		return nil, err
	}
	return encodeResult(r.resultSubject(), it.id, res), nil
}

// untilOf returns the time of end, Unix nanoseconds, zero for 0 (no
// time budget).
func untilOf(end int64) time.Time {
	if end == 0 {
		return time.Time{}
	}
	return time.Unix(0, end)
}

// ackOnStored acknowledges item m once its result f is stored, and gives
// it back when it is not.
func ackOnStored(m jetstream.Msg, f jetstream.PubAckFuture) {
	select {
	case <-f.Ok():
		m.Ack()
	case <-f.Err():
		m.Nak()
	}
}

// lostServer is how long an executor waits for a server that does not
// answer (a restart, a partition) before it gives up.
const lostServer = 2 * time.Minute

// errUnreachable is gone's answer when the server does not answer.
var errUnreachable = errors.New("NATS server unreachable")

// gone returns nil when run r's work stream no longer exists,
// errUnreachable when the server does not answer, and errRunLives when
// the run goes on.
func gone(ctx context.Context, js jetstream.JetStream, r run) error {
	sctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err := js.Stream(sctx, r.workStream())
	switch {
	case err == nil:
		return errRunLives
	case ended(err):
		return nil
	default:
		return errUnreachable
	}
}

// errRunLives is gone's answer for a run whose stream exists.
var errRunLives = errors.New("the run goes on")

// heartbeat tells the server every interval that m is still being
// worked on, until the returned function is called.
func heartbeat(m jetstream.Msg, interval time.Duration) func() {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				m.InProgress()
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}
