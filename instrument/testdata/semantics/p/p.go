// Package p is the target of the differential test in semantics_test.go:
// small functions over every construct the rewrite handles. Each is called
// from Run (run.go) with arguments derived from one row of inputs, once as
// the original code and twice instrumented (symbolic and concrete inputs).
// A panic's position (file and line of the innermost frame in this file)
// is part of the compared output.
package p

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Integer arithmetic at every width, with wraparound.

func Arith8(x, y int8) (int8, int8, int8, int8) { return x + y, x - y, x * y, -x }

func Arith16(x, y uint16) (uint16, uint16, uint16, uint16, uint16) {
	return x + y, x - y, x * y, x ^ y, x | y
}

func Arith32(x, y int32) (int32, int32, int32, int32) { return x + y, x * y, x & y, x ^ ^y }

func Arith64(x, y uint64) (uint64, uint64, uint64) { return x + y, x - y, x * y }

func ArithInt(x, y int) (int, int, int, uint) { return x + y, x - y, x * y, uint(x) + uint(y) }

// Division and remainder by variables: zero panics, MinInt / -1 wraps.

func DivMod(x, y int) (int, int) { return x / y, x % y }

func DivMod8(x, y int8) (int8, int8) {
	q := x / y
	r := x % y
	return q, r
}

func DivU32(x, y uint32) (uint32, uint32) { return x / y, x % y }

func DivAssign(x, y int16) int16 {
	x /= y
	x %= y + 1
	return x
}

// Shifts by variable amounts, at and beyond the width, signed counts.

func ShiftU(x int32, n uint) (int32, int32, uint32) { return x << n, x >> n, uint32(x) >> n }

func ShiftSigned(x uint8, n int) (uint8, uint8) { return x << n, x >> n }

func ShiftConst(x int64) (int64, int64, uint16, int64) {
	return x << 3, x >> 63, uint16(x) >> 15, x << 70
}

func ShiftAssign(x int, n int8) int {
	x <<= n
	x >>= 1
	return x
}

func ShiftUntyped(n uint8) (int64, uint32, int) {
	var a int64 = 1 << n
	b := uint32(1) << (n % 40)
	return a, b, 1 << (n & 7)
}

// Conversions, &^ and the unary operators.

func Convert(x int64) (int8, uint8, int16, uint32, uint64, int, uint) {
	return int8(x), uint8(x), int16(x), uint32(x), uint64(x), int(x), uint(int32(x))
}

func ConvertSigned(x int8, y uint16) (int64, uint64, int16, int8) {
	return int64(x), uint64(x), int16(y), int8(y)
}

func Bits(x, y uint16) (uint16, uint16, int16, uint16, uint16) {
	z := x
	z &^= y >> 4
	return x &^ y, ^x, -int16(y), +x, z
}

func IncDec(x uint8, y int8) (uint8, int8, uint8) {
	x++
	y--
	z := x
	z++
	z++
	return x, y, z
}

// Comparisons and && || in values and in conditions.

func Compare(x, y int16) (bool, bool, bool, bool, bool, bool) {
	return x == y, x != y, x < y, x <= y, x > y, x >= y
}

func CompareU(x, y uint) (bool, bool, bool) { return x < y, x >= y, -x > y }

func Logic(a, b int) (bool, bool, string) {
	v := a > 0 && b > 0
	w := a < 0 || !(b < 10) && a != b
	s := ""
	if a == b || a > b && b > 0 {
		s += "x"
	}
	if !v && (w || a == 3) {
		s += "y"
	}
	return v, w, s
}

func BoolOps(a, b bool) (bool, bool, bool, bool) {
	c := a == b
	d := a != !b
	return c, d, a && !b, !(a || b)
}

// Strings and byte slices.

func StrOps(s, t string) (int, string, bool, bool, bool, bool) {
	u := s + t
	u += "!"
	return len(u), u, s == t, s < t, s >= t, s+"a" > t
}

func StrIndex(s string, i int) (byte, byte) { return s[i], s[len(s)-1] }

func StrSlice(s string, i, j int) (string, string, string) { return s[i:], s[:j], s[i:j] }

func StrSliceU(s string, i uint8, j int16) string { return s[i:j] }

func BytesOps(b []byte, i int) (byte, int, string, string) {
	c := b[i]
	b[i] = 'x'
	b[0] += 2
	j := len(b) - 1
	b[j]++
	return c, len(b), string(b), string(b[i:])
}

