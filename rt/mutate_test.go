package rt

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// mutLayouts are the parameter lists the mutator tests use: every kind,
// integer widths, bounded lengths and choices, and string bounds from
// none to several bytes.
var mutLayouts = []struct {
	name   string
	ps     []Param
	maxLen int
}{
	{"ints", []Param{
		{Name: "i8", Kind: ParamInt, Width: 8, Signed: true},
		{Name: "u16", Kind: ParamInt, Width: 16},
		{Name: "i32", Kind: ParamInt, Width: 32, Signed: true},
		{Name: "u64", Kind: ParamInt, Width: 64},
	}, 4},
	{"bounded", []Param{
		{Name: "len", Kind: ParamInt, Width: 64, Max: 5},
		{Name: "ref", Kind: ParamInt, Width: 64, Max: 2, Ref: true},
	}, 4},
	{"floats-bools", []Param{
		{Name: "f32", Kind: ParamFloat, Width: 32},
		{Name: "f64", Kind: ParamFloat, Width: 64},
		{Name: "b", Kind: ParamBool},
	}, 4},
	{"strings", []Param{{Name: "s", Kind: ParamString}, {Name: "b", Kind: ParamBytes}}, 8},
	{"one-byte", []Param{{Name: "s", Kind: ParamString}}, 1},
	{"no-bytes", []Param{{Name: "s", Kind: ParamBytes}, {Name: "n", Kind: ParamInt, Width: 8}}, 0},
	{"mixed", []Param{
		{Name: "s", Kind: ParamString},
		{Name: "n", Kind: ParamInt, Width: 32, Signed: true},
		{Name: "f", Kind: ParamFloat, Width: 64},
		{Name: "ok", Kind: ParamBool},
	}, 16},
}

// argInDomain returns why a, the value apply left, is outside p's domain,
// or "": the mutants are in the domain before EncodeInput cuts or clamps
// anything.
func argInDomain(p Param, maxLen int, a Arg) string {
	switch p.Kind {
	case ParamString, ParamBytes:
		if len(a.Bytes) > maxLen {
			return fmt.Sprintf("%s: %d bytes > MaxLen %d", p.Name, len(a.Bytes), maxLen)
		}
	case ParamBool:
		if a.Bits > 1 {
			return fmt.Sprintf("%s: boolean %d", p.Name, a.Bits)
		}
	default:
		if a.Bits&^sym.Mask(p.Width) != 0 || p.Max != 0 && a.Bits > p.Max {
			return fmt.Sprintf("%s: %#x outside %d bits, bound %d", p.Name, a.Bits, p.Width, p.Max)
		}
	}
	return ""
}

// randomArgs returns an input of the layout with random values in its
// domain.
func randomArgs(r *rand.Rand, ps []Param, maxLen int) []Arg {
	args := make([]Arg, len(ps))
	for i, p := range ps {
		switch p.Kind {
		case ParamString, ParamBytes:
			args[i].Bytes = make([]byte, r.IntN(maxLen+1))
			for k := range args[i].Bytes {
				args[i].Bytes[k] = byte(r.Uint32())
			}
		case ParamBool:
			args[i].Bits = r.Uint64() & 1
		default:
			args[i].Bits = r.Uint64() & sym.Mask(p.Width)
			if p.Max != 0 {
				args[i].Bits %= p.Max + 1
			}
		}
	}
	return args
}

// TestMutatorOpsStayInDomain runs every op, and MutateArgs, many times on
// random inputs of every layout and checks that each result is in the
// layout's domain, that each op changes some input of a kind it applies
// to, and that MutateArgs leaves its inputs as they were.
func TestMutatorOpsStayInDomain(t *testing.T) {
	for _, l := range mutLayouts {
		t.Run(l.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			m := NewMutator(l.ps, l.maxLen, 7)
			m.SetDict([]uint64{0xCAFE}, [][]byte{[]byte("magic")})
			changed := map[string]bool{}
			applies := map[string]bool{}
			for range 300 {
				in, other := randomArgs(r, l.ps, l.maxLen), randomArgs(r, l.ps, l.maxLen)
				for _, o := range mutOps {
					for i, p := range l.ps {
						if !slices.Contains(o.kinds, p.Kind) {
							continue
						}
						applies[o.name] = true
						args := DecodeDense(l.ps, l.maxLen, EncodeDense(l.ps, l.maxLen, in))
						oargs := DecodeDense(l.ps, l.maxLen, EncodeDense(l.ps, l.maxLen, other))
						m.apply(&o, &args[i], p, &oargs[i])
						if why := argInDomain(p, l.maxLen, args[i]); why != "" {
							t.Fatalf("op %s on %v: %s", o.name, in, why)
						}
						if !reflect.DeepEqual(args, in) {
							changed[o.name] = true
						}
					}
				}
				inCopy := DecodeDense(l.ps, l.maxLen, EncodeDense(l.ps, l.maxLen, in))
				out := m.MutateArgs(in, other)
				for i, p := range l.ps {
					if why := argInDomain(p, l.maxLen, out[i]); why != "" {
						t.Fatalf("MutateArgs(%v): %s", in, why)
					}
				}
				if !reflect.DeepEqual(in, inCopy) {
					t.Fatalf("MutateArgs changed its input: %v -> %v", inCopy, in)
				}
			}
			for name := range applies {
				// Byte ops that move bytes about need two bytes to change anything.
				if !changed[name] && l.maxLen > 1 {
					t.Errorf("op %s never changed an input", name)
				}
			}
		})
	}
}

