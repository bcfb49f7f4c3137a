package session

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/gocolic/gocolic/coordinator"
	"github.com/gocolic/gocolic/instrument"
	"github.com/gocolic/gocolic/learn"
	"github.com/gocolic/gocolic/solver/stack"
)

// Config is one `gocolic test` or `gocolic fuzz` invocation. Each stage's
// settings are its own options type, with its defaults and validation:
// the exploration's (coordinator.Options, embedded) and the solver
// stack's (Solver); the rest are the session's own. Flags binds every
// setting to its flag, and Settings writes them all into the report.
type Config struct {
	Dir     string // directory the package pattern is relative to
	Package string // import path or ./dir
	Func    string

	// The exploration: budget, workers, strategy, execution limits.
	coordinator.Options
	// Solver are the solver stack's settings.
	Solver stack.Options

	MaxLen int // bound on string and []byte lengths; 0: 32, which fuzz raises to its longest seed (up to 1024)
	// MaxElems bounds the length of slice, map and variadic inputs (0:
	// instrument.DefaultMaxElems).
	MaxElems int
	// Impure lists packages and functions (path.Func) whose calls must
	// stay concrete, never opaque terms.
	Impure []string
	// Instrument lists go package patterns (relative to Dir) whose
	// packages in the target's import graph are instrumented too, as
	// support packages, so that values stay symbolic in calls into them;
	// packages of other modules are copied, never written (build/deps.go).
	Instrument []string
	// Stdlib instruments the standard packages the target reaches, above
	// the runtime's floor (build.InFloor), in place, as support packages
	// (stdlib.go).
	Stdlib bool
	// Prove claims the branch outcomes no path of the control-flow and
	// call graphs reaches from the entry unreachable (cfa.Unreachable),
	// which the coverage of the reachable leaves out.
	Prove bool
	// Abstraction runs the model checker (package mc) on every function
	// of the graph before testing, and claims the condition outcomes
	// its closed abstract reachability graphs leave out unreachable.
	Abstraction bool
	// MCShare is the model checker's share of the budget with
	// Abstraction: half of it before testing, the rest in rounds during
	// testing (rounds.go); 0 means DefaultMCShare.
	MCShare float64

	JSON         string // report path, "" for none
	Out          string // directory of the generated test file; "" for the package's
	CoverProfile string // "" for none
	RunDir       string // directory for report.json, timeline.csv and cover.out; "" for none
	NoTests      bool   // do not write the test file (fuzz: the corpus entries)
	KeepWork     bool   // keep the work directory (overlay, binary)
	FuzzCache    bool   // fuzz: also seed from the go test -fuzz cache of the target
	// WithFuzzer runs go test -fuzz beside the exploration (fuzz only),
	// exchanging corpus entries; the workers are split between the two.
	WithFuzzer bool
	// Replay lists directories of go test fuzz v1 files: their inputs are
	// run and measured, and nothing is explored or written but the report.
	Replay []string
	// Learn sizes gocolic learn's rounds; WeightsOut is the weight file
	// it writes.
	Learn      learn.Config
	WeightsOut string
	// NoState does not write the suite's state (testdata/gocolic), which
	// gocolic update reads.
	NoState bool
	// MaxState bounds the branches, over all its paths, that the suite's
	// state may hold (0: no bound); a larger suite's state is not written.
	MaxState int
	// NATS spreads the concolic lane's executions over a NATS server
	// with JetStream (package dist): the server's URL, or dist.EmbeddedURL
	// for one in this process; "" runs them all here, on worker
	// processes of the run's own.
	NATS string
	// NATSListen is, with an embedded server, the host:port it accepts
	// executors of other machines on ("": in-process only).
	NATSListen string
	// RunID names the run on the NATS server ("": a fresh one).
	RunID string
	// Local is the number of executors in this process with NATS; -1
	// means Workers (Validate).
	Local int
	// NATSSolve has the executors answer the queries too (dist.Solver):
	// the coordinator only selects, and Solvers counts the queries out
	// at once (default: Workers).
	NATSSolve bool
	// Check makes gocolic update rewrite nothing and fail when the suite
	// is out of date (ErrChanged).
	Check  bool
	Stderr io.Writer

	update bool // the run is gocolic update's (Update)

	maxLenAuto bool // MaxLen was not given (Validate)
}

// DefaultConfig returns the settings of a run that gives no flag: the
// defaults the flags show.
func DefaultConfig() Config {
	return Config{
		Options:  coordinator.DefaultOptions(),
		Solver:   stack.DefaultOptions(),
		MaxElems: instrument.DefaultMaxElems,
		Stdlib:   true,
		Prove:    true,
		MCShare:  DefaultMCShare,
		Learn:    learn.DefaultConfig(),
		MaxState: DefaultMaxState,
		Local:    -1,
	}
}

// DefaultMaxState is -maxstate when none is given. The state file is
// committed beside the tests, at about 50 bytes a branch: this is some
// 12 MB. A fuzz run of a parser can take 100 000 paths of 300 branches in a
// minute (gjson's Valid: a 1.4 GB state, minutes to write).
const DefaultMaxState = 250_000

// maxMaxElems bounds -maxelems: every element of a slice input has inputs
// of its own, and is assembled on every execution.
const maxMaxElems = 64

// defaultMaxLen is -maxlen when none is given.
const defaultMaxLen = 32

// maxMaxLen bounds -maxlen: every byte of every string input is a
// variable of the solver.
const maxMaxLen = 4096

// Validate checks a Config and fills in defaults.
func (c *Config) Validate() error {
	if c.Package == "" || c.Func == "" {
		return errors.New("no package or function given (usage: gocolic test|fuzz [flags] <package> <Func>)")
	}
	if c.NATSSolve && c.Solvers == 0 {
		c.Solvers = max(1, c.Workers)
	}
	if c.NATS != "" && c.Solvers == 0 {
		// -workers counts the executions out on every machine; the
		// solvers are this machine's.
		here := c.Workers
		if here <= 0 || here > runtime.NumCPU() {
			here = runtime.NumCPU()
		}
		c.Solvers = max(1, here/2)
	}
	if err := c.Options.Validate(); err != nil {
		return err
	}
	if err := c.validateNATS(); err != nil {
		return err
	}
	if err := c.Solver.Validate(); err != nil {
		return err
	}
	if c.MaxLen <= 0 {
		c.MaxLen, c.maxLenAuto = defaultMaxLen, true
	}
	if c.MaxLen > maxMaxLen {
		return fmt.Errorf("-maxlen %d is too large (at most %d)", c.MaxLen, maxMaxLen)
	}
	if c.MCShare == 0 {
		c.MCShare = DefaultMCShare
	}
	if c.MCShare < 0 || c.MCShare >= 1 {
		return fmt.Errorf("-mc-share %v is out of range (above 0, below 1)", c.MCShare)
	}
	if c.MaxState < 0 {
		return fmt.Errorf("-maxstate %d is negative (0: no bound)", c.MaxState)
	}
	if c.MaxElems < 0 || c.MaxElems > maxMaxElems {
		return fmt.Errorf("-maxelems %d is out of range (0 to %d)", c.MaxElems, maxMaxElems)
	}
	if c.Out != "" {
		// Checked before the exploration, so that a wrong -o costs no
		// run; a directory that does not exist yet is made when the
		// tests are written.
		if fi, err := os.Stat(c.Out); err == nil && !fi.IsDir() {
			return fmt.Errorf("-o %s is a file, not a directory for the generated tests", c.Out)
		}
	}
	if c.Stderr == nil {
		c.Stderr = os.Stderr
	}
	return nil
}
