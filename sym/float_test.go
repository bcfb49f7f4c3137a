package sym

import (
	"fmt"
	"math"
	"runtime"
	"testing"
)

// The expected values in this file are computed by compiled Go on the
// machine that runs the tests: the operations sit in functions that are
// never inlined, so that nothing is evaluated at compile time and the
// operands of + and * keep their order. The float kinds promise amd64's
// results (float.go), so on another architecture the tests are skipped.

func skipUnlessAmd64(t *testing.T) {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		t.Skipf("expected values are compiled Go's, which differ from amd64's on %s", runtime.GOARCH)
	}
}

//go:noinline
func goFAdd64(x, y float64) float64 { return x + y }

//go:noinline
func goFSub64(x, y float64) float64 { return x - y }

//go:noinline
func goFMul64(x, y float64) float64 { return x * y }

//go:noinline
func goFDiv64(x, y float64) float64 { return x / y }

//go:noinline
func goFAdd32(x, y float32) float32 { return x + y }

//go:noinline
func goFSub32(x, y float32) float32 { return x - y }

//go:noinline
func goFMul32(x, y float32) float32 { return x * y }

//go:noinline
func goFDiv32(x, y float32) float32 { return x / y }

//go:noinline
func goFNeg64(x float64) float64 { return -x }

//go:noinline
func goFNeg32(x float32) float32 { return -x }

//go:noinline
func goF64ToF32(x float64) float32 { return float32(x) }

//go:noinline
func goF32ToF64(x float32) float64 { return float64(x) }

//go:noinline
func goFromF64[T integer](f float64) T { return T(f) }

//go:noinline
func goFromF32[T integer](f float32) T { return T(f) }

//go:noinline
func goToF64[T integer](v T) float64 { return float64(v) }

//go:noinline
func goToF32[T integer](v T) float32 { return float32(v) }

// goFBin applies the float kind k with Go's operator of width w.
func goFBin(k Kind, x, y uint64, w uint8) uint64 {
	if w == 32 {
		a, c := math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y))
		f := map[Kind]func(float32, float32) float32{KFAdd: goFAdd32, KFSub: goFSub32, KFMul: goFMul32, KFDiv: goFDiv32}[k]
		return uint64(math.Float32bits(f(a, c)))
	}
	a, c := math.Float64frombits(x), math.Float64frombits(y)
	f := map[Kind]func(float64, float64) float64{KFAdd: goFAdd64, KFSub: goFSub64, KFMul: goFMul64, KFDiv: goFDiv64}[k]
	return math.Float64bits(f(a, c))
}

// NaNs with payloads: quiet and signalling, of both signs.
var (
	nans64 = []uint64{0x7ff8000000000000, 0xfff8000000000000, 0x7ff8000000000001, 0xfff8000000000123,
		0x7ff0000000000001, 0xfff4000000000000, 0x7ff00000e0000000, 0x7fffffffffffffff}
	nans32 = []uint32{0x7fc00000, 0xffc00000, 0x7fc00001, 0xffc00123, 0x7f800001, 0xffa00000, 0x7fbfffff, 0x7fffffff}
)

