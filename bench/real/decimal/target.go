// Package decimal holds native fuzz targets (in its test files) of
// github.com/shopspring/decimal: arbitrary-precision decimal arithmetic.
package decimal

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/shopspring/decimal"
