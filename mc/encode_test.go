package mc

import (
	"context"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/cfa"
	"github.com/gocolic/gocolic/load"
	"github.com/gocolic/gocolic/mc/internal/prog"
	"github.com/gocolic/gocolic/solver"
	"github.com/gocolic/gocolic/solver/z3"
	"github.com/gocolic/gocolic/sym"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// progFuncs loads package prog, builds its graph and returns its
// functions by name.
func progFuncs(t *testing.T) map[string]*ssa.Function {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	pkg, err := load.Load(filepath.Join(filepath.Dir(file), "internal", "prog"), ".")
	if err != nil {
		t.Fatal(err)
	}
	g, err := cfa.Build([]*packages.Package{pkg.Package}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fns := map[string]*ssa.Function{}
	for _, f := range g.Funcs() {
		fns[f.Name()] = f
	}
	return fns
}

func newZ3(t *testing.T) *z3.Solver {
	t.Helper()
	s, err := z3.New(z3.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func status(t *testing.T, s solver.Solver, cs []*sym.Expr, goal *sym.Expr) solver.Status {
	t.Helper()
	r, err := s.Solve(context.Background(), solver.Query{Constraints: cs, Goal: goal})
	if err != nil {
		t.Fatal(err)
	}
	return r.Status
}

// bits returns the bits of an integer or boolean value and its width.
func bits(v reflect.Value) (uint64, uint8) {
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			return 1, 0
		}
		return 0, 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w := uint8(v.Type().Bits())
		return uint64(v.Int()) & sym.Mask(w), w
	}
	w := uint8(v.Type().Bits())
	return v.Uint(), w
}

// run walks fn's SSA form on inputs env: at each If it takes the side
// whose condition holds (sym.Eval), until a return. It returns the path
// and its decisions ("T" or "F" at each If).
func run(t *testing.T, enc *Encoder, env sym.Env) (*Path, string) {
	t.Helper()
	p, err := enc.Start(enc.Fn.Blocks[0])
	if err != nil {
		t.Fatal(err)
	}
	var dec strings.Builder
	for steps := 0; ; steps++ {
		if steps > 10000 {
			t.Fatal("no return after 10000 blocks")
		}
		b := p.last()
		var next *ssa.BasicBlock
		switch b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.Return:
			if err := p.Exit(); err != nil {
				t.Fatal(err)
			}
			return p, dec.String()
		case *ssa.If:
			if sym.Holds(p.Branch(), env) {
				next = b.Succs[0]
				dec.WriteString("T")
			} else {
				next = b.Succs[1]
				dec.WriteString("F")
			}
		case *ssa.Jump:
			next = b.Succs[0]
		default:
			t.Fatalf("block %d ends with %v", b.Index, b.Instrs[len(b.Instrs)-1])
		}
		if err := p.Step(next); err != nil {
			t.Fatal(err)
		}
	}
}

// TestExecutedPathsSat runs each function natively and walks its SSA
// form on the same inputs, then checks with Z3 that the path's formula
// with the inputs fixed is satisfiable, that it forces the results the
// native run returned, and that re-encoding the blocks gives the same
// formula. Decisions, when given, are the If outcomes the run must take,
// worked out by hand from the source.
func TestExecutedPathsSat(t *testing.T) {
	fns := progFuncs(t)
	s := newZ3(t)
	tests := []struct {
		name      string
		native    any
		args      []any
		decisions string
	}{
		{"Wrap", prog.Wrap, []any{int8(27)}, "F"},
		{"Wrap", prog.Wrap, []any{int8(28)}, "T"},  // 28+100 wraps to -128
		{"Wrap", prog.Wrap, []any{int8(127)}, "T"}, // and -128-1 wraps to 127
		{"Wrap", prog.Wrap, []any{int8(-100)}, "F"},
		{"Max127", prog.Max127, []any{int8(127)}, "TF"},
		{"Max127", prog.Max127, []any{int8(126)}, "F"},
		{"Signs", prog.Signs, []any{uint8(200), uint32(7)}, "TFT"},
		{"Signs", prog.Signs, []any{uint8(255), ^uint32(0)}, "TFF"},
		{"Signs", prog.Signs, []any{uint8(127), uint32(0)}, "F"},
		{"Div", prog.Div, []any{int16(-7), int16(2)}, ""},
		{"Div", prog.Div, []any{int16(7), int16(-2)}, ""},
		{"Div", prog.Div, []any{int16(-32768), int16(-1)}, ""}, // the quotient wraps
		{"Div", prog.Div, []any{int16(5), int16(0)}, "T"},
		{"UDiv", prog.UDiv, []any{uint32(1 << 31), uint32(4000)}, "T"},
		{"UDiv", prog.UDiv, []any{^uint32(0), uint32(2)}, "F"},
		{"NoZero", prog.NoZero, []any{9, 5}, "TF"},
		{"Shifts", prog.Shifts, []any{int64(-1000), uint8(3)}, ""},
		{"Shifts", prog.Shifts, []any{int64(-1000), uint8(70)}, ""},
		{"Shifts", prog.Shifts, []any{int64(1 << 40), uint8(7)}, ""},
		{"Shifts", prog.Shifts, []any{int64(123), uint8(255)}, ""},
		{"ShiftOut", prog.ShiftOut, []any{uint8(255), uint(8)}, "TF"},
		{"ShiftOut", prog.ShiftOut, []any{uint8(255), uint(1 << 63)}, "TF"},
		{"Wide", prog.Wide, []any{int8(-5), uint64(256)}, ""},
		{"Wide", prog.Wide, []any{int8(5), uint64(1 << 63)}, ""},
		{"Wide", prog.Wide, []any{int8(-128), uint64(6)}, ""},
		{"NegShift", prog.NegShift, []any{3, 62}, "F"},
		{"Sum", prog.Sum, []any{0}, "F"},
		{"Sum", prog.Sum, []any{4}, "TTTTF"},
		{"Three", prog.Three, nil, "TTTFF"},
		{"Collatz", prog.Collatz, []any{uint16(27)}, ""},
		{"Collatz", prog.Collatz, []any{uint16(65535)}, ""}, // 3x+1 wraps
		{"Collatz", prog.Collatz, []any{uint16(1)}, "F"},
		{"Widen", prog.Widen, []any{int8(-128), uint8(255)}, ""},
		{"Widen", prog.Widen, []any{int8(-1), uint8(0)}, ""},
		{"Bools", prog.Bools, []any{true, true, 4}, ""},
		{"Bools", prog.Bools, []any{true, false, 4}, ""},
		{"Bools", prog.Bools, []any{false, false, -4}, ""},
		{"Range", prog.Range, []any{6}, "TF"},
		{"Clamp", prog.Clamp, []any{int16(-300), uint8(7), uint8(250)}, ""},
		{"Clamp", prog.Clamp, []any{int16(255), uint8(0), uint8(9)}, ""},
		{"Clamp", prog.Clamp, []any{int16(-1), uint8(250), uint8(255)}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fn := fns[tc.name]
			if fn == nil {
				t.Fatalf("no function %s", tc.name)
			}
			b := sym.NewBuilder()
			enc := NewEncoder(b, fn)
			env := sym.Env{}
			var fixed []*sym.Expr
			var in []reflect.Value
			for i, a := range tc.args {
				v := reflect.ValueOf(a)
				in = append(in, v)
				x, w := bits(v)
				env[uint64(i)] = x
				if w == 0 {
					fixed = append(fixed, b.Eq(enc.Param(i), b.Bool(x == 1)))
				} else {
					fixed = append(fixed, b.Eq(enc.Param(i), b.Const(x, w)))
				}
			}
			out := reflect.ValueOf(tc.native).Call(in)

			p, dec := run(t, enc, env)
			if tc.decisions != "" && dec != tc.decisions {
				t.Fatalf("decisions %s, want %s", dec, tc.decisions)
			}
			for i, c := range p.Conds {
				if !sym.Holds(c, env) {
					t.Errorf("condition %d (%v, block %d) is false on the inputs", i, c, p.Blocks[p.At[i]].Index)
				}
			}
			if len(p.Havoc) != 0 {
				t.Fatalf("havoc %v in a function of integers only", p.Havoc)
			}
			same := b.Bool(true)
			for i, r := range p.Results {
				x, w := bits(out[i])
				if r.Width != w {
					t.Fatalf("result %d has width %d, want %d", i, r.Width, w)
				}
				if got := sym.Eval(r, env); got != x {
					t.Errorf("result %d evaluates to %#x, the native run returned %#x", i, got, x)
				}
				same = b.And(same, b.Eq(r, b.Const(x, w)))
			}
			cs := append(p.Conds[:len(p.Conds):len(p.Conds)], fixed...)
			if st := status(t, s, cs, same); st != solver.Sat {
				t.Errorf("path %s with the native results: %s, want sat", dec, st)
			}
			if st := status(t, s, cs, b.Not(same)); st != solver.Unsat {
				t.Errorf("path %s with other results: %s, want unsat", dec, st)
			}
			again, err := enc.Encode(p.Blocks)
			if err != nil {
				t.Fatal(err)
			}
			if again.Formula() != p.Formula() {
				t.Errorf("Encode gives %v, the walk %v", again.Formula(), p.Formula())
			}
		})
	}
}

