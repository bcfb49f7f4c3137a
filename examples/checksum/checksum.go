// Package checksum handles command frames protected by an Adler-32 style
// checksum. It shows a loop-computed checksum that must match a value stored
// in the input: a symbolic engine solves for the matching bytes, while random
// mutation gets past the check about once in 2^32 tries.
package checksum

import (
	"errors"
	"fmt"
)

const modAdler = 65521

// protocolID is checksummed ahead of every frame, like the pseudo-header of
// a TCP checksum, so that frames of other protocols do not verify by chance.
const protocolID = "GC"

// Handle executes one frame: a command byte, a payload, and in the last
// four bytes the big-endian Adler-32 of protocolID, command and payload. It
// returns the command's result.
func Handle(frame []byte) (int, error) {
	if len(frame) < 5 {
		return 0, errors.New("checksum: short frame")
	}
	n := len(frame) - 4
	body := frame[:n]
	want := be32(frame[n:])
	if adler32(protocolID, body) != want {
		return 0, errors.New("checksum: mismatch")
	}
	cmd := body[0]
	payload := body[1:]
	switch cmd {
	case 'P': // ping
		return 0, nil
	case 'E': // echo: report the payload length
		return len(payload), nil
	case 'S': // sum of payload bytes
		return sumBytes(payload), nil
	case 'R': // reset, guarded by a confirmation word
		if string(payload) != "now" {
			return 0, errors.New("checksum: reset needs confirmation")
		}
		return -1, nil
	}
	if cmd >= 0x80 {
		// planted: reserved command with valid checksum
		panic("checksum: reserved command with valid checksum")
	}
	return 0, fmt.Errorf("checksum: unknown command %d", cmd)
}

// adler32 computes the Adler-32 checksum of prefix followed by data.
func adler32(prefix string, data []byte) uint32 {
	a, b := uint32(1), uint32(0)
	for i := 0; i < len(prefix); i++ {
		a = (a + uint32(prefix[i])) % modAdler
		b = (b + a) % modAdler
	}
	for _, c := range data {
		a = (a + uint32(c)) % modAdler
		b = (b + a) % modAdler
	}
	return b<<16 | a
}

// be32 decodes a big-endian 32-bit value from the first four bytes of p.
func be32(p []byte) uint32 {
	return uint32(p[0])<<24 | uint32(p[1])<<16 | uint32(p[2])<<8 | uint32(p[3])
}

// sumBytes adds up the bytes of p.
func sumBytes(p []byte) int {
	s := 0
	for _, c := range p {
		s += int(c)
	}
	return s
}
