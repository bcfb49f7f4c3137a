package btree

import "testing"

// FuzzOps runs CheckOps.
func FuzzOps(f *testing.F) {
	// Two bytes an operation: opcode, key.
	f.Add(uint8(0), []byte{0, 5, 0, 3, 0, 9, 2, 3, 3, 0, 4, 0, 0, 7, 5, 7})
	f.Add(uint8(1), []byte{0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 6, 2, 7, 5, 2, 4})
	f.Fuzz(func(t *testing.T, degree uint8, ops []byte) { CheckOps(degree, ops) })
}
