// Command update measures `gocolic update` (issue 18, seed 003) against a
// full run on a series of version pairs: realistic changes to the
// project's own examples, and consecutive tags of real modules from the Go
// module proxy.
//
// Usage, from the repository root:
//
//	go run ./bench/update [-pairs nested-fix,uuid] [-cap 5m] [-out FILE] [-json FILE] [-keep]
//
// For each pair the harness makes two throw-away modules, one with the old
// version and one with the new, and runs, one at a time:
//
//	old: gocolic test   -strategy dfs -seed 1 -workers 1 -solvers 1 -lanes concolic -solver z3 -minimizetime 0 -budget CAP <pair flags> ./PKG Func
//	new: gocolic test   (the same flags): the full run
//	old, its sources replaced by the new version's:
//	     gocolic update -workers 1 -solvers 1 -lanes concolic -minimizetime 0 -budget CAP ./PKG Func
//
// The update takes the strategy, seed, depth and length bounds and the
// instrumentation settings from the state the first run saved, so both
// explore the same bounded path space in the same order. From the two
// runs' JSON reports it takes the solver queries, executions, exploration
// time (the report's elapsed_ms: loading, instrumenting and building the
// worker are left out, and are the same work for both) and the branch
// coverage of the package; from the two states the sets of paths, with
// their conditions' hashes, which are equal when the update made the suite
// a full run makes. It prints one Markdown table.
//
// The example pairs are testdata/<pair>/before.go and after.go, each a
// version of one file of examples/; the module pairs are downloaded with
// `go mod download -json` (the module proxy, or the module cache when the
// versions are there), their test files left out.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/report"
	"github.com/gocolic/gocolic/state"
)

// pairsDir holds the example pairs, relative to the repository root.
const pairsDir = "bench/update/testdata"

// pair is one version pair: the old and new version of a package, and the
// function whose suite is kept.
type pair struct {
	Name   string // row label, and for an example the directory under pairsDir
	Change string // what changed, for the table
	// An example pair replaces File of examples/Example.
	Example, File string
	// A module pair takes Module at versions Old and New; Pkg is the
	// package's directory in the module.
	Module, Old, New, Pkg string
	Func                  string
	// Flags are gocolic test flags of the pair: bounds that keep the
	// bounded path space small enough for DFS to exhaust.
	Flags []string
}

// pairs are the measured pairs, the examples first.
var pairs = []pair{
	{Name: "nested-fix", Change: "bug fix: `discount` caps the discount at 90 % (one new branch at its end)",
		Example: "nested", File: "nested.go", Func: "Price"},
	{Name: "nested-const", Change: "changed constant: `partnerCoupon` (two conditions of `discount`)",
		Example: "nested", File: "nested.go", Func: "Price"},
	{Name: "magic-case", Change: "new case in a switch: zstd in `Identify`",
		Example: "magic", File: "magic.go", Func: "Identify"},
	{Name: "magic-refactor", Change: "refactoring, no change of behaviour: the bzip2 check of `Identify` moved into a helper",
		Example: "magic", File: "magic.go", Func: "Identify"},
	{Name: "humanize-strip", Change: "bug fix: the overflow of `i+digits` in `stripTrailingDigits` (one condition)",
		Module: "github.com/dustin/go-humanize", Old: "v1.0.1", New: "v1.1.0", Pkg: ".", Func: "stripTrailingDigits",
		Flags: []string{"-maxlen", "8"}},
	{Name: "humanize-comma", Change: "rewrite of `Comma` (the whole function, faster formatting)",
		Module: "github.com/dustin/go-humanize", Old: "v1.0.1", New: "v1.1.0", Pkg: ".", Func: "Comma",
		Flags: []string{"-depth", "6", "-stdlib=false"}},
	{Name: "semver-strict", Change: "a length guard added at the top of `StrictNewVersion`",
		Module: "github.com/Masterminds/semver/v3", Old: "v3.4.0", New: "v3.5.0", Pkg: ".", Func: "StrictNewVersion",
		Flags: []string{"-depth", "20", "-maxlen", "8"}},
	{Name: "uuid-parse", Change: "`Parse` unchanged; `NewV7` and a new `Max` elsewhere in the package",
		Module: "github.com/google/uuid", Old: "v1.5.0", New: "v1.6.0", Pkg: ".", Func: "Parse",
		Flags: []string{"-depth", "20", "-maxlen", "40"}},
}

