// This file implements the mutators of the mutation lane (issue 16). They
// live in the runtime because the workers run them: a generated batch
// (Batch.Count) names base inputs and a seed, and the worker makes the
// mutants itself, so that the coordinator neither mutates nor encodes
// every input. The coordinator regenerates the same sequence with the
// same code (Mutants) when it needs the inputs, to bisect a batch that
// killed its worker. Package mutate fills the dictionary they draw from.
//
// Every mutant is within the domain of its layout (integers within their
// width and bound, booleans 0 or 1, strings and byte slices at most maxLen
// bytes), and a Mutator's sequence is a function of its seed, its
// dictionary and the calls made: the random numbers come from mutRand, a
// generator of the runtime's own, since math/rand/v2 is above the floor.

package rt

import (
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/gocolic/gocolic/sym"
)

// mutRand is SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state that
// steps by an odd constant, each step's output a bijective mix of the
// state. Its sequence is fixed by the seed alone, on every platform and Go
// release, which math/rand/v2 does not promise and the coordinator's
// regeneration of a worker's mutants needs.
type mutRand struct{ s uint64 }

// Uint64 returns the next 64 random bits.
func (r *mutRand) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Uint32 returns the next 32 random bits.
func (r *mutRand) Uint32() uint32 { return uint32(r.Uint64() >> 32) }

// IntN returns a number in [0, n), n > 0, by Lemire's multiply-shift: the
// high word of a 64×64-bit product, biased by at most n/2^64, which a
// fuzzer's choices do not notice.
func (r *mutRand) IntN(n int) int {
	hi, _ := bits.Mul64(r.Uint64(), uint64(n))
	return int(hi)
}

// Mutator makes mutants of inputs of one layout (Layout(ps, maxLen)). It
// is not safe for concurrent use.
type Mutator struct {
	ps     []Param
	maxLen int
	ints   []uint64 // the dictionary's integers
	toks   [][]byte // the dictionary's byte strings
	r      mutRand
}

// NewMutator returns a Mutator of inputs laid out by Layout(ps, maxLen)
// that draws randomness from seed alone and has an empty dictionary.
func NewMutator(ps []Param, maxLen int, seed uint64) *Mutator {
	return &Mutator{ps: ps, maxLen: maxLen, r: mutRand{s: seed}}
}

// SetDict sets the dictionary the mutations draw constants from: integers
// (the bits of compared constants) and byte strings. The Mutator reads
// them, never writes them, so they may be a growing dictionary's lists.
func (m *Mutator) SetDict(ints []uint64, toks [][]byte) { m.ints, m.toks = ints, toks }

// MutateArgs returns a mutant of in, which it leaves unchanged: a stack of
// one to eight mutations, each of one parameter. other, when not nil, is a
// second input that splicing mutations take parameters and bytes from.
func (m *Mutator) MutateArgs(in, other []Arg) []Arg {
	args := make([]Arg, len(in))
	for i, a := range in {
		args[i] = Arg{Bits: a.Bits, Bytes: slices.Clone(a.Bytes)}
	}
	if len(m.ps) == 0 {
		return args
	}
	for n := 1 << m.r.IntN(4); n > 0; n-- {
		i := m.r.IntN(len(m.ps))
		var o *Arg
		if other != nil {
			o = &other[i]
		}
		m.apply(m.pick(m.ps[i].Kind), &args[i], m.ps[i], o)
	}
	return args
}

// mutOp is one mutation of one parameter's value; other is the same
// parameter of a second input, or nil.
type mutOp struct {
	name  string
	kinds []ParamKind
	fn    func(m *Mutator, a *Arg, p Param, other *Arg)
}

var (
	mutIntKinds   = []ParamKind{ParamInt}
	mutFloatKinds = []ParamKind{ParamFloat}
	mutBitKinds   = []ParamKind{ParamInt, ParamFloat, ParamBool}
	mutByteKinds  = []ParamKind{ParamString, ParamBytes}
	mutAllKinds   = []ParamKind{ParamInt, ParamFloat, ParamBool, ParamString, ParamBytes}
)

