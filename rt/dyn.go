// This file lets a call through a function value reach a twin: the
// instrumented packages register the twin of each package-level function
// under the function's code pointer, and a call f(x) of a function value
// whose signature has tracked parameters or results asks for the twin of
// whatever f holds. A value that is not a registered function (a closure,
// a method value, a function of a package not instrumented) is called as
// it is, through an adapter that drops the shadows and counts that.

package rt

import (
	"reflect"
	"sync/atomic"
	"unsafe"
)

// twinsByPC maps the code pointer of a package-level function to its
// twin. It is global, not part of the per-execution state, because the
// instrumented packages fill it while they are initialised (on one
// goroutine, before the target runs) and nothing writes it afterwards.
var twinsByPC = map[uintptr]any{}

// RegisterTwin records twin as the twin of the package-level function f.
// An instrumented package calls it in a package-level variable's
// initialiser, once per function with a twin.
func RegisterTwin[F, T any](f F, twin T) struct{} {
	if pc := funcPC(f); pc != 0 {
		twinsByPC[pc] = twin
	}
	return struct{}{}
}

// Dyn returns the function to call for a call of the function value f
// whose twin has type T: f's twin, when f is a registered function or a
// function literal made by Closure in this execution and this goroutine
// tracks, else adapt(f), which calls f with concrete arguments.
func Dyn[F, T any](f F, adapt func(F) T) T {
	if !tracking() {
		return adapt(f)
	}
	if len(twinsByPC) > 0 {
		if tw, ok := twinsByPC[funcPC(f)].(T); ok {
			return tw
		}
	}
	if closuresUsed.Load() {
		if c, ok := st.closures[closureOf(f)]; ok {
			if tw, ok := c.twin.(T); ok {
				return tw
			}
		}
	}
	return adapt(f)
}

// closure is the twin of one function value made from a literal, and the
// value itself, which the entry keeps alive so that its address names it
// until the execution ends.
type closure struct {
	f, twin any
}

// closuresUsed is set once the execution has registered a closure, and
// cleared by reset: like memUsed, it keeps goroutines that do not own the
// state off st.closures.
var closuresUsed atomic.Bool

// Closure returns wrap(twin), the value of a function literal with
// tracked parameters or results (a wrapper of the original type that
// calls twin with concrete values), and, when the goroutine tracks,
// registers twin under the wrapper's closure object, so that a call of
// the value in instrumented code (strings.IndexFunc's f(r)) reaches the
// twin through Dyn. Why the closure object rather than the code pointer,
// as for package-level functions: a literal's code is shared by all its
// instances, whose captured variables differ, and so do their twins'. The
// wrapper captures twin, so it is a closure object of its own; kept in
// st.closures, it escapes to the heap and its address is not reused
// within the execution.
func Closure[F, T any](twin T, wrap func(T) F) F {
	f := wrap(twin)
	if tracking() {
		if p := closureOf(f); p != 0 {
			st.closures[p] = closure{f: f, twin: twin}
			if !closuresUsed.Load() {
				closuresUsed.Store(true)
			}
		}
	}
	return f
}

// closureOf returns the address of the closure object of the function
// value f (its one word), 0 for nil.
func closureOf[F any](f F) uintptr {
	if unsafe.Sizeof(f) != unsafe.Sizeof(uintptr(0)) {
		return 0 // not a function value
	}
	return *(*uintptr)(unsafe.Pointer(&f))
}

// funcPC returns the code pointer of the function value f, 0 for nil. It
// tells package-level functions apart; a closure's is its literal's code,
// shared by all its instances, and a method value's is a shared stub,
// neither of which a package-level function's can be.
func funcPC[F any](f F) uintptr {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.IsNil() {
		return 0
	}
	return v.Pointer()
}
