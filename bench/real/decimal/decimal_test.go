package decimal

import "testing"

// FuzzArith runs CheckArith.
func FuzzArith(f *testing.F) {
	f.Add("123.456", "-7.8e2")
	f.Add("0.000001", "3")
	f.Fuzz(func(t *testing.T, a, b string) { CheckArith(a, b) })
}

// FuzzFromFloat runs CheckFromFloat.
func FuzzFromFloat(f *testing.F) {
	f.Add(0.1)
	f.Add(-123456.789e-20)
	f.Fuzz(func(t *testing.T, x float64) { CheckFromFloat(x) })
}

// FuzzParse runs CheckParse.
func FuzzParse(f *testing.F) {
	f.Add("-0012.3450e-3")
	f.Add("9.99999E+12")
	f.Add(".5")
	f.Fuzz(func(t *testing.T, s string) { CheckParse(s) })
}
