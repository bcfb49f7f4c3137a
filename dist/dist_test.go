package dist

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/solver/stack"
	"github.com/gocolic/gocolic/sym"
)

// The modes of the coordinator's test worker (coordinator/worker_test.go)
// these tests use: its target takes one int64 x.
const (
	modeReturn = 0  // returns
	modePanic  = 1  // panics "boom"
	modeExit   = 2  // os.Exit(3)
	modeSlow   = 30 // sleeps 1 s when tracked, then returns
)

func input(x int64) sym.Env { return sym.Env{0: uint64(x)} }

var (
	workerOnce sync.Once
	workerPath string
	workerErr  error
)

// workerBin builds the coordinator's test worker once.
func workerBin(t *testing.T) string {
	t.Helper()
	workerOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gocolic-dist-test-")
		if err != nil {
			workerErr = err
			return
		}
		workerPath = filepath.Join(dir, "worker")
		cmd := exec.Command("go", "build", "-o", workerPath, "../coordinator/testdata/worker")
		if out, err := cmd.CombinedOutput(); err != nil {
			workerErr = fmt.Errorf("building the test worker: %v\n%s", err, out)
		}
	})
	if workerErr != nil {
		t.Fatal(workerErr)
	}
	return workerPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if workerPath != "" {
		os.RemoveAll(filepath.Dir(workerPath))
	}
	os.Exit(code)
}

func spec(t *testing.T) coordinator.ExecSpec {
	return coordinator.ExecSpec{Bin: workerBin(t), Timeout: 10 * time.Second, MaxLen: 8}
}

// start starts a run on an embedded server with local executors and
// closes it when the test ends.
func start(t *testing.T, o Options) *Coordination {
	t.Helper()
	if o.URL == "" {
		o.URL = EmbeddedURL
	}
	if o.StoreDir == "" {
		o.StoreDir = t.TempDir()
	}
	if o.Spec.Bin == "" {
		o.Spec = spec(t)
	}
	c, err := Start(context.Background(), o)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return c
}

func execWithin(t *testing.T, r coordinator.Remote, env sym.Env, limit time.Duration) (coordinator.Executed, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	return r.Exec(ctx, env)
}

func TestWireRoundTrip(t *testing.T) {
	ok := &rt.Response{Status: rt.StatusOK, Results: []rt.Result{{Literal: "0"}}, Nanos: 12, Fresh: []uint32{3, 5}}
	panicked := &rt.Response{Status: rt.StatusPanic, Panic: "boom", Stack: "panic(...)\n\tmain.go:1"}
	tests := []struct {
		name string
		ex   coordinator.Executed
	}{
		{"ok", coordinator.Executed{Resp: ok}},
		{"panic", coordinator.Executed{Resp: panicked}},
		{"crash", coordinator.Executed{Crash: &coordinator.Crash{Kind: coordinator.CrashExit, Message: "exit status 3", Output: "line 1\nline 2"}}},
		{"slow with a fault", coordinator.Executed{Resp: ok, Slow: true, Fault: panicked}},
		{"retried", coordinator.Executed{Resp: ok, Retried: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := encodeResult("s", "id-1", tt.ex)
			id, got, err := decodeResult(m.Header, m.Data)
			if err != nil {
				t.Fatalf("decodeResult: %v", err)
			}
			if id != "id-1" {
				t.Errorf("id %q, want id-1", id)
			}
			if fmt.Sprint(got.Crash) != fmt.Sprint(tt.ex.Crash) || got.Slow != tt.ex.Slow || got.Retried != tt.ex.Retried ||
				respString(got.Resp) != respString(tt.ex.Resp) || respString(got.Fault) != respString(tt.ex.Fault) {
				t.Errorf("decoded %+v, want %+v", got, tt.ex)
			}
			// Every cut of the body is refused, never misread.
			for n := 0; n < len(m.Data); n++ {
				if _, _, err := decodeResult(m.Header, m.Data[:n]); err == nil {
					t.Errorf("a body cut to %d of %d bytes decoded", n, len(m.Data))
				}
			}
		})
	}
	m := encodeResult("s", "id-1", tests[0].ex)
	m.Header.Set(hdrFormat, "99")
	if _, _, err := decodeResult(m.Header, m.Data); !errors.Is(err, ErrFormat) {
		t.Errorf("a result of format 99: %v, want ErrFormat", err)
	}
	it := encodeItem("s", item{id: "x-7", env: input(42), end: 5})
	got, err := decodeItem(it.Header, it.Data)
	if err != nil || got.id != "x-7" || got.end != 5 || got.env[0] != 42 {
		t.Errorf("item round trip: %+v, %v", got, err)
	}
	it.Header.Del(hdrFormat)
	if _, err := decodeItem(it.Header, it.Data); !errors.Is(err, ErrFormat) {
		t.Errorf("an item without a format: %v, want ErrFormat", err)
	}
}

