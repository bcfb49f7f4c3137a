package humanize

import (
	"math"
	"strings"
	"testing"

	"github.com/dustin/go-humanize"
)

// FuzzParseBytes parses a byte size ("42 MB", "1.5 GiB", "1,024 kb"). A
// size that parses must parse again, within the 5% rounding of Bytes,
// from the form Bytes and IBytes give it.
func FuzzParseBytes(f *testing.F) {
	f.Add("42 MB")
	f.Add("1,536.5 kib")
	f.Fuzz(func(t *testing.T, s string) {
		n, err := humanize.ParseBytes(s)
		if big, berr := humanize.ParseBigBytes(s); berr == nil {
			_ = big.String()
		}
		if err != nil {
			return
		}
		for _, form := range []string{humanize.Bytes(n), humanize.IBytes(n)} {
			m, err := humanize.ParseBytes(form)
			if err != nil {
				if n < 1<<63 {
					t.Fatalf("ParseBytes(%q) = %d, whose form %q does not parse: %v", s, n, form, err)
				}
				continue
			}
			if d := math.Abs(float64(m) - float64(n)); d > 0.051*float64(n)+0.5 {
				t.Fatalf("ParseBytes(%q) = %d, whose form %q parses to %d", s, n, form, m)
			}
		}
	})
}

// FuzzComma formats an integer and a float with thousands separators and
// in SI units. Comma and Commaf must round-trip exactly through
// ParseComma and ParseCommaf.
func FuzzComma(f *testing.F) {
	f.Add(int64(-1234567), 1234.5678)
	f.Add(int64(7), 1e21)
	f.Fuzz(func(t *testing.T, n int64, x float64) {
		s := humanize.Comma(n)
		if back, err := humanize.ParseComma(s); err != nil || back != n {
			t.Fatalf("Comma(%d) = %q, ParseComma gives %d, %v", n, s, back, err)
		}
		_ = humanize.Ordinal(int(n))
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		sf := humanize.Commaf(x)
		if back, err := humanize.ParseCommaf(sf); err != nil || back != x {
			t.Fatalf("Commaf(%v) = %q, ParseCommaf gives %v, %v", x, sf, back, err)
		}
		_ = humanize.CommafWithDigits(x, int(n%12))
		_ = humanize.Ftoa(x)
		_ = humanize.FtoaWithDigits(x, int(n%12))
		v, prefix := humanize.ComputeSI(x)
		_, _ = v, prefix
		if _, _, err := humanize.ParseSI(humanize.SI(x, "B")); err != nil {
			t.Fatalf("SI(%v) = %q does not parse: %v", x, humanize.SI(x, "B"), err)
		}
	})
}

// FuzzFormatFloat renders a float in a custom format ("#,###.##",
// "+#.###,##"). FormatFloat documents that it panics on a malformed
// format: those panics, with its "FormatFloat(): " message, are expected;
// any other is a finding.
func FuzzFormatFloat(f *testing.F) {
	f.Add("#,###.##", 12345.6789)
	f.Add("+#\u202f###,##", -0.5)
	f.Fuzz(func(t *testing.T, format string, x float64) {
		defer func() {
			if r := recover(); r != nil {
				if s, ok := r.(string); ok && strings.HasPrefix(s, "FormatFloat(): ") {
					return
				}
				panic(r)
			}
		}()
		_ = humanize.FormatFloat(format, x)
		_ = humanize.FormatInteger(format, int(x))
	})
}