// TestEncodeDense checks that EncodeDense and DecodeDense agree with
// EncodeInput, DenseInput and DecodeInput on random inputs.
func TestEncodeDense(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, l := range mutLayouts {
		for range 100 {
			args := randomArgs(r, l.ps, l.maxLen)
			d := EncodeDense(l.ps, l.maxLen, args)
			if want := DenseInput(EncodeInput(l.ps, l.maxLen, args)); !slices.Equal(d, want) {
				t.Fatalf("%s: EncodeDense(%v) = %v, want %v", l.name, args, d, want)
			}
			if got, want := DecodeDense(l.ps, l.maxLen, d), DecodeInput(l.ps, l.maxLen, EncodeInput(l.ps, l.maxLen, args)); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: DecodeDense = %v, want %v", l.name, got, want)
			}
		}
	}
}

// TestMutantsFunctionOfArguments checks that a generated batch's inputs
// depend on its bases, seed, count and dictionary and on nothing else: the
// same arguments give the same inputs, a longer count extends them, and
// another seed or dictionary changes them.
func TestMutantsFunctionOfArguments(t *testing.T) {
	ps := []Param{{Name: "s", Kind: ParamString}, {Name: "n", Kind: ParamInt, Width: 32}}
	bases := [][]uint64{EncodeDense(ps, 8, []Arg{{Bytes: []byte("abc")}, {Bits: 7}}), nil}
	ints, toks := []uint64{0xBEEF}, [][]byte{[]byte("KEY")}
	a := Mutants(ps, 8, bases, 64, 5, ints, toks)
	tests := []struct {
		name string
		got  [][]uint64
		same bool
	}{
		{"same arguments", Mutants(ps, 8, bases, 64, 5, ints, toks), true},
		{"longer count, first part", Mutants(ps, 8, bases, 100, 5, ints, toks)[:64], true},
		{"other seed", Mutants(ps, 8, bases, 64, 6, ints, toks), false},
		{"other dictionary", Mutants(ps, 8, bases, 64, 5, []uint64{0xF00D}, [][]byte{[]byte("XY")}), false},
		{"other bases", Mutants(ps, 8, bases[:1], 64, 5, ints, toks), false},
	}
	for _, tt := range tests {
		if got := denseEqual(tt.got, a); got != tt.same {
			t.Errorf("%s: equal %v, want %v", tt.name, got, tt.same)
		}
	}
}

// TestGeneratedBatch runs a generated batch in the worker, through the
// wire, and checks that it runs Count inputs, reports exactly those that
// failed or covered something new, each with its place and the input that
// Mutants makes there (the coordinator's regeneration), that a panicking
// input in the middle is found with its input, and that the dictionary
// entries the batch carries reach the worker's dictionary.
func TestGeneratedBatch(t *testing.T) {
	freshWorker(t)
	savedDict := workerDict
	t.Cleanup(func() { workerDict = savedDict })
	workerDict.ints, workerDict.toks = nil, nil
	// The dictionary holds 200, the loop's panicking bound: some mutant
	// hits it.
	q := &Batch{MaxLen: 4, Count: 256, Bases: [][]uint64{{3}, {190}}, Seed: 42,
		DictInts: []uint64{200}, DictToks: [][]byte{[]byte("x")}, NInts: 1, NToks: 1}
	pq, err := ParseBatch(AppendBatch(nil, q))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ParseBatchResponse(AppendBatchResponse(nil, executeBatch(loopTarget, pq)))
	if err != nil {
		t.Fatal(err)
	}
	want := Mutants(loopTarget.Params, 4, q.Bases, q.Count, q.Seed, q.DictInts, q.DictToks)
	res := results(t, resp, q.Count)
	panics := 0
	for i, r := range res {
		if r.Status == StatusOK && len(r.Fresh) == 0 && len(r.Buckets) == 0 {
			if r.Input != nil {
				t.Errorf("input %d: reported with nothing to say", i)
			}
			continue
		}
		if !slices.Equal(r.Input, want[i]) {
			t.Errorf("input %d: the worker ran %v, Mutants makes %v", i, r.Input, want[i])
		}
		if r.Status == StatusPanic {
			panics++
			if DecodeDense(loopTarget.Params, 4, r.Input)[0].Bits <= 200 || r.Panic != "two hundred" {
				t.Errorf("input %d: panic %q on %v", i, r.Panic, r.Input)
			}
		}
	}
	if panics == 0 || panics == q.Count || len(resp.Results) == q.Count {
		t.Errorf("%d panics, %d results of %d inputs: want a few of each", panics, len(resp.Results), q.Count)
	}
	if !slices.Equal(workerDict.ints, q.DictInts) || len(workerDict.toks) != 1 {
		t.Errorf("the worker's dictionary is %v %q, want %v %q", workerDict.ints, workerDict.toks, q.DictInts, q.DictToks)
	}
}
