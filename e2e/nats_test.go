package e2e

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocolic/gocolic/dist"
	"github.com/gocolic/gocolic/report"
)

// slowBranches has 16 paths, one of them a panic, and takes a fifth of
// a second an execution, so that an executor can be killed while it runs
// one.
const slowBranches = `package slow

import "time"

func Slow(a, b, c, d byte) int {
	time.Sleep(200 * time.Millisecond)
	n := 0
	if a > 10 {
		n++
	}
	if b == 7 {
		n += 2
	}
	if c < 3 {
		n += 4
	}
	if d == a {
		n += 8
	}
	if n == 15 {
		panic("all four")
	}
	return n
}
`

// TestNATSDisturbed spreads a run over gocolic worker processes through
// an embedded NATS server, kills one of them while it runs an input,
// starts another late, and checks that the run explores what an
// undisturbed run does: the same paths, coverage and bug, exhausted.
func TestNATSDisturbed(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"slow/slow.go": slowBranches})
	common := []string{"-budget", "3m", "-workers", "2", "-seed", "1", "-lanes", "concolic", "-strategy", "dfs", "-notests", "-nostate"}
	plainJSON := filepath.Join(t.TempDir(), "plain.json")
	res := run(t, dir, 4*time.Minute, gocolic, append(append([]string{"test"}, common...), "-json", plainJSON, "./slow", "Slow")...)
	if res.code != 0 {
		t.Fatalf("plain run exited %d:\n%s", res.code, res.stderr)
	}
	plain := readReport(t, plainJSON)

	natsJSON := filepath.Join(t.TempDir(), "nats.json")
	coord, out, url := startListening(t, dir, "e2e", append(append([]string{"test"}, common...), "-json", natsJSON, "./slow", "Slow")...)

	doomed, _ := startWorker(t, url, "e2e", 1)
	steady, steadyOut := startWorker(t, url, "e2e", 1)
	// Both run inputs; kill the doomed one in the middle of one (each
	// takes 200 ms, and there are always two out).
	waitFor(t, out, regexp.MustCompile(`execs: [1-9]`), time.Minute)
	time.Sleep(300 * time.Millisecond)
	if err := doomed.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	doomed.Wait()
	late, lateOut := startWorker(t, url, "e2e", 1)

	waitEnd(t, coord, out, 4*time.Minute)
	for _, w := range []struct {
		cmd *exec.Cmd
		out *syncBuffer
	}{{steady, steadyOut}, {late, lateOut}} {
		if err := w.cmd.Wait(); err != nil {
			t.Errorf("worker: %v\n%s", err, w.out.String())
		}
		if !strings.Contains(w.out.String(), "run e2e ended") {
			t.Errorf("worker did not see the run end:\n%s", w.out.String())
		}
	}
	disturbed := readReport(t, natsJSON)
	if plain.Stopped != "exhausted" || disturbed.Stopped != "exhausted" {
		t.Errorf("stopped %q and %q, want both exhausted\n%s", plain.Stopped, disturbed.Stopped, out.String())
	}
	if plain.Paths != 16 || disturbed.Paths != plain.Paths {
		t.Errorf("paths: plain %d, over NATS %d; want 16 both", plain.Paths, disturbed.Paths)
	}
	if plain.Branches.Covered != disturbed.Branches.Covered || plain.Branches.Total != disturbed.Branches.Total {
		t.Errorf("branches: plain %d/%d, over NATS %d/%d", plain.Branches.Covered, plain.Branches.Total, disturbed.Branches.Covered, disturbed.Branches.Total)
	}
	bugs := func(r []string) []string { slices.Sort(r); return r }
	var pb, db []string
	for _, b := range plain.Bugs {
		pb = append(pb, b.Message)
	}
	for _, b := range disturbed.Bugs {
		db = append(db, b.Message)
	}
	if !slices.Equal(bugs(pb), []string{"all four"}) || !slices.Equal(bugs(db), bugs(pb)) {
		t.Errorf("bugs: plain %q, over NATS %q; want \"all four\" both", pb, db)
	}
	items, queries := natsItems(t, out.String())
	if n := items - queries; n != disturbed.Executions || queries != 0 {
		t.Errorf("%d inputs and %d queries over NATS, %d executions: an input was lost or run twice into the tree", n, queries, disturbed.Executions)
	}
}

// startListening starts gocolic with args in dir as the coordinator of
// run on an embedded server that listens on loopback, with no executor
// of its own, and returns it, its output and the URL workers join at.
func startListening(t *testing.T, dir, run string, args ...string) (*exec.Cmd, *syncBuffer, string) {
	t.Helper()
	args = append(args[:1:1], append([]string{"-nats", "embedded", "-nats-listen", "127.0.0.1:0", "-local", "0", "-run", run}, args[1:]...)...)
	coord := exec.Command(gocolic, args...)
	coord.Dir = dir
	out := new(syncBuffer)
	coord.Stdout, coord.Stderr = out, out
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { coord.Process.Kill() })
	url := waitFor(t, out, regexp.MustCompile(`gocolic worker -nats (\S+) -run `+regexp.QuoteMeta(run)), 2*time.Minute)[1]
	return coord, out, url
}

