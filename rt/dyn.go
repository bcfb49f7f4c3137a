// This file lets a call through a function value reach a twin: the
// instrumented packages register the twin of each package-level function
// under the function's code pointer, and a call f(x) of a function value
// whose signature has tracked parameters or results asks for the twin of
// whatever f holds. A value that is not a registered function (a closure,
// a method value, a function of a package not instrumented) is called as
// it is, through an adapter that drops the shadows and counts that.

package rt

import "reflect"

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
// whose twin has type T: f's twin, when f is a registered function and
// this goroutine tracks, else adapt(f), which calls f with concrete
// arguments.
func Dyn[F, T any](f F, adapt func(F) T) T {
	if len(twinsByPC) > 0 && tracking() {
		if tw, ok := twinsByPC[funcPC(f)].(T); ok {
			return tw
		}
	}
	return adapt(f)
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
