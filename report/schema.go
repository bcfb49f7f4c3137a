// This file declares the one schema of gocolic's JSON report: the
// report.json of a run directory and the file of -json. gocolic writes it
// (session), and gocolic report and the benchmarks read it, all with these
// types; a field added here reaches every reader.

package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// The files of a run directory (-rundir).
const (
	// ReportFile is the JSON report, a Report.
	ReportFile = "report.json"
	// TimelineFile is the run's progress over time as CSV, one Point a
	// line after the header ms,execs,covered,paths,bugs.
	TimelineFile = "timeline.csv"
	// ProfileFile is the run's statement coverage profile, in the format
	// go tool cover reads.
	ProfileFile = "cover.out"
)

// Report is the JSON report of a run (report.json, or the file of -json).
// Readers take every field as possibly missing, since older reports lack
// some, and ignore fields they do not know.
type Report struct {
	Tool      string `json:"tool"`       // "gocolic"
	Command   string `json:"command"`    // "test" or "fuzz"
	ModuleDir string `json:"module_dir"` // root of the target's module
	// GoRoot and ModCache are go env GOROOT and GOMODCACHE of the run,
	// which readers show the files under them by (Places); "" when
	// unknown or in reports that predate them.
	GoRoot      string   `json:"goroot,omitempty"`
	ModCache    string   `json:"gomodcache,omitempty"`
	Package     string   `json:"package"`  // import path of the target's package
	Function    string   `json:"function"` // the function or fuzz target
	Executions  int      `json:"executions"`
	ExecsPerSec float64  `json:"execs_per_sec"`
	Paths       int      `json:"paths"` // distinct paths executed
	Branches    Branches `json:"branches"`
	// Unreachable lists the outcomes of Branches proved unreachable
	// (-prove), which the coverage of the reachable outcomes leaves out
	// of its total (Reachable); empty when none was proved, or when an
	// execution refuted a claim, which drops them all (internal_errors
	// then says so).
	Unreachable []Unreachable `json:"unreachable"`
	// Abstraction is what the model checker and its monitors did
	// (-abstraction); nil for other runs.
	Abstraction *Abstraction `json:"abstraction,omitempty"`
	// Tags are the build tags the run added to the user's, under which
	// the instrumented packages use Go instead of assembly; none in most
	// runs.
	Tags []string `json:"tags,omitempty"`
	// Stdlib is what the run instrumented of the standard library
	// (-stdlib); Branches counts none of it. Nil when nothing was.
	Stdlib *Stdlib `json:"stdlib,omitempty"`
	Bugs   []Bug   `json:"bugs"`
	Solver Solver  `json:"solver"`
	// Divergences counts the executions that missed the path their input
	// was solved for.
	Divergences int `json:"divergences"`
	// DivergentSites are the branch sites where most of them left the
	// predicted path, most divergences first, at most ten; empty in
	// reports that predate them.
	DivergentSites []DivergentSite `json:"divergent_sites,omitempty"`
	// SlowTracked counts the executions that timed out only with tracking.
	SlowTracked int `json:"slow_tracked"`
	// SlowRetried counts the executions that timed out with tracking,
	// ended in time without it, and ended with tracking on a second try
	// within ten times the time limit: their paths were explored.
	SlowRetried int `json:"slow_retried"`
	// StateDependent is the check that each bug fails alone, and the
	// failures that did not: nil in reports that predate it.
	StateDependent *StateDependent `json:"state_dependent,omitempty"`
	// AliasFallbacks counts the solver models whose pointer choices could
	// not be put into the form of the equivalence graph.
	AliasFallbacks int `json:"alias_fallbacks"`
	// Concretised counts the values the run made concrete, per cause,
	// and relates its divergences to them; nil in reports that predate it.
	Concretised *Concretised `json:"concretised"`
	// Tree holds the execution tree's counters (runs, paths, nodes, open
	// sides, ...) under their Go field names.
	Tree      any    `json:"tree"`
	ElapsedMS int64  `json:"elapsed_ms"`
	Stopped   string `json:"stopped"` // why the run ended: budget, runs, exhausted, ...
	Exhausted bool   `json:"exhausted"`
	// Lanes counts the work of each search lane (-lanes); nil in reports
	// that predate it.
	Lanes *Lanes `json:"lanes,omitempty"`
	// Tests is the path of the generated test file (or, for fuzz, the
	// corpus directory written), "" when none was written.
	Tests string `json:"tests,omitempty"`
	// Profile is the path of the coverage profile of -coverprofile.
	Profile  string  `json:"coverprofile,omitempty"`
	Timeline []Point `json:"timeline"`
	// Cases holds the arguments of each kept test case, as Go literals.
	Cases [][]string `json:"cases"`
	// CasesFound counts the cases the exploration kept before the final
	// pass chose Cases among them; 0 in reports that predate it.
	CasesFound int `json:"cases_found"`
	// MinimizeMS and MinimizeExecs are the time and executions spent
	// minimising the findings' and cases' inputs after the exploration.
	MinimizeMS    int64 `json:"minimize_ms"`
	MinimizeExecs int   `json:"minimize_execs"`
	// ExecNS is the time workers spent inside executions.
	ExecNS int64 `json:"exec_ns"`
	// CPUMS is the CPU time (user and system) of the gocolic process
	// during the exploration: the coordinator and the solvers, not the
	// workers; 0 where it is not measured.
	CPUMS int64 `json:"cpu_ms"`
	// Config holds the run's settings keyed by name (strategy, workers,
	// seed, budget, ...), as the JSON values they were written as; see
	// [Report.Setting].
	Config map[string]any `json:"config"`
	// Hybrid counts the exchanges with go test -fuzz (gocolic fuzz
	// -with-fuzzer); nil for other runs.
	Hybrid *HybridStats `json:"hybrid,omitempty"`
	// Update is what gocolic update did to the saved suite; nil for
	// other runs.
	Update *Update `json:"update,omitempty"`
	// InternalErrors are the failures of gocolic's own code that the run
	// survived or ended with (a panic in the solver chain costs its query,
	// one in an output costs that output), each with the stack that
	// locates it; a run without any has none.
	InternalErrors []InternalError `json:"internal_errors"`
}

