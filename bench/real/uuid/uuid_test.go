package uuid

import "testing"

// FuzzParse runs CheckParse.
func FuzzParse(f *testing.F) {
	f.Add("f47ac10b-58cc-4372-a567-0e02b2c3d479")
	f.Add("urn:uuid:{00000000-0000-0000-0000-000000000000}")
	f.Fuzz(func(t *testing.T, s string) { CheckParse(s) })
}

// FuzzFromBytes runs CheckFromBytes.
func FuzzFromBytes(f *testing.F) {
	f.Add([]byte("\xf4\x7a\xc1\x0b\x58\xcc\x43\x72\xa5\x67\x0e\x02\xb2\xc3\xd4\x79"))
	f.Add([]byte("{f47ac10b-58cc-4372-a567-0e02b2c3d479}"))
	f.Add([]byte("f47ac10b58cc4372a5670e02b2c3d479"))
	f.Fuzz(func(t *testing.T, b []byte) { CheckFromBytes(b) })
}
