// This file implements the integer and boolean operators. Each computes the
// concrete result with Go's own operator and, when an operand is symbolic,
// the matching term.

package rt

import "github.com/gocolic/gocolic/sym"

// The operators split into a concrete half that the compiler inlines into
// the instrumented code (two nil checks) and a symbolic half that it calls
// only when an operand has a shadow. The symbolic half is passed to the
// concrete one as a parameter, not called by name, because the inliner
// prices a call of a parameter at a fraction of a call of a function: by
// name the concrete half exceeds its budget and every operator of the
// fast path costs a call (rt BenchmarkConcrete).

// bin returns r, with the term k(a, b) when an operand is symbolic.
func bin[T Integer](k sym.Kind, r T, a, b V[T], slow func(sym.Kind, T, V[T], V[T]) V[T]) V[T] {
	if a.S == nil && b.S == nil {
		return V[T]{C: r}
	}
	return slow(k, r, a, b)
}

// binSym is bin's symbolic half.
func binSym[T Integer](k sym.Kind, r T, a, b V[T]) V[T] {
	if !tracking() {
		return V[T]{C: r}
	}
	return V[T]{C: r, S: st.b.Bin(k, term(a), term(b))}
}

// Add returns a + b.
func Add[T Integer](a, b V[T]) V[T] { return bin(sym.KAdd, a.C+b.C, a, b, binSym[T]) }

// Sub returns a - b.
func Sub[T Integer](a, b V[T]) V[T] { return bin(sym.KSub, a.C-b.C, a, b, binSym[T]) }

// Mul returns a * b.
func Mul[T Integer](a, b V[T]) V[T] { return bin(sym.KMul, a.C*b.C, a, b, binSym[T]) }

// And returns a & b.
func And[T Integer](a, b V[T]) V[T] { return bin(sym.KAnd, a.C&b.C, a, b, binSym[T]) }

// Or returns a | b.
func Or[T Integer](a, b V[T]) V[T] { return bin(sym.KOr, a.C|b.C, a, b, binSym[T]) }

// Xor returns a ^ b.
func Xor[T Integer](a, b V[T]) V[T] { return bin(sym.KXor, a.C^b.C, a, b, binSym[T]) }

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
		return bin(sym.KSDiv, r, a, b, binSym[T])
	}
	return bin(sym.KUDiv, r, a, b, binSym[T])
}

