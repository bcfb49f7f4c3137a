package rt

import (
	"os/exec"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/gocolic/gocolic/sym"
)

// symInput returns a symbolic string of value c with maxLen byte
// variables (length variable 9, bytes from 10) and the environment that
// gives the variables c's value.
func symInput(c string, maxLen int) (V[string], sym.Env) {
	env := sym.Env{9: uint64(len(c))}
	bs := make([]*sym.Expr, maxLen)
	for i := range bs {
		bs[i] = st.b.Var(uint64(10+i), 8)
		if i < len(c) {
			env[uint64(10+i)] = uint64(c[i])
		}
	}
	return V[string]{C: c, S: st.b.String(st.b.Var(9, 64), bs)}, env
}

// TestIterString checks that a range loop over a symbolic string yields
// what the range loop yields and rune terms that evaluate to the runes,
// and that every recorded branch holds on the input as it went; the UTF-8
// tests are made one after the other up to the first that holds.
func TestIterString(t *testing.T) {
	own(t)
	tests := []struct {
		s     string
		tests int // UTF-8 sequence tests recorded
	}{
		{"abc", 0},
		{"é", 1},                         // valid at two bytes
		{"日本", 4},                        // valid at three bytes, twice
		{"😀", 3},                         // valid at four bytes
		{"\xff", 3},                      // invalid: every test fails
		{"\xed\xa0\x80", 9},              // a surrogate: three invalid bytes
		{"\xe6\x97", 6},                  // a truncated sequence
		{"a\xf0\x9f\x98\x80\xc2", 3 + 3}, // four bytes, then a lone lead byte at the end
	}
	for _, tt := range tests {
		reset(16)
		takeConcrete(nil)
		v, env := symInput(tt.s, 8)
		var keys []int
		var runes []rune
		for it, i, r, sr := IterString(0, 1, 2, v); it.Next(); {
			i, r, sr = it.At()
			keys = append(keys, i)
			runes = append(runes, r)
			if sr != nil {
				if got := rune(sym.Eval(sr, env)); got != r {
					t.Errorf("%q at %d: rune term evaluates to %q, want %q", tt.s, i, got, r)
				}
			} else if r != utf8.RuneError {
				t.Errorf("%q at %d: rune %q has no term", tt.s, i, r)
			}
		}
		var wantKeys []int
		var wantRunes []rune
		for i, r := range tt.s {
			wantKeys, wantRunes = append(wantKeys, i), append(wantRunes, r)
		}
		if !slices.Equal(keys, wantKeys) || !slices.Equal(runes, wantRunes) {
			t.Errorf("%q: keys %v runes %q, want %v %q", tt.s, keys, runes, wantKeys, wantRunes)
		}
		seq := 0
		for _, e := range st.path {
			if (sym.Eval(e.Cond, env) != 0) != e.Taken {
				t.Errorf("%q: branch at site %d recorded as %v, but its condition says otherwise", tt.s, e.Site, e.Taken)
			}
			if e.Site == 2 {
				seq++
			}
		}
		if seq != tt.tests {
			t.Errorf("%q: %d UTF-8 sequence tests, want %d", tt.s, seq, tt.tests)
		}
		if c := takeConcrete(nil); len(c) != 0 {
			t.Errorf("%q: concretisations %+v, want none", tt.s, c)
		}
	}
}

// TestIterBytesChanged checks that an element the loop body changes
// before the loop reaches it loses the aggregate's term (CauseStale),
// while the others keep theirs.
func TestIterBytesChanged(t *testing.T) {
	own(t)
	reset(4)
	takeConcrete(nil)
	s, _ := symInput("abc", 3)
	b := V[[]byte]{C: []byte(s.C), S: s.S}
	var shadows []*sym.Expr
	for it, i, c, sc, k := IterBytes(0, b); it.More(k); k++ {
		i, c, sc = it.At(k)
		shadows = append(shadows, sc)
		if i == 0 {
			b.C[2] = c // a write the aggregate does not see
		}
	}
	if shadows[0] == nil || shadows[1] == nil || shadows[2] != nil {
		t.Errorf("shadows %v, want terms for the first two bytes only", shadows)
	}
	got := takeConcrete(nil)
	if len(got) != 1 || got[0].Cause != CauseStale {
		t.Errorf("concretisations %+v, want one stale", got)
	}
}

// TestIterInt checks the loop condition of a range over a symbolic
// integer, signed and unsigned, including a negative count.
func TestIterInt(t *testing.T) {
	own(t)
	for _, n := range []int64{-2, 0, 3} {
		reset(4)
		x := V[int8]{C: int8(n), S: st.b.Var(0, 8)}
		var got []int8
		for it, i := IterInt(0, x); it.Next(); {
			i = it.Key()
			got = append(got, i)
		}
		if want := max(n, 0); len(got) != int(want) {
			t.Errorf("range %d: %d iterations, want %d", n, len(got), want)
		}
		if len(st.path) != len(got)+1 {
			t.Errorf("range %d: %d branches, want %d", n, len(st.path), len(got)+1)
		}
		for _, e := range st.path {
			if (sym.Eval(e.Cond, sym.Env{0: uint64(uint8(n))}) != 0) != e.Taken {
				t.Errorf("range %d: loop condition recorded as %v disagrees with its term", n, e.Taken)
			}
		}
	}
}

