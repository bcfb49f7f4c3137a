// Package snappy holds native fuzz targets (in its test files) of
// github.com/golang/snappy: block and stream decoding.
package snappy

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/golang/snappy"
