// This file implements the Builder: hash-consing, constant folding and the
// local rewrites that keep expressions small.

package sym

import "fmt"

// A Builder makes and shares expression nodes. Structurally equal requests
// return the same *Expr, so fast checks (is this constraint the negation of
// that one?) are pointer comparisons (seed 004 §4.5). A Builder is not safe
// for concurrent use.
type Builder struct {
	table map[nodeKey]*Expr
	next  uint32
}

// nodeKey identifies a node by its operator and its arguments' numbers.
// Every shared node has at most three arguments; the key is three words
// without padding, which the map hashes as plain memory.
type nodeKey struct {
	head uint64 // kind<<56 | width<<48 | third argument
	val  uint64
	args uint64 // first argument<<32 | second
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder {
	return &Builder{table: make(map[nodeKey]*Expr, 64)}
}

// Len returns the number of distinct nodes made so far.
func (b *Builder) Len() int { return len(b.table) }

// Reset forgets all nodes. Nodes made before stay valid but are no longer
// shared with nodes made after; numbering goes on, so IDs stay unique.
func (b *Builder) Reset() {
	// Clearing costs the map's capacity, not its length: drop a table
	// that one large execution grew.
	if len(b.table) > 1<<14 {
		b.table = make(map[nodeKey]*Expr, 64)
		return
	}
	clear(b.table)
}

// mustBV panics unless x is a bit-vector term.
func mustBV(x *Expr) {
	if x.Width == 0 || x.Kind == KString {
		panic("sym: bit-vector operation on " + x.Kind.String())
	}
}

// mustBool panics unless x is a boolean term.
func mustBool(x *Expr) {
	if !x.IsBool() {
		panic("sym: boolean operation on a bit-vector")
	}
}

func (b *Builder) intern(k Kind, w uint8, val uint64, args ...*Expr) *Expr {
	var a [3]uint64
	for i, x := range args {
		a[i] = uint64(x.id)
	}
	key := nodeKey{head: uint64(k)<<56 | uint64(w)<<48 | a[2], val: val, args: a[0]<<32 | a[1]}
	if e, ok := b.table[key]; ok {
		return e
	}
	b.next++
	e := &Expr{Kind: k, Width: w, Val: val, id: b.next}
	if len(args) > 0 {
		// The arguments live in the node itself: one allocation, not two.
		n := copy(e.argBuf[:], args)
		e.Args = e.argBuf[:n:n]
	}
	e.max = upperBound(e)
	b.table[key] = e
	return e
}

// Const returns the bit-vector constant v of width w (v is truncated).
func (b *Builder) Const(v uint64, w uint8) *Expr {
	mustWidth(w)
	return b.intern(KConst, w, v&Mask(w))
}

// Bool returns the boolean constant v.
func (b *Builder) Bool(v bool) *Expr {
	if v {
		return b.intern(KTrue, 0, 0)
	}
	return b.intern(KFalse, 0, 0)
}

// Var returns input variable number n of width w (0 for a boolean input).
func (b *Builder) Var(n uint64, w uint8) *Expr {
	if w != 0 {
		mustWidth(w)
	}
	return b.intern(KVar, w, n)
}

func mustWidth(w uint8) {
	switch w {
	case 8, 16, 32, 64:
		return
	}
	panic(fmt.Sprintf("sym: bad bit-vector width %d", w))
}

// Bin returns the binary bit-vector operation k applied to x and y, which
// must have the same width.
func (b *Builder) Bin(k Kind, x, y *Expr) *Expr {
	if !k.IsBinaryBV() {
		panic("sym: Bin with non-binary kind " + k.String())
	}
	if x.Width != y.Width || x.Width == 0 {
		panic(fmt.Sprintf("sym: %s on widths %d and %d", k, x.Width, y.Width))
	}
	w := x.Width
	if x.Kind == KConst && y.Kind == KConst {
		return b.Const(evalBin(k, x.Val, y.Val, w), w)
	}
	// Commutative operations keep constants on the right, so that x+1 and
	// 1+x share one node.
	if x.Kind == KConst && isCommutative(k) {
		x, y = y, x
	}
	if y.Kind == KConst {
		c := y.Val
		switch {
		case c == 0 && (k == KAdd || k == KSub || k == KOr || k == KXor || k == KShl || k == KLShr || k == KAShr):
			return x
		case c == 0 && (k == KMul || k == KAnd):
			return y
		case c == 1 && (k == KMul || k == KUDiv || k == KSDiv):
			return x
		case c == Mask(w) && k == KAnd:
			return x
		case k == KSub:
			// x - c == x + (-c): one canonical form for offsets.
			return b.Bin(KAdd, x, b.Const(-c, w))
		case k == KAdd && x.Kind == KAdd && x.Args[1].Kind == KConst:
			// (x + c1) + c2 == x + (c1+c2)
			return b.Bin(KAdd, x.Args[0], b.Const(x.Args[1].Val+c, w))
		}
	}
	if x == y {
		switch k {
		case KSub, KXor:
			return b.Const(0, w)
		case KAnd, KOr:
			return x
		}
	}
	if e, ok := b.narrowBin(k, x, y); ok {
		return e
	}
	return b.intern(k, w, 0, x, y)
}

func isCommutative(k Kind) bool {
	switch k {
	case KAdd, KMul, KAnd, KOr, KXor:
		return true
	}
	return false
}

// Add returns x + y.
func (b *Builder) Add(x, y *Expr) *Expr { return b.Bin(KAdd, x, y) }

// Sub returns x - y.
func (b *Builder) Sub(x, y *Expr) *Expr { return b.Bin(KSub, x, y) }

// Neg returns -x (two's complement).
func (b *Builder) Neg(x *Expr) *Expr {
	mustBV(x)
	if x.Kind == KConst {
		return b.Const(-x.Val, x.Width)
	}
	if x.Kind == KNeg {
		return x.Args[0]
	}
	return b.intern(KNeg, x.Width, 0, x)
}

// Cpl returns the bitwise complement ^x.
func (b *Builder) Cpl(x *Expr) *Expr {
	mustBV(x)
	if x.Kind == KConst {
		return b.Const(^x.Val, x.Width)
	}
	if x.Kind == KCpl {
		return x.Args[0]
	}
	return b.intern(KCpl, x.Width, 0, x)
}

// Shift returns x shifted by the unsigned amount y with Go's rules: k is
// KShl, KLShr or KAShr, y may have any width, and an amount of at least the
// width of x shifts every bit out (all sign bits for KAShr).
func (b *Builder) Shift(k Kind, x, y *Expr) *Expr {
	w := x.Width
	switch {
	case y.Width == w:
		return b.Bin(k, x, y)
	case y.Width < w:
		return b.Bin(k, x, b.ZExt(y, w))
	}
	// y is wider than x: truncating it would wrap large amounts around.
	over := b.Cmp(KULe, b.Const(uint64(w), y.Width), y)
	var full *Expr
	if k == KAShr {
		full = b.Bin(KAShr, x, b.Const(uint64(w-1), w))
	} else {
		full = b.Const(0, w)
	}
	return b.Ite(over, full, b.Bin(k, x, b.Trunc(y, w)))
}

// ZExt zero-extends x to width w (w >= x.Width).
func (b *Builder) ZExt(x *Expr, w uint8) *Expr { return b.resize(KZExt, x, w) }

// SExt sign-extends x to width w (w >= x.Width).
func (b *Builder) SExt(x *Expr, w uint8) *Expr { return b.resize(KSExt, x, w) }

// Trunc keeps the low w bits of x (w <= x.Width).
func (b *Builder) Trunc(x *Expr, w uint8) *Expr { return b.resize(KTrunc, x, w) }

func (b *Builder) resize(k Kind, x *Expr, w uint8) *Expr {
	mustWidth(w)
	mustBV(x)
	if x.Width == w {
		return x
	}
	if (k == KTrunc) != (w < x.Width) {
		panic(fmt.Sprintf("sym: %s from width %d to %d", k, x.Width, w))
	}
	if x.Kind == KConst {
		return b.Const(evalResize(k, x.Val, x.Width, w), w)
	}
	switch {
	case k == KTrunc && (x.Kind == KZExt || x.Kind == KSExt) && x.Args[0].Width == w:
		return x.Args[0] // trunc(ext(y)) == y
	case k == KTrunc && (x.Kind == KZExt || x.Kind == KSExt) && x.Args[0].Width < w:
		return b.resize(x.Kind, x.Args[0], w) // trunc16(zext64(y:8)) == zext16(y)
	case k == KTrunc && x.Kind == KTrunc:
		return b.Trunc(x.Args[0], w)
	case k != KTrunc && x.Kind == k:
		return b.resize(k, x.Args[0], w)
	case k == KSExt && x.Kind == KZExt:
		return b.ZExt(x.Args[0], w) // the sign bit of a zero extension is 0
	}
	return b.intern(k, w, 0, x)
}

// Convert changes the width of x as a Go integer conversion does: the
// source's signedness decides how a narrower value is extended.
func (b *Builder) Convert(x *Expr, w uint8, fromSigned bool) *Expr {
	switch {
	case w == x.Width:
		return x
	case w < x.Width:
		return b.Trunc(x, w)
	case fromSigned:
		return b.SExt(x, w)
	default:
		return b.ZExt(x, w)
	}
}

// Ite returns c ? x : y.
func (b *Builder) Ite(c, x, y *Expr) *Expr {
	mustBool(c)
	switch {
	case c.Kind == KTrue || x == y:
		return x
	case c.Kind == KFalse:
		return y
	case c.Kind == KNot:
		return b.Ite(c.Args[0], y, x)
	}
	if x.Width != y.Width {
		panic("sym: ite branches of different sorts")
	}
	if x.Width == 0 {
		switch {
		case x.Kind == KTrue && y.Kind == KFalse:
			return c
		case x.Kind == KFalse && y.Kind == KTrue:
			return b.Not(c)
		}
	}
	return b.intern(KIte, x.Width, 0, c, x, y)
}

// Cmp returns the comparison k (KEq, KULt, KULe, KSLt or KSLe) of x and y.
func (b *Builder) Cmp(k Kind, x, y *Expr) *Expr {
	if !k.IsCompare() {
		panic("sym: Cmp with kind " + k.String())
	}
	if x.Width != y.Width || (x.Width == 0 && k != KEq) {
		panic(fmt.Sprintf("sym: %s on widths %d and %d", k, x.Width, y.Width))
	}
	if x.IsConst() && y.IsConst() {
		return b.Bool(evalCmp(k, constVal(x), constVal(y), x.Width))
	}
	if x == y {
		return b.Bool(k == KEq || k == KULe || k == KSLe)
	}
	if x.Width == 0 { // boolean equality
		switch {
		case y.Kind == KTrue:
			return x
		case y.Kind == KFalse:
			return b.Not(x)
		case x.Kind == KTrue:
			return y
		case x.Kind == KFalse:
			return b.Not(y)
		}
	}
	if k == KEq && x.Kind == KConst {
		x, y = y, x // constants on the right
	}
	if k == KEq && y.Kind == KConst {
		switch x.Kind {
		case KAdd: // x' + c1 == c2  <=>  x' == c2 - c1
			if x.Args[1].Kind == KConst {
				return b.Cmp(KEq, x.Args[0], b.Const(y.Val-x.Args[1].Val, x.Width))
			}
		case KZExt: // zext(x') == c  <=>  x' == c when c fits, else false
			inner := x.Args[0]
			if y.Val&^Mask(inner.Width) != 0 {
				return b.Bool(false)
			}
			return b.Cmp(KEq, inner, b.Const(y.Val, inner.Width))
		case KSExt:
			inner := x.Args[0]
			if uint64(SignExtend(y.Val&Mask(inner.Width), inner.Width))&Mask(x.Width) != y.Val {
				return b.Bool(false)
			}
			return b.Cmp(KEq, inner, b.Const(y.Val, inner.Width))
		}
	}
	if e, ok := b.narrowCmp(k, x, y); ok {
		return e
	}
	// Unsigned bounds that always or never hold.
	if y.Kind == KConst {
		switch {
		case k == KULt && y.Val == 0:
			return b.Bool(false)
		case k == KULe && y.Val == Mask(y.Width):
			return b.Bool(true)
		}
	}
	if x.Kind == KConst {
		switch {
		case k == KULe && x.Val == 0:
			return b.Bool(true)
		case k == KULt && x.Val == Mask(x.Width):
			return b.Bool(false)
		}
	}
	return b.intern(k, 0, 0, x, y)
}

func constVal(e *Expr) uint64 {
	if e.Kind == KTrue {
		return 1
	}
	return e.Val
}

// Eq returns x == y.
func (b *Builder) Eq(x, y *Expr) *Expr { return b.Cmp(KEq, x, y) }

// Not returns the boolean negation of c.
func (b *Builder) Not(c *Expr) *Expr {
	switch c.Kind {
	case KTrue:
		return b.Bool(false)
	case KFalse:
		return b.Bool(true)
	case KNot:
		return c.Args[0]
	}
	if c.Width != 0 {
		panic("sym: Not of a bit-vector")
	}
	return b.intern(KNot, 0, 0, c)
}

// And returns c && d.
func (b *Builder) And(c, d *Expr) *Expr {
	mustBool(c)
	mustBool(d)
	switch {
	case c.Kind == KFalse || d.Kind == KFalse:
		return b.Bool(false)
	case c.Kind == KTrue:
		return d
	case d.Kind == KTrue || c == d:
		return c
	}
	return b.intern(KLAnd, 0, 0, c, d)
}

// Or returns c || d.
func (b *Builder) Or(c, d *Expr) *Expr {
	mustBool(c)
	mustBool(d)
	switch {
	case c.Kind == KTrue || d.Kind == KTrue:
		return b.Bool(true)
	case c.Kind == KFalse:
		return d
	case d.Kind == KFalse || c == d:
		return c
	}
	return b.intern(KLOr, 0, 0, c, d)
}

// String returns the aggregate of a string or byte slice: its length and
// its known bytes. It is a runtime value, never a solver term, and unlike
// every other node it is not shared: each call makes a new node.
func (b *Builder) String(length *Expr, bytes []*Expr) *Expr {
	if length.Width != 64 || length.Kind == KString {
		panic("sym: string length must be a 64-bit term")
	}
	for _, c := range bytes {
		if c.Width != 8 || c.Kind == KString {
			panic("sym: string bytes must be 8-bit terms")
		}
	}
	args := make([]*Expr, 0, len(bytes)+1)
	args = append(args, length)
	args = append(args, bytes...)
	// Aggregates are not shared: they are made on every string operation
	// of the target, and a key over dozens of arguments costs more than
	// the sharing saves. Equal aggregates are still compared bytewise.
	b.next++
	return &Expr{Kind: KString, Width: 64, Args: args, id: b.next}
}

// Make rebuilds a node of kind k from arguments made by this Builder, with
// the same simplifications as the typed constructors. Decoders use it.
func (b *Builder) Make(k Kind, w uint8, val uint64, args []*Expr) (*Expr, error) {
	need := func(n int) error {
		if len(args) != n {
			return fmt.Errorf("sym: %s needs %d arguments, has %d", k, n, len(args))
		}
		return nil
	}
	switch {
	case k == KConst || k == KTrue || k == KFalse || k == KVar:
		if err := need(0); err != nil {
			return nil, err
		}
	}
	switch {
	case k == KConst:
		if w == 0 || w > 64 {
			return nil, fmt.Errorf("sym: constant of width %d", w)
		}
		return b.Const(val, w), nil
	case k == KTrue:
		return b.Bool(true), nil
	case k == KFalse:
		return b.Bool(false), nil
	case k == KVar:
		return b.Var(val, w), nil
	case k.IsBinaryBV():
		if err := need(2); err != nil {
			return nil, err
		}
		if args[0].Width != args[1].Width || args[0].Width == 0 {
			return nil, fmt.Errorf("sym: %s on widths %d and %d", k, args[0].Width, args[1].Width)
		}
		return b.Bin(k, args[0], args[1]), nil
	case k == KNeg, k == KCpl, k == KNot:
		if err := need(1); err != nil {
			return nil, err
		}
		switch k {
		case KNeg:
			return b.Neg(args[0]), nil
		case KCpl:
			return b.Cpl(args[0]), nil
		}
		return b.Not(args[0]), nil
	case k == KZExt, k == KSExt, k == KTrunc:
		if err := need(1); err != nil {
			return nil, err
		}
		return b.resize(k, args[0], w), nil
	case k == KIte:
		if err := need(3); err != nil {
			return nil, err
		}
		return b.Ite(args[0], args[1], args[2]), nil
	case k.IsCompare():
		if err := need(2); err != nil {
			return nil, err
		}
		return b.Cmp(k, args[0], args[1]), nil
	case k == KLAnd, k == KLOr:
		if err := need(2); err != nil {
			return nil, err
		}
		if k == KLAnd {
			return b.And(args[0], args[1]), nil
		}
		return b.Or(args[0], args[1]), nil
	case k == KCall:
		return b.makeCall(val, w, args)
	case k == KString:
		if len(args) == 0 {
			return nil, fmt.Errorf("sym: string without length")
		}
		return b.String(args[0], args[1:]), nil
	case k.IsFloatArith(), k.IsFloatCompare():
		if err := need(2); err != nil {
			return nil, err
		}
		if k.IsFloatArith() {
			return b.FBin(k, args[0], args[1]), nil
		}
		return b.FCmp(k, args[0], args[1]), nil
	case k == KFNeg:
		if err := need(1); err != nil {
			return nil, err
		}
		return b.FNeg(args[0]), nil
	case k.IsFloatConvert():
		if err := need(1); err != nil {
			return nil, err
		}
		switch k {
		case KFToS, KFToU:
			return b.FToInt(args[0], w, k == KFToS), nil
		case KSToF, KUToF:
			return b.IntToF(args[0], w, k == KSToF), nil
		}
		return b.FConv(args[0], w), nil
	}
	return nil, fmt.Errorf("sym: unknown kind %d", k)
}
