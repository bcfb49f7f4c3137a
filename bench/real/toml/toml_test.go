package toml

import "testing"

// FuzzDecode runs CheckDecode.
func FuzzDecode(f *testing.F) {
	f.Add("title = \"x\"\n[owner]\nname = 'Tom'\ndob = 1979-05-27T07:32:00-08:00\n")
	f.Add("a = [1, 2.5e3, true]\n[[t]]\nk = { x = 0x1F }\n")
	f.Fuzz(func(t *testing.T, s string) { CheckDecode(s) })
}
