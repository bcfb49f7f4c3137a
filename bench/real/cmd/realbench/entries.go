// This file is the -entries mode: instead of comparing gocolic with go
// test -fuzz, it measures the corpus entries gocolic fuzz leaves, as a
// developer would keep them (issue 21): how many, how long and how
// readable their inputs are, which branch outcomes they cover when run
// again, and what their minimisation cost, for the -gocolic binary
// ("after") and optionally a -before binary.

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	shared "github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/corpus"
	schema "github.com/gocolic/gocolic/report"
)

// entryStats summarises the inputs of a set of corpus entries.
type entryStats struct {
	entries     int // corpus files
	values      int // string and []byte arguments among them
	bytes       int // bytes of those arguments
	unprintable int // of those bytes, the ones outside printable ASCII
}

// printable reports whether a string literal shows c as itself:
// printable ASCII, the measure the minimiser prefers inputs by.
func printable(c byte) bool { return c >= ' ' && c <= '~' }

// statsOf summarises entries. Only strings and byte slices count towards
// lengths and bytes; integers, floats and booleans have neither.
func statsOf(entries [][]corpus.Value) entryStats {
	s := entryStats{entries: len(entries)}
	for _, e := range entries {
		for _, v := range e {
			if t := corpus.CanonicalType(v.Type); t != "string" && t != "[]byte" {
				continue
			}
			s.values++
			s.bytes += len(v.Bytes)
			for _, c := range v.Bytes {
				if !printable(c) {
					s.unprintable++
				}
			}
		}
	}
	return s
}

// meanLen is the mean length of the string and []byte arguments; false
// when there are none.
func (s entryStats) meanLen() (float64, bool) {
	if s.values == 0 {
		return 0, false
	}
	return float64(s.bytes) / float64(s.values), true
}

// unprintableShare is the share of their bytes that are not printable,
// in percent; false when there are no bytes.
func (s entryStats) unprintableShare() (float64, bool) {
	if s.bytes == 0 {
		return 0, false
	}
	return 100 * float64(s.unprintable) / float64(s.bytes), true
}

// outcomeReplay is the branch-outcome coverage of a set of inputs: the
// f.Add seeds and the entries of a corpus directory, run by gocolic fuzz
// as its seeds and nothing else (-runs = the number of seeds; the
// coordinator runs its seeds first, in order).
type outcomeReplay struct {
	covered, total int
	seeds          int // inputs gocolic read: f.Add seeds and entries
	err            error
}

// seedsRE matches the line where gocolic fuzz counts the inputs it
// starts from.
var seedsRE = regexp.MustCompile(`(?m)^gocolic: (\d+) seed inputs?$`)

// readSeeds returns the number of seed inputs gocolic fuzz said it read,
// -1 if its output does not say.
func readSeeds(out []byte) int {
	m := seedsRE.FindSubmatch(out)
	if m == nil {
		return -1
	}
	n, err := strconv.Atoi(string(m[1]))
	if err != nil {
		return -1
	}
	return n
}

// checkReplay reads a replay that ran with -runs runs: its coverage
// counts only if it read exactly runs seeds (fewer, and it went on to
// explore) and executed each once.
func checkReplay(out []byte, rep *schema.Report, runs int) outcomeReplay {
	o := outcomeReplay{seeds: readSeeds(out)}
	switch {
	case rep == nil:
		o.err = errors.New("no report")
	case o.seeds < 0:
		o.err = errors.New("gocolic did not say how many seeds it read")
	case o.seeds != runs:
		o.err = fmt.Errorf("gocolic read %d seeds, the replay ran with -runs %d", o.seeds, runs)
	case rep.Executions != runs:
		o.err = fmt.Errorf("%d executions for %d seeds", rep.Executions, runs)
	default:
		o.covered, o.total = rep.Branches.Covered, rep.Branches.Total
	}
	return o
}

