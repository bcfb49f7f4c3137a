// This file lets a call of an interface method reach the twin of the
// method the dynamic type declares: the instrumented packages register,
// for each method with a twin of each of their non-generic named types,
// an adapter keyed by the dynamic type and the method's name, and a call
// x.M(a) whose signature has tracked parameters or results asks for the
// adapter of whatever x holds. A dynamic type that is not registered (a
// type of a package not instrumented, a method promoted from an embedded
// field, a generic type) is called as it is, through a fallback that
// drops the shadows and counts that.

package rt

import "reflect"

// Any is any under a name that the rewritten code can write without a
// declaration of the target shadowing it: the receivers of the adapters
// and fallbacks of interface method calls have this type.
type Any = any

// methodKey names a method of a dynamic type. name is the method's
// types.Id: the bare name when it is exported, qualified by the package
// path when not, since a type can have two unexported methods of one
// name from two packages (its own and one promoted from an embedded type
// of another package).
type methodKey struct {
	typ  reflect.Type
	name string
}

// methodEntry is a registered adapter.
type methodEntry struct {
	// adapter has the receiver-erased type func(any, <twin params>)
	// (<twin results>) and calls the twin on the receiver asserted to
	// the key's type.
	adapter any
	// nilPanics: the entry is *T's for a method with a value receiver.
	// Go panics when such a method is called through an interface that
	// holds a nil *T, with its own message ("value method ... called
	// using nil pointer"), so such a call takes the fallback, which makes
	// that very call.
	nilPanics bool
}

// methods holds the adapters of the instrumented packages' method twins.
// It is global, not part of the per-execution state, because the
// instrumented packages fill it while they are initialised (on one
// goroutine, before the target runs) and nothing writes it afterwards;
// IMethod only reads it.
var methods = map[methodKey]methodEntry{}

// RegisterMethod records the adapters of the twin of the method name
// (its types.Id) declared on the non-generic named type T: onValue for a
// dynamic type T, nil when the method has a pointer receiver (a T does
// not have it then), and onPtr for a dynamic type *T. Each adapter has
// the type func(any, <twin params>) (<twin results>), which depends only
// on the method's signature, so that a call site, which knows the
// interface but not the dynamic type, can name it. An instrumented
// package calls RegisterMethod in a package-level variable's
// initialiser, once per method with a twin.
func RegisterMethod[T any](name string, onValue, onPtr any) struct{} {
	if onValue != nil {
		methods[methodKey{reflect.TypeFor[T](), name}] = methodEntry{adapter: onValue}
	}
	if onPtr != nil {
		methods[methodKey{reflect.TypeFor[*T](), name}] = methodEntry{adapter: onPtr, nilPanics: onValue != nil}
	}
	return struct{}{}
}

// IMethod returns the function to call for a call x.M(a) of the method
// name (its types.Id) of the interface value x, whose receiver-erased
// twin has type F: the adapter registered for x's dynamic type, when
// this goroutine tracks and the adapter has type F; else fallback, which
// calls the method through the interface with concrete arguments (and
// panics as Go does for a nil x). Neither allocates: adapters and
// fallbacks capture nothing, and the receiver is passed to them as the
// first argument.
func IMethod[F any](x any, name string, fallback F) F {
	if len(methods) == 0 || x == nil || !tracking() {
		return fallback
	}
	e, ok := methods[methodKey{reflect.TypeOf(x), name}]
	if !ok || e.nilPanics && dataWord(x) == nil {
		return fallback
	}
	if f, ok := e.adapter.(F); ok {
		return f
	}
	return fallback
}
