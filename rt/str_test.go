package rt

import (
	"fmt"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// TestSliceBytes3 checks b[lo:hi:max] at symbolic bounds over a grid of
// values in and out of range, on a symbolic byte slice without spare
// capacity (max is checked against its length's term) and on a concrete
// one with spare capacity (against the capacity): every recorded bounds
// condition holds at the bounds' values exactly when the run went that
// way, the last one fails exactly when Go's slice expression panics, and
// the result's length term is hi - lo and its bytes the result's.
func TestSliceBytes3(t *testing.T) {
	tests := []struct {
		name string
		b    func() V[[]byte] // called after reset
		env  sym.Env          // the values of b's variables
	}{
		{"symbolic, no spare capacity", func() V[[]byte] { return symBytes(100, "abcdef") },
			sym.Env{100: 6, 101: 'a', 102: 'b', 103: 'c', 104: 'd', 105: 'e', 106: 'f'}},
		{"concrete, spare capacity", func() V[[]byte] {
			b := make([]byte, 4, 9)
			copy(b, "wxyz")
			return V[[]byte]{C: b}
		}, sym.Env{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			checked := 0
			for lo := -1; lo <= 10; lo++ {
				for hi := -1; hi <= 10; hi++ {
					for mx := -1; mx <= 10; mx++ {
						reset(8)
						b := tt.b()
						env := sym.Env{1: uint64(int64(lo)), 2: uint64(int64(hi)), 3: uint64(int64(mx))}
						for k, v := range tt.env {
							env[k] = v
						}
						var r V[[]byte]
						panicked := func() (p bool) {
							defer func() { p = recover() != nil }()
							r = SliceBytes3(1, b, V[int]{C: lo, S: st.b.Var(1, 64)}, V[int]{C: hi, S: st.b.Var(2, 64)}, V[int]{C: mx, S: st.b.Var(3, 64)})
							return false
						}()
						at := func() string { return fmt.Sprintf("b[%d:%d:%d]", lo, hi, mx) }
						for _, e := range st.path {
							v, err := (&sym.Evaluator{Env: env}).Value(e.Cond)
							if err != nil {
								t.Fatal(err)
							}
							if (v != 0) != e.Taken {
								t.Fatalf("%s: condition %v is %d, but the run went %v", at(), e.Cond, v, e.Taken)
							}
						}
						failed := len(st.path) > 0 && !st.path[len(st.path)-1].Taken
						if panicked != failed || !panicked && len(st.path) != 3 {
							t.Fatalf("%s: panicked %v, recorded %d checks, the last failing %v", at(), panicked, len(st.path), failed)
						}
						if panicked {
							continue
						}
						checked++
						if r.S == nil {
							t.Fatalf("%s: the result has no term", at())
						}
						if got := decodeAgg(r.S, env); got != string(r.C) {
							t.Fatalf("%s: the result's aggregate holds %q, want %q", at(), got, r.C)
						}
					}
				}
			}
			if checked == 0 {
				t.Fatal("no bounds in range")
			}
		})
	}
}