// float64Edges returns the bits of float64 values around every boundary
// the float kinds care about: zeros, infinities, NaNs, subnormals, the
// extremes, the limits of exact integers, and the ranges of every integer
// width, each with its neighbours.
func float64Edges() []uint64 {
	vs := []float64{
		0, math.Copysign(0, -1), 1, -1, 0.1, -0.1, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 1.0 / 3, 0.9999999999999999,
		1e308, -1e308, math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1),
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		math.Float64frombits(0x000fffffffffffff), math.Float64frombits(0x0010000000000000), // largest subnormal, least normal
		1<<53 - 1, 1 << 53, 1<<53 + 2, -(1<<53 - 1), -(1 << 53),
		1e10, -1e10, 3e9, -3e9, 1e19, -1e19, 1e30, -1e30,
		math.MaxFloat32, math.SmallestNonzeroFloat32, 3.4028235677973366e38, // rounds to float32 +Inf
	}
	for _, n := range []int{8, 16, 32, 64} {
		half, full := math.Ldexp(1, n-1), math.Ldexp(1, n)
		for _, base := range []float64{half, -half, full, -full} {
			vs = append(vs, base, math.Nextafter(base, math.Inf(1)), math.Nextafter(base, math.Inf(-1)))
			for _, d := range []float64{-1, -0.5, 0.5, 1} {
				vs = append(vs, base+d)
			}
		}
	}
	var out []uint64
	for _, v := range vs {
		out = append(out, math.Float64bits(v))
	}
	for _, n := range []uint8{8, 16, 32, 64} {
		lo := FloatToIntBound(64, n)
		out = append(out, lo, math.Float64bits(math.Nextafter(math.Float64frombits(lo), math.Inf(-1))))
	}
	return append(out, nans64...)
}

// float32Edges returns the bits of float32 values around the same
// boundaries.
func float32Edges() []uint64 {
	var out []uint64
	for _, b := range float64Edges() {
		f := math.Float64frombits(b)
		if math.IsNaN(f) {
			continue
		}
		g := float32(f)
		out = append(out, uint64(math.Float32bits(g)),
			uint64(math.Float32bits(math.Nextafter32(g, float32(math.Inf(1))))),
			uint64(math.Float32bits(math.Nextafter32(g, float32(math.Inf(-1))))))
	}
	for _, n := range []uint8{8, 16, 32, 64} {
		lo := FloatToIntBound(32, n)
		out = append(out, lo, uint64(math.Float32bits(math.Nextafter32(math.Float32frombits(uint32(lo)), float32(math.Inf(-1))))))
	}
	out = append(out, 0x00000001, 0x007fffff, 0x00800000, 0x7f7fffff) // subnormals, least normal, max
	for _, b := range nans32 {
		out = append(out, uint64(b))
	}
	return dedup(out)
}

