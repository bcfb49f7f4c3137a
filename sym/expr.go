// Package sym is gocolic's symbolic expression language: a typed,
// hash-consed DAG of bit-vector and boolean terms with Go's exact integer
// semantics, constant folding and local simplification.
//
// The package is used on both sides of a run. Inside the worker process the
// instrumented runtime builds expressions as the target executes; the
// coordinator decodes them (see encode.go) into its own Builder and hands
// them to the explorer and the solver chain. It therefore imports only the
// standard library: its sources are copied into the build overlay of the
// user's module next to the runtime.
//
// Sorts: an expression of Width 0 is a boolean; Width 8, 16, 32 or 64 is a
// bit-vector of that many bits. Signedness is not part of the sort: like
// machine code (and Z3), the operations that differ (division, remainder,
// right shift, comparison, extension) come in signed and unsigned kinds.
// Floating-point numbers are not a sort either: a float64 is a 64-bit term
// and a float32 a 32-bit term holding the IEEE-754 encoding, and the float
// kinds (KFAdd and the following) read their operands' bits as floats. So
// math.Float64bits and math.Float64frombits are the identity, and
// everything that looks only at sorts (encoding, sharing, narrowing,
// variable slicing) is the same for floats. Float kinds follow Go on
// linux/amd64 to the bit, including NaN payloads and the results of
// out-of-range conversions to integers (see float.go).
package sym

import "fmt"

// Kind is the operator of an expression node.
type Kind uint8

// The node kinds. The comment gives the printed form (see print.go).
const (
	KInvalid Kind = iota

	KConst // 42:64 — a bit-vector constant; Val holds its bits
	KTrue  // true
	KFalse // false
	KVar   // v3:8 — input variable number Val

	// Bit-vector arithmetic; both operands and the result share one width.
	KAdd  // (x + y)
	KSub  // (x - y)
	KMul  // (x * y)
	KUDiv // (x /u y) — unsigned quotient
	KSDiv // (x /s y) — signed quotient, truncated toward zero
	KURem // (x %u y)
	KSRem // (x %s y) — sign follows the dividend, as in Go
	KAnd  // (x & y)
	KOr   // (x | y)
	KXor  // (x ^ y)
	KShl  // (x << y) — y is an unsigned amount of the same width; >= width gives 0
	KLShr // (x >>u y)
	KAShr // (x >>s y)
	KNeg  // -x
	KCpl  // ^x

	// Width changes; the node's Width is the result width.
	KZExt  // zext16(x)
	KSExt  // sext16(x)
	KTrunc // trunc8(x) — keeps the low bits

	KIte // ite(c, x, y) — c is boolean, x and y share the result sort

	// Comparisons of two bit-vectors of one width; boolean results.
	KEq  // (x == y); also on booleans
	KULt // (x <u y)
	KULe // (x <=u y)
	KSLt // (x <s y)
	KSLe // (x <=s y)

	// Boolean connectives.
	KNot  // !c
	KLAnd // (c && d)
	KLOr  // (c || d)

	// KString is an aggregate used only inside the worker runtime: a string
	// or byte slice whose Args[0] is its length (64-bit) and Args[1:] its
	// bytes (8-bit), as many as are known. It never reaches a solver.
	KString

	// Floating point (float.go). The operands are the IEEE-754 bits of
	// float32 (width 32) or float64 (width 64) values; float results are
	// bits too. Rounding is to nearest even, as in Go.
	KFAdd  // (x +f y) — operands and result share one width
	KFSub  // (x -f y)
	KFMul  // (x *f y)
	KFDiv  // (x /f y)
	KFNeg  // fneg(x) — flips the sign bit, of a NaN too, as Go's -x does
	KFEq   // (x ==f y) — IEEE: false if either is NaN; +0 ==f -0
	KFLt   // (x <f y)
	KFLe   // (x <=f y)
	KFToS  // ftos32(x) — float to signed integer of the node's width, toward zero
	KFToU  // ftou32(x) — float to unsigned integer of the node's width, toward zero
	KSToF  // stof64(x) — signed integer to float of the node's width
	KUToF  // utof64(x) — unsigned integer to float of the node's width
	KFConv // fconv32(x) — float64 to float32 (rounded) or float32 to float64 (exact)

	// KCall is an opaque call (call.go): the result of a function the
	// runtime does not track, applied to Args. Val is the function's
	// FuncID; Width is the result's (0 for a boolean). Arguments are
	// bit-vectors, booleans or KString aggregates. Only evaluation, by
	// calling the real function, gives it a value.
	KCall // call#1a2b3c4d(x, y)

	numKinds
)

