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
func serve(ctx context.Context, js jetstream.JetStream, r run, spec coordinator.ExecSpec, n int) error {
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
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := execute(ctx, js, r, cons, spec); err != nil {
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
func execute(ctx context.Context, js jetstream.JetStream, r run, cons jetstream.Consumer, spec coordinator.ExecSpec) error {
	ex, err := coordinator.NewExecutor(spec)
	if err != nil {
		return fmt.Errorf("run %s: starting a worker: %w", r.id, err)
	}
	defer func() { ex.Close() }()
	beat := defaultAckWait / 3
	if w := cons.CachedInfo().Config.AckWait; w > 0 {
		beat = w / 3
	}
	for ctx.Err() == nil {
		m, err := cons.Next(jetstream.FetchMaxWait(time.Second))
		switch {
		case err == nil:
		case errors.Is(err, nats.ErrTimeout) || errors.Is(err, jetstream.ErrNoMessages):
			continue
		default:
			if gone(ctx, js, r) {
				return nil
			}
			// A reconnecting client or a restarting server: try again.
			select {
			case <-ctx.Done():
			case <-time.After(500 * time.Millisecond):
			}
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
		if _, err := js.PublishMsg(ctx, encodeResult(r.resultSubject(), it.id, res), jetstream.WithMsgID(it.id)); err != nil {
			// Not acknowledged: the item comes back, to this executor
			// or another, once the server hears from us again.
			m.Nak()
			continue
		}
		m.Ack()
	}
	return nil
}

// gone reports whether run r's work stream no longer exists.
func gone(ctx context.Context, js jetstream.JetStream, r run) bool {
	_, err := js.Stream(ctx, r.workStream())
	return err != nil && ended(err)
}

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