func dedup(vs []uint64) []uint64 {
	seen := make(map[uint64]bool)
	var out []uint64
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func floatEdges(w uint8) []uint64 {
	if w == 32 {
		return float32Edges()
	}
	return dedup(float64Edges())
}

// fmtFloat shows the bits of a float of width w and its value.
func fmtFloat(x uint64, w uint8) string {
	return fmt.Sprintf("%#x (%v)", x, FloatValue(x, w))
}

func TestFloatEdgesCoverTheCases(t *testing.T) {
	for _, w := range []uint8{32, 64} {
		var zero, negZero, inf, nan, sub bool
		for _, x := range floatEdges(w) {
			f := FloatValue(x, w)
			switch {
			case x == 0:
				zero = true
			case x == 1<<(w-1):
				negZero = true
			case math.IsInf(f, 0):
				inf = true
			case isNaN(x, w):
				nan = true
			case x&Mask(w-1) != 0 && x&Mask(w-1) < map[uint8]uint64{32: 0x00800000, 64: 0x0010000000000000}[w]:
				sub = true
			}
		}
		if !zero || !negZero || !inf || !nan || !sub {
			t.Errorf("float%d edges: zero %v, -0 %v, inf %v, NaN %v, subnormal %v", w, zero, negZero, inf, nan, sub)
		}
	}
}

func TestFloatArithAgainstGo(t *testing.T) {
	skipUnlessAmd64(t)
	b := NewBuilder()
	for _, w := range []uint8{32, 64} {
		vals := floatEdges(w)
		for _, k := range []Kind{KFAdd, KFSub, KFMul, KFDiv} {
			mk := func(x, y *Expr) *Expr { return b.FBin(k, x, y) }
			for _, x := range vals {
				for _, y := range vals {
					name := fmt.Sprintf("float%d %s %s %s", w, fmtFloat(x, w), k, fmtFloat(y, w))
					checkBin(t, b, name, mk, w, w, x, y, goFBin(k, x, y, w))
				}
			}
		}
	}
}

// TestFloatDivByPowerOfTwo checks the one rewrite of FBin: x / c becomes
// x * (1/c) exactly when c is ± a power of two with a reciprocal of the
// width, and the result is Go's quotient for every edge value of x.
func TestFloatDivByPowerOfTwo(t *testing.T) {
	skipUnlessAmd64(t)
	b := NewBuilder()
	for _, w := range []uint8{32, 64} {
		lo, hi := -1074, 1023
		if w == 32 {
			lo, hi = -149, 127
		}
		v := b.Var(0, w)
		var divisors []uint64
		for e := lo; e <= hi; e++ {
			for _, sign := range []float64{1, -1} {
				divisors = append(divisors, floatBits(math.Ldexp(sign, e), w))
			}
		}
		divisors = append(divisors, floatBits(3, w), floatBits(0.75, w), floatBits(-6, w), 0, 1<<(w-1))
		divisors = append(divisors, floatEdges(w)...)
		for _, c := range divisors {
			f := FloatValue(c, w)
			frac, exp := math.Frexp(f)
			k := 1 - exp
			wantMul := (frac == 0.5 || frac == -0.5) && k >= lo && k <= hi && !math.IsInf(f, 0)
			e := b.FBin(KFDiv, v, b.Const(c, w))
			if got := e.Kind == KFMul; got != wantMul {
				t.Errorf("float%d x / %s built as %v", w, fmtFloat(c, w), e)
			}
			for _, x := range floatEdges(w) {
				if got, want := Eval(e, Env{0: x}), goFBin(KFDiv, x, c, w); got != want {
					t.Errorf("float%d %s / %s: %v gives %#x, want %#x", w, fmtFloat(x, w), fmtFloat(c, w), e, got, want)
				}
			}
		}
	}
}

// floatBits returns the bits of f as a float of width w.
func floatBits(f float64, w uint8) uint64 {
	if w == 32 {
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(f)
}

// TestFloatNaNResults pins the NaN rules of float.go with values worked
// out by hand from the SSE rules, independently of the host.
func TestFloatNaNResults(t *testing.T) {
	const (
		one64 = 0x3ff0000000000000
		inf64 = 0x7ff0000000000000
		one32 = 0x3f800000
		inf32 = 0x7f800000
	)
	tests := []struct {
		name    string
		k       Kind
		w       uint8
		x, y    uint64
		want    uint64
		comment string
	}{
		{"0/0", KFDiv, 64, 0, 0, 0xfff8000000000000, "indefinite NaN, sign set"},
		{"Inf-Inf", KFSub, 64, inf64, inf64, 0xfff8000000000000, ""},
		{"0*Inf", KFMul, 64, 0, inf64, 0xfff8000000000000, ""},
		{"Inf+-Inf", KFAdd, 64, inf64, 0xfff0000000000000, 0xfff8000000000000, ""},
		{"NaN+1", KFAdd, 64, 0x7ff8000000000123, one64, 0x7ff8000000000123, "payload kept"},
		{"1+NaN", KFAdd, 64, one64, 0xfff8000000000123, 0xfff8000000000123, "second operand's payload"},
		{"sNaN*1", KFMul, 64, 0x7ff0000000000001, one64, 0x7ff8000000000001, "quieted"},
		{"NaN1-NaN2", KFSub, 64, 0x7ff0000000000002, 0x7ff8000000000003, 0x7ff8000000000002, "first operand wins"},
		{"NaN2+NaN1", KFAdd, 64, 0x7ff8000000000003, 0x7ff0000000000002, 0x7ff8000000000003, "first operand wins"},
		{"float32 0/0", KFDiv, 32, 0, 0, 0xffc00000, ""},
		{"float32 Inf-Inf", KFSub, 32, inf32, inf32, 0xffc00000, ""},
		{"float32 sNaN+1", KFAdd, 32, 0x7f800001, one32, 0x7fc00001, ""},
		{"float32 1/NaN", KFDiv, 32, one32, 0xffc00123, 0xffc00123, ""},
	}
	b := NewBuilder()
	for _, tt := range tests {
		mk := func(x, y *Expr) *Expr { return b.FBin(tt.k, x, y) }
		checkBin(t, b, tt.name, mk, tt.w, tt.w, tt.x, tt.y, tt.want)
	}
}

func TestFloatNegAgainstGo(t *testing.T) {
	skipUnlessAmd64(t)
	b := NewBuilder()
	for _, w := range []uint8{32, 64} {
		v := b.Var(0, w)
		for _, x := range floatEdges(w) {
			var want uint64
			if w == 32 {
				want = uint64(math.Float32bits(goFNeg32(math.Float32frombits(uint32(x)))))
			} else {
				want = math.Float64bits(goFNeg64(math.Float64frombits(x)))
			}
			if want != x^1<<(w-1) {
				t.Errorf("float%d: Go's -%s = %#x, not a sign flip", w, fmtFloat(x, w), want)
			}
			if got := Eval(b.FNeg(v), Env{0: x}); got != want {
				t.Errorf("float%d: fneg %s = %#x, want %#x", w, fmtFloat(x, w), got, want)
			}
			if c := b.FNeg(b.Const(x, w)); c.Kind != KConst || c.Val != want {
				t.Errorf("float%d: fneg of constant %s folds to %v, want %#x", w, fmtFloat(x, w), c, want)
			}
		}
	}
}

func TestFloatCompareAgainstGo(t *testing.T) {
	b := NewBuilder()
	for _, w := range []uint8{32, 64} {
		vals := floatEdges(w)
		for _, x := range vals {
			for _, y := range vals {
				a, c := FloatValue(x, w), FloatValue(y, w)
				if w == 32 { // compare as float32, as Go code on float32 does
					a32, c32 := math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y))
					a, c = float64(a32), float64(c32)
					if (a32 == c32) != (a == c) || (a32 < c32) != (a < c) {
						t.Fatalf("widening changed a comparison of %#x and %#x", x, y)
					}
				}
				tests := []struct {
					name string
					mk   func(x, y *Expr) *Expr
					want bool
				}{
					{"==", func(x, y *Expr) *Expr { return b.FCmp(KFEq, x, y) }, a == c},
					{"!=", func(x, y *Expr) *Expr { return b.Not(b.FCmp(KFEq, x, y)) }, a != c},
					{"<", func(x, y *Expr) *Expr { return b.FCmp(KFLt, x, y) }, a < c},
					{"<=", func(x, y *Expr) *Expr { return b.FCmp(KFLe, x, y) }, a <= c},
					{">", func(x, y *Expr) *Expr { return b.FCmp(KFLt, y, x) }, a > c},
					{">=", func(x, y *Expr) *Expr { return b.FCmp(KFLe, y, x) }, a >= c},
				}
				for _, tt := range tests {
					name := fmt.Sprintf("float%d %s %s %s", w, fmtFloat(x, w), tt.name, fmtFloat(y, w))
					checkBin(t, b, name, tt.mk, w, w, x, y, boolBits(tt.want))
				}
			}
		}
	}
}

