// This file implements the coordinator's handle on one worker process: it
// starts the instrumented binary, sends it inputs over a pipe, reads the
// responses from another, and notices when the target kills it.

package coordinator

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gocolic/gocolic/proc"
	"github.com/gocolic/gocolic/rt"
)

// CrashKind classifies an execution that killed its worker.
type CrashKind string

// The ways the target can kill a worker.
const (
	CrashExit    CrashKind = "exit"    // the target called os.Exit
	CrashFatal   CrashKind = "fatal"   // a fatal runtime error, or a panic in another goroutine
	CrashTimeout CrashKind = "timeout" // the execution exceeded its time limit
	CrashMemory  CrashKind = "memory"  // the worker exceeded its memory limit
)

// Crash describes an execution that killed its worker.
type Crash struct {
	Kind    CrashKind
	Message string // first line that explains it
	Output  string // tail of the worker's stderr
}

// worker is one running worker process.
type worker struct {
	bin      string
	timeout  time.Duration
	memLimit uint64 // bytes of resident memory; 0 for no limit

	cmd    *exec.Cmd
	req    *os.File // our end of the request pipe
	resp   *bufio.Reader
	respF  *os.File
	stderr *tail
	done   chan struct{} // closed when the process has exited
	buf    []byte
}

// tail keeps the first and the last bytes written to it since its last
// reset: a fatal error states its cause at the top and then dumps every
// goroutine, so the tail alone can lose it.
type tail struct {
	mu   sync.Mutex
	head []byte
	buf  []byte
	cut  bool // bytes were dropped between head and buf
	max  int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if room := t.max - len(t.head); room > 0 {
		k := min(room, len(p))
		t.head = append(t.head, p[:k]...)
		p = p[k:]
	}
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0:0], t.buf[len(t.buf)-t.max:]...)
		t.cut = true
	}
	return n, nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cut {
		return string(t.head) + "\n[...]\n" + string(t.buf)
	}
	return string(t.head) + string(t.buf)
}

func (t *tail) reset() {
	t.mu.Lock()
	t.head, t.buf, t.cut = t.head[:0], t.buf[:0], false
	t.mu.Unlock()
}

// spec says how to start a worker process: the binary, its arguments, the
// directory it runs in, the value of rt.WorkerEnv ("1" unless it is an
// evaluator), extra environment variables, and the limits of one request.
type spec struct {
	bin      string
	args     []string
	dir      string
	mode     string
	env      []string
	timeout  time.Duration
	memLimit uint64
}

// startWorker starts a worker process.
func startWorker(sp spec) (*worker, error) {
	bin, args, timeout, memLimit := sp.bin, sp.args, sp.timeout, sp.memLimit
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("starting worker: %w", err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fmt.Errorf("starting worker: %w", err)
	}
	w := &worker{bin: bin, timeout: timeout, memLimit: memLimit, stderr: &tail{max: 16 << 10}, done: make(chan struct{})}
	cmd := proc.Command(bin, args...)
	// As go test runs a test binary: in the package's directory, where a
	// fuzz target's own code finds its testdata by relative paths.
	cmd.Dir = sp.dir
	mode := sp.mode
	if mode == "" {
		mode = "1"
	}
	cmd.Env = append(append(os.Environ(), rt.WorkerEnv+"="+mode), sp.env...)
	cmd.ExtraFiles = []*os.File{reqR, respW} // fds 3 and 4
	cmd.Stdout = io.Discard
	cmd.Stderr = w.stderr
	if err := cmd.Start(); err != nil {
		reqR.Close()
		reqW.Close()
		respR.Close()
		respW.Close()
		return nil, fmt.Errorf("starting worker %s: %w", bin, err)
	}
	reqR.Close()
	respW.Close()
	w.cmd, w.req, w.respF, w.resp = cmd, reqW, respR, bufio.NewReader(respR)
	go func() {
		cmd.Wait()
		close(w.done)
	}()
	return w, nil
}

type reply struct {
	msg []byte
	err error
}

// run executes one request. It returns the response, or a Crash when the
// execution killed the worker (the worker is then dead and must be
// replaced), or an error when the worker failed for reasons of its own.
func (w *worker) run(q *rt.Request) (*rt.Response, *Crash, error) {
	return w.runWithin(q, w.timeout)
}

// runWithin is run with a time limit of its own.
func (w *worker) runWithin(q *rt.Request, timeout time.Duration) (*rt.Response, *Crash, error) {
	w.buf = rt.AppendRequest(w.buf[:0], q)
	msg, crash := w.roundTripWithin(w.buf, timeout)
	if crash != nil {
		return nil, crash, nil
	}
	resp, err := rt.ParseResponse(msg)
	if err != nil {
		w.kill()
		return nil, nil, err
	}
	return resp, nil, nil
}

