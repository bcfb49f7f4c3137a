// Package hash is a target of the concolic-walk benchmark (bench/walk) for
// the constraint class "bit-vector hash collisions": conditions on a small
// multiply-shift-xor hash of 32-bit inputs that hold only for collisions
// or preimages. For a fixed second word the hash is a bijection of the
// first (each step is invertible), so every condition below is
// satisfiable, but only by inputs that invert the mixing.
package hash

// mix hashes two words: a multiplication by an odd constant, a
// polynomial step, and xor-shifts, each a bijection of the running state.
func mix(a, b int32) uint32 {
	h := uint32(a) * 0x9e3779b1
	h ^= h >> 15
	h = h*31 + uint32(b)
	h ^= h << 7
	h ^= h >> 11
	return h
}

// Collide tests collision and preimage conditions on the hash of (a, b)
// and of (c, d) and returns a bit mask with one bit set per condition that
// held.
func Collide(a, b, c, d int32) int {
	mask := 0
	h1 := mix(a, b)
	h2 := mix(c, d)
	// A collision of two different pairs.
	if h1 == h2 && (a != c || b != d) {
		mask |= 1 << 0
	}
	// A full preimage of a given value.
	if h1 == 0xdeadbeef {
		mask |= 1 << 1
	}
	// A partial preimage: the low half of the hash.
	if h1&0xffff == 0x1234 {
		mask |= 1 << 2
	}
	// Two hashes that differ in the top bit only.
	if h1^h2 == 0x80000000 {
		mask |= 1 << 3
	}
	// A hash of a hash: chained, with the second word free.
	if mix(int32(h1), c) < 1000 {
		mask |= 1 << 4
	}
	// A collision where both pairs share their first word.
	if a == c && b != d && h1>>16 == h2>>16 {
		mask |= 1 << 5
	}
	return mask
}
