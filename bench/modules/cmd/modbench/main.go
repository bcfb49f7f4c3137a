// Command modbench runs gocolic on a corpus of real modules (package
// corpus: parsers, encoders, text, numeric code, data structures and CLI
// helpers from the module proxy, pinned in go.mod) and counts, per
// module, what a Go developer trying gocolic on them would meet: packages
// gocolic refuses and why, instrumented builds that fail (each one a bug
// of the rewrite), gocolic crashes, functions run, and the branch
// outcomes the runs covered.
//
// Usage, from bench/modules:
//
//	go run ./cmd/modbench [-modules shlex,semver] [-funcs N] [-pkgs N] [-budget 2s] [-time 40m]
//	                      [-match REGEXP] [-gocolic PATH] [-cache DIR | -nocache]
//	                      [-out FILE.md] [-json FILE] [-keep]
//
// For each module it downloads the pinned version (checked against
// go.sum), copies it into a temporary workspace as a main module of its
// own, and loads its packages as gocolic does. For each package it
// instruments the whole package with gocolic's instrument package and
// builds it with gocolic's build package (a failure is a bug of the
// rewrite), then asks the rewrite, function by function, whether gocolic
// test accepts each exported function and method (the refusal, with its
// reason, is the one gocolic test prints). Each accepted function is then
// run with the gocolic binary:
//
//	gocolic test -budget 2s -workers 1 -minimizetime 0 -seed 1 -notests -json R ./pkg Func
//
// and the run is classified from its exit status, its output and its
// JSON report (package report): exit 2 is a refusal, a failed
// instrumented build is a rewrite bug, and a Go panic trace, a report
// with internal_errors, a hang, or any other failure is a crash.
//
// Results are cached (by default in the user cache directory, keyed by
// the gocolic binary's hash, the module version, the package, the
// function and the flags), so an interrupted run resumes where it
// stopped; runners may share the cache. The Markdown table goes to
// stdout (and -out), every result to -json.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/gocolic/gocolic/bench/internal/harness"
	shared "github.com/gocolic/gocolic/bench/internal/harness"
	"github.com/gocolic/gocolic/bench/modules/corpus"
	"github.com/gocolic/gocolic/load"
)

// modulePath is the path of the corpus module, which the runner must be
// run in.
const modulePath = "github.com/gocolic/gocolic/bench/modules"

type config struct {
	modules string
	funcs   int
	pkgs    int
	budget  time.Duration
	workers int
	limit   time.Duration
	slack   time.Duration
	match   string
	gocolic string
	flags   string
	cache   string
	nocache bool
	out     string
	jsonOut string
	keep    bool
}

func main() {
	var c config
	flag.StringVar(&c.modules, "modules", "", "comma-separated modules to run: module paths, or their last element (shlex, semver, v3 is not one: use the path); default all")
	flag.IntVar(&c.funcs, "funcs", 0, "run at most N functions per module, taken in turn from its packages (0: all)")
	flag.IntVar(&c.pkgs, "pkgs", 0, "test at most N packages per module (0: all)")
	flag.DurationVar(&c.budget, "budget", 2*time.Second, "gocolic test -budget of each function")
	flag.IntVar(&c.workers, "workers", 1, "gocolic test -workers")
	flag.DurationVar(&c.limit, "time", 0, "start no function run after this much time has passed (0: no limit); the rest are counted as not run")
	flag.DurationVar(&c.slack, "slack", 90*time.Second, "time a gocolic run may take past its budget (loading, instrumenting, building) before it is killed and counted as a hang")
	flag.StringVar(&c.match, "match", "", "run only the functions whose import path.Name matches this regular expression")
	flag.StringVar(&c.gocolic, "gocolic", "", "the gocolic binary (default: built from the repository two directories up)")
	flag.StringVar(&c.flags, "gocolic-flags", "", "more flags for gocolic test, space-separated")
	flag.StringVar(&c.cache, "cache", "", "cache directory (default: gocolic-modbench in the user cache directory)")
	flag.BoolVar(&c.nocache, "nocache", false, "neither read nor write the cache")
	flag.StringVar(&c.out, "out", "", "also write the Markdown report to this file")
	flag.StringVar(&c.jsonOut, "json", "", "write every result, and the table's rows, as JSON to this file")
	flag.BoolVar(&c.keep, "keep", false, "keep the workspace (module copies, gocolic logs and reports) and print its path")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./cmd/modbench [flags]   (from bench/modules)\n\nRuns gocolic test on the exported functions of every package of the corpus's modules and prints a Markdown table.\n\nFlags:")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 || c.budget <= 0 || c.workers <= 0 || c.funcs < 0 || c.pkgs < 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := bench(ctx, c, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "modbench:", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "modbench: "+format+"\n", args...)
}

