package toml

import (
	"bytes"
	"testing"

	"github.com/BurntSushi/toml"
)

// FuzzDecode decodes a TOML document into a map. A document that decodes
// is encoded again, and the encoding must decode.
func FuzzDecode(f *testing.F) {
	f.Add("title = \"x\"\n[owner]\nname = 'Tom'\ndob = 1979-05-27T07:32:00-08:00\n")
	f.Add("a = [1, 2.5e3, true]\n[[t]]\nk = { x = 0x1F }\n")
	f.Fuzz(func(t *testing.T, s string) {
		var m map[string]any
		md, err := toml.Decode(s, &m)
		if err != nil {
			_ = err.Error()
			return
		}
		_ = md.Keys()
		var buf bytes.Buffer
		if err := toml.NewEncoder(&buf).Encode(m); err != nil {
			return // some decoded values have no TOML encoding
		}
		var again map[string]any
		if _, err := toml.Decode(buf.String(), &again); err != nil {
			t.Fatalf("Decode(%q) ok, but its encoding %q does not decode: %v", s, buf.String(), err)
		}
	})
}
