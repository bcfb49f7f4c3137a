package explore

import (
	"fmt"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// TestByteCompare checks the set of values byteCompare gives for each
// comparison kind, constant on either side, against evaluation at all 256
// values.
func TestByteCompare(t *testing.T) {
	b := sym.NewBuilder()
	v := b.Var(1, 8)
	var conds []*sym.Expr
	for _, k := range []uint64{0, 1, '0', '9', 127, 128, 200, 255} {
		kc := b.Const(k, 8)
		for _, kind := range []sym.Kind{sym.KEq, sym.KULt, sym.KULe, sym.KSLt, sym.KSLe} {
			conds = append(conds, b.Cmp(kind, v, kc), b.Cmp(kind, kc, v))
		}
	}
	for _, c := range conds {
		if c.IsConst() {
			continue // folded by the Builder
		}
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			term, set := byteCompare(c)
			if term != v {
				t.Fatalf("term %v, want %v", term, v)
			}
			for x := range uint64(256) {
				want := sym.Holds(c, sym.Env{1: x})
				if got := set[x/64]>>(x%64)&1 == 1; got != want {
					t.Errorf("value %d: in set %v, holds %v", x, got, want)
				}
			}
		})
	}
	if term, _ := byteCompare(b.Cmp(sym.KULt, b.Var(2, 16), b.Const(3, 16))); term != nil {
		t.Errorf("16-bit comparison gave term %v", term)
	}
}
