// This file implements opaque calls: calls of functions that are not
// instrumented (math.Sin, crc32.ChecksumIEEE, a function of another module)
// with a symbolic argument. The call itself runs as written; with opaque
// terms on, its result is shadowed by a sym.KCall term over the arguments'
// shadows, so the branch that depends on it can still be steered: the
// concolic walk evaluates the term by calling the function again, in an
// evaluator process started from this same binary (EvalMain).

package rt

import (
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"

	"github.com/gocolic/gocolic/sym"
)

// OpaqueEnv is the environment variable that switches opaque terms on in a
// worker ("1"). Without it an opaque call's result is concrete, which is
// the classic simplification of concolic testing (-solver z3).
const OpaqueEnv = "GOCOLIC_OPAQUE"

// opaqueOn is read on the hot path of every opaque call, so it is a plain
// variable read once from the environment at start rather than a lookup
// per call; nothing changes it afterwards.
var opaqueOn = os.Getenv(OpaqueEnv) == "1"

// funcs holds the functions opaque terms may name, by sym.FuncID. The
// generated entry files fill it from their init functions, before any request
// is served; it is only read afterwards.
var funcs = map[uint64]opaqueFunc{}

type opaqueFunc struct {
	name string
	call func(args []sym.CallArg) (uint64, error)
}

// register adds f under name; the same name may be registered by several
// packages of one build.
func register(name string, call func(args []sym.CallArg) (uint64, error)) {
	id := sym.FuncID(name)
	if old, ok := funcs[id]; ok && old.name != name {
		// Two names with one hash: keep neither, so that no term is
		// evaluated with the wrong function. Calls of both stay concrete.
		funcs[id] = opaqueFunc{name: old.name, call: nil}
		return
	}
	funcs[id] = opaqueFunc{name: name, call: call}
}

// Func1 registers a function of one argument for evaluation.
func Func1[A, R any](name string, f func(A) R) {
	register(name, func(args []sym.CallArg) (uint64, error) {
		a, err := fromArg[A](args, 0)
		if err != nil {
			return 0, err
		}
		return protect(func() R { return f(a) })
	})
}

// Func2 registers a function of two arguments for evaluation.
func Func2[A, B, R any](name string, f func(A, B) R) {
	register(name, func(args []sym.CallArg) (uint64, error) {
		a, err1 := fromArg[A](args, 0)
		b, err2 := fromArg[B](args, 1)
		if err := errors.Join(err1, err2); err != nil {
			return 0, err
		}
		return protect(func() R { return f(a, b) })
	})
}

// Func3 registers a function of three arguments for evaluation.
func Func3[A, B, C, R any](name string, f func(A, B, C) R) {
	register(name, func(args []sym.CallArg) (uint64, error) {
		a, err1 := fromArg[A](args, 0)
		b, err2 := fromArg[B](args, 1)
		c, err3 := fromArg[C](args, 2)
		if err := errors.Join(err1, err2, err3); err != nil {
			return 0, err
		}
		return protect(func() R { return f(a, b, c) })
	})
}

// errPanicked is the error of an evaluation whose function panicked: the
// point has no value.
var errPanicked = errors.New("the function panicked")

// protect runs f, turning its result into bits and a panic into an error.
func protect[R any](f func() R) (bits uint64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errPanicked, r)
		}
	}()
	r := f()
	b, ok := bitsOf(reflect.ValueOf(&r).Elem())
	if !ok {
		return 0, fmt.Errorf("result of type %T is not a number or boolean", r)
	}
	return b, nil
}

// fromArg converts argument i to a value of type A.
func fromArg[A any](args []sym.CallArg, i int) (A, error) {
	var a A
	if i >= len(args) {
		return a, fmt.Errorf("missing argument %d", i)
	}
	v := reflect.ValueOf(&a).Elem()
	x := args[i]
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(sym.SignExtend(x.Bits, uint8(v.Type().Bits())))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(x.Bits)
	case reflect.Float32:
		v.SetFloat(float64(math.Float32frombits(uint32(x.Bits))))
	case reflect.Float64:
		v.SetFloat(math.Float64frombits(x.Bits))
	case reflect.Bool:
		v.SetBool(x.Bits&1 == 1)
	case reflect.String:
		v.SetString(string(x.Bytes))
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.Uint8 {
			return a, fmt.Errorf("argument %d of type %T", i, a)
		}
		v.SetBytes(append([]byte(nil), x.Bytes...))
	default:
		return a, fmt.Errorf("argument %d of type %T", i, a)
	}
	return a, nil
}

