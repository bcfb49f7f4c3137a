// This file models the ASCII classes of unicode.

package rt

import (
	"unicode"

	"github.com/gocolic/gocolic/sym"
)

// runeASCII wraps an ASCII-exact rune predicate: the term t of r holds on
// 0 <= r < 0x80.
func runeASCII(res bool, r V[rune], t func(x *sym.Expr) *sym.Expr) (bool, *sym.Expr) {
	if r.S == nil || !tracking() {
		return res, nil
	}
	return res, boolShadow(ult(r.S, st.b.Const(0x80, 32)), t(r.S), res)
}

// UnicodeIsDigit models unicode.IsDigit, exactly on ASCII.
func UnicodeIsDigit(r V[rune]) (bool, *sym.Expr) {
	return runeASCII(unicode.IsDigit(r.C), r, func(x *sym.Expr) *sym.Expr { return inRange(x, '0', '9') })
}

// UnicodeIsLetter models unicode.IsLetter, exactly on ASCII.
func UnicodeIsLetter(r V[rune]) (bool, *sym.Expr) {
	return runeASCII(unicode.IsLetter(r.C), r, func(x *sym.Expr) *sym.Expr {
		return st.b.Or(inRange(x, 'a', 'z'), inRange(x, 'A', 'Z'))
	})
}

// UnicodeIsUpper models unicode.IsUpper, exactly on ASCII.
func UnicodeIsUpper(r V[rune]) (bool, *sym.Expr) {
	return runeASCII(unicode.IsUpper(r.C), r, func(x *sym.Expr) *sym.Expr { return inRange(x, 'A', 'Z') })
}

// UnicodeIsLower models unicode.IsLower, exactly on ASCII.
func UnicodeIsLower(r V[rune]) (bool, *sym.Expr) {
	return runeASCII(unicode.IsLower(r.C), r, func(x *sym.Expr) *sym.Expr { return inRange(x, 'a', 'z') })
}

// UnicodeIsSpace models unicode.IsSpace, exactly on ASCII.
func UnicodeIsSpace(r V[rune]) (bool, *sym.Expr) {
	return runeASCII(unicode.IsSpace(r.C), r, func(x *sym.Expr) *sym.Expr {
		return st.b.Or(inRange(x, '\t', '\r'), st.b.Eq(x, st.b.Const(' ', 32)))
	})
}
