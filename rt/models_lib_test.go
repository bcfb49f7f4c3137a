package rt

import (
	"strconv"
	"testing"
	"unicode"

	"github.com/gocolic/gocolic/sym"
)

// Library functions standing for those of an instrumented copy: package
// level, so that each has a code pointer of its own to register a twin
// under.
func copyAtoi(s string) (int, error)                       { return strconv.Atoi(s) }
func copyParseInt(s string, base, bits int) (int64, error) { return strconv.ParseInt(s, base, bits) }
func copyFormatInt(i int64, base int) string               { return strconv.FormatInt(i, base) }
func copyIsUpper(r rune) bool                              { return unicode.IsUpper(r) }

// TestLibModelsHandOff checks that the strconv and unicode models call
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
	} {
		RegisterTwin(reg.lib, reg.twin)
		t.Cleanup(func() { delete(twinsByPC, funcPC(reg.lib)) })
	}
	str := func(s string) V[string] { return V[string]{C: s, S: b.String(k64(len(s)), nil)} }
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
