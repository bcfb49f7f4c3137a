// This file implements the batch mode of the worker, the mutation lane's:
// one request carries many inputs, or the means to make them (a generated
// batch: base inputs, a seed, a count), each runs with symbolic tracking
// off, and the answer names only the inputs that failed or added coverage,
// with how they ended and what they covered.
//
// Coverage is one map per worker: st.cover (outcomes seen) and st.buckets
// (hit-count buckets seen per outcome), which both modes raise. An input's
// novelty is relative to that map. The coordinator keeps the union of all
// workers' maps; it sends a worker, with each batch, the entries other
// workers added since that worker's last batch (Batch.Known), so that
// before the batch runs the worker's map equals the coordinator's and an
// input it reports as new is new to the run unless another worker found
// the same outcome meanwhile, which the coordinator's merge decides.

package rt

import (
	"time"

	"github.com/gocolic/gocolic/sym"
)

// NumBuckets is the number of hit-count buckets of an outcome: an
// execution that takes an outcome 1, 2, 3, 4–7, 8–15, 16–31, 32–127 or
// 128+ times falls in bucket 0 to 7, as in AFL, so that a loop running a
// different number of times counts as new behaviour only when the count
// changes its order of magnitude.
const NumBuckets = 8

// Bucket returns the hit-count bucket of a count of at least 1.
func Bucket(n uint32) uint32 {
	switch {
	case n <= 3:
		return n - 1
	case n < 8:
		return 3
	case n < 16:
		return 4
	case n < 32:
		return 5
	case n < 128:
		return 6
	}
	return 7
}

// BucketEntry names a bucket of an outcome (site<<1 | taken) in one
// uint32, as Batch.Known and BatchResult.Buckets carry them.
func BucketEntry(outcome, bucket uint32) uint32 { return outcome<<3 | bucket }

// SplitBucket is the inverse of BucketEntry.
func SplitBucket(e uint32) (outcome, bucket uint32) { return e >> 3, e & 7 }

// Batch asks a worker to run the target on many inputs without symbolic
// tracking. The inputs are either listed (Inputs) or generated: Count
// mutants of the Bases, made by Mutants from Seed and the first NInts and
// NToks entries of the worker's dictionary, which the batch extends first.
// A generated batch costs the coordinator neither the mutation nor the
// encoding of every input, and the worker answers only for the inputs
// that have something to say.
type Batch struct {
	MaxLen int
	// Inputs are the inputs in dense form (DenseInput): maps cost more to
	// encode, decode and read than the executions of a fast target.
	Inputs [][]uint64
	// Known are bucket entries (BucketEntry) the coordinator's map holds
	// and this worker's may not: the worker adds them, and their outcomes,
	// to its map before running the inputs.
	Known []uint32

	// Count, when not 0, makes the batch a generated one, of Count
	// mutants of Bases (dense inputs), made from Seed.
	Count int
	Bases [][]uint64
	Seed  uint64
	// DictInts and DictToks are entries the worker's dictionary lacks, to
	// be appended to it; NInts and NToks are how many of the dictionary's
	// entries the mutants draw from, the dictionary the coordinator had
	// when it made the batch.
	DictInts     []uint64
	DictToks     [][]byte
	NInts, NToks int
}

// Mutants returns the inputs of a generated batch (Batch.Count) in dense
// form: for each, a mutant (Mutator.MutateArgs) of a base picked at random,
// spliced with another when there are several, all drawn from one
// Mutator seeded with seed and reading the dictionary ints, toks. It is a
// function of its arguments: the worker runs what it returns, and the
// coordinator calls it again for inputs it needs.
func Mutants(ps []Param, maxLen int, bases [][]uint64, count int, seed uint64, ints []uint64, toks [][]byte) [][]uint64 {
	if len(bases) == 0 {
		bases = [][]uint64{nil} // the zero input
	}
	args := make([][]Arg, len(bases))
	for i, b := range bases {
		args[i] = DecodeDense(ps, maxLen, b)
	}
	m := NewMutator(ps, maxLen, seed)
	m.SetDict(ints, toks)
	out := make([][]uint64, count)
	for i := range out {
		base := args[m.r.IntN(len(args))]
		var other []Arg
		if len(args) > 1 {
			other = args[m.r.IntN(len(args))]
		}
		out[i] = EncodeDense(ps, maxLen, m.MutateArgs(base, other))
	}
	return out
}

// DenseInput returns env as the values of variables 0 to its largest.
func DenseInput(env sym.Env) []uint64 {
	n := uint64(0)
	for k := range env {
		n = max(n, k+1)
	}
	d := make([]uint64, n)
	for k, v := range env {
		d[k] = v
	}
	return d
}

