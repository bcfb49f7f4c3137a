package rt

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gocolic/gocolic/sym"
)

// The model tests build each model's terms once, over symbolic inputs at
// some concrete point, then evaluate them at many random points and
// compare with the real function there. Where a model is exact only on a
// domain, points outside it must give the concrete result of the point the
// terms were built at.

const modelMaxLen = 12 // byte variables per symbolic string

// symString is a symbolic string input: variable base is its length,
// base+1.. its bytes.
type symString struct {
	base uint64
	agg  *sym.Expr
}

func newSymString(base uint64) symString {
	bs := make([]*sym.Expr, modelMaxLen)
	for i := range bs {
		bs[i] = st.b.Var(base+1+uint64(i), 8)
	}
	return symString{base, st.b.String(st.b.Var(base, 64), bs)}
}

// set puts s (at most modelMaxLen bytes) into env.
func (ss symString) set(env sym.Env, s string) {
	env[ss.base] = uint64(len(s))
	for i := 0; i < modelMaxLen; i++ {
		env[ss.base+1+uint64(i)] = 0
		if i < len(s) {
			env[ss.base+1+uint64(i)] = uint64(s[i])
		}
	}
}

// randString draws strings from a small alphabet, so that matches,
// digits, signs, letters of both cases and non-ASCII bytes all occur.
func randString(r *rand.Rand) string {
	const alphabet = "aAbB09+- \t\xc3\xa9\x80"
	n := r.IntN(modelMaxLen + 1)
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// randPair returns two strings, the second often a piece of the first.
func randPair(r *rand.Rand) (string, string) {
	s := randString(r)
	if r.IntN(2) == 0 && len(s) > 0 {
		i := r.IntN(len(s))
		j := i + r.IntN(len(s)-i+1)
		return s, s[i:j]
	}
	return s, randString(r)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func TestStringModels(t *testing.T) {
	type pred = func(a, b string) uint64
	tests := []struct {
		name  string
		real  pred
		model func(a, b V[string]) (uint64, *sym.Expr)
		exact func(a, b string) bool // the model's domain; nil: everywhere
	}{
		{"strings.HasPrefix", func(a, b string) uint64 { return b2u(strings.HasPrefix(a, b)) },
			wrapB(withLib(StringsHasPrefix, strings.HasPrefix)), nil},
		{"strings.HasSuffix", func(a, b string) uint64 { return b2u(strings.HasSuffix(a, b)) },
			wrapB(withLib(StringsHasSuffix, strings.HasSuffix)), nil},
		{"strings.Contains", func(a, b string) uint64 { return b2u(strings.Contains(a, b)) },
			wrapB(withLib(StringsContains, strings.Contains)), nil},
		{"strings.EqualFold", func(a, b string) uint64 { return b2u(strings.EqualFold(a, b)) },
			wrapB(withLib(StringsEqualFold, strings.EqualFold)), func(a, b string) bool { return isASCII(a) && isASCII(b) }},
		{"strings.Index", func(a, b string) uint64 { return uint64(strings.Index(a, b)) },
			wrapI(withLib(StringsIndex, strings.Index)), nil},
		{"bytes.HasPrefix", func(a, b string) uint64 { return b2u(bytes.HasPrefix([]byte(a), []byte(b))) },
			bytesModel(wrapBB(withLib(BytesHasPrefix, bytes.HasPrefix))), nil},
		{"bytes.HasSuffix", func(a, b string) uint64 { return b2u(bytes.HasSuffix([]byte(a), []byte(b))) },
			bytesModel(wrapBB(withLib(BytesHasSuffix, bytes.HasSuffix))), nil},
		{"bytes.Contains", func(a, b string) uint64 { return b2u(bytes.Contains([]byte(a), []byte(b))) },
			bytesModel(wrapBB(withLib(BytesContains, bytes.Contains))), nil},
		{"bytes.Equal", func(a, b string) uint64 { return b2u(bytes.Equal([]byte(a), []byte(b))) },
			bytesModel(wrapBB(withLib(BytesEqual, bytes.Equal))), nil},
		{"bytes.EqualFold", func(a, b string) uint64 { return b2u(bytes.EqualFold([]byte(a), []byte(b))) },
			bytesModel(wrapBB(withLib(BytesEqualFold, bytes.EqualFold))), func(a, b string) bool { return isASCII(a) && isASCII(b) }},
		{"bytes.Index", func(a, b string) uint64 { return uint64(bytes.Index([]byte(a), []byte(b))) },
			bytesModel(wrapBI(withLib(BytesIndex, bytes.Index))), nil},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			own(t)
			// Both operands symbolic, then each one alone.
			for _, mode := range []string{"both", "first", "second"} {
				for range 20 {
					a0, b0 := randPair(r)
					x, y := newSymString(100), newSymString(200)
					va, vb := V[string]{C: a0, S: x.agg}, V[string]{C: b0, S: y.agg}
					switch mode {
					case "first":
						vb.S = nil
					case "second":
						va.S = nil
					}
					c, term := tc.model(va, vb)
					if want := tc.real(a0, b0); c != want {
						t.Fatalf("%s(%q, %q): concrete %d, want %d", mode, a0, b0, c, want)
					}
					for range 200 {
						a, b := randPair(r)
						if mode == "first" {
							b = b0
						} else if mode == "second" {
							a = a0
						}
						env := sym.Env{}
						x.set(env, a)
						y.set(env, b)
						want := tc.real(a, b)
						if tc.exact != nil && !tc.exact(a, b) {
							want = c
						}
						if got := sym.Eval(term, env) & maskOf(term); got != want&maskOf(term) {
							t.Fatalf("%s, built at (%q, %q): term at (%q, %q) = %d, want %d", mode, a0, b0, a, b, got, want)
						}
					}
				}
			}
		})
	}
}

