package e2e

import "testing"

// flowTargets panic behind an equality on 32 bits or more of input that
// reaches the branch only through one construct of real Go code: a
// closure's parameters and results, a captured variable, a method value
// or expression, a deferred function and recover, a generic function or
// type, several results, and tables filled at package initialisation. The
// solver reaches each panic only if the value keeps its term across that
// construct.
const flowTargets = `package flow

// Closures.

func Closure(x int) {
	f := func(y int) int { return y*7 + 1 }
	if f(x) == 86416 {
		panic("found")
	}
}

func ClosureNow(x uint32) {
	if func(y uint32) uint32 { return y ^ 0x5a5a5a5a }(x) == 0x12345678 {
		panic("found")
	}
}

func ClosureString(s string, n int32) {
	join := func(a string, k int32) (string, int32) { return a + "!", k * 3 }
	t, m := join(s, n)
	if t == "hey!" && m == 0x3a3a3a3 {
		panic("found")
	}
}

func Capture(x int) {
	inc := func() { x += 3 }
	inc()
	inc()
	if x == 0x1234567 {
		panic("found")
	}
}

// Methods as values.

type Checker struct{ k uint32 }

func (c Checker) Check(x uint32) bool { return x^c.k == 0x7654321 }

func (c *Checker) Scale(x uint32) uint32 { return x * c.k }

func MethodValue(x uint32) {
	c := Checker{k: 5}
	f := c.Check
	if f(x) {
		panic("found")
	}
}

func MethodPointerValue(x uint32) {
	c := &Checker{k: 3}
	g := c.Scale
	if g(x) == 0x369d035 {
		panic("found")
	}
}

func DerefReceiver(x uint32) {
	c := &Checker{k: x}
	if c.Check(0x1111) {
		panic("found")
	}
}

func MethodExpr(x uint32) {
	c := Checker{k: 9}
	if Checker.Check(c, x) {
		panic("found")
	}
}

// Defer and recover.

func addLater(x int) (r int) {
	defer func() { r += x }()
	return x * 2
}

func DeferModify(x int) {
	if addLater(x) == 0x369d035 {
		panic("found")
	}
}

func DeferRead(x int) (r int) {
	defer func() {
		if r == 0x2468ace0 {
			panic("found")
		}
	}()
	r = x - 17
	return r
}

func safeDiv(x, y int) (q int) {
	defer func() {
		if recover() != nil {
			q = x * 3
		}
	}()
	return x / y
}

func Recover(x, y int) {
	if safeDiv(x, y) == 0x369d035 && y == 0 {
		panic("found")
	}
}

func RecoverBranch(x int) {
	defer func() {
		if recover() != nil && x*5 == 0x2468ace5 {
			panic("found")
		}
	}()
	if x&1 == 1 {
		panic("odd")
	}
}

// Generics.

type Integer interface {
	~int | ~int32 | ~int64 | ~uint32
}

func Max[T Integer](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func Generic(x, y int) {
	if Max(x, y) == 98765432 && x < y {
		panic("found")
	}
}

type Acc[T Integer] struct{ sum T }

func (a *Acc[T]) Add(v T) { a.sum += v }

func (a Acc[T]) Get() T { return a.sum }

func DerefGeneric(x uint32) {
	p := &Acc[uint32]{}
	p.Add(x)
	if p.Get()^0x5555 == 0x369d035 {
		panic("found")
	}
}

func GenericType(x uint32) {
	var a Acc[uint32]
	a.Add(x)
	a.Add(x)
	if a.Get()*3 == 0x369d035*2 {
		panic("found")
	}
}

// Several results.

func divmod(x, y int) (int, int) { return x / y, x % y }

func MultiResult(x, y int) {
	if y == 0 {
		return
	}
	q, r := divmod(x, y)
	if y == 1000 && q == 0x123456 && r == 789 {
		panic("found")
	}
}

// Package initialisation.

var table [256]uint32

func init() {
	for i := range table {
		table[i] = uint32(i)*0x9e3779b9 ^ 0x5bd1e995
	}
}

var offset = mkOffset(7)

func mkOffset(n uint32) uint32 { return n << 12 }

func Init(x uint32) {
	if table[byte(x)]^x == 0x85c53ead && x+offset > 0x1000 {
		panic("found")
	}
}
`

// orderedTargets panic behind branches on the results of generic
// functions whose type parameters admit floats and strings: cmp.Ordered
// at int, float64 (a branch only Z3's floating-point theory decides) and
// string, a union of an integer and a float type, a generic function
// calling others, and float-only and string-only constraints. The
// solver reaches each only if the generic code keeps its terms.
const orderedTargets = `package flow

import "cmp"

func OMax[T cmp.Ordered](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func OMin[T cmp.Ordered](a, b T) T {
	if a < b {
		return a
	}
	return b
}

func Clamp[T cmp.Ordered](x, lo, hi T) T { return OMax(lo, OMin(x, hi)) }

func OrderedInt(x, y int) {
	if OMax(x, y) == 98765432 && x < y {
		panic("found")
	}
}

func OrderedFloat(x, y float64) {
	if OMax(x, y)+0.1 == 0.30000000000000004 && x > y {
		panic("found")
	}
}

func OrderedString(s, t string) {
	if OMax(s, t) == "gopher" && s < t {
		panic("found")
	}
}

type Num interface{ ~int32 | ~float32 }

func Scale[T Num](x, k T) T { return x*k + 1 }

func UnionInt(x int32) {
	if Scale(x, 3) == 0x1234567 {
		panic("found")
	}
}

func UnionFloat(x float32) {
	if Scale(x, 3) == 8.5 {
		panic("found")
	}
}

func Nested(x int64) {
	if Clamp(x*7, -1<<40, 1<<40) == 0x7654321*7 {
		panic("found")
	}
}

type Real interface{ ~float32 | ~float64 }

func Half[T Real](x T) T { return x / 2 }

func FloatOnly(x float64) {
	if Half(x) == 1234.25 {
		panic("found")
	}
}

type Text interface{ ~string }

func Tail[T Text](s T) T {
	if len(s) == 0 {
		return s
	}
	return s[1:] + "!"
}

func StringOnly(s string) {
	if Tail(s) == "opher!" {
		panic("found")
	}
}
`

// flowCases are the targets of flowTargets and orderedTargets.
var flowCases = []string{
	"Closure", "ClosureNow", "ClosureString", "Capture",
	"MethodValue", "MethodPointerValue", "MethodExpr", "DerefReceiver", "DerefGeneric",
	"DeferModify", "DeferRead", "Recover", "RecoverBranch",
	"Generic", "GenericType",
	"MultiResult", "Init",
	"OrderedInt", "OrderedFloat", "OrderedString", "UnionInt", "UnionFloat", "Nested",
	"FloatOnly", "StringOnly",
}

// TestFlow checks that values keep their terms through closures, method
// values, defer and recover, generics, multiple results and package
// initialisation: Z3 alone reaches each panic.
func TestFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	dir := module(t, map[string]string{"flow/flow.go": flowTargets, "flow/ordered.go": orderedTargets})
	expectPanics(t, dir, "./flow", flowCases)
}
