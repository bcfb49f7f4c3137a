package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/rt"
)

// traceTarget calls g twice, once with a symbolic argument and once with
// a constant: the second call's outcome is concrete.
const traceTarget = `package p

func F(x int) int {
	b := false
	if x > 5 {
		b = true
	}
	if b {
		if x < 3 {
			return 1
		}
	}
	return g(x) + g(3)
}

func g(y int) int {
	if y > 10 {
		return 1
	}
	return 0
}
`

var workDirRE = regexp.MustCompile(`gocolic: work directory (\S+)`)

// TestAbstractionTrace builds a worker with -abstraction (markers) and
// runs it on a traced request: the outcome sequence holds every outcome,
// the concrete ones (b, the second g's y > 10) too, in order, inside the
// entry and return markers of F and of each call of g, and each symbolic
// event is placed right after its own outcome.
func TestAbstractionTrace(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": traceTarget})
	res := run(t, dir, 2*time.Minute, gocolic, "test", "-runs", "1", "-workers", "1", "-lanes", "concolic",
		"-solver", "z3", "-notests", "-nostate", "-abstraction", "-work", "./p", "F")
	m := workDirRE.FindStringSubmatch(res.stderr)
	if res.code != 0 || m == nil {
		t.Fatalf("gocolic test exited %d:\n%s", res.code, res.stderr)
	}
	t.Cleanup(func() { os.RemoveAll(m[1]) })
	bin := filepath.Join(m[1], "worker")

	resp := traceRun(t, bin, 7)
	// x = 7: enter F, x > 5, b, not x < 3, enter g, not y > 10, return,
	// enter g, not y > 10, return, return.
	outs := resp.Outcomes
	if len(outs) != 11 {
		t.Fatalf("outcomes %v, want 11", outs)
	}
	site := func(i int) uint32 { return outs[i] >> 1 }
	taken := func(i int) bool { return outs[i]&1 == 1 }
	fEntry, gEntry := site(0), site(4)
	for i, want := range []struct {
		site  uint32
		taken bool
	}{{fEntry, true}, {site(1), true}, {site(2), true}, {site(3), false}, {gEntry, true}, {site(5), false}, {gEntry, false}, {gEntry, true}, {site(5), false}, {gEntry, false}, {fEntry, false}} {
		if site(i) != want.site || taken(i) != want.taken {
			t.Errorf("outcome %d is %d/%t, want %d/%t (%v)", i, site(i), taken(i), want.site, want.taken, outs)
		}
	}
	if fEntry == gEntry || len(map[uint32]bool{site(1): true, site(2): true, site(3): true, site(5): true, fEntry: true}) != 5 {
		t.Errorf("sites not distinct: %v", outs)
	}
	// The symbolic events: x > 5, x < 3 and the first g's y > 10.
	var at []uint32
	for _, e := range resp.Path {
		at = append(at, e.At)
		if o := e.Site<<1 | uint32(btoi(e.Taken)); outs[e.At-1] != o {
			t.Errorf("event %+v is not placed after its own outcome", e)
		}
	}
	if !slices.Equal(at, []uint32{2, 4, 6}) {
		t.Errorf("events at %v, want [2 4 6]", at)
	}
	// Untraced, the same worker sends none.
	if r := workerRun(t, bin, &rt.Request{Env: map[uint64]uint64{0: 7}, MaxLen: 8}); r.Traced || len(r.Outcomes) != 0 {
		t.Errorf("an untraced request got %v", r.Outcomes)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// traceRun runs the worker bin once on x with a trace.
func traceRun(t *testing.T, bin string, x int64) *rt.Response {
	t.Helper()
	resp := workerRun(t, bin, &rt.Request{Env: map[uint64]uint64{0: uint64(x)}, MaxLen: 8, Trace: true})
	if !resp.Traced {
		t.Fatal("the response is not traced")
	}
	return resp
}

// workerRun starts bin as a worker, sends it q and returns its answer.
func workerRun(t *testing.T, bin string, q *rt.Request) *rt.Response {
	t.Helper()
	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), rt.WorkerEnv+"=1")
	cmd.ExtraFiles = []*os.File{reqR, respW}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reqR.Close()
	respW.Close()
	defer func() {
		reqW.Close()
		cmd.Wait()
		respR.Close()
	}()
	if err := rt.WriteMsg(reqW, rt.AppendRequest(nil, q)); err != nil {
		t.Fatalf("writing the request: %v (%s)", err, stderr.String())
	}
	msg, err := rt.ReadMsg(respR, nil)
	if err != nil {
		t.Fatalf("reading the response: %v (%s)", err, stderr.String())
	}
	resp, err := rt.ParseResponse(msg)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// pruneTarget has a negation only the abstraction refutes cheaply: x < y
// after b, which x > y set. (abstractionTarget's x < 3 after x > 5 the
// execution tree settles itself, from the prefix's value sets, before
// the monitor sees it.)
const pruneTarget = `package p

func F(x, y int) int {
	b := false
	if x > y {
		b = true
	}
	if b {
		if x < y {
			return 1
		}
	}
	return 0
}
`

// TestAbstractionPrunes runs gocolic test -abstraction on pruneTarget:
// the monitor of F holds back the negation x < y after b (the solver is
// not asked), no execution leaves the monitor,
// no held-back negation is covered after all (soundness), testing
// covers every reachable outcome, and the report and summary say so;
// without the flag nothing is pruned and the report has no abstraction.
func TestAbstractionPrunes(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": pruneTarget})
	for _, on := range []bool{true, false} {
		rd := filepath.Join(t.TempDir(), "run")
		res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "10s", "-workers", "1", "-seed", "1",
			"-lanes", "concolic", "-solver", "z3", "-notests", "-nostate", "-abstraction="+strconv.FormatBool(on), "-rundir", rd, "./p", "F")
		if res.code != 0 {
			t.Fatalf("gocolic test exited %d:\n%s", res.code, res.stderr)
		}
		rep := readReport(t, filepath.Join(rd, "report.json"))
		if rep.Branches.Covered != 5 || !rep.Exhausted {
			t.Errorf("abstraction %t: covered %d, exhausted %t; want 5, exhausted", on, rep.Branches.Covered, rep.Exhausted)
		}
		a := rep.Abstraction
		if !on {
			if a != nil || strings.Contains(res.stderr, "abstraction:") {
				t.Errorf("without -abstraction: %+v", a)
			}
			continue
		}
		if a == nil {
			t.Fatalf("no abstraction in the report:\n%s", res.stderr)
		}
		if a.Pruned < 1 || a.Monitors < 1 || len(a.Alarms) != 0 || a.PrunedCovered != 0 || a.Functions < 1 || a.ARGNodes == 0 {
			t.Errorf("abstraction %+v: want a monitor that pruned, no alarm, nothing pruned covered", a)
		}
		if !strings.Contains(res.stderr, "monitors pruned") {
			t.Errorf("summary lacks the abstraction line:\n%s", res.stderr)
		}
	}
}