func BytesSlice(b []byte, i, j int) (string, int, string) {
	t := b[i:j]
	return string(t), len(t), string(b[:j])
}

func BytesAlias(b []byte) string {
	c := b[:1]
	c[0] = '#'
	d := append(b[:0:0], b...)
	d[0] = '$'
	return string(b) + "|" + string(d)
}

func StrBytes(s string) (string, string, int, []byte) {
	b := []byte(s)
	if len(b) > 0 {
		b[0] = 'Z'
	}
	t := string(b)
	r := []rune(s)
	return s, t, len(r), b
}

func StrCompareNonASCII(s, t string) (bool, bool, int) {
	return s < t, s == strings.ToUpper(t), strings.Compare(s, t)
}

// Range over []byte and string, including non-ASCII and invalid UTF-8.

func RangeBytes(b []byte) (int, int, string) {
	sum, n := 0, 0
	out := ""
	for i, c := range b {
		sum += int(c) * (i + 1)
		if c == ' ' {
			continue
		}
		n++
		if c == '!' {
			break
		}
	}
	for i := range b {
		out += string(rune('0' + i%10))
	}
	for range b {
		n += 100
	}
	return sum, n, out
}

func RangeString(s string) (int, string, int) {
	keys := 0
	var runes []string
	ascii := 0
	for i, r := range s {
		keys += i
		runes = append(runes, fmt.Sprintf("%d:%U", i, r))
		if r < utf8.RuneSelf {
			ascii++
		}
	}
	return keys, strings.Join(runes, ","), ascii
}

func RangeStringAssign(s string) (int, rune) {
	var i int
	var r rune
	for i, r = range s {
		if r == 'x' {
			break
		}
	}
	return i, r
}

func IndexLoop(s string) int {
	h := 0
	for i := 0; i < len(s); i++ {
		h = h*31 + int(s[i])
	}
	return h
}

// Switches: tagged, tagless, with fallthrough, with init statements.

func SwitchTagged(x int) string {
	s := ""
	switch x {
	case 0:
		s += "zero"
		fallthrough
	case 1, 2:
		s += "small"
	default:
		s += "other"
		fallthrough
	case -1:
		s += "neg"
	case 100:
		s += "hundred"
	}
	return s
}

func SwitchString(s string) int {
	switch t := s + "."; t {
	case ".":
		return 0
	case "a.", "b.":
		return 1
	case "héllo.":
		return 2
	}
	return len(s)
}

func SwitchTagless(x int, s string) string {
	r := ""
	switch y := x * 2; {
	case y > 10 && len(s) > 0:
		r = "big"
		fallthrough
	case y < 0:
		r += "neg"
	case s == "abc" || y == 0:
		r = "abc0"
	default:
		r = "dflt"
	}
	return r
}

func SwitchBool(f bool, x uint8) string {
	switch f {
	case x > 10:
		return "agree"
	case true:
		return "true"
	}
	return "false"
}

// Labeled break and continue, goto, multiple assignment in for posts.

func Labeled(n int) (int, int) {
	count, last := 0, 0
outer:
	for i := 0; i < 10; i++ {
		for j := 0; j < 10; j++ {
			if j > i {
				continue outer
			}
			if i*j > n {
				break outer
			}
			count++
			last = i*10 + j
		}
	}
	return count, last
}

func LabeledSwitch(x int) int {
	r := 0
loop:
	for i := 0; ; i++ {
		switch {
		case i > 5:
			break loop
		case i == x:
			r += 100
			continue loop
		}
		r++
	}
	return r
}

func Goto(n int) int {
	i, steps := 0, 0
again:
	for ; i < n; i += 3 {
		steps++
		if steps > 50 {
			goto out
		}
	}
	if i < 20 {
		i += 5
		goto again
	}
out:
	for {
		return i*100 + steps
	}
}

