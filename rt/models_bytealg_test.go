package rt

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// randSearch draws short strings over a small alphabet, so that matches,
// repeats and misses all occur.
func randSearch(r *rand.Rand, n int) string {
	const alphabet = "aab,\xff"
	b := make([]byte, r.IntN(n+1))
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// TestBytealgModels checks the terms of the internal/bytealg and
// internal/stringslite models against the functions they stand for, at
// random points, with both operands symbolic. The real functions are
// internal, so the reference is the exported function of strings or bytes
// with the same result on the models' domain (bytealg.IndexString is
// strings.Index's, bytealg.CompareString strings.Compare's).
func TestBytealgModels(t *testing.T) {
	tests := []struct {
		name  string
		ref   func(s, p string) int // the real result, p one byte for a byte search
		model func(s, p V[string]) (int, *sym.Expr)
		byte_ bool // p is one byte
	}{
		{"IndexByteString", func(s, p string) int { return strings.IndexByte(s, p[0]) },
			func(s, p V[string]) (int, *sym.Expr) {
				return BytealgIndexByteString(func(s string, c byte) int { return strings.IndexByte(s, c) }, s, byteV(p))
			}, true},
		{"IndexByte", func(s, p string) int { return strings.IndexByte(s, p[0]) },
			func(s, p V[string]) (int, *sym.Expr) { return BytealgIndexByte(bytes.IndexByte, bytesV(s), byteV(p)) }, true},
		{"LastIndexByteString", func(s, p string) int { return strings.LastIndexByte(s, p[0]) },
			func(s, p V[string]) (int, *sym.Expr) {
				return BytealgLastIndexByteString(strings.LastIndexByte, s, byteV(p))
			}, true},
		{"LastIndexByte", func(s, p string) int { return strings.LastIndexByte(s, p[0]) },
			func(s, p V[string]) (int, *sym.Expr) {
				return BytealgLastIndexByte(bytes.LastIndexByte, bytesV(s), byteV(p))
			}, true},
		{"CountString", func(s, p string) int { return strings.Count(s, p) },
			func(s, p V[string]) (int, *sym.Expr) {
				return BytealgCountString(func(s string, c byte) int { return strings.Count(s, string(c)) }, s, byteV(p))
			}, true},
		{"Count", func(s, p string) int { return strings.Count(s, p) },
			func(s, p V[string]) (int, *sym.Expr) {
				return BytealgCount(func(b []byte, c byte) int { return bytes.Count(b, []byte{c}) }, bytesV(s), byteV(p))
			}, true},
		{"IndexString", strings.Index,
			func(s, p V[string]) (int, *sym.Expr) { return BytealgIndexString(strings.Index, s, p) }, false},
		{"Index", strings.Index,
			func(s, p V[string]) (int, *sym.Expr) { return BytealgIndex(bytes.Index, bytesV(s), bytesV(p)) }, false},
		{"CompareString", strings.Compare,
			func(s, p V[string]) (int, *sym.Expr) { return BytealgCompareString(strings.Compare, s, p) }, false},
		{"Compare", strings.Compare,
			func(s, p V[string]) (int, *sym.Expr) { return BytealgCompare(bytes.Compare, bytesV(s), bytesV(p)) }, false},
		{"stringslite.Index", strings.Index,
			func(s, p V[string]) (int, *sym.Expr) { return StringsliteIndex(strings.Index, s, p) }, false},
		{"stringslite.IndexByte", func(s, p string) int { return strings.IndexByte(s, p[0]) },
			func(s, p V[string]) (int, *sym.Expr) {
				return StringsliteIndexByte(strings.IndexByte, s, byteV(p))
			}, true},
		{"stringslite.HasPrefix", func(s, p string) int { return b2i(strings.HasPrefix(s, p)) },
			func(s, p V[string]) (int, *sym.Expr) {
				r, c := StringsliteHasPrefix(strings.HasPrefix, s, p)
				return b2i(r), st.b.Ite(c, k64(1), k64(0))
			}, false},
		{"stringslite.HasSuffix", func(s, p string) int { return b2i(strings.HasSuffix(s, p)) },
			func(s, p V[string]) (int, *sym.Expr) {
				r, c := StringsliteHasSuffix(strings.HasSuffix, s, p)
				return b2i(r), st.b.Ite(c, k64(1), k64(0))
			}, false},
	}
	r := rand.New(rand.NewPCG(31, 32))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			own(t)
			plen := 3
			if tc.byte_ {
				plen = 1
			}
			draw := func() (string, string) {
				s, p := randSearch(r, modelMaxLen), randSearch(r, plen)
				if tc.byte_ {
					p = string("ab,\xff"[r.IntN(4)])
				}
				return s, p
			}
			for range 10 {
				reset(0)
				sAgg, setS := newSymStringN(100, modelMaxLen)
				pAgg, setP := newSymStringN(200, plen)
				s0, p0 := draw()
				c, term := tc.model(V[string]{C: s0, S: sAgg}, V[string]{C: p0, S: pAgg})
				if want := tc.ref(s0, p0); c != want {
					t.Fatalf("%q, %q: concrete %d, want %d", s0, p0, c, want)
				}
				if term == nil {
					t.Fatalf("%q, %q: no term", s0, p0)
				}
				for range 500 {
					s, p := draw()
					env := sym.Env{}
					setS(env, s)
					setP(env, p)
					got := int(sym.SignExtend(sym.Eval(term, env), term.Width))
					if want := tc.ref(s, p); got != want {
						t.Fatalf("built at %q, %q: term at %q, %q = %d, want %d", s0, p0, s, p, got, want)
					}
				}
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// byteV is the byte of a one-byte string value: its first byte's term.
func byteV(p V[string]) V[byte] {
	c := V[byte]{C: p.C[0]}
	if p.S != nil {
		c.S = aggBytes(p.S)[0]
	}
	return c
}

// bytesV is the byte-slice value of a string value.
func bytesV(s V[string]) V[[]byte] { return V[[]byte]{C: []byte(s.C), S: s.S} }

func testSplit(s, sep string) []string { return strings.Split(s, sep) }

// TestSplitTwin checks that a Split model the operands leave concrete (a
// symbolic separator, or one of two bytes) calls the library's twin when
// the library is instrumented (its twin registered), and the library
// function itself otherwise.
func TestSplitTwin(t *testing.T) {
	own(t)
	agg, _ := newSymStringN(100, modelMaxLen)
	twinCalls := 0
	RegisterTwin(testSplit, func(s, sep V[string]) []string {
		twinCalls++
		return strings.Split(s.C, sep.C)
	})
	defer delete(twinsByPC, funcPC(testSplit))
	tests := []struct {
		name string
		s    V[string]
		sep  V[string]
		twin bool
	}{
		{"symbolic separator", V[string]{C: "a,b"}, V[string]{C: ",", S: agg}, true},
		{"two bytes", V[string]{C: "a,,b", S: agg}, V[string]{C: ",,"}, true},
		{"one concrete byte: the model", V[string]{C: "a,b", S: agg}, V[string]{C: ","}, false},
		{"all concrete", V[string]{C: "a,b"}, V[string]{C: ",,"}, false},
	}
	for _, tc := range tests {
		reset(0)
		twinCalls = 0
		r := StringsSplit(testSplit, tc.s, tc.sep)
		if want := strings.Split(tc.s.C, tc.sep.C); strings.Join(r, "|") != strings.Join(want, "|") {
			t.Errorf("%s: %q, want %q", tc.name, r, want)
		}
		if (twinCalls == 1) != tc.twin {
			t.Errorf("%s: twin called %d times, want it %v", tc.name, twinCalls, tc.twin)
		}
	}
	reset(0)
	twinCalls = 0
	if StringsSplit(strings.Split, V[string]{C: "a,b"}, V[string]{C: ",", S: agg}); twinCalls != 0 {
		t.Errorf("a library without a registered twin: twin called")
	}
}

// TestStringsliteCut checks the terms of the Cut model against
// strings.Cut at random points, with both operands symbolic.
func TestStringsliteCut(t *testing.T) {
	own(t)
	r := rand.New(rand.NewPCG(33, 34))
	for range 10 {
		reset(0)
		sAgg, setS := newSymStringN(100, modelMaxLen)
		pAgg, setP := newSymStringN(200, 3)
		s0, p0 := randSearch(r, modelMaxLen), randSearch(r, 3)
		b0, a0, f0, sb, sa, sf := StringsliteCut(strings.Cut, V[string]{C: s0, S: sAgg}, V[string]{C: p0, S: pAgg})
		if wb, wa, wf := strings.Cut(s0, p0); b0 != wb || a0 != wa || f0 != wf {
			t.Fatalf("%q, %q: concrete %q %q %v", s0, p0, b0, a0, f0)
		}
		for range 500 {
			s, p := randSearch(r, modelMaxLen), randSearch(r, 3)
			env := sym.Env{}
			setS(env, s)
			setP(env, p)
			wb, wa, wf := strings.Cut(s, p)
			gb, ga, gf := decodeAgg(sb, env), decodeAgg(sa, env), sym.Eval(sf, env) == 1
			if gb != wb || ga != wa || gf != wf {
				t.Fatalf("built at %q, %q: terms at %q, %q = %q %q %v, want %q %q %v", s0, p0, s, p, gb, ga, gf, wb, wa, wf)
			}
		}
	}
}

// TestStringsliteTrimCut checks the terms of the TrimPrefix, TrimSuffix,
// CutPrefix and CutSuffix models against the strings functions at random
// points, with both operands symbolic.
func TestStringsliteTrimCut(t *testing.T) {
	type model func(s, p V[string]) (string, bool, *sym.Expr, *sym.Expr)
	trim := func(f func(func(string, string) string, V[string], V[string]) (string, *sym.Expr), lib func(string, string) string) model {
		return func(s, p V[string]) (string, bool, *sym.Expr, *sym.Expr) {
			r, sr := f(lib, s, p)
			return r, false, sr, nil
		}
	}
	cut := func(f func(func(string, string) (string, bool), V[string], V[string]) (string, bool, *sym.Expr, *sym.Expr), lib func(string, string) (string, bool)) model {
		return func(s, p V[string]) (string, bool, *sym.Expr, *sym.Expr) { return f(lib, s, p) }
	}
	for _, tc := range []struct {
		name  string
		model model
		want  func(s, p string) (string, bool)
	}{
		{"TrimPrefix", trim(StringsliteTrimPrefix, strings.TrimPrefix), func(s, p string) (string, bool) { return strings.TrimPrefix(s, p), false }},
		{"TrimSuffix", trim(StringsliteTrimSuffix, strings.TrimSuffix), func(s, p string) (string, bool) { return strings.TrimSuffix(s, p), false }},
		{"CutPrefix", cut(StringsliteCutPrefix, strings.CutPrefix), strings.CutPrefix},
		{"CutSuffix", cut(StringsliteCutSuffix, strings.CutSuffix), strings.CutSuffix},
		{"strings.TrimSuffix", trim(StringsTrimSuffix, strings.TrimSuffix), func(s, p string) (string, bool) { return strings.TrimSuffix(s, p), false }},
		{"strings.CutPrefix", cut(StringsCutPrefix, strings.CutPrefix), strings.CutPrefix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			own(t) // the subtest's goroutine is the one tracked
			r := rand.New(rand.NewPCG(35, 36))
			for range 10 {
				reset(0)
				sAgg, setS := newSymStringN(100, modelMaxLen)
				pAgg, setP := newSymStringN(200, 3)
				s0, p0 := randSearch(r, modelMaxLen), randSearch(r, 3)
				r0, f0, sr, sf := tc.model(V[string]{C: s0, S: sAgg}, V[string]{C: p0, S: pAgg})
				if wr, wf := tc.want(s0, p0); r0 != wr || f0 != wf {
					t.Fatalf("%q, %q: concrete %q %v, want %q %v", s0, p0, r0, f0, wr, wf)
				}
				if sr == nil {
					t.Fatalf("%q, %q: no term for the result", s0, p0)
				}
				for range 300 {
					s, p := randSearch(r, modelMaxLen), randSearch(r, 3)
					env := sym.Env{}
					setS(env, s)
					setP(env, p)
					wr, wf := tc.want(s, p)
					if gr := decodeAgg(sr, env); gr != wr {
						t.Fatalf("built at %q, %q: result term at %q, %q = %q, want %q", s0, p0, s, p, gr, wr)
					}
					if sf != nil && (sym.Eval(sf, env) == 1) != wf {
						t.Fatalf("built at %q, %q: found term at %q, %q = %v, want %v", s0, p0, s, p, !wf, wf)
					}
				}
			}
		})
	}
}

// TestStringsliteClone checks that the model of stringslite.Clone returns
// the library's copy with the argument's own term, symbolic or not.
func TestStringsliteClone(t *testing.T) {
	own(t)
	reset(0)
	agg, _ := newSymStringN(100, 4)
	for _, tc := range []struct {
		name string
		s    V[string]
	}{
		{"symbolic", V[string]{C: "ab", S: agg}},
		{"concrete", V[string]{C: "cd"}},
		{"empty", V[string]{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			lib := func(s string) string { calls++; return strings.Clone(s) }
			r, sr := StringsliteClone(lib, tc.s)
			if r != tc.s.C || calls != 1 {
				t.Errorf("result %q after %d library calls, want %q after 1", r, calls, tc.s.C)
			}
			if sr != tc.s.S {
				t.Errorf("term %v, want the argument's %v", sr, tc.s.S)
			}
		})
	}
}