// selectModules returns the modules of the corpus that list names (all
// for ""), in the corpus's order.
func selectModules(list string) ([]corpus.Module, error) {
	if list == "" {
		return corpus.Modules, nil
	}
	var out []corpus.Module
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, m := range corpus.Modules {
			if m.Path == name || shortName(m.Path) == name {
				out = append(out, m)
				found = true
			}
		}
		if !found {
			var names []string
			for _, m := range corpus.Modules {
				names = append(names, shortName(m.Path))
			}
			return nil, fmt.Errorf("no module %q in the corpus; modules: %s", name, strings.Join(names, ", "))
		}
	}
	return out, nil
}

// shortName is the last element of a module path that is not a major
// version suffix: semver for github.com/Masterminds/semver/v3, yaml.v3
// for gopkg.in/yaml.v3.
func shortName(path string) string {
	parts := strings.Split(path, "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && regexp.MustCompile(`^v[0-9]+$`).MatchString(last) {
		last = parts[len(parts)-2]
	}
	return last
}

func bench(ctx context.Context, c config, argv []string) error {
	start := time.Now()
	mods, err := selectModules(c.modules)
	if err != nil {
		return err
	}
	var match *regexp.Regexp
	if c.match != "" {
		if match, err = regexp.Compile(c.match); err != nil {
			return fmt.Errorf("-match: %w", err)
		}
	}
	root, err := harness.ModuleRoot(modulePath, "run from bench/modules")
	if err != nil {
		return err
	}
	// The copies are main modules whose go.sum may lack what their
	// build needs; the go command may complete it (from the module
	// proxy, checked as usual), never choose another toolchain, and
	// ignore any go.work around.
	// Commands in this repository keep the user's GOFLAGS, so that they
	// change neither go.mod.
	repoEnv := []string{"GOFLAGS=" + os.Getenv("GOFLAGS")}
	os.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	os.Setenv("GOWORK", "off")
	os.Setenv("GOTOOLCHAIN", "local")
	work, err := os.MkdirTemp("", "modbench-")
	if err != nil {
		return err
	}
	if c.keep {
		logf("workspace kept in %s", work)
	} else {
		defer os.RemoveAll(work)
	}
	bin := c.gocolic
	if bin == "" {
		bin = filepath.Join(work, "gocolic")
		logf("building gocolic")
		r := shared.RunEnv(ctx, 10*time.Minute, filepath.Dir(filepath.Dir(root)), "", repoEnv, "go", "build", "-o", bin, "./cmd/gocolic")
		if r.Err != nil {
			return fmt.Errorf("building gocolic: %v\n%s", r.Err, shared.Tail(r.Output, 20))
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		return err
	}
	binHash, err := hashFile(bin)
	if err != nil {
		return fmt.Errorf("the gocolic binary: %w", err)
	}
	ch := cache{}
	if !c.nocache {
		ch.dir = c.cache
		if ch.dir == "" {
			d, err := os.UserCacheDir()
			if err != nil {
				return fmt.Errorf("no cache directory (-cache or -nocache): %w", err)
			}
			ch.dir = filepath.Join(d, "gocolic-modbench")
		}
	}
	spec := runSpec{bin: bin, binHash: binHash, budget: c.budget, workers: c.workers, slack: c.slack,
		flags: strings.Fields(c.flags), logs: filepath.Join(work, "logs")}
	if err := os.MkdirAll(spec.logs, 0o755); err != nil {
		return err
	}
	var deadline time.Time
	if c.limit > 0 {
		deadline = start.Add(c.limit)
	}
	var results []ModuleResult
	for _, m := range mods {
		if ctx.Err() != nil {
			break
		}
		results = append(results, benchModule(ctx, c, root, repoEnv, work, m, spec, ch, match, deadline))
	}
	md := markdown(results, c, argv, time.Since(start))
	fmt.Print(md)
	if c.out != "" {
		if err := os.WriteFile(c.out, []byte(md), 0o644); err != nil {
			return err
		}
	}
	if c.jsonOut != "" {
		var rows []Summary
		for _, r := range results {
			rows = append(rows, summarize(r))
		}
		data, err := json.MarshalIndent(struct {
			Command string         `json:"command"`
			Budget  string         `json:"budget"`
			Workers int            `json:"workers"`
			Gocolic string         `json:"gocolic_sha256"`
			Go      string         `json:"go"`
			Rows    []Summary      `json:"rows"`
			Total   Summary        `json:"total"`
			Modules []ModuleResult `json:"modules"`
		}{"go run ./cmd/modbench " + strings.Join(argv, " "), c.budget.String(), c.workers, binHash, runtime.Version(), rows, total(rows), results}, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(c.jsonOut, data, 0o644); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// candidate is a supported function waiting for its run.
type candidate struct {
	pkg, fn int    // indexes in ModuleResult.Packages and its Funcs
	dir     string // ./pattern of the package
}

// benchModule tests one module.
func benchModule(ctx context.Context, c config, root string, repoEnv []string, work string, m corpus.Module, spec runSpec, ch cache, match *regexp.Regexp, deadline time.Time) ModuleResult {
	mr := ModuleResult{Path: m.Path, Version: m.Version, Kind: m.Kind}
	logf("%s@%s: preparing", m.Path, m.Version)
	src, err := download(ctx, root, repoEnv, m)
	if err != nil {
		mr.Error = err.Error()
		return mr
	}
	mod, err := copyModule(m, src, filepath.Join(work, "mods", safeName(m.Path+"@"+m.Version)))
	if err != nil {
		mr.Error = err.Error()
		return mr
	}
	mr.GoVersion = mod.goVersion
	pkgs, err := loadPackages(mod)
	if err != nil {
		mr.Error = err.Error()
		return mr
	}
	if len(pkgs) > 0 {
		// The go command may have raised the go line for what the
		// module's dependencies need (-mod=mod); gocolic sees that one.
		if v := load.ModuleGoVersion(pkgs[0]); v != mod.goVersion {
			mr.GoVersion += "→" + v
		}
	}
	if c.pkgs > 0 && len(pkgs) > c.pkgs {
		pkgs = pkgs[:c.pkgs]
	}
	var queues [][]candidate // per package, the functions to run
	for _, p := range pkgs {
		pr := PackageResult{Path: p.PkgPath}
		switch {
		case packageErrors(p) != "":
			pr.Refused = packageErrors(p)
		case len(p.Syntax) == 0:
			pr.Refused = "no Go files"
		default:
			key := ch.key("package", spec.binHash, m.Path, m.Version, p.PkgPath)
			var cached PackageResult
			if ch.get(key, &cached) {
				pr.Refused, pr.Build, pr.BuildDetail, pr.Outcomes = cached.Refused, cached.Build, cached.BuildDetail, cached.Outcomes
			} else {
				checkPackage(mod, p, work, &pr)
				if err := ch.put(key, pr); err != nil {
					logf("%v", err)
				}
			}
		}
		if pr.Build != "" && pr.Build != "ok" {
			logf("%s: instrumented build: %s\n%s", p.PkgPath, pr.Build, pr.BuildDetail)
		}
		var q []candidate
		if pr.Refused == "" && pr.Build != statusCrash {
			for _, name := range exported(p) {
				if match != nil && !match.MatchString(p.PkgPath+"."+name) {
					continue
				}
				if fr := checkFunction(mod, p, name); fr != nil {
					pr.Funcs = append(pr.Funcs, *fr)
					continue
				}
				q = append(q, candidate{pkg: len(mr.Packages), fn: len(pr.Funcs), dir: relDir(mod, p)})
				pr.Funcs = append(pr.Funcs, FunctionResult{Name: name, Status: statusSkipped, Reason: "-funcs limit"})
			}
		}
		mr.Packages = append(mr.Packages, pr)
		queues = append(queues, q)
	}
	// Functions are taken in turn from the packages, so that a limit
	// leaves no package out.
	var order []candidate
	for i := 0; ; i++ {
		added := false
		for _, q := range queues {
			if i < len(q) {
				order = append(order, q[i])
				added = true
			}
		}
		if !added {
			break
		}
	}
	if c.funcs > 0 && len(order) > c.funcs {
		order = order[:c.funcs]
	}
	for n, cd := range order {
		pr := &mr.Packages[cd.pkg]
		fr := &pr.Funcs[cd.fn]
		switch {
		case ctx.Err() != nil:
			fr.Reason = "interrupted"
			continue
		case pr.Build == statusBuild:
			fr.Reason = "its package's instrumented build failed"
			continue
		case !deadline.IsZero() && time.Now().After(deadline):
			fr.Reason = "-time limit"
			continue
		}
		key := ch.key("function", spec.binHash, m.Path, m.Version, pr.Path, fr.Name, spec.budget.String(), fmt.Sprint(spec.workers), strings.Join(spec.flags, " "))
		var res FunctionResult
		if ch.get(key, &res) {
			res.Cached = true
		} else {
			logf("%s.%s (%d/%d)", pr.Path, fr.Name, n+1, len(order))
			res = runFunction(ctx, spec, mod, cd.dir, fr.Name)
			if ctx.Err() != nil {
				fr.Reason = "interrupted"
				continue
			}
			if err := ch.put(key, res); err != nil {
				logf("%v", err)
			}
			if res.Status != statusOK {
				logf("%s.%s: %s: %s\n%s", pr.Path, fr.Name, res.Status, res.Reason, res.Detail)
			}
		}
		*fr = res
	}
	return mr
}

// markdown formats the results: the table of modules, the refusals by
// reason, and every build failure and crash.
func markdown(results []ModuleResult, c config, argv []string, wall time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "`go run ./cmd/modbench %s` (from bench/modules; gocolic test -budget %v -workers %d per function; %s; %s wall)\n\n",
		strings.Join(argv, " "), c.budget, c.workers, runtime.Version(), wall.Round(time.Second))
	t := shared.Table{Head: []string{"module", "kind", "go", "packages", "pkg refused", "builds failed", "crashes", "functions", "fn refused", "run", "not run", "outcomes covered", "executions", "bugs found"},
		Right: []bool{false, false, false, true, true, true, true, true, true, true, true, true, true, true}}
	var rows []Summary
	for _, r := range results {
		s := summarize(r)
		rows = append(rows, s)
		t.Add(shared.Cell(s.Module), s.Kind, r.GoVersion, itoa(s.Packages), itoa(s.PkgRefused), itoa(s.BuildFailed), itoa(s.Crashes),
			itoa(s.Functions), itoa(s.FuncRefused), itoa(s.Run), itoa(s.NotRun), coverage(s), itoa(s.Executions), itoa(s.Bugs))
	}
	tt := total(rows)
	t.Add("**total**", "", "", itoa(tt.Packages), itoa(tt.PkgRefused), itoa(tt.BuildFailed), itoa(tt.Crashes),
		itoa(tt.Functions), itoa(tt.FuncRefused), itoa(tt.Run), itoa(tt.NotRun), coverage(tt), itoa(tt.Executions), itoa(tt.Bugs))
	md, err := t.Markdown()
	if err != nil {
		md = err.Error() + "\n"
	}
	b.WriteString(md)
	b.WriteString("\n\"outcomes covered\": branch outcomes (two per condition) covered by the union of a package's runs, out of the outcomes of the packages with a run. \"not run\": functions gocolic accepts that were not run (-funcs, -time, or their package's instrumented build failed).\n")
	if len(tt.Reasons) > 0 {
		b.WriteString("\nRefused, by reason:\n\n")
		rt := shared.Table{Head: []string{"reason", "count"}, Right: []bool{false, true}}
		reasons := make([]string, 0, len(tt.Reasons))
		for r := range tt.Reasons {
			reasons = append(reasons, r)
		}
		sort.Slice(reasons, func(i, j int) bool {
			if tt.Reasons[reasons[i]] != tt.Reasons[reasons[j]] {
				return tt.Reasons[reasons[i]] > tt.Reasons[reasons[j]]
			}
			return reasons[i] < reasons[j]
		})
		for _, r := range reasons {
			rt.Add(shared.Cell(r), itoa(tt.Reasons[r]))
		}
		md, _ := rt.Markdown()
		b.WriteString(md)
	}
	var failures []string
	for _, r := range results {
		for _, p := range r.Packages {
			if p.Build == statusBuild || p.Build == statusCrash {
				failures = append(failures, fmt.Sprintf("- `%s` (whole package): %s\n\n```\n%s\n```\n", p.Path, p.Build, p.BuildDetail))
			}
			for _, f := range p.Funcs {
				if f.Status == statusBuild || f.Status == statusCrash {
					failures = append(failures, fmt.Sprintf("- `%s.%s`: %s (%s)\n\n```\n%s\n```\n", p.Path, f.Name, f.Status, f.Reason, f.Detail))
				}
			}
		}
	}
	if len(failures) > 0 {
		b.WriteString("\nInstrumented builds that failed, and crashes:\n\n")
		b.WriteString(strings.Join(failures, "\n"))
	}
	return b.String()
}

// coverage formats covered/outcomes.
func coverage(s Summary) string {
	if s.Outcomes == 0 {
		return "–"
	}
	return fmt.Sprintf("%d / %d (%.1f%%)", s.Covered, s.Outcomes, 100*float64(s.Covered)/float64(s.Outcomes))
}

func itoa(n int) string { return fmt.Sprint(n) }