func maskOf(e *sym.Expr) uint64 {
	if e.Width == 0 {
		return 1
	}
	return sym.Mask(e.Width)
}

// withLib binds a model's library function, as the rewrite passes it.
func withLib[L, A, R any](model func(L, A, A) (R, *sym.Expr), lib L) func(a, b A) (R, *sym.Expr) {
	return func(a, b A) (R, *sym.Expr) { return model(lib, a, b) }
}

func wrapB(f func(a, b V[string]) (bool, *sym.Expr)) func(a, b V[string]) (uint64, *sym.Expr) {
	return func(a, b V[string]) (uint64, *sym.Expr) { c, s := f(a, b); return b2u(c), s }
}

func wrapI(f func(a, b V[string]) (int, *sym.Expr)) func(a, b V[string]) (uint64, *sym.Expr) {
	return func(a, b V[string]) (uint64, *sym.Expr) { c, s := f(a, b); return uint64(c), s }
}

func wrapBB(f func(a, b V[[]byte]) (bool, *sym.Expr)) func(a, b V[[]byte]) (uint64, *sym.Expr) {
	return func(a, b V[[]byte]) (uint64, *sym.Expr) { c, s := f(a, b); return b2u(c), s }
}

func wrapBI(f func(a, b V[[]byte]) (int, *sym.Expr)) func(a, b V[[]byte]) (uint64, *sym.Expr) {
	return func(a, b V[[]byte]) (uint64, *sym.Expr) { c, s := f(a, b); return uint64(c), s }
}

// bytesModel runs a byte-slice model on string operands.
func bytesModel(f func(a, b V[[]byte]) (uint64, *sym.Expr)) func(a, b V[string]) (uint64, *sym.Expr) {
	return func(a, b V[string]) (uint64, *sym.Expr) {
		return f(V[[]byte]{C: []byte(a.C), S: a.S}, V[[]byte]{C: []byte(b.C), S: b.S})
	}
}

func TestParseModels(t *testing.T) {
	digits := func(r *rand.Rand) string {
		// Mostly numbers, some with signs, some malformed, some long.
		const alphabet = "0123456789"
		n := r.IntN(modelMaxLen + 1)
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		switch r.IntN(6) {
		case 0:
			if n > 0 {
				b[0] = "+-"[r.IntN(2)]
			}
		case 1:
			if n > 0 {
				b[r.IntN(n)] = "x -"[r.IntN(3)]
			}
		}
		return string(b)
	}
	tests := []struct {
		name   string
		maxLen int // domain of the model: strings up to this length
		real   func(s string) (uint64, bool)
		model  func(site uint32, s V[string]) (uint64, bool, *sym.Expr)
	}{
		{"strconv.Atoi", maxParseLen, func(s string) (uint64, bool) { n, err := strconv.Atoi(s); return uint64(n), err == nil },
			func(site uint32, s V[string]) (uint64, bool, *sym.Expr) {
				n, err, sh := StrconvAtoi(site, strconv.Atoi, s)
				return uint64(n), err == nil, sh
			}},
		{"strconv.ParseInt 10 64", maxParseLen, func(s string) (uint64, bool) {
			n, err := strconv.ParseInt(s, 10, 64)
			return uint64(n), err == nil
		}, parseIntModel(64)},
		{"strconv.ParseInt 10 8", 2, func(s string) (uint64, bool) {
			n, err := strconv.ParseInt(s, 10, 8)
			return uint64(n), err == nil
		}, parseIntModel(8)},
		{"strconv.ParseInt 10 16", 4, func(s string) (uint64, bool) {
			n, err := strconv.ParseInt(s, 10, 16)
			return uint64(n), err == nil
		}, parseIntModel(16)},
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			own(t)
			for range 30 {
				s0 := digits(r)
				x := newSymString(100)
				st.path = st.path[:0]
				c, ok, term := tc.model(7, V[string]{C: s0, S: x.agg})
				wantC, wantOK := tc.real(s0)
				if c != wantC || ok != wantOK {
					t.Fatalf("%q: concrete (%d, %v), want (%d, %v)", s0, c, ok, wantC, wantOK)
				}
				if len(st.path) != 1 || st.path[0].Site != 7 || st.path[0].Taken != ok {
					t.Fatalf("%q: recorded %+v, want the error check at site 7 taken %v", s0, st.path, ok)
				}
				check := st.path[0].Cond
				for range 300 {
					s := digits(r)
					env := sym.Env{}
					x.set(env, s)
					want, wantOK := tc.real(s)
					if len(s) > tc.maxLen {
						want, wantOK = c, ok
					}
					if got := sym.Holds(check, env); got != wantOK {
						t.Fatalf("built at %q: error check at %q = %v, want %v", s0, s, got, wantOK)
					}
					if got := sym.Eval(term, env); got != want&sym.Mask(term.Width) {
						t.Fatalf("built at %q: value at %q = %d, want %d", s0, s, int64(got), int64(want))
					}
				}
			}
		})
	}
}