// TestRuntimeBuildsAtGo121 checks that the runtime, which is compiled in
// the user's module at its language version (go1.21 at least: older
// modules' files are given go1.21), uses nothing newer.
func TestRuntimeBuildsAtGo121(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	out, err := exec.Command("go", "build", "-gcflags=github.com/gocolic/gocolic/...=-lang=go1.21", ".", "../sym").CombinedOutput()
	if err != nil {
		t.Fatalf("the runtime does not build at go1.21: %v\n%s", err, out)
	}
}

// TestCopyBytes checks that copy into a byte-slice variable, or a slice
// of it, puts the source's byte terms at the destination's offset, and
// that a byte slice made with a symbolic length has that length's term.
func TestCopyBytes(t *testing.T) {
	tests := []struct {
		name    string
		x       string // the destination variable, concrete
		lo, hi  int    // dst is x[lo:hi]
		src     string // symbolic
		want    string // x after the copy
		symAt   []int  // the bytes of x whose terms are the source's
		wantN   int
		nIsTerm bool
	}{
		{"whole", "....", 0, 4, "ab", "ab..", []int{0, 1}, 2, true},
		{"offset", "....", 1, 4, "abcdef", ".abc", []int{1, 2, 3}, 3, true},
		{"past the length", "..", 2, 4, "ab", "..", nil, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t) // the subtest's goroutine
			reset(4)
			takeConcrete(nil)
			src, env := symInput(tt.src, len(tt.src))
			x := make([]byte, len(tt.x), 8)
			copy(x, tt.x)
			var sx *sym.Expr
			n := CopyBytes(0, &sx, x, x[tt.lo:tt.hi], src)
			if string(x) != tt.want || n.C != tt.wantN {
				t.Fatalf("x = %q, n = %d; want %q, %d", x, n.C, tt.want, tt.wantN)
			}
			if (n.S != nil) != tt.nIsTerm || n.S != nil && int(sym.Eval(n.S, env)) != n.C {
				t.Errorf("count term %v does not give %d", n.S, n.C)
			}
			if c := takeConcrete(nil); len(c) > 0 {
				t.Errorf("concretisations counted: %+v", c)
			}
			// Every copied byte has its term in its cell, also past len(x).
			for k := range n.C {
				if got, want := byteTerm(&x[:cap(x)][tt.lo+k], 0), byteAt(src.S, nil, k); got != want {
					t.Errorf("cell of byte %d: %v, want %v", tt.lo+k, got, want)
				}
			}
			if sx == nil {
				t.Fatal("x has no shadow after a symbolic copy")
			}
			bs := aggBytes(sx)
			for i := range x {
				isVar := bs[i].Kind != sym.KConst
				if isVar != slices.Contains(tt.symAt, i) {
					t.Errorf("byte %d symbolic = %v", i, isVar)
				}
				if got := byte(sym.Eval(bs[i], env)); got != x[i] {
					t.Errorf("byte %d evaluates to %q, want %q", i, got, x[i])
				}
			}
		})
	}
	t.Run("make", func(t *testing.T) {
		own(t)
		reset(4)
		b := MakeBytes[[]byte](V[int32]{C: 3, S: st.b.Var(0, 32)})
		if len(b.C) != 3 || b.S == nil || sym.Eval(aggLen(b.S), sym.Env{0: 5}) != 5 {
			t.Errorf("make([]byte, n) = %q with shadow %v, want 3 bytes whose length is n's term", b.C, b.S)
		}
	})
}

// TestPlainBytes checks the cursor of a byte loop's concrete copy: it
// yields the indexes and elements the range loop yields, elements the
// body writes ahead of the loop included, with nil shadows, and records
// no branch.
func TestPlainBytes(t *testing.T) {
	own(t)
	// step is the body both loops run: it writes the next element, which
	// a range loop over a slice reads at the next iteration.
	step := func(b []byte, i int, c byte) string {
		if i+1 < len(b) {
			b[i+1] = c + 1
		}
		return string(rune('0'+i)) + string(c) + ";"
	}
	for _, in := range []string{"", "a", "abc\xff"} {
		reset(4)
		want, b := "", []byte(in)
		for i, c := range b {
			want += step(b, i, c)
		}
		got, b := "", []byte(in)
		for it, i, c, sc, k := PlainBytes(Mk(b, nil)); it.More(k); k++ {
			i, c, sc = it.At(k)
			if sc != nil {
				t.Errorf("%q: shadow %v at %d", in, sc, k)
			}
			got += step(b, i, c)
		}
		if got != want {
			t.Errorf("%q: loop went %q, the range loop %q", in, got, want)
		}
		if len(st.path) != 0 {
			t.Errorf("%q: recorded %d branches, want none", in, len(st.path))
		}
	}
}