// Abstraction is what the model checker (-abstraction) did before the
// run, and what its monitors did during it.
type Abstraction struct {
	// MCMS is the model checker's wall time.
	MCMS int64 `json:"mc_ms"`
	// Functions counts the functions checked; Incomplete those a bound
	// stopped (nothing is claimed or monitored in them), Skipped those
	// the budget left out.
	Functions  int `json:"functions"`
	Incomplete int `json:"incomplete"`
	Skipped    int `json:"skipped"`
	// Rounds counts the rounds during testing (-mc-share), besides the
	// one before; the other counts add up all rounds.
	Rounds int `json:"rounds"`
	// Refinements and Predicates are summed over the functions;
	// ARGNodes counts the nodes of the closed graphs.
	Refinements int `json:"refinements"`
	Predicates  int `json:"predicates"`
	ARGNodes    int `json:"arg_nodes"`
	// Monitors counts the functions whose closed graph prunes the
	// search (those the build marked).
	Monitors int `json:"monitors"`
	// Local counts the outcomes proved unreachable by the straight code
	// before their branch, with no graph (one query each).
	Local int `json:"proved_local"`
	// Pruned counts the negations the monitors held back; Released
	// those given back when their monitor raised an alarm or a claim
	// was refuted.
	Pruned   int `json:"pruned"`
	Released int `json:"released"`
	// HeldByClaims counts the negations held back because their side
	// was proved unreachable: no query is spent on them.
	HeldByClaims int `json:"held_by_claims"`
	// Alarms name the functions whose monitor an execution left (the
	// model was wrong): the monitor was dropped and testing went on.
	Alarms []string `json:"alarms"`
	// PrunedCovered counts the held-back negations an execution took all
	// the same: a wrong pruning, 0 in a sound run.
	PrunedCovered int `json:"pruned_covered"`
}

// InternalError is one failure of gocolic's own code during a run: where
// it happened, its message, how often, and the stack of its first time.
type InternalError struct {
	Where   string `json:"where"`
	Message string `json:"message"`
	Count   int    `json:"count"`
	Stack   string `json:"stack"`
}

// Concretised is a run's account of concretisation: the events of all
// causes, the divergent executions, those with no event before their
// divergent branch, and the causes that occurred.
type Concretised struct {
	Events       int     `json:"events"`
	Divergences  int     `json:"divergences"`
	Unattributed int     `json:"unattributed_divergences"`
	Causes       []Cause `json:"causes"`
}