func respString(r *rt.Response) string {
	if r == nil {
		return "<nil>"
	}
	return string(rt.AppendResponse(nil, r))
}

// TestExecMatchesLocal runs inputs over an embedded server and checks
// that each did what it does on an executor of this process.
func TestExecMatchesLocal(t *testing.T) {
	c := start(t, Options{Local: 1})
	local, err := coordinator.NewExecutor(spec(t))
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	for _, x := range []int64{modeReturn, modePanic, modeExit, modeReturn} {
		want, err := local.Run(input(x), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := execWithin(t, c.Remote(), input(x), time.Minute)
		if err != nil {
			t.Fatalf("x=%d: Exec: %v", x, err)
		}
		if respStatus(got) != respStatus(want) {
			t.Errorf("x=%d: over NATS %s, here %s", x, respStatus(got), respStatus(want))
		}
	}
	n := c.Counts()
	if n.Items != 4 || n.Results != 4 || n.Dropped != 0 {
		t.Errorf("counts %+v, want 4 items and 4 results", n)
	}
}

// respStatus describes what an execution did, without its timings.
func respStatus(ex coordinator.Executed) string {
	switch {
	case ex.Crash != nil:
		return "crash " + string(ex.Crash.Kind)
	case ex.Resp == nil:
		return "nothing"
	default:
		return fmt.Sprintf("status %d panic %q results %v", ex.Resp.Status, ex.Resp.Panic, ex.Resp.Results)
	}
}

// TestKilledExecutorLosesNothing takes an item as an executor that dies
// before acknowledging it would: the server gives the item to a live
// executor after the ack wait, the coordinator gets its result, and the
// dead executor's late result is taken once only.
func TestKilledExecutorLosesNothing(t *testing.T) {
	c := start(t, Options{ackWait: time.Second})
	ctx := context.Background()
	cons, err := c.js.Consumer(ctx, c.r.workStream(), executors)
	if err != nil {
		t.Fatal(err)
	}
	done := execAsync(t, c, input(modePanic))
	m, err := cons.Next(jetstream.FetchMaxWait(10 * time.Second))
	if err != nil {
		t.Fatalf("the dead executor's item: %v", err)
	}
	it, err := decodeItem(m.Headers(), m.Data())
	if err != nil {
		t.Fatal(err)
	}
	// The executor dies here: no ack. A live one joins.
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- serve(sctx, c.js, c.r, spec(t), nil, 1) }()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	a := <-done
	if a.err != nil {
		t.Fatalf("Exec: %v", a.err)
	}
	if a.ex.Resp == nil || a.ex.Resp.Panic != "boom" {
		t.Errorf("redelivered item: %s, want the panic boom", respStatus(a.ex))
	}
	// The dead executor comes back and publishes its result late.
	late := encodeResult(c.r.resultSubject(), it.id, coordinator.Executed{Resp: &rt.Response{Status: rt.StatusOK}})
	ack, err := c.js.PublishMsg(ctx, late, jetstream.WithMsgID(it.id))
	if err != nil {
		t.Fatal(err)
	}
	if !ack.Duplicate {
		// Past the server's window the coordinator drops it itself.
		deadline := time.Now().Add(5 * time.Second)
		for c.Counts().Dropped == 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if n := c.Counts(); n.Results != 1 {
		t.Errorf("%d results taken in, want 1 (counts %+v)", n.Results, n)
	}
}

// TestOtherFormatRefused puts an item of another format version on the
// queue: the executor stops with one line that says so, and the item
// stays on the queue for an executor that reads it.
func TestOtherFormatRefused(t *testing.T) {
	c := start(t, Options{ackWait: time.Second})
	ctx := context.Background()
	m := encodeItem(c.r.workSubject(), item{id: "other-1", env: input(0)})
	m.Header.Set(hdrFormat, "99")
	if _, err := c.js.PublishMsg(ctx, m); err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	err := serve(sctx, c.js, c.r, spec(t), nil, 1)
	if !errors.Is(err, ErrFormat) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("serve: %v, want one line saying ErrFormat", err)
	}
	cons, err := c.js.Consumer(ctx, c.r.workStream(), executors)
	if err != nil {
		t.Fatal(err)
	}
	again, err := cons.Next(jetstream.FetchMaxWait(10 * time.Second))
	if err != nil {
		t.Fatalf("the refused item is gone: %v", err)
	}
	if got := again.Headers().Get(hdrItem); got != "other-1" {
		t.Errorf("next item %q, want the refused other-1", got)
	}
}

