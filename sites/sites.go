// Package sites is the vocabulary the pipeline shares about places in the
// instrumented source: the branch sites the rewrite numbers (instrument),
// the outcomes of them that executions cover (coordinator, explore), and
// how the outputs name them (session, report).
//
// It is a leaf: it imports only the standard library, so that the
// coordinator and the outputs need not import the rewriter to speak of a
// site. (The name is plural because "site" is the natural name of a
// variable holding one.)
package sites

import "go/token"

// Kind says what a site is.
type Kind uint8

// The kinds of sites.
const (
	// Cond is a condition atom: an if, for or case condition, or an
	// operand of && or ||. Branch coverage counts both outcomes of these.
	Cond Kind = iota + 1
	// Implicit is a check the language makes and that panics on one
	// side: a zero divisor, an index or slice bound, a negative shift.
	Implicit
	// Loop is the implicit "more elements" test of a range loop.
	Loop
	// Test is a condition in a _test.go file (the code of a fuzz target):
	// explored like any other, but not part of the package's branch
	// coverage.
	Test
	// Concrete is not a branch: it is a place where the runtime may drop
	// a symbolic term and go on with the concrete value (a call that takes
	// no shadows, a conversion it does not model, a load from the shadow
	// memory, an opaque call), so that the concretisation events counted
	// there (rt.Cause) have a position.
	Concrete
	// Func is not a branch either: it is the entry of a function, in a
	// build with markers (instrument.Config.Markers), where a traced
	// execution records the entry (the true outcome) and the return (the
	// false outcome) of each call (rt.Enter, rt.Leave).
	Func
)

// String returns the kind's name as the JSON report writes it.
func (k Kind) String() string {
	switch k {
	case Cond:
		return "cond"
	case Implicit:
		return "implicit"
	case Loop:
		return "loop"
	case Test:
		return "test"
	case Concrete:
		return "concrete"
	case Func:
		return "func"
	}
	return "?"
}

// Site is a branch site of an instrumented package, or a place where
// values may be made concrete (Concrete).
type Site struct {
	ID   uint32
	Kind Kind
	Pos  token.Position // start of the condition
	End  token.Position // end of the condition
	Func string         // enclosing function
	Text string         // the condition's source, shortened
	// Std marks a site of a standard package instrumented in place
	// (-stdlib): counted apart from the target's, and ranked after them
	// by the search.
	Std bool
	// Callee is, for a Concrete site where a call's arguments lose their
	// shadows, the import path of the statically called function's
	// package; "" for other sites and for dynamic calls.
	Callee string
}

// IsBranch reports whether s has two outcomes that executions take.
func (s Site) IsBranch() bool { return s.Kind != Concrete && s.Kind != Func }

// Outcome is one outcome of a branch site, encoded as the workers send
// them (rt.Response.Fresh): the site shifted left by one, or'ed with 1 for
// the true side.
type Outcome uint32

// OutcomeOf returns the outcome taken of site.
func OutcomeOf(site uint32, taken bool) Outcome {
	if taken {
		return Outcome(site<<1 | 1)
	}
	return Outcome(site << 1)
}

// Site returns the outcome's site.
func (o Outcome) Site() uint32 { return uint32(o) >> 1 }

// Taken reports whether o is the true side of its site.
func (o Outcome) Taken() bool { return o&1 == 1 }

// Coverage records which outcomes of which sites executions have taken:
// bit 1 is the false outcome, bit 2 the true one.
type Coverage map[uint32]uint8

// bit returns the bit of an outcome.
func bit(side bool) uint8 {
	if side {
		return 2
	}
	return 1
}

// Has reports whether the outcome side of site has been covered.
func (c Coverage) Has(site uint32, side bool) bool { return c[site]&bit(side) != 0 }

// Add records the outcome side of site and reports whether it is new.
func (c Coverage) Add(site uint32, side bool) bool {
	if c.Has(site, side) {
		return false
	}
	c[site] |= bit(side)
	return true
}

// CondOutcomes returns how many outcomes of the condition sites among
// table exist and how many of them c covers.
func (c Coverage) CondOutcomes(table []Site) (covered, total int) {
	for _, s := range table {
		if s.Kind != Cond || s.Std {
			continue
		}
		total += 2
		b := c[s.ID]
		covered += int(b&1) + int(b>>1&1)
	}
	return covered, total
}
