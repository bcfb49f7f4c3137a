package rt

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gocolic/gocolic/sym"
)

// decodeAgg returns the string an aggregate holds at env.
func decodeAgg(a *sym.Expr, env sym.Env) string {
	ev := sym.Evaluator{Env: env}
	value := func(e *sym.Expr) uint64 {
		v, err := ev.Value(e)
		if err != nil {
			panic(err)
		}
		return v
	}
	n := value(aggLen(a))
	var out []byte
	for k := uint64(0); k < n && int(k) < len(aggBytes(a)); k++ {
		out = append(out, byte(value(aggBytes(a)[k])))
	}
	if n > uint64(len(out)) {
		return string(out) + "<short>" // more bytes than the term knows
	}
	return string(out)
}

// randDecimal draws integers whose renderings have every length: powers
// of ten and their neighbours, small values, the extremes, uniform bits.
func randDecimal(r *rand.Rand) uint64 {
	switch r.IntN(5) {
	case 0:
		p := pow10(r.IntN(maxDigits))
		return p + uint64(r.IntN(3)) - 1
	case 1:
		return uint64(r.IntN(2000)) - 1000
	case 2:
		return []uint64{0, math.MaxUint64, math.MaxInt64, 1 << 63, math.MaxUint32}[r.IntN(5)]
	case 3:
		return r.Uint64() >> r.IntN(64)
	}
	return r.Uint64()
}

func TestFormatModels(t *testing.T) {
	tests := []struct {
		name  string
		width uint8 // of the integer
		real  func(x uint64) string
		model func(x V[uint64]) (string, *sym.Expr)
	}{
		{"strconv.Itoa", intSize, func(x uint64) string { return strconv.Itoa(int(sym.SignExtend(x, intSize))) },
			func(x V[uint64]) (string, *sym.Expr) { return StrconvItoa(strconv.Itoa, V[int]{C: int(x.C), S: x.S}) }},
		{"strconv.FormatInt 10", 64, func(x uint64) string { return strconv.FormatInt(int64(x), 10) },
			func(x V[uint64]) (string, *sym.Expr) {
				return StrconvFormatInt(strconv.FormatInt, V[int64]{C: int64(x.C), S: x.S}, V[int]{C: 10})
			}},
		{"strconv.FormatUint 10", 64, func(x uint64) string { return strconv.FormatUint(x, 10) },
			func(x V[uint64]) (string, *sym.Expr) { return StrconvFormatUint(strconv.FormatUint, x, V[int]{C: 10}) }},
	}
	r := rand.New(rand.NewPCG(19, 20))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			own(t)
			for range 10 {
				x0 := randDecimal(r) & sym.Mask(tc.width)
				x := st.b.Var(1, tc.width)
				c, term := tc.model(V[uint64]{C: x0, S: x})
				if c != tc.real(x0) {
					t.Fatalf("%d: concrete %q, want %q", x0, c, tc.real(x0))
				}
				for range 2000 {
					v := randDecimal(r) & sym.Mask(tc.width)
					if got, want := decodeAgg(term, sym.Env{1: v}), tc.real(v); got != want {
						t.Fatalf("built at %d: term at %#x = %q, want %q", x0, v, got, want)
					}
				}
			}
		})
	}
}

// TestFormatModelsOtherBases checks that bases other than 10 run
// concretely, with the library's result.
func TestFormatModelsOtherBases(t *testing.T) {
	own(t)
	x := st.b.Var(1, 64)
	for _, base := range []int{2, 16, 36} {
		if r, s := StrconvFormatInt(strconv.FormatInt, V[int64]{C: -300, S: x}, V[int]{C: base}); s != nil || r != strconv.FormatInt(-300, base) {
			t.Errorf("FormatInt base %d: (%q, %v)", base, r, s)
		}
		if r, s := StrconvFormatUint(strconv.FormatUint, V[uint64]{C: 300, S: x}, V[int]{C: base}); s != nil || r != strconv.FormatUint(300, base) {
			t.Errorf("FormatUint base %d: (%q, %v)", base, r, s)
		}
	}
}

