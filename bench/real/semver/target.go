// Package semver holds native fuzz targets (in its test files) of
// github.com/Masterminds/semver/v3: version and constraint parsing.
package semver

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/Masterminds/semver/v3"
