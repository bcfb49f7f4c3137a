package rt

import (
	"bytes"
	"hash/crc32"
	"math"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

func TestOpaqueTerms(t *testing.T) {
	own(t)
	Func1("math.Sqrt", math.Sqrt)
	Func2("math.Pow", math.Pow)
	Func1("hash/crc32.ChecksumIEEE", crc32.ChecksumIEEE)
	x := V[float64]{C: 16, S: st.b.Var(0, 64)}
	for _, on := range []bool{false, true} {
		opaqueOn = on
		r := Opaque1(0, sym.FuncID("math.Sqrt"), math.Sqrt, x)
		if r.C != 4 {
			t.Fatalf("concrete result %v", r.C)
		}
		if (r.S != nil) != on {
			t.Fatalf("opaque %v: shadow %v", on, r.S)
		}
		if on && (r.S.Kind != sym.KCall || r.S.Width != 64 || r.S.Args[0] != x.S) {
			t.Fatalf("term %v", r.S)
		}
	}
	defer func() { opaqueOn = false }()
	// A concrete argument becomes a constant; all-concrete calls stay
	// concrete.
	p := Opaque2(0, sym.FuncID("math.Pow"), math.Pow, x, V[float64]{C: 0.5})
	if p.C != 4 || p.S == nil || p.S.Args[1].Kind != sym.KConst || p.S.Args[1].Val != math.Float64bits(0.5) {
		t.Fatalf("pow: %v %v", p.C, p.S)
	}
	if c := Opaque2(0, sym.FuncID("math.Pow"), math.Pow, V[float64]{C: 2}, V[float64]{C: 3}); c.S != nil || c.C != 8 {
		t.Fatalf("concrete pow: %v %v", c.C, c.S)
	}
	// A function that is not registered is never made a term.
	if u := Opaque1(0, sym.FuncID("math.Cbrt"), math.Cbrt, x); u.S != nil {
		t.Fatalf("unregistered function got term %v", u.S)
	}
	// Byte slices become aggregates; evaluating the term gives the
	// function's result.
	data := []byte("abcd")
	agg := aggOf(string(data))
	in := V[[]byte]{C: data, S: st.b.String(st.b.Var(1, 64), agg.Args[1:])}
	c := Opaque1(0, sym.FuncID("hash/crc32.ChecksumIEEE"), crc32.ChecksumIEEE, in)
	if c.S == nil || c.S.Width != 32 {
		t.Fatalf("crc term %v", c.S)
	}
	res := EvalPoints([]*sym.Expr{c.S, p.S}, []sym.Env{{0: math.Float64bits(81), 1: 3}}, evalFuncs{})
	if res[0].Err != "" || res[0].Values[0] != uint64(crc32.ChecksumIEEE([]byte("abc"))) || math.Float64frombits(res[0].Values[1]) != 9 {
		t.Fatalf("evaluated %+v", res)
	}
}

func TestOpaquePanics(t *testing.T) {
	Func1("rt.testDiv", func(x int) int { return 10 / x })
	id := sym.FuncID("rt.testDiv")
	e := st.b.Call(id, 64, []*sym.Expr{st.b.Var(0, 64)})
	res := EvalPoints([]*sym.Expr{e}, []sym.Env{{0: 2}, {0: 0}}, evalFuncs{})
	if res[0].Err != "" || res[0].Values[0] != 5 {
		t.Errorf("10/2: %+v", res[0])
	}
	if res[1].Err == "" || res[1].Values != nil {
		t.Errorf("10/0 has a value: %+v", res[1])
	}
}

func TestEvalWire(t *testing.T) {
	Func1("math.Sqrt", math.Sqrt)
	b := sym.NewBuilder()
	e := b.Call(sym.FuncID("math.Sqrt"), 64, []*sym.Expr{b.Var(7, 64)})
	enc := sym.NewEncoder()
	q := &EvalRequest{Roots: []uint64{enc.Encode(e)}, Points: []sym.Env{{7: math.Float64bits(4)}, {7: math.Float64bits(9)}}}
	q.Exprs = enc.Bytes()
	var in, out bytes.Buffer
	if err := WriteMsg(&in, AppendEvalRequest(nil, q)); err != nil {
		t.Fatal(err)
	}
	if err := serveEval(&in, &out, evalFuncs{}); err != nil {
		t.Fatal(err)
	}
	msg, err := ReadMsg(&out, nil)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := ParseEvalResults(msg)
	if err != nil || len(rs) != 2 || math.Float64frombits(rs[0].Values[0]) != 2 || math.Float64frombits(rs[1].Values[0]) != 3 {
		t.Fatalf("results %+v, %v", rs, err)
	}
}