// newSymStringN is newSymString with n byte variables.
func newSymStringN(base uint64, n int) (*sym.Expr, func(env sym.Env, s string)) {
	bs := make([]*sym.Expr, n)
	for i := range bs {
		bs[i] = st.b.Var(base+1+uint64(i), 8)
	}
	set := func(env sym.Env, s string) {
		env[base] = uint64(len(s))
		for i := 0; i < n; i++ {
			env[base+1+uint64(i)] = 0
			if i < len(s) {
				env[base+1+uint64(i)] = uint64(s[i])
			}
		}
	}
	return st.b.String(st.b.Var(base, 64), bs), set
}

// randFields draws strings of at most n bytes that are mostly separators
// and short fields, so that every element count occurs.
func randFields(r *rand.Rand, n int) string {
	const alphabet = ",,, ab\xff"
	b := make([]byte, r.IntN(n+1))
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// splitModel runs one Split model on a symbolic string and returns the
// concrete result with the shadows it left: the length's and the
// elements' (nil where an element has none).
type splitModel func(s V[string], sep string, n int) ([]string, *sym.Expr, []*sym.Expr)

func stringsSplitModel(s V[string], sep string, n int) ([]string, *sym.Expr, []*sym.Expr) {
	r := StringsSplitN(strings.SplitN, s, V[string]{C: sep}, V[int]{C: n})
	if n == -1 {
		r = StringsSplit(strings.Split, s, V[string]{C: sep})
	}
	sh := make([]*sym.Expr, len(r))
	for j := range r {
		sh[j] = LoadString(0, &r[j]).S
	}
	return r, LenSlice(0, r).S, sh
}

func bytesSplitModel(s V[string], sep string, n int) ([]string, *sym.Expr, []*sym.Expr) {
	in := V[[]byte]{C: []byte(s.C), S: s.S}
	r := BytesSplitN(bytes.SplitN, in, V[[]byte]{C: []byte(sep)}, V[int]{C: n})
	if n == -1 {
		r = BytesSplit(bytes.Split, in, V[[]byte]{C: []byte(sep)})
	}
	strs := make([]string, len(r))
	sh := make([]*sym.Expr, len(r))
	for j := range r {
		strs[j] = string(r[j])
		sh[j] = LoadByteSlice(0, &r[j]).S
	}
	return strs, LenSlice(0, r).S, sh
}

func TestSplitModels(t *testing.T) {
	tests := []struct {
		name   string
		limit  int // -1: Split; otherwise SplitN's n
		model  splitModel
		length int // byte variables of the symbolic string
		builds int // points the terms are built at
	}{
		{"strings.Split", -1, stringsSplitModel, modelMaxLen, 25},
		{"strings.SplitN 1", 1, stringsSplitModel, modelMaxLen, 25},
		{"strings.SplitN 3", 3, stringsSplitModel, modelMaxLen, 25},
		{"strings.SplitN -5", -5, stringsSplitModel, modelMaxLen, 25},
		{"bytes.Split", -1, bytesSplitModel, modelMaxLen, 25},
		{"bytes.SplitN 2", 2, bytesSplitModel, modelMaxLen, 25},
		// Past maxSplitLen the terms give the concrete result.
		{"strings.Split long", -1, stringsSplitModel, maxSplitLen + 6, 4},
		{"bytes.SplitN 4 long", 4, bytesSplitModel, maxSplitLen + 6, 4},
	}
	r := rand.New(rand.NewPCG(21, 22))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			own(t)
			for range tc.builds {
				reset(0)
				agg, set := newSymStringN(100, tc.length)
				s0 := randFields(r, tc.length)
				got, n, elems := tc.model(V[string]{C: s0, S: agg}, ",", tc.limit)
				want := strings.SplitN(s0, ",", tc.limit)
				if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
					t.Fatalf("%q: concrete %q, want %q", s0, got, want)
				}
				if n == nil {
					t.Fatalf("%q: no shadow of the length", s0)
				}
				for j := range got {
					if (elems[j] != nil) != (j < maxSplitParts) {
						t.Fatalf("%q: element %d shadowed %v", s0, j, elems[j] != nil)
					}
				}
				for range 300 {
					s := randFields(r, tc.length)
					env := sym.Env{}
					set(env, s)
					real := strings.SplitN(s, ",", tc.limit)
					if len(s) > maxSplitLen {
						real = want
					}
					if c := int(sym.Eval(n, env)); c != len(real) {
						t.Fatalf("built at %q: count at %q = %d, want %d", s0, s, c, len(real))
					}
					for j, e := range elems {
						if e == nil || j >= len(real) {
							continue
						}
						if got := decodeAgg(e, env); got != real[j] {
							t.Fatalf("built at %q: element %d at %q = %q, want %q", s0, j, s, got, real[j])
						}
					}
				}
			}
		})
	}
}

