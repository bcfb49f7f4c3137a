package rt

import (
	"strconv"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gocolic/gocolic/sym"
)

// Library functions standing for those of an instrumented copy: package
// level, so that each has a code pointer of its own to register a twin
// under.
func copyAtoi(s string) (int, error)                       { return strconv.Atoi(s) }
func copyParseInt(s string, base, bits int) (int64, error) { return strconv.ParseInt(s, base, bits) }
func copyFormatInt(i int64, base int) string               { return strconv.FormatInt(i, base) }
func copyIsUpper(r rune) bool                              { return unicode.IsUpper(r) }
func copyDecodeRuneInString(s string) (rune, int)          { return utf8.DecodeRuneInString(s) }
func copyDecodeRune(p []byte) (rune, int)                  { return utf8.DecodeRune(p) }

// TestLibModelsHandOff checks that the strconv, unicode and utf8 models call
// the twin of the library function they are given, when it has one,
// exactly where they would leave the result concrete, and keep their own
// terms elsewhere; without a twin they run as before.
func TestLibModelsHandOff(t *testing.T) {
	b := st.b
	called := false
	mark := b.Var(99, 64)
	for _, reg := range []struct{ lib, twin any }{
		{copyAtoi, func(s V[string]) (int, error, *sym.Expr) {
			called = true
			n, err := strconv.Atoi(s.C)
			return n, err, mark
		}},
		{copyParseInt, func(s V[string], base, bits V[int]) (int64, error, *sym.Expr) {
			called = true
			n, err := strconv.ParseInt(s.C, base.C, bits.C)
			return n, err, mark
		}},
		{copyFormatInt, func(i V[int64], base V[int]) (string, *sym.Expr) {
			called = true
			return strconv.FormatInt(i.C, base.C), mark
		}},
		{copyIsUpper, func(r V[rune]) (bool, *sym.Expr) { called = true; return unicode.IsUpper(r.C), mark }},
		{copyDecodeRuneInString, func(s V[string]) (rune, int, *sym.Expr, *sym.Expr) {
			called = true
			r, n := utf8.DecodeRuneInString(s.C)
			return r, n, mark, mark
		}},
		{copyDecodeRune, func(p V[[]byte]) (rune, int, *sym.Expr, *sym.Expr) {
			called = true
			r, n := utf8.DecodeRune(p.C)
			return r, n, mark, mark
		}},
	} {
		RegisterTwin(reg.lib, reg.twin)
		t.Cleanup(func() { delete(twinsByPC, funcPC(reg.lib)) })
	}
	str := func(s string) V[string] { return V[string]{C: s, S: b.String(k64(len(s)), nil)} }
	// full has a term for each of its bytes.
	full := func(s string) V[string] {
		bs := make([]*sym.Expr, len(s))
		for i := range bs {
			bs[i] = b.Var(uint64(10+i), 8)
		}
		return V[string]{C: s, S: b.String(b.Var(9, 64), bs)}
	}
	decode := func(lib func(string) (rune, int), s V[string]) *sym.Expr {
		_, _, sh, _ := Utf8DecodeRuneInString(0, lib, s)
		return sh
	}
	decodeBytes := func(lib func([]byte) (rune, int), s V[string]) *sym.Expr {
		_, _, sh, _ := Utf8DecodeRune(0, lib, V[[]byte]{C: []byte(s.C), S: s.S})
		return sh
	}
	for _, tc := range []struct {
		name string
		call func() *sym.Expr // the result's shadow
		twin bool
	}{
		{"Atoi short", func() *sym.Expr { _, _, sh := StrconvAtoi(0, copyAtoi, str("12")); return sh }, false},
		{"Atoi long", func() *sym.Expr { _, _, sh := StrconvAtoi(0, copyAtoi, str("123456789012")); return sh }, true},
		{"Atoi no copy", func() *sym.Expr { _, _, sh := StrconvAtoi(0, strconv.Atoi, str("123456789012")); return sh }, false},
		{"ParseInt 10", func() *sym.Expr {
			_, _, sh := StrconvParseInt(0, copyParseInt, str("12"), V[int]{C: 10}, V[int]{C: 64})
			return sh
		}, false},
		{"ParseInt 16", func() *sym.Expr {
			_, _, sh := StrconvParseInt(0, copyParseInt, str("be"), V[int]{C: 16}, V[int]{C: 64})
			return sh
		}, true},
		{"ParseInt 16 no copy", func() *sym.Expr {
			_, _, sh := StrconvParseInt(0, strconv.ParseInt, str("be"), V[int]{C: 16}, V[int]{C: 64})
			return sh
		}, false},
		{"FormatInt 10", func() *sym.Expr {
			_, sh := StrconvFormatInt(copyFormatInt, V[int64]{C: 5, S: b.Var(1, 64)}, V[int]{C: 10})
			return sh
		}, false},
		{"FormatInt 16", func() *sym.Expr {
			_, sh := StrconvFormatInt(copyFormatInt, V[int64]{C: 5, S: b.Var(1, 64)}, V[int]{C: 16})
			return sh
		}, true},
		{"IsUpper", func() *sym.Expr { _, sh := UnicodeIsUpper(copyIsUpper, V[rune]{C: 'A', S: b.Var(2, 32)}); return sh }, true},
		{"DecodeRuneInString, four byte terms", func() *sym.Expr { return decode(copyDecodeRuneInString, full("€abc")) }, false},
		{"DecodeRuneInString, no byte terms", func() *sym.Expr { return decode(copyDecodeRuneInString, str("€")) }, true},
		{"DecodeRuneInString, no byte terms, no copy", func() *sym.Expr { return decode(utf8.DecodeRuneInString, str("€")) }, false},
		{"DecodeRune, four byte terms", func() *sym.Expr { return decodeBytes(copyDecodeRune, full("\U0001F600")) }, false},
		{"DecodeRune, two byte terms", func() *sym.Expr { return decodeBytes(copyDecodeRune, full("ab")) }, true},
		{"DecodeRune, two byte terms, no copy", func() *sym.Expr { return decodeBytes(utf8.DecodeRune, full("ab")) }, false},
		{"IsUpper no copy", func() *sym.Expr {
			_, sh := UnicodeIsUpper(unicode.IsUpper, V[rune]{C: 'A', S: b.Var(2, 32)})
			return sh
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			own(t) // a subtest runs on a goroutine of its own
			called = false
			sh := tc.call()
			if called != tc.twin || (sh == mark) != tc.twin {
				t.Errorf("twin called %v, its shadow returned %v; want %v", called, sh == mark, tc.twin)
			}
		})
	}
}