// TestFloatCompareCases pins the IEEE rules the comparisons must follow.
func TestFloatCompareCases(t *testing.T) {
	b := NewBuilder()
	const nan, negZero, one = 0x7ff8000000000001, 1 << 63, 0x3ff0000000000000
	tests := []struct {
		name string
		k    Kind
		x, y uint64
		want bool
	}{
		{"NaN == NaN", KFEq, nan, nan, false},
		{"NaN <= NaN", KFLe, nan, nan, false},
		{"NaN < 1", KFLt, nan, one, false},
		{"1 <= NaN", KFLe, one, nan, false},
		{"+0 == -0", KFEq, 0, negZero, true},
		{"-0 < +0", KFLt, negZero, 0, false},
		{"+0 <= -0", KFLe, 0, negZero, true},
		{"-Inf < -MaxFloat64", KFLt, 0xfff0000000000000, math.Float64bits(-math.MaxFloat64), true},
	}
	for _, tt := range tests {
		mk := func(x, y *Expr) *Expr { return b.FCmp(tt.k, x, y) }
		checkBin(t, b, tt.name, mk, 64, 64, tt.x, tt.y, boolBits(tt.want))
	}
	// Bit equality is another thing.
	x := b.Var(0, 64)
	if Holds(b.FCmp(KFEq, x, x), Env{0: nan}) || !Holds(b.Eq(x, x), Env{0: nan}) {
		t.Error("x ==f x must be false and x == x true for a NaN x")
	}
}