// startWorker starts gocolic worker for run on the server at url with n
// executors, in a directory of its own, killed when the test ends.
func startWorker(t *testing.T, url, run string, n int) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	w := exec.Command(gocolic, "worker", "-nats", url, "-run", run, "-workers", strconv.Itoa(n), "-dir", t.TempDir())
	out := new(syncBuffer)
	w.Stdout, w.Stderr = out, out
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Process.Kill(); w.Wait() })
	return w, out
}

// waitEnd waits for the coordinator cmd to end well within limit, and
// fails the test with its output otherwise.
func waitEnd(t *testing.T, cmd *exec.Cmd, out *syncBuffer, limit time.Duration) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("coordinator: %v\n%s", err, out.String())
		}
	case <-time.After(limit):
		t.Fatalf("coordinator did not end:\n%s", out.String())
	}
}

// natsItems reads the items and queries of the NATS summary line.
func natsItems(t *testing.T, out string) (items, queries int) {
	t.Helper()
	m := regexp.MustCompile(`over NATS: (\d+) items \(\d+ bytes, (\d+) of them queries`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no NATS summary line:\n%s", out)
	}
	items, _ = strconv.Atoi(m[1])
	queries, _ = strconv.Atoi(m[2])
	return items, queries
}

// TestNATSSolve runs slowBranches with the executors solving the
// queries too (-nats-solve): the run explores what a plain run does (the
// same paths, coverage and bug, exhausted), every query went to the
// executors, and the report's solver layer says so.
func TestNATSSolve(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"slow/slow.go": slowBranches})
	common := []string{"-budget", "3m", "-workers", "2", "-seed", "1", "-lanes", "concolic", "-strategy", "dfs", "-solver", "z3", "-notests", "-nostate", "./slow", "Slow"}
	var reps [2]*report.Report
	var stderr string
	for i, extra := range [][]string{nil, {"-nats", "embedded", "-nats-solve"}} {
		js := filepath.Join(t.TempDir(), "r.json")
		res := run(t, dir, 4*time.Minute, gocolic, append(append(append([]string{"test"}, extra...), "-json", js), common...)...)
		if res.code != 0 {
			t.Fatalf("gocolic test %v exited %d:\n%s", extra, res.code, res.stderr)
		}
		reps[i], stderr = readReport(t, js), res.stderr
	}
	plain, solved := reps[0], reps[1]
	if plain.Stopped != "exhausted" || solved.Stopped != "exhausted" || plain.Paths != 16 || solved.Paths != 16 ||
		solved.Branches.Covered != plain.Branches.Covered || len(solved.Bugs) != 1 || solved.Bugs[0].Message != "all four" {
		t.Errorf("plain: %s, %d paths, %d covered; solved on executors: %s, %d paths, %d covered, bugs %v",
			plain.Stopped, plain.Paths, plain.Branches.Covered, solved.Stopped, solved.Paths, solved.Branches.Covered, solved.Bugs)
	}
	items, queries := natsItems(t, stderr)
	if queries == 0 || queries != solved.Solver.Queries || items-queries != solved.Executions {
		t.Errorf("%d items, %d of them queries; the run asked %d queries and ran %d inputs", items, queries, solved.Solver.Queries, solved.Executions)
	}
	if l := solved.Solver.Layers; len(l) != 1 || l[0].Name != "executors" || l[0].Queries != queries {
		t.Errorf("solver layers %+v, want the executors' alone, with every query", l)
	}
	if !strings.Contains(stderr, "queries at a time solved by the executors") {
		t.Errorf("the run does not say who solves:\n%s", stderr)
	}
}

// TestNATSBadServer gives gocolic test and gocolic worker a server that
// does not answer: each says so in one line and exits 1.
func TestNATSBadServer(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"slow/slow.go": slowBranches})
	for _, args := range [][]string{
		{"test", "-runs", "10", "-lanes", "concolic", "-nats", "nats://127.0.0.1:1", "./slow", "Slow"},
		{"worker", "-nats", "nats://127.0.0.1:1", "-dir", t.TempDir()},
	} {
		res := run(t, dir, 2*time.Minute, gocolic, args...)
		lines := strings.Split(strings.TrimSpace(res.stderr), "\n")
		last := lines[len(lines)-1]
		if res.code == 0 || !strings.Contains(last, "connecting to the NATS server at nats://127.0.0.1:1") {
			t.Errorf("gocolic %s: exit %d, last line %q; want a failure and the connection refused", args[0], res.code, last)
		}
		if args[0] == "test" && strings.Contains(res.stderr, "exploring") {
			t.Errorf("gocolic test built and explored before it found the server missing:\n%s", res.stderr)
		}
	}
	res := run(t, dir, time.Minute, gocolic, "test", "-runs", "10", "-nats-solve", "./slow", "Slow")
	if res.code != 2 || !strings.Contains(res.stderr, "need -nats") {
		t.Errorf("-nats-solve without -nats: exit %d\n%s\nwant 2 and the advice to add -nats", res.code, res.stderr)
	}
}

