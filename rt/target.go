// This file describes the function under test and builds its symbolic
// inputs.

package rt

import (
	"github.com/gocolic/gocolic/sym"
)

// ParamKind is the shape of a parameter of the function under test.
type ParamKind uint8

// The supported parameter shapes.
const (
	ParamInt    ParamKind = iota + 1 // any integer type: one variable
	ParamBool                        // one boolean variable
	ParamString                      // length variable plus MaxLen byte variables
	ParamBytes                       // as ParamString
	ParamFloat                       // float32 or float64: one variable of its IEEE-754 bits
)

// Param describes one parameter of the function under test.
type Param struct {
	Name   string
	Kind   ParamKind
	Width  uint8 // ParamInt and ParamFloat only
	Signed bool  // ParamInt only
	// Max, when non-zero, bounds an unsigned ParamInt to [0, Max]: the
	// length of a slice or map input, or the choice of a pointer input.
	// Values above it read as Max.
	Max uint64
	// Ref marks the choice of a pointer input: 0 makes a new object, 1
	// makes the pointer nil, and 2+k makes it the pointer input Refs[k]
	// made (an alias). Max is then 1+len(Refs).
	Ref bool
	// Refs are the earlier pointer inputs (lower parameter numbers) of the
	// same pointee type that a Ref choice may alias.
	Refs []int
}

// bits returns the value of a ParamInt or ParamFloat variable as the
// program sees it: its width's bits, clamped to Max when there is one.
func (p Param) bits(v uint64) uint64 {
	v &= sym.Mask(p.Width)
	if p.Max != 0 && v > p.Max {
		v = p.Max
	}
	return v
}

// Entry is the function under test as the generated entry file registers it.
type Entry struct {
	Params []Param
	Sites  int // number of branch sites in the instrumented packages
	// Reset clears the shadows of package-level variables, which would
	// otherwise carry terms of an earlier execution into this one.
	Reset func()
	// Run calls the function with the inputs and returns its results.
	Run func(in *Input) []any
}

// Layout assigns input variables to parameters: Layout(ps, n)[i] is the
// number of the first variable of parameter i, and the last element is the
// total. Integer and boolean parameters take one variable; strings and byte
// slices a 64-bit length variable followed by maxLen 8-bit byte variables.
// The coordinator and the worker both use it, so they agree on numbering.
func Layout(ps []Param, maxLen int) []int {
	offs := make([]int, len(ps)+1)
	n := 0
	for i, p := range ps {
		offs[i] = n
		switch p.Kind {
		case ParamString, ParamBytes:
			n += 1 + maxLen
		default:
			n++
		}
	}
	offs[len(ps)] = n
	return offs
}

// VarWidth returns the width of variable j of parameter p (0 for bool).
func VarWidth(p Param, j int) uint8 {
	switch p.Kind {
	case ParamInt, ParamFloat:
		return p.Width
	case ParamBool:
		return 0
	}
	if j == 0 {
		return 64
	}
	return 8
}

// Input is the concrete assignment of one execution.
type Input struct {
	env    sym.Env
	dense  []uint64 // the values of variables 0, 1, ..., when not nil: env's stand-in in a batch
	offs   []int
	maxLen int
	params []Param
	ptrs   []madePtr // by parameter: the pointer each pointer input made (alias.go)
	ids    *Idents   // identity terms of pointer inputs, made on first use (alias.go)
	// concrete: the execution runs without tracking (Request.Concrete),
	// so the inputs have no shadows, and nothing downstream builds terms.
	concrete bool
}

func (in *Input) base(i int) uint64 { return uint64(in.offs[i]) }

// val returns the value of input variable n: 0 when the input leaves it out.
func (in *Input) val(n uint64) uint64 {
	if in.dense != nil {
		if n < uint64(len(in.dense)) {
			return in.dense[n]
		}
		return 0
	}
	return in.env[n]
}

// inputVar returns the term of input variable n, or nil when the
// execution is concrete.
func (in *Input) inputVar(n uint64, w uint8) *sym.Expr {
	if in.concrete {
		return nil
	}
	return inputVar(n, w)
}

// InputInt returns parameter i as a symbolic integer.
func InputInt[T Integer](in *Input, i int) V[T] {
	w, _ := widthOf[T]()
	n := in.base(i)
	return V[T]{C: T(in.val(n)), S: in.inputVar(n, w)}
}

// InputLen returns parameter i, a bounded length or choice (Param.Max),
// as an int. The solver keeps the variable within its bound (a domain
// constraint), so the shadow is the variable itself.
func InputLen(in *Input, i int) V[int] {
	n := in.base(i)
	return V[int]{C: int(in.params[i].bits(in.val(n))), S: in.inputVar(n, 64)}
}

// InputSlice returns a slice whose length is parameter i (InputLen), with
// that variable as the shadow of its length. Its capacity is at least
// one, so that even an empty slice has a backing array of its own to key
// the shadow by; the caller fills the elements.
func InputSlice[S ~[]T, T any](in *Input, i int) S {
	n := InputLen(in, i)
	s := make(S, n.C, max(n.C, 1))
	if n.S != nil {
		setLen(s, n.S)
	}
	return s
}

// InputBool returns parameter i as a symbolic boolean.
func InputBool[T ~bool](in *Input, i int) V[T] {
	n := in.base(i)
	return V[T]{C: in.val(n)&1 == 1, S: in.inputVar(n, 0)}
}