// testFloatToInt checks FToInt to T against Go's conversions from both
// float types.
func testFloatToInt[T integer](t *testing.T) {
	skipUnlessAmd64(t)
	w, signed := widthOf[T](), isSigned[T]()
	b := NewBuilder()
	for _, fw := range []uint8{32, 64} {
		v := b.Var(0, fw)
		e := b.FToInt(v, w, signed)
		if want := map[bool]Kind{true: KFToS, false: KFToU}[signed]; e.Kind != want || e.Width != w {
			t.Fatalf("FToInt(float%d, %d, %v) = %v", fw, w, signed, e)
		}
		for _, x := range floatEdges(fw) {
			var want uint64
			if fw == 32 {
				want = bits(goFromF32[T](math.Float32frombits(uint32(x))))
			} else {
				want = bits(goFromF64[T](math.Float64frombits(x)))
			}
			name := fmt.Sprintf("%T(float%d %s)", T(0), fw, fmtFloat(x, fw))
			if got := Eval(e, Env{0: x}); got != want {
				t.Errorf("%s = %#x, want %#x", name, got, want)
			}
			if c := b.FToInt(b.Const(x, fw), w, signed); c.Kind != KConst || c.Val != want {
				t.Errorf("%s of a constant folds to %v, want %#x", name, c, want)
			}
		}
	}
}

func TestFloatToIntAgainstGo(t *testing.T) {
	t.Run("int8", testFloatToInt[int8])
	t.Run("uint8", testFloatToInt[uint8])
	t.Run("int16", testFloatToInt[int16])
	t.Run("uint16", testFloatToInt[uint16])
	t.Run("int32", testFloatToInt[int32])
	t.Run("uint32", testFloatToInt[uint32])
	t.Run("int64", testFloatToInt[int64])
	t.Run("uint64", testFloatToInt[uint64])
}

