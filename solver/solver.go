// Package solver answers path-condition queries for the explorer. A query
// goes through a chain of layers, each one small type behind the Solver
// interface that owns the next layer (after KLEE's solver chain). Chain
// builds them in this order, outermost first:
//
//  1. fast unsat (NewFastUnsat): a goal or constraint that is the constant
//     false, or a goal whose negation is among the constraints, is Unsat.
//     Hash-consing makes the negation test a pointer comparison, so this
//     costs one pass over the constraints and never calls the layers below.
//  2. independence (NewIndependence): keeps only the constraints that share
//     variables, transitively, with the goal. Sliced-away constraints hold
//     for the inputs of the execution the query came from and mention none
//     of the variables the answer may change, so they stay true. Slicing
//     before caching makes cache keys smaller and hits more frequent.
//  3. cache (NewCache): exact answers for repeated queries, reuse of recent
//     models that happen to satisfy a new query (counterexample reuse), and
//     Unsat for queries that contain the assertions of a known Unsat query.
//  4. domain (NewDomain): a goal over one variable of at most ten bits (a
//     byte) is decided by trying every value on the goal and the
//     constraints over that variable alone: Unsat when none fits, Sat when
//     exactly one does.
//  5. seed fix (NewSeedFix): for an equality goal, the query's Seed with
//     one variable changed so that the equality holds, checked on every
//     constraint.
//  6. the core, which decides: package solver/z3.
//
// Layers 4 and 5 answer what a concolic search asks most: the other side of
// one branch of a path the Seed took, which is usually one input value away
// or contradicts what the prefix put on the same value. They answer Sat
// only with a value the goal pins down, which any solver's model gives
// too; ranges and input lengths go to the core, since the search depends
// on the spread of the core's models (NewDomain says what the nearest
// values cost).
//
// Layers are not safe for concurrent use; a chain serves one goroutine at a
// time. Every layer reports its own Stats; Layers walks a chain for
// reporting.
package solver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/gocolic/gocolic/sym"
)

// Status is the answer to a query.
type Status int

// The possible answers.
const (
	Unknown Status = iota // the core gave up (timeout, unsupported term)
	Sat
	Unsat
)

// String returns "sat", "unsat" or "unknown".
func (s Status) String() string {
	switch s {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// A Query asks whether Goal can hold together with all Constraints, and for
// values of the variables if so. Constraints are boolean terms of one
// sym.Builder: the path prefix leading to a branch plus the domain limits of
// the inputs; Goal is the negated branch condition.
type Query struct {
	Constraints []*sym.Expr
	Goal        *sym.Expr
	// Seed, when not nil, is the input of the execution the query came
	// from: it satisfies Constraints. Search-based layers start there;
	// decision procedures ignore it.
	Seed sym.Env
}

// Result is a Solver's answer. For Sat, Model gives a value to every
// variable of the (possibly sliced) query; variables it omits are free to
// keep the values they had in the execution the query came from. The caller
// owns Model and may modify it.
type Result struct {
	Status Status
	Model  sym.Env
}

// clone returns r with a copy of its model, so that callers may keep or
// modify one without affecting the other.
func (r Result) clone() Result {
	r.Model = maps.Clone(r.Model)
	return r
}

// Solver is one layer of the chain.
type Solver interface {
	// Solve answers q. An error is reserved for failures of the solver
	// itself; a query the solver cannot decide is Unknown, not an error.
	Solve(ctx context.Context, q Query) (Result, error)
}

// Stats counts the queries that reached one layer and how they ended.
type Stats struct {
	Queries int
	Sat     int
	Unsat   int
	Unknown int
	Errors  int
	// Local counts the queries the layer answered without asking the
	// next one.
	Local int
	// Time is the wall time spent in the layer's Solve, including the
	// layers below it.
	Time time.Duration
}

// Record counts one query that took elapsed and ended with r and err.
func (s *Stats) Record(r Result, err error, elapsed time.Duration) {
	s.Queries++
	s.Time += elapsed
	switch {
	case err != nil:
		s.Errors++
	case r.Status == Sat:
		s.Sat++
	case r.Status == Unsat:
		s.Unsat++
	default:
		s.Unknown++
	}
}

// checkQuery reports malformed queries that would make a layer misbehave:
// a missing goal or constraint, or one that is not boolean. It looks only
// at the top node of each term.
func checkQuery(q Query) error {
	if err := checkBool(q.Goal); err != nil {
		return fmt.Errorf("solver: goal: %w", err)
	}
	for i, c := range q.Constraints {
		if err := checkBool(c); err != nil {
			return fmt.Errorf("solver: constraint %d: %w", i, err)
		}
	}
	return nil
}

func checkBool(e *sym.Expr) error {
	switch {
	case e == nil:
		return errors.New("nil term")
	case !e.IsBool():
		return fmt.Errorf("term of kind %s and width %d is not boolean", e.Kind, e.Width)
	}
	return nil
}
