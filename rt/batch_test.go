package rt

import (
	"slices"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// loopInstrumented is, as the instrumenter rewrites it,
//
//	func loop(n uint8) {
//		for i := uint8(0); i < n; i++ {
//			if i == 200 { panic("two hundred") }
//		}
//	}
func loopInstrumented(n V[uint8]) {
	i, sI := uint8(0), (*sym.Expr)(nil)
	for Br(0, Lt(Mk(i, sI), n)) {
		if Br(1, Eq(Mk(i, sI), Mk[uint8](200, nil))) {
			panic("two hundred")
		}
		i, sI = Inc(i, sI)
	}
}

var loopTarget = Entry{
	Params: []Param{{Name: "n", Kind: ParamInt, Width: 8}},
	Sites:  2,
	Run: func(in *Input) []any {
		loopInstrumented(InputInt[uint8](in, 0))
		return nil
	},
}

// outcome is the outcome number of a site's side.
func outcome(site uint32, taken bool) uint32 {
	if taken {
		return site<<1 | 1
	}
	return site << 1
}

// freshWorker gives the test a worker state with an empty coverage map.
func freshWorker(t *testing.T) {
	t.Helper()
	saved := st.cover
	st.cover, st.counts, st.buckets = nil, nil, nil
	st.touched = st.touched[:0] // hit counts an earlier test's execution left behind
	t.Cleanup(func() { st.cover, st.counts, st.buckets = saved, nil, nil })
}

// results returns a response's results by input, the inputs the response
// leaves out (nothing to say) as zero results, and checks the response's
// count of inputs run.
func results(t *testing.T, resp *BatchResponse, n int) []BatchResult {
	t.Helper()
	if resp.Ran != n {
		t.Fatalf("the response says %d inputs ran, want %d", resp.Ran, n)
	}
	out := make([]BatchResult, n)
	last := -1
	for _, r := range resp.Results {
		if r.Index <= last || r.Index >= n {
			t.Fatalf("result of input %d after input %d, in a batch of %d", r.Index, last, n)
		}
		last = r.Index
		out[r.Index] = r
		out[r.Index].Index = 0
	}
	return out
}

// TestBatchNovelty runs inputs of the loop target in one batch and checks
// what each reports as new: outcomes the first time they are taken, and
// hit-count buckets the first time a count falls in them.
func TestBatchNovelty(t *testing.T) {
	freshWorker(t)
	loopT, loopF := outcome(0, true), outcome(0, false)
	eqF := outcome(1, false)
	tests := []struct {
		n           uint64
		wantFresh   []uint32
		wantBuckets []uint32
	}{
		{0, []uint32{loopF}, []uint32{BucketEntry(loopF, 0)}},
		{0, nil, nil},
		{1, []uint32{loopT, eqF}, []uint32{BucketEntry(loopT, 0), BucketEntry(eqF, 0)}},
		{1, nil, nil},
		{2, nil, []uint32{BucketEntry(loopT, 1), BucketEntry(eqF, 1)}},
		{5, nil, []uint32{BucketEntry(loopT, 3), BucketEntry(eqF, 3)}},
		{6, nil, nil}, // 4–7 is one bucket
		{200, nil, []uint32{BucketEntry(loopT, 7), BucketEntry(eqF, 7)}},
	}
	q := &Batch{MaxLen: 4}
	for _, tt := range tests {
		q.Inputs = append(q.Inputs, []uint64{tt.n})
	}
	res := results(t, executeBatch(loopTarget, q), len(tests))
	for i, tt := range tests {
		res := res[i]
		if res.Status != StatusOK {
			t.Errorf("n=%d: status %v %s", tt.n, res.Status, res.Panic)
		}
		slices.Sort(res.Fresh)
		slices.Sort(res.Buckets)
		slices.Sort(tt.wantFresh)
		slices.Sort(tt.wantBuckets)
		if !slices.Equal(res.Fresh, tt.wantFresh) || !slices.Equal(res.Buckets, tt.wantBuckets) {
			t.Errorf("input %d (n=%d): fresh %v buckets %v, want %v %v", i, tt.n, res.Fresh, res.Buckets, tt.wantFresh, tt.wantBuckets)
		}
	}
}

// TestBatchPanicAndRest checks that a panicking input is reported with its
// message and stack, and that the inputs after it still run.
func TestBatchPanicAndRest(t *testing.T) {
	freshWorker(t)
	res := results(t, executeBatch(loopTarget, &Batch{Inputs: [][]uint64{{201}, {0}}}), 2)
	p := res[0]
	if p.Status != StatusPanic || p.Panic != "two hundred" || p.Stack == "" {
		t.Errorf("panicking input: status %v panic %q, stack %d bytes", p.Status, p.Panic, len(p.Stack))
	}
	if got := res[1]; got.Status != StatusOK || !slices.Equal(got.Fresh, []uint32{outcome(0, false)}) {
		t.Errorf("input after the panic: %+v", got)
	}
	if owner.Load() != 0 {
		t.Error("the batch left the state claimed")
	}
}

// TestBatchKnownAndShared checks the one coverage map: entries the
// coordinator sends (Known), and outcomes a symbolic execution covered,
// are not reported again by a batch.
func TestBatchKnownAndShared(t *testing.T) {
	freshWorker(t)
	loopT, loopF, eqF := outcome(0, true), outcome(0, false), outcome(1, false)
	known := []uint32{BucketEntry(loopF, 0), BucketEntry(loopT, 0), BucketEntry(eqF, 0)}
	res := results(t, executeBatch(loopTarget, &Batch{Known: known, Inputs: [][]uint64{{1}}}), 1)
	if r := res[0]; len(r.Fresh) != 0 || len(r.Buckets) != 0 {
		t.Errorf("known coverage reported again: %+v", r)
	}
	// A symbolic execution of n=2 reaches the bucket of two iterations; a
	// batch running n=3 (the next bucket) afterwards still finds that one.
	execute(loopTarget, &Request{Env: map[uint64]uint64{0: 2}}, sym.NewEncoder())
	res = results(t, executeBatch(loopTarget, &Batch{Inputs: [][]uint64{{2}, {3}}}), 2)
	if r := res[0]; len(r.Buckets) != 0 {
		t.Errorf("a bucket the symbolic run reached is reported again: %+v", r)
	}
	if r := res[1]; !slices.Contains(r.Buckets, BucketEntry(loopT, 2)) {
		t.Errorf("n=3 reports buckets %v, want %v among them", r.Buckets, BucketEntry(loopT, 2))
	}
}

// TestBatchTracksNothing checks that batch executions build no terms and
// record no path, where a symbolic execution of the same input does.
func TestBatchTracksNothing(t *testing.T) {
	freshWorker(t)
	env := map[uint64]uint64{0: 3}
	if resp := execute(loopTarget, &Request{Env: env}, sym.NewEncoder()); len(resp.Path) == 0 {
		t.Fatal("the symbolic execution recorded no path; the test checks nothing")
	}
	executeBatch(loopTarget, &Batch{Inputs: [][]uint64{DenseInput(env)}})
	if len(st.path) != 0 {
		t.Errorf("the batch recorded %d branches", len(st.path))
	}
}

// BenchmarkRoundTripSymbolic measures one input of the checksum target as
// the concolic lane runs it: a request encoded and decoded, the symbolic
// execution, the response encoded and decoded (no pipe).
func BenchmarkRoundTripSymbolic(b *testing.B) {
	q := request(16)
	enc := sym.NewEncoder()
	var buf []byte
	for b.Loop() {
		buf = AppendRequest(buf[:0], q)
		pq, err := ParseRequest(buf)
		if err != nil {
			b.Fatal(err)
		}
		buf = AppendResponse(buf[:0], execute(target, pq, enc))
		if _, err := ParseResponse(buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundTripBatch measures one input of the checksum target as the
// mutation lane runs it: batches of 256 inputs encoded and decoded, run
// without tracking, their results encoded and decoded (no pipe); ns/op is
// per input.
func BenchmarkRoundTripBatch(b *testing.B) {
	const n = 256
	q := &Batch{MaxLen: 32}
	for range n {
		q.Inputs = append(q.Inputs, DenseInput(request(16).Env))
	}
	var buf []byte
	for i := 0; b.Loop(); i++ {
		if i%n != 0 {
			continue // one batch stands for n iterations
		}
		buf = AppendBatch(buf[:0], q)
		pq, err := ParseBatch(buf)
		if err != nil {
			b.Fatal(err)
		}
		buf = AppendBatchResponse(buf[:0], executeBatch(target, pq))
		if _, err := ParseBatchResponse(buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundTripGenerated is BenchmarkRoundTripBatch for a generated
// batch: 256 mutants of the input made in the worker (Mutants) and run,
// the batch and its answer (the inputs with new coverage only) encoded
// and decoded; ns/op is per input. The difference to
// BenchmarkRoundTripBatch is the mutation's cost less the encoding's.
func BenchmarkRoundTripGenerated(b *testing.B) {
	const n = 256
	q := &Batch{MaxLen: 32, Count: n, Bases: [][]uint64{DenseInput(request(16).Env)},
		DictInts: []uint64{12345}, DictToks: [][]byte{[]byte("abc")}, NInts: 1, NToks: 1}
	saved := workerDict
	b.Cleanup(func() { workerDict = saved })
	var buf []byte
	for i := 0; b.Loop(); i++ {
		if i%n != 0 {
			continue // one batch stands for n iterations
		}
		q.Seed = uint64(i)
		workerDict.ints, workerDict.toks = nil, nil
		buf = AppendBatch(buf[:0], q)
		pq, err := ParseBatch(buf)
		if err != nil {
			b.Fatal(err)
		}
		buf = AppendBatchResponse(buf[:0], executeBatch(target, pq))
		if _, err := ParseBatchResponse(buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMutants measures the making of one mutant of the checksum
// target's input, as a generated batch makes them (ns/op per mutant).
func BenchmarkMutants(b *testing.B) {
	bases := [][]uint64{DenseInput(request(16).Env)}
	for b.Loop() {
		Mutants(target.Params, 32, bases, 256, 1, []uint64{12345}, [][]byte{[]byte("abc")})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*256), "ns/mutant")
}

// TestBucket checks the AFL-style hit-count buckets: 1, 2, 3, 4-7, 8-15,
// 16-31, 32-127, 128 and more.
func TestBucket(t *testing.T) {
	tests := []struct {
		count uint32
		want  uint32
	}{
		{1, 0}, {2, 1}, {3, 2}, {4, 3}, {7, 3}, {8, 4}, {15, 4},
		{16, 5}, {31, 5}, {32, 6}, {127, 6}, {128, 7}, {1 << 20, 7},
	}
	for _, tt := range tests {
		if got := Bucket(tt.count); got != tt.want {
			t.Errorf("Bucket(%d) = %d, want %d", tt.count, got, tt.want)
		}
	}
}