// replayOutcomes runs the f.Add seeds of h and the entries of dir (none
// if dir is "") through gocolic fuzz with bin and nothing else, and
// returns the branch outcomes they cover. gocolic may read fewer f.Add
// seeds than h has calls (one it cannot read is only warned about): the
// replay is then run again with -runs set to what it read.
func replayOutcomes(ctx context.Context, mod, bin string, h harness, flags []string, dir, work, logBase string) outcomeReplay {
	testdata := filepath.Join(mod, h.Dir, "testdata")
	os.RemoveAll(testdata)
	defer os.RemoveAll(testdata)
	n := 0
	if dir != "" {
		var err error
		if n, err = shared.CopyFiles(dir, filepath.Join(testdata, "fuzz", h.Fuzz)); err != nil {
			return outcomeReplay{err: err}
		}
	}
	runs := h.Adds + n
	var o outcomeReplay
	for attempt := 1; attempt <= 2; attempt++ {
		if runs == 0 {
			return outcomeReplay{err: errors.New("no inputs to replay")}
		}
		jsonPath := filepath.Join(work, fmt.Sprintf("%s.%d.json", logBase, attempt))
		args := append([]string{"fuzz"}, flags...)
		// After flags, so that these win: the replay explores nothing
		// and changes no input.
		args = append(args, "-runs", strconv.Itoa(runs), "-workers", "1", "-minimizetime", "0", "-nocorpus",
			"-json", jsonPath, "./"+h.Dir, h.Fuzz)
		r := shared.RunEnv(ctx, 5*time.Minute, mod, filepath.Join(work, fmt.Sprintf("%s.%d.log", logBase, attempt)), h.GocolicEnv(), bin, args...)
		rep, _ := schema.ReadJSON(jsonPath)
		o = checkReplay(r.Output, rep, runs)
		if o.err == nil || o.seeds <= 0 || o.seeds == runs {
			break
		}
		runs = o.seeds
	}
	return o
}

// entriesRun is one gocolic fuzz run of the -entries mode, with what its
// corpus entries hold and cover.
type entriesRun struct {
	g        gocolicRun
	stats    entryStats
	statsErr error
	cover    outcomeReplay // f.Add seeds and the entries, replayed by the -gocolic binary
}

// entriesResult is what the -entries mode measured on one harness.
type entriesResult struct {
	h       harness
	version string
	seeds   outcomeReplay // the f.Add seeds alone
	before  *entriesRun   // nil without -before
	after   entriesRun
	warm    []string // what went wrong in the warm-ups
}

// runEntries measures one harness for the -entries mode: it warms up
// each binary, runs gocolic fuzz with before (if not "") and then with
// bin, and replays the seeds alone and each run's entries with bin.
func runEntries(ctx context.Context, c config, mod, bin, before string, h harness, hdir string) entriesResult {
	res := entriesResult{h: h}
	limit := c.budget + c.minimizeTime + c.slack
	afterFlags := append(gocolicFlags(c, h), strings.Fields(c.afterFlags)...)
	bins := []struct {
		label, path string
		flags       []string
	}{{"before", before, gocolicFlags(c, h)}, {"after", bin, afterFlags}}
	for _, b := range bins {
		if b.path == "" || ctx.Err() != nil {
			continue
		}
		dir := filepath.Join(hdir, b.label)
		os.MkdirAll(dir, 0o755)
		if !c.noWarmup {
			logf("%s: warming up gocolic (%s)", h.Name(), b.label)
			if note := warmGocolic(ctx, mod, b.path, h, b.flags, dir); note != "" {
				res.warm = append(res.warm, b.label+": "+note)
			}
		}
		logf("%s: gocolic fuzz (%s, %v, %d workers)", h.Name(), b.label, c.budget, c.workers)
		run := append(append([]string(nil), b.flags...), "-budget", c.budget.String(), "-workers", strconv.Itoa(c.workers))
		er := entriesRun{g: runGocolic(ctx, mod, b.path, h, run, limit, dir)}
		entries, _, err := corpus.ReadDir(er.g.corpus[0])
		er.stats, er.statsErr = statsOf(entries), err
		logf("%s: replaying the %d entries (%s)", h.Name(), er.stats.entries, b.label)
		er.cover = replayOutcomes(ctx, mod, bin, h, afterFlags, er.g.corpus[0], dir, "replay")
		if b.label == "before" {
			res.before = &er
		} else {
			res.after = er
		}
	}
	res.seeds = replayOutcomes(ctx, mod, bin, h, afterFlags, "", hdir, "replay-seeds")
	return res
}

