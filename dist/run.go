package dist

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// EmbeddedURL is the -nats value that starts a server in the process.
const EmbeddedURL = "embedded"

// Options are the coordinator's settings of a run spread over NATS.
type Options struct {
	URL      string // the server's URL, or EmbeddedURL
	Listen   string // with EmbeddedURL: host:port to accept executors of other machines on ("": none)
	StoreDir string // with EmbeddedURL: where the server keeps its streams
	ID       string // the run's id ("": a fresh one)
	Target   string // what runs, for people: package and function
	// Spec is how executors run the inputs: its Bin is the worker
	// binary, stored for the other machines, and its Bin and Dir are
	// those of this process's executors.
	Spec coordinator.ExecSpec
	// Solve, when set, has the executors answer the run's queries with
	// these settings (NewSolver); otherwise the coordinator solves.
	Solve *SolveSpec
	Local int       // executors in this process
	End   time.Time // when the run's budget ends (zero: none)
	Log   io.Writer // lines for people: where executors join

	ackWait time.Duration // the tests' shorter AckWait (0: defaultAckWait)
}

// asyncAckWait bounds the wait for the server's confirmation of a
// published item or kept input, after which it is sent again. A
// restart's disconnection fails the waits at once; this catches a
// confirmation lost otherwise.
const asyncAckWait = 10 * time.Second

// Coordination is a run's side of the server: the dispatcher the
// coordinator hands inputs to (Remote), the run's resources, and the
// executors of this process.
type Coordination struct {
	emb    *Embedded
	nc     *nats.Conn
	js     jetstream.JetStream
	r      run
	d      *dispatcher
	cancel context.CancelFunc
	local  sync.WaitGroup
	// resumed are the inputs an earlier coordinator of the run kept.
	resumed []sym.Env
	// kept counts the kept inputs logged, keptSeq those sent.
	kept, keptSeq atomic.Int64
	// live ends when Close is called: the retries of kept inputs stop.
	live   context.Context
	closed bool // Close was called
	// LocalErr is why this process's executors stopped before the run
	// did, if they did; read after Close.
	LocalErr error
}

// Start connects to the server (or starts one in the process), creates
// the run's streams and stores the worker binary, and starts the
// executors of this process.
func Start(ctx context.Context, o Options) (_ *Coordination, err error) {
	if o.ID == "" {
		var b [4]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, fmt.Errorf("making a run id: %w", err)
		}
		o.ID = "run-" + hex.EncodeToString(b[:])
	}
	if err := CheckID(o.ID); err != nil {
		return nil, err
	}
	c := &Coordination{r: run{id: o.ID, ackWait: o.ackWait, memory: o.URL == EmbeddedURL}}
	defer func() {
		if err != nil {
			c.shut()
		}
	}()
	if o.URL == EmbeddedURL {
		if c.emb, err = StartEmbedded(o.Listen, o.StoreDir); err != nil {
			return nil, err
		}
		c.nc, err = c.emb.Connect()
	} else {
		if o.Listen != "" {
			return nil, errors.New("-nats-listen needs -nats embedded: a server of its own listens where it was told to")
		}
		c.nc, err = Connect(o.URL, "gocolic coordinator "+o.ID)
	}
	if err != nil {
		return nil, err
	}
	// An item or kept input whose store the server does not confirm
	// within asyncAckWait is sent again (dispatcher.Exec, Keep).
	if c.js, err = jetstream.New(c.nc, jetstream.WithPublishAsyncTimeout(asyncAckWait)); err != nil {
		return nil, fmt.Errorf("JetStream: %w", err)
	}
	if err := c.r.create(ctx, c.js); err != nil {
		return nil, fmt.Errorf("run %s: %w (does the server run with JetStream enabled, nats-server -js?)", o.ID, err)
	}
	// Items an earlier coordinator of the same id left are not ours;
	// the inputs it kept are.
	if s, err := c.js.Stream(ctx, c.r.workStream()); err == nil {
		s.Purge(ctx)
	}
	if c.resumed, err = readInputs(ctx, c.js, c.r); err != nil {
		return nil, err
	}
	sum, err := putBinary(ctx, c.js, c.r, o.Spec.Bin)
	if err != nil {
		return nil, err
	}
	if c.d, err = newDispatcher(ctx, c.js, c.r, o.End); err != nil {
		return nil, err
	}
	info, err := json.Marshal(Info{Format: Format, Target: o.Target, Spec: o.Spec, Solve: o.Solve, Binary: sum})
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", o.ID, err)
	}
	kv, err := runs(ctx, c.js)
	if err != nil {
		return nil, err
	}
	if _, err := kv.Put(ctx, o.ID, info); err != nil {
		return nil, fmt.Errorf("run %s: announcing it: %w", o.ID, err)
	}
	lctx, cancel := context.WithCancel(context.Background())
	c.cancel, c.live = cancel, lctx
	if o.Local > 0 {
		c.local.Add(1)
		go func() {
			defer c.local.Done()
			if err := serve(lctx, c.js, c.r, o.Spec, o.Solve, o.Local); err != nil && lctx.Err() == nil {
				c.LocalErr = err
				if o.URL == EmbeddedURL && o.Listen == "" {
					c.d.fail(fmt.Errorf("the executors stopped: %w", err)) // no others can come
				} else if o.Log != nil {
					fmt.Fprintf(o.Log, "gocolic: this machine's executors stopped: %v; the run goes on with the others\n", err)
				}
			}
		}()
	}
	if o.Log != nil {
		url := o.URL
		if c.emb != nil {
			url = c.emb.URL()
		}
		if url != "" {
			fmt.Fprintf(o.Log, "gocolic: run %s on NATS at %s; executors join with: gocolic worker -nats %s -run %s\n", o.ID, url, url, o.ID)
		}
	}
	return c, nil
}

