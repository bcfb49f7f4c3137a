// Package mutate is the mutation lane's input generator: it derives new
// inputs from kept ones with the mutations of coverage-guided fuzzers
// (bit and byte flips, interesting values, arithmetic, byte insertion,
// deletion and duplication, splicing two inputs, length changes, float
// specials) and with a dictionary of the constants the program compares
// its inputs against (Dict), which the concolic lane's traces and the
// instrumented source provide.
//
// Inputs are those of the concolic lane: a sym.Env laid out by rt.Layout
// from the entry's []rt.Param. Every input a Mutator returns is within
// that layout's domain (integers within their width and bound, booleans 0
// or 1, strings and byte slices at most MaxLen bytes), and a Mutator's
// sequence of inputs is a function of its seed and of the calls made.
package mutate

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// Mutator makes mutants of inputs of one layout. It is not safe for
// concurrent use.
type Mutator struct {
	ps     []rt.Param
	maxLen int
	dict   *Dict
	r      *rand.Rand
}

// New returns a Mutator of inputs laid out by rt.Layout(ps, maxLen) that
// draws tokens from dict (which may be nil, and may grow between calls)
// and randomness from seed alone.
func New(ps []rt.Param, maxLen int, dict *Dict, seed uint64) *Mutator {
	if dict == nil {
		dict = NewDict(0)
	}
	return &Mutator{ps: ps, maxLen: maxLen, dict: dict, r: rand.New(rand.NewPCG(seed, 0x6d75746174652121))}
}

// Mutate returns a mutant of in, which it leaves unchanged: a stack of one
// to eight mutations, each of one parameter. other, when not nil, is a
// second kept input that splicing mutations take parameters and bytes
// from.
func (m *Mutator) Mutate(in, other sym.Env) sym.Env {
	args := rt.DecodeInput(m.ps, m.maxLen, in)
	var oargs []rt.Arg
	if other != nil {
		oargs = rt.DecodeInput(m.ps, m.maxLen, other)
	}
	if len(m.ps) == 0 {
		return rt.EncodeInput(m.ps, m.maxLen, args)
	}
	for n := 1 << m.r.IntN(4); n > 0; n-- {
		i := m.r.IntN(len(m.ps))
		var o *rt.Arg
		if oargs != nil {
			o = &oargs[i]
		}
		m.apply(m.pick(m.ps[i].Kind), &args[i], m.ps[i], o)
	}
	return rt.EncodeInput(m.ps, m.maxLen, args)
}

// op is one mutation of one parameter's value; other is the same
// parameter of a second input, or nil.
type op struct {
	name  string
	kinds []rt.ParamKind
	fn    func(m *Mutator, a *rt.Arg, p rt.Param, other *rt.Arg)
}

var (
	intKinds   = []rt.ParamKind{rt.ParamInt}
	floatKinds = []rt.ParamKind{rt.ParamFloat}
	bitKinds   = []rt.ParamKind{rt.ParamInt, rt.ParamFloat, rt.ParamBool}
	byteKinds  = []rt.ParamKind{rt.ParamString, rt.ParamBytes}
	allKinds   = []rt.ParamKind{rt.ParamInt, rt.ParamFloat, rt.ParamBool, rt.ParamString, rt.ParamBytes}
)