// TestFloatToIntCases pins amd64's results for NaN, the infinities and
// out-of-range values, as measured (float.go, floatToInt).
func TestFloatToIntCases(t *testing.T) {
	nan, inf, negInf := uint64(0x7ff8000000000001), uint64(0x7ff0000000000000), uint64(0xfff0000000000000)
	f := math.Float64bits
	tests := []struct {
		name   string
		x      uint64
		w      uint8
		signed bool
		want   uint64
	}{
		{"int64(NaN)", nan, 64, true, 1 << 63},
		{"int64(+Inf)", inf, 64, true, 1 << 63},
		{"int64(-Inf)", negInf, 64, true, 1 << 63},
		{"int64(2^63)", f(1 << 63), 64, true, 1 << 63},
		{"int64(-2^63)", f(-(1 << 63)), 64, true, 1 << 63},
		{"int64(-1.5)", f(-1.5), 64, true, Mask(64) - 0},
		{"int32(NaN)", nan, 32, true, 1 << 31},
		{"int32(3e9)", f(3e9), 32, true, 1 << 31},
		{"int32(-2147483648.9)", f(-2147483648.9), 32, true, 1 << 31},
		{"int32(-2147483649)", f(-2147483649), 32, true, 1 << 31},
		{"int16(NaN)", nan, 16, true, 0},
		{"int16(40000)", f(40000), 16, true, 40000},
		{"int16(3e9)", f(3e9), 16, true, 0},
		{"int8(300)", f(300), 8, true, 44},
		{"int8(-129)", f(-129), 8, true, 0x7f},
		{"uint8(-1)", f(-1), 8, false, 0xff},
		{"uint8(NaN)", nan, 8, false, 0},
		{"uint16(70000)", f(70000), 16, false, 70000 & 0xffff},
		{"uint16(5e9)", f(5e9), 16, false, 0},
		{"uint32(-1)", f(-1), 32, false, 0xffffffff},
		{"uint32(5e9)", f(5e9), 32, false, 5000000000 & 0xffffffff},
		{"uint32(NaN)", nan, 32, false, 0},
		{"uint32(1e19)", f(1e19), 32, false, 0},
		{"uint64(NaN)", nan, 64, false, 1 << 63},
		{"uint64(+Inf)", inf, 64, false, 1 << 63},
		{"uint64(-Inf)", negInf, 64, false, 1 << 63},
		{"uint64(-1)", f(-1), 64, false, Mask(64)},
		{"uint64(2^63)", f(1 << 63), 64, false, 1 << 63},
		{"uint64(2^64-2048)", f(1<<64 - 2048), 64, false, 1<<64 - 2048},
		{"uint64(2^64)", f(1 << 64), 64, false, 1 << 63},
		{"uint64(-1e19)", f(-1e19), 64, false, 1 << 63},
	}
	b := NewBuilder()
	for _, tt := range tests {
		e := b.FToInt(b.Var(0, 64), tt.w, tt.signed)
		if got := Eval(e, Env{0: tt.x}); got != tt.want {
			t.Errorf("%s = %#x, want %#x", tt.name, got, tt.want)
		}
	}
}

func TestFloatToIntBound(t *testing.T) {
	for _, fw := range []uint8{32, 64} {
		for _, n := range []uint8{8, 16, 32, 64} {
			lo := FloatValue(FloatToIntBound(fw, n), fw)
			var below float64
			if fw == 32 {
				below = float64(math.Nextafter32(float32(lo), float32(math.Inf(-1))))
			} else {
				below = math.Nextafter(lo, math.Inf(-1))
			}
			lim := math.Ldexp(1, int(n)-1)
			if math.Trunc(lo) < -lim || math.Trunc(below) >= -lim {
				t.Errorf("float%d, %d bits: bound %v (truncated %v), next below %v (truncated %v); limit %v",
					fw, n, lo, math.Trunc(lo), below, math.Trunc(below), -lim)
			}
		}
	}
}

// ints returns edge values of T and the integers around the limits of
// exact float32 and float64 integers.
func ints[T integer]() []T {
	vs := edgeValues[T]()
	for _, p := range []uint{24, 53, 62} {
		if p < uint(widthOf[T]()) {
			base := T(1) << p
			vs = append(vs, base-1, base, base+1, base+2, base+3, -base-1, -base, -base+1)
		}
	}
	return vs
}

func testIntToFloat[T integer](t *testing.T) {
	skipUnlessAmd64(t)
	w, signed := widthOf[T](), isSigned[T]()
	b := NewBuilder()
	v := b.Var(0, w)
	for _, fw := range []uint8{32, 64} {
		e := b.IntToF(v, fw, signed)
		for _, x := range ints[T]() {
			want := math.Float64bits(goToF64(x))
			if fw == 32 {
				want = uint64(math.Float32bits(goToF32(x)))
			}
			name := fmt.Sprintf("float%d(%T %d)", fw, x, x)
			if got := Eval(e, Env{0: bits(x)}); got != want {
				t.Errorf("%s = %s, want %s", name, fmtFloat(got, fw), fmtFloat(want, fw))
			}
			if c := b.IntToF(b.Const(bits(x), w), fw, signed); c.Kind != KConst || c.Val != want {
				t.Errorf("%s of a constant folds to %v, want %#x", name, c, want)
			}
		}
	}
}

