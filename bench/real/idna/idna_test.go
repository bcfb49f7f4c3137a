package idna

import (
	"testing"

	"golang.org/x/net/idna"
)

// FuzzToASCII converts a domain name to ASCII (and back to Unicode) under
// the Lookup, Registration and Display profiles. Under Lookup, a name
// that converts must convert to itself again.
func FuzzToASCII(f *testing.F) {
	f.Add("Bücher.Example")
	f.Add("xn--mnchen-3ya.de")
	f.Fuzz(func(t *testing.T, s string) {
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
					t.Fatalf("Lookup.ToASCII(%q) = %q, and again: %q, %v", s, a, again, err)
				}
			}
		}
	})
}