func Reverse(s string) string {
	r := []byte(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func Swap(a, b, c int) (int, int, int) {
	a, b = b, a
	a, b, c = b, c, a
	return a, b, c
}

// Wide assigns more values at once than the runtime's UnpackN take.
func Wide(a, b int, s string) (int, int, int, int, int, string) {
	p0, p1, p2, p3, p4 := a, b, a+b, a-b, len(s)
	if p3 > p4 {
		p0, p1, p2, p3, p4 = p4, p3, p2, p1, p0
	}
	q := ""
	p4, q, p2, _, p0 = p0*2, s+"!", p2-1, p3, p1
	if p2 == p0 || q == "a!" {
		q = "eq"
	}
	return p0, p1, p2, p3, p4, q
}

// Closures capturing and modifying variables.

func Closure(x int) (int, int, int) {
	n := x
	add := func(d int) int {
		n += d
		return n
	}
	_ = add(1)
	m := add(x)
	count := 0
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { count++; return i * n })
	}
	sum := 0
	for _, f := range fs {
		sum += f()
	}
	return n + m, sum, count
}

func ClosureString(s string) string {
	acc := ""
	each := func(f func(byte)) {
		for i := 0; i < len(s); i++ {
			f(s[i])
		}
	}
	each(func(c byte) {
		if c != 'a' {
			acc += string(c)
		}
	})
	return acc
}

// defer and recover modifying named results.

func DeferRecover(x, y int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
			q = -1
		}
	}()
	q = x / y
	return q * 2, nil
}

func DeferOrder(x int) (r int) {
	defer func() { r *= 2 }()
	defer func(v int) { r += v }(x)
	x = 100
	r = x
	return r + 1
}

func DeferNamed(s string) (n int, t string) {
	defer func() { t += "!" }()
	n = len(s)
	t = s
	return
}

// Methods with value and pointer receivers, method values, interfaces.

type Counter struct {
	n    int
	name string
}

func (c Counter) Get() int { return c.n }

func (c *Counter) Add(d int) int {
	c.n += d
	return c.n
}

func (c Counter) AddCopy(d int) int {
	c.n += d
	return c.n
}

func (c *Counter) String() string { return fmt.Sprintf("%s=%d", c.name, c.n) }

type Celsius int

func (c Celsius) Fahrenheit() Celsius { return c*9/5 + 32 }

func (c Celsius) String() string { return fmt.Sprintf("%d°C", int(c)) }

func Methods(x int) (int, int, int, string, string) {
	c := Counter{name: "c"}
	c.Add(x)
	a := c.AddCopy(5)
	p := &c
	p.Add(1)
	get := c.Get
	c.Add(1000)
	var st fmt.Stringer = p
	return a, c.Get(), get(), st.String(), Celsius(x).Fahrenheit().String()
}

// MethodDeref calls value methods through pointers: the copy is of the
// pointee, which the call must not change, and a nil pointer panics at
// the call.
func MethodDeref(x int) (int, int, int) {
	c := &Counter{n: x, name: "d"}
	a := c.AddCopy(3)
	cs := []*Counter{c}
	b := cs[0].AddCopy(x)
	if x < 0 {
		var np *Counter
		return a, b, np.Get()
	}
	return a, b, c.Get()
}

// Calls with multiple results and return f() of multi-valued functions.

func divmod(x, y int) (int, int, error) {
	if y == 0 {
		return 0, 0, errors.New("division by zero")
	}
	return x / y, x % y, nil
}

func forward(x, y int) (int, int, error) { return divmod(x, y) }

func forwardDirect(x, y int) (q, r int, err error) {
	q, r, err = divmod(x, y)
	return
}

func MultiResults(x, y int) (int, int, string, int) {
	q, r, err := forward(x, y)
	msg := "ok"
	if err != nil {
		msg = err.Error()
	}
	q2, _, _ := forwardDirect(y, x)
	return q, r, msg, q2
}

func pair(s string) (string, int) { return s + s, len(s) }

func takePair(s string, n int) string { return fmt.Sprint(s, n) }

func MultiArgs(s string) string {
	a := takePair(pair(s))
	b, n := pair(s)
	return a + b + fmt.Sprint(n)
}

// Variadic functions.

func sum(base int, xs ...int) int {
	for _, x := range xs {
		base += x
	}
	return base + len(xs)*1000
}

func Variadic(a, b int) (int, int, int, int) {
	xs := []int{a, b, a + b}
	return sum(a), sum(a, b), sum(0, xs...), sum(b, a, b, 3)
}

// Package-level variables and their initialisers.

var (
	total    = start * 2
	start    = len(greeting) + 1
	greeting = "héllo"
	calls    int
	table    = mkTable(4)
	ratio    float64
	flagged  Flag = total > 10
)

func mkTable(n int) []int {
	t := make([]int, n)
	for i := range t {
		t[i] = i * i
	}
	return t
}

