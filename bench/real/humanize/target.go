// Package humanize holds native fuzz targets (in its test files) of
// github.com/dustin/go-humanize: number and byte-size formatting and parsing.
package humanize

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/dustin/go-humanize"
