// Package idna holds native fuzz targets (in its test files) of
// golang.org/x/net/idna: internationalised domain names.
package idna

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "golang.org/x/net/idna"