func init() {
	ratio = float64(start) / 2
}

func bump(d int) int {
	calls += d
	return calls
}

func Globals(x int) (int, int, string, int, float64, Flag) {
	calls = 0
	bump(x)
	bump(1)
	total++
	defer func() { total-- }()
	return calls, total, greeting, table[x&3], ratio, flagged
}

// Named types.

type Flag bool

type Buf []byte

type Name string

func NamedTypes(x int64, s string) (Celsius, Flag, Buf, Name, bool) {
	c := Celsius(x) + 3
	c *= 2
	f := Flag(c > 10)
	var g Flag = x < 0
	b := Buf(s)
	if len(b) > 0 {
		b[0] = '*'
	}
	n := Name(s) + "?"
	return c, f && !g, b, n[:1] + Name(b), Flag(n == "?") == g
}

func NamedBuf(b Buf, i int) (Buf, byte, string) {
	b = append(b, 'z')
	c := b[i]
	return b[1:], c, string(b)
}

// Var declarations with and without types.

func VarDecls(x int) (int, int, string, int8, uint16, bool) {
	var a int
	var b = x * 2
	var c, d = "c", x + 1
	var e int8 = int8(x)
	var f, g uint16 = 1, uint16(x)
	var q, r, err = divmod(x, 3)
	var ok bool
	if err == nil {
		ok = r >= 0
	}
	a += b + d
	f += g
	return a + q, b, c, e, f, ok
}

// Comma-ok forms.

func CommaOk(x int, s string) (int, bool, string, bool, int, string) {
	m := map[string]int{"a": 1, "héllo": 2}
	v, ok := m[s]
	m[s] = x
	w := m[s]
	var i any = x
	str, isStr := i.(string)
	n, isInt := i.(int)
	if !isInt {
		n = -1
	}
	_, isStringer := i.(fmt.Stringer)
	return v + w, ok, str, isStr, n, fmt.Sprint(isStringer)
}

func AssertPanic(x int) string {
	var i any = x
	if x > 0 {
		i = Celsius(x)
	}
	return i.(fmt.Stringer).String()
}

// Address-taken variables.

func AddrTaken(x int) (int, int) {
	y := x
	p := &y
	*p += 5
	z := x
	inc := func(q *int) { *q *= 2 }
	inc(&z)
	return y, z
}

// Generic functions and types.

type Number interface {
	~int | ~int8 | ~uint16 | ~int64
}

func Max[T Number](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func Index[T comparable](xs []T, v T, from int) int {
	for i := from; i < len(xs); i++ {
		if xs[i] == v {
			return i
		}
	}
	return -1
}

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T, times int) int {
	for i := 0; i < times; i++ {
		s.items = append(s.items, v)
	}
	return len(s.items)
}

func Generic(x int, s string) (int, int8, Celsius, int, int) {
	var st Stack[string]
	n := st.Push(s, x&3)
	return Max(x, 3), Max[int8](int8(x), -5), Max(Celsius(x), 7), Index([]string{"a", s, "b"}, s, x&1), n
}

// Struct fields, arrays and slices of integers.

type point struct {
	x, y int16
	tag  string
}

func Structs(x int, i int) (int16, string, int, int) {
	p := point{x: int16(x), tag: "p"}
	p.y = p.x * 3
	p.tag += fmt.Sprint(p.y)
	arr := [4]int{1, 2, 3, 4}
	arr[x&3] = x
	sl := arr[1:]
	return p.x + p.y, p.tag, arr[i], sl[len(sl)-1]
}

// Goroutines, channels and select.

func Channels(x int) (int, int) {
	ch := make(chan int, 1)
	done := make(chan bool)
	go func(v int) {
		ch <- v * 2
		done <- true
	}(x)
	got := <-ch
	<-done
	sel := 0
	select {
	case v := <-ch:
		sel = v
	default:
		sel = -1
	}
	select {
	case ch <- x + 1:
	default:
	}
	select {
	case v, ok := <-ch:
		if ok {
			sel += v * 1000
		}
	}
	return got, sel
}

var deferLog string

func note(x int, s string) { deferLog += fmt.Sprint(x, s, ";") }

func DeferArgs(x int, s string) string {
	deferLog = ""
	func() {
		defer note(x*2, s+"!")
		x = 100
		s = "changed"
		note(x, s)
	}()
	return deferLog
}

// Type switches over tracked values.

