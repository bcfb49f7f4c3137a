// Package mutate holds the mutation lane's dictionary (Dict): the
// integers and byte strings the program compares its inputs against,
// which the concolic lane's traces (AddTerm) and the instrumented source
// (AddConsts) provide, and which the mutators draw from, where the Go
// fuzzer has no comparison feedback. The mutators themselves (bit and
// byte flips, interesting values, arithmetic, byte insertion, deletion
// and duplication, splicing, length changes, float specials) are the
// runtime's (rt.Mutator, rt.Mutants): the workers run them on the batches
// the lane generates, and the runtime may not import this package.
package mutate

import (
	"encoding/binary"
	"math"
	"slices"
	"strconv"

	"github.com/gocolic/gocolic/sym"
)

// Dict is the dictionary of the mutation lane: integers and byte strings
// the program compares its inputs against, taken from the conditions of
// recorded branches (AddTerm) and from the constants of the instrumented
// source (AddConsts). Entries keep the order they were added in, so that
// a Mutator's choices depend on its seed and on nothing else.
type Dict struct {
	ints   []uint64
	toks   [][]byte
	seenI  map[uint64]bool
	seenT  map[string]bool
	max    int // bound on entries of each list
	maxTok int // bound on a token's length
	// walked holds the term nodes AddTerm has walked, across calls: the
	// conditions of a path share most of their nodes (a regular
	// expression's backtracker gave terms whose walk, one condition at a
	// time, took most of the coordinator's time), so each node is walked
	// once a run. Emptied when it passes maxWalked.
	walked map[*sym.Expr]bool
}

// maxWalked bounds Dict.walked.
const maxWalked = 1 << 20

// NewDict returns an empty dictionary holding at most max integers and
// max tokens (a default when max <= 0).
func NewDict(max int) *Dict {
	if max <= 0 {
		max = 4096
	}
	return &Dict{seenI: map[uint64]bool{}, seenT: map[string]bool{}, max: max, maxTok: 64, walked: map[*sym.Expr]bool{}}
}

// Len returns the number of entries, integers and tokens.
func (d *Dict) Len() int { return len(d.ints) + len(d.toks) }

// Ints returns the integer entries in the order they were added.
func (d *Dict) Ints() []uint64 { return d.ints }

// Tokens returns the byte-string entries in the order they were added.
func (d *Dict) Tokens() [][]byte { return d.toks }

// AddInt adds the integer v, the bits of a constant of width w (8 to 64),
// and reports whether it was new. A constant of 16 bits or more is a token
// too, in both byte orders, for inputs that a program decodes from bytes;
// 0 and 1 are left out, since the mutators' interesting values hold them.
func (d *Dict) AddInt(v uint64, w uint8) bool {
	if w == 0 || w > 64 {
		w = 64
	}
	v &= sym.Mask(w)
	if v <= 1 || d.seenI[v] || len(d.ints) >= d.max {
		return false
	}
	d.seenI[v] = true
	d.ints = append(d.ints, v)
	if w >= 16 {
		n := int(w) / 8
		var le, be [8]byte
		binary.LittleEndian.PutUint64(le[:], v)
		binary.BigEndian.PutUint64(be[:], v)
		d.AddBytes(le[:n])
		d.AddBytes(be[8-n:])
	}
	return true
}

// AddBytes adds the token b (copied) and reports whether it was new.
// Empty tokens and tokens longer than 64 bytes are not kept.
func (d *Dict) AddBytes(b []byte) bool {
	if len(b) == 0 || len(b) > d.maxTok || d.seenT[string(b)] || len(d.toks) >= d.max {
		return false
	}
	d.seenT[string(b)] = true
	d.toks = append(d.toks, append([]byte(nil), b...))
	return true
}

// AddConsts adds the constants of a program's source: integers (as their
// 64-bit patterns), strings, and floats (as the bits of a float64 and of
// a float32, and as an integer when integral). The strings also add the
// integers they spell, and the integers their decimal text, since parsers
// compare text with numbers and back.
func (d *Dict) AddConsts(ints []uint64, strs []string, floats []float64) {
	for _, v := range ints {
		d.AddInt(v, 64)
		d.AddBytes([]byte(strconv.FormatInt(int64(v), 10)))
	}
	for _, s := range strs {
		d.AddBytes([]byte(s))
		if n, err := strconv.ParseInt(s, 0, 64); err == nil {
			d.AddInt(uint64(n), 64)
		}
	}
	for _, f := range floats {
		d.addFloat(f)
	}
}