func TestIntToFloatAgainstGo(t *testing.T) {
	t.Run("int8", testIntToFloat[int8])
	t.Run("uint8", testIntToFloat[uint8])
	t.Run("int16", testIntToFloat[int16])
	t.Run("uint16", testIntToFloat[uint16])
	t.Run("int32", testIntToFloat[int32])
	t.Run("uint32", testIntToFloat[uint32])
	t.Run("int64", testIntToFloat[int64])
	t.Run("uint64", testIntToFloat[uint64])
}

func TestFloatConvAgainstGo(t *testing.T) {
	skipUnlessAmd64(t)
	b := NewBuilder()
	for _, from := range []uint8{32, 64} {
		to := 96 - from
		v := b.Var(0, from)
		e := b.FConv(v, to)
		if e.Kind != KFConv || e.Width != to {
			t.Fatalf("FConv(float%d, %d) = %v", from, to, e)
		}
		for _, x := range floatEdges(from) {
			var want uint64
			if from == 32 {
				want = math.Float64bits(goF32ToF64(math.Float32frombits(uint32(x))))
			} else {
				want = uint64(math.Float32bits(goF64ToF32(math.Float64frombits(x))))
			}
			name := fmt.Sprintf("float%d(%s)", to, fmtFloat(x, from))
			if got := Eval(e, Env{0: x}); got != want {
				t.Errorf("%s = %#x, want %#x", name, got, want)
			}
			if c := b.FConv(b.Const(x, from), to); c.Kind != KConst || c.Val != want {
				t.Errorf("%s of a constant folds to %v, want %#x", name, c, want)
			}
		}
	}
}

func TestFloatBuilder(t *testing.T) {
	b := NewBuilder()
	x, y := b.Var(0, 64), b.Var(1, 64)
	s := b.Var(2, 32)
	i := b.Var(3, 16)
	tests := []struct {
		name string
		got  *Expr
		want string
	}{
		{"add", b.FBin(KFAdd, x, y), "(v0:64 +f v1:64)"},
		{"add not commuted", b.FBin(KFAdd, y, x), "(v1:64 +f v0:64)"},
		{"add zero kept", b.FBin(KFAdd, x, b.Const(0, 64)), "(v0:64 +f 0:64)"},
		{"div", b.FBin(KFDiv, s, s), "(v2:32 /f v2:32)"},
		{"neg", b.FNeg(x), "fneg(v0:64)"},
		{"neg neg", b.FNeg(b.FNeg(x)), "v0:64"},
		{"eq", b.FCmp(KFEq, x, x), "(v0:64 ==f v0:64)"},
		{"lt", b.FCmp(KFLt, s, b.Const(0x3f800000, 32)), "(v2:32 <f 1065353216:32)"},
		{"le", b.FCmp(KFLe, x, y), "(v0:64 <=f v1:64)"},
		{"ftos", b.FToInt(x, 32, true), "ftos32(v0:64)"},
		{"ftou", b.FToInt(s, 8, false), "ftou8(v2:32)"},
		{"stof", b.IntToF(i, 64, true), "stof64(v3:16)"},
		{"utof", b.IntToF(i, 32, false), "utof32(v3:16)"},
		{"fconv", b.FConv(x, 32), "fconv32(v0:64)"},
		{"fconv same width", b.FConv(x, 64), "v0:64"},
		{"fold", b.FBin(KFMul, b.Const(math.Float64bits(1.5), 64), b.Const(math.Float64bits(2), 64)),
			fmt.Sprintf("%d:64", math.Float64bits(3))},
		{"fold compare", b.FCmp(KFLt, b.Const(math.Float64bits(-1), 64), b.Const(0, 64)), "true"},
		{"bits of a conversion", b.Eq(b.IntToF(i, 64, true), b.Const(0, 64)), "(stof64(v3:16) == 0:64)"},
	}
	for _, tt := range tests {
		if s := tt.got.String(); s != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, s, tt.want)
		}
		checkMakeRebuilds(t, b, tt.got)
		if err := wellSorted(tt.got); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	// Sharing.
	if b.FBin(KFAdd, x, y) != b.FBin(KFAdd, x, y) || b.FToInt(x, 32, true) == b.FToInt(x, 32, false) ||
		b.IntToF(i, 64, true) == b.IntToF(i, 64, false) || b.FToInt(x, 32, true) == b.FToInt(x, 16, true) {
		t.Error("float nodes are not shared exactly when equal")
	}
}

