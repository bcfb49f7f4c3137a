// Package snappy holds native fuzz targets (in its test files) of
// github.com/golang/snappy: block and stream decoding.
package snappy

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/golang/snappy"

// GocolicTags are the build tags gocolic builds the package with: snappy
// decodes and encodes in assembly on amd64 and arm64, which the
// instrumenter cannot see into; "noasm" selects its pure-Go version. Go's
// fuzzer and the coverage replay build the package as shipped.
const GocolicTags = "noasm"