// localTarget fires a net's transition in a loop, as nsichneu does: the
// inner test contradicts the guard just passed, so only its false side
// can run.
const localTarget = `package p

func F(m, v int8) int {
	fired := 0
	for r := 0; r < 3; r++ {
		if m >= 3 {
			if v == m+1 {
				m -= 3
				fired++
				if m < -4 {
					fired += 100
				}
			}
		}
		m += v
	}
	return fired
}
`

// TestAbstractionLocal runs gocolic test -abstraction on localTarget: the
// dead outcome is proved by the straight code before it (proved_local),
// listed under unreachable with its line, its negations never reach the
// solver (the monitor prunes them first; held_by_claims counts what it
// left), and every reachable outcome is covered.
func TestAbstractionLocal(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": localTarget})
	rd := filepath.Join(t.TempDir(), "run")
	res := run(t, dir, 2*time.Minute, gocolic, "test", "-budget", "10s", "-workers", "1", "-seed", "1",
		"-lanes", "concolic", "-solver", "z3", "-notests", "-nostate", "-abstraction", "-rundir", rd, "./p", "F")
	if res.code != 0 {
		t.Fatalf("gocolic test exited %d:\n%s", res.code, res.stderr)
	}
	rep := readReport(t, filepath.Join(rd, "report.json"))
	a := rep.Abstraction
	if a == nil || a.Local != 1 || a.Pruned+a.HeldByClaims < 1 {
		t.Fatalf("abstraction %+v: want one outcome proved locally and its negations held, by the monitor or the claim", a)
	}
	if len(rep.Unreachable) != 1 || rep.Unreachable[0].Line != 10 || !rep.Unreachable[0].Outcome || rep.Unreachable[0].By != "mc" {
		t.Errorf("unreachable %+v: want outcome true of line 10, by mc", rep.Unreachable)
	}
	if rep.Branches.Covered != rep.Reachable() {
		t.Errorf("covered %d of %d reachable outcomes; want all:\n%s", rep.Branches.Covered, rep.Reachable(), res.stderr)
	}
	if !strings.Contains(res.stderr, "1 outcomes proved by the straight code before them") {
		t.Errorf("summary lacks the local proofs:\n%s", res.stderr)
	}
}