// TestBinaryChecked fetches the worker binary: a copy is the stored
// file; a hash that is not the run's is refused and leaves no file.
func TestBinaryChecked(t *testing.T) {
	c := start(t, Options{})
	ctx := context.Background()
	sum, err := fileSHA256(workerBin(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, err := fetchBinary(ctx, c.js, c.r, sum, dir)
	if err != nil {
		t.Fatalf("fetchBinary: %v", err)
	}
	want, _ := os.ReadFile(workerBin(t))
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got, want) {
		t.Error("the fetched binary differs from the stored one")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode()&0o100 == 0 {
		t.Errorf("fetched binary not executable: %v", err)
	}
	bad := strings.Repeat("0", 64)
	_, err = fetchBinary(ctx, c.js, c.r, bad, dir)
	if err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Fatalf("a binary whose hash is not the run's: %v, want a refusal naming SHA-256", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files after the refusal, want only the first copy", len(entries))
	}
}

// TestWorkJoinsAndLeaves runs Work beside a run on a listening embedded
// server: it joins the run, runs its inputs, and returns when the run
// ends.
func TestWorkJoinsAndLeaves(t *testing.T) {
	srv, err := StartEmbedded("127.0.0.1:0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	url := srv.URL()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var log bytes.Buffer
	worked := make(chan error, 1)
	go func() {
		worked <- Work(ctx, WorkOptions{URL: url, ID: "joined", Workers: 1, Dir: t.TempDir(), Log: &syncWriter{w: &log}})
	}()
	c, err := Start(ctx, Options{URL: url, ID: "joined", Spec: spec(t)})
	if err != nil {
		t.Fatal(err)
	}
	got, err := execWithin(t, c.Remote(), input(modePanic), time.Minute)
	if err != nil || got.Resp == nil || got.Resp.Panic != "boom" {
		t.Errorf("Exec on the joined worker: %s, %v", respStatus(got), err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case err := <-worked:
		if err != nil {
			t.Errorf("Work: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Work did not return after the run ended")
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func TestConnectErrors(t *testing.T) {
	for _, url := range []string{"nats://127.0.0.1:1", "nats://bad host:x"} {
		_, err := Connect(url, "test")
		if err == nil {
			t.Errorf("Connect(%q) succeeded", url)
			continue
		}
		if !strings.Contains(err.Error(), url) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Connect(%q): %q, want one line naming the URL", url, err)
		}
	}
	if _, err := Start(context.Background(), Options{URL: "nats://127.0.0.1:1", Listen: "127.0.0.1:0", Spec: spec(t)}); err == nil ||
		!strings.Contains(err.Error(), "-nats-listen") {
		t.Errorf("-nats-listen with a server's URL: %v, want a refusal", err)
	}
	if err := CheckID("a b"); err == nil {
		t.Error(`CheckID("a b") accepted an id with a space`)
	}
}

// freeAddr returns a loopback address free now, for a server that must
// come back on the same one.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestServerRestart restarts the server a run is on, with its streams on
// disk, between two inputs: the coordinator's side and the executor
// reconnect, and the second input runs.
func TestServerRestart(t *testing.T) {
	addr, store := freeAddr(t), t.TempDir()
	srv, err := StartEmbedded(addr, store)
	if err != nil {
		t.Fatal(err)
	}
	// Registered first, so that it runs after the run's Close.
	t.Cleanup(func() { srv.Shutdown() })
	c := start(t, Options{URL: srv.URL(), Local: 1, ackWait: time.Second})
	if got, err := execWithin(t, c.Remote(), input(modePanic), time.Minute); err != nil || got.Resp == nil || got.Resp.Panic != "boom" {
		t.Fatalf("before the restart: %s, %v", respStatus(got), err)
	}
	srv.Shutdown()
	if srv, err = StartEmbedded(addr, store); err != nil {
		t.Fatalf("restarting the server: %v", err)
	}
	begin := time.Now()
	got, err := execWithin(t, c.Remote(), input(modePanic), time.Minute)
	t.Logf("the first input after the restart took %v", time.Since(begin))
	if err != nil || got.Resp == nil || got.Resp.Panic != "boom" {
		t.Errorf("after the restart: %s, %v", respStatus(got), err)
	}

	// An input and a kept input sent while the server is down reach it
	// once it is back.
	srv.Shutdown()
	res := execAsync(t, c, input(modePanic))
	c.Keep(input(42), false)
	time.Sleep(time.Second)
	if srv, err = StartEmbedded(addr, store); err != nil {
		t.Fatalf("restarting the server: %v", err)
	}
	if r := <-res; r.err != nil || r.ex.Resp == nil || r.ex.Resp.Panic != "boom" {
		t.Errorf("an input sent while the server was down: %s, %v", respStatus(r.ex), r.err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for c.Counts().Kept != 1 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	logged, err := readInputs(context.Background(), c.js, c.r)
	if err != nil || len(logged) != 1 || logged[0][0] != 42 {
		t.Errorf("kept while the server was down: logged %v, %v; want [42] once", logged, err)
	}
	t.Logf("counts %+v", c.Counts())
}

// TestResume stops a coordinator without ending its run, as a kill
// would: the next coordinator of the same run id gets the inputs the
// first kept, in order; after a run that ended there are none.
func TestResume(t *testing.T) {
	srv, err := StartEmbedded("127.0.0.1:0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	first, err := Start(context.Background(), Options{URL: srv.URL(), ID: "again", Spec: spec(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Resumed()) != 0 {
		t.Errorf("a new run resumed %d inputs", len(first.Resumed()))
	}
	for _, x := range []int64{5, 7, 11} {
		first.Keep(input(x), false)
	}
	if err := first.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for first.Counts().Kept != 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case <-first.js.PublishAsyncComplete():
	case <-time.After(10 * time.Second):
		t.Fatal("the kept inputs were not stored")
	}
	first.shut() // killed: the run stays on the server

	second := start(t, Options{URL: srv.URL(), ID: "again"})
	var got []uint64
	for _, e := range second.Resumed() {
		got = append(got, e[0])
	}
	if fmt.Sprint(got) != "[5 7 11]" {
		t.Errorf("resumed %v, want [5 7 11]", got)
	}
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}
	third := start(t, Options{URL: srv.URL(), ID: "again"})
	if n := len(third.Resumed()); n != 0 {
		t.Errorf("after the run ended, %d inputs resumed", n)
	}
}

// TestRandomKills runs inputs and queries while executors die at random
// points, each killed by cutting its connection (it never acknowledges
// what it held) and replaced: every input gets the result of its own
// execution, and every query its own answer, once.
func TestRandomKills(t *testing.T) {
	srv, err := StartEmbedded("127.0.0.1:0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	c := start(t, Options{URL: srv.URL(), ackWait: time.Second})
	rng := rand.New(rand.NewPCG(1, 2))
	stop := make(chan struct{})
	killed := make(chan int, 1)
	// The executors: two at a time, each cut off after 0.5–2.5 s, while
	// it runs an input of a second or the next.
	go func() {
		kills := 0
		defer func() { killed <- kills }()
		var wg sync.WaitGroup
		defer wg.Wait()
		for {
			type live struct {
				nc     *nats.Conn
				cancel context.CancelFunc
			}
			var cur []live
			for range 2 {
				nc, err := Connect(srv.URL(), "executor")
				if err != nil {
					t.Error(err)
					return
				}
				js, err := jetstream.New(nc)
				if err != nil {
					t.Error(err)
					return
				}
				ctx, cancel := context.WithCancel(context.Background())
				wg.Add(1)
				go func() {
					defer wg.Done()
					serve(ctx, js, c.r, spec(t), solveSpec(), 1)
				}()
				cur = append(cur, live{nc, cancel})
			}
			select {
			case <-stop:
				for _, l := range cur {
					l.cancel()
					l.nc.Close()
				}
				return
			case <-time.After(time.Duration(500+rng.IntN(2000)) * time.Millisecond):
			}
			for _, l := range cur {
				l.nc.Close() // the kill: whatever it held is not acknowledged
				l.cancel()
				kills++
			}
		}
	}()
	// Three senders, each with one input out at a time, as a run's
	// Workers are.
	const senders, each = 3, 4
	const n = senders * each
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for s := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range each {
				i := s*each + k
				x := int64(modeSlow)
				if i%2 == 1 {
					x = modePanic
				}
				if err := runOwn(t, c, i, x); err != nil {
					errs <- err
				}
			}
		}()
	}
	// And queries, one at a time, answered by the same executors.
	const queries = 6
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := c.NewSolver()
		b := sym.NewBuilder()
		x := b.Var(0, 64)
		for i := range queries {
			q := solver.Query{Goal: b.Eq(b.Add(x, b.Const(uint64(i), 64)), b.Const(100, 64))}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			r, err := s.Solve(ctx, q)
			cancel()
			if err != nil || r.Status != solver.Sat || r.Model[0] != uint64(100-i) {
				errs <- fmt.Errorf("query %d: %v, %v; want x = %d", i, r, err, 100-i)
			}
		}
	}()
	wg.Wait()
	close(stop)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	k := <-killed
	cons, err := c.js.Consumer(context.Background(), c.r.workStream(), executors)
	if err != nil {
		t.Fatal(err)
	}
	info, err := cons.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Every delivery counts once in the consumer's sequence: beyond the
	// n inputs, the redeliveries of what killed executors held.
	again := int(info.Delivered.Consumer) - n - queries
	t.Logf("%d executors killed, %d items delivered again", k, again)
	if k == 0 || again <= 0 {
		t.Error("no input was held by a killed executor: the test tested nothing")
	}
	if got := c.Counts().Results; got != n+queries {
		t.Errorf("%d results taken in, want %d", got, n+queries)
	}
}

// outcomeOf is execWithin's answer.
type outcomeOf struct {
	ex  coordinator.Executed
	err error
}

// execAsync runs env through c's Remote in a goroutine, within a minute,
// and returns where its answer comes.
func execAsync(t *testing.T, c *Coordination, env sym.Env) <-chan outcomeOf {
	ch := make(chan outcomeOf, 1)
	go func() {
		ex, err := execWithin(t, c.Remote(), env, time.Minute)
		ch <- outcomeOf{ex, err}
	}()
	return ch
}

// runOwn runs input x (modeSlow or modePanic), the i-th of a test, and
// says whether its result is its own.
func runOwn[I int | int64](t *testing.T, c *Coordination, i I, x int64) error {
	got, err := execWithin(t, c.Remote(), input(x), 2*time.Minute)
	switch {
	case err != nil:
		return fmt.Errorf("input %d: %w", i, err)
	case got.Resp == nil:
		return fmt.Errorf("input %d: %s", i, respStatus(got))
	case (x == modePanic) != (got.Resp.Panic == "boom"):
		return fmt.Errorf("input %d (x=%d): the result of another input: %s", i, x, respStatus(got))
	}
	return nil
}

// solveSpec has executors solve with Z3 alone.
func solveSpec() *SolveSpec {
	opts := stack.DefaultOptions()
	opts.Mode = stack.ModeZ3
	return &SolveSpec{Stack: opts}
}

// TestServerRandomRestarts restarts the server (its store on disk) at
// random points, down for a while each time, while inputs run on two
// executors of this process and the run keeps inputs: every input gets the result of its own
// execution, once, and every kept input is in the log a restarted
// coordinator would read.
func TestServerRandomRestarts(t *testing.T) {
	addr, store := freeAddr(t), t.TempDir()
	var mu sync.Mutex // guards srv
	srv, err := StartEmbedded(addr, store)
	if err != nil {
		t.Fatal(err)
	}
	// Registered first, so that it runs after the run's Close.
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		srv.Shutdown()
	})
	c := start(t, Options{URL: srv.URL(), ID: "restarts", Local: 2, ackWait: time.Second})
	rng := rand.New(rand.NewPCG(3, 4))
	const restarts = 4
	done := make(chan struct{}) // closed after the last restart
	go func() {
		defer close(done)
		for i := range restarts {
			time.Sleep(time.Duration(200+rng.IntN(900)) * time.Millisecond)
			mu.Lock()
			srv.Shutdown()
			// Down for a while: inputs and kept inputs are sent
			// meanwhile.
			time.Sleep(time.Duration(100+rng.IntN(500)) * time.Millisecond)
			s, err := StartEmbedded(addr, store)
			if err != nil {
				mu.Unlock()
				t.Errorf("restart %d: %v", i+1, err)
				return
			}
			srv = s
			mu.Unlock()
		}
	}()
	// Three senders, each with one input out at a time, as a run's
	// Workers are, until the restarts are over and each sent four.
	const senders, each = 3, 4
	var sent atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for s := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; ; k++ {
				select {
				case <-done:
					if k >= each {
						return
					}
				default:
				}
				i := sent.Add(1) - 1
				x := int64(modeSlow)
				if (s+k)%2 == 1 {
					x = modePanic
				}
				if err := runOwn(t, c, i, x); err != nil {
					errs <- err
				}
				c.Keep(input(100+i), false)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	n := sent.Load()
	counts := c.Counts()
	t.Logf("%d restarts, %d inputs; counts %+v", restarts, n, counts)
	if counts.Results != n {
		t.Errorf("%d results taken in, want %d", counts.Results, n)
	}
	// The kept inputs reach the log, each once, restarts or not.
	deadline := time.Now().Add(30 * time.Second)
	for c.Counts().Kept != n && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if got := c.Counts().Kept; got != n {
		t.Fatalf("%d kept inputs confirmed, want %d", got, n)
	}
	logged, err := readInputs(context.Background(), c.js, c.r)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]int{}
	for _, e := range logged {
		seen[e[0]]++
	}
	for i := range n {
		if seen[uint64(100+i)] != 1 {
			t.Errorf("kept input %d logged %d times, want once (log %v)", 100+i, seen[uint64(100+i)], seen)
		}
	}
}

// TestQueryRoundTrip encodes queries and answers and reads them back:
// the same terms (in another Builder), seed, status and model; an
// executor's solver failure reads as an error.
func TestQueryRoundTrip(t *testing.T) {
	b := sym.NewBuilder()
	x, y := b.Var(0, 64), b.Var(1, 8)
	q := solver.Query{
		Constraints: []*sym.Expr{b.Cmp(sym.KSLt, b.Const(3, 64), x), b.Eq(b.Add(y, b.Const(1, 8)), b.Const(9, 8))},
		Goal:        b.Cmp(sym.KSLt, x, b.Add(x, x)),
		Seed:        sym.Env{0: 7, 1: 8},
	}
	m, err := encodeQuery("s", "id-1", q)
	if err != nil {
		t.Fatal(err)
	}
	if m.Header.Get(hdrKind) != kindSolve || m.Header.Get(hdrItem) != "id-1" {
		t.Fatalf("headers %v", m.Header)
	}
	got, err := decodeQuery(m.Data, sym.NewDecoder(sym.NewBuilder()))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.Constraints) != fmt.Sprint(q.Constraints) || got.Goal.String() != q.Goal.String() || fmt.Sprint(got.Seed) != fmt.Sprint(q.Seed) {
		t.Errorf("read %v, %v, %v; want %v, %v, %v", got.Constraints, got.Goal, got.Seed, q.Constraints, q.Goal, q.Seed)
	}
	if _, err := decodeQuery(m.Data[:len(m.Data)-2], sym.NewDecoder(sym.NewBuilder())); err == nil {
		t.Error("a truncated query read without an error")
	}
	for _, tt := range []struct {
		res solver.Result
		err error
	}{
		{solver.Result{Status: solver.Sat, Model: sym.Env{0: 4, 3: 1 << 40}}, nil},
		{solver.Result{Status: solver.Unsat}, nil},
		{solver.Result{Status: solver.Unknown}, nil},
		{solver.Result{}, errors.New("z3 failed")},
	} {
		a := encodeAnswer("r", "id-2", tt.res, tt.err)
		res, err := decodeAnswer("id-2", a.Data)
		if tt.err != nil {
			if err == nil || !strings.Contains(err.Error(), "z3 failed") {
				t.Errorf("a failed solver's answer read as %v, %v", res, err)
			}
			continue
		}
		if err != nil || res.Status != tt.res.Status || fmt.Sprint(res.Model) != fmt.Sprint(tt.res.Model) {
			t.Errorf("answer %v read as %v, %v", tt.res, res, err)
		}
	}
}

// TestSolveOnExecutors has the executors of a run answer queries
// (Options.Solve) between its inputs: a satisfiable query gets a model
// that satisfies it, an unsatisfiable one Unsat, and inputs still run.
func TestSolveOnExecutors(t *testing.T) {
	c := start(t, Options{Local: 1, Solve: solveSpec()})
	s := c.NewSolver()
	b := sym.NewBuilder()
	x := b.Var(0, 64)
	sat := solver.Query{Constraints: []*sym.Expr{b.Cmp(sym.KSLt, b.Const(3, 64), x)}, Goal: b.Eq(b.Add(x, b.Const(1, 64)), b.Const(5, 64)), Seed: sym.Env{0: 9}}
	unsat := solver.Query{Constraints: []*sym.Expr{b.Cmp(sym.KSLt, b.Const(5, 64), x)}, Goal: b.Cmp(sym.KSLt, x, b.Const(3, 64))}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := s.Solve(ctx, sat)
	if err != nil || r.Status != solver.Sat || r.Model[0] != 4 {
		t.Errorf("x > 3, x+1 == 5: %v, %v; want x = 4", r, err)
	}
	if r, err := s.Solve(ctx, unsat); err != nil || r.Status != solver.Unsat {
		t.Errorf("x > 5, x < 3: %v, %v; want unsat", r, err)
	}
	if got, err := execWithin(t, c.Remote(), input(modePanic), time.Minute); err != nil || got.Resp == nil || got.Resp.Panic != "boom" {
		t.Errorf("an input beside the queries: %s, %v", respStatus(got), err)
	}
	if st := s.Stats(); st.Queries != 2 || st.Sat != 1 || st.Unsat != 1 {
		t.Errorf("stats %+v, want 2 queries, 1 sat, 1 unsat", st)
	}
	if n := c.Counts(); n.Queries != 2 || n.Items != 3 || n.Results != 3 {
		t.Errorf("counts %+v, want 3 items, 2 of them queries, 3 results", n)
	}
}

// TestQueryWithoutSolvers puts a query on a run whose executors do not
// solve: the executor stops with one line and leaves it queued.
func TestQueryWithoutSolvers(t *testing.T) {
	c := start(t, Options{})
	b := sym.NewBuilder()
	m, err := encodeQuery(c.r.workSubject(), "q-1", solver.Query{Goal: b.Eq(b.Var(0, 8), b.Const(1, 8))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.js.PublishMsg(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = serve(sctx, c.js, c.r, spec(t), nil, 1)
	if err == nil || !strings.Contains(err.Error(), "do not solve") || strings.Contains(err.Error(), "\n") {
		t.Errorf("serve: %v; want one line saying the executors do not solve", err)
	}
}

// TestBatchWireRoundTrip encodes a batch of the mutation lane and what
// it did, crashes included, and reads them back; a cut message is an
// error.
func TestBatchWireRoundTrip(t *testing.T) {
	q := &rt.Batch{MaxLen: 8, Count: 32, Bases: [][]uint64{{1, 2}, {3}}, Seed: 7, Known: []uint32{5, 9, 12},
		DictInts: []uint64{77}, DictToks: [][]byte{[]byte("tok")}, NInts: 1, NToks: 1}
	m := encodeBatch("s", "b-1", q, 12345)
	got, end, err := decodeBatch(m.Header, m.Data)
	if err != nil || end != 12345 || fmt.Sprint(*got) != fmt.Sprint(*q) {
		t.Errorf("batch read as %+v, end %d, %v; want %+v, 12345", got, end, err, q)
	}
	done := coordinator.BatchDone{
		Resp:    &rt.BatchResponse{Ran: 32, Nanos: 1000, Results: []rt.BatchResult{{Index: 3, Status: rt.StatusPanic, Panic: "boom", Input: []uint64{4}}}},
		Crashes: map[int]*coordinator.Crash{7: {Kind: coordinator.CrashExit, Message: "exit status 3", Output: "out"}},
	}
	r := encodeBatchDone("r", "b-1", done)
	back, err := decodeBatchDone("b-1", r.Data)
	if err != nil || back.Resp.Ran != 32 || len(back.Resp.Results) != 1 || back.Resp.Results[0].Panic != "boom" ||
		len(back.Crashes) != 1 || back.Crashes[7] == nil || *back.Crashes[7] != *done.Crashes[7] {
		t.Errorf("read %+v (crashes %v), %v; want %+v", back, back.Crashes, err, done)
	}
	if _, err := decodeBatchDone("b-1", r.Data[:len(r.Data)-1]); err == nil {
		t.Error("a cut batch result read without an error")
	}
}

// TestCoordinatorRandomKills kills a run's coordinator at random points
// while it keeps inputs, four times, each time starting another with
// the same run id on the same server: each resumes at least every input
// the server had confirmed before the kill, and nothing that was never
// kept.
func TestCoordinatorRandomKills(t *testing.T) {
	srv, err := StartEmbedded("127.0.0.1:0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	rng := rand.New(rand.NewPCG(5, 6))
	kept := map[uint64]bool{}      // every input any coordinator kept
	confirmed := map[uint64]bool{} // those the server had confirmed at a kill
	next := uint64(1000)
	for round := range 4 {
		c, err := Start(context.Background(), Options{URL: srv.URL(), ID: "killed", Spec: spec(t)})
		if err != nil {
			t.Fatal(err)
		}
		got := map[uint64]bool{}
		for _, e := range c.Resumed() {
			got[e[0]] = true
		}
		for x := range confirmed {
			if !got[x] {
				t.Errorf("round %d: input %d, confirmed before the kill, not resumed", round, x)
			}
		}
		for x := range got {
			if !kept[x] {
				t.Errorf("round %d: resumed %d, which no coordinator kept", round, x)
			}
		}
		// Keep inputs for a random while, then die at once.
		deadline := time.Now().Add(time.Duration(50+rng.IntN(400)) * time.Millisecond)
		for time.Now().Before(deadline) {
			kept[next] = true
			c.Keep(input(int64(next)), false)
			next++
			time.Sleep(time.Duration(rng.IntN(20)) * time.Millisecond)
		}
		// What the server confirmed is in its log, whatever happens
		// next; read it as the next coordinator will.
		logged, err := readInputs(context.Background(), c.js, c.r)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range logged {
			confirmed[e[0]] = true
		}
		c.shut()
	}
	if len(confirmed) == 0 {
		t.Error("nothing was confirmed before any kill: the test tested nothing")
	}
	t.Logf("%d inputs kept, %d confirmed before their coordinator died", len(kept), len(confirmed))
}
