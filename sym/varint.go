package sym

// The wire encodings of terms (encode.go) and of the runtime's messages use
// unsigned varints. They are written here rather than taken from
// encoding/binary because sym is compiled into the worker, beneath the
// standard packages gocolic instruments in place: the worker's runtime
// must not import encoding/binary (the runtime's floor, build/floor.go).

// AppendUvarint appends v to b as an unsigned varint, seven bits a byte,
// low bits first, as encoding/binary.AppendUvarint does.
func AppendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// maxVarintLen is the longest encoding of a uint64.
const maxVarintLen = 10

// Uvarint decodes an unsigned varint from the start of b, as
// encoding/binary.Uvarint does: the value and the number of bytes read; 0
// bytes if b is too short, a negative count -n if the value overflows 64
// bits at byte n.
func Uvarint(b []byte) (uint64, int) {
	var v uint64
	var s uint
	for i, c := range b {
		if i == maxVarintLen {
			return 0, -(i + 1) // overflow
		}
		if c < 0x80 {
			if i == maxVarintLen-1 && c > 1 {
				return 0, -(i + 1) // overflow
			}
			return v | uint64(c)<<s, i + 1
		}
		v |= uint64(c&0x7f) << s
		s += 7
	}
	return 0, 0
}