// mutOps are the mutations. A mutOp may leave a value as it was (a dictionary
// op with an empty dictionary); the values it makes are brought back into
// the parameter's domain by apply.
var mutOps = []mutOp{
	{"flip-bit", mutBitKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		a.Bits ^= 1 << m.r.IntN(max(int(p.Width), 1))
	}},
	{"interesting-int", mutIntKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		a.Bits = m.interesting(p.Width)
	}},
	{"arith-int", mutIntKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		a.Bits += m.delta()
	}},
	{"random-int", mutIntKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		a.Bits = m.r.Uint64()
	}},
	{"dict-int", mutIntKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		if v, ok := m.dictInt(); ok {
			a.Bits = v
		}
	}},
	{"float-special", mutFloatKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		f := mutFloatSpecials[m.r.IntN(len(mutFloatSpecials))]
		a.Bits = sym.FloatBits(f, p.Width)
	}},
	{"float-arith", mutFloatKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
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
	{"dict-float", mutFloatKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		if v, ok := m.dictInt(); ok {
			if m.r.IntN(2) == 0 {
				a.Bits = v // the bits of a float constant
			} else {
				a.Bits = sym.FloatBits(float64(int64(v)), p.Width) // an integer's value
			}
		}
	}},
	{"negate-bool", []ParamKind{ParamBool}, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		a.Bits ^= 1
	}},
	{"splice-param", mutAllKinds, func(m *Mutator, a *Arg, p Param, o *Arg) {
		if o != nil {
			a.Bits, a.Bytes = o.Bits, slices.Clone(o.Bytes)
		}
	}},
	{"flip-byte-bit", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		if i, ok := m.pos(a.Bytes); ok {
			a.Bytes[i] ^= 1 << m.r.IntN(8)
		}
	}},
	{"interesting-byte", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		if i, ok := m.pos(a.Bytes); ok {
			a.Bytes[i] = byte(m.interesting(8))
		}
	}},
	{"arith-byte", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		if i, ok := m.pos(a.Bytes); ok {
			a.Bytes[i] += byte(m.delta())
		}
	}},
	{"random-byte", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		if i, ok := m.pos(a.Bytes); ok {
			a.Bytes[i] = byte(m.r.Uint32())
		}
	}},
	{"interesting-word", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		// A 16-, 32- or 64-bit interesting value over the bytes, either order.
		w := 16 << m.r.IntN(3)
		v := m.interesting(uint8(w))
		m.overwrite(a, mutWordBytes(v, w/8, m.r.IntN(2) == 0))
	}},
	{"insert-bytes", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
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
	{"delete-bytes", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		if i, n, ok := m.span(len(a.Bytes)); ok {
			a.Bytes = slices.Delete(a.Bytes, i, i+n)
		}
	}},
	{"duplicate-bytes", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		if i, n, ok := m.span(len(a.Bytes)); ok {
			m.insert(a, slices.Clone(a.Bytes[i:i+n]))
		}
	}},
	{"copy-bytes", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		if i, n, ok := m.span(len(a.Bytes)); ok {
			m.overwrite(a, slices.Clone(a.Bytes[i:i+n]))
		}
	}},
	{"swap-bytes", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		i, ok1 := m.pos(a.Bytes)
		j, ok2 := m.pos(a.Bytes)
		if ok1 && ok2 {
			a.Bytes[i], a.Bytes[j] = a.Bytes[j], a.Bytes[i]
		}
	}},
	{"truncate", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		if len(a.Bytes) > 0 {
			a.Bytes = a.Bytes[:m.r.IntN(len(a.Bytes))]
		}
	}},
	{"extend", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		for n := 1 + m.r.IntN(8); n > 0; n-- {
			a.Bytes = append(a.Bytes, byte(m.r.Uint32()))
		}
	}},
	{"dict-overwrite", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		if t, ok := m.dictToken(); ok {
			m.overwrite(a, t)
		}
	}},
	{"dict-insert", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
		if t, ok := m.dictToken(); ok {
			m.insert(a, t)
		}
	}},
	{"dict-number-text", mutByteKinds, func(m *Mutator, a *Arg, p Param, _ *Arg) {
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
	{"splice-bytes", mutByteKinds, func(m *Mutator, a *Arg, p Param, o *Arg) {
		// A prefix of this input's bytes and a suffix of the other's.
		if o == nil || len(o.Bytes) == 0 {
			return
		}
		i := m.r.IntN(len(a.Bytes) + 1)
		j := m.r.IntN(len(o.Bytes) + 1)
		a.Bytes = append(a.Bytes[:i:i], o.Bytes[j:]...)
	}},
	{"crossover-bytes", mutByteKinds, func(m *Mutator, a *Arg, p Param, o *Arg) {
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

// mutOpsByKind lists, for each parameter kind, the mutOps that apply to it.
var mutOpsByKind = func() map[ParamKind][]int {
	byKind := map[ParamKind][]int{}
	for i, o := range mutOps {
		for _, k := range o.kinds {
			byKind[k] = append(byKind[k], i)
		}
	}
	return byKind
}()

// pick returns a mutOp for a parameter of kind k.
func (m *Mutator) pick(k ParamKind) *mutOp {
	cand := mutOpsByKind[k]
	return &mutOps[cand[m.r.IntN(len(cand))]]
}

// apply runs o on a and brings the result back into p's domain.
func (m *Mutator) apply(o *mutOp, a *Arg, p Param, other *Arg) {
	o.fn(m, a, p, other)
	switch p.Kind {
	case ParamString, ParamBytes:
		if len(a.Bytes) > m.maxLen {
			a.Bytes = a.Bytes[:m.maxLen]
		}
		a.Bits = 0
	case ParamBool:
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
func (m *Mutator) insert(a *Arg, t []byte) {
	i := m.r.IntN(len(a.Bytes) + 1)
	a.Bytes = slices.Insert(a.Bytes, i, t...)
}

// overwrite writes t over a's bytes from a random position, lengthening
// them where t runs past the end.
func (m *Mutator) overwrite(a *Arg, t []byte) {
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
	if len(m.ints) == 0 {
		return 0, false
	}
	return m.ints[m.r.IntN(len(m.ints))], true
}

// dictToken returns a random token of the dictionary.
func (m *Mutator) dictToken() ([]byte, bool) {
	if len(m.toks) == 0 {
		return nil, false
	}
	return m.toks[m.r.IntN(len(m.toks))], true
}

// mutFloatSpecials are the float values at which float code tends to branch.
var mutFloatSpecials = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 2, 10, 1e-10, 1e10,
	math.NaN(), math.Inf(1), math.Inf(-1),
	math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
	math.MaxFloat32, math.SmallestNonzeroFloat32,
	math.MaxInt64, math.MinInt64, 1 << 53, 1<<53 + 1,
}

// mutWordBytes returns the n low bytes of v, little- or big-endian.
func mutWordBytes(v uint64, n int, little bool) []byte {
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
