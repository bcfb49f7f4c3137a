package coordinator

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gocolic/gocolic/mutate"
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// executors is a Remote of executors in this process, as package dist's
// are on other machines: each input goes to a free one.
type executors struct {
	free chan *Executor
	end  time.Time // the run's budget's end, for batches (zero: none)
}

func newExecutors(t *testing.T, n int, sp ExecSpec) *executors {
	r := &executors{free: make(chan *Executor, n)}
	for range n {
		e, err := NewExecutor(sp)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(e.Close)
		r.free <- e
	}
	return r
}

func (r *executors) Exec(ctx context.Context, env sym.Env) (Executed, error) {
	e := <-r.free
	defer func() { r.free <- e }()
	return e.Run(env, time.Time{})
}

func (r *executors) Batch(ctx context.Context, q *rt.Batch) (BatchDone, error) {
	e := <-r.free
	defer func() { r.free <- e }()
	return e.RunBatch(q, r.end)
}

// never is a Remote whose executors never report.
type never struct{}

func (never) Exec(ctx context.Context, env sym.Env) (Executed, error) {
	<-ctx.Done()
	return Executed{}, ErrLost
}

func (never) Batch(ctx context.Context, q *rt.Batch) (BatchDone, error) {
	<-ctx.Done()
	return BatchDone{}, ErrLost
}

// TestRemoteMatchesWorkers explores the helper's branches mode to the
// end on the run's own workers and through Remote, with one and with
// three inputs out at a time: the runs find the same paths, coverage and
// findings.
func TestRemoteMatchesWorkers(t *testing.T) {
	type summary struct {
		paths, execs int
		covered      string
		findings     []string
	}
	explore := func(remote bool, workers int) summary {
		var mu sync.Mutex
		var log []string
		cfg := runConfig(t, enumSolver{mu: &mu, log: &log}, modeBranches, modePanic)
		cfg.Workers, cfg.Lanes = workers, LanesConcolic
		if remote {
			cfg.Remote = newExecutors(t, workers, cfg.ExecSpec())
		}
		rep := runDriver(t, context.Background(), cfg)
		if rep.Stopped != "exhausted" {
			t.Errorf("remote %v, %d workers: stopped %q, want exhausted", remote, workers, rep.Stopped)
		}
		var f []string
		for _, x := range rep.Findings {
			f = append(f, fmt.Sprint(x.Kind, x.Message))
		}
		slices.Sort(f)
		return summary{paths: rep.Paths, execs: rep.Execs, covered: fmt.Sprint(rep.Covered), findings: f}
	}
	want := explore(false, 1)
	if want.paths < 2 || len(want.findings) == 0 {
		t.Fatalf("the run's own workers: %+v; the test needs paths and a finding", want)
	}
	for _, workers := range []int{1, 3} {
		got := explore(true, workers)
		if got.paths != want.paths || got.covered != want.covered || !slices.Equal(got.findings, want.findings) {
			t.Errorf("through Remote with %d out: %+v, want %+v", workers, got, want)
		}
	}
}

// TestRemoteLost gives the run executors that never report: the run
// stops at its budget, counts no execution, and does not wait for them
// longer than lostAfter.
func TestRemoteLost(t *testing.T) {
	cfg := runConfig(t, &unsatSolver{}, modeBranches)
	cfg.Lanes, cfg.Remote, cfg.Workers = LanesConcolic, never{}, 2
	cfg.Budget, cfg.Timeout = 200*time.Millisecond, 100*time.Millisecond
	start := time.Now()
	rep := runDriver(t, context.Background(), cfg)
	if rep.Execs != 0 || rep.Stopped != "budget" {
		t.Errorf("%d executions, stopped %q; want 0 and budget", rep.Execs, rep.Stopped)
	}
	if el := time.Since(start); el > 8*time.Second {
		t.Errorf("the run took %v to give its inputs up", el)
	}
}

// TestRemoteBothLanes runs both lanes through Remote: the mutation
// lane's batches run on the executors too, what they keep is taken in,
// and the run finds the helper's panic without an internal error. (What
// either lane covers in 2 s depends on timings, hangs among the mutants
// included, so coverage is not compared with a local run.)
func TestRemoteBothLanes(t *testing.T) {
	cfg := runConfig(t, &countingSolver{}, modeBranches, modePanic)
	cfg.Lanes, cfg.Workers, cfg.Budget, cfg.Timeout = LanesBoth, 2, 2*time.Second, time.Second
	ex := newExecutors(t, 2, cfg.ExecSpec())
	ex.end = time.Now().Add(cfg.Budget)
	cfg.Remote = ex
	rep := runDriver(t, context.Background(), cfg)
	l := rep.Lanes
	if l.MutationExecs == 0 || l.MutationKept == 0 || rep.Execs != l.ConcolicExecs+l.MutationExecs {
		t.Errorf("%d executions, %d concolic, %d in batches of which %d kept; want batches that kept inputs, and the sum", rep.Execs, l.ConcolicExecs, l.MutationExecs, l.MutationKept)
	}
	if len(rep.InternalErrors) != 0 {
		t.Errorf("internal errors: %+v", rep.InternalErrors)
	}
	found := false
	for _, f := range rep.Findings {
		found = found || f.Message == "boom"
	}
	if !found {
		t.Errorf("findings %+v, want boom", rep.Findings)
	}
}

// TestExecutorBatch runs generated batches of the mutation lane on an
// Executor as Remote.Batch hands them over (the whole map, the
// dictionary's prefix): every mutant runs, the ones that exit are the
// crashes, each result is its mutant's, and a second batch on the same
// executor sends its worker only what it lacks.
func TestExecutorBatch(t *testing.T) {
	d := mutate.NewDict(0)
	d.AddInt(modeExit, 64)
	l := newLane(laneParams, 8, 10*time.Second, d, 1, []sym.Env{input(modeBranches)})
	l.size = 32
	for e := range uint32(40) {
		l.add(rt.BucketEntry(e, 1))
	}
	e, err := NewExecutor(ExecSpec{Bin: workerBin(t), Timeout: 10 * time.Second, MaxLen: 8, Params: laneParams})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	co := &coordinator{lane: l}
	for round := range 2 {
		b, exits, want := exitingBatch(t, l, d)
		q := co.fullBatch(b)
		if len(q.Known) != 40+20*round || len(q.DictInts) != b.q.NInts {
			t.Fatalf("round %d: the batch carries %d map entries and %d ints, want %d and %d", round, len(q.Known), len(q.DictInts), 40+20*round, b.q.NInts)
		}
		done, err := e.RunBatch(q, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if done.Resp.Ran != b.size() {
			t.Errorf("round %d: %d inputs ran, want %d", round, done.Resp.Ran, b.size())
		}
		var got []int
		for i := range done.Crashes {
			got = append(got, i)
		}
		slices.Sort(got)
		if !slices.Equal(got, exits) {
			t.Errorf("round %d: crashes at %v, want at the exiting mutants %v", round, got, exits)
		}
		for _, r := range done.Resp.Results {
			if !slices.Equal(r.Input, want[r.Index]) {
				t.Errorf("round %d: input %d: result for %v, the mutant is %v", round, r.Index, r.Input, want[r.Index])
			}
		}
		for e := range uint32(20) {
			l.add(rt.BucketEntry(100+e+20*uint32(round), 1))
		}
	}
}
