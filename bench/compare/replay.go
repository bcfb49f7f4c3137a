// This file measures the branch coverage of the inputs a tool left, by
// replaying them through gocolic test -replay.

package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/corpus"
	"github.com/gocolic/gocolic/report"
)

// replayCov is the branch coverage of a set of inputs, measured by
// running them through gocolic test -replay.
type replayCov struct {
	err            error
	covered, total int
	replayed       int      // inputs replayed
	inputs         int      // inputs available to replay
	bugs           []string // messages of the failures the inputs raised
	notes          []string
}

// replayCoverage runs the inputs of the corpus directories dirs, plus the
// example's f.Add seeds, through gocolic to measure their branch coverage.
func replayCoverage(ctx context.Context, w *harness.Workspace, ex *harness.Example, dirs []string, workers int, logName string) replayCov {
	var c replayCov
	dirs = append([]string(nil), dirs...)
	if ex.SeedErr != nil {
		c.notes = append(c.notes, "f.Add seeds not included: "+ex.SeedErr.Error())
	} else if len(ex.Seeds) > 0 {
		seeds := filepath.Join(w.Dir, "seeds", ex.Name)
		if err := corpus.WriteDir(seeds, ex.Seeds); err != nil {
			c.err = err
			return c
		}
		dirs = append(dirs, seeds)
	}
	for _, d := range dirs {
		c.inputs += harness.CountFiles(d)
	}
	if c.inputs == 0 {
		c.err = errors.New("no inputs were left to replay")
		return c
	}
	replay := func(dirs []string, logName string) (*report.Report, error) {
		// The budget only bounds a replay that would otherwise run away:
		// a replay stops by itself once every input has run.
		const replayBudget = 5 * time.Minute
		flags := []string{"-budget", replayBudget.String(), "-workers", strconv.Itoa(workers)}
		for _, d := range dirs {
			flags = append(flags, "-replay", d)
		}
		jsonPath := filepath.Join(w.Dir, "reports", logName+".json")
		rep, _, err := w.Gocolic(ctx, limit(replayBudget), logName, jsonPath, flags, ex.Name, ex.Func)
		return rep, err
	}
	rep, err := replay(dirs, logName)
	if err != nil && strings.Contains(err.Error(), "corpus:") {
		// gocolic's corpus reader rejects some files Go writes (rune('\''));
		// retry on a copy with the character literals rewritten.
		norm := filepath.Join(w.Dir, "normalized", logName)
		n, nerr := harness.NormalizeCorpus(dirs, norm)
		if nerr == nil && n > 0 {
			c.notes = append(c.notes, fmt.Sprintf("gocolic -replay rejected the corpus (`%s`); measured on a copy with its %d rune/byte character literals rewritten as integers",
				corpusError(err.Error()), n))
			rep, err = replay([]string{norm}, logName+"-normalized")
		}
	}
	if rep == nil {
		c.err = err
		return c
	}
	if err != nil {
		c.notes = append(c.notes, "replay reported an error: "+firstLine(err.Error()))
	}
	c.covered, c.total, c.replayed = rep.Branches.Covered, rep.Branches.Total, rep.Executions
	for _, b := range rep.Bugs {
		c.bugs = append(c.bugs, b.Message)
	}
	if c.replayed != c.inputs {
		c.notes = append(c.notes, fmt.Sprintf("replay ran %d of %d inputs", c.replayed, c.inputs))
	}
	return c
}

// corpusError returns the part of gocolic's error output from "corpus:"
// on, which names the rejected line but not the file's temporary path.
func corpusError(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if i := strings.Index(l, "corpus:"); i >= 0 {
			return strings.TrimSpace(l[i:])
		}
	}
	return firstLine(s)
}
