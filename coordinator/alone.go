// This file checks, once the exploration is over, that each finding
// fails alone. A worker process runs many inputs, so a target that keeps
// package-level state (a global flag set, a registry, a cache) may fail
// on an input only because earlier inputs ran in the same process:
// pflag's Bool panics "flag redefined" for a name an earlier input
// defined. Each finding's input runs once more in a worker process
// started for it and stopped after; a finding whose failure does not
// recur there is state-dependent: it leaves Findings for StateDependent,
// and gets no reproducer test and no corpus entry.

package coordinator

import (
	"context"
	"errors"
	"time"

	"github.com/gocolic/gocolic/proc"
	"github.com/gocolic/gocolic/sym"
)

// aloneLimits bound the check: a process start per finding costs tens
// of milliseconds, and a target with global state can make thousands of
// distinct findings (6 809 on pflag), all failing at one place.
type aloneLimits struct {
	// runs is the most findings run alone in one run; those after them
	// stay findings, unchecked.
	runs int
	// frame is how many findings of one kind and innermost frame must
	// not recur alone before the others of that kind and frame are
	// classified state-dependent without a run.
	frame int
}

// The limits of every run (aloneLimits).
const (
	aloneRuns  = 64
	aloneFrame = 3
)

// AloneStats counts what the check of findings alone did (alone.go).
type AloneStats struct {
	// Checked counts the findings run alone, each in a worker process
	// of its own.
	Checked int
	// Inferred counts the findings classified state-dependent without a
	// run: enough others of their kind and innermost frame had not
	// failed alone (aloneLimits.frame).
	Inferred int
	// Unchecked counts the findings kept without a check: past the limit
	// of runs, or after an interrupt or a worker that would not start.
	Unchecked int
	// Elapsed is the time the check took.
	Elapsed time.Duration
}

// errAloneInterrupted says that the run alone was cut by the context:
// it decides nothing.
var errAloneInterrupted = errors.New("interrupted")

// checkAlone runs the input of each finding, in the order found, in a
// worker process of its own, and moves the findings whose failure does
// not recur there (another finding key, or none) to
// Report.StateDependent. An interrupt ends the check, keeping the
// findings not yet decided; a worker that does not start ends it too, and
// is an internal failure.
func (d *coordinator) checkAlone(ctx context.Context, lim aloneLimits) {
	start := time.Now()
	defer func() { d.rep.Alone.Elapsed = time.Since(start) }()
	m := &minimizer{d: d}
	defer m.close() // after a panic of the check: no worker is left running
	var kept, moved []*Finding
	misses := map[string]int{} // kind and innermost frame → findings that did not recur alone
	reproduced := 0
	fs := d.rep.Findings
	for i, f := range fs {
		if ctx.Err() != nil {
			kept = append(kept, fs[i:]...)
			break
		}
		// A failure with no frame (an exit, a hang) is classified by
		// its own run only: its kind alone says little of its cause.
		frame := topFrame(f.Stack)
		place := f.Kind + "\x00" + frame
		if frame != "" && misses[place] >= lim.frame {
			d.rep.Alone.Inferred++
			moved = append(moved, f)
			continue
		}
		// Hangs and memory blow-ups are run too, though each check
		// costs up to a whole limit: their messages carry no frame, so
		// a run has one of each at most, and a timeout of a loaded
		// machine (found after the budget, in a batch's bisection) did
		// not recur once the load was gone.
		if d.rep.Alone.Checked >= lim.runs {
			kept = append(kept, f)
			continue
		}
		key, limit, err := m.alone(ctx, f.Input)
		if errors.Is(err, errAloneInterrupted) {
			kept = append(kept, fs[i:]...)
			break
		}
		if err != nil {
			d.internalFailure("alone", err, "the findings not yet checked stay bugs")
			kept = append(kept, fs[i:]...)
			break
		}
		d.rep.Alone.Checked++
		if key == findingKey(f.Kind, f.Message, f.Stack) {
			reproduced++
			kept = append(kept, f)
			continue
		}
		if limit != "" && limit != f.Kind {
			// The run alone hit a time or memory limit before it could
			// fail as found (a fresh process on a loaded machine): that
			// says nothing of the failure, which stays a bug, unchecked.
			kept = append(kept, f)
			continue
		}
		misses[place]++
		moved = append(moved, f)
	}
	d.rep.Alone.Unchecked = len(kept) - reproduced
	d.rep.Findings, d.rep.StateDependent = kept, moved
}

// alone runs env on a worker started for it and stopped after it, and
// returns the finding key of that run ("" when it returned normally) and,
// when the run hit the time or memory limit, that crash's kind. An
// interrupt of ctx kills the worker and makes the error
// errAloneInterrupted; a worker that fails to start or to answer is an
// error.
func (m *minimizer) alone(ctx context.Context, env sym.Env) (key, limit string, err error) {
	if m.w != nil { // a fresh process: nothing an earlier input left
		m.w.kill()
		m.w = nil
	}
	w, err := startWorker(m.d.spec())
	if err != nil {
		return "", "", err
	}
	m.w = w
	killed := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		proc.Kill(w.cmd) // the run below then ends as a crash
		close(killed)
	})
	resp, crash := m.run(env)
	if !stop() {
		<-killed
	}
	if m.w != nil {
		m.w.kill()
		m.w = nil
	}
	switch {
	case ctx.Err() != nil:
		return "", "", errAloneInterrupted
	case m.err != nil:
		return "", "", m.err
	}
	if crash != nil && (crash.Kind == CrashTimeout || crash.Kind == CrashMemory) {
		limit = string(crash.Kind)
	}
	return failKey(resp, crash), limit, nil
}
