// Package gjson holds native fuzz targets (in its test files) of
// github.com/tidwall/gjson: JSON validation and path queries.
package gjson

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/tidwall/gjson"
