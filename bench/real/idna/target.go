// Package idna holds native fuzz targets (in its test files) of
// golang.org/x/net/idna: internationalised domain names.
package idna

import (
	"golang.org/x/net/idna"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "golang.org/x/net/idna"

// CheckToASCII converts the domain name s to ASCII (and back to Unicode)
// under the Lookup, Registration and Display profiles. Under Lookup, a
// name that converts must convert to itself again.
func CheckToASCII(s string) {
	for _, p := range []*idna.Profile{idna.Lookup, idna.Registration, idna.Display} {
		a, err := p.ToASCII(s)
		if err != nil {
			continue
		}
		if _, err := p.ToUnicode(a); err != nil {
			continue
		}
		if p == idna.Lookup {
			again, err := p.ToASCII(a)
			if err != nil || again != a {
				prop.Failf("Lookup.ToASCII(%q) = %q, and again: %q, %v", s, a, again, err)
			}
		}
	}
}