// Rem returns a % b; site is the implicit division-by-zero check.
func Rem[T Integer](site uint32, a, b V[T]) V[T] {
	zeroCheck(site, b)
	r := a.C % b.C
	_, signed := widthOf[T]()
	if signed {
		return bin(sym.KSRem, r, a, b, binSym[T])
	}
	return bin(sym.KURem, r, a, b, binSym[T])
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
func Shl[T, U Integer](site uint32, a V[T], n V[U]) V[T] { return shl(site, a, n, shlSym[T, U]) }

// shl is Shl's concrete half.
func shl[T, U Integer](site uint32, a V[T], n V[U], slow func(uint32, V[T], V[U]) *sym.Expr) V[T] {
	if a.S == nil && n.S == nil {
		return V[T]{C: a.C << n.C}
	}
	t := slow(site, a, n)
	return V[T]{C: a.C << n.C, S: t} // a negative count panics here, in the caller's frame
}

// shlSym is Shl's symbolic half: it records the sign of the count and
// returns the term, leaving the shift itself, which panics on a negative
// count, to shl. A panic raised in a function called through a parameter
// would show the caller at a line of this file, and findings are told
// apart by the caller's line.
func shlSym[T, U Integer](site uint32, a V[T], n V[U]) *sym.Expr {
	if !tracking() {
		return nil
	}
	cnt := shiftCount(site, n)
	return st.b.Shift(sym.KShl, term(a), cnt)
}

// Shr returns a >> n (arithmetic for signed a); site is the implicit
// negative-count check.
func Shr[T, U Integer](site uint32, a V[T], n V[U]) V[T] { return shr(site, a, n, shrSym[T, U]) }

// shr is Shr's concrete half.
func shr[T, U Integer](site uint32, a V[T], n V[U], slow func(uint32, V[T], V[U]) *sym.Expr) V[T] {
	if a.S == nil && n.S == nil {
		return V[T]{C: a.C >> n.C}
	}
	t := slow(site, a, n)
	return V[T]{C: a.C >> n.C, S: t} // a negative count panics here, in the caller's frame
}

// shrSym is Shr's symbolic half, as shlSym is Shl's.
func shrSym[T, U Integer](site uint32, a V[T], n V[U]) *sym.Expr {
	if !tracking() {
		return nil
	}
	cnt := shiftCount(site, n)
	k := sym.KLShr
	if _, signed := widthOf[T](); signed {
		k = sym.KAShr
	}
	return st.b.Shift(k, term(a), cnt)
}

// Neg returns -a.
func Neg[T Integer](a V[T]) V[T] { return un(-a.C, a, negSym[T]) }

// un returns r, the result of a unary operator on a, or slow's result
// when a is symbolic.
func un[T, R any](r R, a V[T], slow func(V[T]) V[R]) V[R] {
	if a.S == nil {
		return V[R]{C: r}
	}
	return slow(a)
}

// negSym is Neg's symbolic half.
func negSym[T Integer](a V[T]) V[T] {
	if !tracking() {
		return V[T]{C: -a.C}
	}
	return V[T]{C: -a.C, S: st.b.Neg(a.S)}
}

// Cpl returns ^a.
func Cpl[T Integer](a V[T]) V[T] { return un(^a.C, a, cplSym[T]) }

// cplSym is Cpl's symbolic half.
func cplSym[T Integer](a V[T]) V[T] {
	if !tracking() {
		return V[T]{C: ^a.C}
	}
	return V[T]{C: ^a.C, S: st.b.Cpl(a.S)}
}

// Conv returns the Go conversion To(a) between integer types.
func Conv[To, From Integer](a V[From]) V[To] { return conv(a, convSym[To, From]) }

// conv is Conv's concrete half.
func conv[To, From Integer](a V[From], slow func(V[From]) V[To]) V[To] {
	if a.S == nil {
		return V[To]{C: To(a.C)}
	}
	return slow(a)
}

// convSym is Conv's symbolic half.
func convSym[To, From Integer](a V[From]) V[To] {
	r := To(a.C)
	if !tracking() {
		return V[To]{C: r}
	}
	w, _ := widthOf[To]()
	_, signed := widthOf[From]()
	return V[To]{C: r, S: st.b.Convert(a.S, w, signed)}
}

// ConvBool returns the Go conversion To(a) between boolean types.
func ConvBool[To, From ~bool](a V[From]) V[To] { return V[To]{C: To(a.C), S: keep(a.S)} }

func cmp[T Integer](k sym.Kind, r bool, a, b V[T], slow func(sym.Kind, bool, V[T], V[T]) V[bool]) V[bool] {
	if a.S == nil && b.S == nil {
		return V[bool]{C: r}
	}
	return slow(k, r, a, b)
}

// cmpSym is cmp's symbolic half. The callers pass the unsigned kind of
// an order, which it turns into the signed one for a signed T.
func cmpSym[T Integer](k sym.Kind, r bool, a, b V[T]) V[bool] {
	if !tracking() {
		return V[bool]{C: r}
	}
	switch k {
	case sym.KULt:
		k = signedKind[T](sym.KSLt, sym.KULt)
	case sym.KULe:
		k = signedKind[T](sym.KSLe, sym.KULe)
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
func Eq[T Integer](a, b V[T]) V[bool] { return cmp(sym.KEq, a.C == b.C, a, b, cmpSym[T]) }

// Ne returns a != b.
func Ne[T Integer](a, b V[T]) V[bool] { return cmp(sym.KEq, a.C != b.C, a, b, neSym[T]) }

// neSym is Ne's symbolic half: the negation of Eq's.
func neSym[T Integer](k sym.Kind, r bool, a, b V[T]) V[bool] {
	return notSym(cmpSym(k, !r, a, b))
}

// Lt returns a < b.
func Lt[T Integer](a, b V[T]) V[bool] {
	return cmp(sym.KULt, a.C < b.C, a, b, cmpSym[T])
}

// Le returns a <= b.
func Le[T Integer](a, b V[T]) V[bool] {
	return cmp(sym.KULe, a.C <= b.C, a, b, cmpSym[T])
}

// Gt returns a > b.
func Gt[T Integer](a, b V[T]) V[bool] { return cmp(sym.KULt, b.C < a.C, b, a, cmpSym[T]) }

// Ge returns a >= b.
func Ge[T Integer](a, b V[T]) V[bool] { return cmp(sym.KULe, b.C <= a.C, b, a, cmpSym[T]) }

// Not returns !a.
func Not[T ~bool](a V[T]) V[T] { return un(!a.C, a, notSym[T]) }

// notSym is Not's symbolic half.
func notSym[T ~bool](a V[T]) V[T] {
	if !tracking() {
		return V[T]{C: !a.C}
	}
	return V[T]{C: !a.C, S: st.b.Not(a.S)}
}

// EqBool returns a == b on booleans.
func EqBool[T ~bool](a, b V[T]) V[bool] { return eqBool(a, b, eqBoolSym[T]) }

// eqBool is EqBool's concrete half.
func eqBool[T ~bool](a, b V[T], slow func(a, b V[T]) V[bool]) V[bool] {
	if a.S == nil && b.S == nil {
		return V[bool]{C: a.C == b.C}
	}
	return slow(a, b)
}

// eqBoolSym is EqBool's symbolic half.
func eqBoolSym[T ~bool](a, b V[T]) V[bool] {
	r := a.C == b.C
	if !tracking() {
		return V[bool]{C: r}
	}
	return V[bool]{C: r, S: st.b.Eq(boolTerm(a), boolTerm(b))}
}

// NeBool returns a != b on booleans.
func NeBool[T ~bool](a, b V[T]) V[bool] { return Not(EqBool(a, b)) }

// Min returns min(a, b) for integers: b where b < a, a otherwise, which is
// the builtin's result whichever operand it picks among equal values.
func Min[T Integer](a, b V[T]) V[T] {
	if a.S == nil && b.S == nil || !tracking() {
		return V[T]{C: min(a.C, b.C)}
	}
	less := st.b.Cmp(signedKind[T](sym.KSLt, sym.KULt), term(b), term(a))
	return V[T]{C: min(a.C, b.C), S: st.b.Ite(less, term(b), term(a))}
}

// Max returns max(a, b) for integers: b where a < b, a otherwise.
func Max[T Integer](a, b V[T]) V[T] {
	if a.S == nil && b.S == nil || !tracking() {
		return V[T]{C: max(a.C, b.C)}
	}
	less := st.b.Cmp(signedKind[T](sym.KSLt, sym.KULt), term(a), term(b))
	return V[T]{C: max(a.C, b.C), S: st.b.Ite(less, term(b), term(a))}
}
