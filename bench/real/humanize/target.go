// Package humanize holds native fuzz targets (in its test files) of
// github.com/dustin/go-humanize: number and byte-size formatting and parsing.
package humanize

import (
	"math"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/dustin/go-humanize"

// CheckParseBytes parses a byte size ("42 MB", "1.5 GiB", "1,024 kb"). A
// size that parses must parse again, within the 5% rounding of Bytes,
// from the form Bytes and IBytes give it.
func CheckParseBytes(s string) {
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
				prop.Failf("ParseBytes(%q) = %d, whose form %q does not parse: %v", s, n, form, err)
			}
			continue
		}
		if d := math.Abs(float64(m) - float64(n)); d > 0.051*float64(n)+0.5 {
			prop.Failf("ParseBytes(%q) = %d, whose form %q parses to %d", s, n, form, m)
		}
	}
}

// CheckComma formats an integer and a float with thousands separators and
// in SI units. Comma and Commaf must round-trip exactly through
// ParseComma and ParseCommaf, and what SI writes must parse.
func CheckComma(n int64, x float64) {
	s := humanize.Comma(n)
	if back, err := humanize.ParseComma(s); err != nil || back != n {
		prop.Failf("Comma(%d) = %q, ParseComma gives %d, %v", n, s, back, err)
	}
	_ = humanize.Ordinal(int(n))
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return
	}
	sf := humanize.Commaf(x)
	if back, err := humanize.ParseCommaf(sf); err != nil || back != x {
		prop.Failf("Commaf(%v) = %q, ParseCommaf gives %v, %v", x, sf, back, err)
	}
	_ = humanize.CommafWithDigits(x, int(n%12))
	_ = humanize.Ftoa(x)
	_ = humanize.FtoaWithDigits(x, int(n%12))
	v, prefix := humanize.ComputeSI(x)
	_, _ = v, prefix
	if _, _, err := humanize.ParseSI(humanize.SI(x, "B")); err != nil {
		prop.Failf("SI(%v) = %q does not parse: %v", x, humanize.SI(x, "B"), err)
	}
}

// CheckFormatFloat renders x in the custom format ("#,###.##",
// "+#.###,##"). FormatFloat documents that it panics on a malformed
// format: those panics, with its "FormatFloat(): " message, are expected;
// any other is a finding.
func CheckFormatFloat(format string, x float64) {
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
}
