// This file implements concrete evaluation of expressions. The results are
// Go's (and SMT-LIB's) for every width; division by zero, which panics in
// Go and is guarded by an implicit branch, takes SMT-LIB's total definition
// so that evaluation and Z3 always agree. The float kinds are evaluated in
// float.go, with the results of Go on linux/amd64 on every host.

package sym

import "fmt"

// An Env gives the value of each input variable, as the low bits of a
// uint64 (1 or 0 for booleans). Missing variables are 0.
type Env map[uint64]uint64

// Eval returns the value of e under env: the bits of a bit-vector, or 1/0
// for a boolean. It panics on an opaque call (KCall), which only
// EvalCalls or an Evaluator with Funcs can evaluate.
func Eval(e *Expr, env Env) uint64 {
	ev := Evaluator{Env: env}
	return ev.eval(e)
}

// Holds reports whether the boolean e is true under env.
func Holds(e *Expr, env Env) bool { return Eval(e, env) != 0 }

// An Evaluator evaluates terms at one point, remembering the values of
// shared subterms across calls of Value. Funcs evaluates opaque calls; it
// may be nil when there are none.
type Evaluator struct {
	Env   Env
	Funcs Funcs
	memo  map[*Expr]uint64
}

// Value returns the value of e, or the error of an opaque call in it.
func (ev *Evaluator) Value(e *Expr) (v uint64, err error) {
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(callError)
			if !ok {
				panic(r)
			}
			err = ce.err
		}
	}()
	return ev.eval(e), nil
}

// Values returns the values of terms under env, evaluating shared
// subterms once, or the error of the first opaque call that has no value.
func Values(terms []*Expr, env Env, fs Funcs) ([]uint64, error) {
	ev := Evaluator{Env: env, Funcs: fs}
	vals := make([]uint64, len(terms))
	for i, e := range terms {
		v, err := ev.Value(e)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return vals, nil
}

func (ev *Evaluator) eval(e *Expr) uint64 {
	if v, ok := ev.memo[e]; ok {
		return v
	}
	if ev.memo == nil {
		ev.memo = make(map[*Expr]uint64)
	}
	env := ev.Env
	var v uint64
	arg := func(i int) uint64 { return ev.eval(e.Args[i]) }
	switch {
	case e.Kind == KConst:
		v = e.Val
	case e.Kind == KTrue:
		v = 1
	case e.Kind == KFalse:
		v = 0
	case e.Kind == KVar:
		v = env[e.Val]
		if e.Width == 0 {
			v &= 1
		} else {
			v &= Mask(e.Width)
		}
	case e.Kind.IsBinaryBV():
		v = evalBin(e.Kind, arg(0), arg(1), e.Width)
	case e.Kind == KNeg:
		v = -arg(0) & Mask(e.Width)
	case e.Kind == KCpl:
		v = ^arg(0) & Mask(e.Width)
	case e.Kind == KZExt || e.Kind == KSExt || e.Kind == KTrunc:
		v = evalResize(e.Kind, arg(0), e.Args[0].Width, e.Width)
	case e.Kind == KIte:
		if arg(0) != 0 {
			v = arg(1)
		} else {
			v = arg(2)
		}
	case e.Kind.IsCompare():
		v = b2u(evalCmp(e.Kind, arg(0), arg(1), e.Args[0].Width))
	case e.Kind == KNot:
		v = 1 - arg(0)
	case e.Kind == KLAnd:
		v = arg(0) & arg(1)
	case e.Kind == KLOr:
		v = arg(0) | arg(1)
	case e.Kind.IsFloatArith():
		v = evalFloatBin(e.Kind, arg(0), arg(1), e.Width)
	case e.Kind == KFNeg:
		v = evalFloatNeg(arg(0), e.Width)
	case e.Kind.IsFloatCompare():
		v = b2u(evalFloatCmp(e.Kind, arg(0), arg(1), e.Args[0].Width))
	case e.Kind == KFToS || e.Kind == KFToU:
		v = floatToInt(arg(0), e.Args[0].Width, e.Width, e.Kind == KFToS)
	case e.Kind == KSToF || e.Kind == KUToF:
		v = intToFloat(arg(0), e.Args[0].Width, e.Width, e.Kind == KSToF)
	case e.Kind == KFConv:
		v = floatConv(arg(0), e.Args[0].Width, e.Width)
	case e.Kind == KCall:
		v = ev.call(e)
	default:
		panic(fmt.Sprintf("sym: cannot evaluate %s", e.Kind))
	}
	ev.memo[e] = v
	return v
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// evalBin computes a binary bit-vector operation on the low w bits of x, y.
func evalBin(k Kind, x, y uint64, w uint8) uint64 {
	m := Mask(w)
	x, y = x&m, y&m
	sx, sy := SignExtend(x, w), SignExtend(y, w)
	var r uint64
	switch k {
	case KAdd:
		r = x + y
	case KSub:
		r = x - y
	case KMul:
		r = x * y
	case KUDiv:
		if y == 0 {
			r = m
		} else {
			r = x / y
		}
	case KURem:
		if y == 0 {
			r = x
		} else {
			r = x % y
		}
	case KSDiv:
		switch {
		case y == 0 && sx < 0:
			r = 1
		case y == 0:
			r = m
		case sy == -1:
			r = uint64(-sx) // wraps for the minimum, as Go does
		default:
			r = uint64(sx / sy)
		}
	case KSRem:
		switch {
		case y == 0:
			r = x
		case sy == -1:
			r = 0
		default:
			r = uint64(sx % sy)
		}
	case KAnd:
		r = x & y
	case KOr:
		r = x | y
	case KXor:
		r = x ^ y
	case KShl:
		if y >= uint64(w) {
			r = 0
		} else {
			r = x << y
		}
	case KLShr:
		if y >= uint64(w) {
			r = 0
		} else {
			r = x >> y
		}
	case KAShr:
		if y >= uint64(w) {
			y = uint64(w - 1)
		}
		r = uint64(sx >> y)
	default:
		panic("sym: evalBin of " + k.String())
	}
	return r & m
}

func evalResize(k Kind, x uint64, from, to uint8) uint64 {
	x &= Mask(from)
	switch k {
	case KSExt:
		return uint64(SignExtend(x, from)) & Mask(to)
	default: // zero extension keeps the bits; truncation masks them
		return x & Mask(to)
	}
}

func evalCmp(k Kind, x, y uint64, w uint8) bool {
	if w == 0 {
		return x == y
	}
	m := Mask(w)
	x, y = x&m, y&m
	switch k {
	case KEq:
		return x == y
	case KULt:
		return x < y
	case KULe:
		return x <= y
	case KSLt:
		return SignExtend(x, w) < SignExtend(y, w)
	case KSLe:
		return SignExtend(x, w) <= SignExtend(y, w)
	}
	panic("sym: evalCmp of " + k.String())
}

// Vars appends to dst the input variables that occur in the expressions,
// each once, in order of first occurrence.
func Vars(dst []*Expr, es ...*Expr) []*Expr {
	seen := make(map[*Expr]bool)
	var walk func(e *Expr)
	walk = func(e *Expr) {
		if seen[e] {
			return
		}
		seen[e] = true
		if e.Kind == KVar {
			dst = append(dst, e)
			return
		}
		for _, a := range e.Args {
			walk(a)
		}
	}
	for _, e := range es {
		walk(e)
	}
	return dst
}