// runBatch executes a batch of inputs (the mutation lane's), all of
// them within timeout. It returns the response, or a Crash when an input
// killed the worker (which one the batch does not say), or an error when
// the worker failed for reasons of its own.
func (w *worker) runBatch(q *rt.Batch, timeout time.Duration) (*rt.BatchResponse, *Crash, error) {
	w.buf = rt.AppendBatch(w.buf[:0], q)
	msg, crash := w.roundTripWithin(w.buf, timeout)
	if crash != nil {
		return nil, crash, nil
	}
	resp, err := rt.ParseBatchResponse(msg)
	if err == nil {
		err = checkBatchResponse(q, resp)
	}
	if err != nil {
		w.kill()
		return nil, nil, err
	}
	return resp, nil, nil
}

// checkBatchResponse checks that a batch's response answers for its
// inputs: all of them ran, and the results name them in order, with their
// inputs when the batch was a generated one.
func checkBatchResponse(q *rt.Batch, resp *rt.BatchResponse) error {
	n := len(q.Inputs)
	if q.Count > 0 {
		n = q.Count
	}
	if resp.Ran != n {
		return fmt.Errorf("batch of %d inputs answered for %d", n, resp.Ran)
	}
	last := -1
	for _, r := range resp.Results {
		if r.Index <= last || r.Index >= n {
			return fmt.Errorf("batch of %d inputs answered for input %d after input %d", n, r.Index, last)
		}
		if q.Count > 0 && r.Input == nil {
			return fmt.Errorf("generated batch answered for input %d without it", r.Index)
		}
		last = r.Index
	}
	return nil
}

// roundTrip sends one request payload and waits for the answer, killing
// the worker when it takes longer than the timeout or grows beyond the
// memory limit; a Crash says why there is no answer.
func (w *worker) roundTrip(payload []byte) ([]byte, *Crash) {
	return w.roundTripWithin(payload, w.timeout)
}

// roundTripWithin is roundTrip with a time limit of its own.
func (w *worker) roundTripWithin(payload []byte, timeout time.Duration) ([]byte, *Crash) {
	w.stderr.reset()
	if err := rt.WriteMsg(w.req, payload); err != nil {
		return nil, w.crashed()
	}
	ch := make(chan reply, 1)
	go func() {
		msg, err := rt.ReadMsg(w.resp, nil)
		ch <- reply{msg, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case r := <-ch:
			if r.err != nil {
				return nil, w.crashed()
			}
			return r.msg, nil
		case <-timer.C:
			w.kill()
			<-ch
			return nil, &Crash{Kind: CrashTimeout, Message: fmt.Sprintf("execution exceeded %v", timeout), Output: w.stderr.String()}
		case <-tick.C:
			if w.memLimit > 0 {
				if rss := residentBytes(w.cmd.Process.Pid); rss > w.memLimit {
					w.kill()
					<-ch
					return nil, &Crash{Kind: CrashMemory, Message: fmt.Sprintf("worker memory exceeded %d MiB", w.memLimit>>20), Output: w.stderr.String()}
				}
			}
		}
	}
}

// crashed waits for the dead worker and classifies its end.
func (w *worker) crashed() *Crash {
	select {
	case <-w.done:
	case <-time.After(5 * time.Second):
		w.kill()
	}
	out := w.stderr.String()
	c := &Crash{Output: out}
	switch {
	case strings.Contains(out, "fatal error: "):
		c.Kind = CrashFatal
		c.Message = lineWith(out, "fatal error: ")
	case strings.Contains(out, "panic: "):
		c.Kind = CrashFatal
		c.Message = lineWith(out, "panic: ")
	default:
		c.Kind = CrashExit
		code := -1
		if w.cmd.ProcessState != nil {
			code = w.cmd.ProcessState.ExitCode()
		}
		if code == rt.ExitInternal {
			c.Message = "worker failed: " + strings.TrimSpace(lastLine(out))
		} else {
			c.Message = "exit status " + strconv.Itoa(code)
			if ws, ok := w.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				c.Message = "killed by signal " + ws.Signal().String()
			}
		}
	}
	return c
}

func lineWith(s, sub string) string {
	i := strings.Index(s, sub)
	s = s[i:]
	if j := strings.IndexByte(s, '\n'); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSpace(s)
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// kill stops the worker's whole process group and waits for it.
func (w *worker) kill() {
	proc.Kill(w.cmd) // an error only says the group is gone already
	<-w.done
	w.req.Close()
	w.respF.Close()
}

// close ends the worker politely: closing its request pipe makes it exit.
func (w *worker) close() {
	w.req.Close()
	select {
	case <-w.done:
	case <-time.After(2 * time.Second):
		w.kill()
	}
	w.respF.Close()
}

// residentBytes returns the resident set size of a process, 0 if unknown.
func residentBytes(pid int) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}
