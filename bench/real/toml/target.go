// Package toml holds native fuzz targets (in its test files) of
// github.com/BurntSushi/toml: decoding and encoding.
package toml

import (
	"bytes"

	"github.com/BurntSushi/toml"

	"github.com/gocolic/gocolic/bench/real/internal/prop"
)

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/BurntSushi/toml"

// CheckDecode decodes the TOML document s into a map. A document that
// decodes is encoded again, and the encoding must decode.
func CheckDecode(s string) {
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
		prop.Failf("Decode(%q) ok, but its encoding %q does not decode: %v", s, buf.String(), err)
	}
}