// warmGocolic puts the instrumented build of h by bin into the build
// cache (gocolic fuzz -runs 1 -nocorpus), and returns what went wrong, ""
// if nothing.
func warmGocolic(ctx context.Context, mod, bin string, h harness, gflags []string, dir string) string {
	os.RemoveAll(filepath.Join(mod, h.Dir, "testdata"))
	defer os.RemoveAll(filepath.Join(mod, h.Dir, "testdata"))
	args := append([]string{"fuzz"}, gflags...)
	args = append(args, "-runs", "1", "-workers", "1", "-nocorpus", "-json", filepath.Join(dir, "warmup.json"), "./"+h.Dir, h.Fuzz)
	r := shared.RunEnv(ctx, 10*time.Minute, mod, filepath.Join(dir, "warmup.log"), h.GocolicEnv(), bin, args...)
	if s := classify(r); s != "ok" {
		return s + ": " + shared.Tail(r.Output, 8)
	}
	return ""
}

// lengthCell formats the mean input length; "–" without byte inputs.
func lengthCell(s entryStats) string {
	if m, ok := s.meanLen(); ok {
		return strconv.FormatFloat(m, 'f', 1, 64)
	}
	return "–"
}

// unprintableCell formats the share of non-printable bytes, with their
// number: shorter inputs can raise the share while the bytes a path needs
// (a UTF-8 sequence, a checksum) stay.
func unprintableCell(s entryStats) string {
	if p, ok := s.unprintableShare(); ok {
		return fmt.Sprintf("%.1f %% (%d)", p, s.unprintable)
	}
	return "–"
}

// coverCell formats replayed outcomes as covered/total.
func coverCell(o outcomeReplay) string {
	if o.err != nil {
		return "error"
	}
	return fmt.Sprintf("%d/%d", o.covered, o.total)
}

// minimizeCell formats the minimisation of a run: its time and
// executions, and the time as a share of the exploration budget; "–" for
// a report that does not record it (one written before it did, or none).
func minimizeCell(rep *schema.Report, budget time.Duration) string {
	if rep == nil || (rep.MinimizeMS == 0 && rep.MinimizeExecs == 0) {
		return "–"
	}
	pct := 100 * float64(rep.MinimizeMS) / float64(budget.Milliseconds())
	return fmt.Sprintf("%d ms (%d execs), %.0f %% of the budget", rep.MinimizeMS, rep.MinimizeExecs, pct)
}

// pair formats a before → after cell, or the after value alone without a
// before run.
func pair(before *entriesRun, after entriesRun, f func(entriesRun) string) string {
	if before == nil {
		return f(after)
	}
	return f(*before) + " → " + f(after)
}

// entriesCount formats the entries of a run, with the cases its
// exploration kept before the final reduction when the report says.
func entriesCount(r entriesRun) string {
	if r.statsErr != nil {
		return "error"
	}
	s := strconv.Itoa(r.stats.entries)
	if r.g.rep != nil && r.g.rep.CasesFound > 0 {
		s += fmt.Sprintf(" (found %d)", r.g.rep.CasesFound)
	}
	return s
}