// testFlags are the flags of both gocolic test runs, before the pair's
// own; updateFlags those of gocolic update, which takes the rest from the
// saved state.
var (
	testFlags   = []string{"-strategy", "dfs", "-seed", "1", "-workers", "1", "-solvers", "1", "-lanes", "concolic", "-solver", "z3", "-minimizetime", "0"}
	updateFlags = []string{"-workers", "1", "-solvers", "1", "-lanes", "concolic", "-minimizetime", "0"}
)

// defaultCap is -cap's default.
const defaultCap = 5 * time.Minute

type options struct {
	pairs        string
	cap          time.Duration
	out, jsonOut string
	keep         bool
}

func main() {
	var o options
	var names []string
	for _, p := range pairs {
		names = append(names, p.Name)
	}
	flag.StringVar(&o.pairs, "pairs", "", "comma-separated pairs to run (default: all of "+strings.Join(names, ", ")+")")
	flag.DurationVar(&o.cap, "cap", defaultCap, "gocolic's -budget for every run; a run it cuts is marked, its suite not comparable")
	flag.StringVar(&o.out, "out", "", "also write the Markdown table to this file")
	flag.StringVar(&o.jsonOut, "json", "", "write every pair's record (raw data) to this JSON file")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary workspace (modules, reports, states, logs) and print its path")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/update [flags]\n\nRuns a full gocolic test on the new version of each pair against gocolic update\nfrom the old version's suite, and prints a Markdown table.\n\nFlags:")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 || o.cap <= 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o, names); err != nil {
		fmt.Fprintln(os.Stderr, "update:", err)
		os.Exit(1)
	}
}

// measure is what one run cost and reached.
type measure struct {
	Queries    int   `json:"queries"`
	Executions int   `json:"executions"`
	ElapsedMS  int64 `json:"elapsed_ms"` // exploration
	WallMS     int64 `json:"wall_ms"`    // the whole command
	Covered    int   `json:"covered"`
	Total      int   `json:"total"`
	Exhausted  bool  `json:"exhausted"`
	// Divergences counts the executions that missed the path their input
	// was solved for: what they reach depends on the inputs the solver
	// chose, not on the search order.
	Divergences int `json:"divergences"`
}

// record is one pair's outcome.
type record struct {
	Pair   string         `json:"pair"`
	Change string         `json:"change"`
	Saved  measure        `json:"saved"` // the full run on the old version
	Full   measure        `json:"full"`
	Update measure        `json:"update"`
	Diff   *report.Update `json:"diff"`
	// Equal says the two suites take the same paths (sites and
	// directions), SameConds also with the same conditions' hashes: a
	// condition over a value made concrete holds that value, so equal
	// paths taken by other inputs can differ there.
	Equal     bool        `json:"equal"`
	SameConds bool        `json:"same_conditions"`
	Err       string      `json:"error,omitempty"`
	paths     [2][]string // full, update
}

