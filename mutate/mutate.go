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
// sequence of inputs is a function of its seed, its dictionary and the
// calls made.
//
// The mutations themselves are rt.Mutator's: the workers run them, on the
// batches the mutation lane generates (rt.Batch.Count), and the runtime
// may not import this package. What only the coordinator needs stays
// here: the dictionary's filling from terms and constants, and inputs as
// sym.Env.
package mutate

import (
	"github.com/gocolic/gocolic/rt"
	"github.com/gocolic/gocolic/sym"
)

// Mutator makes mutants of inputs of one layout. It is not safe for
// concurrent use.
type Mutator struct {
	ps     []rt.Param
	maxLen int
	dict   *Dict
	m      *rt.Mutator
}

// New returns a Mutator of inputs laid out by rt.Layout(ps, maxLen) that
// draws tokens from dict (which may be nil, and may grow between calls)
// and randomness from seed alone.
func New(ps []rt.Param, maxLen int, dict *Dict, seed uint64) *Mutator {
	if dict == nil {
		dict = NewDict(0)
	}
	return &Mutator{ps: ps, maxLen: maxLen, dict: dict, m: rt.NewMutator(ps, maxLen, seed)}
}

// Mutate returns a mutant of in, which it leaves unchanged: a stack of one
// to eight mutations, each of one parameter (rt.Mutator.MutateArgs).
// other, when not nil, is a second kept input that splicing mutations take
// parameters and bytes from.
func (m *Mutator) Mutate(in, other sym.Env) sym.Env {
	var oargs []rt.Arg
	if other != nil {
		oargs = rt.DecodeInput(m.ps, m.maxLen, other)
	}
	m.m.SetDict(m.dict.ints, m.dict.toks)
	args := m.m.MutateArgs(rt.DecodeInput(m.ps, m.maxLen, in), oargs)
	return rt.EncodeInput(m.ps, m.maxLen, args)
}
