package humanize

import "testing"

// FuzzParseBytes runs CheckParseBytes.
func FuzzParseBytes(f *testing.F) {
	f.Add("42 MB")
	f.Add("1,536.5 kib")
	f.Fuzz(func(t *testing.T, s string) { CheckParseBytes(s) })
}

// FuzzComma runs CheckComma.
func FuzzComma(f *testing.F) {
	f.Add(int64(-1234567), 1234.5678)
	f.Add(int64(7), 1e21)
	f.Fuzz(func(t *testing.T, n int64, x float64) { CheckComma(n, x) })
}

// FuzzFormatFloat runs CheckFormatFloat.
func FuzzFormatFloat(f *testing.F) {
	f.Add("#,###.##", 12345.6789)
	f.Add("+#\u202f###,##", -0.5)
	f.Fuzz(func(t *testing.T, format string, x float64) { CheckFormatFloat(format, x) })
}
