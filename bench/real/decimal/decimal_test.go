package decimal

import (
	"math"
	"testing"

	"github.com/shopspring/decimal"
)

// small bounds the exponents and digits the arithmetic checks take, so
// that no input makes the big-integer arithmetic run for long.
func small(d decimal.Decimal) bool {
	return d.Exponent() > -200 && d.Exponent() < 200 && d.NumDigits() < 200
}

// FuzzArith parses two decimals and checks the laws of exact decimal
// arithmetic on them: (x+y)-y = x, x = q*y + r for QuoRem, antisymmetric
// comparison, and the String round trip.
func FuzzArith(f *testing.F) {
	f.Add("123.456", "-7.8e2")
	f.Add("0.000001", "3")
	f.Fuzz(func(t *testing.T, a, b string) {
		x, err := decimal.NewFromString(a)
		if err != nil {
			return
		}
		y, err := decimal.NewFromString(b)
		if err != nil || !small(x) || !small(y) {
			return
		}
		if s := x.String(); !mustParse(t, s).Equal(x) {
			t.Fatalf("NewFromString(%q).String() = %q parses to another value", a, s)
		}
		if got := x.Add(y).Sub(y); !got.Equal(x) {
			t.Fatalf("(%v + %v) - %v = %v", x, y, y, got)
		}
		if x.Cmp(y) != -y.Cmp(x) {
			t.Fatalf("Cmp(%v, %v) is not antisymmetric", x, y)
		}
		p := x.Mul(y)
		if x.Sign()*y.Sign() != p.Sign() {
			t.Fatalf("sign of %v * %v = %v", x, y, p)
		}
		if !y.IsZero() {
			q, r := x.QuoRem(y, 0)
			if got := q.Mul(y).Add(r); !got.Equal(x) {
				t.Fatalf("QuoRem(%v, %v) = %v, %v: q*y + r = %v", x, y, q, r, got)
			}
			if r.Abs().Cmp(y.Abs()) >= 0 {
				t.Fatalf("QuoRem(%v, %v): |remainder %v| >= |divisor|", x, y, r)
			}
			_ = x.DivRound(y, 8)
			_ = x.Mod(y)
		}
		_ = x.Round(2).StringFixed(3)
		_ = x.Truncate(1).Floor().Ceil()
	})
}

func mustParse(t *testing.T, s string) decimal.Decimal {
	d, err := decimal.NewFromString(s)
	if err != nil {
		t.Fatalf("NewFromString(%q): %v", s, err)
	}
	return d
}

// FuzzFromFloat converts a float to a decimal, which must convert back
// to the same float and print as a decimal that parses to it.
func FuzzFromFloat(f *testing.F) {
	f.Add(0.1)
	f.Add(-123456.789e-20)
	f.Fuzz(func(t *testing.T, x float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return // NewFromFloat panics on these, by its documentation
		}
		d := decimal.NewFromFloat(x)
		if back := d.InexactFloat64(); back != x {
			t.Fatalf("NewFromFloat(%v) = %v, back to float64: %v", x, d, back)
		}
		if s := d.String(); !mustParse(t, s).Equal(d) {
			t.Fatalf("NewFromFloat(%v).String() = %q parses to another value", x, s)
		}
		x32 := float32(x)
		if math.IsInf(float64(x32), 0) {
			return
		}
		d32 := decimal.NewFromFloat32(x32)
		if back, _ := d32.Float64(); float32(back) != x32 {
			t.Fatalf("NewFromFloat32(%v) = %v, back to float32: %v", x32, d32, float32(back))
		}
	})
}