// Expr is a node of the expression DAG. Nodes are immutable and are made
// only by a Builder, which shares structurally equal nodes, so that pointer
// equality is structural equality within one Builder.
type Expr struct {
	Kind  Kind
	Width uint8 // 0 for booleans, else the bit-vector width
	Val   uint64
	Args  []*Expr
	id    uint32 // creation order within the Builder; stable sort key
	max   uint64 // an upper bound of the bit-vector's value, unsigned

	argBuf [3]*Expr // storage of Args for shared nodes
}

// ID returns the node's number within its Builder. Numbers grow with
// creation, so arguments always have smaller numbers than their parents.
func (e *Expr) ID() uint32 { return e.id }

// Max returns an upper bound of the unsigned value of a bit-vector term,
// derived from its structure (a zero extension of a byte is at most 255).
func (e *Expr) Max() uint64 { return e.max }

// IsBool reports whether e is a boolean term.
func (e *Expr) IsBool() bool { return e.Width == 0 && e.Kind != KString }

// IsConst reports whether e is a bit-vector or boolean constant.
func (e *Expr) IsConst() bool { return e.Kind == KConst || e.Kind == KTrue || e.Kind == KFalse }

// Mask returns the bit mask of a width: the value 2^w-1.
func Mask(w uint8) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// SignExtend interprets the low w bits of v as a two's-complement number
// and returns it as an int64.
func SignExtend(v uint64, w uint8) int64 {
	if w >= 64 {
		return int64(v)
	}
	shift := 64 - w
	return int64(v<<shift) >> shift
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

var kindNames = [...]string{
	KInvalid: "invalid", KConst: "const", KTrue: "true", KFalse: "false", KVar: "var",
	KAdd: "+", KSub: "-", KMul: "*", KUDiv: "/u", KSDiv: "/s", KURem: "%u", KSRem: "%s",
	KAnd: "&", KOr: "|", KXor: "^", KShl: "<<", KLShr: ">>u", KAShr: ">>s",
	KNeg: "neg", KCpl: "cpl", KZExt: "zext", KSExt: "sext", KTrunc: "trunc", KIte: "ite",
	KEq: "==", KULt: "<u", KULe: "<=u", KSLt: "<s", KSLe: "<=s",
	KNot: "!", KLAnd: "&&", KLOr: "||", KString: "string",
	KFAdd: "+f", KFSub: "-f", KFMul: "*f", KFDiv: "/f", KFNeg: "fneg",
	KFEq: "==f", KFLt: "<f", KFLe: "<=f",
	KFToS: "ftos", KFToU: "ftou", KSToF: "stof", KUToF: "utof", KFConv: "fconv",
	KCall: "call",
}

// IsCompare reports whether k is a comparison of two bit-vectors.
func (k Kind) IsCompare() bool { return k >= KEq && k <= KSLe }

// IsBinaryBV reports whether k is a binary bit-vector operation.
func (k Kind) IsBinaryBV() bool { return k >= KAdd && k <= KAShr }

// IsFloatArith reports whether k is a binary floating-point operation.
func (k Kind) IsFloatArith() bool { return k >= KFAdd && k <= KFDiv }

// IsFloatCompare reports whether k is a comparison of two floats.
func (k Kind) IsFloatCompare() bool { return k >= KFEq && k <= KFLe }

// IsFloatConvert reports whether k is a conversion from or to a float:
// one operand, and the node's Width is the width of the result.
func (k Kind) IsFloatConvert() bool { return k >= KFToS && k <= KFConv }

// ReadsFloat reports whether k interprets its operands' bits as floats.
func (k Kind) ReadsFloat() bool {
	return k.IsFloatArith() || k.IsFloatCompare() || k == KFNeg || k == KFToS || k == KFToU || k == KFConv
}

// MakesFloat reports whether k's result is the bits of a float.
func (k Kind) MakesFloat() bool {
	return k.IsFloatArith() || k == KFNeg || k == KSToF || k == KUToF || k == KFConv
}
