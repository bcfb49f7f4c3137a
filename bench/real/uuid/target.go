// Package uuid holds native fuzz targets (in its test files) of
// github.com/google/uuid: UUID parsing and formatting.
package uuid

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/google/uuid"