// bitsOf returns the bits of a number or boolean as a sym term holds them.
func bitsOf(v reflect.Value) (uint64, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return uint64(v.Int()) & sym.Mask(uint8(v.Type().Bits())), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint(), true
	case reflect.Float32:
		return uint64(math.Float32bits(float32(v.Float()))), true
	case reflect.Float64:
		return math.Float64bits(v.Float()), true
	case reflect.Bool:
		if v.Bool() {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// widthOfValue returns the sym width of a number or boolean type.
func widthOfValue(t reflect.Type) (uint8, bool) {
	switch t.Kind() {
	case reflect.Bool:
		return 0, true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return uint8(t.Bits()), true
	}
	return 0, false
}

// argTerm returns the term of an opaque call's argument: its shadow, or a
// constant (an aggregate for strings and byte slices) when it is concrete.
func argTerm[A any](v V[A]) (*sym.Expr, bool) {
	if v.S != nil {
		return v.S, true
	}
	rv := reflect.ValueOf(&v.C).Elem()
	switch {
	case rv.Kind() == reflect.String:
		return aggOf(rv.String()), true
	case rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8:
		return aggOf(string(rv.Bytes())), true
	}
	bits, ok := bitsOf(rv)
	if !ok {
		return nil, false
	}
	w, _ := widthOfValue(rv.Type())
	if w == 0 {
		return st.b.Bool(bits == 1), true
	}
	return st.b.Const(bits, w), true
}

// callTerm makes the KCall term of function fn with result type R over
// args, or nil when fn cannot be evaluated or an argument has no term.
func callTerm[R any](fn uint64, args ...*sym.Expr) *sym.Expr {
	if f, ok := funcs[fn]; !ok || f.call == nil {
		return nil
	}
	w, ok := widthOfValue(reflect.TypeFor[R]())
	if !ok || slices.Contains(args, nil) {
		return nil
	}
	return st.b.Call(fn, w, args)
}

// term0 drops argTerm's flag: a nil term makes callTerm fail.
func term0[A any](v V[A]) *sym.Expr {
	t, _ := argTerm(v)
	return t
}

// Opaque1 calls f(a) and, with opaque terms on, shadows the result with
// the term of function fn (a sym.FuncID) when a is symbolic. A symbolic
// argument whose call gets no term is a concretisation at site
// (CauseOpaque).
func Opaque1[A, R any](site uint32, fn uint64, f func(A) R, a V[A]) V[R] {
	r := V[R]{C: f(a.C)}
	if a.S != nil && tracking() {
		if opaqueOn {
			r.S = callTerm[R](fn, term0(a))
		}
		if r.S == nil {
			concretise(site, CauseOpaque)
		}
	}
	return r
}

// Opaque2 is Opaque1 for functions of two arguments.
func Opaque2[A, B, R any](site uint32, fn uint64, f func(A, B) R, a V[A], b V[B]) V[R] {
	r := V[R]{C: f(a.C, b.C)}
	if (a.S != nil || b.S != nil) && tracking() {
		if opaqueOn {
			r.S = callTerm[R](fn, term0(a), term0(b))
		}
		if r.S == nil {
			concretise(site, CauseOpaque)
		}
	}
	return r
}

// Opaque3 is Opaque1 for functions of three arguments.
func Opaque3[A, B, C, R any](site uint32, fn uint64, f func(A, B, C) R, a V[A], b V[B], c V[C]) V[R] {
	r := V[R]{C: f(a.C, b.C, c.C)}
	if (a.S != nil || b.S != nil || c.S != nil) && tracking() {
		if opaqueOn {
			r.S = callTerm[R](fn, term0(a), term0(b), term0(c))
		}
		if r.S == nil {
			concretise(site, CauseOpaque)
		}
	}
	return r
}

// evalFuncs evaluates opaque calls with the registered functions.
type evalFuncs struct{}

func (evalFuncs) Call(fn uint64, args []sym.CallArg) (uint64, error) {
	f, ok := funcs[fn]
	if !ok || f.call == nil {
		return 0, fmt.Errorf("no function %#x in this binary", fn)
	}
	return f.call(args)
}
