// Package btree holds native fuzz targets (in its test files) of
// github.com/google/btree: an in-memory B-tree, driven by sequences of operations.
package btree

// Target is the import path of the package the fuzz targets exercise. The
// realbench runner measures the coverage of this package.
const Target = "github.com/google/btree"