// NewSolver returns a solver whose queries the run's executors answer,
// for one goroutine of the coordinator's solver pool; the run must have
// been started with Options.Solve.
func (c *Coordination) NewSolver() *Solver { return &Solver{d: c.d} }

// Resumed returns the inputs an earlier coordinator of the same run id
// kept before it was stopped without ending the run (killed, or cut off
// from the server): a restarted coordinator runs them first, which
// brings back their coverage and paths without solving.
func (c *Coordination) Resumed() []sym.Env { return c.resumed }

// Keep logs an input the run kept, for a coordinator that restarts; it
// does not wait for the server (coordinator.Config.OnKeep).
func (c *Coordination) Keep(env sym.Env, failed bool) {
	m := message(c.r.inputSubject(), "", "")
	m.Data = rt.AppendRequest(nil, &rt.Request{Env: env})
	id := fmt.Sprintf("%s-kept-%d", c.d.nonce, c.keptSeq.Add(1))
	// Sent now, in the order kept, and again while the server does not
	// confirm it, until the run's Coordination closes.
	f := publish(c.js, m, id)
	go func() {
		if confirm(c.live, c.js, m, id, f, nil) {
			c.kept.Add(1)
		}
	}()
}

// readInputs reads the inputs logged for run r.
func readInputs(ctx context.Context, js jetstream.JetStream, r run) ([]sym.Env, error) {
	s, err := js.Stream(ctx, r.inputStream())
	if err != nil {
		return nil, fmt.Errorf("run %s: its kept inputs: %w", r.id, err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("run %s: its kept inputs: %w", r.id, err)
	}
	n := int(info.State.Msgs)
	if n == 0 {
		return nil, nil
	}
	cons, err := s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		return nil, fmt.Errorf("run %s: reading its kept inputs: %w", r.id, err)
	}
	var envs []sym.Env
	for len(envs) < n {
		m, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second))
		if err != nil {
			return nil, fmt.Errorf("run %s: reading its kept inputs (%d of %d): %w", r.id, len(envs), n, err)
		}
		if err := checkFormat(m.Headers()); err != nil {
			return nil, fmt.Errorf("run %s: its kept inputs: %w", r.id, err)
		}
		q, err := rt.ParseRequest(m.Data())
		if err != nil {
			return nil, fmt.Errorf("run %s: a kept input: %w", r.id, err)
		}
		envs = append(envs, q.Env)
	}
	return envs, nil
}

// ID returns the run's id.
func (c *Coordination) ID() string { return c.r.id }

// Remote returns the dispatcher the coordinator hands inputs to.
func (c *Coordination) Remote() coordinator.Remote { return c.d }

