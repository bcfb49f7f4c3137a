// This file runs go test -fuzz beside the concolic exploration
// (gocolic fuzz -with-fuzzer), the hybrid fuzzing of Driller and QSYM: the
// fuzzer covers the wide, easy paths fast, concolic execution opens the
// narrow ones, and each takes the other's new corpus entries.
//
// Go's fuzzer reads its corpus only when it starts, so inputs travel to it
// in rounds: when gocolic has kept new inputs and the round is old enough,
// they are written into the fuzzer's cache directory and the fuzzer is
// restarted (SIGINT, which it handles by saving its state). The fuzzer's
// new cache entries travel to gocolic as soon as they appear. A failure
// found by the fuzzer ends its round; its testdata file is held aside so
// that the next round does not stop at it, and put back when the run ends.

package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gocolic/gocolic/corpus"
	"github.com/gocolic/gocolic/proc"
	"github.com/gocolic/gocolic/report"
	"github.com/gocolic/gocolic/sym"
)

// hybrid is the fuzzer side of a -with-fuzzer run.
type hybrid struct {
	moduleDir string
	t         *Entry
	parallel  int
	cacheDir  string // the fuzzer's corpus cache for the target
	dataDir   string // testdata/fuzz/FuzzXxx of the package
	// holdDir is where the fuzzer's failures wait for the end of the run:
	// beside testdata/fuzz/FuzzXxx, so that not even a killed gocolic
	// loses them.
	holdDir string
	inject  chan sym.Env
	log     io.Writer

	mu      sync.Mutex
	pending []sym.Env // inputs gocolic kept, not yet given to the fuzzer
	stats   report.HybridStats
	known   map[string]bool // cache and testdata file names already exchanged
	initial map[string]bool // testdata files present before the run
	held    map[string]string
}

// newHybrid prepares the fuzzer side.
func newHybrid(moduleDir string, t *Entry, parallel int, log io.Writer) (*hybrid, error) {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		return nil, fmt.Errorf("finding the go build cache: %w", err)
	}
	h := &hybrid{
		moduleDir: moduleDir, t: t, parallel: parallel, log: log,
		cacheDir: filepath.Join(strings.TrimSpace(string(out)), "fuzz", t.PkgPath, t.Func),
		dataDir:  filepath.Join(t.PkgDir, "testdata", "fuzz", t.Func),
		holdDir:  filepath.Join(t.PkgDir, "testdata", "fuzz", "."+t.Func+".gocolic-held"),
		inject:   make(chan sym.Env),
		known:    map[string]bool{},
		stats:    report.HybridStats{Parallel: parallel},
		initial:  map[string]bool{},
		held:     map[string]string{},
	}
	if entries, err := os.ReadDir(h.dataDir); err == nil {
		for _, e := range entries {
			h.initial[filepath.Join(h.dataDir, e.Name())] = true
		}
	}
	// What is there before the run is the seeds' business, not news.
	for _, d := range []string{h.cacheDir, h.dataDir} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			h.known[filepath.Join(d, e.Name())] = true
		}
	}
	return h, nil
}

// keep is the coordinator's OnKeep: it queues an input for the fuzzer. A
// failing input is not given: the fuzzer would stop at it while it
// gathers its baseline.
func (h *hybrid) keep(env sym.Env, failed bool) {
	if failed {
		return
	}
	h.mu.Lock()
	h.pending = append(h.pending, env)
	h.mu.Unlock()
}

// Stats returns the counts so far.
func (h *hybrid) Stats() report.HybridStats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stats
}

// roundLength is the least time a fuzzer round runs before it is
// restarted to take gocolic's inputs: restarts cost the fuzzer its warm
// state and a pass over its corpus.
func roundLength(budget time.Duration) time.Duration {
	return min(max(budget/6, 2*time.Second), 30*time.Second)
}

// run drives the fuzzer rounds until ctx ends or the budget is spent. It
// closes h.inject when it returns.
func (h *hybrid) run(ctx context.Context, budget time.Duration) {
	defer close(h.inject)
	deadline := time.Now().Add(budget)
	polls := time.NewTicker(250 * time.Millisecond)
	defer polls.Stop()
	for ctx.Err() == nil {
		left := time.Until(deadline)
		if left < time.Second {
			return
		}
		h.givePending()
		f, err := h.start(left)
		if err != nil {
			h.stop(err.Error())
			return
		}
		started := time.Now()
		exited := false
		for !exited {
			select {
			case <-ctx.Done():
				f.interrupt()
				<-f.done
				h.take(ctx)
				return
			case <-f.done:
				exited = true
			case <-polls.C:
				h.take(ctx)
				h.mu.Lock()
				waiting := len(h.pending)
				h.mu.Unlock()
				if waiting > 0 && time.Since(started) >= roundLength(budget) && time.Until(deadline) > 2*time.Second {
					f.interrupt()
					<-f.done
					exited = true
				}
			}
		}
		h.take(ctx)
		if f.err != nil && !f.interrupted {
			failures := h.holdFailures()
			if failures == 0 && FuzzerDeadlineRace(f.out.Bytes()) {
				return // the fuzzer spent its time; Go misreported the end
			}
			if failures == 0 {
				h.stop(fmt.Sprintf("go test -fuzz failed: %v\n%s", f.err, f.tail()))
				return
			}
			h.mu.Lock()
			h.stats.FuzzerFailed++
			h.mu.Unlock()
		} else if !f.interrupted {
			return // the fuzzer spent its time
		}
	}
}

// stop records why the fuzzer side ended early.
func (h *hybrid) stop(note string) {
	h.mu.Lock()
	h.stats.Note = note
	h.mu.Unlock()
	fmt.Fprintf(h.log, "gocolic: the fuzzer stopped: %s\n", firstLine(note))
}