// follow returns the blocks from fn's entry that take the If outcomes of
// decisions in order, through jumps, up to the next If or return after
// the last decision.
func follow(t *testing.T, fn *ssa.Function, decisions string) []*ssa.BasicBlock {
	t.Helper()
	b := fn.Blocks[0]
	path := []*ssa.BasicBlock{b}
	for {
		switch b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.If:
			if decisions == "" {
				return path
			}
			if decisions[0] == 'T' {
				b = b.Succs[0]
			} else {
				b = b.Succs[1]
			}
			decisions = decisions[1:]
		case *ssa.Jump:
			b = b.Succs[0]
		default:
			if decisions != "" {
				t.Fatalf("%s: decisions %q left at block %d", fn.Name(), decisions, b.Index)
			}
			return path
		}
		path = append(path, b)
	}
}

// TestPathsFeasibility checks paths chosen by their decisions against
// the verdict the source gives: the infeasible ones are unsat because of
// Go's semantics (wraparound, signedness, the panic of a division by zero
// or of a negative shift count, the values a loop's phis carry), and
// their feasible neighbours are sat.
func TestPathsFeasibility(t *testing.T) {
	fns := progFuncs(t)
	s := newZ3(t)
	tests := []struct {
		name, decisions string
		sat             bool
	}{
		{"Range", "TT", false}, // x > 5 and x < 3
		{"Range", "TF", true},
		{"Max127", "TT", false}, // 127+1 wraps to -128
		{"Max127", "TF", true},
		{"Wrap", "T", true},       // x+100 < 0 for x >= 28
		{"Signs", "TT", false},    // int8(u) < 0 means u >= 128
		{"Signs", "TFT", true},    // uint32(int8(u)) sign-extends
		{"Signs", "TFF", true},    // b = 0xffffffff
		{"NoZero", "TT", false},   // y == 0 reaches the division, which panics
		{"NoZero", "TF", true},    // y >= 1
		{"ShiftOut", "TT", false}, // x << n with n >= 8 is 0
		{"ShiftOut", "F", true},
		{"NegShift", "T", false}, // a negative count panics before the test
		{"NegShift", "F", true},
		{"Three", "TTTFT", false}, // s == 3 after three iterations
		{"Three", "TTF", false},   // the loop cannot stop at i == 2
		{"Three", "TTTT", false},  // nor go on at i == 3
		{"Three", "TTTFF", true},
		{"Sum", "TTF", true},
		{"Div", "F", true},
	}
	for _, tc := range tests {
		t.Run(tc.name+"/"+tc.decisions, func(t *testing.T) {
			fn := fns[tc.name]
			enc := NewEncoder(sym.NewBuilder(), fn)
			p, err := enc.Encode(follow(t, fn, tc.decisions))
			if err != nil {
				t.Fatal(err)
			}
			want := solver.Unsat
			if tc.sat {
				want = solver.Sat
			}
			if st := status(t, s, p.Conds, enc.B.Bool(true)); st != want {
				t.Errorf("%s: %s, want %s (conditions %v)", tc.decisions, st, want, p.Conds)
			}
		})
	}
}
