// Package stack builds the solver stack of a run from its options: the Z3
// core, the concolic walk over it, the auto layer that chooses between
// them, and the chain layers in front (solver.Chain). It is the one place
// that knows how the layers of packages solver, solver/z3 and solver/walk
// fit together; New may be called once per goroutine that solves, since a
// stack is not safe for concurrent use.
package stack

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/solver/walk"
	"github.com/gocolic/gocolic/solver/z3"
	"github.com/gocolic/gocolic/sym"
)

// The solver modes.
const (
	// ModeZ3 solves with Z3 alone: calls of uninstrumented functions stay
	// concrete.
	ModeZ3 = "z3"
	// ModeWalk solves with the concolic walk, Z3 for the linear part.
	ModeWalk = "walk"
	// ModeAuto tries Z3 first and the walk for what Z3 cannot model or
	// decide in time.
	ModeAuto = "auto"
)

// Modes lists the solver modes.
func Modes() []string { return []string{ModeZ3, ModeWalk, ModeAuto} }

// Options are the user's settings of the solver stack.
type Options struct {
	Mode string // ModeZ3, ModeWalk or ModeAuto
	// Timeout bounds one query (Z3's check, and the walk's search).
	Timeout time.Duration
	// Memory bounds, in MiB, the memory Z3 may hold in the process (all
	// solver stacks together). A query that would pass it is lost
	// (counted unknown) and the run goes on. Some float queries ignore
	// Timeout and the interrupt at the budget's end and would otherwise
	// grow without end.
	Memory int
	// Walk are the concolic walk's parameters (modes walk and auto); a
	// zero Walk.Timeout means Timeout, and Walk.Seed is set by New.
	Walk walk.Params
}

// DefaultOptions returns the options of a run that sets none.
func DefaultOptions() Options {
	return Options{
		Mode:    ModeAuto,
		Timeout: 2 * time.Second,
		Memory:  2048,
		Walk:    walk.Params{Steps: walk.DefaultSteps, Neighbors: walk.DefaultNeighbors},
	}
}

// Validate checks the options and gives the unset ones their defaults.
func (o *Options) Validate() error {
	d := DefaultOptions()
	if o.Mode == "" {
		o.Mode = d.Mode
	}
	if !slices.Contains(Modes(), o.Mode) {
		return fmt.Errorf("unknown -solver %q (want %s, %s or %s)", o.Mode, ModeZ3, ModeWalk, ModeAuto)
	}
	if o.Timeout <= 0 {
		o.Timeout = d.Timeout
	}
	if o.Memory < 0 {
		return fmt.Errorf("-solver-memory must be a positive number of MiB, not %d", o.Memory)
	}
	if o.Memory == 0 {
		o.Memory = d.Memory
	}
	if o.Walk.Steps <= 0 {
		o.Walk.Steps = d.Walk.Steps
	}
	if o.Walk.Neighbors <= 0 {
		o.Walk.Neighbors = d.Walk.Neighbors
	}
	if o.Walk.Tabu < 0 {
		return errors.New("-walktabu must be -1, 0 or a positive number")
	}
	return nil
}

// Bound returns the longest one query of a stack takes when every layer
// keeps its own time limit: Timeout in mode z3; the walk's timeout in
// mode walk, whose calls of Z3 share it; in mode auto, Timeout and the
// walk's added (Z3's first try on a non-linear query, then the walk; a
// linear query Z3 leaves undecided no longer goes on to the walk, so this
// is more than any query takes, kept for the watchdog's sake). A query
// that runs well past it ignores its interrupt (the coordinator's
// watchdog gives it up). o must have been validated.
func (o Options) Bound() time.Duration {
	w := o.Walk.Timeout
	if w == 0 {
		w = o.Timeout
	}
	switch o.Mode {
	case ModeWalk:
		return w
	case ModeAuto:
		return o.Timeout + w
	}
	return o.Timeout
}

// Opaque says whether the workers should shadow calls of uninstrumented
// functions with opaque terms, which only the walk can solve.
func (o Options) Opaque() bool { return o.Mode != ModeZ3 }

// Env is what a stack needs from the run it solves for.
type Env struct {
	// Eval evaluates opaque calls for the walk; it may be nil in mode z3.
	Eval walk.Evaluator
	// Floats gives the width of the input variables that hold floats
	// (walk.New).
	Floats map[uint64]uint8
	// Seed seeds the walk's random choices.
	Seed uint64
}

// Stack is one solver stack: a solver.Solver and the resources behind it.
type Stack struct {
	solver.Solver
	z3 *z3.Solver
}

// New builds a stack for options o, which must have been validated.
func New(o Options, env Env) (*Stack, error) {
	z, err := z3.New(z3.Options{Timeout: o.Timeout, MemoryLimit: o.Memory})
	if err != nil {
		return nil, fmt.Errorf("starting Z3: %w", err)
	}
	var core solver.Solver = z
	if o.Mode != ModeZ3 {
		wp := o.Walk
		if wp.Timeout == 0 {
			wp.Timeout = o.Timeout
		}
		wp.Seed = env.Seed
		w := walk.New(z, env.Eval, env.Floats, wp)
		core = w
		if o.Mode == ModeAuto {
			// Z3 gets a tenth of the timeout on a non-linear query, so
			// that the walk still has time when Z3 gives up.
			core = solver.NewAuto(z, w, solver.AutoOptions{
				Hard:     func(e *sym.Expr) bool { return !w.Linear(e) },
				FirstTry: o.Timeout / 10,
				// The walk hands a query with no non-linear part to Z3
				// whole: asking it again after Z3's Unknown would only
				// spend a second timeout on the same query.
				EasyFinal: true,
			})
		}
	}
	return &Stack{Solver: solver.Chain(core, solver.DefaultConfig()), z3: z}, nil
}

// Close releases the Z3 context. The stack must not be used after.
func (s *Stack) Close() { s.z3.Close() }
