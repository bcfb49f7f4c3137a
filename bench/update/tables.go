package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/gocolic/gocolic/bench/internal/harness"
)

// markdown formats the records as the table BENCHMARKS.md holds, with the
// command that reproduces it.
//
// load is the machine's load while the pairs ran, "" when unknown.
func markdown(recs []record, o options, commit, load string) (string, error) {
	t := harness.Table{
		Head: []string{"pair", "change", "solver queries: full / update", "×", "executions: full / update",
			"exploration: full / update", "×", "wall: full / update", "branches: full / update", "same suite", "kept / dropped / added", "ranges (sides, settled)"},
		Right: []bool{false, false, true, true, true, true, true, true, false, false, false, false},
	}
	for _, r := range recs {
		if r.Err != "" {
			t.Add(r.Pair, harness.Cell(r.Change), "failed: "+harness.Cell(firstLine(r.Err)))
			continue
		}
		f, u := r.Full, r.Update
		same := "yes"
		switch {
		case !r.Equal:
			same = fmt.Sprintf("no: %d / %d paths", len(r.paths[0]), len(r.paths[1]))
		case !r.SameConds:
			same = "yes (other conditions over values made concrete)"
		}
		if !r.Equal && f.Divergences+u.Divergences > 0 {
			same += fmt.Sprintf("; divergent executions %d / %d", f.Divergences, u.Divergences)
		}
		if !f.Exhausted || !u.Exhausted {
			same += " (cut by -cap)"
		}
		diff, ranges := "", ""
		if d := r.Diff; d != nil {
			diff = fmt.Sprintf("%d / %d / %d", d.Kept, d.Dropped, d.Added)
			ranges = fmt.Sprintf("%d (%d, %d)", d.Ranges, d.Sides, d.Settled)
		}
		t.Add(r.Pair, harness.Cell(r.Change),
			fmt.Sprintf("%d / %d", f.Queries, u.Queries), ratio(float64(f.Queries), float64(u.Queries)),
			fmt.Sprintf("%d / %d", f.Executions, u.Executions),
			seconds(f.ElapsedMS)+" / "+seconds(u.ElapsedMS), ratio(float64(f.ElapsedMS), float64(u.ElapsedMS)),
			seconds(f.WallMS)+" / "+seconds(u.WallMS),
			fmt.Sprintf("%d / %d of %d", f.Covered, u.Covered, f.Total), same, diff, ranges)
	}
	tab, err := t.Markdown()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Full `gocolic test` on the new version against `gocolic update` from the old version's suite; DFS, one worker, one solver (Z3), -budget %v per run", o.cap)
	if commit != "" {
		fmt.Fprintf(&b, ", gocolic %s", commit)
	}
	b.WriteString(". Exploration is the report's `elapsed_ms`; wall is the whole command, with loading, instrumenting and building the worker.")
	if load != "" {
		fmt.Fprintf(&b, " Load average (1, 5, 15 min) %s.", load)
	}
	b.WriteString("\n\n")
	b.WriteString(tab)
	b.WriteString("\nReproduce: `go run ./bench/update")
	if o.pairs != "" {
		b.WriteString(" -pairs " + o.pairs)
	}
	if o.cap != defaultCap {
		b.WriteString(" -cap " + o.cap.String())
	}
	b.WriteString("`\n")
	return b.String(), nil
}

// ratio formats full/update as "12.3×", "∞" when the update spent nothing
// and the full run something, "–" when neither spent anything.
func ratio(full, update float64) string {
	switch {
	case update == 0 && full == 0:
		return "–"
	case update == 0:
		return "∞"
	}
	return fmt.Sprintf("%.1f×", full/update)
}

// seconds formats milliseconds as seconds: two decimals below 10 s, one
// above.
func seconds(ms int64) string {
	if ms < 10_000 {
		return fmt.Sprintf("%.2f s", float64(ms)/1000)
	}
	return fmt.Sprintf("%.1f s", float64(ms)/1000)
}

// loadAverage returns the load averages of /proc/loadavg ("2.1, 3.0,
// 3.9"), or "" where there is none.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], ", ")
}

// firstLine returns s up to its first line break.
func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