// Cause is one cause of concretisation in a run: its events, the
// executions with one, the divergent executions with one before their
// divergent branch, and the places with most events.
type Cause struct {
	Cause       string         `json:"cause"`
	Description string         `json:"description"`
	Events      int            `json:"events"`
	Executions  int            `json:"executions"`
	Divergences int            `json:"divergences"`
	Sites       []ConcreteSite `json:"sites"`
}

// ConcreteSite is one place where a run made values concrete.
type ConcreteSite struct {
	Pos         string `json:"pos"` // file:line, the file an absolute path; "" when unknown
	Func        string `json:"func"`
	Expr        string `json:"expr"`
	Events      int    `json:"events"`
	Executions  int    `json:"executions"`
	Divergences int    `json:"divergences"`
}

// DivergentSite is a branch site of the predicted paths where executions
// took another way than their input was solved for.
type DivergentSite struct {
	Pos   string `json:"pos"` // file:line, the file an absolute path; "" when unknown
	Func  string `json:"func"`
	Cond  string `json:"cond"`
	Count int    `json:"count"` // divergent executions that left the prediction here
}

// Stdlib lists the standard packages a run instrumented in place, and the
// branch outcomes of their sites it covered, apart from the target's.
type Stdlib struct {
	Packages []string `json:"packages"`
	Covered  int      `json:"covered"`
	Total    int      `json:"total"`
}

// Branches is the branch-outcome coverage of a run.
type Branches struct {
	Covered int    `json:"covered"` // outcomes covered
	Total   int    `json:"total"`   // outcomes of all condition sites
	Sites   []Site `json:"sites"`
}

// Site is one condition of the target package: its two outcomes and
// whether the run covered each.
type Site struct {
	ID    uint32 `json:"id"`
	Pos   string `json:"pos"` // file:line:column, the file an absolute path
	Func  string `json:"func"`
	Cond  string `json:"cond"`
	True  bool   `json:"true"`
	False bool   `json:"false"`
}

// Unreachable is a branch outcome no execution of the run can take, and
// what proved it.
type Unreachable struct {
	ID      uint32 `json:"id"` // the site, as in Branches.Sites
	File    string `json:"file"`
	Line    int    `json:"line"`
	Func    string `json:"func"`
	Cond    string `json:"cond"`
	Outcome bool   `json:"outcome"` // the condition's value on that side
	// By names the proof: "cfg" for stage 0, the control-flow and call
	// graphs before the run; "mc" for the model checker (-abstraction).
	By string `json:"by"`
	// Round is the model-checking round that proved it: 0 before
	// testing, k for the k-th round beside it (-mc-share).
	Round int `json:"round"`
	// ProvedMS is when the run took the proof in, in milliseconds from
	// the exploration's start: 0 for proofs made before testing.
	ProvedMS int64 `json:"proved_ms"`
}

// Proof names the proof for people: By, and the round when there was
// one during testing.
func (u Unreachable) Proof() string {
	if u.Round > 0 {
		return fmt.Sprintf("%s, round %d", u.By, u.Round)
	}
	return u.By
}

// Reachable returns the branch outcomes not proved unreachable: the
// total of the coverage of the reachable, Branches.Covered out of it.
func (r *Report) Reachable() int { return r.Branches.Total - len(r.Unreachable) }

// Bug is one distinct finding of a run.
type Bug struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Inputs maps each parameter's name (#1, #2, ... when it has none) to
	// its argument as a Go literal.
	Inputs     map[string]string `json:"inputs"`
	Call       string            `json:"call"`     // the call that raises it
	Count      int               `json:"count"`    // executions that raised it
	FoundMS    int64             `json:"found_ms"` // when it was first raised
	Minimized  bool              `json:"minimized"`
	Reproducer string            `json:"reproducer,omitempty"` // where the written test or corpus entry reproduces it
	Stack      string            `json:"stack,omitempty"`
}

