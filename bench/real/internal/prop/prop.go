// Package prop is what the harnesses' Check functions call when a
// property of the package under test does not hold.
//
// A property that fails panics: the Check functions run both under a fuzz
// target (where a panic fails the target, as t.Fatal would) and under
// gocolic test, which calls them directly, with no *testing.T, and reports
// each distinct panic as a bug with a reproducer.
package prop

import "fmt"

// Violation is the value a failed property panics with.
type Violation string

func (v Violation) Error() string { return "property violated: " + string(v) }

// Failf panics with a Violation whose message is formatted as by
// fmt.Sprintf.
func Failf(format string, args ...any) {
	panic(Violation(fmt.Sprintf(format, args...)))
}