// Counts returns what went over the server so far.
func (c *Coordination) Counts() Counts {
	n := c.d.counts()
	n.Kept = c.kept.Load()
	return n
}

// Close stops this process's executors, removes the run from the server
// (executors elsewhere then leave it), and closes the connection and an
// embedded server. Later calls do nothing.
func (c *Coordination) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	if c.cancel != nil {
		c.cancel()
	}
	c.local.Wait()
	var err error
	if c.js != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = c.r.remove(ctx, c.js)
		cancel()
	}
	if c.emb != nil {
		// Executors of other machines learn that the run ended from
		// the server; a server that went away with it would leave
		// them waiting for it to come back.
		c.emb.awaitClients(1, 5*time.Second)
	}
	c.shut()
	if err != nil {
		return fmt.Errorf("run %s: removing it from the NATS server: %w", c.r.id, err)
	}
	return nil
}

// shut closes the dispatcher, the connection and the embedded server.
func (c *Coordination) shut() {
	if c.cancel != nil {
		c.cancel()
	}
	if c.d != nil {
		c.d.close()
	}
	if c.nc != nil {
		c.nc.Close()
	}
	if c.emb != nil {
		c.emb.Shutdown()
	}
}

// WorkOptions are the settings of gocolic worker.
type WorkOptions struct {
	URL     string
	ID      string // the run to join ("": any, one after another)
	Workers int    // executors
	Dir     string // where binaries are kept and the workers run
	Log     io.Writer
}

// Work runs executors for the runs on the server at o.URL: run o.ID, or
// every run announced, one after the other, until ctx ends. It returns
// when run o.ID ends, when ctx ends (nil), or with the error of an
// executor that could not go on.
func Work(ctx context.Context, o WorkOptions) error {
	if o.ID != "" {
		if err := CheckID(o.ID); err != nil {
			return err
		}
	}
	nc, err := Connect(o.URL, "gocolic worker")
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("JetStream: %w", err)
	}
	var last string
	for ctx.Err() == nil {
		id, info, err := nextRun(ctx, js, o.ID, last, o.Log)
		if err != nil || id == "" {
			return err
		}
		r := run{id: id}
		bin, err := fetchBinary(ctx, js, r, info.Binary, o.Dir)
		if err != nil {
			return err
		}
		also := ""
		if info.Solve != nil {
			also = ", which solve its queries too"
		}
		fmt.Fprintf(o.Log, "gocolic: joined run %s (%s) with %d executors%s\n", id, info.Target, o.Workers, also)
		spec := info.Spec
		spec.Bin, spec.Dir = bin, o.Dir
		if err := serve(ctx, js, r, spec, info.Solve, o.Workers); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
		fmt.Fprintf(o.Log, "gocolic: run %s ended\n", id)
		if o.ID != "" {
			return nil
		}
		last = id
	}
	return nil
}

// nextRun waits for a run to join: id, or any but skip. It returns "" when
// ctx ends first.
func nextRun(ctx context.Context, js jetstream.JetStream, id, skip string, log io.Writer) (string, Info, error) {
	kv, err := runs(ctx, js)
	if err != nil {
		return "", Info{}, err
	}
	said := false
	for {
		keys, err := kv.Keys(ctx)
		if err != nil && !errors.Is(err, jetstream.ErrNoKeysFound) {
			if ctx.Err() != nil {
				return "", Info{}, nil
			}
			return "", Info{}, fmt.Errorf("listing the server's runs: %w", err)
		}
		for _, k := range keys {
			if (id != "" && k != id) || (id == "" && k == skip) {
				continue
			}
			e, err := kv.Get(ctx, k)
			if err != nil {
				continue // ended since
			}
			in, err := decodeInfo(k, e.Value())
			if err != nil {
				return "", Info{}, err
			}
			return k, in, nil
		}
		if !said {
			what := "a run"
			if id != "" {
				what = "run " + id
			}
			fmt.Fprintf(log, "gocolic: waiting for %s on the NATS server\n", what)
			said = true
		}
		select {
		case <-ctx.Done():
			return "", Info{}, nil
		case <-time.After(500 * time.Millisecond):
		}
	}
}