// deadlineRaceRE matches the whole failure report of a go test -fuzz run
// that Go's coordinator ended at its own -fuzztime deadline.
var deadlineRaceRE = regexp.MustCompile(`(?m)^--- FAIL: Fuzz\w* \([0-9.]+s\)\n\s+context deadline exceeded\n`)

// FuzzerDeadlineRace reports whether the output of a failed go test -fuzz
// run shows Go's end-of-fuzztime race (go.dev/issue/75804, fixed in Go
// 1.27) rather than a failure of the target: the coordinator reports its
// own -fuzztime deadline as the target's failure, and writes no failing
// input. Such a run spent its time normally.
func FuzzerDeadlineRace(out []byte) bool {
	return deadlineRaceRE.Match(out) && !bytes.Contains(out, []byte("Failing input written to"))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// fuzzerProc is one round of go test -fuzz.
type fuzzerProc struct {
	cmd         *exec.Cmd
	out         *bytes.Buffer
	done        chan struct{}
	err         error
	interrupted bool
}

func (h *hybrid) start(left time.Duration) (*fuzzerProc, error) {
	secs := int(left / time.Second)
	cmd := proc.Command("go", "test", "-run=^$", "-fuzz=^"+h.t.Func+"$",
		fmt.Sprintf("-fuzztime=%ds", secs), fmt.Sprintf("-parallel=%d", h.parallel), h.t.PkgPath)
	cmd.Dir = h.moduleDir
	f := &fuzzerProc{cmd: cmd, out: new(bytes.Buffer), done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = f.out, f.out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting go test -fuzz: %w", err)
	}
	h.mu.Lock()
	h.stats.Rounds++
	h.mu.Unlock()
	go func() {
		f.err = cmd.Wait()
		close(f.done)
	}()
	return f, nil
}

// interrupt asks the fuzzer to stop as on Ctrl-C, and kills it if it does
// not within a few seconds.
func (f *fuzzerProc) interrupt() {
	f.interrupted = true
	proc.Stop(f.cmd, f.done, 5*time.Second)
}

// tail returns the end of the fuzzer's output, for error messages.
func (f *fuzzerProc) tail() string {
	s := f.out.String()
	if len(s) > 2000 {
		s = s[len(s)-2000:]
	}
	return strings.TrimSpace(s)
}

// givePending writes gocolic's kept inputs into the fuzzer's cache.
func (h *hybrid) givePending() {
	h.mu.Lock()
	pending := h.pending
	h.pending = nil
	h.mu.Unlock()
	if len(pending) == 0 {
		return
	}
	if err := os.MkdirAll(h.cacheDir, 0o755); err != nil {
		return
	}
	n := 0
	for _, env := range pending {
		data, name := corpusFile(env, h.t)
		path := filepath.Join(h.cacheDir, name)
		h.mu.Lock()
		seen := h.known[path]
		h.known[path] = true
		h.mu.Unlock()
		if seen {
			continue
		}
		if _, err := os.Stat(path); err == nil {
			continue
		}
		if writeAtomic(path, data) == nil {
			n++
		}
	}
	h.mu.Lock()
	h.stats.ToFuzzer += n
	h.mu.Unlock()
}

// take gives gocolic the entries the fuzzer added to its cache and to
// testdata since the last look.
func (h *hybrid) take(ctx context.Context) {
	for _, d := range []string{h.cacheDir, h.dataDir} {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			path := filepath.Join(d, e.Name())
			h.mu.Lock()
			seen := h.known[path]
			h.mu.Unlock()
			if seen || e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			data, err := os.ReadFile(path)
			if err != nil {
				continue // still being written: next look
			}
			vs, err := corpus.Parse(data)
			if err != nil {
				continue
			}
			env, err := entryEnv(vs, h.t, h.t.maxLen)
			if err != nil {
				continue
			}
			h.mu.Lock()
			h.known[path] = true
			h.stats.FromFuzzer++
			h.mu.Unlock()
			select {
			case h.inject <- env:
			case <-ctx.Done():
				return
			}
		}
	}
}

// holdFailures moves the files the fuzzer added to testdata (its
// failures) aside, so that the next round does not stop at them, and
// returns how many it moved.
func (h *hybrid) holdFailures() int {
	entries, _ := os.ReadDir(h.dataDir)
	n := 0
	for _, e := range entries {
		path := filepath.Join(h.dataDir, e.Name())
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		h.mu.Lock()
		_, already := h.held[path]
		h.mu.Unlock()
		if h.initial[path] {
			continue
		}
		if already {
			// Found again: the name is the hash of the content, so the
			// held copy is the same input.
			if os.Remove(path) == nil {
				n++
			}
			continue
		}
		if err := os.MkdirAll(h.holdDir, 0o755); err != nil {
			return n
		}
		hold := filepath.Join(h.holdDir, e.Name())
		if os.Rename(path, hold) == nil {
			h.mu.Lock()
			h.held[path] = hold
			h.mu.Unlock()
			n++
		}
	}
	return n
}

// restore puts the fuzzer's failures back into testdata, where go test
// replays them, or, with drop (-nocorpus), deletes them.
func (h *hybrid) restore(drop bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var errs []error
	for path, hold := range h.held {
		if _, err := os.Stat(path); err == nil || drop {
			os.Remove(hold) // gocolic wrote the same input
			continue
		}
		if err := os.Rename(hold, path); err != nil {
			errs = append(errs, fmt.Errorf("restoring the fuzzer's failure %s: %w", path, err))
		}
	}
	h.held = map[string]string{}
	os.Remove(h.holdDir) // only if empty
	return errors.Join(errs...)
}