// inputBytes returns the concrete bytes of a string or byte-slice
// parameter and its aggregate shadow.
func (in *Input) inputBytes(i int) ([]byte, *sym.Expr) {
	n := in.base(i)
	l := int(min(in.val(n), uint64(in.maxLen)))
	buf := make([]byte, l)
	if in.concrete {
		for k := range buf {
			buf[k] = byte(in.val(n + 1 + uint64(k)))
		}
		return buf, nil
	}
	bs := make([]*sym.Expr, in.maxLen)
	for k := range bs {
		v := n + 1 + uint64(k)
		bs[k] = inputVar(v, 8)
		if k < l {
			buf[k] = byte(in.val(v))
		}
	}
	return buf, st.b.String(inputVar(n, 64), bs)
}

// InputString returns parameter i as a symbolic string.
func InputString[T ~string](in *Input, i int) V[T] {
	b, a := in.inputBytes(i)
	return V[T]{C: T(b), S: a}
}

// InputBytes returns parameter i as a symbolic byte slice.
func InputBytes[T ~[]byte](in *Input, i int) V[T] {
	b, a := in.inputBytes(i)
	return V[T]{C: T(b), S: a}
}

// inputVar returns the term of input variable n. The terms are made once
// per worker and survive Builder resets (a node stays valid, and keeps its
// number, after a reset), which spares every execution re-making them.
func inputVar(n uint64, w uint8) *sym.Expr {
	if n < uint64(len(st.vars)) {
		if v := st.vars[n]; v != nil && v.Width == w {
			return v
		}
	} else {
		st.vars = append(st.vars, make([]*sym.Expr, n+1-uint64(len(st.vars)))...)
	}
	v := st.b.Var(n, w)
	st.vars[n] = v
	return v
}

// resets are the Reset functions of the other instrumented packages of a
// build (see AddReset). Package-level because each package's generated
// init adds its own, before the worker serves its first request; only the
// worker's single executing goroutine reads it afterwards.
var resets []func()

// AddReset registers a function that clears the shadows of an
// instrumented package's variables before each execution, for packages
// other than the one that registers the Entry.
func AddReset(f func()) { resets = append(resets, f) }

// resetAll runs the Entry's Reset and every registered one.
func resetAll(t Entry) {
	if t.Reset != nil {
		t.Reset()
	}
	for _, r := range resets {
		r()
	}
}

// Arg is one parameter's value in an input: Bits for integers (their
// width's bits), booleans (0 or 1) and floats (their IEEE-754 bits); Bytes
// for strings and byte slices.
type Arg struct {
	Bits  uint64
	Bytes []byte
}

// DecodeInput reads the parameters' values from an input laid out by
// Layout(ps, maxLen).
func DecodeInput(ps []Param, maxLen int, env sym.Env) []Arg {
	return decodeArgs(ps, maxLen, func(n uint64) uint64 { return env[n] })
}

// DecodeDense is DecodeInput for an input in dense form (DenseInput).
func DecodeDense(ps []Param, maxLen int, dense []uint64) []Arg {
	return decodeArgs(ps, maxLen, func(n uint64) uint64 {
		if n < uint64(len(dense)) {
			return dense[n]
		}
		return 0
	})
}

// decodeArgs reads the parameters' values through val, which returns
// the value of an input variable.
func decodeArgs(ps []Param, maxLen int, val func(uint64) uint64) []Arg {
	offs := Layout(ps, maxLen)
	args := make([]Arg, len(ps))
	for i, p := range ps {
		base := uint64(offs[i])
		switch p.Kind {
		case ParamString, ParamBytes:
			n := int(min(val(base), uint64(maxLen)))
			args[i].Bytes = make([]byte, n)
			for k := range args[i].Bytes {
				args[i].Bytes[k] = byte(val(base + 1 + uint64(k)))
			}
		case ParamBool:
			args[i].Bits = val(base) & 1
		default:
			args[i].Bits = p.bits(val(base))
		}
	}
	return args
}

// EncodeInput lays the parameters' values out as an input, the inverse of
// DecodeInput; strings and byte slices longer than maxLen are cut.
func EncodeInput(ps []Param, maxLen int, args []Arg) sym.Env {
	offs := Layout(ps, maxLen)
	env := sym.Env{}
	for i, p := range ps {
		base := uint64(offs[i])
		switch p.Kind {
		case ParamString, ParamBytes:
			b := args[i].Bytes[:min(len(args[i].Bytes), maxLen)]
			env[base] = uint64(len(b))
			for k, c := range b {
				env[base+1+uint64(k)] = uint64(c)
			}
		case ParamBool:
			env[base] = args[i].Bits & 1
		default:
			env[base] = p.bits(args[i].Bits)
		}
	}
	return env
}

// EncodeDense lays the parameters' values out as an input in dense form:
// DenseInput(EncodeInput(ps, maxLen, args)), without the map.
func EncodeDense(ps []Param, maxLen int, args []Arg) []uint64 {
	offs := Layout(ps, maxLen)
	n := 0
	for i, p := range ps {
		n = offs[i] + 1
		if p.Kind == ParamString || p.Kind == ParamBytes {
			n += min(len(args[i].Bytes), maxLen)
		}
	}
	d := make([]uint64, n)
	for i, p := range ps {
		base := offs[i]
		switch p.Kind {
		case ParamString, ParamBytes:
			b := args[i].Bytes[:min(len(args[i].Bytes), maxLen)]
			d[base] = uint64(len(b))
			for k, c := range b {
				d[base+1+k] = uint64(c)
			}
		case ParamBool:
			d[base] = args[i].Bits & 1
		default:
			d[base] = p.bits(args[i].Bits)
		}
	}
	return d
}
