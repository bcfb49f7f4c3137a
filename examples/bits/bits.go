// Package bits decodes 16-bit control words that travel with a 16-bit check
// code. It shows shifts, masks and rotations, and classic bit tricks:
// clearing the lowest set bit to count bits, the power-of-two test, isolating
// the lowest set bit, and bit reversal.
package bits

import (
	"errors"
	"fmt"
)

// A packed word is data<<16 | check, where check = checkCode(data).
// Within data, the top 4 bits are the opcode and the low 12 bits the argument.
const argMask = 0x0FFF

// Decode verifies the check code of word and executes its opcode on the
// 12-bit argument, returning the result.
func Decode(word uint32) (int, error) {
	data := uint16(word >> 16)
	if uint16(word) != checkCode(data) {
		return 0, errors.New("bits: check code mismatch")
	}
	op := data >> 12
	arg := data & argMask
	switch op {
	case 0x0: // nop
		return 0, nil
	case 0x1: // population count
		return popcount(arg), nil
	case 0x2: // log2 of a power of two
		if arg == 0 || arg&(arg-1) != 0 {
			return 0, errors.New("bits: not a power of two")
		}
		return log2(arg), nil
	case 0x3: // lowest set bit
		return int(arg & (0 - arg)), nil
	case 0x4: // bit reversal within 12 bits
		return int(reverse12(arg)), nil
	case 0x5: // rotate the 12-bit argument left by 4
		return int((arg<<4 | arg>>8) & argMask), nil
	case 0x6: // parity
		return int(parity(arg)), nil
	case 0xF:
		// Reserved. Bit palindromes with exactly six bits set are the
		// line-sync pattern, which senders must never put in a word.
		if arg == reverse12(arg) && popcount(arg) == 6 {
			// planted: sync pattern in reserved opcode
			panic("bits: sync pattern in reserved opcode")
		}
		return 0, errors.New("bits: reserved opcode")
	}
	return 0, fmt.Errorf("bits: unknown opcode %d", op)
}

// checkCode mixes the data bits into a 16-bit check value.
func checkCode(d uint16) uint16 {
	r := d<<5 | d>>11 // rotate left by 5
	return d ^ r ^ d>>3 ^ 0xA5A5
}

// popcount counts set bits by repeatedly clearing the lowest one.
func popcount(x uint16) int {
	n := 0
	for x != 0 {
		x &= x - 1
		n++
	}
	return n
}

// log2 returns the index of the single set bit of a power of two.
func log2(x uint16) int {
	n := 0
	for x > 1 {
		x >>= 1
		n++
	}
	return n
}

// reverse12 reverses the order of the low 12 bits of x.
func reverse12(x uint16) uint16 {
	var r uint16
	for i := 0; i < 12; i++ {
		r = r<<1 | x&1
		x >>= 1
	}
	return r
}

// parity returns 1 if x has an odd number of set bits, by xor-folding.
func parity(x uint16) uint16 {
	x ^= x >> 8
	x ^= x >> 4
	x ^= x >> 2
	x ^= x >> 1
	return x & 1
}
