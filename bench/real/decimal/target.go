// Package decimal holds native fuzz targets (in its test files) of
// github.com/shopspring/decimal: arbitrary-precision decimal arithmetic.
package decimal

import (
	"math"

	"github.com/shopspring/decimal"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/shopspring/decimal"

// small bounds the exponents and digits the arithmetic checks take, so
// that no input makes the big-integer arithmetic run for long.
func small(d decimal.Decimal) bool {
	return d.Exponent() > -200 && d.Exponent() < 200 && d.NumDigits() < 200
}

// mustParse parses s, which a String method wrote.
func mustParse(s string) decimal.Decimal {
	d, err := decimal.NewFromString(s)
	if err != nil {
		prop.Failf("NewFromString(%q): %v", s, err)
	}
	return d
}

// CheckArith parses two decimals and checks the laws of exact decimal
// arithmetic on them: (x+y)-y = x, x = q*y + r for QuoRem, antisymmetric
// comparison, the sign of products, and the String round trip.
func CheckArith(a, b string) {
	x, err := decimal.NewFromString(a)
	if err != nil {
		return
	}
	y, err := decimal.NewFromString(b)
	if err != nil || !small(x) || !small(y) {
		return
	}
	if s := x.String(); !mustParse(s).Equal(x) {
		prop.Failf("NewFromString(%q).String() = %q parses to another value", a, s)
	}
	if got := x.Add(y).Sub(y); !got.Equal(x) {
		prop.Failf("(%v + %v) - %v = %v", x, y, y, got)
	}
	if x.Cmp(y) != -y.Cmp(x) {
		prop.Failf("Cmp(%v, %v) is not antisymmetric", x, y)
	}
	p := x.Mul(y)
	if x.Sign()*y.Sign() != p.Sign() {
		prop.Failf("sign of %v * %v = %v", x, y, p)
	}
	if !y.IsZero() {
		q, r := x.QuoRem(y, 0)
		if got := q.Mul(y).Add(r); !got.Equal(x) {
			prop.Failf("QuoRem(%v, %v) = %v, %v: q*y + r = %v", x, y, q, r, got)
		}
		if r.Abs().Cmp(y.Abs()) >= 0 {
			prop.Failf("QuoRem(%v, %v): |remainder %v| >= |divisor|", x, y, r)
		}
		_ = x.DivRound(y, 8)
		_ = x.Mod(y)
	}
	_ = x.Round(2).StringFixed(3)
	_ = x.Truncate(1).Floor().Ceil()
}

// CheckFromFloat converts x to a decimal, which must convert back to the
// same float and print as a decimal that parses to it; the same for x as
// a float32.
func CheckFromFloat(x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return // NewFromFloat panics on these, by its documentation
	}
	d := decimal.NewFromFloat(x)
	if back := d.InexactFloat64(); back != x {
		prop.Failf("NewFromFloat(%v) = %v, back to float64: %v", x, d, back)
	}
	if s := d.String(); !mustParse(s).Equal(d) {
		prop.Failf("NewFromFloat(%v).String() = %q parses to another value", x, s)
	}
	x32 := float32(x)
	if math.IsInf(float64(x32), 0) {
		return
	}
	d32 := decimal.NewFromFloat32(x32)
	if back, _ := d32.Float64(); float32(back) != x32 {
		prop.Failf("NewFromFloat32(%v) = %v, back to float32: %v", x32, d32, float32(back))
	}
}

// CheckParse parses s with NewFromString and, if it is small, checks the
// text forms against each other: String parses back to an equal value,
// RequireFromString agrees, the JSON and text encodings round-trip, and
// StringFixed(n) parses to Round(n).
func CheckParse(s string) {
	d, err := decimal.NewFromString(s)
	if err != nil || !small(d) {
		return
	}
	if again := mustParse(d.String()); !again.Equal(d) {
		prop.Failf("NewFromString(%q) = %v, whose String parses to %v", s, d, again)
	}
	js, err := d.MarshalJSON()
	if err != nil {
		prop.Failf("MarshalJSON(%v): %v", d, err)
	}
	var j decimal.Decimal
	if err := j.UnmarshalJSON(js); err != nil || !j.Equal(d) {
		prop.Failf("UnmarshalJSON(%s) = %v, %v; want %v", js, j, err, d)
	}
	var t decimal.Decimal
	if err := t.UnmarshalText([]byte(s)); err != nil || !t.Equal(d) {
		prop.Failf("UnmarshalText(%q) = %v, %v; NewFromString = %v", s, t, err, d)
	}
	for _, n := range []int32{0, 2, -1} {
		if f, r := mustParse(d.StringFixed(n)), d.Round(n); !f.Equal(r) {
			prop.Failf("NewFromString(%q).StringFixed(%d) = %v, Round = %v", s, n, f, r)
		}
	}
}