// TestSplitConcrete checks the cases the Split models leave concrete: a
// separator that is not one byte or is symbolic, a symbolic limit, and
// SplitN with n == 0.
func TestSplitConcrete(t *testing.T) {
	own(t)
	agg, _ := newSymStringN(100, modelMaxLen)
	s := V[string]{C: "a,b,,c", S: agg}
	tests := []struct {
		name string
		sep  V[string]
		n    V[int]
	}{
		{"empty separator", V[string]{C: ""}, V[int]{C: -1}},
		{"two bytes", V[string]{C: ",b"}, V[int]{C: -1}},
		{"symbolic separator", V[string]{C: ",", S: agg}, V[int]{C: -1}},
		{"symbolic limit", V[string]{C: ","}, V[int]{C: 2, S: st.b.Var(1, 64)}},
		{"limit 0", V[string]{C: ","}, V[int]{C: 0}},
	}
	for _, tc := range tests {
		reset(0)
		r := StringsSplitN(strings.SplitN, s, tc.sep, tc.n)
		if want := strings.SplitN(s.C, tc.sep.C, tc.n.C); strings.Join(r, "|") != strings.Join(want, "|") || len(r) != len(want) {
			t.Errorf("%s: %q, want %q", tc.name, r, want)
		}
		if len(st.mem) != 0 || len(st.lens) != 0 {
			t.Errorf("%s: shadows recorded: %d cells, %d lengths", tc.name, len(st.mem), len(st.lens))
		}
		b := BytesSplitN(bytes.SplitN, V[[]byte]{C: []byte(s.C), S: agg}, V[[]byte]{C: []byte(tc.sep.C), S: tc.sep.S}, tc.n)
		if want := bytes.SplitN([]byte(s.C), []byte(tc.sep.C), tc.n.C); len(b) != len(want) {
			t.Errorf("bytes %s: %q, want %q", tc.name, b, want)
		}
		if len(st.mem) != 0 || len(st.lens) != 0 {
			t.Errorf("bytes %s: shadows recorded", tc.name)
		}
	}
}

