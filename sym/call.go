// This file implements opaque function terms: calls of functions the
// runtime does not track, kept as terms over their symbolic arguments
// instead of collapsing to the concrete result. No solver interprets them;
// they get a value only by calling the real function, which is linked into
// the target's binary and nowhere else. The concolic walk (package
// solver/walk) searches over them by evaluation.

package sym

import (
	"errors"
	"fmt"
)

// FuncID returns the number that names a function in KCall terms: a hash
// of its qualified name ("math.Sin", "hash/crc32.ChecksumIEEE"). A hash,
// not a counter, so that every instrumented package of one build names a
// function alike without agreeing on a table first.
func FuncID(name string) uint64 {
	// 32-bit FNV-1a, written out: sym must not import hash/fnv, whose
	// closure reaches packages gocolic instruments (build/floor.go).
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h ^= uint32(name[i])
		h *= 16777619
	}
	return uint64(h)
}

// Call returns the opaque call of function fn (a FuncID) on args, with a
// result of width w (0 for a boolean). Calls with at most three arguments
// are shared like other nodes; longer ones, like aggregates, are not.
func (b *Builder) Call(fn uint64, w uint8, args []*Expr) *Expr {
	if w != 0 {
		mustWidth(w)
	}
	for _, a := range args {
		if a == nil {
			panic("sym: nil argument of a call")
		}
	}
	if len(args) <= 3 {
		return b.intern(KCall, w, fn, args...)
	}
	b.next++
	e := &Expr{Kind: KCall, Width: w, Val: fn, Args: append([]*Expr(nil), args...), id: b.next}
	e.max = Mask(w)
	return e
}

func (b *Builder) makeCall(fn uint64, w uint8, args []*Expr) (*Expr, error) {
	switch w {
	case 0, 8, 16, 32, 64:
	default:
		return nil, fmt.Errorf("sym: call of width %d", w)
	}
	if fn > 1<<32-1 {
		return nil, fmt.Errorf("sym: function id %#x out of range", fn)
	}
	return b.Call(fn, w, args), nil
}

// HasCall reports whether an opaque call occurs in any of es.
func HasCall(es ...*Expr) bool { return HasKind(KCall, es...) }

// HasKind reports whether a term of kind k occurs in any of es. It visits
// each shared subterm once.
func HasKind(k Kind, es ...*Expr) bool {
	seen := make(map[*Expr]bool)
	var walk func(e *Expr) bool
	walk = func(e *Expr) bool {
		if e.Kind == k {
			return true
		}
		if seen[e] {
			return false
		}
		seen[e] = true
		for _, a := range e.Args {
			if walk(a) {
				return true
			}
		}
		return false
	}
	for _, e := range es {
		if walk(e) {
			return true
		}
	}
	return false
}

// A CallArg is the value of one argument of an opaque call: the bits of a
// number or boolean, or the bytes of a string or byte slice (Agg).
type CallArg struct {
	Bits  uint64
	Bytes []byte
	Agg   bool
}

// Funcs evaluates opaque calls by calling the functions they name.
type Funcs interface {
	// Call returns the result bits of function fn applied to args. An
	// error means the function has no value there: it is unknown, or it
	// panicked.
	Call(fn uint64, args []CallArg) (uint64, error)
}

// ErrNoFuncs is the error of an opaque call evaluated without Funcs.
var ErrNoFuncs = errors.New("sym: no functions to evaluate an opaque call")

// callError carries a failed call out of the recursive evaluation.
type callError struct{ err error }

func (ev *Evaluator) call(e *Expr) uint64 {
	if ev.Funcs == nil {
		panic(callError{ErrNoFuncs})
	}
	args := make([]CallArg, len(e.Args))
	for i, a := range e.Args {
		if a.Kind == KString {
			args[i] = CallArg{Agg: true, Bytes: ev.bytes(a)}
			continue
		}
		args[i] = CallArg{Bits: ev.eval(a)}
	}
	v, err := ev.Funcs.Call(e.Val, args)
	if err != nil {
		panic(callError{fmt.Errorf("call#%08x: %w", e.Val, err)})
	}
	if e.Width == 0 {
		return v & 1
	}
	return v & Mask(e.Width)
}

// bytes evaluates an aggregate: its length, then that many bytes. A length
// beyond the known bytes is cut to them; the runtime keeps as many byte
// terms as an input can have, so only lengths its domain excludes are cut.
func (ev *Evaluator) bytes(a *Expr) []byte {
	n := ev.eval(a.Args[0])
	known := a.Args[1:]
	if n > uint64(len(known)) {
		n = uint64(len(known))
	}
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(ev.eval(known[i]))
	}
	return out
}