func run(ctx context.Context, o options, names []string) error {
	root, err := harness.RepoRoot()
	if err != nil {
		return err
	}
	sel, err := harness.SelectNames(o.pairs, names, names)
	if err != nil {
		return fmt.Errorf("-pairs: %w", err)
	}
	w, err := harness.NewWorkspace(ctx, root)
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Fprintf(os.Stderr, "update: workspace %s\n", w.Dir)
	} else {
		defer w.Remove()
	}
	var recs []record
	failed := 0
	loads := []string{loadAverage()}
	for _, p := range pairs {
		if !slices.Contains(sel, p.Name) {
			continue
		}
		fmt.Fprintf(os.Stderr, "update: %s\n", p.Name)
		r := measurePair(ctx, o, w, root, p)
		if r.Err != "" {
			failed++
			fmt.Fprintf(os.Stderr, "update: %s: %s\n", p.Name, r.Err)
		}
		recs = append(recs, r)
		if ctx.Err() != nil {
			break
		}
	}
	load := ""
	if loads = append(loads, loadAverage()); loads[0] != "" {
		load = "at the start " + loads[0] + ", at the end " + loads[1]
	}
	md, err := markdown(recs, o, harness.Commit(ctx, root), load)
	if err != nil {
		return err
	}
	if err := harness.Publish(md, w.Dir, o.out); err != nil {
		return err
	}
	if o.jsonOut != "" {
		data, err := json.MarshalIndent(recs, "", "\t")
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.jsonOut, append(data, '\n'), 0o644); err != nil {
			return fmt.Errorf("writing -json: %w", err)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d pairs failed (logs: %s)", failed, len(recs), w.Logs)
	}
	return nil
}

// measurePair runs the three commands of p and compares what they left.
func measurePair(ctx context.Context, o options, w *harness.Workspace, root string, p pair) record {
	r := record{Pair: p.Name, Change: p.Change}
	dir := filepath.Join(w.Dir, p.Name)
	oldDir, newDir := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	oldSrc, newSrc, pkg, err := sources(ctx, w, root, p, dir)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	for _, m := range []struct{ dst, src string }{{oldDir, oldSrc}, {newDir, newSrc}} {
		if err := copyModule(m.src, m.dst); err != nil {
			r.Err = err.Error()
			return r
		}
	}
	budget := []string{"-budget", o.cap.String()}
	test := append(append(slices.Clone(testFlags), budget...), p.Flags...)
	target := []string{"./" + pkg, p.Func}
	steps := []struct {
		name string
		dir  string
		args []string
		out  *measure
	}{
		{"saved", oldDir, append(append([]string{"test"}, test...), "-json", filepath.Join(dir, "saved.json")), &r.Saved},
		{"full", newDir, append(append([]string{"test"}, test...), "-json", filepath.Join(dir, "full.json")), &r.Full},
		{"update", oldDir, append(append(append([]string{"update"}, updateFlags...), budget...), "-json", filepath.Join(dir, "update.json")), &r.Update},
	}
	for _, s := range steps {
		if s.name == "update" {
			// The old module gets the new version's sources; the
			// suite's state and generated tests stay.
			if err := copyModule(newSrc, oldDir); err != nil {
				r.Err = err.Error()
				return r
			}
		}
		jsonPath := s.args[len(s.args)-1]
		res := harness.Run(ctx, o.cap+5*time.Minute, s.dir, w.LogPath(p.Name+"-"+s.name), w.Bin, append(s.args, target...)...)
		rep, rerr := report.ReadJSON(jsonPath)
		if res.Err != nil || rerr != nil {
			r.Err = fmt.Sprintf("%s run: %s", s.name, harness.RunFailure(res.ExitCode, res.TimedOut, rerr))
			return r
		}
		*s.out = measure{Queries: rep.Solver.Queries, Executions: rep.Executions, ElapsedMS: rep.ElapsedMS, WallMS: res.Wall.Milliseconds(),
			Covered: rep.Branches.Covered, Total: rep.Branches.Total, Exhausted: rep.Exhausted, Divergences: rep.Divergences}
		if s.name == "update" {
			r.Diff = rep.Update
		}
	}
	fn := funcFile(p.Func)
	var conds [2][]string
	for i, d := range []string{newDir, oldDir} {
		st, err := state.Read(state.Path(filepath.Join(d, pkg), fn))
		if err != nil {
			r.Err = err.Error()
			return r
		}
		r.paths[i], conds[i] = pathsOf(st, false), pathsOf(st, true)
	}
	r.Equal, r.SameConds = slices.Equal(r.paths[0], r.paths[1]), slices.Equal(conds[0], conds[1])
	return r
}

