package rt

import (
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// checksumNative is a small target: a loop over bytes with a running sum
// and a magic comparison, as an example package would have.
func checksumNative(b []byte, key uint32) int {
	var sum uint32
	for _, c := range b {
		sum = sum*31 + uint32(c)
	}
	if sum == key {
		return 1
	}
	if key>>16 == 0xCAFE {
		return 2
	}
	return 0
}

// checksumInstrumented is checksumNative as the instrumenter rewrites it.
func checksumInstrumented(b V[[]byte], key V[uint32]) V[int] {
	own := Owner()
	sum, sSum := uint32(0), (*sym.Expr)(nil)
	if r := b; r.S == nil {
		for it, _, c, sc, i := PlainBytes(r); it.More(i); i++ {
			_, c, sc = it.At(i)
			sum, sSum = Unpack(Add(Mul(Mk(sum, sSum), Mk[uint32](31, nil)), Conv[uint32](Mk(c, sc))))
		}
	} else {
		for it, _, c, sc, i := IterBytes(0, r); it.More(i); i++ {
			_, c, sc = it.At(i)
			sum, sSum = Unpack(Add(Mul(Mk(sum, sSum), Mk[uint32](31, nil)), Conv[uint32](Mk(c, sc))))
		}
	}
	if BrOwn(own, 1, Eq(Mk(sum, sSum), key)) {
		return Mk[int](1, nil)
	}
	if BrOwn(own, 2, Eq(Shr(3, key, Mk[int](16, nil)), Mk[uint32](0xCAFE, nil))) {
		return Mk[int](2, nil)
	}
	return Mk[int](0, nil)
}

var target = Entry{
	Params: []Param{{Name: "b", Kind: ParamBytes}, {Name: "key", Kind: ParamInt, Width: 32}},
	Sites:  4,
	Run: func(in *Input) []any {
		r := checksumInstrumented(InputBytes[[]byte](in, 0), InputInt[uint32](in, 1))
		return []any{r.C}
	},
}

func request(n int) *Request {
	env := map[uint64]uint64{0: uint64(n)}
	for i := 0; i < n; i++ {
		env[uint64(1+i)] = uint64('a' + i)
	}
	env[33] = 12345
	return &Request{Env: env, MaxLen: 32}
}

// TestExecuteRecordsPath checks that one execution of the instrumented
// target reports its symbolic branches and its result.
func TestExecuteRecordsPath(t *testing.T) {
	resp := execute(target, request(3), sym.NewEncoder())
	if resp.Status != StatusOK {
		t.Fatalf("status %v: %s", resp.Status, resp.Panic)
	}
	// 3 loop tests true, 1 false, then sum == key, key>>16 == 0xCAFE.
	if len(resp.Path) != 6 {
		t.Fatalf("path has %d branches, want 6: %+v", len(resp.Path), resp.Path)
	}
	if got := resp.Results[0].Literal; got != "0" {
		t.Errorf("result %s, want 0", got)
	}
	want := checksumNative([]byte("abc"), 12345)
	if resp.Results[0].Literal != "0" || want != 0 {
		t.Errorf("instrumented and native disagree")
	}
	// The condition of "sum == key" evaluates like the program did.
	dec := sym.NewDecoder(sym.NewBuilder())
	if err := dec.Decode(resp.Exprs); err != nil {
		t.Fatal(err)
	}
	c, err := dec.Node(resp.Path[4].Cond)
	if err != nil {
		t.Fatal(err)
	}
	env := sym.Env(request(3).Env)
	if sym.Holds(c, env) != resp.Path[4].Taken {
		t.Errorf("condition %v evaluates to %v, run took %v", c, sym.Holds(c, env), resp.Path[4].Taken)
	}
}

// TestExecuteRecoversPanic checks that a panic is reported, not fatal.
func TestExecuteRecoversPanic(t *testing.T) {
	pt := Entry{Run: func(in *Input) []any { panic("boom") }}
	resp := execute(pt, &Request{Env: map[uint64]uint64{}}, sym.NewEncoder())
	if resp.Status != StatusPanic || resp.Panic != "boom" || resp.Stack == "" {
		t.Errorf("got status %v, panic %q", resp.Status, resp.Panic)
	}
}

func BenchmarkNative(b *testing.B) {
	in := []byte("abcdefghijklmnop")
	for b.Loop() {
		checksumNative(in, 12345)
	}
}

// BenchmarkExecute measures one whole instrumented execution as a worker
// runs it: reset, inputs, the target, the encoded trace.
func BenchmarkExecute(b *testing.B) {
	q := request(16)
	enc := sym.NewEncoder()
	for b.Loop() {
		execute(target, q, enc)
	}
}

// BenchmarkConcrete measures the instrumented target on concrete values:
// the cost of instrumentation where no input flows, next to BenchmarkNative.
func BenchmarkConcrete(b *testing.B) {
	own(b)
	in := []byte("abcdefghijklmnop")
	reset(4)
	for b.Loop() {
		checksumInstrumented(Mk(in, nil), Mk[uint32](12345, nil))
	}
}

// BenchmarkExecuteTraced is BenchmarkExecute with the outcome sequence
// of the model checker's monitors (Request.Trace), for the cost of a
// trace beside an untraced execution.
func BenchmarkExecuteTraced(b *testing.B) {
	q := request(16)
	q.Trace = true
	enc := sym.NewEncoder()
	for b.Loop() {
		execute(target, q, enc)
	}
}