func parseIntModel(bitSize int) func(site uint32, s V[string]) (uint64, bool, *sym.Expr) {
	return func(site uint32, s V[string]) (uint64, bool, *sym.Expr) {
		n, err, sh := StrconvParseInt(site, strconv.ParseInt, s, V[int]{C: 10}, V[int]{C: bitSize})
		return uint64(n), err == nil, sh
	}
}

func TestRuneModels(t *testing.T) {
	tests := []struct {
		name  string
		real  func(r rune) uint64
		model func(r V[rune]) (uint64, *sym.Expr)
		ascii bool // exact only on ASCII
	}{
		{"unicode.IsDigit", func(r rune) uint64 { return b2u(unicode.IsDigit(r)) }, runeB(unicode.IsDigit, UnicodeIsDigit), true},
		{"unicode.IsLetter", func(r rune) uint64 { return b2u(unicode.IsLetter(r)) }, runeB(unicode.IsLetter, UnicodeIsLetter), true},
		{"unicode.IsUpper", func(r rune) uint64 { return b2u(unicode.IsUpper(r)) }, runeB(unicode.IsUpper, UnicodeIsUpper), true},
		{"unicode.IsLower", func(r rune) uint64 { return b2u(unicode.IsLower(r)) }, runeB(unicode.IsLower, UnicodeIsLower), true},
		{"unicode.IsSpace", func(r rune) uint64 { return b2u(unicode.IsSpace(r)) }, runeB(unicode.IsSpace, UnicodeIsSpace), true},
		{"utf8.RuneLen", func(r rune) uint64 { return uint64(utf8.RuneLen(r)) },
			func(r V[rune]) (uint64, *sym.Expr) { n, s := Utf8RuneLen(utf8.RuneLen, r); return uint64(n), s }, false},
	}
	rng := rand.New(rand.NewPCG(5, 6))
	randRune := func() rune {
		switch rng.IntN(4) {
		case 0:
			return rune(rng.IntN(0x80))
		case 1:
			return rune(rng.IntN(0x110000 + 100))
		case 2:
			return rune(0xD7F0 + rng.IntN(0x830)) // around the surrogates
		}
		return rune(rng.Uint32())
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			own(t)
			for range 20 {
				r0 := randRune()
				x := st.b.Var(1, 32)
				c, term := tc.model(V[rune]{C: r0, S: x})
				if c != tc.real(r0) {
					t.Fatalf("%U: concrete %d, want %d", r0, c, tc.real(r0))
				}
				for range 500 {
					r := randRune()
					want := tc.real(r)
					if tc.ascii && (r < 0 || r >= 0x80) {
						want = c
					}
					if got := sym.Eval(term, sym.Env{1: uint64(uint32(r))}); got != want&maskOf(term) {
						t.Fatalf("built at %U: term at %U = %d, want %d", r0, r, got, want)
					}
				}
			}
		})
	}
}

// TestRuneLenModel checks utf8.RuneLen's term against the function at
// every rune near the boundaries of its sizes and of the surrogates, and
// at a stride over the whole range of int32.
func TestRuneLenModel(t *testing.T) {
	own(t)
	reset(4)
	x := st.b.Var(1, 32)
	_, term := Utf8RuneLen(utf8.RuneLen, V[rune]{C: 'a', S: x})
	check := func(r rune) {
		if got, want := sym.Eval(term, sym.Env{1: uint64(uint32(r))}), uint64(utf8.RuneLen(r))&maskOf(term); got != want {
			t.Fatalf("at %#x: %d, want %d", r, int64(got), utf8.RuneLen(r))
		}
	}
	for _, edge := range []rune{0, 0x80, 0x800, 0xD800, 0xE000, 0x10000, utf8.MaxRune + 1, math.MinInt32, math.MaxInt32} {
		for d := rune(-3); d <= 3; d++ {
			check(edge + d)
		}
	}
	for r := int64(math.MinInt32); r <= math.MaxInt32; r += 9973 {
		check(rune(r))
	}
}

func runeB(lib func(rune) bool, f func(func(rune) bool, V[rune]) (bool, *sym.Expr)) func(V[rune]) (uint64, *sym.Expr) {
	return func(r V[rune]) (uint64, *sym.Expr) { c, s := f(lib, r); return b2u(c), s }
}