func TypeSwitch(x int, s string) string {
	var vals = []any{x, s, int8(x), Celsius(x), []byte(s), nil}
	out := ""
	for _, v := range vals {
		switch t := v.(type) {
		case int:
			out += fmt.Sprint("i", t+1)
		case string, []byte:
			out += fmt.Sprintf("s%v", t)
		case fmt.Stringer:
			out += t.String()
		case nil:
			out += "nil"
		default:
			out += fmt.Sprintf("%T", t)
		}
	}
	return out
}

// Recursion and loops with unsigned wraparound.

func Fib(n uint8) uint16 {
	if n < 2 {
		return uint16(n)
	}
	return Fib(n-1) + Fib(n-2)
}

func Wrap(x uint8) (int, uint8) {
	steps := 0
	for i := x; i != 4; i++ {
		steps++
	}
	var j uint8
	for j = 250; j > 5; j += 3 {
	}
	return steps, j
}

// Builtins.

func Builtins(x, y int, s string) (int, int, string, int) {
	b := make([]byte, 2, 10)
	b = append(b, s...)
	n := copy(b, "xyz")
	return min(x, y, 7), max(x, y), string(b[:n]) + string(b[2:]), cap(b[:1])
}

// Explicit panics with formatted values and errors.

func Panics(x int, s string) int {
	if x == 1 {
		panic("one")
	}
	if x == -1 {
		panic(fmt.Errorf("minus %s", s))
	}
	if s == "abc" {
		panic(Celsius(x))
	}
	return x
}

// More loops: ranges that modify what they range over, closures over range
// variables, defers and panics inside range bodies, labels across ranges.

func RangeModify(b []byte) (string, int) {
	n := 0
	for i, c := range b {
		if i+1 < len(b) {
			b[i+1] = c + 1
		}
		if i == 0 {
			b = append(b, '!')
		}
		n += int(c)
	}
	return string(b), n
}

func ClosureRange(s string) string {
	var fs []func() string
	for i, c := range s {
		fs = append(fs, func() string { return fmt.Sprint(i, string(c)) })
	}
	for i := range []byte(s) {
		fs = append(fs, func() string { return fmt.Sprint(i) })
	}
	out := ""
	for _, f := range fs {
		out += f() + ";"
	}
	return out
}

func DeferInRange(s string) (out string) {
	for i, c := range s {
		defer func() { out += fmt.Sprint(i, ":", string(c), " ") }()
		if c == 'l' {
			break
		}
	}
	return "r "
}

func RangePanic(s string, k int) int {
	n := 0
	for i := range s {
		n += int(s[i+k])
	}
	return n
}

func LabeledRange(s, t string) int {
	n := 0
outer:
	for _, c := range s {
		for j, d := range []byte(t) {
			if byte(c) == d {
				n += j
				continue outer
			}
			if d == '!' {
				break outer
			}
		}
		n += 100
	}
	return n
}

func GotoOutOfRange(s string) int {
	n := 0
	for _, c := range s {
		if c == 'o' {
			goto found
		}
		n++
	}
	n = -n
found:
	for {
		return n
	}
}

func SwitchBreak(x int) int {
	n := 0
	for i := 0; i < 5; i++ {
		switch i + x {
		case 2:
			n += 10
			break
		case 3:
			continue
		}
		n++
	}
	return n
}

func SwitchSideEffects(x int) (int, string) {
	log := ""
	step := func(tag string, v int) int {
		log += tag
		return v
	}
	switch step("t", x) {
	case step("a", 1), step("b", 2):
		log += "!"
	case step("c", 3):
		log += "?"
	}
	return x, log
}

func VariadicValue(a int) (int, int) {
	f := sum
	return f(a, 1, 2), f(a)
}

func StorePanic(b []byte, i, x int) string {
	switch x & 1 {
	case 1:
		b[i] = 'o'
	}
	b[i+1] = 'e'
	return string(b)
}

// The order of evaluation of operands around calls: the gc compiler
// evaluates the calls of an expression first and the variables after.

var seq int

func next() int {
	seq++
	return seq
}

func OrderGlobal(x int) (int, int) {
	seq = x
	a := seq*100 + next()
	return a, seq
}

func OrderClosure(x int) (int, int) {
	c := x
	set := func() int {
		c = 7
		return 1
	}
	return c + set(), c
}

func OrderReturn(x int) (int, int) {
	seq = x
	return seq, next()
}

