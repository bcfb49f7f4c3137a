package rt

import (
	"math/rand"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// mapStep is one operation of a random map program: a store of value
// variable val at key variable key, a delete at key, or (input) entry i of
// a map input whose length is variable lenVar.
type mapStep struct {
	del, input bool
	key, val   uint64
}

// runMapSteps runs steps on a plain map with the variables' values in env,
// as the target would at that input, and returns the result of reading
// key variable probe: value, presence, length.
func runMapSteps(steps []mapStep, env sym.Env, probe, lenVar uint64) (int64, bool, int) {
	m := map[int64]int64{}
	for i, s := range steps {
		switch {
		case s.input:
			if int(env[lenVar]) > i {
				m[int64(env[s.key])] = int64(env[s.val])
			}
		case s.del:
			delete(m, int64(env[s.key]))
		default:
			m[int64(env[s.key])] = int64(env[s.val])
		}
	}
	v, ok := m[int64(env[probe])]
	return v, ok, len(m)
}

// TestMapLogExact runs random programs of stores, deletes and input
// entries on a map with the runtime at one input, then checks that the
// terms of a read and of the length give, at other random inputs, what the
// same program computes there: the log is exact whatever keys collide.
func TestMapLogExact(t *testing.T) {
	own(t)
	rng := rand.New(rand.NewSource(1))
	const keys, vals, lenVar = 4, 3, 100
	randEnv := func() sym.Env {
		env := sym.Env{lenVar: uint64(rng.Intn(5))}
		for k := uint64(0); k < keys+vals; k++ {
			env[k] = uint64(rng.Intn(3)) // few values, so keys collide
		}
		return env
	}
	for trial := 0; trial < 300; trial++ {
		input := trial%2 == 0
		var steps []mapStep
		for i := 0; i < 1+rng.Intn(6); i++ {
			s := mapStep{key: uint64(rng.Intn(keys)), val: keys + uint64(rng.Intn(vals)), input: input && i < 4}
			s.del = !s.input && rng.Intn(3) == 0
			steps = append(steps, s)
			if !s.input {
				input = false
			}
		}
		probe := uint64(rng.Intn(keys))
		env := randEnv()
		reset(0)
		variable := func(n uint64) V[int64] { return V[int64]{C: int64(env[n]), S: st.b.Var(n, 64)} }
		m := map[int64]int64{}
		n := V[int]{C: int(env[lenVar]), S: st.b.Var(lenVar, 64)}
		for i, s := range steps {
			switch {
			case s.input:
				MapInput(m, n, i, variable(s.key), variable(s.val))
			case s.del:
				MapDelete(0, m, variable(s.key))
			default:
				MapStore(0, m, variable(s.key), variable(s.val))
			}
		}
		v, ok := mapRead(0, m, variable(probe))
		l := LenMap(0, m)
		if cv, cok, cl := runMapSteps(steps, env, probe, lenVar); v.C != cv || ok.C != cok || l.C != cl {
			t.Fatalf("trial %d: concrete results %v %v %v, Go gives %v %v %v", trial, v.C, ok.C, l.C, cv, cok, cl)
		}
		for k := 0; k < 10; k++ {
			env2 := randEnv()
			wv, wok, wl := runMapSteps(steps, env2, probe, lenVar)
			gv, gok, gl := int64(sym.Eval(v.S, env2)), sym.Holds(ok.S, env2), l.C
			if l.S != nil {
				gl = int(sym.Eval(l.S, env2))
			}
			if gv != wv || gok != wok || gl != wl {
				t.Fatalf("trial %d %+v at %v: terms give %v %v %v, Go gives %v %v %v", trial, steps, env2, gv, gok, gl, wv, wok, wl)
			}
		}
	}
}

// TestMapStringKeys checks a read at a symbolic string key of a map built
// from constants: the value and the presence are case splits on the key.
func TestMapStringKeys(t *testing.T) {
	own(t)
	reset(0)
	m := map[string]int32{"alpha": 1, "beta": 7}
	bs := make([]*sym.Expr, 5)
	for i := range bs {
		bs[i] = st.b.Var(uint64(i+1), 8)
	}
	k := V[string]{C: "gamma", S: st.b.String(st.b.Var(0, 64), bs)}
	v, okc, sv, sok := MapIndexOK(0, m, k)
	if v != 0 || okc {
		t.Fatalf("concrete read gives %v %v", v, okc)
	}
	envOf := func(s string) sym.Env {
		env := sym.Env{0: uint64(len(s))}
		for i := 0; i < len(s); i++ {
			env[uint64(i+1)] = uint64(s[i])
		}
		return env
	}
	tests := []struct {
		key  string
		want int32
		ok   bool
	}{{"alpha", 1, true}, {"beta", 7, true}, {"bet", 0, false}, {"", 0, false}, {"betaa", 0, false}}
	for _, tt := range tests {
		env := envOf(tt.key)
		if got, ok := int32(sym.Eval(sv, env)), sym.Holds(sok, env); got != tt.want || ok != tt.ok {
			t.Errorf("at %q: terms give %v %v, want %v %v", tt.key, got, ok, tt.want, tt.ok)
		}
	}
}

// TestMapStale checks that a write the rewrite did not see drops the log.
func TestMapStale(t *testing.T) {
	own(t)
	reset(0)
	m := map[int64]int64{}
	MapStore(0, m, V[int64]{C: 1, S: st.b.Var(0, 64)}, V[int64]{C: 2, S: st.b.Var(1, 64)})
	if MapIndex(0, m, V[int64]{C: 1}).S == nil {
		t.Fatal("no shadow for a logged entry")
	}
	m[1] = 3
	if s := MapIndex(0, m, V[int64]{C: 1}).S; s != nil {
		t.Errorf("stale log survives an unseen write: %v", s)
	}
}

// TestAppendCopy checks that append and copy carry the elements' cells,
// and that the lengths and the count of copy have exact terms.
func TestAppendCopy(t *testing.T) {
	own(t)
	reset(0)
	x := st.b.Var(0, 32)
	n := V[int]{C: 2, S: st.b.Var(1, 64)}
	s := MakeSlice[[]uint32](n)
	s = Append(0, s, V[uint32]{C: 9, S: x})
	if got := Load(0, &s[2]).S; got != x {
		t.Errorf("appended element has shadow %v, want %v", got, x)
	}
	ls := LenSlice(0, s).S
	u := AppendSlice(0, []uint32{1}, s)
	if got := Load(0, &u[3]).S; got != x {
		t.Errorf("element appended with ... has shadow %v, want %v", got, x)
	}
	dst := make([]uint32, 3)
	c := Copy(0, dst, s)
	if got := Load(0, &dst[2]).S; got != x || c.C != 3 {
		t.Errorf("copy gives %d and element shadow %v, want 3 and %v", c.C, got, x)
	}
	for _, ln := range []uint64{0, 1, 2, 5} {
		env := sym.Env{1: ln}
		if got := sym.Eval(ls, env); got != ln+1 {
			t.Errorf("len term at n=%d gives %d", ln, got)
		}
		if got, want := sym.Eval(c.S, env), min(ln+1, 3); got != want {
			t.Errorf("copy count at n=%d gives %d, want %d", ln, got, want)
		}
	}
	b := AppendBytes(V[[]byte]{C: []byte("ab")}, V[byte]{C: 'c', S: st.b.Var(2, 8)})
	if string(b.C) != "abc" || b.S == nil || aggBytes(b.S)[2] != st.b.Var(2, 8) {
		t.Errorf("AppendBytes gives %q with shadow %v", b.C, b.S)
	}
}
