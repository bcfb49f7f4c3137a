// Package guard turns a panic of gocolic's own code into an error, so that
// an internal failure costs one solver query, one run or one output file
// instead of the whole process and everything the run found. The caller
// decides what the error costs and reports it; guard only catches it with
// the stack that locates it.
package guard

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// Error is a panic that Do recovered.
type Error struct {
	// Where names the part of gocolic that panicked ("solver", "emit").
	Where string
	// Value is the value the code panicked with.
	Value any
	// Stack is the stack of the panicking goroutine at the recovery,
	// which holds the frames of the panic.
	Stack string
}

// Error returns "internal error in <where>: panic: <value>".
func (e *Error) Error() string {
	return fmt.Sprintf("internal error in %s: panic: %v", e.Where, e.Value)
}

// Unwrap returns the value panicked with when it is an error (a runtime
// error such as an index out of range), so that errors.As finds it.
func (e *Error) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Do calls f and returns its error, or an *Error naming where if f
// panics. A panic inside f's own goroutines is not caught.
func Do(where string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Where: where, Value: p, Stack: string(debug.Stack())}
		}
	}()
	return f()
}

// As returns the *Error in err's chain, or nil.
func As(err error) *Error {
	var g *Error
	if errors.As(err, &g) {
		return g
	}
	return nil
}