// StateDependent is what the check of each bug alone found. A worker
// process runs many inputs, so a target that keeps package-level state
// may fail on an input only because earlier inputs ran in the same
// process; after the exploration each bug's input runs once more in a
// worker process of its own, and a failure that does not recur there is
// listed here instead of in Bugs, with no reproducer test and no corpus
// entry.
type StateDependent struct {
	// Checked counts the bugs run alone.
	Checked int `json:"checked"`
	// Inferred counts the failures listed without a run of their own:
	// three of their kind and innermost frame had not recurred alone.
	Inferred int `json:"inferred"`
	// Unchecked counts the bugs kept without a check: past 64 runs, or
	// left when the run was interrupted or a worker would not start.
	Unchecked int `json:"unchecked"`
	// ElapsedMS is the time the check took.
	ElapsedMS int64 `json:"elapsed_ms"`
	// Failures are the failures that did not recur alone, in the order
	// found.
	Failures []StateFailure `json:"failures"`
}

// StateFailure is one failure that did not recur when its input ran
// alone.
type StateFailure struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Inputs and Call are the first input that raised it, as in Bug.
	Inputs  map[string]string `json:"inputs"`
	Call    string            `json:"call"`
	Count   int               `json:"count"`    // executions that raised it
	FoundMS int64             `json:"found_ms"` // when it was first raised
}

// Solver counts the solver queries of a run: the path conditions of
// candidates (the optimistic queries are counted apart). TimeMS adds up
// the time of every goroutine of the solver pool, and the layers' counts
// are summed over their stacks.
type Solver struct {
	Queries int     `json:"queries"`
	Sat     int     `json:"sat"`
	Unsat   int     `json:"unsat"`
	Unknown int     `json:"unknown"` // unknown or failed
	TimeMS  int64   `json:"time_ms"`
	Layers  []Layer `json:"layers"`
	// Sites counts the queries per branch site, the sites with most
	// failed queries (unsat or unknown) first; nil in reports that
	// predate it.
	Sites []SolverSite `json:"sites"`
	// Optimistic counts the goals solved alone after their path
	// condition failed.
	Optimistic Optimistic `json:"optimistic"`
	// Deferred counts the candidates the back-off put aside.
	Deferred int `json:"deferred"`
	// Stuck counts the queries the solver pool's watchdog gave up on;
	// nil in reports that predate it.
	Stuck *Stuck `json:"stuck,omitempty"`
}

// Stuck counts the queries that ran past the solver's time limit and a
// grace, ignoring their interrupt, and were given up with the goroutine
// solving them (counted unknown too), and what became of their solvers.
type Stuck struct {
	Queries int `json:"queries"`
	// Replaced counts the solvers made to take an abandoned one's place.
	Replaced int `json:"replaced"`
	// Late counts the abandoned queries that ended after all, their
	// answers dropped.
	Late int `json:"late"`
	// Dead is the most solvers the run was without at once, for the
	// reason Why gives; 0 when every abandoned solver was replaced.
	Dead int    `json:"dead"`
	Why  string `json:"why,omitempty"`
}

// SolverSite counts the queries asked to flip the branches of one site.
type SolverSite struct {
	ID      uint32 `json:"id"`
	Pos     string `json:"pos"` // file:line:column
	Func    string `json:"func"`
	Cond    string `json:"cond"`
	Queries int    `json:"queries"`
	Sat     int    `json:"sat"`
	Unsat   int    `json:"unsat"`
	Unknown int    `json:"unknown"` // unknown or failed
	Stuck   int    `json:"stuck"`   // given up by the watchdog, among Unknown
	TimeMS  int64  `json:"time_ms"`
}

// Optimistic counts a run's optimistic queries: asked, satisfiable, and
// those whose input took its goal's branch outcome first.
type Optimistic struct {
	Queries int `json:"queries"`
	Sat     int `json:"sat"`
	Reached int `json:"reached"`
}

// Layer counts the queries one layer of the solver chain answered or
// passed on.
type Layer struct {
	Name    string `json:"name"`
	Queries int    `json:"queries"`
	Sat     int    `json:"sat"`
	Unsat   int    `json:"unsat"`
	Unknown int    `json:"unknown"`
	TimeMS  int64  `json:"time_ms"`
}

// Point is one sample of a run's progress, taken when something changed.
type Point struct {
	MS       int64 `json:"ms"`
	Execs    int   `json:"execs"`
	Covered  int   `json:"covered"`
	Paths    int   `json:"paths"`
	Findings int   `json:"bugs"`
}

