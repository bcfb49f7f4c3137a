package mc

import (
	"testing"

	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/ssa"
)

// TestLenTerms checks the encoder's terms of len: a slice or string
// parameter's length is one variable (Encoder.ParamLen) at every use,
// also in a callee inlined with the parameter as its argument; a
// constant string's is its length; any other slice's is havoc.
func TestLenTerms(t *testing.T) {
	p := loadCalls(t)
	for _, tc := range []struct {
		fn string
		// want, by len call of fn in block order: "p0", "p1" (the
		// parameter's variable), "havoc", or a constant.
		want []any
	}{
		{"at", []any{"p0"}},
		{"Pair", []any{"p0"}},
		{"Tail", []any{"havoc", "p0", "p1"}},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			fn := p.fns[tc.fn]
			enc := NewEncoder(sym.NewBuilder(), fn)
			var got []*sym.Expr
			for _, b := range fn.Blocks {
				path, err := enc.Start(b)
				if err != nil {
					t.Fatal(err)
				}
				path.body()
				for _, in := range b.Instrs {
					if c, ok := in.(*ssa.Call); ok {
						if bi, ok := c.Call.Value.(*ssa.Builtin); ok && bi.Name() == "len" {
							got = append(got, path.Value(c))
						}
					}
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d len calls, want %d", len(got), len(tc.want))
			}
			for i, w := range tc.want {
				g := got[i]
				switch w := w.(type) {
				case string:
					switch w {
					case "p0", "p1":
						k := int(w[1] - '0')
						if g != enc.ParamLen(k) {
							t.Errorf("len call %d: %v, want parameter %d's length %v", i, g, k, enc.ParamLen(k))
						}
					case "havoc":
						if g == nil || g.Kind != sym.KVar || g.Val < HavocBase {
							t.Errorf("len call %d: %v, want havoc", i, g)
						}
					}
				}
			}
		})
	}
	// Inlined: at's guard in Pair speaks of Pair's length variable.
	pair := p.fns["Pair"]
	enc := NewEncoder(sym.NewBuilder(), pair)
	enc.Inline = Inlining{Depth: 1, Allow: func(*ssa.Function) bool { return true }}
	found := false
	for _, b := range pair.Blocks {
		path, err := enc.Start(b)
		if err != nil {
			t.Fatal(err)
		}
		path.body()
		for _, cp := range path.Copies {
			found = true
			uses := false
			for _, v := range sym.Vars(nil, cp.Guard) {
				uses = uses || v == enc.ParamLen(0)
			}
			if !uses && cp.Guard.Kind != sym.KFalse && !cp.Guard.IsConst() {
				t.Errorf("at's guard %v at %v does not use len(in)'s variable", cp.Guard, cp.Call)
			}
		}
	}
	if !found {
		t.Error("no inlined copy of at in Pair")
	}
	// A constant string's length: charAt("four", 4) does not take
	// i < len(s).
	word := p.fns["Word"]
	enc = NewEncoder(sym.NewBuilder(), word)
	enc.Inline = Inlining{Depth: 1, Allow: func(*ssa.Function) bool { return true }}
	path, err := enc.Start(word.Blocks[0])
	if err != nil {
		t.Fatal(err)
	}
	path.body()
	slv := newZ3(t)
	four := enc.B.Eq(enc.Param(0), enc.B.Const(4, enc.Param(0).Width))
	n := 0
	for _, cp := range path.Copies {
		if cp.Succ != 0 {
			continue
		}
		n++
		if st := status(t, slv, []*sym.Expr{four}, cp.Guard); st != solver.Unsat {
			t.Errorf("charAt(\"four\", 4) takes i < len(s): %v", st)
		}
	}
	if n != 1 {
		t.Errorf("%d copies of charAt's i < len(s), want 1", n)
	}
}