// sources returns the directories of the old and new module sources of p
// and the package's directory in them: for an example, modules written
// under dir from its testdata; for a module pair, the module cache's
// copies.
func sources(ctx context.Context, w *harness.Workspace, root string, p pair, dir string) (oldSrc, newSrc, pkg string, err error) {
	if p.Example != "" {
		for _, v := range []string{"before", "after"} {
			src, err := os.ReadFile(filepath.Join(root, pairsDir, p.Name, v+".go"))
			if err != nil {
				return "", "", "", err
			}
			m := filepath.Join(dir, "src-"+v)
			if err := os.MkdirAll(filepath.Join(m, p.Example), 0o755); err != nil {
				return "", "", "", err
			}
			gomod := "module example.com/" + p.Name + "\n\ngo 1.24\n"
			if err := os.WriteFile(filepath.Join(m, "go.mod"), []byte(gomod), 0o644); err != nil {
				return "", "", "", err
			}
			if err := os.WriteFile(filepath.Join(m, p.Example, p.File), src, 0o644); err != nil {
				return "", "", "", err
			}
		}
		return filepath.Join(dir, "src-before"), filepath.Join(dir, "src-after"), p.Example, nil
	}
	for i, v := range []string{p.Old, p.New} {
		res := harness.Run(ctx, 5*time.Minute, w.Dir, w.LogPath(p.Name+"-download-"+v), "go", "mod", "download", "-json", p.Module+"@"+v)
		if res.Err != nil {
			return "", "", "", fmt.Errorf("go mod download %s@%s: %w\n%s", p.Module, v, res.Err, harness.Tail(res.Output, 5))
		}
		var info struct{ Dir string }
		if err := json.Unmarshal(res.Output, &info); err != nil || info.Dir == "" {
			return "", "", "", fmt.Errorf("go mod download %s@%s: no directory in %q", p.Module, v, harness.Tail(res.Output, 3))
		}
		if i == 0 {
			oldSrc = info.Dir
		} else {
			newSrc = info.Dir
		}
	}
	return oldSrc, newSrc, p.Pkg, nil
}

// copyModule makes dst hold src's go.mod and non-test Go files (the
// module cache's copies are read-only and their tests may need modules
// the benchmark does not download), replacing the Go sources dst had but
// keeping the files gocolic wrote: generated tests and testdata.
func copyModule(src, dst string) error {
	if err := filepath.WalkDir(dst, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return filepath.SkipAll
			}
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_gocolic_test.go") && !strings.Contains(path, string(filepath.Separator)+"testdata"+string(filepath.Separator)) {
			return os.Remove(path)
		}
		return nil
	}); err != nil {
		return fmt.Errorf("clearing %s: %w", dst, err)
	}
	return harness.CopyTree(src, dst,
		func(dir string) bool { return dir == "testdata" || strings.HasPrefix(dir, ".") },
		func(file string) bool {
			return file == "go.mod" || strings.HasSuffix(file, ".go") && !strings.HasSuffix(file, "_test.go")
		})
}

// funcFile is the name gocolic gives the state of fn (Type_Method for a
// method).
func funcFile(fn string) string {
	typ, method, ok := strings.Cut(fn, ".")
	if !ok {
		return fn
	}
	return strings.Trim(typ, "(*)") + "_" + method
}

// pathsOf returns the paths of a state, each its steps (site and
// direction, and with conds the condition's hash), sorted: the suite as a
// set of paths.
func pathsOf(st *state.State, conds bool) []string {
	var out []string
	for _, in := range st.Inputs {
		var steps []string
		for _, s := range in.Path {
			if !conds {
				s.Cond = ""
			}
			steps = append(steps, s.String())
		}
		out = append(out, strings.Join(steps, ", "))
	}
	slices.Sort(out)
	return out
}