// fastBranches is slowBranches without the sleep: the mutation lane
// runs thousands of its inputs a second.
var fastBranches = strings.NewReplacer("package slow", "package fast", "import \"time\"\n\n", "",
	"func Slow(", "func Fast(", "\ttime.Sleep(200 * time.Millisecond)\n", "").Replace(slowBranches)

// TestNATSBothLanes runs both lanes over NATS, with the executors in a
// separate gocolic worker process and solving the queries too: the
// mutation lane's batches run there, and the run covers every outcome
// and finds the bug, as a plain run does.
func TestNATSBothLanes(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"fast/fast.go": fastBranches})
	js := filepath.Join(t.TempDir(), "r.json")
	coord, out, url := startListening(t, dir, "lanes", "test", "-budget", "8s", "-workers", "2", "-seed", "1", "-nats-solve",
		"-notests", "-nostate", "-json", js, "./fast", "Fast")
	_, wout := startWorker(t, url, "lanes", 2)
	waitEnd(t, coord, out, 3*time.Minute)
	rep := readReport(t, js)
	if rep.Lanes == nil || rep.Lanes.MutationExecs == 0 {
		t.Fatalf("no batch ran on the worker: lanes %+v\n%s", rep.Lanes, out.String())
	}
	if rep.Branches.Covered != rep.Branches.Total || len(rep.Bugs) != 1 || rep.Bugs[0].Message != "all four" {
		t.Errorf("covered %d/%d, bugs %+v; want everything and the bug", rep.Branches.Covered, rep.Branches.Total, rep.Bugs)
	}
	if m := regexp.MustCompile(`(\d+) batches`).FindStringSubmatch(out.String()); m == nil || m[1] == "0" {
		t.Errorf("the NATS summary counts no batch:\n%s", out.String())
	}
	if !strings.Contains(wout.String(), "which solve its queries too") {
		t.Errorf("the worker does not say it solves:\n%s", wout.String())
	}
}

// waitFor waits until out matches re and returns the match.
func waitFor(t *testing.T, out *syncBuffer, re *regexp.Regexp, limit time.Duration) []string {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q within %v:\n%s", re, limit, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestNATSCoordinatorKilled runs the slow target on a NATS server of its
// own (this test process's), kills the coordinator in the middle, and
// starts it again with the same run id: the second coordinator runs the
// inputs the first kept, then explores the rest, and ends as an
// undisturbed run does.
func TestNATSCoordinatorKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	srv, err := dist.StartEmbedded("127.0.0.1:0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	dir := module(t, map[string]string{"slow/slow.go": slowBranches})
	js := filepath.Join(t.TempDir(), "r.json")
	// One input out at a time: 16 of 200 ms each, about 3 s to kill in.
	args := []string{"test", "-budget", "3m", "-workers", "1", "-seed", "1", "-lanes", "concolic", "-strategy", "dfs",
		"-notests", "-nostate", "-nats", srv.URL(), "-run", "again", "-json", js, "./slow", "Slow"}
	first := exec.Command(gocolic, args...)
	first.Dir = dir
	out := new(syncBuffer)
	first.Stdout, first.Stderr = out, out
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out, regexp.MustCompile(`execs: ([2-9]|1[0-3]) \(`), 2*time.Minute)
	first.Process.Kill()
	first.Wait()

	res := run(t, dir, 4*time.Minute, gocolic, args...)
	if res.code != 0 {
		t.Fatalf("the second coordinator exited %d:\n%s", res.code, res.stderr)
	}
	m := regexp.MustCompile(`resuming run again: first the (\d+) inputs it kept before`).FindStringSubmatch(res.stderr)
	if m == nil {
		t.Fatalf("the second coordinator did not resume:\n%s\nthe first:\n%s", res.stderr, out.String())
	}
	if n, _ := strconv.Atoi(m[1]); n == 0 {
		t.Errorf("resumed 0 inputs")
	}
	rep := readReport(t, js)
	if rep.Stopped != "exhausted" || rep.Paths != 16 || len(rep.Bugs) != 1 || rep.Bugs[0].Message != "all four" {
		t.Errorf("stopped %q with %d paths and bugs %v; want exhausted, 16 and \"all four\"\n%s", rep.Stopped, rep.Paths, rep.Bugs, res.stderr)
	}
}