func TestFloatBuilderPanicsOnIllSorted(t *testing.T) {
	b := NewBuilder()
	x8, x16, x32, x64 := b.Var(0, 8), b.Var(1, 16), b.Var(2, 32), b.Var(3, 64)
	p := b.Var(12, 0)
	tests := []struct {
		name string
		mk   func() *Expr
	}{
		{"fadd of 8-bit terms", func() *Expr { return b.FBin(KFAdd, x8, x8) }},
		{"fadd of 32 and 64 bits", func() *Expr { return b.FBin(KFAdd, x32, x64) }},
		{"fadd of booleans", func() *Expr { return b.FBin(KFAdd, p, p) }},
		{"FBin with an integer kind", func() *Expr { return b.FBin(KAdd, x32, x32) }},
		{"FCmp with an integer kind", func() *Expr { return b.FCmp(KULt, x32, x32) }},
		{"FCmp of 16-bit terms", func() *Expr { return b.FCmp(KFLt, x16, x16) }},
		{"FCmp of 32 and 64 bits", func() *Expr { return b.FCmp(KFEq, x32, x64) }},
		{"fneg of 16 bits", func() *Expr { return b.FNeg(x16) }},
		{"fneg of a boolean", func() *Expr { return b.FNeg(p) }},
		{"ftoi of 8 bits", func() *Expr { return b.FToInt(x8, 32, true) }},
		{"ftoi to width 7", func() *Expr { return b.FToInt(x64, 7, true) }},
		{"itof to width 16", func() *Expr { return b.IntToF(x16, 16, true) }},
		{"itof of a boolean", func() *Expr { return b.IntToF(p, 64, false) }},
		{"fconv to width 16", func() *Expr { return b.FConv(x32, 16) }},
		{"fconv of 8 bits", func() *Expr { return b.FConv(x8, 32) }},
	}
	for _, tt := range tests {
		var e *Expr
		panicked := func() (panicked bool) {
			defer func() { panicked = recover() != nil }()
			e = tt.mk()
			return false
		}()
		if !panicked {
			t.Errorf("%s: made %v, want a panic", tt.name, e)
		}
	}
}

func TestFloatBitsIdentity(t *testing.T) {
	// math.Float64bits is the identity on terms: a float computed with
	// the float kinds can be inspected with the integer ones.
	b := NewBuilder()
	x := b.Var(0, 64)
	sum := b.FBin(KFAdd, x, b.Const(math.Float64bits(0.5), 64))
	signOfSum := b.Cmp(KULe, b.Const(1<<63, 64), sum) // Float64bits(x+0.5) has the sign bit
	for _, v := range []float64{-1, -0.5, 0, 2, math.Inf(-1)} {
		want := math.Signbit(v + 0.5)
		if got := Holds(signOfSum, Env{0: math.Float64bits(v)}); got != want {
			t.Errorf("sign of %v+0.5: %v, want %v", v, got, want)
		}
	}
}
