// Package solver answers path-condition queries for the explorer. A query
// goes through a chain of layers, each one small type behind the Solver
// interface that owns the next layer (after KLEE's solver chain): a fast
// unsat check, constraint independence slicing, a cache, and finally a core
// that really decides, such as Z3 (package solver/z3).
package solver

import (
	"context"
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
}

// Result is a Solver's answer. For Sat, Model gives a value to every
// variable of the (possibly sliced) query; variables it omits are free to
// keep the values they had in the execution the query came from.
type Result struct {
	Status Status
	Model  sym.Env
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
	Time    time.Duration
}