// AddTerm adds the constants that the condition e compares its inputs
// against and returns how many entries were new. Each comparison with a
// constant side gives that constant (and its neighbours, for an order,
// where the branch flips); equalities of consecutive byte variables with
// constants give the byte string they spell (a string compared with a
// literal becomes such a conjunction). A node walked by an earlier call
// is not walked again, but for a comparison with a constant, which is
// read wherever it is met, so that a new conjunction of comparisons seen
// before still spells its string.
func (d *Dict) AddTerm(e *sym.Expr) int {
	before := d.Len()
	if d.walked == nil || len(d.walked) > maxWalked {
		d.walked = map[*sym.Expr]bool{}
	}
	var bytes map[uint64]byte // input variable -> the byte it is compared with
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if e == nil {
			return
		}
		if len(e.Args) == 2 && isCompare(e.Kind) {
			x, y := e.Args[0], e.Args[1]
			if x.Kind == sym.KConst {
				x, y = y, x
			}
			if y.Kind == sym.KConst && x.Kind != sym.KConst {
				d.addCompared(e.Kind, y.Val, y.Width)
				if v := baseVar(x); v != nil && v.Width == 8 && e.Kind == sym.KEq && y.Val <= 0xff {
					if bytes == nil {
						bytes = map[uint64]byte{}
					}
					bytes[v.Val] = byte(y.Val)
				}
				walk(x)
				return
			}
		}
		if d.walked[e] {
			return
		}
		d.walked[e] = true
		for _, a := range e.Args {
			walk(a)
		}
	}
	walk(e)
	d.addRuns(bytes)
	return d.Len() - before
}

// addCompared adds a constant of a comparison of kind k.
func (d *Dict) addCompared(k sym.Kind, v uint64, w uint8) {
	if k.IsFloatCompare() {
		if w == 32 {
			d.AddInt(v, 32)
		} else {
			d.AddInt(v, 64)
		}
		return
	}
	d.AddInt(v, w)
	if k != sym.KEq {
		d.AddInt(v+1, w)
		d.AddInt(v-1, w)
	}
}

// addFloat adds f's bits in both float widths, and f as an integer when it
// is one.
func (d *Dict) addFloat(f float64) {
	d.AddInt(math.Float64bits(f), 64)
	d.AddInt(uint64(math.Float32bits(float32(f))), 32)
	if f == float64(int64(f)) {
		d.AddInt(uint64(int64(f)), 64)
	}
}

// addRuns adds the runs of two or more consecutive variables of bytes as
// tokens, in the order of their first variables.
func (d *Dict) addRuns(bytes map[uint64]byte) {
	if len(bytes) < 2 {
		return
	}
	vars := make([]uint64, 0, len(bytes))
	for v := range bytes {
		vars = append(vars, v)
	}
	slices.Sort(vars)
	start := 0
	for i := 1; i <= len(vars); i++ {
		if i < len(vars) && vars[i] == vars[i-1]+1 {
			continue
		}
		if i-start >= 2 {
			tok := make([]byte, 0, i-start)
			for _, v := range vars[start:i] {
				tok = append(tok, bytes[v])
			}
			d.AddBytes(tok)
		}
		start = i
	}
}

// isCompare reports whether k compares two bit-vectors.
func isCompare(k sym.Kind) bool {
	switch k {
	case sym.KEq, sym.KULt, sym.KULe, sym.KSLt, sym.KSLe:
		return true
	}
	return k.IsFloatCompare()
}

// baseVar returns the input variable x is, or extends or truncates, or nil.
func baseVar(x *sym.Expr) *sym.Expr {
	for x.Kind == sym.KZExt || x.Kind == sym.KSExt || x.Kind == sym.KTrunc {
		x = x.Args[0]
	}
	if x.Kind == sym.KVar {
		return x
	}
	return nil
}

// DictOf returns a dictionary that holds ints and toks, in that order,
// as another's Ints and Tokens gave them: an executor on another
// machine draws a batch's mutants from the coordinator's dictionary so.
func DictOf(ints []uint64, toks [][]byte) *Dict {
	d := NewDict(max(len(ints), len(toks)))
	d.ints, d.toks = ints, toks
	return d
}
