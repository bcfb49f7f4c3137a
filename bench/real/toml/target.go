// Package toml holds native fuzz targets (in its test files) of
// github.com/BurntSushi/toml: TOML decoding and encoding.
package toml

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/BurntSushi/toml"
