package rt

import (
	"testing"

	"github.com/gocolic/gocolic/sym"
)

type ifShape interface{ area() int64 }

type ifCircle struct{ R int64 }

func (c ifCircle) area() int64 { return c.R }

type ifSquare struct{ Side int64 }

func (s *ifSquare) area() int64 { return s.Side }

type ifUnit struct{}

func (ifUnit) area() int64 { return 0 }

// ifCands are the candidates of the interface inputs of these tests, in
// the order of their choice values; choice 3 is nil.
var ifCands = Types{TypeFor[ifCircle](), TypeFor[*ifSquare](), TypeFor[ifUnit]()}

// ifInput builds an interface input from the choice in parameter i, as a
// entry file does, storing the field from parameter i+1.
func ifInput(in *Input, i int) ifShape {
	switch InputLen(in, i).C {
	case 0:
		var c ifCircle
		Store(InputInt[int64](in, i+1), &c.R)
		return InputIface[ifShape](in, i, ifCands, &c)
	case 1:
		s := new(ifSquare)
		Store(InputInt[int64](in, i+1), &s.Side)
		return InputIface[ifShape](in, i, ifCands, &s)
	case 2:
		var u ifUnit
		return InputIface[ifShape](in, i, ifCands, &u)
	}
	InputIfaceNil(in, i)
	return nil
}

// ifParams are two interface inputs, each a choice and a field.
var ifParams = []Param{
	{Name: "a.type", Kind: ParamInt, Width: 64, Max: 3}, {Name: "a.field", Kind: ParamInt, Width: 64, Signed: true},
	{Name: "b.type", Kind: ParamInt, Width: 64, Max: 3}, {Name: "b.field", Kind: ParamInt, Width: 64, Signed: true},
}

// TestTypeSwitch checks the branches a type switch records: one per case
// type up to the first that matches, each a condition on the choice that
// holds exactly under the choices of the matching candidates. A nil
// interface has no key, so only the nil case is recorded for it, with
// "some interface input is nil" as condition.
func TestTypeSwitch(t *testing.T) {
	tests := []struct {
		name   string
		choice uint64
		sites  []uint32 // the branches recorded, in order
		taken  []bool
	}{
		{"first case", 0, []uint32{1}, []bool{true}},
		{"pointer case", 1, []uint32{1, 2}, []bool{false, true}},
		{"interface case", 2, []uint32{1, 2, 3}, []bool{false, false, true}},
		{"nil case", 3, []uint32{4}, []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(8)
			in := &Input{env: sym.Env{0: tt.choice, 1: 7}, offs: Layout(ifParams, 4), maxLen: 4, params: ifParams}
			x := ifInput(in, 0)
			// case ifCircle: case *ifSquare: case ifShape, interface{ area() int64 }: case nil:
			TypeSwitch(x, CaseOf[ifCircle](1), CaseOf[*ifSquare](2), CaseOf[interface{ area() int64 }](3), CaseNil(4))
			if len(st.path) != len(tt.sites) {
				t.Fatalf("%d branches recorded, want %d: %v", len(st.path), len(tt.sites), st.path)
			}
			// Which choices make each case true, by site: the interface
			// case matches every candidate, the nil case only choice 3.
			matches := map[uint32][]uint64{1: {0}, 2: {1}, 3: {0, 1, 2}, 4: {3}}
			for k, ev := range st.path {
				if ev.Site != tt.sites[k] || ev.Taken != tt.taken[k] {
					t.Errorf("branch %d: site %d taken %v, want site %d taken %v", k, ev.Site, ev.Taken, tt.sites[k], tt.taken[k])
				}
				for c := uint64(0); c <= 3; c++ {
					want := false
					for _, m := range matches[ev.Site] {
						want = want || m == c
					}
					if got := sym.Eval(ev.Cond, sym.Env{0: c}) != 0; got != want {
						t.Errorf("branch %d under choice %d: %v, want %v", k, c, got, want)
					}
				}
			}
		})
	}
}