// TestLoadIndexAgg checks loads of string and byte-slice elements: the
// bounds check against the length shadow at a constant index, and the case
// split over the elements at a symbolic one.
func TestLoadIndexAgg(t *testing.T) {
	own(t)
	reset(8)
	agg, set := newSymStringN(100, modelMaxLen)
	parts := StringsSplit(strings.Split, V[string]{C: "ab,c,", S: agg}, V[string]{C: ","})
	i := st.b.Var(1, 64)
	v := LoadIndexString(3, parts, V[int]{C: 1})
	if v.C != "c" || v.S == nil || len(st.path) != 1 || st.path[0].Site != 3 || !st.path[0].Taken {
		t.Fatalf("constant index: %q, shadow %v, path %+v", v.C, v.S, st.path)
	}
	w := LoadIndexString(4, parts, V[int]{C: 0, S: i})
	if w.C != "ab" || w.S == nil || len(st.path) != 2 {
		t.Fatalf("symbolic index: %q, shadow %v, path %+v", w.C, w.S, st.path)
	}
	for _, tc := range []struct {
		s   string
		idx int
	}{{"ab,c,", 0}, {"ab,c,", 1}, {"ab,c,", 2}, {"x,yy,z", 2}, {"x,yy,z", 1}, {"q,,w", 1}} {
		env := sym.Env{1: uint64(tc.idx)}
		set(env, tc.s)
		real := strings.Split(tc.s, ",")
		inBounds := sym.Holds(st.path[1].Cond, env)
		if inBounds != (tc.idx < len(real)) {
			t.Errorf("%q[%d]: bounds check %v", tc.s, tc.idx, inBounds)
		}
		if got := decodeAgg(w.S, env); inBounds && got != real[tc.idx] {
			t.Errorf("%q[%d] = %q, want %q", tc.s, tc.idx, got, real[tc.idx])
		}
	}
	// A byte slice element one of whose bytes changed behind the
	// shadow's back keeps the terms of the others; the changed byte is
	// its value, and the lost term is counted as stale.
	pieces := BytesSplit(bytes.Split, V[[]byte]{C: []byte("hello world"), S: agg}, V[[]byte]{C: []byte(" ")})
	before := LoadIndexBytes(5, pieces, V[int]{C: 1}).S
	if before == nil {
		t.Fatalf("byte slice element has no shadow")
	}
	takeConcrete(nil)
	pieces[1][0] = 'W'
	after := LoadIndexBytes(5, pieces, V[int]{C: 1}).S
	if after == nil || aggBytes(after)[0] != st.b.Const('W', 8) || aggBytes(after)[1] != aggBytes(before)[1] {
		t.Errorf("changed element: shadow %v, want 'W' then the old terms of %v", after, before)
	}
	if c := takeConcrete(nil); len(c) != 1 || c[0].Cause != CauseStale || c[0].Site != 5 {
		t.Errorf("changed element: concretisations %+v, want one stale at site 5", c)
	}
}

// TestReplaceModels checks the Replace models against the real functions
// on random strings: the concrete result; the branch recorded at the
// site, whose condition must be "s contains old" wherever it is
// evaluated; and, where s does not contain old, a shadow that gives the
// real result at every string that does not contain old either.
func TestReplaceModels(t *testing.T) {
	const site = 7
	tests := []struct {
		name     string
		old, new string
		n        int  // -2: ReplaceAll; -3: bytes.ReplaceAll
		noBranch bool // the condition is constant: n == 0 or old == ""
	}{
		{name: "strings.ReplaceAll", old: ",,", new: "-", n: -2},
		{name: "strings.ReplaceAll one byte", old: "a", new: "", n: -2},
		{name: "strings.Replace all", old: " a", new: "xyz", n: -1},
		{name: "strings.Replace 1", old: ",", new: ";", n: 1},
		{name: "strings.Replace 0", old: ",", new: ";", n: 0, noBranch: true},
		{name: "strings.ReplaceAll empty old", old: "", new: "+", n: -2, noBranch: true},
		{name: "bytes.ReplaceAll", old: "\xff", new: "?", n: -3},
	}
	r := rand.New(rand.NewPCG(31, 32))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			own(t)
			real := func(s string) string {
				switch tc.n {
				case -2:
					return strings.ReplaceAll(s, tc.old, tc.new)
				case -3:
					return string(bytes.ReplaceAll([]byte(s), []byte(tc.old), []byte(tc.new)))
				}
				return strings.Replace(s, tc.old, tc.new, tc.n)
			}
			model := func(s V[string]) (string, *sym.Expr) {
				o, w := V[string]{C: tc.old}, V[string]{C: tc.new}
				switch tc.n {
				case -2:
					return StringsReplaceAll(site, strings.ReplaceAll, s, o, w)
				case -3:
					b, sh := BytesReplaceAll(site, bytes.ReplaceAll, V[[]byte]{C: []byte(s.C), S: s.S}, V[[]byte]{C: []byte(tc.old)}, V[[]byte]{C: []byte(tc.new)})
					return string(b), sh
				}
				return StringsReplace(site, strings.Replace, s, o, w, V[int]{C: tc.n})
			}
			for range 25 {
				reset(0)
				agg, set := newSymStringN(100, modelMaxLen)
				s0 := randFields(r, modelMaxLen)
				got, shadow := model(V[string]{C: s0, S: agg})
				if got != real(s0) {
					t.Fatalf("%q: %q, want %q", s0, got, real(s0))
				}
				has := strings.Contains(s0, tc.old) && tc.n != 0
				if (shadow != nil) == has {
					t.Fatalf("%q: shadow %v, want one exactly when s does not contain %q", s0, shadow != nil, tc.old)
				}
				if tc.noBranch != (len(st.path) == 0) {
					t.Fatalf("%q: %d branches recorded", s0, len(st.path))
				}
				for range 200 {
					s := randFields(r, modelMaxLen)
					env := sym.Env{}
					set(env, s)
					if !tc.noBranch {
						if ev := st.path[0]; ev.Site != site || ev.Taken != has || (sym.Eval(ev.Cond, env) != 0) != strings.Contains(s, tc.old) {
							t.Fatalf("built at %q: branch %+v at %q, want contains = %v", s0, ev, s, strings.Contains(s, tc.old))
						}
					}
					if shadow != nil && (tc.n == 0 || !strings.Contains(s, tc.old)) {
						if got := decodeAgg(shadow, env); got != real(s) {
							t.Fatalf("built at %q: result at %q = %q, want %q", s0, s, got, real(s))
						}
					}
				}
			}
		})
	}
}