// runCover formats the outcomes a run's own report counts.
func runCover(r entriesRun) string {
	if r.g.rep == nil {
		return r.g.status
	}
	return fmt.Sprintf("%d/%d", r.g.rep.Branches.Covered, r.g.rep.Branches.Total)
}

// wallCell formats the wall-clock time of a run, in seconds.
func wallCell(r entriesRun) string {
	return strconv.FormatFloat(r.g.wall.Seconds(), 'f', 1, 64) + " s"
}

// entriesReport formats the Markdown report of the -entries mode.
func entriesReport(results []entriesResult, c config, goLine string, haveBefore bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "gocolic fuzz corpus entries: budget %v per run, %d worker(s), -minimizetime %v, one run per binary and harness, %s %s/%s, %d CPUs, module go %s.",
		c.budget, c.workers, c.minimizeTime, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), goLine)
	if haveBefore {
		b.WriteString(" Cells are before → after: the -before binary, then the -gocolic one.")
	}
	if c.instrument {
		b.WriteString(" gocolic runs with -instrument TARGET.")
	}
	if f := strings.TrimSpace(c.gocolicFlags); f != "" {
		fmt.Fprintf(&b, " Extra gocolic flags: `%s`.", f)
	}
	if f := strings.TrimSpace(c.afterFlags); f != "" {
		fmt.Fprintf(&b, " Flags of the -gocolic binary only: `%s`.", f)
	}
	b.WriteString(" Outcomes are replayed by the -gocolic binary: the f.Add seeds alone, then the seeds with each run's entries (`gocolic fuzz -runs <seeds> -minimizetime 0 -nocorpus`).\n\n")
	t := shared.Table{
		Head: []string{"harness", "package@version", "entries", "mean input length", "non-printable bytes", "outcomes covered: seeds", "seeds + entries",
			"outcomes the run covered", "minimisation (after)", "run wall"},
		Right: []bool{false, false, true, true, true, true, true, true, false, true},
	}
	var notes []string
	for _, r := range results {
		replayed := coverCell(r.after.cover)
		if r.before != nil {
			replayed = coverCell(r.before.cover) + " → " + replayed
		}
		addRow(&t, r.h.Name(), r.version, pair(r.before, r.after, entriesCount),
			pair(r.before, r.after, func(e entriesRun) string { return lengthCell(e.stats) }),
			pair(r.before, r.after, func(e entriesRun) string { return unprintableCell(e.stats) }),
			coverCell(r.seeds), replayed, pair(r.before, r.after, runCover),
			minimizeCell(r.after.g.rep, c.budget), pair(r.before, r.after, wallCell))
		runs := []struct {
			label string
			run   *entriesRun
		}{{"before", r.before}, {"after", &r.after}}
		for _, x := range runs {
			if x.run == nil {
				continue
			}
			if x.run.g.status != "ok" {
				notes = append(notes, fmt.Sprintf("%s (%s): gocolic %s: %s", r.h.Name(), x.label, x.run.g.status, short(x.run.g.detail, 300)))
			}
			if x.run.statsErr != nil {
				notes = append(notes, fmt.Sprintf("%s (%s): reading its entries: %v", r.h.Name(), x.label, x.run.statsErr))
			}
			if x.run.cover.err != nil {
				notes = append(notes, fmt.Sprintf("%s (%s): replay: %s", r.h.Name(), x.label, short(x.run.cover.err.Error(), 300)))
			}
		}
		if r.seeds.err != nil {
			notes = append(notes, fmt.Sprintf("%s: replay of the seeds: %s", r.h.Name(), short(r.seeds.err.Error(), 300)))
		}
		for _, w := range r.warm {
			notes = append(notes, fmt.Sprintf("%s: warm-up %s", r.h.Name(), short(w, 300)))
		}
	}
	b.WriteString(markdown(&t))
	for _, n := range notes {
		b.WriteString("\n- " + n)
	}
	if len(notes) > 0 {
		b.WriteString("\n")
	}
	return b.String()
}