// TestAssert checks a type assertion's branch, the shadows a bound value
// gets from the box (Unbox) and a value receiver from a method call
// (PassIface and Take), and that values the runtime did not build stay
// concrete.
func TestAssert(t *testing.T) {
	t.Run("assertion and unbox", func(t *testing.T) {
		own(t)
		reset(8)
		in := &Input{env: sym.Env{0: 0, 1: 7}, offs: Layout(ifParams, 4), maxLen: 4, params: ifParams}
		x := ifInput(in, 0)
		c, ok := Assert[ifCircle](5, x).(ifCircle)
		Unbox(&c)
		if !ok || len(st.path) != 1 || !st.path[0].Taken || st.path[0].Site != 5 {
			t.Fatalf("ok %v, path %v: want one taken branch at site 5", ok, st.path)
		}
		if got := sym.Eval(st.path[0].Cond, sym.Env{0: 1}); got != 0 {
			t.Errorf("the assertion holds under choice 1")
		}
		if s := Load(0, &c.R).S; s == nil || sym.Eval(s, sym.Env{1: 42}) != 42 {
			t.Errorf("bound value's field has shadow %v, want the input", s)
		}
		var recv ifCircle
		PassIface(x)
		Take(&recv)
		recv = x.(ifCircle)
		if s := Load(0, &recv.R).S; s == nil {
			t.Errorf("value receiver got no shadow")
		}
	})
	t.Run("values not built from the input", func(t *testing.T) {
		own(t)
		reset(8)
		var x ifShape = ifCircle{R: 3}
		Assert[ifCircle](5, x)
		TypeSwitch(x, CaseOf[*ifSquare](1), CaseOf[ifCircle](2))
		if len(st.path) != 0 {
			t.Errorf("recorded %v for a value not built from the input", st.path)
		}
	})
	t.Run("zero-size values are ambiguous", func(t *testing.T) {
		own(t)
		reset(8)
		in := &Input{env: sym.Env{0: 2, 2: 2}, offs: Layout(ifParams, 4), maxLen: 4, params: ifParams}
		a, b := ifInput(in, 0), ifInput(in, 2)
		Assert[ifUnit](1, a)
		Assert[ifUnit](2, b)
		if len(st.path) != 0 {
			t.Errorf("recorded %v for two inputs with one key", st.path)
		}
	})
}

// TestIfaceIsNil checks comparisons of interface inputs with nil.
func TestIfaceIsNil(t *testing.T) {
	own(t)
	reset(8)
	in := &Input{env: sym.Env{0: 0, 2: 3}, offs: Layout(ifParams, 4), maxLen: 4, params: ifParams}
	a, b := ifInput(in, 0), ifInput(in, 2)
	tests := []struct {
		name string
		v    V[bool]
		want bool
		env  sym.Env // an input under which the shadow must be !want
	}{
		{"object", IfaceIsNil(a), false, sym.Env{0: 3, 2: 3}},
		{"object, !=", IfaceNotNil(a), true, sym.Env{0: 3, 2: 3}},
		{"nil input", IfaceIsNil(b), true, sym.Env{0: 0, 2: 1}},
		{"nil input, !=", IfaceNotNil(b), false, sym.Env{0: 0, 2: 1}},
	}
	for _, tt := range tests {
		if tt.v.C != tt.want || tt.v.S == nil {
			t.Fatalf("%s: %v with shadow %v, want %v with a shadow", tt.name, tt.v.C, tt.v.S, tt.want)
		}
		if got := sym.Eval(tt.v.S, sym.Env{0: 0, 2: 3}); (got != 0) != tt.want {
			t.Errorf("%s: shadow gives %d under the input", tt.name, got)
		}
		if got := sym.Eval(tt.v.S, tt.env); (got != 0) == tt.want {
			t.Errorf("%s: shadow gives %d under %v, want the other outcome", tt.name, got, tt.env)
		}
	}
	var other ifShape = ifCircle{}
	if v := IfaceIsNil(other); v.C || v.S != nil {
		t.Errorf("an interface that is no input: %v %v, want false and no shadow", v.C, v.S)
	}
}
