package dist

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
)

// dispatcher is the coordinator's side: coordinator.Remote over the run's
// streams. Each Exec publishes an item and waits for the first result
// with its id; results of ids nobody waits for (an item run twice, one
// given up) are counted and dropped.
type dispatcher struct {
	js    jetstream.JetStream
	r     run
	end   int64  // Unix nanoseconds; 0: no time budget
	nonce string // tells this dispatcher's items from an earlier one's
	seq   atomic.Uint64

	mu      sync.Mutex
	waiting map[string]chan reply
	cc      jetstream.ConsumeContext

	stats stats
	// failed, once set, is the answer to every Exec.
	failed error
}

// reply is a result or an answer, or why it could not be read.
type reply struct {
	ex    coordinator.Executed
	res   solver.Result
	batch coordinator.BatchDone
	err   error
}

// Counts are a run's messages on the coordinator's side.
type Counts struct {
	Items       int64 // items published
	ItemBytes   int64 // their bodies' bytes
	Results     int64 // results taken in
	ResultBytes int64 // their bodies' bytes
	Dropped     int64 // results of items nobody waited for (run twice, or given up)
	Kept        int64 // kept inputs logged for a restart (Coordination.Keep)
	// Republished counts the items sent again because the server did
	// not acknowledge them (a restart, a connection down).
	Republished int64
	// Queries counts the items that were queries the executors answered
	// (-nats-solve), Batches those that were batches of the mutation
	// lane, among Items and Results.
	Queries, Batches int64
}

// stats are the live Counts.
type stats struct {
	Items       atomic.Int64 // items published
	ItemBytes   atomic.Int64 // their bodies' bytes
	Results     atomic.Int64 // results taken in
	ResultBytes atomic.Int64
	Dropped     atomic.Int64 // results of items nobody waited for (run twice, or given up)
	Republished atomic.Int64
	Queries     atomic.Int64
	Batches     atomic.Int64
}

func newDispatcher(ctx context.Context, js jetstream.JetStream, r run, end time.Time) (*dispatcher, error) {
	var nb [6]byte
	if _, err := rand.Read(nb[:]); err != nil {
		return nil, fmt.Errorf("making the run's item ids: %w", err)
	}
	d := &dispatcher{js: js, r: r, nonce: hex.EncodeToString(nb[:]), waiting: map[string]chan reply{}}
	if !end.IsZero() {
		d.end = end.UnixNano()
	}
	cons, err := js.OrderedConsumer(ctx, r.resultStream(), jetstream.OrderedConsumerConfig{})
	if err != nil {
		return nil, fmt.Errorf("reading the run's results: %w", err)
	}
	cc, err := cons.Consume(d.take)
	if err != nil {
		return nil, fmt.Errorf("reading the run's results: %w", err)
	}
	d.cc = cc
	return d, nil
}

// take hands a result, or a query's answer, to the Exec or Solve waiting
// for it.
func (d *dispatcher) take(m jetstream.Msg) {
	var r reply
	id := m.Headers().Get(hdrItem)
	switch m.Headers().Get(hdrKind) {
	case kindSolve:
		if r.err = checkFormat(m.Headers()); r.err == nil {
			r.res, r.err = decodeAnswer(id, m.Data())
		}
	case kindBatch:
		if r.err = checkFormat(m.Headers()); r.err == nil {
			r.batch, r.err = decodeBatchDone(id, m.Data())
		}
	default:
		var rid string
		if rid, r.ex, r.err = decodeResult(m.Headers(), m.Data()); rid != "" {
			id = rid
		}
	}
	d.mu.Lock()
	ch, ok := d.waiting[id]
	delete(d.waiting, id)
	d.mu.Unlock()
	if !ok {
		d.stats.Dropped.Add(1)
		return
	}
	d.stats.Results.Add(1)
	d.stats.ResultBytes.Add(int64(len(m.Data())))
	ch <- r
}

// Exec runs env on some executor of the run (coordinator.Remote).
func (d *dispatcher) Exec(ctx context.Context, env sym.Env) (coordinator.Executed, error) {
	id := d.nextID()
	r, err := d.send(ctx, id, encodeItem(d.r.workSubject(), item{id: id, env: env, end: d.end}))
	if err != nil {
		return coordinator.Executed{}, err
	}
	return r.ex, r.err
}