// BatchResult reports one input of a batch that has something to say:
// it failed or added coverage.
type BatchResult struct {
	Index  int // the input's place in the batch
	Status Status
	Panic  string // the panic or failure message, when Status is not StatusOK
	Stack  string // the stack of a panic
	// Fresh are the outcomes (site<<1 | taken) this input covered first,
	// Buckets the bucket entries it reached first, both relative to the
	// worker's map before the input ran.
	Fresh   []uint32
	Buckets []uint32
	// Input is the input in dense form, for a generated batch's, whose
	// inputs the coordinator has not seen.
	Input []uint64
}

// reports says whether an input's result goes into the response.
func (r *BatchResult) reports() bool {
	return len(r.Fresh) > 0 || len(r.Buckets) > 0 || r.Status == StatusPanic || r.Status == StatusFail
}

// BatchResponse reports a batch: how many inputs ran and the results of
// those that failed or added coverage, by increasing Index.
type BatchResponse struct {
	Ran     int
	Results []BatchResult
	Nanos   uint64 // time the worker spent on the whole batch, generation included
}

// workerDict is the worker's copy of the mutation lane's dictionary, which
// generated batches extend (Batch.DictInts). Package-level, as st is: one
// worker process serves one lane.
var workerDict struct {
	ints []uint64
	toks [][]byte
}

// serveBatch runs a batch: it takes in the map entries and dictionary
// entries the batch carries, generates its inputs when it is a generated
// one, runs them all with run, which fills one result per input, and
// answers with the results that say something.
func serveBatch(ps []Param, sites int, q *Batch, run func(q *Batch, res []BatchResult)) *BatchResponse {
	start := time.Now()
	learn(sites, q.Known)
	gen := q.Count > 0
	if gen {
		workerDict.ints = append(workerDict.ints, q.DictInts...)
		workerDict.toks = append(workerDict.toks, q.DictToks...)
		// A dictionary shorter than the batch's view cannot come from a
		// coordinator that sent every entry; it is read as far as it goes.
		ni, nt := min(q.NInts, len(workerDict.ints)), min(q.NToks, len(workerDict.toks))
		q.Inputs = Mutants(ps, q.MaxLen, q.Bases, q.Count, q.Seed, workerDict.ints[:ni:ni], workerDict.toks[:nt:nt])
	}
	res := make([]BatchResult, len(q.Inputs))
	run(q, res)
	resp := &BatchResponse{Ran: len(q.Inputs)}
	for i := range res {
		if r := &res[i]; r.reports() {
			r.Index = i
			if gen {
				r.Input = q.Inputs[i]
			}
			resp.Results = append(resp.Results, *r)
		}
	}
	resp.Nanos = uint64(time.Since(start))
	return resp
}

// learn adds bucket entries, and their outcomes, to the worker's map.
func learn(sites int, known []uint32) {
	growCover(sites)
	for _, e := range known {
		o, b := SplitBucket(e)
		if int(o>>1) >= sites {
			continue
		}
		st.cover[o>>1] |= 1 << (o & 1)
		st.buckets[o] |= 1 << b
	}
}

// takeBuckets folds this execution's hit counts into the worker's bucket
// map and appends the entries that were new to dst. It reads the counts
// takeHits clears, so it runs first.
func takeBuckets(dst []uint32) []uint32 {
	for _, o := range st.touched {
		b := Bucket(st.counts[o])
		if st.buckets[o]&(1<<b) == 0 {
			st.buckets[o] |= 1 << b
			dst = append(dst, BucketEntry(o, b))
		}
	}
	return dst
}

// dropHits clears this execution's hit counts without reporting them.
func dropHits() {
	for _, o := range st.touched {
		st.counts[o] = 0
	}
	st.touched = st.touched[:0]
}

// executeBatch runs the target once per input of q, without symbolic
// tracking but counting branch outcomes on the executing goroutine.
func executeBatch(t Entry, q *Batch) *BatchResponse {
	return serveBatch(t.Params, t.Sites, q, func(q *Batch, res []BatchResult) {
		offs := Layout(t.Params, q.MaxLen)
		in := new(Input) // one for the batch: the entry reads it before the target runs
		for i, vals := range q.Inputs {
			*in = Input{dense: vals, offs: offs, maxLen: q.MaxLen, params: t.Params, concrete: true}
			runConcrete(t, in, &res[i])
		}
	})
}

// runConcrete runs the target on one shadowless input and fills res. The
// goroutine claims the state, as for a symbolic run, so that its branches
// are counted; with no shadow anywhere, no term is built.
func runConcrete(t Entry, in *Input, res *BatchResult) {
	claim()
	reset(t.Sites)
	resetAll(t)
	defer func() {
		release()
		if r := recover(); r != nil {
			res.Status = StatusPanic
			res.Panic = panicString(r)
			res.Stack = string(goroutineStack())
		}
		res.Buckets = takeBuckets(nil)
		dropHits()
		if len(st.fresh) > 0 {
			res.Fresh = append([]uint32(nil), st.fresh...)
		}
	}()
	t.Run(in)
}
