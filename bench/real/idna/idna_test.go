package idna

import "testing"

// FuzzToASCII runs CheckToASCII.
func FuzzToASCII(f *testing.F) {
	f.Add("Bücher.Example")
	f.Add("xn--mnchen-3ya.de")
	f.Fuzz(func(t *testing.T, s string) { CheckToASCII(s) })
}