// HybridStats counts what went between gocolic and go test -fuzz in a
// gocolic fuzz -with-fuzzer run.
type HybridStats struct {
	Rounds       int `json:"rounds"`        // fuzzer processes started
	FromFuzzer   int `json:"from_fuzzer"`   // fuzzer entries given to gocolic
	ToFuzzer     int `json:"to_fuzzer"`     // gocolic inputs given to the fuzzer
	FuzzerFailed int `json:"fuzzer_failed"` // rounds that ended with a failure found by the fuzzer
	Parallel     int `json:"parallel"`      // the fuzzer's -parallel
	// Note says why the fuzzer side stopped early, "" if it did not.
	Note string `json:"note,omitempty"`
}

// Setting returns a setting of the run's configuration as text: a string
// as it is, a number or a boolean as JSON writes it, "" when missing.
func (r *Report) Setting(key string) string {
	switch v := r.Config[key].(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	default:
		data, err := json.Marshal(v)
		if err != nil {
			return ""
		}
		return string(data)
	}
}

// Encode returns the report as gocolic writes it: indented JSON ending in
// a newline.
func Encode(r *Report) ([]byte, error) {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding the JSON report: %w", err)
	}
	return append(data, '\n'), nil
}

// Decode decodes a JSON report, which must be an object.
func Decode(data []byte) (*Report, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, errors.New("malformed JSON report: not a JSON object")
	}
	var r Report
	if err := json.Unmarshal(trimmed, &r); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("malformed JSON report at byte %d: %w", se.Offset, err)
		}
		return nil, fmt.Errorf("malformed JSON report: %w", err)
	}
	return &r, nil
}

// ReadJSON reads the JSON report at path. The error names the file.
func ReadJSON(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the JSON report: %w", err)
	}
	r, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// Lanes counts what each search lane did and what they handed each other.
type Lanes struct {
	// ConcolicExecs counts the concolic lane's executions, its traces of
	// the mutation lane's inputs among them; ConcolicKept the inputs it
	// found itself that covered a branch outcome first.
	ConcolicExecs int `json:"concolic_execs"`
	ConcolicKept  int `json:"concolic_kept"`
	// MutationExecs counts the mutation lane's inputs; MutationKept those
	// it kept (a new branch outcome or hit-count bucket).
	MutationExecs int `json:"mutation_execs"`
	MutationKept  int `json:"mutation_kept"`
	// Traced counts the mutation lane's inputs the concolic lane traced;
	// Seeded the concolic lane's inputs given to the mutation lane.
	Traced int `json:"traced"`
	Seeded int `json:"seeded"`
	// DutyHeld counts the times the solver was held back because the
	// concolic lane found less per CPU-second than the mutation lane;
	// DutyMS is how long, in milliseconds, its share was below its whole
	// time.
	DutyHeld int   `json:"duty_held,omitempty"`
	DutyMS   int64 `json:"duty_ms,omitempty"`
}

// Update is the account of one gocolic update: what became of the saved
// suite's tests (one per explored path), the ranges explored again, and
// what the update spent against what the saved run had.
type Update struct {
	// Kept counts the saved paths the new version still has, Dropped
	// those it no longer has, Added the new version's paths the saved
	// suite had not.
	Kept    int `json:"kept"`
	Dropped int `json:"dropped"`
	Added   int `json:"added"`
	// Changed lists the kept tests whose results changed: the same input
	// on the same path now gives other results.
	Changed []ResultChange `json:"results_changed"`
	// Ranges counts the ranges of changed paths explored again (seed
	// 003), Sides the untaken branch sides in them given to the solver's
	// search, Settled the sides the saved run had refuted, left unasked.
	Ranges  int `json:"ranges"`
	Sides   int `json:"sides"`
	Settled int `json:"settled"`
	// FuncsChanged names the functions whose fingerprint (normalised
	// syntax) changed, was added or was removed since the saved run.
	FuncsChanged []string `json:"funcs_changed"`
	// Checked says the update ran with -check: nothing was rewritten.
	Checked bool `json:"checked"`
	// This run and the saved run's cost.
	Executions int   `json:"executions"`
	Queries    int   `json:"queries"`
	ElapsedMS  int64 `json:"elapsed_ms"`
	Saved      Spent `json:"saved"`
}

// ResultChange is one kept test whose results changed.
type ResultChange struct {
	Call string   `json:"call"`
	Old  []string `json:"old"`
	New  []string `json:"new"`
}

// Spent is what a run cost.
type Spent struct {
	Executions int   `json:"executions"`
	Queries    int   `json:"queries"`
	ElapsedMS  int64 `json:"elapsed_ms"`
}