// TestStringOfRune checks string(r) for integers of every kind: the
// concrete string is Go's, and the term gives the same string at r's
// value, at each boundary of the UTF-8 lengths and of the code points
// that are none (negative, surrogate halves, past U+10FFFF).
func TestStringOfRune(t *testing.T) {
	tests := []struct {
		name string
		conv func(x uint64, s *sym.Expr) (string, string, *sym.Expr) // got, Go's, term
		w    uint8
	}{
		{"rune", func(x uint64, s *sym.Expr) (string, string, *sym.Expr) {
			r := StringOfRune[string](V[rune]{C: rune(x), S: s})
			return r.C, string(rune(x)), r.S
		}, 32},
		{"byte", func(x uint64, s *sym.Expr) (string, string, *sym.Expr) {
			r := StringOfRune[string](V[byte]{C: byte(x), S: s})
			return r.C, string(rune(byte(x))), r.S
		}, 8},
		{"int64", func(x uint64, s *sym.Expr) (string, string, *sym.Expr) {
			r := StringOfRune[string](V[int64]{C: int64(x), S: s})
			want := "\uFFFD"
			if v := int64(x); v >= 0 && v <= 0x10FFFF {
				want = string(rune(v))
			}
			return r.C, want, r.S
		}, 64},
		{"uint32", func(x uint64, s *sym.Expr) (string, string, *sym.Expr) {
			r := StringOfRune[string](V[uint32]{C: uint32(x), S: s})
			want := "\uFFFD"
			if v := uint32(x); v <= 0x10FFFF {
				want = string(rune(v))
			}
			return r.C, want, r.S
		}, 32},
	}
	values := []uint64{0, 'A', 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF,
		0x10000, 0x10FFFF, 0x110000, 1 << 31, 1<<32 + 'A', math.MaxUint64, math.MaxUint64 - 0x40}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(8)
			for _, x := range values {
				x &= sym.Mask(tt.w)
				got, want, s := tt.conv(x, st.b.Var(0, tt.w))
				if got != want {
					t.Errorf("string(%#x) = %q, want %q", x, got, want)
				}
				if s == nil {
					t.Fatalf("string(%#x) has no term", x)
				}
				// The term built at x gives Go's string at every value.
				for _, v := range values {
					v &= sym.Mask(tt.w)
					_, wantV, _ := tt.conv(v, nil)
					if dec := decodeAgg(s, sym.Env{0: v}); dec != wantV {
						t.Errorf("built at %#x: the term at %#x gives %q, want %q", x, v, dec, wantV)
					}
				}
			}
		})
	}
}