// ops are the mutations. An op may leave a value as it was (a dictionary
// op with an empty dictionary); the values it makes are brought back into
// the parameter's domain by apply.
var ops = []op{
	{"flip-bit", bitKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		a.Bits ^= 1 << m.r.IntN(max(int(p.Width), 1))
	}},
	{"interesting-int", intKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		a.Bits = m.interesting(p.Width)
	}},
	{"arith-int", intKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		a.Bits += m.delta()
	}},
	{"random-int", intKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		a.Bits = m.r.Uint64()
	}},
	{"dict-int", intKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		if v, ok := m.dictInt(); ok {
			a.Bits = v
		}
	}},
	{"float-special", floatKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		f := floatSpecials[m.r.IntN(len(floatSpecials))]
		a.Bits = sym.FloatBits(f, p.Width)
	}},
	{"float-arith", floatKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		f := sym.FloatValue(a.Bits, p.Width)
		switch m.r.IntN(5) {
		case 0:
			f += float64(int64(m.delta()))
		case 1:
			f *= 2
		case 2:
			f /= 2
		case 3:
			f = -f
		default:
			f = math.Trunc(f)
		}
		a.Bits = sym.FloatBits(f, p.Width)
	}},
	{"dict-float", floatKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		if v, ok := m.dictInt(); ok {
			if m.r.IntN(2) == 0 {
				a.Bits = v // the bits of a float constant
			} else {
				a.Bits = sym.FloatBits(float64(int64(v)), p.Width) // an integer's value
			}
		}
	}},
	{"negate-bool", []rt.ParamKind{rt.ParamBool}, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		a.Bits ^= 1
	}},
	{"splice-param", allKinds, func(m *Mutator, a *rt.Arg, p rt.Param, o *rt.Arg) {
		if o != nil {
			a.Bits, a.Bytes = o.Bits, slices.Clone(o.Bytes)
		}
	}},
	{"flip-byte-bit", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		if i, ok := m.pos(a.Bytes); ok {
			a.Bytes[i] ^= 1 << m.r.IntN(8)
		}
	}},
	{"interesting-byte", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		if i, ok := m.pos(a.Bytes); ok {
			a.Bytes[i] = byte(m.interesting(8))
		}
	}},
	{"arith-byte", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		if i, ok := m.pos(a.Bytes); ok {
			a.Bytes[i] += byte(m.delta())
		}
	}},
	{"random-byte", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		if i, ok := m.pos(a.Bytes); ok {
			a.Bytes[i] = byte(m.r.Uint32())
		}
	}},
	{"interesting-word", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		// A 16-, 32- or 64-bit interesting value over the bytes, either order.
		w := 16 << m.r.IntN(3)
		v := m.interesting(uint8(w))
		m.overwrite(a, wordBytes(v, w/8, m.r.IntN(2) == 0))
	}},
	{"insert-bytes", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		b := make([]byte, 1+m.r.IntN(4))
		if m.r.IntN(2) == 0 {
			for i := range b {
				b[i] = byte(m.r.Uint32())
			}
		} else { // a run of one byte, as in a padded field
			c := byte(m.interesting(8))
			for i := range b {
				b[i] = c
			}
		}
		m.insert(a, b)
	}},
	{"delete-bytes", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		if i, n, ok := m.span(len(a.Bytes)); ok {
			a.Bytes = slices.Delete(a.Bytes, i, i+n)
		}
	}},
	{"duplicate-bytes", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		if i, n, ok := m.span(len(a.Bytes)); ok {
			m.insert(a, slices.Clone(a.Bytes[i:i+n]))
		}
	}},
	{"copy-bytes", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		if i, n, ok := m.span(len(a.Bytes)); ok {
			m.overwrite(a, slices.Clone(a.Bytes[i:i+n]))
		}
	}},
	{"swap-bytes", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		i, ok1 := m.pos(a.Bytes)
		j, ok2 := m.pos(a.Bytes)
		if ok1 && ok2 {
			a.Bytes[i], a.Bytes[j] = a.Bytes[j], a.Bytes[i]
		}
	}},
	{"truncate", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		if len(a.Bytes) > 0 {
			a.Bytes = a.Bytes[:m.r.IntN(len(a.Bytes))]
		}
	}},
	{"extend", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		for n := 1 + m.r.IntN(8); n > 0; n-- {
			a.Bytes = append(a.Bytes, byte(m.r.Uint32()))
		}
	}},
	{"dict-overwrite", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		if t, ok := m.dictToken(); ok {
			m.overwrite(a, t)
		}
	}},
	{"dict-insert", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		if t, ok := m.dictToken(); ok {
			m.insert(a, t)
		}
	}},
	{"dict-number-text", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, _ *rt.Arg) {
		// A compared integer spelled in decimal, for text a program parses.
		if v, ok := m.dictInt(); ok {
			t := []byte(strconv.FormatInt(int64(v), 10))
			if m.r.IntN(2) == 0 {
				m.overwrite(a, t)
			} else {
				m.insert(a, t)
			}
		}
	}},
	{"splice-bytes", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, o *rt.Arg) {
		// A prefix of this input's bytes and a suffix of the other's.
		if o == nil || len(o.Bytes) == 0 {
			return
		}
		i := m.r.IntN(len(a.Bytes) + 1)
		j := m.r.IntN(len(o.Bytes) + 1)
		a.Bytes = append(a.Bytes[:i:i], o.Bytes[j:]...)
	}},
	{"crossover-bytes", byteKinds, func(m *Mutator, a *rt.Arg, p rt.Param, o *rt.Arg) {
		// A chunk of the other input's bytes over or into this one's.
		if o == nil || len(o.Bytes) == 0 {
			return
		}
		i, n, _ := m.span(len(o.Bytes))
		if m.r.IntN(2) == 0 {
			m.overwrite(a, slices.Clone(o.Bytes[i:i+n]))
		} else {
			m.insert(a, slices.Clone(o.Bytes[i:i+n]))
		}
	}},
}

// opsByKind lists, for each parameter kind, the ops that apply to it.
var opsByKind = func() map[rt.ParamKind][]int {
	byKind := map[rt.ParamKind][]int{}
	for i, o := range ops {
		for _, k := range o.kinds {
			byKind[k] = append(byKind[k], i)
		}
	}
	return byKind
}()

