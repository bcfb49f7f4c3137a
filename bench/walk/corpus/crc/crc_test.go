package crc

import "testing"

// FuzzCrc is a native fuzz target of Check, from zero values, so that
// bench/compare runs go test -fuzz and gocolic fuzz on this program too.
func FuzzCrc(f *testing.F) {
	f.Add([]byte{}, "")
	f.Fuzz(func(t *testing.T, data []byte, s string) {
		Check(data, s)
	})
}
