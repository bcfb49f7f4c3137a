// This file implements the integer and boolean operators. Each computes the
// concrete result with Go's own operator and, when an operand is symbolic,
// the matching term.

package rt

import "github.com/gocolic/gocolic/sym"

func bin[T Integer](k sym.Kind, r T, a, b V[T]) V[T] {
	if a.S == nil && b.S == nil || !tracking() {
		return V[T]{C: r}
	}
	return V[T]{C: r, S: st.b.Bin(k, term(a), term(b))}
}

// Add returns a + b.
func Add[T Integer](a, b V[T]) V[T] { return bin(sym.KAdd, a.C+b.C, a, b) }

// Sub returns a - b.
func Sub[T Integer](a, b V[T]) V[T] { return bin(sym.KSub, a.C-b.C, a, b) }

// Mul returns a * b.
func Mul[T Integer](a, b V[T]) V[T] { return bin(sym.KMul, a.C*b.C, a, b) }

// And returns a & b.
func And[T Integer](a, b V[T]) V[T] { return bin(sym.KAnd, a.C&b.C, a, b) }

// Or returns a | b.
func Or[T Integer](a, b V[T]) V[T] { return bin(sym.KOr, a.C|b.C, a, b) }

// Xor returns a ^ b.
func Xor[T Integer](a, b V[T]) V[T] { return bin(sym.KXor, a.C^b.C, a, b) }

// AndNot returns a &^ b.
func AndNot[T Integer](a, b V[T]) V[T] {
	r := a.C &^ b.C
	if a.S == nil && b.S == nil || !tracking() {
		return V[T]{C: r}
	}
	return V[T]{C: r, S: st.b.Bin(sym.KAnd, term(a), st.b.Cpl(term(b)))}
}

// zeroCheck records the implicit branch "divisor == 0" of a division at
// site; its true side panics.
func zeroCheck[T Integer](site uint32, b V[T]) {
	zero := b.C == 0
	if b.S != nil && tracking() {
		w, _ := widthOf[T]()
		record(site, zero, st.b.Eq(b.S, st.b.Const(0, w)))
	}
}

// Quo returns a / b; site is the implicit division-by-zero check.
func Quo[T Integer](site uint32, a, b V[T]) V[T] {
	zeroCheck(site, b)
	r := a.C / b.C // panics on zero, as the original does
	_, signed := widthOf[T]()
	if signed {
		return bin(sym.KSDiv, r, a, b)
	}
	return bin(sym.KUDiv, r, a, b)
}

// Rem returns a % b; site is the implicit division-by-zero check.
func Rem[T Integer](site uint32, a, b V[T]) V[T] {
	zeroCheck(site, b)
	r := a.C % b.C
	_, signed := widthOf[T]()
	if signed {
		return bin(sym.KSRem, r, a, b)
	}
	return bin(sym.KURem, r, a, b)
}

// shiftCount records the implicit "negative shift amount" branch of a
// signed shift count at site, and returns the count as an unsigned term.
// The caller has checked that the goroutine tracks.
func shiftCount[U Integer](site uint32, n V[U]) *sym.Expr {
	w, signed := widthOf[U]()
	if signed && n.S != nil {
		record(site, n.C < 0, st.b.Cmp(sym.KSLt, n.S, st.b.Const(0, w)))
	}
	return term(n)
}

// Shl returns a << n; site is the implicit negative-count check.
func Shl[T, U Integer](site uint32, a V[T], n V[U]) V[T] {
	if a.S == nil && n.S == nil || !tracking() {
		return V[T]{C: a.C << n.C}
	}
	cnt := shiftCount(site, n)
	r := a.C << n.C // panics on a negative count, after the branch is recorded
	return V[T]{C: r, S: st.b.Shift(sym.KShl, term(a), cnt)}
}

// Shr returns a >> n (arithmetic for signed a); site is the implicit
// negative-count check.
func Shr[T, U Integer](site uint32, a V[T], n V[U]) V[T] {
	if a.S == nil && n.S == nil || !tracking() {
		return V[T]{C: a.C >> n.C}
	}
	cnt := shiftCount(site, n)
	r := a.C >> n.C
	k := sym.KLShr
	if _, signed := widthOf[T](); signed {
		k = sym.KAShr
	}
	return V[T]{C: r, S: st.b.Shift(k, term(a), cnt)}
}

// Neg returns -a.
func Neg[T Integer](a V[T]) V[T] {
	if a.S == nil || !tracking() {
		return V[T]{C: -a.C}
	}
	return V[T]{C: -a.C, S: st.b.Neg(a.S)}
}

// Cpl returns ^a.
func Cpl[T Integer](a V[T]) V[T] {
	if a.S == nil || !tracking() {
		return V[T]{C: ^a.C}
	}
	return V[T]{C: ^a.C, S: st.b.Cpl(a.S)}
}

// Conv returns the Go conversion To(a) between integer types.
func Conv[To, From Integer](a V[From]) V[To] {
	r := To(a.C)
	if a.S == nil || !tracking() {
		return V[To]{C: r}
	}
	w, _ := widthOf[To]()
	_, signed := widthOf[From]()
	return V[To]{C: r, S: st.b.Convert(a.S, w, signed)}
}

// ConvBool returns the Go conversion To(a) between boolean types.
func ConvBool[To, From ~bool](a V[From]) V[To] { return V[To]{C: To(a.C), S: keep(a.S)} }

func cmp[T Integer](k sym.Kind, r bool, a, b V[T]) V[bool] {
	if a.S == nil && b.S == nil || !tracking() {
		return V[bool]{C: r}
	}
	return V[bool]{C: r, S: st.b.Cmp(k, term(a), term(b))}
}

func signedKind[T Integer](s, u sym.Kind) sym.Kind {
	if _, signed := widthOf[T](); signed {
		return s
	}
	return u
}

// Eq returns a == b.
func Eq[T Integer](a, b V[T]) V[bool] { return cmp(sym.KEq, a.C == b.C, a, b) }

// Ne returns a != b.
func Ne[T Integer](a, b V[T]) V[bool] { return Not(Eq(a, b)) }

// Lt returns a < b.
func Lt[T Integer](a, b V[T]) V[bool] {
	return cmp(signedKind[T](sym.KSLt, sym.KULt), a.C < b.C, a, b)
}

// Le returns a <= b.
func Le[T Integer](a, b V[T]) V[bool] {
	return cmp(signedKind[T](sym.KSLe, sym.KULe), a.C <= b.C, a, b)
}

// Gt returns a > b.
func Gt[T Integer](a, b V[T]) V[bool] { return Lt(b, a) }

// Ge returns a >= b.
func Ge[T Integer](a, b V[T]) V[bool] { return Le(b, a) }

// Not returns !a.
func Not[T ~bool](a V[T]) V[T] {
	if a.S == nil || !tracking() {
		return V[T]{C: !a.C}
	}
	return V[T]{C: !a.C, S: st.b.Not(a.S)}
}

// EqBool returns a == b on booleans.
func EqBool[T ~bool](a, b V[T]) V[bool] {
	r := a.C == b.C
	if a.S == nil && b.S == nil || !tracking() {
		return V[bool]{C: r}
	}
	return V[bool]{C: r, S: st.b.Eq(boolTerm(a), boolTerm(b))}
}

// NeBool returns a != b on booleans.
func NeBool[T ~bool](a, b V[T]) V[bool] { return Not(EqBool(a, b)) }
