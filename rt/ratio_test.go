package rt

import (
	"testing"
	"time"
)

// minPerCall runs each of fs in turn, rounds times, in chunks of n calls,
// and returns the least time per call of each: on a machine shared with
// other work, the fastest chunk is the one nothing interrupted, so that
// two functions measured side by side compare even under load.
func minPerCall(rounds, n int, fs ...func()) []float64 {
	best := make([]float64, len(fs))
	for i := range best {
		best[i] = float64(time.Hour)
	}
	for range rounds {
		for i, f := range fs {
			start := time.Now()
			for range n {
				f()
			}
			best[i] = min(best[i], float64(time.Since(start).Nanoseconds())/float64(n))
		}
	}
	return best
}

var sinkInt int

// BenchmarkConcreteRatio measures BenchmarkNative's and BenchmarkConcrete's
// functions side by side (minPerCall) and reports both and their ratio,
// the cost of instrumentation where no input flows.
func BenchmarkConcreteRatio(b *testing.B) {
	own(b)
	in := []byte("abcdefghijklmnop")
	reset(4)
	for b.Loop() {
		r := minPerCall(200, 2000,
			func() { sinkInt = checksumNative(in, 12345) },
			func() { sinkInt = checksumInstrumented(Mk(in, nil), Mk[uint32](12345, nil)).C })
		b.ReportMetric(r[0], "native-ns")
		b.ReportMetric(r[1], "concrete-ns")
		b.ReportMetric(r[1]/r[0], "ratio")
	}
}

// BenchmarkBatchInput measures the mutation lane's cost per input of the
// checksum target in a worker: executeBatch on batches of 256 inputs,
// without the encoding (BenchmarkRoundTripBatch has it), the least over
// repeated batches (minPerCall).
func BenchmarkBatchInput(b *testing.B) {
	const n = 256
	q := &Batch{MaxLen: 32}
	for range n {
		q.Inputs = append(q.Inputs, DenseInput(request(16).Env))
	}
	for b.Loop() {
		r := minPerCall(30, 4, func() { executeBatch(target, q) })
		b.ReportMetric(r[0]/n, "ns/input")
	}
}