// decodeStrings enumerates the strings the decoder tests evaluate at:
// every string of up to two bytes; for three to five bytes, every first
// byte with the boundary values of the accept ranges as second byte and
// of the continuation range after; and 50000 random strings of up to six bytes,
// biased to lead and continuation bytes.
func decodeStrings(yield func(string) bool) {
	var buf [6]byte
	emit := func(n int) bool { return yield(string(buf[:n])) }
	if !emit(0) {
		return
	}
	for x := range 1 << 16 {
		buf[0], buf[1] = byte(x), byte(x>>8)
		if !emit(2) || x < 256 && !emit(1) {
			return
		}
	}
	second := []byte{0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF}
	cont := []byte{0x41, 0x80, 0x95, 0xBF, 0xC0}
	for b0 := range 256 {
		for _, b1 := range second {
			for _, b2 := range cont {
				for _, b3 := range cont {
					buf[0], buf[1], buf[2], buf[3], buf[4] = byte(b0), b1, b2, b3, 'z'
					if !emit(3) || !emit(4) || !emit(5) {
						return
					}
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 50_000 {
		n := rng.IntN(len(buf) + 1)
		for i := range n {
			switch rng.IntN(3) {
			case 0:
				buf[i] = byte(0xC0 + rng.IntN(0x40)) // lead bytes and past
			case 1:
				buf[i] = byte(0x80 + rng.IntN(0x40)) // continuation bytes
			default:
				buf[i] = byte(rng.Uint32())
			}
		}
		if !emit(n) {
			return
		}
	}
}

// evalDecode evaluates the rune and size terms of a decoder at env.
func evalDecode(t *testing.T, rs, ns *sym.Expr, env sym.Env) (rune, int) {
	v, err := sym.Values([]*sym.Expr{rs, ns}, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rune(uint32(v[0])), int(v[1])
}

// TestDecodeRuneModels checks the decoders' terms, built once over a
// symbolic string, against utf8.DecodeRune at every string of
// decodeStrings: they are exact everywhere, whatever the string the
// terms were built at.
func TestDecodeRuneModels(t *testing.T) {
	tests := []struct {
		name   string
		at     string // the concrete string the terms are built at
		decode func(s V[string]) (rune, int, *sym.Expr, *sym.Expr)
	}{
		{"DecodeRuneInString at ASCII", "a", func(s V[string]) (rune, int, *sym.Expr, *sym.Expr) {
			return Utf8DecodeRuneInString(1, utf8.DecodeRuneInString, s)
		}},
		{"DecodeRuneInString at three bytes", "€x", func(s V[string]) (rune, int, *sym.Expr, *sym.Expr) {
			return Utf8DecodeRuneInString(1, utf8.DecodeRuneInString, s)
		}},
		{"DecodeRune at empty", "", func(s V[string]) (rune, int, *sym.Expr, *sym.Expr) {
			return Utf8DecodeRune(1, utf8.DecodeRune, V[[]byte]{C: []byte(s.C), S: s.S})
		}},
		{"DecodeRune at four bytes", "\U0001F600", func(s V[string]) (rune, int, *sym.Expr, *sym.Expr) {
			return Utf8DecodeRune(1, utf8.DecodeRune, V[[]byte]{C: []byte(s.C), S: s.S})
		}},
		{"DecodeRune at an invalid byte", "\xed\xa0\x80", func(s V[string]) (rune, int, *sym.Expr, *sym.Expr) {
			return Utf8DecodeRune(1, utf8.DecodeRune, V[[]byte]{C: []byte(s.C), S: s.S})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			own(t)
			reset(4)
			x := newSymString(100)
			r0, n0, rs, ns := tt.decode(V[string]{C: tt.at, S: x.agg})
			if wr, wn := utf8.DecodeRuneInString(tt.at); r0 != wr || n0 != wn {
				t.Fatalf("concrete (%U, %d), want (%U, %d)", r0, n0, wr, wn)
			}
			if rs == nil || ns == nil {
				t.Fatalf("no terms")
			}
			if c := takeConcrete(nil); len(c) != 0 {
				t.Errorf("concretisations %+v, want none", c)
			}
			env := sym.Env{}
			count := 0
			for s := range decodeStrings {
				count++
				x.set(env, s)
				wr, wn := utf8.DecodeRuneInString(s)
				if gr, gn := evalDecode(t, rs, ns, env); gr != wr || gn != wn {
					t.Fatalf("at %q: (%U, %d), want (%U, %d)", s, gr, gn, wr, wn)
				}
			}
			if count < 1<<16 {
				t.Fatalf("only %d strings", count)
			}
		})
	}
}

// TestDecodeRuneShortTerms checks the decoders on aggregates with fewer
// than four byte terms: where the decoding at the concrete string reads a
// byte without a term, the result is concrete and a concretisation is
// counted; elsewhere the terms are exact wherever the string ends within
// the terms or the first byte decides.
func TestDecodeRuneShortTerms(t *testing.T) {
	tests := []struct {
		name  string
		s     string
		terms int // byte terms of the aggregate
		conc  bool
	}{
		{"no terms, empty", "", 0, false},
		{"no terms, ASCII", "a", 0, true},
		{"one term, ASCII", "ab", 1, false},
		{"one term, invalid first byte", "\x80\x80", 1, false},
		{"one term, two-byte rune", "é", 1, true},
		{"two terms, two-byte rune", "éx", 2, false},
		{"two terms, three-byte rune", "€", 2, true},
		{"three terms, three-byte rune", "€", 3, false},
		{"three terms, four-byte rune", "\U0001F600", 3, true},
		{"three terms, truncated within them", "\xe2\x82", 3, false},
	}
	for _, tt := range tests {
		for _, bytesForm := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/bytes=%v", tt.name, bytesForm), func(t *testing.T) {
				own(t)
				reset(4)
				bs := make([]*sym.Expr, tt.terms)
				for i := range bs {
					bs[i] = st.b.Var(uint64(1+i), 8)
				}
				a := st.b.String(st.b.Var(0, 64), bs)
				var r rune
				var n int
				var rs, ns *sym.Expr
				if bytesForm {
					r, n, rs, ns = Utf8DecodeRune(3, utf8.DecodeRune, V[[]byte]{C: []byte(tt.s), S: a})
				} else {
					r, n, rs, ns = Utf8DecodeRuneInString(3, utf8.DecodeRuneInString, V[string]{C: tt.s, S: a})
				}
				if wr, wn := utf8.DecodeRuneInString(tt.s); r != wr || n != wn {
					t.Fatalf("concrete (%U, %d), want (%U, %d)", r, n, wr, wn)
				}
				c := takeConcrete(nil)
				if tt.conc {
					want := []Concretised{{Site: 3, Cause: CauseRune, Count: 1}}
					if !slices.Equal(c, want) || rs != nil || ns != nil {
						t.Fatalf("concretisations %+v, terms %v %v; want %+v and no terms", c, rs, ns, want)
					}
					return
				}
				if len(c) != 0 || rs == nil || ns == nil {
					t.Fatalf("concretisations %+v, terms %v %v; want none and terms", c, rs, ns)
				}
				// Where the string fits in the terms, or its first byte
				// decides alone, the terms are exact.
				env := sym.Env{}
				for s := range decodeStrings {
					if len(s) > tt.terms && (tt.terms == 0 || s[0] >= 0xC2 && s[0] <= 0xF4) {
						continue
					}
					env[0] = uint64(len(s))
					for i := range tt.terms {
						env[uint64(1+i)] = 0
						if i < len(s) {
							env[uint64(1+i)] = uint64(s[i])
						}
					}
					wr, wn := utf8.DecodeRuneInString(s)
					if gr, gn := evalDecode(t, rs, ns, env); gr != wr || gn != wn {
						t.Fatalf("at %q: (%U, %d), want (%U, %d)", s, gr, gn, wr, wn)
					}
				}
			})
		}
	}
}

func TestBitsModels(t *testing.T) {
	type model = func(x uint64, s *sym.Expr) (uint64, *sym.Expr)
	tests := []struct {
		name  string
		width uint8
		real  func(x uint64) uint64
		model model
	}{
		{"OnesCount", 64, func(x uint64) uint64 { return uint64(bits.OnesCount(uint(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsOnesCount(V[uint]{uint(x), s})
				return uint64(n), t
			}},
		{"OnesCount8", 8, func(x uint64) uint64 { return uint64(bits.OnesCount8(uint8(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsOnesCount8(V[uint8]{uint8(x), s})
				return uint64(n), t
			}},
		{"OnesCount16", 16, func(x uint64) uint64 { return uint64(bits.OnesCount16(uint16(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsOnesCount16(V[uint16]{uint16(x), s})
				return uint64(n), t
			}},
		{"OnesCount32", 32, func(x uint64) uint64 { return uint64(bits.OnesCount32(uint32(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsOnesCount32(V[uint32]{uint32(x), s})
				return uint64(n), t
			}},
		{"OnesCount64", 64, func(x uint64) uint64 { return uint64(bits.OnesCount64(x)) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsOnesCount64(V[uint64]{x, s})
				return uint64(n), t
			}},
		{"Len", 64, func(x uint64) uint64 { return uint64(bits.Len(uint(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsLen(V[uint]{uint(x), s})
				return uint64(n), t
			}},
		{"Len8", 8, func(x uint64) uint64 { return uint64(bits.Len8(uint8(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsLen8(V[uint8]{uint8(x), s})
				return uint64(n), t
			}},
		{"Len16", 16, func(x uint64) uint64 { return uint64(bits.Len16(uint16(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsLen16(V[uint16]{uint16(x), s})
				return uint64(n), t
			}},
		{"Len32", 32, func(x uint64) uint64 { return uint64(bits.Len32(uint32(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsLen32(V[uint32]{uint32(x), s})
				return uint64(n), t
			}},
		{"Len64", 64, func(x uint64) uint64 { return uint64(bits.Len64(x)) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsLen64(V[uint64]{x, s})
				return uint64(n), t
			}},
		{"LeadingZeros", 64, func(x uint64) uint64 { return uint64(bits.LeadingZeros(uint(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsLeadingZeros(V[uint]{uint(x), s})
				return uint64(n), t
			}},
		{"LeadingZeros8", 8, func(x uint64) uint64 { return uint64(bits.LeadingZeros8(uint8(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsLeadingZeros8(V[uint8]{uint8(x), s})
				return uint64(n), t
			}},
		{"LeadingZeros16", 16, func(x uint64) uint64 { return uint64(bits.LeadingZeros16(uint16(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsLeadingZeros16(V[uint16]{uint16(x), s})
				return uint64(n), t
			}},
		{"LeadingZeros32", 32, func(x uint64) uint64 { return uint64(bits.LeadingZeros32(uint32(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsLeadingZeros32(V[uint32]{uint32(x), s})
				return uint64(n), t
			}},
		{"LeadingZeros64", 64, func(x uint64) uint64 { return uint64(bits.LeadingZeros64(x)) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsLeadingZeros64(V[uint64]{x, s})
				return uint64(n), t
			}},
		{"TrailingZeros", 64, func(x uint64) uint64 { return uint64(bits.TrailingZeros(uint(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsTrailingZeros(V[uint]{uint(x), s})
				return uint64(n), t
			}},
		{"TrailingZeros8", 8, func(x uint64) uint64 { return uint64(bits.TrailingZeros8(uint8(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsTrailingZeros8(V[uint8]{uint8(x), s})
				return uint64(n), t
			}},
		{"TrailingZeros16", 16, func(x uint64) uint64 { return uint64(bits.TrailingZeros16(uint16(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsTrailingZeros16(V[uint16]{uint16(x), s})
				return uint64(n), t
			}},
		{"TrailingZeros32", 32, func(x uint64) uint64 { return uint64(bits.TrailingZeros32(uint32(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsTrailingZeros32(V[uint32]{uint32(x), s})
				return uint64(n), t
			}},
		{"TrailingZeros64", 64, func(x uint64) uint64 { return uint64(bits.TrailingZeros64(x)) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				n, t := BitsTrailingZeros64(V[uint64]{x, s})
				return uint64(n), t
			}},
		{"RotateLeft 13", 64, func(x uint64) uint64 { return uint64(bits.RotateLeft(uint(x), 13)) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				return wrapU(BitsRotateLeft(V[uint]{uint(x), s}, V[int]{C: 13}))
			}},
		{"RotateLeft8 -3", 8, func(x uint64) uint64 { return uint64(bits.RotateLeft8(uint8(x), -3)) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				return wrapU(BitsRotateLeft8(V[uint8]{uint8(x), s}, V[int]{C: -3}))
			}},
		{"RotateLeft16 21", 16, func(x uint64) uint64 { return uint64(bits.RotateLeft16(uint16(x), 21)) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				return wrapU(BitsRotateLeft16(V[uint16]{uint16(x), s}, V[int]{C: 21}))
			}},
		{"RotateLeft32 -7", 32, func(x uint64) uint64 { return uint64(bits.RotateLeft32(uint32(x), -7)) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				return wrapU(BitsRotateLeft32(V[uint32]{uint32(x), s}, V[int]{C: -7}))
			}},
		{"RotateLeft64 64", 64, func(x uint64) uint64 { return bits.RotateLeft64(x, 64) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				return wrapU(BitsRotateLeft64(V[uint64]{x, s}, V[int]{C: 64}))
			}},
		{"ReverseBytes16", 16, func(x uint64) uint64 { return uint64(bits.ReverseBytes16(uint16(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				return wrapU(BitsReverseBytes16(V[uint16]{uint16(x), s}))
			}},
		{"ReverseBytes32", 32, func(x uint64) uint64 { return uint64(bits.ReverseBytes32(uint32(x))) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) {
				return wrapU(BitsReverseBytes32(V[uint32]{uint32(x), s}))
			}},
		{"ReverseBytes64", 64, func(x uint64) uint64 { return bits.ReverseBytes64(x) },
			func(x uint64, s *sym.Expr) (uint64, *sym.Expr) { return wrapU(BitsReverseBytes64(V[uint64]{x, s})) }},
	}
	rng := rand.New(rand.NewPCG(9, 10))
	randBits := func(w uint8) uint64 {
		// Uniform values are almost never small; shift some down so every
		// bit length occurs.
		x := rng.Uint64() & sym.Mask(w)
		return x >> rng.IntN(int(w)+1)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			own(t)
			x := st.b.Var(1, tc.width)
			x0 := randBits(tc.width)
			c, term := tc.model(x0, x)
			if c != tc.real(x0) {
				t.Fatalf("%#x: concrete %d, want %d", x0, c, tc.real(x0))
			}
			for _, v := range append([]uint64{0, 1, sym.Mask(tc.width)}, func() []uint64 {
				var vs []uint64
				for range 2000 {
					vs = append(vs, randBits(tc.width))
				}
				return vs
			}()...) {
				want := tc.real(v) & sym.Mask(term.Width)
				if got := sym.Eval(term, sym.Env{1: v}); got != want {
					t.Fatalf("term at %#x = %d, want %d", v, got, want)
				}
			}
		})
	}
}

func wrapU[T unsigned](c T, s *sym.Expr) (uint64, *sym.Expr) { return uint64(c), s }

func TestByteOrderModels(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		real  func([]byte) uint64
		model func(site uint32, p V[[]byte]) (uint64, *sym.Expr)
	}{
		{"BigEndian.Uint16", 2, func(p []byte) uint64 { return uint64(binary.BigEndian.Uint16(p)) },
			func(site uint32, p V[[]byte]) (uint64, *sym.Expr) { return wrapU(BinaryBigEndianUint16(site, p)) }},
		{"BigEndian.Uint32", 4, func(p []byte) uint64 { return uint64(binary.BigEndian.Uint32(p)) },
			func(site uint32, p V[[]byte]) (uint64, *sym.Expr) { return wrapU(BinaryBigEndianUint32(site, p)) }},
		{"BigEndian.Uint64", 8, func(p []byte) uint64 { return binary.BigEndian.Uint64(p) },
			func(site uint32, p V[[]byte]) (uint64, *sym.Expr) { return wrapU(BinaryBigEndianUint64(site, p)) }},
		{"LittleEndian.Uint16", 2, func(p []byte) uint64 { return uint64(binary.LittleEndian.Uint16(p)) },
			func(site uint32, p V[[]byte]) (uint64, *sym.Expr) { return wrapU(BinaryLittleEndianUint16(site, p)) }},
		{"LittleEndian.Uint32", 4, func(p []byte) uint64 { return uint64(binary.LittleEndian.Uint32(p)) },
			func(site uint32, p V[[]byte]) (uint64, *sym.Expr) { return wrapU(BinaryLittleEndianUint32(site, p)) }},
		{"LittleEndian.Uint64", 8, func(p []byte) uint64 { return binary.LittleEndian.Uint64(p) },
			func(site uint32, p V[[]byte]) (uint64, *sym.Expr) { return wrapU(BinaryLittleEndianUint64(site, p)) }},
	}
	rng := rand.New(rand.NewPCG(11, 12))
	randBytes := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			own(t)
			x := newSymString(100)
			p0 := randBytes(modelMaxLen)
			st.path = st.path[:0]
			c, term := tc.model(3, V[[]byte]{C: p0, S: x.agg})
			if c != tc.real(p0) {
				t.Fatalf("concrete %#x, want %#x", c, tc.real(p0))
			}
			if len(st.path) != 1 || st.path[0].Site != 3 || !st.path[0].Taken {
				t.Fatalf("recorded %+v, want the length check at site 3, passed", st.path)
			}
			for range 1000 {
				p := randBytes(tc.n + rng.IntN(modelMaxLen-tc.n+1))
				env := sym.Env{}
				x.set(env, string(p))
				if got, want := sym.Eval(term, env), tc.real(p); got != want {
					t.Fatalf("term at %x = %#x, want %#x", p, got, want)
				}
				if !sym.Holds(st.path[0].Cond, env) {
					t.Fatalf("length check fails at %x (%d bytes)", p, len(p))
				}
			}
			short := sym.Env{}
			x.set(short, string(randBytes(tc.n-1)))
			if sym.Holds(st.path[0].Cond, short) {
				t.Fatalf("length check holds for %d bytes", tc.n-1)
			}
			// A short slice panics as the library does, after recording the
			// failing check.
			st.path = st.path[:0]
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("no panic on a short slice")
					}
				}()
				tc.model(3, V[[]byte]{C: p0[:tc.n-1], S: x.agg})
			}()
			if len(st.path) != 1 || st.path[0].Taken {
				t.Errorf("short slice recorded %+v, want the failed length check", st.path)
			}
		})
	}
}

func TestMathModels(t *testing.T) {
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -2.5, math.Inf(1), math.Inf(-1), math.NaN(),
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64}
	rng := rand.New(rand.NewPCG(13, 14))
	points := append([]float64{}, specials...)
	for range 2000 {
		points = append(points, math.Float64frombits(rng.Uint64()), rng.NormFloat64()*1e3)
	}
	tests := []struct {
		name  string
		real  func(x float64) uint64
		model func(x V[float64]) (uint64, *sym.Expr)
	}{
		{"Abs", func(x float64) uint64 { return math.Float64bits(math.Abs(x)) },
			func(x V[float64]) (uint64, *sym.Expr) { r, s := MathAbs(x); return math.Float64bits(r), s }},
		{"Signbit", func(x float64) uint64 { return b2u(math.Signbit(x)) },
			func(x V[float64]) (uint64, *sym.Expr) { r, s := MathSignbit(x); return b2u(r), s }},
		{"Float64bits", math.Float64bits,
			func(x V[float64]) (uint64, *sym.Expr) { return MathFloat64bits(x) }},
		{"Float64frombits", math.Float64bits, // frombits of the bits: the same float
			func(x V[float64]) (uint64, *sym.Expr) {
				r, s := MathFloat64frombits(V[uint64]{C: math.Float64bits(x.C), S: x.S})
				return math.Float64bits(r), s
			}},
		{"IsNaN", func(x float64) uint64 { return b2u(math.IsNaN(x)) },
			func(x V[float64]) (uint64, *sym.Expr) { r, s := MathIsNaN(x); return b2u(r), s }},
	}
	for _, sign := range []int{-1, 0, 1} {
		tests = append(tests, struct {
			name  string
			real  func(x float64) uint64
			model func(x V[float64]) (uint64, *sym.Expr)
		}{"IsInf " + strconv.Itoa(sign), func(x float64) uint64 { return b2u(math.IsInf(x, sign)) },
			func(x V[float64]) (uint64, *sym.Expr) { r, s := MathIsInf(x, V[int]{C: sign}); return b2u(r), s }})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			own(t)
			x := st.b.Var(1, 64)
			c, term := tc.model(V[float64]{C: -2.5, S: x})
			if c != tc.real(-2.5) {
				t.Fatalf("concrete %#x, want %#x", c, tc.real(-2.5))
			}
			for _, p := range points {
				// NaN payloads: Abs keeps them, so compare bits throughout.
				if got, want := sym.Eval(term, sym.Env{1: math.Float64bits(p)}), tc.real(p); got != want {
					t.Fatalf("term at %v (%#x) = %#x, want %#x", p, math.Float64bits(p), got, want)
				}
			}
		})
	}
}

func TestTrimSpaceModel(t *testing.T) {
	own(t)
	r := rand.New(rand.NewPCG(15, 16))
	spacey := func() string {
		const alphabet = " \t\n\v\f\rab\x85\xc2\xa0"
		n := r.IntN(modelMaxLen + 1)
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	decode := func(agg *sym.Expr, env sym.Env) string {
		n := sym.Eval(aggLen(agg), env)
		var out []byte
		for k := uint64(0); k < n && int(k) < len(aggBytes(agg)); k++ {
			out = append(out, byte(sym.Eval(aggBytes(agg)[k], env)))
		}
		return string(out)
	}
	for range 30 {
		s0 := spacey()
		x := newSymString(100)
		c, term := StringsTrimSpace(strings.TrimSpace, V[string]{C: s0, S: x.agg})
		if c != strings.TrimSpace(s0) {
			t.Fatalf("%q: concrete %q", s0, c)
		}
		for range 300 {
			s := spacey()
			env := sym.Env{}
			x.set(env, s)
			want := strings.TrimSpace(s)
			if !isASCII(s) {
				want = c
			}
			if got := decode(term, env); got != want {
				t.Fatalf("built at %q: term at %q = %q, want %q", s0, s, got, want)
			}
		}
	}
}

func TestFloat32BitsModels(t *testing.T) {
	own(t)
	rng := rand.New(rand.NewPCG(17, 18))
	x := st.b.Var(1, 32)
	c, term := MathFloat32bits(V[float32]{C: -1.5, S: x})
	if c != math.Float32bits(-1.5) {
		t.Fatalf("Float32bits concrete %#x", c)
	}
	back, term2 := MathFloat32frombits(V[uint32]{C: c, S: term})
	if back != -1.5 {
		t.Fatalf("Float32frombits concrete %v", back)
	}
	for range 1000 {
		v := rng.Uint32()
		if got := sym.Eval(term, sym.Env{1: uint64(v)}); got != uint64(math.Float32bits(math.Float32frombits(v))) {
			t.Fatalf("Float32bits term at %#x = %#x", v, got)
		}
		if got := sym.Eval(term2, sym.Env{1: uint64(v)}); got != uint64(v) {
			t.Fatalf("Float32frombits term at %#x = %#x", v, got)
		}
	}
}

// TestBitsMul64 checks both words of the Mul64 model against bits.Mul64
// at random and boundary points, with one or both factors symbolic.
func TestBitsMul64(t *testing.T) {
	edges := []uint64{0, 1, 1<<32 - 1, 1 << 32, 1<<64 - 1, 0x8000000000000000}
	rng := rand.New(rand.NewPCG(11, 12))
	randBits := func() uint64 { return rng.Uint64() >> rng.IntN(65) }
	for _, tc := range []struct {
		name   string
		symbY  bool
		fixedY uint64
	}{
		{"x symbolic", false, 0xd3c36113404ea4a9},
		{"both symbolic", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			own(t) // the subtest's goroutine is the one tracked
			reset(0)
			xv, yv := st.b.Var(1, 64), (*sym.Expr)(nil)
			if tc.symbY {
				yv = st.b.Var(2, 64)
			}
			x0, y0 := randBits(), tc.fixedY
			if tc.symbY {
				y0 = randBits()
			}
			hi, lo, shi, slo := BitsMul64(V[uint64]{x0, xv}, V[uint64]{y0, yv})
			if wh, wl := bits.Mul64(x0, y0); hi != wh || lo != wl {
				t.Fatalf("%#x * %#x: concrete %#x %#x, want %#x %#x", x0, y0, hi, lo, wh, wl)
			}
			for i := range 3000 {
				x, y := randBits(), randBits()
				if i < len(edges)*len(edges) {
					x, y = edges[i/len(edges)], edges[i%len(edges)]
				}
				if !tc.symbY {
					y = tc.fixedY
				}
				wh, wl := bits.Mul64(x, y)
				env := sym.Env{1: x, 2: y}
				if gh, gl := sym.Eval(shi, env), sym.Eval(slo, env); gh != wh || gl != wl {
					t.Fatalf("%#x * %#x: terms %#x %#x, want %#x %#x", x, y, gh, gl, wh, wl)
				}
			}
		})
	}
}
