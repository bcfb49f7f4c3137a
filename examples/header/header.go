// Package header parses the fixed header of a small binary packet format.
// It shows byte-slice parsing: magic bytes, a version byte, flag bits, a
// big-endian length field that must agree with the slice length, a
// Fletcher-16 header checksum, and a type-length-value option area whose
// walker has an off-by-one bounds bug. Random mutation of the option area
// almost always breaks the checksum.
package header

import (
	"errors"
	"fmt"
)

// Header layout:
//
//	0-1  magic "GC"
//	2    version, 1 or 2
//	3    flags (flagOptions is version 2 only)
//	4-5  payload length, big-endian
//	6    header length in bytes, at least 10; options fill bytes 10 up to it
//	7    reserved, must be 0
//	8-9  header checksum: Fletcher-16 of the header bytes other than
//	     these two, big-endian
//
// The payload follows the header.
const (
	minHeader   = 10
	flagOptions = 0x01
	flagUrgent  = 0x02
)

// PayloadLen validates the packet pkt and returns its payload length.
func PayloadLen(pkt []byte) (int, error) {
	if len(pkt) < minHeader {
		return 0, errors.New("header: short packet")
	}
	if pkt[0] != 'G' || pkt[1] != 'C' {
		return 0, errors.New("header: bad magic")
	}
	ver := pkt[2]
	if ver != 1 && ver != 2 {
		return 0, fmt.Errorf("header: unsupported version %d", ver)
	}
	flags := pkt[3]
	if ver == 1 && flags&^flagUrgent != 0 {
		return 0, errors.New("header: version 1 supports only the urgent flag")
	}
	plen := be16(pkt[4:6])
	hlen := int(pkt[6])
	if pkt[7] != 0 {
		return 0, errors.New("header: reserved byte set")
	}
	if hlen < minHeader || hlen > len(pkt) {
		return 0, fmt.Errorf("header: bad header length %d", hlen)
	}
	if fletcher16(pkt[:hlen]) != be16(pkt[8:10]) {
		return 0, errors.New("header: bad header checksum")
	}
	if plen != len(pkt)-hlen {
		return 0, errors.New("header: payload length mismatch")
	}
	if flags&flagOptions != 0 {
		n, err := countOptions(pkt[minHeader:hlen])
		if err != nil {
			return 0, err
		}
		if n == 0 {
			return 0, errors.New("header: options flag set but no options")
		}
	} else if hlen != minHeader {
		return 0, errors.New("header: padding without options")
	}
	if flags&flagUrgent != 0 && plen == 0 {
		return 0, errors.New("header: urgent packet without payload")
	}
	return plen, nil
}

// be16 decodes a big-endian 16-bit value from the first two bytes of b.
func be16(b []byte) int {
	return int(b[0])<<8 | int(b[1])
}

// fletcher16 returns the Fletcher-16 checksum of the header bytes hdr,
// skipping the checksum field itself (bytes 8 and 9).
func fletcher16(hdr []byte) int {
	s1, s2 := 0, 0
	for i, c := range hdr {
		if i == 8 || i == 9 {
			continue
		}
		s1 = (s1 + int(c)) % 255
		s2 = (s2 + s1) % 255
	}
	return s2<<8 | s1
}

// countOptions walks the options: a type byte, a length byte, then that many
// data bytes. Type 0 ends the list early.
func countOptions(opts []byte) (int, error) {
	n := 0
	i := 0
	for i < len(opts) {
		typ := opts[i]
		if typ == 0 {
			break
		}
		// The bounds check below comes too late for the length byte itself.
		// planted: index out of range
		size := int(opts[i+1])
		if i+2+size > len(opts) {
			return n, errors.New("header: option overruns header")
		}
		i += 2 + size
		n++
	}
	return n, nil
}
