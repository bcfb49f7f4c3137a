package dist

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/rt"
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
		if m.Headers().Get(hdrKind) == kindSolve {
			if err := checkFormat(m.Headers()); err != nil || sv == nil {
				// Left for an executor that reads it; this one stops.
				m.Nak()
				return fmt.Errorf("run %s: %w", r.id, cmp.Or(err, errors.New("a query, but the run's executors do not solve")))
			}
			id := m.Headers().Get(hdrItem)
			stop := heartbeat(m, beat)
			res, err := sv.answer(ctx, spec, m.Data())
			stop()
			f, perr := js.PublishMsgAsync(encodeAnswer(r.resultSubject(), id, res, err), jetstream.WithMsgID(id))
			if perr != nil {
				m.Nak()
				continue
			}
			go ackOnStored(m, f)
			continue
		}
		if m.Headers().Get(hdrKind) == kindBatch {
			err := checkFormat(m.Headers())
			var q *rt.Batch
			var end int64
			if err == nil {
				q, end, err = decodeBatch(m.Headers(), m.Data())
			}
			if err != nil {
				m.Nak()
				return fmt.Errorf("run %s: %w", r.id, err)
			}
			var until time.Time
			if end != 0 {
				until = time.Unix(0, end)
			}
			stop := heartbeat(m, beat)
			done, err := ex.RunBatch(q, until)
			stop()
			if err != nil {
				m.Nak()
				return fmt.Errorf("run %s: %w", r.id, err)
			}
			id := m.Headers().Get(hdrItem)
			f, err := js.PublishMsgAsync(encodeBatchDone(r.resultSubject(), id, done), jetstream.WithMsgID(id))
			if err != nil {
				m.Nak()
				continue
			}
			go ackOnStored(m, f)
			continue
		}
		it, err := decodeItem(m.Headers(), m.Data())
		if err != nil {
			// Left for an executor that reads it; this one stops.
			m.Nak()
			return fmt.Errorf("run %s: %w", r.id, err)
		}
		stop := heartbeat(m, beat)
		var end time.Time
		if it.end != 0 {
			end = time.Unix(0, it.end)
		}
		res, err := ex.Run(it.env, end)
		stop()
		if err != nil {
			m.Nak()
			return fmt.Errorf("run %s: %w", r.id, err)
		}
		// The item is acknowledged once the server has stored its
		// result; until then (and if it never does) it can come back,
		// to this executor or another. The next item need not wait.
		f, err := js.PublishMsgAsync(encodeResult(r.resultSubject(), it.id, res), jetstream.WithMsgID(it.id))
		if err != nil {
			m.Nak()
			continue
		}
		go ackOnStored(m, f)
	}
	return nil
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