// pick returns an op for a parameter of kind k.
func (m *Mutator) pick(k rt.ParamKind) *op {
	cand := opsByKind[k]
	return &ops[cand[m.r.IntN(len(cand))]]
}

// apply runs o on a and brings the result back into p's domain.
func (m *Mutator) apply(o *op, a *rt.Arg, p rt.Param, other *rt.Arg) {
	o.fn(m, a, p, other)
	switch p.Kind {
	case rt.ParamString, rt.ParamBytes:
		if len(a.Bytes) > m.maxLen {
			a.Bytes = a.Bytes[:m.maxLen]
		}
		a.Bits = 0
	case rt.ParamBool:
		a.Bits &= 1
		a.Bytes = nil
	default:
		a.Bits &= sym.Mask(p.Width)
		if p.Max != 0 && a.Bits > p.Max {
			// Spread over [0, Max] rather than pile at Max, which the
			// runtime would read every larger value as.
			a.Bits %= p.Max + 1
		}
		a.Bytes = nil
	}
}

// interesting returns a value that often sits at a boundary of a w-bit
// integer: small numbers, powers of two and their neighbours, the
// extremes of the signed and unsigned ranges.
func (m *Mutator) interesting(w uint8) uint64 {
	if w == 0 {
		w = 64
	}
	top := uint64(1) << (w - 1)
	mask := sym.Mask(w)
	switch m.r.IntN(8) {
	case 0:
		return []uint64{0, 1, 2, 3, 4, 7, 8, 9, 10, 15, 16, 31, 32, 33, 63, 64, 100, 127, 128, 255, 256, 1000, 1024, 4096, 32767, 32768, 65535, 65536}[m.r.IntN(28)] & mask
	case 1:
		return mask // -1, the unsigned maximum
	case 2:
		return top // the signed minimum
	case 3:
		return top - 1 // the signed maximum
	case 4:
		return (top + 1) & mask
	case 5:
		return (mask - uint64(m.r.IntN(16))) & mask // small negatives
	case 6:
		p := uint64(1) << m.r.IntN(int(w))
		return (p + uint64(m.r.IntN(3)) - 1) & mask // 2^k - 1, 2^k, 2^k + 1
	}
	return uint64(m.r.IntN(256))
}

// delta returns a small signed step as a two's-complement uint64.
func (m *Mutator) delta() uint64 {
	d := uint64(1 + m.r.IntN(35))
	if m.r.IntN(2) == 0 {
		return -d
	}
	return d
}

// pos returns a random index of b, and false when b is empty.
func (m *Mutator) pos(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	return m.r.IntN(len(b)), true
}

// span returns a random non-empty range [i, i+n) of a length l, and false
// when l is 0. Short ranges are likelier.
func (m *Mutator) span(l int) (i, n int, ok bool) {
	if l == 0 {
		return 0, 0, false
	}
	n = 1 + m.r.IntN(min(l, 1<<(1+m.r.IntN(5))))
	return m.r.IntN(l - n + 1), n, true
}

// insert puts t at a random position of a's bytes.
func (m *Mutator) insert(a *rt.Arg, t []byte) {
	i := m.r.IntN(len(a.Bytes) + 1)
	a.Bytes = slices.Insert(a.Bytes, i, t...)
}

// overwrite writes t over a's bytes from a random position, lengthening
// them where t runs past the end.
func (m *Mutator) overwrite(a *rt.Arg, t []byte) {
	i := m.r.IntN(len(a.Bytes) + 1)
	for k, c := range t {
		if i+k < len(a.Bytes) {
			a.Bytes[i+k] = c
		} else {
			a.Bytes = append(a.Bytes, c)
		}
	}
}

// dictInt returns a random integer of the dictionary.
func (m *Mutator) dictInt() (uint64, bool) {
	if len(m.dict.ints) == 0 {
		return 0, false
	}
	return m.dict.ints[m.r.IntN(len(m.dict.ints))], true
}

// dictToken returns a random token of the dictionary.
func (m *Mutator) dictToken() ([]byte, bool) {
	if len(m.dict.toks) == 0 {
		return nil, false
	}
	return m.dict.toks[m.r.IntN(len(m.dict.toks))], true
}

// floatSpecials are the float values at which float code tends to branch.
var floatSpecials = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 2, 10, 1e-10, 1e10,
	math.NaN(), math.Inf(1), math.Inf(-1),
	math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
	math.MaxFloat32, math.SmallestNonzeroFloat32,
	math.MaxInt64, math.MinInt64, 1 << 53, 1<<53 + 1,
}

// wordBytes returns the n low bytes of v, little- or big-endian.
func wordBytes(v uint64, n int, little bool) []byte {
	b := make([]byte, n)
	for i := range b {
		sh := 8 * i
		if !little {
			sh = 8 * (n - 1 - i)
		}
		b[i] = byte(v >> sh)
	}
	return b
}