// Batch runs a batch of the mutation lane on some executor of the run
// (coordinator.Remote).
func (d *dispatcher) Batch(ctx context.Context, q *rt.Batch) (coordinator.BatchDone, error) {
	id := d.nextID()
	r, err := d.send(ctx, id, encodeBatch(d.r.workSubject(), id, q, d.end))
	if err != nil {
		return coordinator.BatchDone{}, err
	}
	d.stats.Batches.Add(1)
	return r.batch, r.err
}

// Solve has some executor of the run answer q (Solver, -nats-solve).
func (d *dispatcher) Solve(ctx context.Context, q solver.Query) (solver.Result, error) {
	id := d.nextID()
	m, err := encodeQuery(d.r.workSubject(), id, q)
	if err != nil {
		return solver.Result{}, err
	}
	r, err := d.send(ctx, id, m)
	if err != nil {
		return solver.Result{}, err
	}
	d.stats.Queries.Add(1)
	return r.res, r.err
}

// nextID returns a fresh item id.
func (d *dispatcher) nextID() string { return fmt.Sprintf("%s-%d", d.nonce, d.seq.Add(1)) }

// send publishes item m of id and waits for its reply; it returns
// coordinator.ErrLost when ctx ends first, and d's failure if it failed.
func (d *dispatcher) send(ctx context.Context, id string, m *nats.Msg) (reply, error) {
	ch := make(chan reply, 1)
	d.mu.Lock()
	if d.failed != nil {
		d.mu.Unlock()
		return reply{}, d.failed
	}
	d.waiting[id] = ch
	d.mu.Unlock()
	lost := func() (reply, error) {
		d.mu.Lock()
		delete(d.waiting, id)
		d.mu.Unlock()
		return reply{}, coordinator.ErrLost
	}
	// Not waiting for the server's ack before the result: a result
	// implies the item was stored, and ends the publishing.
	d.stats.Items.Add(1)
	d.stats.ItemBytes.Add(int64(len(m.Data)))
	pctx, stop := context.WithCancel(ctx)
	defer stop()
	f := publish(d.js, m, id) // here, so that items go out in order
	go confirm(pctx, d.js, m, id, f, &d.stats.Republished)
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		return lost()
	}
}

// publish publishes m with message id id and returns the future of the
// server's confirmation, nil when it could not be sent.
func publish(js jetstream.JetStream, m *nats.Msg, id string) jetstream.PubAckFuture {
	f, err := js.PublishMsgAsync(m, jetstream.WithMsgID(id))
	if err != nil {
		return nil
	}
	return f
}

// confirm waits for the server to confirm m, published with id as f (nil:
// not sent), and publishes it again after a pause (doubling up to 2 s)
// each time the server does not, as when it restarts or the connection
// is down: the stream's deduplication keeps one. It returns true once
// the server confirms, false when ctx ends first; again, when not nil,
// counts the re-sends.
func confirm(ctx context.Context, js jetstream.JetStream, m *nats.Msg, id string, f jetstream.PubAckFuture, again *atomic.Int64) bool {
	wait := 100 * time.Millisecond
	for {
		if f != nil {
			select {
			case <-f.Ok():
				return true
			case <-f.Err():
			case <-ctx.Done():
				return false
			}
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return false
		}
		wait = min(2*wait, 2*time.Second)
		if again != nil {
			again.Add(1)
		}
		f = publish(js, m, id)
	}
}

// counts returns the counts so far.
func (d *dispatcher) counts() Counts {
	s := &d.stats
	return Counts{Items: s.Items.Load(), ItemBytes: s.ItemBytes.Load(), Results: s.Results.Load(),
		ResultBytes: s.ResultBytes.Load(), Dropped: s.Dropped.Load(), Republished: s.Republished.Load(), Queries: s.Queries.Load(), Batches: s.Batches.Load()}
}

// fail makes every waiting and later Exec return err.
func (d *dispatcher) fail(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.failed = err
	for id, ch := range d.waiting {
		ch <- reply{err: err}
		delete(d.waiting, id)
	}
}

func (d *dispatcher) close() {
	d.cc.Stop()
}