func OrderAssign(x int) (int, int) {
	a, b := x, 0
	set := func() int {
		a = 50
		return 1
	}
	a, b = a, set()
	return a, b
}

// Memory: struct fields, array and slice elements, values behind
// pointers, op-assignments on them, copies of structs and arrays, table
// lookups at variable indices.

type memPt struct {
	X, Y int32
	Name string
	F    float64
	Ok   bool
	In   struct{ N uint8 }
	Arr  [4]int16
}

func MemFields(a, b int64, s string) (memPt, int) {
	var p memPt
	p.X = int32(a)
	p.Y = int32(b) * 3
	p.Name = s + "!"
	p.F = float64(a) / 2
	p.Ok = a > b
	p.In.N = uint8(b)
	p.Arr[int(uint(b)%4)] = int16(a)
	n := 0
	if p.X+p.Y > 10 {
		n++
	}
	if p.Name == "ab!" {
		n += 2
	}
	if p.F < -1.5 {
		n += 4
	}
	if p.Ok {
		n += 8
	}
	if p.In.N == 7 {
		n += 16
	}
	if p.Arr[2] == -7 {
		n += 32
	}
	return p, n
}

func MemOps(a, b int64, s string) (memPt, int) {
	q := &memPt{}
	q.X += int32(a)
	q.X *= int32(b)
	q.Y++
	q.Y--
	q.Y -= int32(a)
	q.F += float64(b)
	q.F++
	q.Name += s
	q.Arr[1] |= int16(a)
	q.Arr[1]++
	n := 0
	if q.X == 6 {
		n++
	}
	if q.Y < 0 {
		n += 2
	}
	if q.Name != "" {
		n += 4
	}
	if q.Arr[1] > 3 {
		n += 8
	}
	return *q, n
}

func MemCopy(a, b int64) (int, int32, int32) {
	var p, r memPt
	p.X, p.Y = int32(b), int32(a)
	p.X = int32(a)
	q := p
	q.Y = int32(b)
	arr := [3]memPt{}
	arr[1] = q
	r = arr[1]
	n := 0
	if r.X == 5 {
		n++
	}
	if q.X+q.Y == 9 {
		n += 2
	}
	ptr := &arr[1]
	if ptr.Y == r.Y {
		n += 4
	}
	ptr.Y = 7
	if r.Y == 7 {
		n += 8
	}
	return n, r.X, (*ptr).Y
}

var memTable = [...]uint8{3, 1, 4, 1, 5, 9, 2, 6}

func MemIndex(a, b int64) (int, uint8, int) {
	i := int(a)
	xs := []int{10, 20, 30}
	xs[1] = int(b)
	n := 0
	if memTable[i&7] == 9 {
		n++
	}
	t := memTable[:]
	v := t[int(uint(b)%8)]
	if xs[i] == 7 {
		n += 2
	}
	return n, v, xs[i%3]
}

func MemNil(a int64) int {
	var p *memPt
	if a > 100 {
		p = &memPt{}
	}
	p.X = int32(a)
	return int(p.X)
}

// Models whose results are strings and slices, and byte slices in memory.

func ModelStrings(a, b int64, s string, bs []byte) (int, string, []string, int) {
	n := 0
	t := strconv.Itoa(int(a))
	if t == "-7" {
		n++
	}
	if strconv.FormatInt(b, 10)+"x" == "2x" {
		n += 2
	}
	if len(strconv.FormatUint(uint64(a), 10)) > 3 {
		n += 4
	}
	parts := strings.Split(s, " ")
	if len(parts) == 2 && parts[1] == "y!" {
		n += 8
	}
	for _, p := range parts {
		if p == "x" {
			n += 16
		}
	}
	if k := int(uint(b) % 3); k < len(parts) && parts[k] != "" {
		n += 32
	}
	fields := strings.SplitN(s, "l", 2)
	if fields[0] == "hé" {
		n += 64
	}
	pieces := bytes.Split(bs, []byte{' '})
	if len(pieces) > 1 && string(pieces[1]) == "world" {
		n += 128
	}
	for _, p := range pieces {
		if len(p) > 0 && p[0] == 'h' {
			n += 256
		}
	}
	return n, t, parts, parts2(parts, int(a))
}

// parts2 reads an element at an input index: a bounds check that panics.
func parts2(parts []string, i int) int { return len(parts[i&3]) }

