// This file models the ASCII classes of unicode. Each model is given the
// library function it stands for (instrument/models.go, libModels): when
// that is a function of the instrumented copy of unicode
// (build/stdcopy.go), the copy's twin decides instead, since its terms
// hold beyond ASCII, where the model's are concrete.

package rt

import "github.com/gocolic/gocolic/sym"

// runeASCII wraps an ASCII-exact rune predicate: the term t of r holds on
// 0 <= r < 0x80.
func runeASCII(lib func(rune) bool, r V[rune], t func(x *sym.Expr) *sym.Expr) (bool, *sym.Expr) {
	if r.S != nil {
		if tw, ok := libTwin[func(V[rune]) (bool, *sym.Expr)](lib); ok {
			return tw(r)
		}
	}
	res := lib(r.C)
	if r.S == nil || !tracking() {
		return res, nil
	}
	return res, boolShadow(ult(r.S, st.b.Const(0x80, 32)), t(r.S), res)
}

// UnicodeIsDigit models unicode.IsDigit, exactly on ASCII.
func UnicodeIsDigit(lib func(rune) bool, r V[rune]) (bool, *sym.Expr) {
	return runeASCII(lib, r, func(x *sym.Expr) *sym.Expr { return inRange(x, '0', '9') })
}

// UnicodeIsLetter models unicode.IsLetter, exactly on ASCII.
func UnicodeIsLetter(lib func(rune) bool, r V[rune]) (bool, *sym.Expr) {
	return runeASCII(lib, r, func(x *sym.Expr) *sym.Expr {
		return st.b.Or(inRange(x, 'a', 'z'), inRange(x, 'A', 'Z'))
	})
}

// UnicodeIsUpper models unicode.IsUpper, exactly on ASCII.
func UnicodeIsUpper(lib func(rune) bool, r V[rune]) (bool, *sym.Expr) {
	return runeASCII(lib, r, func(x *sym.Expr) *sym.Expr { return inRange(x, 'A', 'Z') })
}

// UnicodeIsLower models unicode.IsLower, exactly on ASCII.
func UnicodeIsLower(lib func(rune) bool, r V[rune]) (bool, *sym.Expr) {
	return runeASCII(lib, r, func(x *sym.Expr) *sym.Expr { return inRange(x, 'a', 'z') })
}

// UnicodeIsSpace models unicode.IsSpace, exactly on ASCII.
func UnicodeIsSpace(lib func(rune) bool, r V[rune]) (bool, *sym.Expr) {
	return runeASCII(lib, r, func(x *sym.Expr) *sym.Expr {
		return st.b.Or(inRange(x, '\t', '\r'), st.b.Eq(x, st.b.Const(' ', 32)))
	})
}
