// Package crc is a target of the concolic-walk benchmark (bench/walk) for
// the constraint class "checksums computed by library code": conditions
// on crc32.ChecksumIEEE of a byte slice and of a string. The checksum is
// computed by the standard library, outside the instrumented package, so
// classic concolic testing sees only its concrete value. CRC-32 of exactly
// four bytes is a bijection of those bytes, so the exact conditions have
// a solution.
package crc

import "hash/crc32"

// Check tests conditions on the CRC-32 (IEEE) of data and of s and returns
// a bit mask with one bit set per condition that held.
func Check(data []byte, s string) int {
	mask := 0
	c := crc32.ChecksumIEEE(data)
	// The low byte of the checksum.
	if c&0xff == 0x42 {
		mask |= 1 << 0
	}
	// The whole checksum of a four-byte input: one solution.
	if len(data) == 4 && c == 0xcafebabe {
		mask |= 1 << 1
	}
	cs := crc32.ChecksumIEEE([]byte(s))
	// The top byte of the string's checksum.
	if len(s) >= 2 && cs>>24 == 0x7f {
		mask |= 1 << 2
	}
	// The two checksums complementary.
	if len(s) == 4 && len(data) == 4 && cs == ^c {
		mask |= 1 << 3
	}
	// A string with a given first letter and checksum residue.
	if len(s) > 0 && s[0] == 'G' && cs%1000 == 7 {
		mask |= 1 << 4
	}
	// data followed by s checksums to zero.
	if len(s) == 4 && crc32.Update(c, crc32.IEEETable, []byte(s)) == 0 {
		mask |= 1 << 5
	}
	return mask
}