type memBuf struct {
	Head []byte
	Tail [2][]byte
}

func MemBytes(a int64, s string, bs []byte) (int, memBuf) {
	var m memBuf
	m.Head = bs
	m.Tail[0] = []byte(s)
	m.Tail[1] = bs[:len(bs)/2]
	n := 0
	if len(m.Head) > 3 && m.Head[3] == 'l' {
		n++
	}
	c := m
	if string(c.Tail[0]) == "abc" {
		n += 2
	}
	bs2 := c.Tail[1]
	if len(bs2) == 1 {
		n += 4
	}
	all := [][]byte{m.Head, c.Tail[0]}
	for _, p := range all {
		if len(p) == 2 {
			n += 8
		}
	}
	m.Head[0] = byte(a) // the cell of m.Head is stale: its bytes changed
	if m.Head[0] == 5 {
		n += 16
	}
	// Byte-slice fields as arguments of calls that take no shadows.
	if cap(m.Head)-len(c.Tail[0]) > 2 || bytes.Equal(c.Head, m.Tail[1]) {
		n += 32
	}
	return n, c
}

// Maps reads, writes, deletes and counts a map of tracked keys and
// values, at keys derived from the inputs (rt/map.go).
func Maps(a, b int64, s string) (int, int64, bool, int, string) {
	m := map[int64]int64{a: b, 3: 4}
	m[b] = a - 1
	m[a]++
	m[7] += b
	v, ok := m[b+1]
	if x, found := m[a]; found && x > 2 {
		v += x
	}
	delete(m, a*2)
	n := len(m)
	names := map[string]int32{s: int32(a), "k": 9}
	names[s+"!"] = int32(b)
	w := names["k"] + names[s]
	var nilMap map[int64]int64
	_, inNil := nilMap[a]
	return n, v + m[3] + int64(w), ok || inNil, len(names), s
}

type litPoint struct {
	X, Y int32
	Tag  string
	In   [2]uint8
}

// Containers appends, copies and builds composite literals from the
// inputs (rt/append.go, instrument/maps.go).
func Containers(a, b int64, s string, bs []byte) (litPoint, *litPoint, []int64, int, []byte, [3]int16, []string) {
	xs := []int64{a, b}
	xs = append(xs, a+b, a*b)
	xs = append(xs, xs[:2]...)
	dst := make([]int64, int(b&3))
	n := copy(dst, xs)
	copy(dst[1:], xs[2:]) // a statement: its count is discarded
	p := litPoint{X: int32(a), Tag: s, In: [2]uint8{uint8(b), 2}}
	q := &litPoint{int32(b), int32(a), s + "?", [2]uint8{1, uint8(a)}}
	if p.X == q.Y && p.In[0] == uint8(b) {
		n += 10
	}
	arr := [3]int16{2: int16(a), 0: int16(b)}
	out := append([]byte{byte(a), 'x'}, bs...)
	out = append(out, byte(b))
	strs := append([]string{s}, s+s)
	var err error
	err = litErr{int(a), s} // a literal converted to an interface
	if e, ok := err.(litErr); ok && e.code == 3 {
		n += 20
	}
	return p, q, dst, n, out, arr, strs
}

type litErr struct {
	code int
	msg  string
}

type litHolder struct {
	err  error
	n    int
	vals [2]any
}

// LitIfaceField fills a struct literal whose interface field and
// elements hold literals of struct types: those are boxed, not filled in
// place.
func LitIfaceField(a int, s string) (int, string, int, bool) {
	h := litHolder{err: litErr{code: a, msg: s}, n: a + 1, vals: [2]any{litErr{code: a}, a}}
	e, _ := h.err.(litErr)
	v, _ := h.vals[0].(litErr)
	return h.n, h.err.Error(), e.code + v.code, h.vals[1] == a
}

func (e litErr) Error() string { return e.msg }

// MinMax takes min and max of integers of several widths and signs, with
// constants and with more than two operands, and branches on them.
func MinMax(a, b int64, s string) (int64, uint8, int8, int, string) {
	m := min(a, b)
	u := max(uint8(a), uint8(b), 7)
	i := min(int8(b), int8(a), -3)
	n := max(len(s)-3, 0)
	if m == b && u > 200 {
		n++
	}
	if min(a, 10) == 10 || max(b, -5) == -5 {
		n += 10
	}
	return m, u, i, n, min(s, "b")
}
